// SPDX-License-Identifier: GPL-2.0
/*
 * Sites: function entries probed through ftrace.
 *
 * On x86_64 a kprobe at a function's entry sits on the function's ftrace
 * call (KPROBE_FLAG_FTRACE) and has no copied instruction to single-step:
 * its p->ainsn.insn is NULL.  Arming or disarming it, or any change of the
 * set of ftrace users of that function, rewrites the call site with
 * text_poke_bp(), which puts a transient int3 there.  A CPU that executes
 * that int3 after the rewrite is over (QEMU 7.2's multi-threaded TCG lets a
 * vCPU run such stale code; hardware and KVM do not) finds no patch in
 * progress, so the breakpoint reaches kprobe_int3_handler().  That handler
 * finds the ftrace-based kprobe at the address, runs its handlers and
 * single-steps it: it jumps to p->ainsn.insn, address 0, with interrupts
 * off ("BUG: kernel NULL pointer dereference ... RIP: 0010:0x0", stack top
 * at the caller of the probed function).  Enabling and disabling probes on
 * one function in a loop while it is called crashes Debian's 5.10, 6.1 and
 * 6.12 that way under that QEMU, through kprobe_events as through kpmod.
 *
 * So kpmod never rewrites the call site of a function while a kprobe of
 * its own is registered there, except under a guard:
 *
 *  - Before its first probe on a function is enabled, kpmod registers an
 *    enabled "anchor" kprobe at that address.  Registering it arms the
 *    ftrace hook once; from then on every probe kpmod adds, enables,
 *    disables or deletes there joins or leaves an aggregate that stays
 *    armed, and nothing is rewritten.
 *  - The anchor's handler is the guard: called from a breakpoint (in NMI
 *    context, which the ftrace path is not, short of a real NMI), it
 *    resumes execution after the 5-byte ftrace call instead of letting
 *    the kernel single-step (other ftrace users miss that one call; and a
 *    stale int3 met while another kprobe runs on that CPU goes through
 *    reenter_kprobe(), which asks no handler: out of reach).  Every
 *    rewrite kpmod makes at a site happens while its anchor is registered
 *    and enabled, so it always runs.  The kernel calls an aggregate's
 *    probes newest first and stops at the first that returns 1, so the
 *    anchor is kept behind kpmod's probes (probe.c registers the first one
 *    again after the anchor): they all record the hit before it.
 *  - The anchor outlives the last probe on the function by
 *    KPMOD_SITE_LINGER_MS, so add/delete loops do not rewrite the site
 *    each time.  Then the site is released: two "keeper" ftrace_ops are
 *    registered on the address first, so that removing the kprobes'
 *    ftrace_ops from it leaves the call target as it was (several users:
 *    ftrace_regs_caller) and patches nothing while the anchor, disabled on
 *    its way out, is still registered; the keepers go after the anchor is
 *    gone, when a stale int3 finds no kprobe.  Kernels before 6.2
 *    re-execute such an int3 if the code holds none any more; later ones
 *    die, and so would every kernel if the code still holds one (a CPU
 *    that ran stale code while the next rewrite of the address began:
 *    seen under QEMU 10's multi-threaded TCG with 4 vCPUs on 2 host
 *    cores).  So the arch's fallback (arch.h) re-executes it, at an
 *    address that is a site or was one in the last
 *    KPMOD_SITE_AFTERCARE_MS: for as long as it takes when the int3 is
 *    gone, for a second at most when it is still there.
 *    A probe registered on that function meanwhile waits for the release
 *    (kpmod_sites_lock()): until its new anchor exists it would be there
 *    unguarded.
 *
 * What this costs: a function that has kpmod probes, enabled or not,
 * keeps its ftrace hook armed (one call into kprobe_ftrace_handler and
 * the aggregate's list per call) until KPMOD_SITE_LINGER_MS after its last
 * probe is deleted.  Probes that are not on ftrace (an offset into a
 * function, arm64) need none of this: a late breakpoint finds a kprobe
 * with a real instruction to single-step, or none at all.
 */
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/ftrace.h>
#include <linux/jiffies.h>
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

#include "arch.h"
#include "kpmod.h"
#include "site.h"

#ifdef CONFIG_KPROBES_ON_FTRACE

