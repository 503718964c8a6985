// SPDX-License-Identifier: GPL-2.0
/*
 * The probe registry.  A probe is registered, disabled, when it is added
 * (so a bad address is refused at once, as kprobe_events does) and
 * enabled later; it is armed (its kprobe fires) while enabled or while a
 * trigger needs it.  Every change is made under kpmod_lock; the handlers
 * (hit.c) read what they need without it.
 */
#include <linux/kprobes.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "fsite.h"
#include "hit.h"
#include "kpmod.h"
#include "registry.h"
#include "trigger.h"

LIST_HEAD(kpmod_probes);
static unsigned int kpmod_probes_count;
/*
 * Probes unlisted but not yet unregistered (kpmod_probes_release()): still
 * the kernel's, so still counted against max_probes.
 */
static atomic_t kpmod_probes_releasing = ATOMIC_INIT(0);
static u32 kpmod_next_id = 1;

struct kpmod_probe *kpmod_probe_alloc(u32 nargs)
{
	struct kpmod_probe *p;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return NULL;
	/* Before anything can fail: kpmod_probe_free() walks the triggers. */
	INIT_LIST_HEAD(&p->node);
	INIT_LIST_HEAD(&p->triggers);
	p->layout.args = kcalloc(max_t(u32, nargs, 1), sizeof(*p->layout.args), GFP_KERNEL);
	p->stats = alloc_percpu(struct kpmod_probe_stats);
	if (!p->layout.args || !p->stats) {
		kpmod_probe_free(p);
		return NULL;
	}
	p->layout.nargs = nargs;
	return p;
}

void kpmod_probe_free(struct kpmod_probe *p)
{
	if (!p)
		return;
	free_percpu(p->stats);
	/* Unregistered, or never registered: no handler runs it any more. */
	kpmod_filter_free(rcu_dereference_protected(p->filter, true));
	kpmod_triggers_free(p);
	kfree(p->layout.args);
	kfree(p->definition);
	if (kpmod_probe_is_uprobe(p))
		kpmod_uprobe_release(&p->up, p->offset);
	kfree(p);
}

/*
 * How a handler fetches @a (enum kpmod_fetch_path).  A register or $argN
 * in one stored as it is, and a register, $argN in one or $stack followed
 * by reads of memory into one scalar with no bitfield or into one string,
 * need no program.
 */
static void kpmod_arg_choose_path(const struct kpmod_probe *p, struct kpmod_arg *a)
{
	const struct kpmod_fetch_insn *in = &a->prog[0];
	u8 store = a->prog[a->store].op;

	a->path = KPMOD_FETCH_PROGRAM;
	a->base_word = -1;
	if (a->bf || a->entry_slot >= 0 || a->count)
		return;
	if (in->op == KPMOD_FOP_REG)
		a->base_word = kpmod_arch_reg_word(in->param);
	else if (in->op == KPMOD_FOP_ARG)
		a->base_word = kpmod_arch_arg_word(in->param);
	else if (in->op == KPMOD_FOP_STACKP && !kpmod_probe_is_uprobe(p))
		a->base_word = kpmod_arch_sp_word();	/* a uprobe's is the user's */
	if (a->base_word < 0)
		return;
	if (store == KPMOD_FOP_ST_RAW && a->store == 1)
		a->path = KPMOD_FETCH_REG;
	else if (store == KPMOD_FOP_ST_MEM || store == KPMOD_FOP_ST_UMEM)
		a->path = KPMOD_FETCH_MEM;
	else if (store == KPMOD_FOP_ST_STRING || store == KPMOD_FOP_ST_USTRING)
		a->path = KPMOD_FETCH_STR;
}

