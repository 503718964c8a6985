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
 * The handler finds the probes of an address in a sorted table published
 * by RCU, and runs them as kprobe_ftrace_handler() runs a kprobe's
 * pre_handler (regs->ip one past the address).  The ops sets no IPMODIFY:
 * livepatch and other tracers keep the same function.
 */
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/trace_recursion.h>

#include "fsite.h"
#include "hit.h"
#include "kpmod.h"
#include "registry.h"

struct kpmod_fsite_entry {
	unsigned long ip;
	struct kpmod_probe *p;		/* NULL: forgotten (kpmod_fsite_forget()) */
};

struct kpmod_fsite_table {
	struct rcu_head rcu;
	unsigned int n;
	struct kpmod_fsite_entry e[];
};

/* Replaced under kpmod_lock; the handler reads it with preemption off. */
static struct kpmod_fsite_table __rcu *kpmod_fsite_tab;
static bool kpmod_fsite_registered;
static unsigned int kpmod_fsite_batching;

/* The first entry at @ip or after it. */
static unsigned int notrace kpmod_fsite_lower(const struct kpmod_fsite_table *t,
					      unsigned long ip)
{
	unsigned int lo = 0, hi = t->n;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (t->e[mid].ip < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A hit inside a handler's own calls: missed, as a kprobe counts it. */
static void notrace kpmod_fsite_missed(unsigned long ip)
{
	const struct kpmod_fsite_table *t;
	unsigned int i;

	preempt_disable_notrace();
	t = rcu_is_watching() ? rcu_dereference_sched(kpmod_fsite_tab) : NULL;
	if (t) {
		for (i = kpmod_fsite_lower(t, ip); i < t->n && t->e[i].ip == ip; i++) {
			struct kpmod_probe *p = READ_ONCE(t->e[i].p);

			if (p)
				WRITE_ONCE(p->rp.kp.nmissed, p->rp.kp.nmissed + 1);
		}
	}
	preempt_enable_notrace();
}

static void notrace kpmod_fsite_handler(unsigned long ip, unsigned long parent_ip,
					struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);
	const struct kpmod_fsite_table *t;
	unsigned long orig_ip;
	unsigned int i;
	int bit;

	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0) {
		kpmod_fsite_missed(ip);
		return;
	}
	/*
	 * Preemption is off from here (the trylock).  Where RCU does not
	 * watch (idle, entry) the table may be freed under us: not run.
	 */
	if (unlikely(!rcu_is_watching()))
		goto out;
	t = rcu_dereference_sched(kpmod_fsite_tab);
	if (unlikely(!t || !regs))
		goto out;
	orig_ip = instruction_pointer(regs);
	for (i = kpmod_fsite_lower(t, ip); i < t->n && t->e[i].ip == ip; i++) {
		struct kpmod_probe *p = READ_ONCE(t->e[i].p);

		/* Gone with its module: another module may hold the address now. */
		if (!p || kprobe_gone(&p->rp.kp))
			continue;
		/* What a kprobe's pre_handler sees: as if an int3 at ip was hit. */
		instruction_pointer_set(regs, ip + sizeof(kprobe_opcode_t));
		kpmod_hit_entry(p, regs);
		instruction_pointer_set(regs, orig_ip);
	}
out:
	ftrace_test_recursion_unlock(bit);
}

NOKPROBE_SYMBOL(kpmod_fsite_lower);
NOKPROBE_SYMBOL(kpmod_fsite_missed);
NOKPROBE_SYMBOL(kpmod_fsite_handler);

static struct ftrace_ops kpmod_fsite_ops = {
	.func = kpmod_fsite_handler,
	.flags = FTRACE_OPS_FL_SAVE_REGS,
};

bool kpmod_fsite_eligible(const struct kpmod_probe *p)
{
	return p->kind == KPMOD_PROBE_ENTRY && p->registered &&
	       (p->rp.kp.flags & KPROBE_FLAG_FTRACE);
}

