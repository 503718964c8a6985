/* SPDX-License-Identifier: GPL-2.0 */
/* A live session: the probes' layouts, the symbols and every CPU's ring. */
#ifndef KPMOD_LIVE_H
#define KPMOD_LIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "format.h"
#include "ksyms.h"
#include "recfile.h"
#include "recsyms.h"
#include "ring.h"
#include "session.h"

struct kp_live {
	const char *cmd;
	struct kp_nl nl;
	struct kp_status st;
	struct kp_probe_desc *probes;
	size_t nprobes;
	unsigned int nenabled;		/* of the probes, when listed */
	struct kp_recsyms names;	/* the addresses the records read hold */
	struct kp_ksyms ks;		/* their symbols: kp_live_ksyms() */
	struct kp_ring *rings;		/* one per CPU that has a ring */
	unsigned int nrings;
	struct kp_ring_counts *at_attach; /* per ring: counters when attached */
	uint64_t *lost_seen;		/* per ring: lost count last reported */
};

typedef int (*kp_ring_open_fn)(struct kp_ring *r, const char *dev, unsigned int cpu);

/*
 * Attaches lv->rings to the ring of every CPU index below lv->st.cpus (the
 * kernel's nr_cpu_ids), skipping indexes without one (ENXIO: possible CPUs
 * need not be contiguous).  Returns 0 or an exit code, with the error said.
 */
int kp_live_attach(struct kp_live *lv, kp_ring_open_fn open_ring);

/*
 * Connects, lists the probes and maps every ring; with @symbolize, the
 * kernel addresses of the records given to kp_live_note() are named.
 */
int kp_live_open(struct kp_live *lv, const char *cmd, bool symbolize);
/* The same with another kind of ring: kp_ring_open_snapshot, say. */
int kp_live_open_rings(struct kp_live *lv, const char *cmd, bool symbolize,
		       kp_ring_open_fn open_ring);
/* Keeps the kernel addresses of @rec (a copy, whole and checked) to be named. */
void kp_live_note(struct kp_live *lv, const struct kpmod_record *rec);
/*
 * The symbols of every record noted so far: the module names those not
 * named before (SYM_RESOLVE), not kallsyms, which the kernel would
 * format whole.  NULL without @symbolize, where kallsyms shows no
 * address (kptr_restrict), or while nothing is named (the module refused:
 * it requires CAP_SYSLOG; out of memory): addresses then print as hex.
 */
const struct kp_ksyms *kp_live_ksyms(struct kp_live *lv);
void kp_live_close(struct kp_live *lv);
/* Consumes what the rings hold from before @t0 (kp_now_ns()): a run's reader starts there. */
void kp_live_discard_before(struct kp_live *lv, uint64_t t0);
/* Fills the record file's INFO block from the session. */
void kp_live_info(const struct kp_live *lv, struct kp_recinfo *info);
/* "N events, lost L (cpu0 a, cpu1 b), nested K" on stderr. */
void kp_live_summary(const struct kp_live *lv, uint64_t events);

/* The whole of a file (e.g. /proc/kallsyms), malloc'd; NULL on error. */
char *kp_read_file(const char *path, size_t *len);

/* Set by SIGINT/SIGTERM; the loops stop cleanly when they see it. */
extern volatile int kp_stop;
void kp_catch_signals(void);
uint64_t kp_now_ns(void);

#endif
