/* SPDX-License-Identifier: GPL-2.0 */
/* A hist table printed as tracefs' events/GRP/EVENT/hist prints it. */
#ifndef KPMOD_HIST_PRINT_H
#define KPMOD_HIST_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ksyms.h"
#include "probe_nl.h"
#include "trigger.h"

/*
 * One hist_trigger_show(): the header with @info (the trigger as listed,
 * newline included), the entries sorted as the spec says, the totals.
 * @ks resolves .sym, .sym-offset and stack keys (may be NULL).
 */
void kp_hist_show(FILE *out, const struct kp_hist_spec *h, const char *info,
		  const struct kp_hist_data *d, const struct kp_ksyms *ks);

/*
 * bpftrace's text output for the table: with one .log2 or .buckets=N key,
 * hist()/lhist() rows (every bucket from the lowest to the highest, bars
 * scaled to 52 columns); otherwise a map, "@[key, ...]: hitcount",
 * ascending.  A .log2 row is the kernel's bucket (2^(k-1), 2^k].
 */
void kp_hist_graph(FILE *out, const struct kp_hist_spec *h, const struct kp_hist_data *d,
		   const struct kp_ksyms *ks);

/*
 * One JSON object for the table, on one line: "event", "trigger", "hits",
 * "dropped" and "entries", each {"keys":{…},"hitcount":N,"vals":{…}} in
 * the spec's order.  A key is a number, a string, an array of frames (a
 * stack), or an object: {"pid","comm"} (.execname), {"addr","sym"} (.sym,
 * .sym-offset), {"log2","from","to"} (.log2), {"from","to"} (.buckets).
 */
void kp_hist_json(FILE *out, const char *event, const struct kp_hist_spec *h, const char *info,
		  const struct kp_hist_data *d, const struct kp_ksyms *ks);

/*
 * The table in Prometheus' text format: kpmod_hist_hitcount and (one per
 * value of vals=) kpmod_hist_value, labelled group, event, hist (the
 * trigger's id), value, and one label per key (its name), its value the
 * kernel's text for it (a stack folded "outer;...;inner").  One family at
 * a time, as the format wants each family's samples together: the hits,
 * or (@values) the values.  @header: print the family's HELP and TYPE
 * first, if this table has samples of it; returns whether the next table
 * still needs them.
 */
bool kp_hist_prometheus(FILE *out, const char *group, const char *event, uint32_t id,
			const struct kp_hist_spec *h, const struct kp_hist_data *d,
			const struct kp_ksyms *ks, bool values, bool header);

#endif
