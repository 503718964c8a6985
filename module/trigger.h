/* SPDX-License-Identifier: GPL-2.0 */
/* Triggers: what a probe's hit does besides recording an event. */
#ifndef _KPMOD_TRIGGER_H
#define _KPMOD_TRIGGER_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <uapi/kpmod.h>

struct kpmod_filter;
struct kpmod_hist;
struct kpmod_probe;
struct kpmod_record;

struct kpmod_trigger {
	/* In its probe's triggers: changed under kpmod_lock, walked by handlers (RCU). */
	struct list_head node;
	u32 id;
	u32 type;			/* enum kpmod_trigger_type */
	atomic_t count;			/* runs left; -1: no limit */
	struct kpmod_filter *filter;	/* its "if", or NULL */
	char *text;			/* as listed, count and "if" aside */
	struct kpmod_hist *hist;	/* KPMOD_TRIGGER_HIST */
	struct kpmod_probe *target;	/* KPMOD_TRIGGER_{EN,DIS}ABLE_EVENT */
};

/*
 * Whether events reach the rings at all: traceon/traceoff, KPMOD_CMD_TRACING.
 * Read through kpmod_tracing_is_on(), written through kpmod_tracing_set().
 */
extern bool kpmod_tracing;

static inline bool kpmod_tracing_is_on(void)
{
	return READ_ONCE(kpmod_tracing);
}

void kpmod_tracing_set(bool on);

/* What the handler does after recording the event: KPMOD_AFTER_*. */
#define KPMOD_AFTER_STACK	0x1	/* a stacktrace trigger ran: record the stack */
#define KPMOD_AFTER_SNAPSHOT	0x2	/* a snapshot trigger with a filter ran */

/* Handler context: runs @p's triggers on @rec; returns KPMOD_AFTER_* flags. */
u32 kpmod_triggers_run(struct kpmod_probe *p, const struct kpmod_record *rec);

/* kpmod_lock held for all below. */
struct kpmod_trigger *kpmod_trigger_find(struct kpmod_probe *p, u32 type, const char *text,
					 const char *filter_text);
struct kpmod_trigger *kpmod_trigger_by_id(struct kpmod_probe *p, u32 id);
/* The bytes of text, NULs included, @p's triggers and their filters hold. */
u32 kpmod_triggers_text(struct kpmod_probe *p);
/* The same of one trigger. */
u32 kpmod_trigger_text_bytes(const struct kpmod_trigger *t);
/* Frees a trigger no handler can see. */
void kpmod_trigger_free(struct kpmod_trigger *t);
/* Every trigger of @p, on delete and module exit; @p is unregistered. */
void kpmod_triggers_free(struct kpmod_probe *p);

#endif /* _KPMOD_TRIGGER_H */
