/* SPDX-License-Identifier: GPL-2.0 */
/* Per-CPU rings: one single-producer ring per possible CPU, mmap'd by readers. */
#ifndef _KPMOD_RING_H
#define _KPMOD_RING_H

#include <linux/irq_work.h>
#include <linux/smp.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <asm/local.h>
#include <asm/local64.h>
#include <uapi/kpmod.h>

struct kpmod_ring {
	/* The vmalloc_user() area readers map: consumer page, meta page, data. */
	void *area;
	size_t area_size;
	struct kpmod_ring_consumer *cons;
	struct kpmod_ring_meta *meta;
	u8 *data;
	u64 size;		/* data bytes, a power of two */
	u32 mode;		/* enum kpmod_buf_mode */
	u32 cpu;
	/* Producer-private positions: never taken back from the mapping. */
	u64 head;
	u64 oldest;
	u64 res_head;		/* where the reserved record starts */
	u64 res_tail;		/* the reader's tail seen at reservation */
	u64 watermark;
	/* >0 while a handler writes on this CPU: a nested one is dropped. */
	local_t writing;
	/* A record is built here, then copied in whole: strings need no 2nd pass. */
	u8 *scratch;
	/*
	 * A live ring: 1 while a reader's file holds it.  A snapshot's copy:
	 * the files that hold it (any number read it, none consumes).
	 */
	atomic_t attached;
	bool is_snapshot;	/* a snapshot trigger's copy, not a live ring */
	/*
	 * While a snapshot trigger's copy is pending (snap_hold), the producer
	 * keeps [snap_floor, snap_mark) as it is: it drops a record rather than
	 * evict or overwrite a byte of it.  The trigger sets snap_mark and, as
	 * a hint, snap_hold from any CPU; snap_floor (U64_MAX: not set) is
	 * written on this ring's CPU only, and the hold made certain and
	 * cleared there, by the copier's IPIs (snapshot.c).
	 */
	int snap_hold;
	u64 snap_mark;
	u64 snap_floor;
	struct irq_work wakeup;
	wait_queue_head_t wq;
};

int kpmod_rings_init(void);
/* Every possible CPU's ring, for a snapshot's copies; NULL if out of memory. */
struct kpmod_ring **kpmod_rings_alloc(u64 size, u32 mode);
void kpmod_rings_free(struct kpmod_ring **rings);
/*
 * The live rings: replaced (WRITE_ONCE) only with every handler quiesced
 * (resize).  Read through kpmod_rings_live() only.
 */
extern struct kpmod_ring **kpmod_rings;

/* The live rings now (handler context, or kpmod_lock held). */
static inline struct kpmod_ring **kpmod_rings_live(void)
{
	return READ_ONCE(kpmod_rings);
}

void kpmod_rings_exit(void);
/*
 * Puts new rings of @size and @mode in force, the old ones in *@old for
 * the caller to free once nothing refers to them (a snapshot of them).
 * The caller has quiesced them: kpmod_lock held, no probe armed, no
 * reader attached.
 */
int kpmod_rings_replace(u64 size, u32 mode, struct kpmod_ring ***old);
u64 kpmod_rings_size(void);
u32 kpmod_rings_mode(void);
/* The most bytes of data all rings together may hold (max_buffer_mb). */
u64 kpmod_rings_limit(void);
struct kpmod_ring *kpmod_ring_get(unsigned int cpu);
bool kpmod_rings_attached(void);

/*
 * Handler side: claim this CPU's ring (preemption is off in a handler),
 * write one record, release.  Inline: every hit takes both.
 */
static inline struct kpmod_ring *kpmod_ring_enter(void)
{
	struct kpmod_ring *ring = kpmod_rings_live()[smp_processor_id()];

	if (unlikely(local_inc_return(&ring->writing) != 1)) {
		/*
		 * An interrupt or NMI handler nested on this CPU.  Handlers
		 * nested deeper still can bump the count meanwhile: a local
		 * (per-CPU atomic) increment loses none of them.
		 */
		local_dec(&ring->writing);
		local64_inc((local64_t *)&ring->meta->nested);
		return NULL;
	}
	return ring;
}

static inline void kpmod_ring_leave(struct kpmod_ring *ring)
{
	local_dec(&ring->writing);
}

/* Copies a finished record (len bytes, 8-aligned) in; false if dropped. */
bool kpmod_ring_write(struct kpmod_ring *ring, const void *rec, u32 len);
/* Or builds it in place: reserve (NULL: dropped), fill, commit. */
void *kpmod_ring_reserve(struct kpmod_ring *ring, u32 len);
void *kpmod_ring_try_reserve(struct kpmod_ring *ring, u32 max);
void kpmod_ring_commit(struct kpmod_ring *ring, u32 len);

/* A pending snapshot's start on @ring: on @ring's CPU only, not nested. */
u64 kpmod_ring_snap_floor(struct kpmod_ring *ring);

/* Reader side, for /dev/kpmod: at least a watermark of unread bytes. */
bool kpmod_ring_readable(struct kpmod_ring *ring);

#endif /* _KPMOD_RING_H */
