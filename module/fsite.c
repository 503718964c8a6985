// SPDX-License-Identifier: GPL-2.0
/*
 * Entry probes on ftrace sites, armed through one ftrace_ops of kpmod's.
 *
 * The kernel arms a kprobe on an ftrace site with one change of its own
 * ftrace_ops' filter per probe, each a pass over the kernel's text (9 ms
 * each under an emulator, minutes for a thousand under KASAN).  Here every
 * such probe of kpmod's is one address in one filter: arming or disarming
 * any number of them, a request's worth, is one ftrace_set_filter_ips().
 *
 * The probe's kprobe stays registered, disabled: the kernel checked its
 * address when it was added, lists it, and marks it gone with its module.
 * The handler finds the probes of an address in a table published by RCU
 * (hashed by address), and runs them as kprobe_ftrace_handler() runs a kprobe's
 * pre_handler (regs->ip one past the address).  The ops sets no IPMODIFY:
 * livepatch and other tracers keep the same function.
 */
#include <linux/ftrace.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/trace_recursion.h>

#include "fsite.h"
#include "hit.h"
#include "kpmod.h"

struct kpmod_fsite_entry {
	unsigned long ip;
	struct kpmod_probe *p;		/* NULL: forgotten (kpmod_fsite_forget()) */
};

/*
 * The entries sorted by address (then newest first), and an open-addressed
 * hash of each address to its first entry, so a hit's cost hardly depends
 * on how many sites are armed.
 */
struct kpmod_fsite_table {
	struct rcu_head rcu;
	unsigned int n;
	unsigned int bits;		/* 1 << bits slots, at least twice n */
	u32 *slot;			/* index of an address's first entry + 1; 0: empty */
	struct kpmod_fsite_entry e[];
};

/* Replaced under kpmod_lock; the handler reads it with preemption off. */
static struct kpmod_fsite_table __rcu *kpmod_fsite_tab;
/* Every probe armed here once and not forgotten since; kpmod_lock. */
static LIST_HEAD(kpmod_fsite_probes);
static bool kpmod_fsite_registered;
/* The filter may hold addresses nothing wants: made whole at the next commit. */
static bool kpmod_fsite_dirty;
static unsigned int kpmod_fsite_batching;

/* Linear probing: the slot tried after @h (the table has a free one). */
static inline unsigned int notrace kpmod_fsite_next(const struct kpmod_fsite_table *t,
						    unsigned int h)
{
	return (h + 1) & ((1U << t->bits) - 1);
}

/* The first entry at @ip, or t->n if there is none. */
static unsigned int notrace kpmod_fsite_find(const struct kpmod_fsite_table *t,
					     unsigned long ip)
{
	unsigned int h = hash_long(ip, t->bits);
	u32 v;

	while ((v = t->slot[h])) {
		if (t->e[v - 1].ip == ip)
			return v - 1;
		h = kpmod_fsite_next(t, h);
	}
	return t->n;
}

/*
 * Set while a handler of this CPU runs: a hit meanwhile, in its own calls
 * or in an interrupt, is missed, as a kprobe's under kprobe_running().
 */
static DEFINE_PER_CPU(unsigned int, kpmod_fsite_depth);

static void notrace kpmod_fsite_handler(unsigned long ip, unsigned long parent_ip,
					struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);
	const struct kpmod_fsite_table *t;
	unsigned long orig_ip;
	unsigned int i, first;
	int bit;

	/* As kprobe_ftrace_handler(): a deeper recursion is not even counted. */
	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;
	/*
	 * Preemption is off from here (the trylock).  Where RCU does not
	 * watch (idle, entry) the table may be freed under us: not run.
	 */
	if (unlikely(!rcu_is_watching()))
		goto out;
	t = rcu_dereference_sched(kpmod_fsite_tab);
	if (unlikely(!t || !regs))
		goto out;
	first = kpmod_fsite_find(t, ip);
	if (unlikely(__this_cpu_read(kpmod_fsite_depth))) {
		for (i = first; i < t->n && t->e[i].ip == ip; i++) {
			struct kpmod_probe *p = READ_ONCE(t->e[i].p);

			if (p)
				WRITE_ONCE(p->rp.kp.nmissed, p->rp.kp.nmissed + 1);
		}
		goto out;
	}
	__this_cpu_inc(kpmod_fsite_depth);
	orig_ip = instruction_pointer(regs);
	for (i = first; i < t->n && t->e[i].ip == ip; i++) {
		struct kpmod_probe *p = READ_ONCE(t->e[i].p);

		/* Gone with its module: another module may hold the address now. */
		if (!p || kprobe_gone(&p->rp.kp))
			continue;
		/* What a kprobe's pre_handler sees: as if an int3 at ip was hit. */
		instruction_pointer_set(regs, ip + sizeof(kprobe_opcode_t));
		kpmod_hit_entry(p, regs);
		instruction_pointer_set(regs, orig_ip);
	}
	__this_cpu_dec(kpmod_fsite_depth);
