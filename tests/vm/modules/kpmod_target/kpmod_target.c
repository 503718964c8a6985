// SPDX-License-Identifier: GPL-2.0
/*
 * A module for kpmod's tests to probe (MOD:SYM).  Not part of kpmod.
 *
 *  - Writing N to /sys/module/kpmod_target/parameters/poke calls
 *    kpmod_target_poke(N, "kpmod-target").
 *  - Writing N to .../parameters/fire calls kpmod_target_shared(CTX) N
 *    times from process context (CTX 0), N times from a hard interrupt
 *    (an irq_work: CTX 1) and, on x86_64, N times from an NMI this module
 *    sends itself (apic->send_IPI_mask(), an NMI_LOCAL handler: CTX 2).
 *    Reading .../parameters/calls gives, per context, "CTX CALLS PATCHED":
 *    the calls made and how many returned what the livepatch
 *    (tests/vm/modules/kpmod_livepatch) returns in its place.
 *  - Writing 1 to .../parameters/rcu_hold starts a thread that stays in
 *    an RCU read-side critical section, so that every synchronize_rcu()
 *    waits, until 0 is written; or 90 s pass, counted in
 *    .../parameters/rcu_hold_expired (a test that waited that long for
 *    its own commands failed).  Keep watchdog_thresh and
 *    rcu_cpu_stall_timeout above that meanwhile: the thread keeps its CPU.
 *  - Writing N to .../parameters/many calls each of the 1,000 functions
 *    kpmod_target_f000() ... kpmod_target_f999() N times, each with its
 *    own number as its argument: kpmod_target_f042(42).
 */
#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>
#include <linux/hardirq.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#ifdef CONFIG_X86_64
#include <asm/apic.h>
#include <asm/nmi.h>
#endif

static const char kpmod_target_tag[] = "kpmod-target";

/* Global, not static, so it keeps its name and signature for the probe. */
int kpmod_target_poke(unsigned int n, const char *tag);

noinline int kpmod_target_poke(unsigned int n, const char *tag)
{
	/* Something the compiler cannot drop, so the call stays a call. */
	return READ_ONCE(n) + (tag[0] == 'k');
}

static int kpmod_target_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int ret = kstrtouint(val, 0, &n);

	if (ret)
		return ret;
	kpmod_target_poke(n, kpmod_target_tag);
	return 0;
}

static const struct kernel_param_ops kpmod_target_ops = {
	.set = kpmod_target_set,
};
module_param_cb(poke, &kpmod_target_ops, NULL, 0200);
MODULE_PARM_DESC(poke, "write N to call kpmod_target_poke(N, \"kpmod-target\")");

enum { KT_PROCESS, KT_IRQ, KT_NMI, KT_NR };

/* What the original returns; the livepatch's replacement returns 2. */
#define KT_ORIGINAL 1
#define KT_PATCHED 2

/*
 * Read with READ_ONCE() so that the compiler cannot know the range of
 * kpmod_target_shared()'s result: gcc 14 propagates it to the callers
 * (noinline does not stop that) and folds their test for KT_PATCHED to
 * false, and no call would ever count as patched.
 */
static int kt_original = KT_ORIGINAL;

int kpmod_target_shared(int ctx);

noinline int kpmod_target_shared(int ctx)
{
	return READ_ONCE(ctx) >= 0 ? READ_ONCE(kt_original) : 0;
}

static atomic_t kt_calls[KT_NR], kt_patched[KT_NR];

/* A call whose context is checked: one from the wrong context is not counted. */
static void kt_call(int ctx)
{
	bool right = ctx == KT_NMI ? in_nmi() : ctx == KT_IRQ ? hardirq_count() && !in_nmi() :
		     in_task();

	if (!right)
		return;
	if (kpmod_target_shared(ctx) == KT_PATCHED)
		atomic_inc(&kt_patched[ctx]);
	atomic_inc(&kt_calls[ctx]);
}

static void kt_irq_fn(struct irq_work *w)
{
	kt_call(KT_IRQ);
}

/* Hard: run in the interrupt also on PREEMPT_RT (before 5.11 every one was). */
#ifndef IRQ_WORK_INIT_HARD
#define IRQ_WORK_INIT_HARD(_func) { .func = (_func) }
#endif
static struct irq_work kt_irq = IRQ_WORK_INIT_HARD(kt_irq_fn);

#ifdef CONFIG_X86_64
/* The NMIs this module sent that its handler has not taken yet. */
static atomic_t kt_nmi_pending;

static int kt_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	if (atomic_add_unless(&kt_nmi_pending, -1, 0)) {
		kt_call(KT_NMI);
		return NMI_HANDLED;
	}
	return NMI_DONE;
}

/* One NMI to this CPU, as the kernel's NMI backtrace sends them; waits for it. */
static void kt_nmi_once(void)
{
	u64 until = ktime_get_ns() + NSEC_PER_SEC;

	preempt_disable();
	atomic_inc(&kt_nmi_pending);
	apic->send_IPI_mask(cpumask_of(smp_processor_id()), NMI_VECTOR);
	while (atomic_read(&kt_nmi_pending) && ktime_get_ns() < until)
		cpu_relax();
	preempt_enable();
}
#endif

static int kt_fire_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n, i;
	int ret = kstrtouint(val, 0, &n);

	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		kt_call(KT_PROCESS);
	for (i = 0; i < n; i++) {
		irq_work_queue(&kt_irq);
		irq_work_sync(&kt_irq);
	}
#ifdef CONFIG_X86_64
	for (i = 0; i < n; i++)
		kt_nmi_once();
#endif
	return 0;
}

