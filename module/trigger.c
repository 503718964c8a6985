// SPDX-License-Identifier: GPL-2.0
/*
 * Triggers, as tracefs' events/GRP/EVENT/trigger: traceon, traceoff, hist,
 * enable_event, disable_event, stacktrace and snapshot, each with an optional count
 * and filter.
 * A probe's triggers run on every hit of the armed probe, before its event
 * is recorded (or not).  Adding and removing happen under kpmod_lock;
 * handlers walk the list under RCU (preemption is off in them).
 */
#include <linux/rculist.h>
#include <linux/slab.h>

#include "filter.h"
#include "hist.h"
#include "kpmod.h"
#include "probe.h"
#include "snapshot.h"
#include "trigger.h"

bool kpmod_tracing __read_mostly = true;

void kpmod_tracing_set(bool on)
{
	WRITE_ONCE(kpmod_tracing, on);
}

/* Takes one run off the count; false when none is left. */
static bool kpmod_trigger_take(struct kpmod_trigger *t)
{
	int left = atomic_read(&t->count);

	do {
		if (left == 0)
			return false;
		if (left == -1)
			return true;
	} while (!atomic_try_cmpxchg(&t->count, &left, left - 1));
	return true;
}

NOKPROBE_SYMBOL(kpmod_trigger_take);

u32 kpmod_triggers_run(struct kpmod_probe *p, const struct kpmod_record *rec)
{
	struct kpmod_trigger *t;
	u32 after = 0;
	bool on;

	list_for_each_entry_rcu(t, &p->triggers, node) {
		if (t->filter && !kpmod_filter_match(t->filter, &p->layout, rec))
			continue;
		switch (t->type) {
		case KPMOD_TRIGGER_HIST:
			kpmod_hist_update(t->hist, &p->layout, rec, (unsigned long)p->rp.kp.addr);
			break;
		case KPMOD_TRIGGER_STACKTRACE:
			/* Counted on every run, as the kernel's, tracing on or off. */
			if (kpmod_trigger_take(t))
				after |= KPMOD_AFTER_STACK;
			break;
		case KPMOD_TRIGGER_SNAPSHOT:
			/*
			 * As the kernel's: without a filter, before the event is
			 * recorded; with one, after (the kernel runs such
			 * triggers once the event is in its buffer).
			 */
			if (!kpmod_trigger_take(t))
				break;
			if (t->filter)
				after |= KPMOD_AFTER_SNAPSHOT;
			else
				kpmod_snapshot_take();
			break;
		case KPMOD_TRIGGER_TRACEON:
		case KPMOD_TRIGGER_TRACEOFF:
			/* Counted only when it changes the state, as the kernel's. */
			on = t->type == KPMOD_TRIGGER_TRACEON;
			if (kpmod_tracing_is_on() != on && kpmod_trigger_take(t))
				kpmod_tracing_set(on);
			break;
		default:
			on = t->type == KPMOD_TRIGGER_ENABLE_EVENT;
			if (READ_ONCE(t->target->soft_disabled) == on && kpmod_trigger_take(t))
				WRITE_ONCE(t->target->soft_disabled, !on);
			break;
		}
	}
	return after;
}

NOKPROBE_SYMBOL(kpmod_triggers_run);

struct kpmod_trigger *kpmod_trigger_find(struct kpmod_probe *p, u32 type, const char *text,
					 const char *filter_text)
{
	struct kpmod_trigger *t;

	lockdep_assert_held(&kpmod_lock);
	list_for_each_entry(t, &p->triggers, node) {
		const char *ft = t->filter ? t->filter->text : "";

		if (t->type != type)
			continue;
		/* Hists match as the kernel's do: whatever their size=. */
		if (type == KPMOD_TRIGGER_HIST ? !kpmod_hist_text_match(t->text, text) :
		    strcmp(t->text, text))
			continue;
		/* Two hists may differ by their filter only; the others may not. */
		if (type != KPMOD_TRIGGER_HIST || !strcmp(ft, filter_text ?: ""))
			return t;
	}
	return NULL;
}

struct kpmod_trigger *kpmod_trigger_by_id(struct kpmod_probe *p, u32 id)
{
	struct kpmod_trigger *t;

	list_for_each_entry(t, &p->triggers, node)
		if (t->id == id)
			return t;
	return NULL;
}

u32 kpmod_triggers_text(struct kpmod_probe *p)
{
	struct kpmod_trigger *t;
	u32 n = 0;

	lockdep_assert_held(&kpmod_lock);
	list_for_each_entry(t, &p->triggers, node)
		n += kpmod_trigger_text_bytes(t);
	return n;
}

u32 kpmod_trigger_text_bytes(const struct kpmod_trigger *t)
{
	return strlen(t->text) + 1 + (t->filter ? strlen(t->filter->text) + 1 : 0);
}

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

void kpmod_trigger_free(struct kpmod_trigger *t)
{
	if (!t)
		return;
	kpmod_filter_free(t->filter);
	kpmod_hist_free(t->hist);
	kfree(t->text);
	kfree(t);
}

void kpmod_triggers_free(struct kpmod_probe *p)
{
	struct kpmod_trigger *t, *tmp;

	list_for_each_entry_safe(t, tmp, &p->triggers, node) {
		/* Module exit: every probe goes, targets included. */
		list_del(&t->node);
		kpmod_trigger_free(t);
	}
	p->ntriggers = 0;
}