out:
	ftrace_test_recursion_unlock(bit);
}

NOKPROBE_SYMBOL(kpmod_fsite_find);
NOKPROBE_SYMBOL(kpmod_fsite_handler);

static struct ftrace_ops kpmod_fsite_ops = {
	.func = kpmod_fsite_handler,
	.flags = FTRACE_OPS_FL_SAVE_REGS,
};

/*
 * A function nothing calls: the filter when no site is armed.  The ops is
 * in module memory (FTRACE_OPS_FL_DYNAMIC), so unregistering it waits for
 * RCU-tasks grace periods, holding ftrace_lock (173 ms on 7.3, for the
 * disable of a last probe); parked here instead, it stays registered until
 * the module goes.  noipa and a body of its own: never folded with a
 * function that is called.
 */
static noinline __noipa void kpmod_fsite_idle(void)
{
	asm volatile("# kpmod: the parked ftrace_ops' site" ::: "memory");
}

/* The filter reduced to kpmod_fsite_idle(); 0, or an error. */
static int kpmod_fsite_park(void)
{
	unsigned long idle = (unsigned long)kpmod_fsite_idle;
	int ret = ftrace_set_filter_ips(&kpmod_fsite_ops, &idle, 1, 0, 1);

	/* Without kpmod's own symbols, say, on an IBT kernel (ftrace_location()). */
	if (ret)
		pr_warn_once("ftrace sites: not parked (%d): disarming the last one waits for RCU-tasks\n",
			     ret);
	return ret;
}

bool kpmod_fsite_eligible(const struct kpmod_probe *p)
{
	return p->kind == KPMOD_PROBE_ENTRY && p->registered &&
	       (p->rp.kp.flags & KPROBE_FLAG_FTRACE);
}

/*
 * By address, then newest first: the order the kernel runs the kprobes of
 * one address in (add_new_kprobe() puts each at the head).
 */
static int kpmod_fsite_cmp(const void *a, const void *b)
{
	const struct kpmod_fsite_entry *x = a, *y = b;

	if (x->ip != y->ip)
		return x->ip < y->ip ? -1 : 1;
	return x->p->id > y->p->id ? -1 : x->p->id < y->p->id;
}

static void kpmod_fsite_table_free(struct rcu_head *rcu)
{
	kvfree(container_of(rcu, struct kpmod_fsite_table, rcu));
}

/*
 * The table of every probe that wants to be armed, sorted, and its
 * addresses once each; NULL and 0 when none.  A probe gone with its
 * module stops wanting: ftrace no longer knows its address.
 */
static int kpmod_fsite_table_build(struct kpmod_fsite_table **out, unsigned long **ips,
				   unsigned int *nips)
{
	struct kpmod_fsite_table *t;
	struct kpmod_probe *p;
	unsigned int n = 0, i, bits;

	*out = NULL;
	*ips = NULL;
	*nips = 0;
	list_for_each_entry(p, &kpmod_fsite_probes, fsite_node) {
		if (p->fsite_want && kprobe_gone(&p->rp.kp))
			p->fsite_want = false;
		n += p->fsite_want;
	}
	if (!n)
		return 0;
	/* n is at most max_probes: the slots, 2n to 4n of them, are bounded too. */
	bits = ilog2(roundup_pow_of_two(2 * n));
	t = kvzalloc(size_add(struct_size(t, e, n), array_size(sizeof(u32), 1UL << bits)),
		     GFP_KERNEL_ACCOUNT);
	*ips = kvmalloc_array(n, sizeof(**ips), GFP_KERNEL_ACCOUNT);
	if (!t || !*ips) {
		kvfree(t);
		kvfree(*ips);
		*ips = NULL;
		return -ENOMEM;
	}
	t->n = 0;
	list_for_each_entry(p, &kpmod_fsite_probes, fsite_node)
		if (p->fsite_want)
			t->e[t->n++] = (struct kpmod_fsite_entry){
				.ip = (unsigned long)p->rp.kp.addr, .p = p };
	sort(t->e, t->n, sizeof(t->e[0]), kpmod_fsite_cmp, NULL);
	t->bits = bits;
	t->slot = (u32 *)&t->e[n];
	for (i = 0; i < t->n; i++) {
		unsigned int h;

		/* Only an address's first entry has a slot. */
		if (*nips && (*ips)[*nips - 1] == t->e[i].ip)
			continue;
		(*ips)[(*nips)++] = t->e[i].ip;
		h = hash_long(t->e[i].ip, bits);
		while (t->slot[h])
			h = kpmod_fsite_next(t, h);
		t->slot[h] = i + 1;
	}
	*out = t;
	return 0;
}

