/* SPDX-License-Identifier: GPL-2.0 */
/* Adding probes from definitions: kpmod add, and the one-shot runs. */
#ifndef KPMOD_ADD_H
#define KPMOD_ADD_H

#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>

#include "filter_probe.h"
#include "probe_def.h"
#include "session.h"

/* How the probes of one request are added. */
struct kp_add_how {
	bool enable;		/* enabled at once */
	bool one_shot;		/* for one run: the module records the caller */
	uint32_t pid_tree;	/* 0, or record only this process' descendants */
	const char *filter;	/* every probe's filter from its first hit, or NULL */
};

/* One definition as given, and once parsed. */
struct kp_def_item {
	char *text;
	const char *src;	/* the file it came from, or NULL */
	unsigned int line;	/* its line there */
	enum kp_def_op op;
	struct kp_probe_def def;
};

struct kp_defs {
	struct kp_def_item *items;
	unsigned int n;
};

/* Appends @line (a comment or blank adds nothing); 0 or -ENOMEM. */
int kp_defs_push(struct kp_defs *d, const char *line, const char *src, unsigned int lineno);
void kp_defs_free(struct kp_defs *d);

struct kp_event_name {
	char group[KPMOD_MAX_NAME_LEN];
	char event[KPMOD_MAX_NAME_LEN];
};

struct kp_def_parser;

/*
 * Parses @n definitions (additions only) with @dp (kp_def_parser_for_module())
 * and adds them, all or none; the names they got in @names (room for @n),
 * *@nnames of them (blank and comment-only texts add nothing).  Errors
 * are said on stderr; returns 0 or the exit code.
 */
int kp_add_defs(struct kp_nl *nl, struct kp_def_parser *dp, char *const *texts,
		unsigned int n, const struct kp_add_how *how, struct kp_event_name *names,
		unsigned int *nnames);

/*
 * Definitions parsed one at a time for the running module's arch, symbols
 * checked against kallsyms (read once, on the first lookup); an error is
 * reported with "FILE:LINE:" (@src, or none) and the caret.
 */
struct kp_def_parser;
/* What the symbols a definition names are checked against. */
enum kp_sym_check {
	KP_SYMS_KALLSYMS,	/* kallsyms; unreadable: left to the module */
	KP_SYMS_IF_READABLE,	/* kallsyms if readable, else taken as they are */
	KP_SYMS_NONE,		/* not checked (another machine's definitions) */
	/*
	 * As KP_SYMS_KALLSYMS, but a probe point is checked against this
	 * boot's kept names (ksyms_dups.h) and its existence left to the
	 * module, kallsyms read only if it refuses, or by kp_add_apply()
	 * before anything is sent when the request deletes or enables
	 * probes on several symbols.
	 */
	KP_SYMS_DEFERRED,
};
/*
 * Names are looked up in @btf's BTF (--btf: a file, a directory as
 * /sys/kernel/btf, or "none"); NULL: this machine's (or $KPMOD_BTF),
 * none for another arch.  NULL only when out of memory.
 */
struct kp_def_parser *kp_def_parser_new(const struct kp_arch *arch, enum kp_sym_check check,
				       const char *btf);
/*
 * The parser for what the module says it runs on (@st's arch), symbols
 * checked as @check says (KP_SYMS_KALLSYMS or KP_SYMS_DEFERRED): 0 and
 * *@dp, or the exit code of the error said (as @cmd: an arch this CLI
 * does not know, out of memory).
 */
int kp_def_parser_for_module(const char *cmd, const struct kp_status *st, const char *btf,
			     enum kp_sym_check check, struct kp_def_parser **dp);
/* 0, or the exit code of the error reported. */
int kp_def_parser_parse(struct kp_def_parser *dp, const char *text, const char *src,
			unsigned int line, enum kp_def_op *op, struct kp_probe_def *def);
void kp_def_parser_free(struct kp_def_parser *dp);
/* The same without a word on stderr: 0, or -1 if @text does not parse. */
int kp_def_parser_compile(struct kp_def_parser *dp, const char *text, struct kp_probe_def *def);
const struct kp_arch *kp_def_parser_arch(const struct kp_def_parser *dp);
/* The BTF its names are looked up in. */
struct kp_btf *kp_def_parser_btf(struct kp_def_parser *dp);
/*
 * What each name from BTF in @def became, one line each:
 * "[SRC:LINE: ]GRP/EVENT: NAME=TEXT is COMPILED" (add --dry-run, apply --check).
 */
void kp_def_say_compiled(FILE *out, const char *src, unsigned int line,
			 const struct kp_probe_def *def, const struct kp_arch *arch);

/*
 * Compiles @filter for the probe @it defines; prints why not, as the
 * kernel's filter file would, and returns the exit code.
 */
int kp_add_filter(const struct kp_def_item *it, const char *filter,
		  struct kp_filter_code *code);
/*
 * Adds (and deletes) the definitions of @d, parsed by @dp, in order, all
 * or none.
 */
int kp_add_apply(struct kp_nl *nl, struct kp_def_parser *dp, struct kp_defs *d,
		 const struct kp_add_how *how);

#endif
