/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arch interface: module/arch/<arch>.c implements it, and nothing else
 * in the module knows the architecture.  Register numbers are the uapi's
 * enum kpmod_reg_<arch>; callers validate them against kpmod_arch_nr_regs().
 */
#ifndef _KPMOD_ARCH_H
#define _KPMOD_ARCH_H

#include <linux/kprobes.h>
#include <linux/ptrace.h>

const char *kpmod_arch_name(void);
unsigned int kpmod_arch_nr_regs(void);
unsigned long kpmod_arch_reg(struct pt_regs *regs, unsigned int reg);
/* $argN, N >= 1, at function entry: registers, then the stack. */
unsigned long kpmod_arch_arg(struct pt_regs *regs, unsigned int n);
/*
 * Where register @reg, or argument $arg@n, is in struct pt_regs, read as
 * an array of unsigned long: its index, what kpmod_arch_reg() and
 * kpmod_arch_arg() read; -1 for an argument on the stack.
 */
int kpmod_arch_reg_word(unsigned int reg);
int kpmod_arch_arg_word(unsigned int n);
/* Where the kernel stack pointer at the probe, what kpmod_arch_sp() reads, is. */
int kpmod_arch_sp_word(void);
/* $stackN, N >= 0: 0 when N is beyond the stack. */
unsigned long kpmod_arch_stack(struct pt_regs *regs, unsigned int n);
unsigned long kpmod_arch_sp(struct pt_regs *regs);
unsigned long kpmod_arch_retval(struct pt_regs *regs);

#endif /* _KPMOD_ARCH_H */
