/* SPDX-License-Identifier: GPL-2.0 */
/* Opening a checked connection to the module, for every command. */
#ifndef KPMOD_SESSION_H
#define KPMOD_SESSION_H

#include <stdbool.h>

#include "nl.h"

struct kp_status {
	char module_version[KPMOD_STR_MAX];
	char arch[KPMOD_STR_MAX];
	char release[KPMOD_STR_MAX];
	uint32_t uapi;
	uint32_t cpus;		/* ring indexes 0..cpus-1 (the kernel's nr_cpu_ids) */
	uint32_t possible, online, probes, max_probes, buf_mode;
	uint64_t buf_size, buf_limit, hist_mem, hist_limit;
	uint64_t snapshots, snapshots_skipped;	/* the snapshot trigger's */
	bool tracing_on;	/* events reach the rings (traceon/traceoff) */
};

int kp_status_get(struct kp_nl *nl, struct kp_status *st, struct kp_err *e);

/* One ring's counters, as STATUS reports them (KPMOD_A_RINGS). */
struct kp_ring_stat {
	uint32_t cpu;
	uint64_t events, lost, overwritten, nested;
};

struct kp_ring_stats {
	unsigned int n;
	struct kp_ring_stat *rings;	/* malloc'd, by CPU */
};

int kp_ring_stats_get(struct kp_nl *nl, struct kp_ring_stats *rs, struct kp_err *e);
void kp_ring_stats_free(struct kp_ring_stats *rs);

/*
 * Connects, fetches the status and refuses a module of another uapi
 * version.  On failure prints the one-line error for @cmd and returns the
 * exit code; on success the caller owns @nl (kp_nl_close()).
 */
int kp_session_open(const char *cmd, struct kp_nl *nl, struct kp_status *st);

/* Prints e for cmd and returns its exit code. */
int kp_fail(const char *cmd, const struct kp_err *e);

#endif
