// SPDX-License-Identifier: GPL-2.0
/* x86_64 specifics: the only file of the module that knows this arch. */
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/uaccess.h>

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

int kpmod_arch_reg_word(unsigned int reg)
{
	return reg < KPMOD_REG_X86_NR ? (int)reg : -1;
}

/* regs_get_kernel_argument()'s order. */
int kpmod_arch_arg_word(unsigned int n)
{
	static const unsigned int word[] = {
		offsetof(struct pt_regs, di), offsetof(struct pt_regs, si),
		offsetof(struct pt_regs, dx), offsetof(struct pt_regs, cx),
		offsetof(struct pt_regs, r8), offsetof(struct pt_regs, r9),
	};

	if (n < 1 || n > ARRAY_SIZE(word))
		return -1;
	return word[n - 1] / sizeof(unsigned long);
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

/* kernel_stack_pointer() is regs->sp. */
int kpmod_arch_sp_word(void)
{
	return offsetof(struct pt_regs, sp) / sizeof(unsigned long);
}

unsigned long kpmod_arch_retval(struct pt_regs *regs)
{
	return regs_return_value(regs);
}