/* Slots in argument order, each aligned to its element size. */
static int kpmod_probe_layout(struct kpmod_probe *p, struct netlink_ext_ack *extack)
{
	u32 i, off = 0;

	p->layout.bitmap_size = KPMOD_FAULT_BITMAP_SIZE(p->layout.nargs);
	p->nentry = 0;
	p->has_strings = false;
	for (i = 0; i < p->layout.nargs; i++) {
		struct kpmod_arg *a = &p->layout.args[i];

		off = ALIGN(off, a->elem_size);
		a->offset = off;
		if (a->prog[a->store].op == KPMOD_FOP_ST_STRING ||
		    a->prog[a->store].op == KPMOD_FOP_ST_USTRING)
			p->has_strings = true;
		off += a->size;
		a->entry_slot = -1;
		if (p->kind == KPMOD_PROBE_RETURN && a->prog[0].op == KPMOD_FOP_ARG) {
			a->entry_slot = p->nentry;
			p->entry_arg[p->nentry++] = a->prog[0].param;
		}
	}
	/* The time of the call goes after the captured arguments. */
	p->has_duration = false;
	for (i = 0; i < p->layout.nargs; i++) {
		if (p->layout.args[i].prog[0].op == KPMOD_FOP_DURATION) {
			p->layout.args[i].entry_slot = p->nentry;
			p->has_duration = true;
		}
	}
	for (i = 0; i < p->layout.nargs; i++)
		kpmod_arg_choose_path(p, &p->layout.args[i]);
	p->fixed_size = ALIGN(off, 8);
	/* Fixed part, then every string at its longest; cut to a record's max. */
	p->max_len = sizeof(struct kpmod_record) + p->layout.bitmap_size + p->fixed_size;
	for (i = 0; i < p->layout.nargs; i++) {
		const struct kpmod_arg *a = &p->layout.args[i];

		if (a->prog[a->store].op == KPMOD_FOP_ST_STRING ||
		    a->prog[a->store].op == KPMOD_FOP_ST_USTRING)
			p->max_len += max_t(u32, a->count, 1) * KPMOD_MAX_STRING;
	}
	p->max_len = min_t(u32, ALIGN(p->max_len, 8), KPMOD_MAX_RECORD);
	if (p->fixed_size > KPMOD_MAX_FIXED_ARGS) {
		NL_SET_ERR_MSG(extack, "arguments exceed 3072 bytes");
		return -E2BIG;
	}
	return 0;
}

static void kpmod_register_error(struct netlink_ext_ack *extack, int err)
{
	switch (err) {
	case -ENOENT:
		NL_SET_ERR_MSG(extack, "symbol not found");
		break;
	case -EINVAL:
	case -EILSEQ:
		NL_SET_ERR_MSG(extack, "address is not probeable");
		break;
	case -EBUSY:
		NL_SET_ERR_MSG(extack, "address is busy (another probe or tracer owns it)");
		break;
	case -EOPNOTSUPP:
		NL_SET_ERR_MSG(extack, "return probes are not supported here");
		break;
	default:
		NL_SET_ERR_MSG(extack, "the kernel refused the probe");
		break;
	}
}

/* Both wait for running handlers before returning. */
static void kpmod_probe_unregister_kernel(struct kpmod_probe *p)
{
	if (p->kind == KPMOD_PROBE_RETURN)
		unregister_kretprobe(&p->rp);
	else
		unregister_kprobe(&p->rp.kp);
}

/* Registers @p's kprobe or kretprobe, disabled, from scratch. */
static int kpmod_probe_register_kernel(struct kpmod_probe *p)
{
	struct kprobe *kp = &p->rp.kp;

	/* Also when registering again: nothing of the last time stays. */
	memset(&p->rp, 0, sizeof(p->rp));
	if (p->symbol[0]) {
		kp->symbol_name = p->lookup;
		kp->offset = p->offset;
	} else {
		kp->addr = (kprobe_opcode_t *)(unsigned long)p->addr;
	}
	kp->flags = KPROBE_FLAG_DISABLED;
	kpmod_hit_handlers(p);
	if (p->kind == KPMOD_PROBE_RETURN) {
		p->rp.data_size = (p->nentry + p->has_duration) * sizeof(unsigned long);
		p->rp.maxactive = p->maxactive;
		return register_kretprobe(&p->rp);
	}
	return register_kprobe(kp);
}

/* What every probe checks before it is registered; kpmod_lock held. */
static int kpmod_probe_admit(struct kpmod_probe *p, struct netlink_ext_ack *extack)
{
	lockdep_assert_held(&kpmod_lock);
	if (kpmod_probe_find(p->group, p->event)) {
		NL_SET_ERR_MSG(extack, "an event with this group and name exists");
		return -EEXIST;
	}
	if (kpmod_probes_count + atomic_read(&kpmod_probes_releasing) >= kpmod_max_probes) {
		NL_SET_ERR_MSG(extack, "too many probes (module parameter max_probes)");
		return -ENOSPC;
	}
	return kpmod_probe_layout(p, extack);
}

static void kpmod_probe_list_add(struct kpmod_probe *p)
{
	p->registered = true;
	p->id = kpmod_next_id++;
	list_add_tail(&p->node, &kpmod_probes);
	kpmod_probes_count++;
	kpmod_probes_changed();
}