/*
 * Puts every probe's wish in force in one change.  The table goes first
 * when sites are added (a site patched finds its probes) and serves the
 * removed ones until then too: their probes are disabled already, so they
 * record nothing.  The filter is never left empty on a registered ops (an
 * empty filter traces every function): with none left it is parked on
 * kpmod_fsite_idle().  The filter is made whole each time (reset), so an
 * address nothing wants any more (kpmod_fsite_forget()) leaves it at the
 * next change.
 */
static int kpmod_fsite_commit(void)
{
	struct kpmod_fsite_table *t, *old;
	struct kpmod_probe *p;
	bool changed = kpmod_fsite_dirty;
	unsigned long *ips;
	unsigned int nips;
	int ret;

	lockdep_assert_held(&kpmod_lock);
	list_for_each_entry(p, &kpmod_fsite_probes, fsite_node)
		changed |= p->fsite_want != p->fsite_on;
	if (!changed)
		return 0;
	ret = kpmod_fsite_table_build(&t, &ips, &nips);
	if (ret)
		return ret;
	old = rcu_dereference_protected(kpmod_fsite_tab, lockdep_is_held(&kpmod_lock));
	if (!nips) {
		/* Where parking fails (no ftrace site in kpmod?), the ops goes. */
		if (kpmod_fsite_registered && kpmod_fsite_park()) {
			ret = unregister_ftrace_function(&kpmod_fsite_ops);
			if (ret)
				return ret;
			kpmod_fsite_registered = false;
		}
		rcu_assign_pointer(kpmod_fsite_tab, NULL);
	} else {
		rcu_assign_pointer(kpmod_fsite_tab, t);
		ret = ftrace_set_filter_ips(&kpmod_fsite_ops, ips, nips, 0, 1);
		if (!ret && !kpmod_fsite_registered) {
			ret = register_ftrace_function(&kpmod_fsite_ops);
			kpmod_fsite_registered = !ret;
		}
		kvfree(ips);
		if (ret) {
			rcu_assign_pointer(kpmod_fsite_tab, old);
			/* A handler may have seen @t: freed after a grace period. */
			call_rcu(&t->rcu, kpmod_fsite_table_free);
			return ret;
		}
	}
	if (old)
		call_rcu(&old->rcu, kpmod_fsite_table_free);
	kpmod_fsite_dirty = false;
	list_for_each_entry(p, &kpmod_fsite_probes, fsite_node)
		p->fsite_on = p->fsite_want;
	return 0;
}

/*
 * After a failed commit: what was to be armed is not (its wish undone);
 * what was to be disarmed is anyway, as disarming a kprobe cannot fail
 * (kpmod_fsite_forget()).  Whether anything was undone.
 */
static bool kpmod_fsite_settle(void)
{
	struct kpmod_probe *p, *tmp;
	bool undone = false;

	list_for_each_entry_safe(p, tmp, &kpmod_fsite_probes, fsite_node) {
		if (p->fsite_want && !p->fsite_on) {
			p->fsite_want = false;
			undone = true;
		} else if (!p->fsite_want && p->fsite_on) {
			kpmod_fsite_forget(p);
		}
	}
	return undone;
}

/* Commits; an error only when something to be armed is not. */
static int kpmod_fsite_apply(void)
{
	int ret = kpmod_fsite_commit();

	return ret && kpmod_fsite_settle() ? ret : 0;
}

int kpmod_fsite_arm(struct kpmod_probe *p, bool on)
{
	lockdep_assert_held(&kpmod_lock);
	if (!p->fsite_listed) {
		list_add_tail(&p->fsite_node, &kpmod_fsite_probes);
		p->fsite_listed = true;
	}
	p->fsite_want = on;
	return kpmod_fsite_batching ? 0 : kpmod_fsite_apply();
}