/* By address, then by id: probes of one address run in the order they were added. */
static int kpmod_fsite_cmp(const void *a, const void *b)
{
	const struct kpmod_fsite_entry *x = a, *y = b;

	if (x->ip != y->ip)
		return x->ip < y->ip ? -1 : 1;
	return x->p->id < y->p->id ? -1 : x->p->id > y->p->id;
}

static void kpmod_fsite_table_free(struct rcu_head *rcu)
{
	kvfree(container_of(rcu, struct kpmod_fsite_table, rcu));
}

/* The table of every probe that wants to be armed, sorted; NULL and 0 when none. */
static int kpmod_fsite_table_build(struct kpmod_fsite_table **out, unsigned long **ips,
				   unsigned int *nips)
{
	struct kpmod_fsite_table *t;
	struct kpmod_probe *p;
	unsigned int n = 0, i;

	*out = NULL;
	*ips = NULL;
	*nips = 0;
	list_for_each_entry(p, &kpmod_probes, node)
		n += p->fsite_want;
	if (!n)
		return 0;
	t = kvmalloc(struct_size(t, e, n), GFP_KERNEL_ACCOUNT);
	*ips = kvmalloc_array(n, sizeof(**ips), GFP_KERNEL_ACCOUNT);
	if (!t || !*ips) {
		kvfree(t);
		kvfree(*ips);
		*ips = NULL;
		return -ENOMEM;
	}
	t->n = 0;
	list_for_each_entry(p, &kpmod_probes, node)
		if (p->fsite_want)
			t->e[t->n++] = (struct kpmod_fsite_entry){
				.ip = (unsigned long)p->rp.kp.addr, .p = p };
	sort(t->e, t->n, sizeof(t->e[0]), kpmod_fsite_cmp, NULL);
	for (i = 0; i < t->n; i++)
		if (!*nips || (*ips)[*nips - 1] != t->e[i].ip)
			(*ips)[(*nips)++] = t->e[i].ip;
	*out = t;
	return 0;
}

static void kpmod_fsite_publish(struct kpmod_fsite_table *t)
{
	struct kpmod_fsite_table *old;

	old = rcu_replace_pointer(kpmod_fsite_tab, t, lockdep_is_held(&kpmod_lock));
	if (old)
		call_rcu(&old->rcu, kpmod_fsite_table_free);
}

/*
 * Puts every probe's wish in force in one change.  The table goes first
 * when sites are added (a site patched finds its probes) and serves the
 * removed ones until then too: their probes are disabled already, so they
 * record nothing.  The filter is never left empty on a registered ops (an
 * empty filter traces every function): with none left the ops goes.
 */
static int kpmod_fsite_commit(void)
{
	struct kpmod_fsite_table *t, *old;
	struct kpmod_probe *p;
	unsigned long *ips;
	unsigned int nips;
	bool changed = false;
	int ret;

	lockdep_assert_held(&kpmod_lock);
	list_for_each_entry(p, &kpmod_probes, node)
		changed |= p->fsite_want != p->fsite_on;
	if (!changed)
		return 0;
	ret = kpmod_fsite_table_build(&t, &ips, &nips);
	if (ret)
		return ret;
	old = rcu_dereference_protected(kpmod_fsite_tab, lockdep_is_held(&kpmod_lock));
	if (!nips) {
		if (kpmod_fsite_registered) {
			ret = unregister_ftrace_function(&kpmod_fsite_ops);
			if (ret)
				goto fail;
			kpmod_fsite_registered = false;
		}
		kpmod_fsite_publish(NULL);
	} else {
		/* Kept (not published) until the filter is in: undone on failure. */
		rcu_assign_pointer(kpmod_fsite_tab, t);
		ret = ftrace_set_filter_ips(&kpmod_fsite_ops, ips, nips, 0, 1);
		if (!ret && !kpmod_fsite_registered) {
			ret = register_ftrace_function(&kpmod_fsite_ops);
			kpmod_fsite_registered = !ret;
		}
		if (ret) {
			rcu_assign_pointer(kpmod_fsite_tab, old);
			/* A handler may have seen @t: freed after a grace period. */
			call_rcu(&t->rcu, kpmod_fsite_table_free);
			t = NULL;
			goto fail;
		}
		if (old)
			call_rcu(&old->rcu, kpmod_fsite_table_free);
	}
	kvfree(ips);
	list_for_each_entry(p, &kpmod_probes, node)
		p->fsite_on = p->fsite_want;
	return 0;
fail:
	kvfree(ips);
	if (t)
		kvfree(t);
	return ret;
}

