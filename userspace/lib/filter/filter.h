/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Event filters in the grammar of tracefs' events/GRP/EVENT/filter
 * (Documentation/trace/events.rst, section 5): "field OP value" joined by
 * && (binding tighter) and ||, grouped by ( ), negated by a ! prefix.
 *
 * An expression compiles, as the kernel's predicate_parse() compiles it,
 * into a flat program that only moves forward: entry i evaluates predicate
 * insn[i].pred; if the result equals insn[i].when_to_branch, evaluation
 * goes on at entry insn[i].target (always > i), else at i + 1.  The two
 * entries past the last predicate (pred == KP_FILTER_END) hold the verdict
 * in their target: 1 the event matches, 0 it does not.  No recursion, no
 * stack, at most one step per predicate: what a probe handler can afford.
 *
 * Errors are the kernel's: a message and the position it reports (the
 * caret goes under that byte; see kp_filter_error_format()).
 */
#ifndef KPMOD_FILTER_H
#define KPMOD_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the kernel refuses to parse: a filter of a page or more. */
#define KP_FILTER_TEXT_MAX 4096
/* A string operand is shorter than this (MAX_FILTER_STR_VAL). */
#define KP_FILTER_STR_MAX 256

enum kp_filter_field_type {
	KP_FILTER_FIELD_NUM,	/* a number of 1, 2, 4 or 8 bytes */
	KP_FILTER_FIELD_STRING,	/* a fetched string */
	KP_FILTER_FIELD_COMM,	/* the current task's name */
	KP_FILTER_FIELD_CPU,	/* the CPU the event happens on */
};

/* A field an expression may name; the first of a name wins. */
struct kp_filter_field {
	const char *name;	/* the probe's own: valid while its description is */
	enum kp_filter_field_type type;
	unsigned int size;	/* KP_FILTER_FIELD_NUM: bytes */
	bool is_signed;		/* numbers (and CPU): compared signed */
};

/*
 * The fields every event has, searched after its own, in the kernel's
 * order (trace_find_event_field(): generic, then common): those a kpmod
 * record carries.  common_type, common_flags and common_preempt_count are
 * not among them.  A probe's own fields go first: __probe_ip (for return
 * probes __probe_func and __probe_ret_ip), then its arguments.
 */
extern const struct kp_filter_field kp_filter_common_fields[];
extern const unsigned int kp_filter_nr_common_fields;

/* In the kernel's order: a longer operator before its prefix. */
enum kp_filter_op {
	KP_FILTER_OP_GLOB,	/* ~  */
	KP_FILTER_OP_NE,	/* != */
	KP_FILTER_OP_EQ,	/* == */
	KP_FILTER_OP_LE,	/* <= */
	KP_FILTER_OP_LT,	/* <  */
	KP_FILTER_OP_GE,	/* >= */
	KP_FILTER_OP_GT,	/* >  */
	KP_FILTER_OP_BAND,	/* &: true when field & value is non-zero */
	KP_FILTER_OP_COUNT
};

/* How a string predicate compares (filter_parse_regex()'s types). */
enum kp_filter_match {
	KP_FILTER_MATCH_FULL,	/* the whole string */
	KP_FILTER_MATCH_FRONT,	/* "abc*": a prefix */
	KP_FILTER_MATCH_MIDDLE,	/* "*abc*": anywhere */
	KP_FILTER_MATCH_END,	/* "*abc": a suffix */
	KP_FILTER_MATCH_GLOB,	/* anything else with * ? [ or \: glob */
};

struct kp_filter_pred {
	unsigned int field;		/* index in the caller's fields */
	enum kp_filter_op op;
	/*
	 * String predicates: the match is inverted (!=, or a ~ pattern
	 * that starts with '!').  Numbers use op alone.
	 */
	bool invert;
	uint64_t val;			/* numbers: the operand, two's complement */
	enum kp_filter_match match;	/* strings */
	unsigned int len;		/* strings: bytes of pattern */
	char pattern[KP_FILTER_STR_MAX];
};

#define KP_FILTER_END (-1)

struct kp_filter_insn {
	int pred;		/* index in preds, or KP_FILTER_END */
	bool when_to_branch;
	unsigned int target;	/* next entry, or the verdict at an end */
};

struct kp_filter_prog {
	unsigned int nr_preds;
	struct kp_filter_pred *preds;
	struct kp_filter_insn *insns;	/* nr_preds + 2 entries */
};

struct kp_filter_error {
	int pos;		/* as the kernel reports it */
	const char *msg;	/* the kernel's words */
};

/*
 * Compiles @expr against @fields.  Returns 0 and fills @prog (free with
 * kp_filter_prog_free()), or -EINVAL and fills @err, or -ENOMEM.
 */
int kp_filter_compile(const char *expr, const struct kp_filter_field *fields,
		      unsigned int nr_fields, struct kp_filter_prog *prog,
		      struct kp_filter_error *err);

void kp_filter_prog_free(struct kp_filter_prog *prog);

/*
 * What reading the filter file shows after a refused write: the
 * expression, a caret under the error and "parse_error: MSG", each line
 * ending in a newline.  Returns what snprintf() returns.
 */
int kp_filter_error_format(char *buf, size_t size, const char *expr,
			   const struct kp_filter_error *err);

/* The operator's text ("==", "~", ...). */
const char *kp_filter_op_text(enum kp_filter_op op);

#endif
