/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A hist trigger's spec and its grammar (hist_spec.c):
 *   hist:keys=K[,K...][:vals=V[,V]][:sort=S[,S]][:size=N][:name=N]
 *        [:pause|:cont|:clear] [if FILTER]
 */
#ifndef KPMOD_HIST_SPEC_H
#define KPMOD_HIST_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "filter_probe.h"
#include "grammar.h"
#include "uapi/kpmod.h"

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

/*
 * The name a stacktrace key is shown by: "common_stacktrace" on kernels
 * from 6.4 (which renamed it; 6.1 shows "stacktrace"), taken from the
 * running kernel's version (kver.h).  Every spelling is accepted as input.
 */
const char *kp_hist_stack_name(void);

/*
 * event_hist_trigger_parse() of @param (what follows "hist:"): the spec in
 * @h, its "if" filter's text in @filter_out ("" if none) and the text the
 * module keeps in @text.  0, -ENOMEM, or -EINVAL with @err filled.
 */
int kp_hist_trigger_parse(const char *param, const struct kp_filter_fields *ff,
			  struct kp_hist_spec *h, char *filter_out, size_t filter_len,
			  char *text, size_t text_len, struct kp_trigger_error *err);

/*
 * Parses the text of an existing hist (as stored in the module) back into
 * its spec, to print its table.  Returns 0 or -EINVAL.
 */
int kp_hist_spec_of(const char *text, const struct kp_filter_fields *ff,
		    struct kp_hist_spec *out);

/*
 * event_hist_trigger_print() up to the size.  @written: with cpu fields by
 * the names they were given, the text the module keeps (so that it reads
 * back into the same spec); else as `cat trigger` lists it.
 */
void kp_hist_text(char *buf, size_t len, const struct kp_hist_spec *h, bool written);

#endif