/* How long an unused site stays armed before it is released. */
#define KPMOD_SITE_LINGER_MS	1000
/* How long after its release a stale breakpoint at a site is still one. */
#define KPMOD_SITE_AFTERCARE_MS	10000
/* The stale-breakpoint fallback's last watch over sites released on exit. */
#define KPMOD_SITE_EXIT_GRACE_MS	200
/* Sites (armed or recently released) the stale-breakpoint fallback knows. */
#define KPMOD_SITE_SLOTS	1024

struct kpmod_site {
	struct list_head node;		/* in kpmod_sites, kpmod_lock */
	unsigned long addr;
	unsigned int users;		/* kpmod probes registered here */
	unsigned long idle_since;	/* jiffies, once users is 0 */
	bool retry;			/* a release failed: wait longer */
	bool kept;			/* keepers hold it while it is released */
	int slot;			/* in kpmod_site_slots, or -1 */
	struct kprobe anchor;
};

/*
 * The addresses kpmod_site_guarded() answers for, read locklessly from a
 * breakpoint: until (CLOCK_MONOTONIC ns) is U64_MAX while the site is
 * armed.  Written under kpmod_site_release_lock: a new site takes a free
 * or expired slot (or, all 1024 taken, the released one closest to its
 * end); the release of the site holding a slot sets its end.  Written
 * until first, then addr; read addr first: a reused slot never shows its
 * new address with its old time.
 */
static struct {
	unsigned long addr;
	u64 until;
} kpmod_site_slots[KPMOD_SITE_SLOTS];

static LIST_HEAD(kpmod_sites);
static unsigned int kpmod_sites_count;

/*
 * Serialises releasing sites with registering probes (probe.c takes it,
 * inside kpmod_lock, from registering a probe to joining its site): a
 * probe registered, disabled, at an address whose old site is being
 * released would be there, unguarded, when the keepers go.  The reaper
 * takes it alone, kpmod_lock not held.
 */
static DEFINE_MUTEX(kpmod_site_release_lock);

static void kpmod_sites_reap(struct work_struct *work);
static DECLARE_DELAYED_WORK(kpmod_site_reaper, kpmod_sites_reap);

/* Breakpoints the guard took: rare, so one shared counter is fine. */
static atomic64_t kpmod_site_traps = ATOMIC64_INIT(0);

static int kpmod_site_anchor_handler(struct kprobe *kp, struct pt_regs *regs)
{
	if (!kpmod_arch_site_trap(kp, regs))
		return 0;
	kpmod_site_trap_caught();
	return 1;
}

NOKPROBE_SYMBOL(kpmod_site_anchor_handler);

bool kpmod_site_guarded(unsigned long addr)
{
	u64 now = ktime_get_mono_fast_ns();
	unsigned int i;

	for (i = 0; i < KPMOD_SITE_SLOTS; i++) {
		if (READ_ONCE(kpmod_site_slots[i].addr) != addr)
			continue;
		smp_rmb();	/* the slot's until after its addr */
		if (now < READ_ONCE(kpmod_site_slots[i].until))
			return true;
	}
	return false;
}

NOKPROBE_SYMBOL(kpmod_site_guarded);

void kpmod_site_trap_caught(void)
{
	atomic64_inc(&kpmod_site_traps);
}

NOKPROBE_SYMBOL(kpmod_site_trap_caught);

/*
 * A slot for a new site's address: a free or expired one, else the
 * released one whose aftercare ends first (its address loses the last of
 * its cover); none when all 1024 sites are armed.
 */
static int kpmod_site_slot_take(unsigned long addr)
{
	u64 now = ktime_get_mono_fast_ns(), soonest = U64_MAX;
	int i, pick = -1;

	lockdep_assert_held(&kpmod_site_release_lock);
	for (i = 0; i < KPMOD_SITE_SLOTS; i++) {
		u64 until = READ_ONCE(kpmod_site_slots[i].until);

		if (!kpmod_site_slots[i].addr || now >= until) {
			pick = i;
			break;
		}
		if (until < soonest) {
			soonest = until;
			pick = i;
		}
	}
	if (pick < 0) {
		pr_warn_once("more than %d functions probed at once: a stale breakpoint at the others is not guarded\n",
			     KPMOD_SITE_SLOTS);
		return -1;
	}
	WRITE_ONCE(kpmod_site_slots[pick].until, U64_MAX);
	smp_wmb();	/* until before addr */
	WRITE_ONCE(kpmod_site_slots[pick].addr, addr);
	return pick;
}

