// SPDX-License-Identifier: GPL-2.0
/*
 * Sites: function entries probed through ftrace.
 *
 * On x86_64 a kprobe at a function's entry sits on the function's ftrace
 * call (KPROBE_FLAG_FTRACE) and has no copied instruction to single-step:
 * its p->ainsn.insn is NULL.  Arming or disarming it, or any change of the
 * set of ftrace users of that function, rewrites the call site with
 * text_poke_bp(), which puts a transient int3 there.  A CPU that executes
 * that int3 after the rewrite is over (QEMU's multi-threaded TCG lets a
 * vCPU run such stale code) finds no patch in progress, so the breakpoint
 * reaches kprobe_int3_handler().  That handler finds the ftrace-based
 * kprobe at the address, runs its handlers and single-steps it: it jumps
 * to p->ainsn.insn, address 0, with interrupts off ("BUG: kernel NULL
 * pointer dereference ... RIP: 0010:0x0", stack top at the caller of the
 * probed function).  Enabling and disabling probes on one function in a
 * loop while it is called crashes Debian's 5.10, 6.1 and 6.12 that way,
 * through kprobe_events as through kpmod.
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
 *    the kernel single-step.  Every rewrite kpmod makes at a site happens
 *    while its anchor is registered and enabled, so it always runs.  The
 *    kernel calls an aggregate's probes newest first and stops at the
 *    first that returns 1, so the anchor is kept behind kpmod's probes
 *    (probe.c registers the first one again after the anchor): they all
 *    record the hit before it.
 *  - The anchor outlives the last probe on the function by
 *    KPMOD_SITE_LINGER_MS, so add/delete loops do not rewrite the site
 *    each time.  Then the site is released: two "keeper" ftrace_ops are
 *    registered on the address first, so that removing the kprobes'
 *    ftrace_ops from it leaves the call target as it was (several users:
 *    ftrace_regs_caller) and patches nothing while the anchor, disabled on
 *    its way out, is still registered; the keepers go after the anchor is
 *    gone, when a stale int3 finds no kprobe and is simply re-executed.
 *
 * What this costs: a function that has kpmod probes, enabled or not,
 * keeps its ftrace hook armed (one call into kprobe_ftrace_handler and
 * the aggregate's list per call) until KPMOD_SITE_LINGER_MS after its last
 * probe is deleted.  Probes that are not on ftrace (an offset into a
 * function, arm64) need none of this: a late breakpoint finds a kprobe
 * with a real instruction to single-step, or none at all.
 */
#include <linux/atomic.h>
#include <linux/ftrace.h>
#include <linux/jiffies.h>
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "kpmod.h"
#include "site.h"

#ifdef CONFIG_KPROBES_ON_FTRACE

/* How long an unused site stays armed before it is released. */
#define KPMOD_SITE_LINGER_MS	1000

struct kpmod_site {
	struct list_head node;		/* in kpmod_sites, kpmod_lock */
	unsigned long addr;
	unsigned int users;		/* kpmod probes registered here */
	unsigned long idle_since;	/* jiffies, once users is 0 */
	bool kept;			/* keepers hold it while it is released */
	struct kprobe anchor;
};

static LIST_HEAD(kpmod_sites);
static unsigned int kpmod_sites_count;

static void kpmod_sites_reap(struct work_struct *work);
static DECLARE_DELAYED_WORK(kpmod_site_reaper, kpmod_sites_reap);

/* Breakpoints the guard took: rare, so one shared counter is fine. */
static atomic64_t kpmod_site_traps = ATOMIC64_INIT(0);

static int kpmod_site_anchor_handler(struct kprobe *kp, struct pt_regs *regs)
{
	if (!kpmod_arch_site_trap(kp, regs))
		return 0;
	atomic64_inc(&kpmod_site_traps);
	return 1;
}

NOKPROBE_SYMBOL(kpmod_site_anchor_handler);

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

int kpmod_site_get(const struct kprobe *kp, struct kpmod_site **out, bool *created)
{
	unsigned long addr = (unsigned long)kp->addr;
	struct kpmod_site *site;
	int ret;

	lockdep_assert_held(&kpmod_lock);
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
	list_add_tail(&site->node, &kpmod_sites);
	WRITE_ONCE(kpmod_sites_count, kpmod_sites_count + 1);
	*out = site;
	*created = true;
	return 0;
}

void kpmod_site_put(struct kpmod_site *site)
{
	lockdep_assert_held(&kpmod_lock);
	if (!site || WARN_ON_ONCE(!site->users))
		return;
	if (--site->users)
		return;
	site->idle_since = jiffies;
	/* Only ever pushed out: a busy site is looked at again later. */
	mod_delayed_work(system_wq, &kpmod_site_reaper,
			 msecs_to_jiffies(KPMOD_SITE_LINGER_MS));
}