static int kt_calls_get(char *buf, const struct kernel_param *kp)
{
	int ctx, len = 0;

	for (ctx = 0; ctx < KT_NR; ctx++)
		len += scnprintf(buf + len, PAGE_SIZE - len, "%d %d %d\n", ctx,
				 atomic_read(&kt_calls[ctx]), atomic_read(&kt_patched[ctx]));
	return len;
}

static const struct kernel_param_ops kt_fire_ops = {
	.set = kt_fire_set,
};
module_param_cb(fire, &kt_fire_ops, NULL, 0200);
MODULE_PARM_DESC(fire, "write N to call kpmod_target_shared() N times from each context");

static const struct kernel_param_ops kt_calls_ops = {
	.get = kt_calls_get,
};
module_param_cb(calls, &kt_calls_ops, NULL, 0400);
MODULE_PARM_DESC(calls, "per context: CTX CALLS PATCHED");

/*
 * KT_1000(M): M(000) M(001) ... M(999).  The functions are global (their
 * names stay in kallsyms) and each returns something of its own, so that
 * no two have the same body and the compiler cannot fold them into one.
 */
#define KT_10(M, p) M(p##0) M(p##1) M(p##2) M(p##3) M(p##4) \
	M(p##5) M(p##6) M(p##7) M(p##8) M(p##9)
#define KT_100(M, p) KT_10(M, p##0) KT_10(M, p##1) KT_10(M, p##2) \
	KT_10(M, p##3) KT_10(M, p##4) KT_10(M, p##5) KT_10(M, p##6) \
	KT_10(M, p##7) KT_10(M, p##8) KT_10(M, p##9)
#define KT_1000(M) KT_100(M, 0) KT_100(M, 1) KT_100(M, 2) KT_100(M, 3) \
	KT_100(M, 4) KT_100(M, 5) KT_100(M, 6) KT_100(M, 7) KT_100(M, 8) \
	KT_100(M, 9)

#define KT_DEFINE(n)					\
	int kpmod_target_f##n(int i);			\
	noinline int kpmod_target_f##n(int i)		\
	{						\
		return READ_ONCE(i) + __COUNTER__;	\
	}
KT_1000(KT_DEFINE)

#define KT_ENTRY(n) kpmod_target_f##n,
static int (*const kt_many[])(int) = { KT_1000(KT_ENTRY) };

static int kt_many_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n, i, f;
	int ret = kstrtouint(val, 0, &n);

	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		for (f = 0; f < ARRAY_SIZE(kt_many); f++)
			kt_many[f](f);
	return 0;
}

static const struct kernel_param_ops kt_many_ops = {
	.set = kt_many_set,
};
module_param_cb(many, &kt_many_ops, NULL, 0200);
MODULE_PARM_DESC(many, "write N to call each of kpmod_target_f000() ... f999() N times");

/* rcu_hold: the thread, its stop flag, whether it ended by its time limit. */
static struct task_struct *kt_hold_task;
static bool kt_hold_stop;
static atomic_t kt_hold_expired;
static DECLARE_COMPLETION(kt_hold_started);
#define KT_HOLD_MAX_NS (90 * NSEC_PER_SEC)

static int kt_hold_fn(void *arg)
{
	u64 until = ktime_get_ns() + KT_HOLD_MAX_NS;

	rcu_read_lock();
	complete(&kt_hold_started);
	while (!READ_ONCE(kt_hold_stop)) {
		if (ktime_get_ns() > until) {
			atomic_inc(&kt_hold_expired);
			break;
		}
		cpu_relax();
	}
	rcu_read_unlock();
	/* Until kthread_stop(). */
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static void kt_hold_end(void)
{
	if (!kt_hold_task)
		return;
	WRITE_ONCE(kt_hold_stop, true);
	kthread_stop(kt_hold_task);
	kt_hold_task = NULL;
}

static int kt_hold_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int ret = kstrtobool(val, &on);

	if (ret)
		return ret;
	if (!on) {
		kt_hold_end();
		return 0;
	}
	if (kt_hold_task)
		return -EBUSY;
	WRITE_ONCE(kt_hold_stop, false);
	reinit_completion(&kt_hold_started);
	kt_hold_task = kthread_run(kt_hold_fn, NULL, "kpmod_target_hold");
	if (IS_ERR(kt_hold_task)) {
		ret = PTR_ERR(kt_hold_task);
		kt_hold_task = NULL;
		return ret;
	}
	wait_for_completion(&kt_hold_started);
	return 0;
}

static const struct kernel_param_ops kt_hold_ops = {
	.set = kt_hold_set,
};
module_param_cb(rcu_hold, &kt_hold_ops, NULL, 0200);
MODULE_PARM_DESC(rcu_hold, "1: hold every RCU grace period back; 0: let them go");

static int kt_hold_expired_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%d\n", atomic_read(&kt_hold_expired));
}

static const struct kernel_param_ops kt_hold_expired_ops = {
	.get = kt_hold_expired_get,
};
module_param_cb(rcu_hold_expired, &kt_hold_expired_ops, NULL, 0400);
MODULE_PARM_DESC(rcu_hold_expired, "holds that ended by their 90 s limit");

static int __init kt_init(void)
{
#ifdef CONFIG_X86_64
	return register_nmi_handler(NMI_LOCAL, kt_nmi_handler, 0, "kpmod_target");
#else
	return 0;
#endif
}

static void __exit kt_exit(void)
{
	kt_hold_end();
	irq_work_sync(&kt_irq);
#ifdef CONFIG_X86_64
	unregister_nmi_handler(NMI_LOCAL, "kpmod_target");
#endif
}

module_init(kt_init);
module_exit(kt_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kpmod tests: module symbols to probe and to livepatch");
