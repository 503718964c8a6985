/* SPDX-License-Identifier: GPL-2.0 */
/* Printing merged records as text or JSON: shared by trace, snapshot, report. */
#ifndef KPMOD_EMIT_H
#define KPMOD_EMIT_H

#include <stdbool.h>
#include <stdio.h>

#include "format.h"

struct kp_emit {
	FILE *out;
	bool json;
	const struct kp_probe_desc *probes;
	size_t nprobes;
	const struct kp_ksyms *ks;
	uint64_t events;
	uint64_t stacks;	/* stacktrace triggers' records, not events */
	uint64_t bad;		/* records that did not fit their probe */
};

/* Prints ftrace's "CPU:N [LOST M EVENTS]" line, or its JSON, if @lost. */
void kp_emit_lost(struct kp_emit *em, unsigned int cpu, uint64_t lost);

/* Prints the lost line (if @lost) then @rec. */
void kp_emit_record(struct kp_emit *em, const struct kpmod_record *rec,
		    unsigned int cpu, uint64_t lost);

#endif