/* Every wish back to what is in force. */
static void kpmod_fsite_undo_wishes(void)
{
	struct kpmod_probe *p;

	list_for_each_entry(p, &kpmod_probes, node)
		p->fsite_want = p->fsite_on;
}

int kpmod_fsite_arm(struct kpmod_probe *p, bool on)
{
	int ret;

	lockdep_assert_held(&kpmod_lock);
	p->fsite_want = on;
	if (kpmod_fsite_batching)
		return 0;
	ret = kpmod_fsite_commit();
	if (ret)
		kpmod_fsite_undo_wishes();
	return ret;
}

void kpmod_fsite_batch(void)
{
	lockdep_assert_held(&kpmod_lock);
	kpmod_fsite_batching++;
}

int kpmod_fsite_flush(void)
{
	int ret = 0;

	lockdep_assert_held(&kpmod_lock);
	if (--kpmod_fsite_batching)
		return 0;
	ret = kpmod_fsite_commit();
	if (ret)
		kpmod_fsite_undo_wishes();
	return ret;
}

void kpmod_fsite_discard(void)
{
	lockdep_assert_held(&kpmod_lock);
	if (!--kpmod_fsite_batching)
		kpmod_fsite_undo_wishes();
}

void kpmod_fsite_forget(struct kpmod_probe *p)
{
	struct kpmod_fsite_table *t;
	unsigned int i;

	lockdep_assert_held(&kpmod_lock);
	t = rcu_dereference_protected(kpmod_fsite_tab, lockdep_is_held(&kpmod_lock));
	for (i = 0; t && i < t->n; i++)
		if (t->e[i].p == p)
			WRITE_ONCE(t->e[i].p, NULL);
	/* Its address may stay in the filter until the next change: harmless. */
	p->fsite_want = false;
	p->fsite_on = false;
}

/*
 * A probed module going: its addresses leave the filter while ftrace still
 * knows them (after this, removing one fails, and a module loaded later at
 * the same address would be traced).  Its probes are forgotten whatever
 * happens: the kernel marks their kprobes gone.
 */
static int kpmod_fsite_module(struct notifier_block *nb, unsigned long state, void *data)
{
	struct module *mod = data;
	struct kpmod_probe *p;
	bool any = false;

	if (state != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&kpmod_lock);
	list_for_each_entry(p, &kpmod_probes, node) {
		if (!p->fsite_on && !p->fsite_want)
			continue;
		if (within_module((unsigned long)p->rp.kp.addr, mod)) {
			p->fsite_want = false;
			any = true;
		}
	}
	if (any && kpmod_fsite_commit()) {
		pr_warn("could not take the functions of module %s out of the ftrace filter\n",
			mod->name);
		list_for_each_entry(p, &kpmod_probes, node)
			if (!p->fsite_want && p->fsite_on)
				kpmod_fsite_forget(p);
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
	struct kpmod_probe *p;

	/* Not under kpmod_lock: the notifier takes it. */
	unregister_module_notifier(&kpmod_fsite_nb);
	mutex_lock(&kpmod_lock);
	/* Waits for every handler running on a site. */
	if (kpmod_fsite_registered && !unregister_ftrace_function(&kpmod_fsite_ops))
		kpmod_fsite_registered = false;
	if (kpmod_fsite_registered)
		pr_err("the ftrace sites could not be stopped\n");
	kpmod_fsite_publish(NULL);
	list_for_each_entry(p, &kpmod_probes, node) {
		p->fsite_want = false;
		p->fsite_on = false;
	}
	/* The filter's memory (ftrace_free_filter() is not exported everywhere). */
	if (!kpmod_fsite_registered)
		ftrace_set_filter_ips(&kpmod_fsite_ops, NULL, 0, 0, 1);
	mutex_unlock(&kpmod_lock);
}
