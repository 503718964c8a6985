/* SPDX-License-Identifier: GPL-2.0 */
/* Adding probes from definitions: kpmod add, and the one-shot runs. */
#ifndef KPMOD_ADD_H
#define KPMOD_ADD_H

#include <stdbool.h>
#include <stdint.h>

#include "probe_def.h"
#include "session.h"

/* How the probes of one request are added. */
struct kp_add_how {
	bool enable;		/* enabled at once */
	bool one_shot;		/* for one run: the module records the caller */
	uint32_t pid_tree;	/* 0, or record only this process' descendants */
	const char *filter;	/* every probe's filter from its first hit, or NULL */
};

struct kp_event_name {
	char group[KPMOD_MAX_NAME_LEN];
	char event[KPMOD_MAX_NAME_LEN];
};

/*
 * Parses @n definitions (additions only) for the module @st describes and
 * adds them, all or none; the names they got in @names (room for @n),
 * *@nnames of them (blank and comment-only texts add nothing).  Errors
 * are said on stderr; returns 0 or the exit code.
 */
int kp_add_defs(struct kp_nl *nl, const struct kp_status *st, char *const *texts,
		unsigned int n, const struct kp_add_how *how, struct kp_event_name *names,
		unsigned int *nnames);

/*
 * Definitions parsed one at a time for the running module's arch, symbols
 * checked against kallsyms (read once, on the first lookup); an error is
 * reported with "FILE:LINE:" (@src, or none) and the caret.
 */
struct kp_def_parser;
struct kp_def_parser *kp_def_parser_new(const struct kp_arch *arch);
/* 0, or the exit code of the error reported. */
int kp_def_parser_parse(struct kp_def_parser *dp, const char *text, const char *src,
			unsigned int line, enum kp_def_op *op, struct kp_probe_def *def);
void kp_def_parser_free(struct kp_def_parser *dp);

#endif