/* A released site's address stays guarded KPMOD_SITE_AFTERCARE_MS more. */
static void kpmod_site_slot_release(struct kpmod_site *site)
{
	lockdep_assert_held(&kpmod_site_release_lock);
	if (site->slot < 0)
		return;
	WRITE_ONCE(kpmod_site_slots[site->slot].until,
		   ktime_get_mono_fast_ns() + KPMOD_SITE_AFTERCARE_MS * NSEC_PER_MSEC);
	site->slot = -1;
}

/* When the last site released is KPMOD_SITE_EXIT_GRACE_MS old, in ns. */
static u64 kpmod_site_grace_end(void)
{
	u64 end = 0, until;
	int i;

	for (i = 0; i < KPMOD_SITE_SLOTS; i++) {
		until = READ_ONCE(kpmod_site_slots[i].until);
		if (kpmod_site_slots[i].addr && until != U64_MAX && until > end)
			end = until;
	}
	/* Released at until - aftercare; watched until grace after that. */
	if (end < KPMOD_SITE_AFTERCARE_MS * NSEC_PER_MSEC)
		return 0;
	return end - (KPMOD_SITE_AFTERCARE_MS - KPMOD_SITE_EXIT_GRACE_MS) * NSEC_PER_MSEC;
}

static void notrace kpmod_site_keeper_func(unsigned long ip, unsigned long parent_ip,
					   struct ftrace_ops *op,
					   struct kpmod_ftrace_regs *regs)
{
}

/* Two, so that a site keeps several ftrace users while the kprobes' leave. */
static struct ftrace_ops kpmod_site_keepers[2] = {
	{ .func = kpmod_site_keeper_func, .flags = FTRACE_OPS_FL_SAVE_REGS },
	{ .func = kpmod_site_keeper_func, .flags = FTRACE_OPS_FL_SAVE_REGS },
};

void kpmod_sites_lock(void)
{
	mutex_lock(&kpmod_site_release_lock);
}

void kpmod_sites_unlock(void)
{
	mutex_unlock(&kpmod_site_release_lock);
}

int kpmod_site_get(const struct kprobe *kp, struct kpmod_site **out, bool *created)
{
	unsigned long addr = (unsigned long)kp->addr;
	struct kpmod_site *site;
	int ret;

	lockdep_assert_held(&kpmod_lock);
	lockdep_assert_held(&kpmod_site_release_lock);
	*out = NULL;
	*created = false;
	if (!(kp->flags & KPROBE_FLAG_FTRACE))
		return 0;
	list_for_each_entry(site, &kpmod_sites, node) {
		/* A site whose module went away guards nothing any more. */
		if (site->addr == addr && !kprobe_gone(&site->anchor)) {
			site->users++;
			*out = site;
			return 0;
		}
	}

	site = kzalloc(sizeof(*site), GFP_KERNEL);
	if (!site)
		return -ENOMEM;
	site->addr = addr;
	site->anchor.addr = kp->addr;
	site->anchor.pre_handler = kpmod_site_anchor_handler;
	/* Enabled: this arms the hook, under the anchor's own guard. */
	ret = register_kprobe(&site->anchor);
	if (ret) {
		kfree(site);
		return ret;
	}
	if (!(site->anchor.flags & KPROBE_FLAG_FTRACE) || site->anchor.addr != kp->addr) {
		/* Cannot happen: same address, same kind.  Never guard the wrong one. */
		unregister_kprobe(&site->anchor);
		kfree(site);
		return -EINVAL;
	}
	site->users = 1;
	site->slot = kpmod_site_slot_take(addr);
	list_add_tail(&site->node, &kpmod_sites);
	WRITE_ONCE(kpmod_sites_count, kpmod_sites_count + 1);
	*out = site;
	*created = true;
	return 0;
}

static unsigned long kpmod_site_due(const struct kpmod_site *site)
{
	return site->idle_since +
	       msecs_to_jiffies(KPMOD_SITE_LINGER_MS) * (site->retry ? 10 : 1);
}

/*
 * Runs the reaper when the first unused site is due, recomputed from every
 * site, so a site's own time never moves however often others are put.
 * kpmod_lock held.
 */
