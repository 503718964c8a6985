/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reader of one CPU's ring (see "Rings" in uapi/kpmod.h).
 *
 * kp_ring_init() works on memory mapped by anyone (the unit tests use
 * malloc'd memory and a producer thread); kp_ring_open() maps a CPU's ring
 * from /dev/kpmod and calls it.
 *
 * Iteration:
 *	while ((ret = kp_ring_peek(&r, &rec)) > 0) {
 *		use(rec);		// valid until kp_ring_next()
 *		kp_ring_next(&r);
 *	}
 *	// ret == 0: nothing more now; ret < 0: corrupt data, r.err says why
 *	// (the bad bytes were skipped; peeking again goes on after them).
 *
 * DISCARD mode reads records in place and gives the space back to the
 * kernel at each kp_ring_next().  OVERWRITE mode copies a snapshot into a
 * private buffer first (the kernel does not wait for readers), then serves
 * records from the copy; records overwritten while being copied are never
 * returned.
 */
#ifndef KPMOD_RING_H
#define KPMOD_RING_H

#include <stddef.h>
#include <stdint.h>

#include "uapi/kpmod.h"

struct kp_ring {
	const struct kpmod_ring_meta *meta;
	struct kpmod_ring_consumer *cons;
	const uint8_t *data;
	uint64_t size;		/* data_size, a power of two */
	uint64_t tail;		/* position of the next record to return */
	uint64_t head;		/* data_head as last loaded */
	uint32_t cpu;
	uint32_t mode;		/* enum kpmod_buf_mode */

	/* OVERWRITE mode: a copy of [snap_pos, snap_end), snap_pos at snap[0]. */
	uint8_t *snap;
	uint64_t snap_pos;
	uint64_t snap_end;

	/* What the reader itself saw go wrong; the kernel's counters are in meta. */
	uint64_t corrupt;	/* times bad data was skipped */
	uint64_t torn;		/* OVERWRITE: snapshots cut short by the kernel */

	/* Set by kp_ring_open() only. */
	int fd;
	void *cons_map;
	size_t cons_len;
	void *ro_map;
	size_t ro_len;

	char err[160];		/* why the last call failed */
};

/*
 * Sets @r up over mapped memory: @meta, @cons, and @data (data_size bytes).
 * Validates the meta page.  Returns 0, or -EINVAL/-ENOMEM with r->err set.
 * The reader starts at the consumer's data_tail (DISCARD) or at
 * data_oldest (OVERWRITE), bounded to the valid window.
 */
int kp_ring_init(struct kp_ring *r, const struct kpmod_ring_meta *meta,
		 struct kpmod_ring_consumer *cons, const void *data);

/*
 * The next EVENT record: 1 with *rec set, 0 if there is none now, or
 * -EBADMSG when the bytes at the read position are not a valid record
 * (r->err says where and why; the reader has moved past them).
 */
int kp_ring_peek(struct kp_ring *r, const struct kpmod_record **rec);

/* Consumes the record kp_ring_peek() returned, giving its space back. */
void kp_ring_next(struct kp_ring *r);

/*
 * Consumes it without giving the space back yet: a reader draining many
 * records calls kp_ring_release() once after them (one release store).
 */
void kp_ring_skip(struct kp_ring *r);
void kp_ring_release(struct kp_ring *r);

/* Bytes published but not yet consumed (DISCARD; OVERWRITE: at most size). */
uint64_t kp_ring_pending(const struct kp_ring *r);

/* The kernel's counters, read atomically. */
uint64_t kp_ring_lost(const struct kp_ring *r);		/* DISCARD drops */
uint64_t kp_ring_overwritten(const struct kp_ring *r);	/* OVERWRITE drops */
uint64_t kp_ring_nested(const struct kp_ring *r);
uint64_t kp_ring_events(const struct kp_ring *r);

/* A ring's loss counters at one moment, as a record file's chunk holds them. */
struct kp_ring_counts {
	uint64_t lost, overwritten, nested;
};

struct kp_ring_counts kp_ring_counts(const struct kp_ring *r);

/*
 * Opens @dev (NULL: /dev/kpmod), attaches to @cpu and maps its ring.
 * Returns 0, or -errno with r->err a one-line explanation, e.g.
 * "CPU 3's ring is already being read by another reader" for EBUSY.
 */
int kp_ring_open(struct kp_ring *r, const char *dev, unsigned int cpu);
/* The same for @cpu's copy of the snapshot trigger's last snapshot (-ENOENT: none). */
int kp_ring_open_snapshot(struct kp_ring *r, const char *dev, unsigned int cpu);

/* Frees what kp_ring_init()/kp_ring_open() set up; @r may be zeroed. */
void kp_ring_close(struct kp_ring *r);

/*
 * Tests only: called in OVERWRITE snapshots between reading the positions
 * and copying, where the kernel may overwrite what is about to be copied.
 */
extern void (*kp_ring_snapshot_hook)(struct kp_ring *r);

/*
 * Checks the record at @p with @avail bytes readable there: returns
 * KPMOD_REC_PAD or KPMOD_REC_EVENT, or -EBADMSG with @why filled in.
 */
int kp_record_check(const void *p, uint64_t avail, char *why, size_t whylen);

#endif
