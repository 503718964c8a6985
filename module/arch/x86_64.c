// SPDX-License-Identifier: GPL-2.0
/* x86_64 specifics: the only file of the module that knows this arch. */
#include <linux/kdebug.h>
#include <linux/kprobes.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <asm/ftrace.h>
#include <asm/text-patching.h>

#include "../arch.h"
#include "../kpmod.h"
#include "../site.h"

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

/* One CPU meeting one breakpoint again and again: how long it may. */
#define KPMOD_STALE_RETRY_NS	NSEC_PER_SEC
/* ... and how many times, should the clock stand still (syscore suspend). */
#define KPMOD_STALE_RETRY_MAX	BIT(22)
/* Meetings further apart than this are not one loop. */
#define KPMOD_STALE_GAP_NS	(10 * NSEC_PER_MSEC)

struct kpmod_stale_retry {
	unsigned long addr;
	u64 since, last;
	unsigned int times;
};

static DEFINE_PER_CPU(struct kpmod_stale_retry, kpmod_stale_retry);

/*
 * After poke_int3_handler() and kprobe_int3_handler() declined the int3
 * (no rewrite of this address in progress, no kprobe here), do_int3() asks
 * the die chain before it kills the machine.  At a kpmod site (site.c),
 * such a breakpoint is what a rewrite left to a CPU that ran stale code.
 * If the code holds no int3 there any more, going back over it runs what
 * is there now; kernels before 6.2 did that for any address
 * (kprobe_int3_handler()), later ones no longer do: done here, for sites,
 * for as long as it takes.  If the code still holds one (the next rewrite
 * of the address has begun), going back runs into it again until that
 * rewrite ends or its own handler claims it: bounded, so that an int3
 * nobody will ever remove still ends as the kernel would end it.
 */
static int kpmod_stale_trap_notify(struct notifier_block *nb, unsigned long val,
				   void *data)
{
	struct die_args *args = data;
	struct kpmod_stale_retry *r;
	unsigned long addr;
	u8 insn;
	u64 now;

	if (val != DIE_INT3 || !args->regs || user_mode(args->regs))
		return NOTIFY_DONE;
	addr = instruction_pointer(args->regs) - INT3_INSN_SIZE;
	if (!kpmod_site_guarded(addr))
		return NOTIFY_DONE;
	if (get_kernel_nofault(insn, (u8 *)addr))
		return NOTIFY_DONE;
	now = ktime_get_mono_fast_ns();
	r = this_cpu_ptr(&kpmod_stale_retry);
	if (r->addr != addr || now - r->last > KPMOD_STALE_GAP_NS) {
		/* A new loop: counted once, however often it goes round. */
		r->addr = addr;
		r->since = now;
		r->times = 0;
		kpmod_site_trap_caught();
	}
	r->last = now;
	if (insn == INT3_INSN_OPCODE &&
	    (now - r->since > KPMOD_STALE_RETRY_NS || ++r->times > KPMOD_STALE_RETRY_MAX))
		return NOTIFY_DONE;
	instruction_pointer_set(args->regs, addr);
	return NOTIFY_STOP;
}

NOKPROBE_SYMBOL(kpmod_stale_trap_notify);

/* Last in the chain: only a trap every other handler declined. */
static struct notifier_block kpmod_stale_trap_nb = {
	.notifier_call = kpmod_stale_trap_notify,
	.priority = INT_MIN,
};

int kpmod_arch_stale_trap_register(void)
{
	return register_die_notifier(&kpmod_stale_trap_nb);
}

void kpmod_arch_stale_trap_unregister(void)
{
	unregister_die_notifier(&kpmod_stale_trap_nb);
}
