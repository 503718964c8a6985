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

#include "filter_probe.h"
#include "probe_nl.h"

#define KP_TRIGGER_TEXT_MAX 1024

/* How a hist field prints (get_hist_field_flags()'s names). */
enum kp_hist_show {
	KP_HIST_SHOW_PLAIN,
	KP_HIST_SHOW_HEX,
	KP_HIST_SHOW_SYM,
	KP_HIST_SHOW_SYM_OFFSET,
	KP_HIST_SHOW_EXECNAME,
	KP_HIST_SHOW_LOG2,
	KP_HIST_SHOW_BUCKETS,
	KP_HIST_SHOW_USECS,
	KP_HIST_SHOW_PERCENT,
	KP_HIST_SHOW_GRAPH,
	KP_HIST_SHOW_MAX,	/* kpmod's */
	KP_HIST_SHOW_MIN,	/* kpmod's */
	KP_HIST_SHOW_AVG,	/* kpmod's: the sum over hitcount */
};

struct kp_hist_key_def {
	char name[KPMOD_MAX_ARG_NAME_LEN + 16];	/* as hist_field_name() gives it */
	struct kpmod_hist_field mod;		/* what the module is sent */
	enum kp_hist_show show;
	bool is_string, is_stack, is_signed;
	bool is_cpu;				/* printed as common_cpu in the trigger */
	unsigned int off;			/* in the entry's key */
};

struct kp_hist_sort {
	int field;		/* 0: hitcount; 1..nvals: a value; -1..-nkeys: a key */
	bool descending;
};

struct kp_hist_spec {
	unsigned int nkeys, nvals, nsort;
	struct kp_hist_key_def keys[KPMOD_HIST_MAX_KEYS];
	struct kp_hist_key_def vals[KPMOD_HIST_MAX_VALS];
	struct kp_hist_sort sort[2];
	uint32_t size;
	uint32_t key_size;
	uint32_t action;	/* enum kpmod_hist_action */
	char name[KPMOD_HIST_NAME_MAX];	/* name=, "" for none */
};

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

/* A refusal: the kernel's message, and where (error_log's caret), if it has one. */
struct kp_trigger_error {
	char msg[160];
	char cmd[KP_TRIGGER_TEXT_MAX];	/* error_log's "Command:"; "" for none */
	int pos;
};

/*
 * The name a stacktrace key is shown by: "common_stacktrace" on kernels
 * from 6.4 (which renamed it; 6.1 shows "stacktrace"), taken from the
 * running kernel's version (kver.h).  Every spelling is accepted as input.
 */
const char *kp_hist_stack_name(void);

/*
 * Parses @line for a probe of fields @ff.  Returns 0, or -EINVAL with
 * @err filled.  The filter is only split off here (see kp_filter_build()).
 */
int kp_trigger_parse(const char *line, const struct kp_filter_fields *ff,
		     struct kp_trigger *out, struct kp_trigger_error *err);

/*
 * Parses the text of an existing hist (as stored in the module) back into
 * its spec, to print its table.  Returns 0 or -EINVAL.
 */
int kp_hist_spec_of(const char *text, const struct kp_filter_fields *ff,
		    struct kp_hist_spec *out);

/* The trigger @t of a probe of fields @ff as `cat trigger` lists it, newline included. */
int kp_trigger_line(char *buf, size_t len, const struct kp_trigger_info *t,
		    const struct kp_filter_fields *ff);

/* What error_log shows for @err (one with a cmd), each line ending in a newline. */
/*
 * Whether the module refused @t, a named hist, as unlike the hist of that
 * name; if so @err is error_log's entry for @spec, the caret under name=.
 */
bool kp_trigger_named_mismatch(const char *spec, const struct kp_trigger *t,
			       const struct kp_err *e, struct kp_trigger_error *err);

int kp_trigger_error_format(char *buf, size_t len, const char *where,
			    const struct kp_trigger_error *err);

#endif
