/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Merging per-CPU record streams into timestamp order (ties: lower CPU
 * first): a k-way merge over sources that each yield records in order.
 *
 * A source is anything with peek/next, e.g. a struct kp_ring (adapters
 * below) or a struct kp_recq filled from a record file.  Sources that are
 * empty are polled again at every kp_merge_peek(), so live rings can be
 * merged; a record arriving later on an idle CPU may then be older than
 * one already returned (the caller can wait for all rings to be drained
 * before printing a batch).
 */
#ifndef KPMOD_MERGE_H
#define KPMOD_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "uapi/kpmod.h"

struct kp_merge_src {
	/* 1 with *rec set (valid until next), 0 if empty now, < 0 error. */
	int (*peek)(void *ctx, const struct kpmod_record **rec);
	void (*next)(void *ctx);
	void *ctx;
	unsigned int cpu;	/* breaks timestamp ties */
};

struct kp_merge {
	struct kp_merge_src *src;
	size_t n;
	size_t *heap;		/* source indexes with a record, min-heap */
	size_t nheap;
	const struct kpmod_record **top;	/* per source: its peeked record */
	unsigned char *queued;	/* per source: in the heap */
};

int kp_merge_init(struct kp_merge *m, struct kp_merge_src *src, size_t n);
void kp_merge_free(struct kp_merge *m);

/*
 * The oldest record of all sources: 1 with *rec and *src (its source
 * index) set, 0 if every source is empty, or a source's negative error
 * with *src saying which (that source is polled again next time).
 */
int kp_merge_peek(struct kp_merge *m, const struct kpmod_record **rec,
		  size_t *src);

/* Consumes the record kp_merge_peek() returned. */
void kp_merge_next(struct kp_merge *m);

/*
 * A growable in-memory queue of records: pointers the caller owns
 * (kp_recq_push), or copies the queue makes into blocks of its own
 * (kp_recq_push_copy: no allocation per record; a block goes once every
 * record in it is consumed).  One queue uses one kind.
 */
struct kp_recblk;

struct kp_recq {
	const struct kpmod_record **recs;
	uint64_t *lost;		/* events lost on the CPU just before each */
	size_t n, cap, pos;
	struct kp_recblk *head, *tail;	/* the copies' blocks, oldest first */
};

int kp_recq_push(struct kp_recq *q, const struct kpmod_record *rec,
		 uint64_t lost_before);
/* A copy of @rec, valid until it is consumed (kp_recq_next). */
int kp_recq_push_copy(struct kp_recq *q, const struct kpmod_record *rec,
		      uint64_t lost_before);
/* Events lost just before the record kp_recq_peek() gives now. */
uint64_t kp_recq_lost_before(const struct kp_recq *q);
void kp_recq_free(struct kp_recq *q);
/* Drops consumed entries from the front, so a long-running queue stays small. */
void kp_recq_compact(struct kp_recq *q);

/* kp_merge_src callbacks: ctx is a struct kp_recq or a struct kp_ring. */
int kp_recq_peek(void *q, const struct kpmod_record **rec);
void kp_recq_next(void *q);
int kp_ring_src_peek(void *ring, const struct kpmod_record **rec);
void kp_ring_src_next(void *ring);

#endif
