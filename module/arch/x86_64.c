// SPDX-License-Identifier: GPL-2.0
/* x86_64 specifics: the only file of the module that knows this arch. */
#include <linux/ptrace.h>

#include "../arch.h"
#include "../kpmod.h"

/* enum kpmod_reg_x86_64 is struct pt_regs, word by word. */
static_assert(KPMOD_REG_X86_NR * sizeof(unsigned long) == sizeof(struct pt_regs));
static_assert(KPMOD_REG_X86_DI * sizeof(unsigned long) == offsetof(struct pt_regs, di));
static_assert(KPMOD_REG_X86_SS * sizeof(unsigned long) == offsetof(struct pt_regs, ss));

const char *kpmod_arch_name(void)
{
	return "x86_64";
}

unsigned int kpmod_arch_nr_regs(void)
{
	return KPMOD_REG_X86_NR;
}

unsigned long kpmod_arch_reg(struct pt_regs *regs, unsigned int reg)
{
	return regs_get_register(regs, reg * sizeof(unsigned long));
}

unsigned long kpmod_arch_arg(struct pt_regs *regs, unsigned int n)
{
	return regs_get_kernel_argument(regs, n - 1);
}

unsigned long kpmod_arch_stack(struct pt_regs *regs, unsigned int n)
{
	return regs_get_kernel_stack_nth(regs, n);
}

unsigned long kpmod_arch_sp(struct pt_regs *regs)
{
	return kernel_stack_pointer(regs);
}

unsigned long kpmod_arch_retval(struct pt_regs *regs)
{
	return regs_return_value(regs);
}
