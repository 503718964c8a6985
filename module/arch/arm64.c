// SPDX-License-Identifier: GPL-2.0
/* arm64 specifics: the only file of the module that knows this arch. */
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/thread_info.h>
#include <linux/uaccess.h>

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

/*
 * The kernel's regs_get_kernel_stack_nth() is not exported on arm64: the
 * same check (the slot lies in the THREAD_SIZE-aligned stack the stack
 * pointer is in), with a read that cannot fault.
 */
unsigned long kpmod_arch_stack(struct pt_regs *regs, unsigned int n)
{
	unsigned long sp = kernel_stack_pointer(regs);
	unsigned long addr = sp + (unsigned long)n * sizeof(unsigned long);
	unsigned long val;

	if ((addr & ~(THREAD_SIZE - 1)) != (sp & ~(THREAD_SIZE - 1)))
		return 0;
	if (copy_from_kernel_nofault(&val, (void *)addr, sizeof(val)))
		return 0;
	return val;
}

/* AAPCS64: the first eight arguments in x0-x7, the rest on the stack. */
unsigned long kpmod_arch_arg(struct pt_regs *regs, unsigned int n)
{
	if (n <= 8)
		return regs->regs[n - 1];
	return kpmod_arch_stack(regs, n - 9);
}

int kpmod_arch_reg_word(unsigned int reg)
{
	switch (reg) {
	case KPMOD_REG_ARM64_SP:
		return offsetof(struct pt_regs, sp) / sizeof(unsigned long);
	case KPMOD_REG_ARM64_PC:
		return offsetof(struct pt_regs, pc) / sizeof(unsigned long);
	case KPMOD_REG_ARM64_PSTATE:
		return offsetof(struct pt_regs, pstate) / sizeof(unsigned long);
	default:
		if (reg >= ARRAY_SIZE(((struct pt_regs *)NULL)->regs))
			return -1;
		return (offsetof(struct pt_regs, regs) + reg * sizeof(u64)) / sizeof(unsigned long);
	}
}

int kpmod_arch_arg_word(unsigned int n)
{
	if (n < 1 || n > 8)
		return -1;
	return kpmod_arch_reg_word(n - 1);
}

unsigned long kpmod_arch_sp(struct pt_regs *regs)
{
	return kernel_stack_pointer(regs);
}

/* kernel_stack_pointer() is regs->sp. */
int kpmod_arch_sp_word(void)
{
	return offsetof(struct pt_regs, sp) / sizeof(unsigned long);
}

unsigned long kpmod_arch_retval(struct pt_regs *regs)
{
	return regs_return_value(regs);
}