int kpmod_probe_register_user(struct kpmod_probe *p, struct netlink_ext_ack *extack)
{
	int ret = kpmod_probe_admit(p, extack);

	if (ret)
		return ret;
	kpmod_hit_handlers(p);
	kpmod_probe_list_add(p);
	return 0;
}

int kpmod_probe_register(struct kpmod_probe *p, struct netlink_ext_ack *extack)
{
	int ret;

	ret = kpmod_probe_admit(p, extack);
	if (ret)
		return ret;

	if (p->module[0])
		snprintf(p->lookup, sizeof(p->lookup), "%s:%s", p->module, p->symbol);
	else
		strscpy(p->lookup, p->symbol, sizeof(p->lookup));
	ret = kpmod_probe_register_kernel(p);
	if (ret) {
		kpmod_register_error(extack, ret);
		return ret;
	}
	kpmod_probe_list_add(p);
	return 0;
}

struct kpmod_probe *kpmod_probe_find(const char *group, const char *event)
{
	struct kpmod_probe *p;

	list_for_each_entry(p, &kpmod_probes, node)
		if (!strcmp(p->group, group) && !strcmp(p->event, event))
			return p;
	return NULL;
}

static void kpmod_probe_unregister(struct kpmod_probe *p)
{
	if (kpmod_probe_is_uprobe(p))
		kpmod_uprobe_release(&p->up, p->offset);
	else
		kpmod_probe_unregister_kernel(p);
	p->registered = false;
}

/*
 * Unregisters every probe on @list: the kprobes in one call and the
 * kretprobes in another, each waiting for one grace period whatever their
 * number (one call per probe when the arrays cannot be had).
 */
static void kpmod_probes_unregister(struct list_head *list)
{
	struct kretprobe **rps = NULL;
	struct kprobe **kps = NULL;
	unsigned int n = 0, nk = 0, nr = 0;
	struct kpmod_probe *p;

	list_for_each_entry(p, list, node)
		n++;
	if (n > 1) {
		kps = kvmalloc_array(n, sizeof(*kps), GFP_KERNEL);
		rps = kvmalloc_array(n, sizeof(*rps), GFP_KERNEL);
	}
	list_for_each_entry(p, list, node) {
		if (!kps || !rps || kpmod_probe_is_uprobe(p))
			kpmod_probe_unregister(p);
		else if (p->kind == KPMOD_PROBE_RETURN)
			rps[nr++] = &p->rp;
		else
			kps[nk++] = &p->rp.kp;
		p->registered = false;
	}
	if (nk)
		unregister_kprobes(kps, nk);
	if (nr)
		unregister_kretprobes(rps, nr);
	kvfree(kps);
	kvfree(rps);
}

void kpmod_probe_unlist(struct kpmod_probe *p, struct list_head *doomed)
{
	lockdep_assert_held(&kpmod_lock);
	/* A site whose disarming failed must not run it once it is freed. */
	kpmod_fsite_forget(p);
	list_move_tail(&p->node, doomed);
	kpmod_probes_count--;
	atomic_inc(&kpmod_probes_releasing);
	kpmod_probes_changed();
}

void kpmod_probes_release(struct list_head *doomed)
{
	struct kpmod_probe *p, *tmp;

	kpmod_probes_unregister(doomed);
	list_for_each_entry_safe(p, tmp, doomed, node) {
		list_del(&p->node);
		kpmod_probe_free(p);
		atomic_dec(&kpmod_probes_releasing);
	}
}

int kpmod_probe_busy(const struct kpmod_probe *p, struct netlink_ext_ack *extack)
{
	if (p->enabled) {
		NL_SET_ERR_MSG(extack, "probe is enabled: disable it first");
		return -EBUSY;
	}
	if (p->ntriggers) {
		NL_SET_ERR_MSG(extack, "probe has triggers: remove them first");
		return -EBUSY;
	}
	if (p->soft_refs) {
		NL_SET_ERR_MSG(extack, "another probe's trigger switches it: remove that first");
		return -EBUSY;
	}
	return 0;
}

int kpmod_probe_delete(struct kpmod_probe *p, struct netlink_ext_ack *extack)
{
	LIST_HEAD(doomed);
	int ret;

	lockdep_assert_held(&kpmod_lock);
	ret = kpmod_probe_busy(p, extack);
	if (ret)
		return ret;
	kpmod_probe_unlist(p, &doomed);
	kpmod_probes_release(&doomed);
	return 0;
}

