/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Triggers in the grammar of tracefs' events/GRP/EVENT/trigger
 * (Documentation/trace/events.rst section 6, histogram.rst):
 *
 *   [!]traceon[:COUNT] [if FILTER]      [!]traceoff[:COUNT] [if FILTER]
 *   [!]stacktrace[:COUNT] [if FILTER]
 *   [!]enable_event:GRP:EVENT[:COUNT] [if FILTER]   (also disable_event)
 *   [!]hist:keys=K[,K...][:vals=V[,V]][:sort=S[,S]][:size=N][:pause|:cont|:clear]
 *       [if FILTER]
 *
 * parsed as trace_events_trigger.c and trace_events_hist.c parse them, with
 * their messages and error positions.  A hist key is a field with at most
 * one modifier (.hex .sym .sym-offset .execname .log2 .buckets=N .usecs)
 * or "stacktrace"; a value is a numeric field (.hex, .percent, .graph
 * print it differently; kpmod adds .max, .min and .avg).
 */
#ifndef KPMOD_TRIGGER_H
#define KPMOD_TRIGGER_H

#include <stdbool.h>
#include <stdint.h>

#include "exitcode.h"
#include "grammar.h"
#include "hist_spec.h"
#include "probe_nl.h"

struct kp_trigger {
	bool remove;
	uint32_t type;		/* enum kpmod_trigger_type */
	uint32_t count;		/* KPMOD_TRIGGER_UNLIMITED or a number */
	/* As `cat trigger` shows it without count and filter: the module's key. */
	char text[KP_TRIGGER_TEXT_MAX];
	char filter[KPMOD_MAX_FILTER_TEXT];	/* "" when none */
	char target_group[KPMOD_MAX_NAME_LEN], target_event[KPMOD_MAX_NAME_LEN];
	struct kp_hist_spec hist;
};

/*
 * Parses @line for a probe of fields @ff.  Returns 0, or -EINVAL with
 * @err filled.  The filter is only split off here (see kp_filter_build()).
 */
int kp_trigger_parse(const char *line, const struct kp_filter_fields *ff,
		     struct kp_trigger *out, struct kp_trigger_error *err);

/* The trigger @t of a probe of fields @ff as `cat trigger` lists it, newline included. */
int kp_trigger_line(char *buf, size_t len, const struct kp_trigger_info *t,
		    const struct kp_filter_fields *ff);

/*
 * Whether the module refused @t, a named hist, as unlike the hist of that
 * name; if so @err is error_log's entry for @spec, the caret under name=.
 */
bool kp_trigger_named_mismatch(const char *spec, const struct kp_trigger *t,
			       const struct kp_err *e, struct kp_trigger_error *err);

#endif