unsigned int kpmod_nr_sites(void)
{
	return READ_ONCE(kpmod_sites_count);
}

u64 kpmod_site_traps_caught(void)
{
	return atomic64_read(&kpmod_site_traps);
}

/* Both keepers on @addr, or neither. */
static bool kpmod_site_keep(unsigned long addr)
{
	if (ftrace_set_filter_ip(&kpmod_site_keepers[0], addr, 0, 0))
		return false;
	if (ftrace_set_filter_ip(&kpmod_site_keepers[1], addr, 0, 0)) {
		ftrace_set_filter_ip(&kpmod_site_keepers[0], addr, 1, 0);
		return false;
	}
	return true;
}

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

/*
 * Releases the sites on @doomed (detached from kpmod_sites, no users) and
 * leaves on @doomed those that could not be released safely: they stay
 * armed.  Only the reaper and module exit get here, one at a time: the
 * keepers are theirs alone.
 */
static void kpmod_sites_release(struct list_head *doomed)
{
	struct kpmod_site *site, *tmp;
	struct kprobe **anchors;
	unsigned int n = 0, kept = 0;
	LIST_HEAD(going);

	list_for_each_entry(site, doomed, node)
		n++;
	anchors = kcalloc(max(n, 1U), sizeof(*anchors), GFP_KERNEL);
	if (!anchors)
		return;

	list_for_each_entry_safe(site, tmp, doomed, node) {
		site->kept = false;
		/* A gone anchor's code is gone: nothing left to rewrite. */
		if (!kprobe_gone(&site->anchor)) {
			if (!kpmod_site_keep(site->addr))
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

	n = 0;
	list_for_each_entry(site, &going, node)
		anchors[n++] = &site->anchor;
	if (n)
		unregister_kprobes(anchors, n);
	if (kept) {
		unregister_ftrace_function(&kpmod_site_keepers[1]);
		unregister_ftrace_function(&kpmod_site_keepers[0]);
	}
	list_for_each_entry_safe(site, tmp, &going, node) {
		if (site->kept)
			kpmod_site_unkeep(site->addr);
		list_del(&site->node);
		kfree(site);
	}
	kfree(anchors);
}

static void kpmod_sites_reap(struct work_struct *work)
{
	unsigned long linger = msecs_to_jiffies(KPMOD_SITE_LINGER_MS);
	unsigned long next = 0;
	struct kpmod_site *site, *tmp;
	unsigned int released = 0;
	LIST_HEAD(doomed);

	mutex_lock(&kpmod_lock);
	list_for_each_entry_safe(site, tmp, &kpmod_sites, node) {
		if (site->users)
			continue;
		if (time_before(jiffies, site->idle_since + linger)) {
			next = next ? min(next, site->idle_since + linger) :
				      site->idle_since + linger;
			continue;
		}
		list_move_tail(&site->node, &doomed);
		released++;
	}
	mutex_unlock(&kpmod_lock);

	/*
	 * Outside kpmod_lock: unregistering ftrace_ops waits for RCU-tasks
	 * grace periods.  A probe added meanwhile on one of these functions
	 * gets a new site, whose enabled anchor guards what happens here.
	 */
	kpmod_sites_release(&doomed);

	mutex_lock(&kpmod_lock);
	list_for_each_entry(site, &doomed, node) {
		pr_warn_once("could not release the ftrace hook of %pS safely: left armed\n",
			     (void *)site->addr);
		released--;
		site->idle_since = jiffies;
		next = next ? min(next, jiffies + 10 * linger) : jiffies + 10 * linger;
	}
	list_splice_tail(&doomed, &kpmod_sites);
	WRITE_ONCE(kpmod_sites_count, kpmod_sites_count - released);
	if (next)
		mod_delayed_work(system_wq, &kpmod_site_reaper,
				 time_after(next, jiffies) ? next - jiffies : 0);
	mutex_unlock(&kpmod_lock);
}

void kpmod_sites_exit(void)
{
	struct kpmod_site *site;
	LIST_HEAD(doomed);

	cancel_delayed_work_sync(&kpmod_site_reaper);
	mutex_lock(&kpmod_lock);
	list_splice_init(&kpmod_sites, &doomed);
	kpmod_sites_count = 0;
	mutex_unlock(&kpmod_lock);
	list_for_each_entry(site, &doomed, node)
		WARN_ON_ONCE(site->users);
	kpmod_sites_release(&doomed);
	/* Could not be released safely: release them anyway, the module goes. */
	if (!list_empty(&doomed)) {
		struct kpmod_site *tmp;

		list_for_each_entry_safe(site, tmp, &doomed, node) {
			unregister_kprobe(&site->anchor);
			list_del(&site->node);
			kfree(site);
		}
	}
}

#else /* !CONFIG_KPROBES_ON_FTRACE: no kprobe is ever on ftrace */

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

void kpmod_sites_exit(void)
{
}

#endif