int kpmod_probe_arm(struct kpmod_probe *p)
{
	bool want = p->enabled || p->ntriggers || p->soft_refs;
	int ret;

	lockdep_assert_held(&kpmod_lock);
	/* A gone probe's handler never runs again: nothing of it is armed. */
	if (kpmod_probe_gone(p)) {
		p->armed = false;
		return 0;
	}
	if (want == p->armed)
		return 0;
	if (kpmod_probe_is_uprobe(p))
		ret = kpmod_uprobe_arm(&p->up, p->offset, want);
	else if (p->kind == KPMOD_PROBE_RETURN)
		ret = want ? enable_kretprobe(&p->rp) : disable_kretprobe(&p->rp);
	else if (kpmod_fsite_eligible(p))
		ret = kpmod_fsite_arm(p, want);
	else
		ret = want ? enable_kprobe(&p->rp.kp) : disable_kprobe(&p->rp.kp);
	if (!ret)
		p->armed = want;
	return ret;
}

int kpmod_probe_enable(struct kpmod_probe *p, bool on)
{
	bool soft_disabled = p->soft_disabled;
	int ret;

	lockdep_assert_held(&kpmod_lock);
	if (p->enabled == on) {
		/* As the kernel's: enabling by hand ends a disable_event's soft disable. */
		if (on)
			WRITE_ONCE(p->soft_disabled, false);
		return 0;
	}
	/* A probe whose module went away stays gone, as in kprobe_events. */
	if (kpmod_probe_gone(p)) {
		WRITE_ONCE(p->enabled, false);
		return on ? -ENOENT : 0;
	}
	/*
	 * Handlers test enabled: set it before arming, clear it before
	 * disarming.  As the kernel's soft mode: enabling by hand records
	 * at once; disabling a target of enable_event leaves it to them.
	 */
	WRITE_ONCE(p->enabled, on);
	WRITE_ONCE(p->soft_disabled, !on && p->soft_refs);
	ret = kpmod_probe_arm(p);
	if (ret) {
		WRITE_ONCE(p->enabled, !on);
		WRITE_ONCE(p->soft_disabled, soft_disabled);
	}
	kpmod_probes_changed();
	return ret;
}

int kpmod_probes_clear(struct list_head *doomed, struct netlink_ext_ack *extack)
{
	struct kpmod_probe *p, *tmp;

	lockdep_assert_held(&kpmod_lock);
	/* All or none: a busy one refuses the whole request. */
	list_for_each_entry(p, &kpmod_probes, node) {
		int ret = kpmod_probe_busy(p, extack);

		if (ret)
			return ret;
	}
	list_for_each_entry_safe(p, tmp, &kpmod_probes, node)
		kpmod_probe_unlist(p, doomed);
	return 0;
}

bool kpmod_probes_any_armed(void)
{
	struct kpmod_probe *p;

	list_for_each_entry(p, &kpmod_probes, node)
		if (p->armed && !kpmod_probe_gone(p))
			return true;
	return false;
}

bool kpmod_probes_any_enabled(void)
{
	struct kpmod_probe *p;

	list_for_each_entry(p, &kpmod_probes, node)
		if (p->enabled)
			return true;
	return false;
}

unsigned int kpmod_nr_probes(void)
{
	return READ_ONCE(kpmod_probes_count);
}

u64 kpmod_probe_misses(struct kpmod_probe *p)
{
	u64 n = p->rp.kp.nmissed;	/* 0 for a uprobe: none can be missed */

	if (p->kind == KPMOD_PROBE_RETURN)
		n += p->rp.nmissed;
	return n;
}

void kpmod_probe_counters(struct kpmod_probe *p, struct kpmod_probe_stats *sum)
{
	int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		const struct kpmod_probe_stats *s = per_cpu_ptr(p->stats, cpu);

		sum->hits += READ_ONCE(s->hits);
		sum->dropped += READ_ONCE(s->dropped);
		sum->filtered += READ_ONCE(s->filtered);
	}
}

struct kpmod_filter *kpmod_probe_filter(struct kpmod_probe *p)
{
	return rcu_dereference_protected(p->filter, lockdep_is_held(&kpmod_lock));
}

