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