void kpmod_fsite_batch(void)
{
	lockdep_assert_held(&kpmod_lock);
	kpmod_fsite_batching++;
}

int kpmod_fsite_flush(void)
{
	lockdep_assert_held(&kpmod_lock);
	return --kpmod_fsite_batching ? 0 : kpmod_fsite_apply();
}

void kpmod_fsite_discard(void)
{
	struct kpmod_probe *p;

	lockdep_assert_held(&kpmod_lock);
	if (--kpmod_fsite_batching)
		return;
	list_for_each_entry(p, &kpmod_fsite_probes, fsite_node)
		p->fsite_want = p->fsite_on;
}

void kpmod_fsite_forget(struct kpmod_probe *p)
{
	struct kpmod_fsite_table *t;
	unsigned int i;

	lockdep_assert_held(&kpmod_lock);
	p->fsite_want = false;
	if (p->fsite_on) {
		t = rcu_dereference_protected(kpmod_fsite_tab, lockdep_is_held(&kpmod_lock));
		for (i = 0; t && i < t->n; i++)
			if (t->e[i].p == p)
				WRITE_ONCE(t->e[i].p, NULL);
		p->fsite_on = false;
		/* Its address may stay in the filter: out at the next change. */
		kpmod_fsite_dirty = true;
	}
	if (p->fsite_listed) {
		list_del(&p->fsite_node);
		p->fsite_listed = false;
	}
}

/*
 * A probed module going, or its __init code freed once it is live: those
 * addresses leave the filter while ftrace still knows them (after that,
 * naming one fails, and a module loaded later at the same address would
 * be traced).  Their probes are disarmed whatever happens; the kernel
 * marks their kprobes gone.
 */
static int kpmod_fsite_module(struct notifier_block *nb, unsigned long state, void *data)
{
	struct module *mod = data;
	struct kpmod_probe *p;
	bool any = false;

	if (state != MODULE_STATE_GOING && state != MODULE_STATE_LIVE)
		return NOTIFY_DONE;
	mutex_lock(&kpmod_lock);
	list_for_each_entry(p, &kpmod_fsite_probes, fsite_node) {
		unsigned long addr = (unsigned long)p->rp.kp.addr;

		if (!p->fsite_on && !p->fsite_want)
			continue;
		if (state == MODULE_STATE_GOING ? within_module(addr, mod) :
		    within_module_init(addr, mod)) {
			p->fsite_want = false;
			any = true;
		}
	}
	if (any && kpmod_fsite_commit()) {
		pr_warn("could not take the functions of module %s out of the ftrace filter\n",
			mod->name);
		kpmod_fsite_settle();
	}
	mutex_unlock(&kpmod_lock);
	return NOTIFY_DONE;
}

static struct notifier_block kpmod_fsite_nb = {
	.notifier_call = kpmod_fsite_module,
};

int kpmod_fsite_init(void)
{
	return register_module_notifier(&kpmod_fsite_nb);
}

void kpmod_fsite_exit(void)
{
	struct kpmod_fsite_table *t;
	struct kpmod_probe *p, *tmp;

	/* Not under kpmod_lock: the notifier takes it. */
	unregister_module_notifier(&kpmod_fsite_nb);
	mutex_lock(&kpmod_lock);
	/* Waits for every handler running on a site. */
	if (kpmod_fsite_registered && !unregister_ftrace_function(&kpmod_fsite_ops))
		kpmod_fsite_registered = false;
	if (kpmod_fsite_registered)
		pr_err("the ftrace sites could not be stopped\n");
	t = rcu_replace_pointer(kpmod_fsite_tab, NULL, lockdep_is_held(&kpmod_lock));
	if (t)
		call_rcu(&t->rcu, kpmod_fsite_table_free);
	list_for_each_entry_safe(p, tmp, &kpmod_fsite_probes, fsite_node) {
		p->fsite_want = false;
		p->fsite_on = false;
		list_del(&p->fsite_node);
		p->fsite_listed = false;
	}
	/* The filter's memory (ftrace_free_filter() is not exported everywhere). */
	if (!kpmod_fsite_registered)
		ftrace_set_filter_ips(&kpmod_fsite_ops, NULL, 0, 0, 1);
	mutex_unlock(&kpmod_lock);
}