static void kpmod_sites_schedule(void)
{
	unsigned long due = 0, now = jiffies;
	struct kpmod_site *site;
	bool any = false;

	list_for_each_entry(site, &kpmod_sites, node) {
		if (site->users)
			continue;
		if (!any || time_before(kpmod_site_due(site), due))
			due = kpmod_site_due(site);
		any = true;
	}
	if (any)
		mod_delayed_work(system_unbound_wq, &kpmod_site_reaper,
				 time_after(due, now) ? due - now : 0);
}

void kpmod_site_put(struct kpmod_site *site)
{
	lockdep_assert_held(&kpmod_lock);
	if (!site || WARN_ON_ONCE(!site->users))
		return;
	if (--site->users)
		return;
	site->idle_since = jiffies;
	site->retry = false;
	kpmod_sites_schedule();
}

unsigned int kpmod_nr_sites(void)
{
	return READ_ONCE(kpmod_sites_count);
}

u64 kpmod_site_traps_caught(void)
{
	return atomic64_read(&kpmod_site_traps);
}

/* Both keepers on @addr, or neither; @reset first forgets old entries. */
static bool kpmod_site_keep(unsigned long addr, bool reset)
{
	if (ftrace_set_filter_ip(&kpmod_site_keepers[0], addr, 0, reset))
		return false;
	if (ftrace_set_filter_ip(&kpmod_site_keepers[1], addr, 0, reset)) {
		ftrace_set_filter_ip(&kpmod_site_keepers[0], addr, 1, 0);
		return false;
	}
	return true;
}

/*
 * Failing (the function's module went meanwhile) leaves a stale entry,
 * harmless (no record matches it) and dropped by the next reset.
 */
static void kpmod_site_unkeep(unsigned long addr)
{
	ftrace_set_filter_ip(&kpmod_site_keepers[0], addr, 1, 0);
	ftrace_set_filter_ip(&kpmod_site_keepers[1], addr, 1, 0);
}

static int kpmod_site_keepers_register(void)
{
	int ret = register_ftrace_function(&kpmod_site_keepers[0]);

	if (ret)
		return ret;
	ret = register_ftrace_function(&kpmod_site_keepers[1]);
	if (ret)
		unregister_ftrace_function(&kpmod_site_keepers[0]);
	return ret;
}

/* Unregisters the anchors on @list, a batch at a time, allocating nothing. */
static void kpmod_sites_unregister_anchors(struct list_head *list)
{
	struct kprobe *batch[16];
	struct kpmod_site *site;
	unsigned int n = 0;

	list_for_each_entry(site, list, node) {
		batch[n++] = &site->anchor;
		if (n == ARRAY_SIZE(batch)) {
			unregister_kprobes(batch, n);
			n = 0;
		}
	}
	if (n)
		unregister_kprobes(batch, n);
}

/*
 * Releases the sites on @doomed (detached from kpmod_sites, no users),
 * kpmod_site_release_lock held; leaves on @doomed those that could not be
 * released safely (a keeper could not be set up): they stay armed.
 * Returns how many were released.
 */
static unsigned int kpmod_sites_release(struct list_head *doomed)
{
	struct kpmod_site *site, *tmp;
	unsigned int kept = 0, released = 0;
	bool keepers_failed = false;
	LIST_HEAD(going);

	lockdep_assert_held(&kpmod_site_release_lock);
	list_for_each_entry_safe(site, tmp, doomed, node) {
		site->kept = false;
		/* A gone anchor's code is gone: nothing left to rewrite. */
		if (!kprobe_gone(&site->anchor)) {
			if (!kpmod_site_keep(site->addr, !kept))
				continue;
			site->kept = true;
			kept++;
		}
		list_move_tail(&site->node, &going);
	}
	/* An empty filter would hook every function: registered only with sites. */
	if (kept && kpmod_site_keepers_register()) {
		list_for_each_entry_safe(site, tmp, &going, node) {
			if (site->kept) {
				kpmod_site_unkeep(site->addr);
				list_move_tail(&site->node, doomed);
			}
		}
		kept = 0;
	}

	kpmod_sites_unregister_anchors(&going);
	if (kept) {
		keepers_failed = unregister_ftrace_function(&kpmod_site_keepers[1]) ||
				 unregister_ftrace_function(&kpmod_site_keepers[0]);
		/* Never empty the filter of keepers still registered. */
		if (keepers_failed)
			pr_warn_once("could not unregister its ftrace keepers\n");
	}
	list_for_each_entry_safe(site, tmp, &going, node) {
		if (site->kept && !keepers_failed)
			kpmod_site_unkeep(site->addr);
		kpmod_site_slot_release(site);
		list_del(&site->node);
		kfree(site);
		released++;
	}
	return released;
}

