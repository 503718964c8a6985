// SPDX-License-Identifier: GPL-2.0
/* x86_64 specifics: the only file of the module that knows this arch. */
#include <linux/kprobes.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>
#include <asm/ftrace.h>

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

/*
 * A kernel-mode int3 is handled in NMI context; the ftrace path runs in
 * whatever context called the function.  In the rare case of a probed
 * function called from a real NMI, resuming after the ftrace call is what
 * kprobe_ftrace_handler() would do anyway (regs->ip is already there).
 */
int kpmod_arch_site_trap(struct kprobe *kp, struct pt_regs *regs)
{
#ifdef CONFIG_KPROBES_ON_FTRACE
	if (in_nmi()) {
		instruction_pointer_set(regs, (unsigned long)kp->addr + MCOUNT_INSN_SIZE);
		return 1;
	}
#endif
	return 0;
}

NOKPROBE_SYMBOL(kpmod_arch_site_trap);
