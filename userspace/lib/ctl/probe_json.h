/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --json for kpmod list, stat and status: one JSON document each, in the
 * schemas doc/usage.md's "JSON output" documents.  Numbers are numbers
 * (counters and addresses as unsigned integers), names and texts strings.
 */
#ifndef KPMOD_PROBE_JSON_H
#define KPMOD_PROBE_JSON_H

#include <stdio.h>

#include "probe_nl.h"
#include "session.h"

struct kp_def_parser;
/*
 * Each argument with "compiled": its program as a FETCHARG with offsets
 * only (what a name from BTF became), from @dp's parse of the definition
 * on this machine; null where that parse fails, and none if @dp is NULL.
 */
void kp_list_json(FILE *out, const struct kp_probe_list *l, struct kp_def_parser *dp);
void kp_stat_json(FILE *out, const struct kp_probe_list *l);
/* @l: the probes, for what one-shot runs left behind (NULL: not known). */
void kp_status_json(FILE *out, const struct kp_status *st, const struct kp_probe_list *l);

#endif