void kpmod_probe_set_filter(struct kpmod_probe *p, struct kpmod_filter *f)
{
	struct kpmod_filter *old = kpmod_probe_filter(p);

	rcu_assign_pointer(p->filter, f);
	kpmod_filter_free_rcu(old);
	kpmod_probes_changed();
}

bool kpmod_probe_gone(struct kpmod_probe *p)
{
	return !kpmod_probe_is_uprobe(p) && kprobe_gone(&p->rp.kp);
}

/* A uprobe's is its offset in its file: it has an address per process. */
unsigned long kpmod_probe_address(struct kpmod_probe *p)
{
	if (kpmod_probe_is_uprobe(p))
		return p->offset;
	return (unsigned long)p->rp.kp.addr;
}

u32 kpmod_probe_maxactive(struct kpmod_probe *p)
{
	return p->kind == KPMOD_PROBE_RETURN ? p->rp.maxactive : 0;
}

void kpmod_probes_exit(void)
{
	struct kpmod_probe *p, *tmp;
	LIST_HEAD(doomed);

	mutex_lock(&kpmod_lock);
	list_for_each_entry_safe(p, tmp, &kpmod_probes, node)
		kpmod_probe_unlist(p, &doomed);
	/* All unregistered before any is freed: a trigger may point at any of them. */
	kpmod_probes_release(&doomed);
	mutex_unlock(&kpmod_lock);
}

/* ---- a probe's triggers: what they arm ---- */

/*
 * Drops one enable_event/disable_event reference on @target.  Its last
 * one gone, it records again if enabled by hand; otherwise soft_disabled
 * stays as it is: a handler of @target may have read soft_refs before it
 * dropped and read soft_disabled after, and cleared it would record an
 * event nobody asked for.  With neither soft_refs nor enabled it records
 * nothing either way, and dumps show the flag only while soft_refs is set.
 */
static void kpmod_target_put(struct kpmod_probe *target)
{
	WRITE_ONCE(target->soft_refs, target->soft_refs - 1);
	if (!target->soft_refs && target->enabled)
		WRITE_ONCE(target->soft_disabled, false);
	kpmod_probe_arm(target);
}

int kpmod_trigger_attach(struct kpmod_probe *p, struct kpmod_trigger *t)
{
	struct kpmod_probe *target = t->target;
	int ret;

	lockdep_assert_held(&kpmod_lock);
	if (target) {
		/* A probe not enabled by hand records nothing until enable_event runs. */
		if (!target->soft_refs && !target->enabled)
			WRITE_ONCE(target->soft_disabled, true);
		/* After soft_disabled: its handler never records unasked. */
		smp_wmb();
		WRITE_ONCE(target->soft_refs, target->soft_refs + 1);
		ret = kpmod_probe_arm(target);
		if (ret)
			goto undo_target;
	}
	/* Armed before it is listed: a handler meanwhile finds no trigger. */
	WRITE_ONCE(p->ntriggers, p->ntriggers + 1);
	ret = kpmod_probe_arm(p);
	if (ret) {
		WRITE_ONCE(p->ntriggers, p->ntriggers - 1);
		goto undo_target;
	}
	/* As the kernel: a hist after the other triggers, the others first. */
	if (t->type == KPMOD_TRIGGER_HIST)
		list_add_tail_rcu(&t->node, &p->triggers);
	else
		list_add_rcu(&t->node, &p->triggers);
	kpmod_probes_changed();
	return 0;
undo_target:
	if (target)
		kpmod_target_put(target);
	return ret;
}

void kpmod_trigger_unlink(struct kpmod_probe *p, struct kpmod_trigger *t)
{
	lockdep_assert_held(&kpmod_lock);
	list_del_rcu(&t->node);
	WRITE_ONCE(p->ntriggers, p->ntriggers - 1);
	/* Disarming cannot fail in a way left to undo: the handler finds no trigger. */
	kpmod_probe_arm(p);
	kpmod_probes_changed();
}

void kpmod_trigger_release(struct kpmod_trigger *t)
{
	struct kpmod_probe *target = t->target;

	/*
	 * Handlers run with preemption off: RCU readers.  After the grace
	 * period none runs @t, so none writes its target's soft state again.
	 * The target stays meanwhile: its soft_refs make it busy.
	 */
	synchronize_rcu();
	mutex_lock(&kpmod_lock);
	if (target) {
		kpmod_target_put(target);
		kpmod_probes_changed();
	}
	/* A hist's table is shared under kpmod_lock. */
	kpmod_trigger_free(t);
	mutex_unlock(&kpmod_lock);
}
