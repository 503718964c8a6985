// SPDX-License-Identifier: GPL-2.0
/* arm64 specifics: the only file of the module that knows this arch. */
#include <linux/ptrace.h>

#include "../arch.h"
#include "../kpmod.h"

const char *kpmod_arch_name(void)
{
	return "arm64";
}

unsigned int kpmod_arch_nr_regs(void)
{
	return KPMOD_REG_ARM64_NR;
}

unsigned long kpmod_arch_reg(struct pt_regs *regs, unsigned int reg)
{
	switch (reg) {
	case KPMOD_REG_ARM64_SP:
		return regs->sp;
	case KPMOD_REG_ARM64_PC:
		return regs->pc;
	case KPMOD_REG_ARM64_PSTATE:
		return regs->pstate;
	default:
		return regs->regs[reg];
	}
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