static void kpmod_sites_reap(struct work_struct *work)
{
	struct kpmod_site *site, *tmp;
	unsigned int released = 0;
	LIST_HEAD(doomed);

	mutex_lock(&kpmod_lock);
	list_for_each_entry_safe(site, tmp, &kpmod_sites, node)
		if (!site->users && !time_before(jiffies, kpmod_site_due(site)))
			list_move_tail(&site->node, &doomed);
	mutex_unlock(&kpmod_lock);

	/*
	 * Outside kpmod_lock: unregistering ftrace_ops waits for RCU-tasks
	 * grace periods.  A probe registered meanwhile waits for the release
	 * lock, then gets a new site.
	 */
	if (!list_empty(&doomed)) {
		mutex_lock(&kpmod_site_release_lock);
		released = kpmod_sites_release(&doomed);
		mutex_unlock(&kpmod_site_release_lock);
	}

	mutex_lock(&kpmod_lock);
	list_for_each_entry(site, &doomed, node) {
		pr_warn_once("could not release the ftrace hook of %pS safely: left armed\n",
			     (void *)site->addr);
		site->idle_since = jiffies;
		site->retry = true;
	}
	list_splice_tail(&doomed, &kpmod_sites);
	WRITE_ONCE(kpmod_sites_count, kpmod_sites_count - released);
	kpmod_sites_schedule();
	mutex_unlock(&kpmod_lock);
}

int kpmod_sites_init(void)
{
	return kpmod_arch_stale_trap_register();
}

void kpmod_sites_exit(void)
{
	struct kpmod_site *site, *tmp;
	u64 end, now;
	LIST_HEAD(doomed);

	cancel_delayed_work_sync(&kpmod_site_reaper);
	mutex_lock(&kpmod_lock);
	list_splice_init(&kpmod_sites, &doomed);
	kpmod_sites_count = 0;
	mutex_unlock(&kpmod_lock);
	list_for_each_entry(site, &doomed, node)
		WARN_ON_ONCE(site->users);
	mutex_lock(&kpmod_site_release_lock);
	kpmod_sites_release(&doomed);
	/* Could not be released safely: released anyway, the module goes. */
	kpmod_sites_unregister_anchors(&doomed);
	list_for_each_entry(site, &doomed, node)
		kpmod_site_slot_release(site);
	mutex_unlock(&kpmod_site_release_lock);
	list_for_each_entry_safe(site, tmp, &doomed, node) {
		list_del(&site->node);
		kfree(site);
	}
	/*
	 * The fallback goes with the module's code: it cannot stay the
	 * KPMOD_SITE_AFTERCARE_MS a release gets, but a CPU running stale
	 * code meets a just-released site within this (the reaper's releases
	 * before rmmod included).
	 */
	end = kpmod_site_grace_end();
	now = ktime_get_mono_fast_ns();
	if (end > now)
		msleep(DIV_ROUND_UP_ULL(end - now, NSEC_PER_MSEC));
	kpmod_arch_stale_trap_unregister();
}

#else /* !CONFIG_KPROBES_ON_FTRACE: no kprobe is ever on ftrace */

void kpmod_sites_lock(void)
{
}

void kpmod_sites_unlock(void)
{
}

int kpmod_site_get(const struct kprobe *kp, struct kpmod_site **out, bool *created)
{
	*out = NULL;
	*created = false;
	return 0;
}

void kpmod_site_put(struct kpmod_site *site)
{
}

unsigned int kpmod_nr_sites(void)
{
	return 0;
}

u64 kpmod_site_traps_caught(void)
{
	return 0;
}

bool kpmod_site_guarded(unsigned long addr)
{
	return false;
}

void kpmod_site_trap_caught(void)
{
}

int kpmod_sites_init(void)
{
	return 0;
}

void kpmod_sites_exit(void)
{
}

#endif
