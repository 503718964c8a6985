// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU rings.  Each ring has exactly one producer, the probe handlers of
 * its CPU (preemption disabled), and at most one reader.  The layout and
 * the memory ordering are specified in uapi/kpmod.h.
 */
#include <linux/cpumask.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <asm/local64.h>

#include "kpmod.h"
#include "ring.h"

struct kpmod_ring **kpmod_rings __read_mostly;	/* [nr_cpu_ids], NULL if !possible */
static u64 kpmod_ring_size = KPMOD_BUF_SIZE_DEFAULT;
static u32 kpmod_ring_mode = KPMOD_BUF_DISCARD;
static u64 kpmod_ring_limit;		/* bytes of data, all rings together */

/* meta->nested is bumped by handlers that interrupt each other: see below. */
static_assert(sizeof(local64_t) == sizeof_field(struct kpmod_ring_meta, nested));

static void kpmod_ring_wakeup(struct irq_work *work)
{
	struct kpmod_ring *ring = container_of(work, struct kpmod_ring, wakeup);

	wake_up_interruptible(&ring->wq);
}

static void kpmod_ring_free(struct kpmod_ring *ring)
{
	if (!ring)
		return;
	irq_work_sync(&ring->wakeup);
	vfree(ring->area);
	kfree(ring->scratch);
	kfree(ring);
}

static struct kpmod_ring *kpmod_ring_alloc(unsigned int cpu, u64 size, u32 mode)
{
	int node = cpu_to_node(cpu);
	struct kpmod_ring *ring;

	ring = kzalloc_node(sizeof(*ring), GFP_KERNEL, node);
	if (!ring)
		return NULL;
	ring->scratch = kmalloc_node(KPMOD_MAX_RECORD, GFP_KERNEL, node);
	ring->area_size = 2 * PAGE_SIZE + size;
	ring->area = vmalloc_user(ring->area_size);
	if (!ring->scratch || !ring->area) {
		kpmod_ring_free(ring);
		return NULL;
	}
	ring->cons = ring->area;
	ring->meta = ring->area + PAGE_SIZE;
	ring->data = ring->area + 2 * PAGE_SIZE;
	ring->size = size;
	ring->mode = mode;
	ring->cpu = cpu;
	ring->watermark = size / 4;
	local_set(&ring->writing, 0);
	atomic_set(&ring->attached, 0);
	ring->snap_floor = U64_MAX;
	init_irq_work(&ring->wakeup, kpmod_ring_wakeup);
	init_waitqueue_head(&ring->wq);

	ring->meta->version = KPMOD_RING_VERSION;
	ring->meta->cpu = cpu;
	ring->meta->mode = mode;
	ring->meta->page_size = PAGE_SIZE;
	ring->meta->data_size = size;
	ring->meta->data_offset = PAGE_SIZE;
	return ring;
}

void kpmod_rings_free(struct kpmod_ring **rings)
{
	unsigned int cpu;

	if (!rings)
		return;
	for_each_possible_cpu(cpu)
		kpmod_ring_free(rings[cpu]);
	kfree(rings);
}

struct kpmod_ring **kpmod_rings_alloc(u64 size, u32 mode)
{
	struct kpmod_ring **rings;
	unsigned int cpu;

	rings = kcalloc(nr_cpu_ids, sizeof(*rings), GFP_KERNEL);
	if (!rings)
		return NULL;
	for_each_possible_cpu(cpu) {
		rings[cpu] = kpmod_ring_alloc(cpu, size, mode);
		if (!rings[cpu]) {
			kpmod_rings_free(rings);
			return NULL;
		}
	}
	return rings;
}

int kpmod_rings_init(void)
{
	/* max_buffer_mb, or a quarter of RAM. */
	kpmod_ring_limit = kpmod_max_buffer_mb ? (u64)kpmod_max_buffer_mb << 20 :
			   (u64)totalram_pages() << PAGE_SHIFT >> 2;
	/* The default too stays within it, down to the smallest ring. */
	while (kpmod_ring_size > KPMOD_BUF_SIZE_MIN &&
	       kpmod_ring_size * num_possible_cpus() > kpmod_ring_limit)
		kpmod_ring_size >>= 1;
	kpmod_rings = kpmod_rings_alloc(kpmod_ring_size, kpmod_ring_mode);
	return kpmod_rings ? 0 : -ENOMEM;
}

void kpmod_rings_exit(void)
{
	kpmod_rings_free(kpmod_rings);
	kpmod_rings = NULL;
}

bool kpmod_rings_attached(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		if (atomic_read(&kpmod_rings[cpu]->attached))
			return true;
	return false;
}

/*
 * A late kretprobe return can still enter a handler, which reads
 * kpmod_rings afresh and records nothing for a disabled probe; the grace
 * period lets any handler that read the old rings finish before the
 * caller frees them.
 */
int kpmod_rings_replace(u64 size, u32 mode, struct kpmod_ring ***old)
{
	struct kpmod_ring **rings = kpmod_rings_alloc(size, mode);

	if (!rings)
		return -ENOMEM;
	*old = kpmod_rings;
	WRITE_ONCE(kpmod_rings, rings);
	kpmod_ring_size = size;
	kpmod_ring_mode = mode;
	synchronize_rcu();
	return 0;
}

u64 kpmod_rings_size(void)
{
	return kpmod_ring_size;
}

u32 kpmod_rings_mode(void)
{
	return kpmod_ring_mode;
}

u64 kpmod_rings_limit(void)
{
	return kpmod_ring_limit;
}

struct kpmod_ring *kpmod_ring_get(unsigned int cpu)
{
	if (cpu >= nr_cpu_ids || !cpu_possible(cpu))
		return NULL;
	return kpmod_rings[cpu];
}

/* Makes room for @need bytes at head by dropping the oldest records. */
static __always_inline void kpmod_ring_make_room(struct kpmod_ring *ring, u64 need)
{
	u64 oldest = ring->oldest, dropped = 0;

	while (ring->head + need - oldest > ring->size) {
		const struct kpmod_record *old = (const void *)
			(ring->data + (oldest & (ring->size - 1)));
		u32 len = old->len;

		/* Only this producer writes data; still, never loop on garbage. */
		if (unlikely(len < sizeof(u64) || len > ring->size ||
			     (len & 7))) {
			oldest = ring->head;
			break;
		}
		if (old->type == KPMOD_REC_EVENT)
			dropped++;
		oldest += len;
	}
	ring->oldest = oldest;
	/* Readers must see the new oldest before the bytes change under them. */
	smp_store_release(&ring->meta->data_oldest, oldest);
	/* ...and the release alone does not order the data stores after it. */
	smp_wmb();
	WRITE_ONCE(ring->meta->overwritten, ring->meta->overwritten + dropped);
}

/*
 * Where a pending snapshot's bytes start on this ring, set by the first to
 * ask after the trigger: this CPU's producer, on seeing the hold, or the
 * snapshot's freeze, run on this CPU (snapshot.c); never while a record is
 * half-made here.  From what the ring holds intact then: overwrite, the
 * oldest record; discard, the reader's tail, bounded as the producer
 * bounds it.  Both askers run on this CPU, so no atomic is needed.
 */
u64 kpmod_ring_snap_floor(struct kpmod_ring *ring)
{
	u64 floor = READ_ONCE(ring->snap_floor), head = ring->head;

	if (floor != U64_MAX)
		return floor;
	if (ring->mode == KPMOD_BUF_OVERWRITE) {
		floor = ring->oldest;
	} else {
		/* As in kpmod_ring_reserve(): the reader is done with [.., tail). */
		floor = smp_load_acquire(&ring->cons->data_tail);
		if (floor > head || head - floor > ring->size)
			floor = head;
	}
	WRITE_ONCE(ring->snap_floor, floor);
	return floor;
}

/* While a snapshot is pending: whether @need bytes at @head spare its bytes. */
static bool kpmod_ring_snap_room(struct kpmod_ring *ring, u64 head, u64 need)
{
	return head + need - kpmod_ring_snap_floor(ring) <= ring->size;
}

/*
 * Reserves @len bytes (8-aligned) at head, after a pad record if they would
 * wrap; NULL if a discard-mode ring has no room (counted as lost).  Nothing
 * is visible to the reader until kpmod_ring_commit().
 */
void *kpmod_ring_reserve(struct kpmod_ring *ring, u32 len)
{
	u64 mask = ring->size - 1, head = ring->head, pos = head & mask;
	u64 pad = pos + len > ring->size ? ring->size - pos : 0;
	u64 need = pad + len, tail = 0;

	if (ring->mode == KPMOD_BUF_DISCARD) {
		/* The reader's tail is a hint: bound it, never trust it. */
		tail = smp_load_acquire(&ring->cons->data_tail);

		if (tail > head || head - tail > ring->size ||
		    ring->size - (head - tail) < need ||
		    (unlikely(READ_ONCE(ring->snap_hold)) &&
		     !kpmod_ring_snap_room(ring, head, need))) {
			WRITE_ONCE(ring->meta->lost, ring->meta->lost + 1);
			return NULL;
		}
	} else if (unlikely(READ_ONCE(ring->snap_hold))) {
		/* A snapshot's bytes are not evicted: drop, as in discard mode. */
		if (!kpmod_ring_snap_room(ring, head, need)) {
			WRITE_ONCE(ring->meta->lost, ring->meta->lost + 1);
			return NULL;
		}
		tail = READ_ONCE(ring->cons->data_tail);
	} else {
		/* Only for the wakeup: overwrite mode never waits for readers. */
		tail = READ_ONCE(ring->cons->data_tail);
		kpmod_ring_make_room(ring, need);
	}

	if (pad) {
		struct kpmod_record *p = (void *)(ring->data + pos);

		p->len = pad;
		p->type = KPMOD_REC_PAD;
		p->flags = 0;
		head += pad;
	}
	ring->res_head = head;
	ring->res_tail = tail;
	return ring->data + (head & mask);
}

/*
 * Reserves @max bytes in place only if they fit with no pad and no drop
 * (in overwrite mode, evicting what they need); NULL otherwise, and
 * nothing is counted (the caller then takes the exact path).  The record
 * committed may be shorter.
 */
void *kpmod_ring_try_reserve(struct kpmod_ring *ring, u32 max)
{
	u64 head = ring->head, pos = head & (ring->size - 1), tail = 0;

	if (pos + max > ring->size || READ_ONCE(ring->snap_hold))
		return NULL;
	if (ring->mode == KPMOD_BUF_DISCARD) {
		/* As in kpmod_ring_reserve(): the reader is done with [.., tail). */
		tail = smp_load_acquire(&ring->cons->data_tail);
		if (tail > head || head - tail > ring->size ||
		    ring->size - (head - tail) < max)
			return NULL;
	} else {
		/*
		 * Room for the longest form, evicting as a reservation of
		 * @max would: up to @max - len bytes of the oldest records
		 * go sooner than the record's own length needs (the kernel's
		 * ring buffer evicts a whole page at a time), and a full
		 * ring is not built in the scratch buffer and copied every
		 * time.
		 */
		tail = READ_ONCE(ring->cons->data_tail);
		kpmod_ring_make_room(ring, max);
	}
	ring->res_head = head;
	ring->res_tail = tail;
	return ring->data + pos;
}

/*
 * Unread bytes at @head for a reader whose tail is @tail, bounded as the
 * producer bounds every tail: a tail ahead of the head counts as a full
 * ring, so that poll reports it and the reader finds out.
 */
static u64 kpmod_ring_unread(const struct kpmod_ring *ring, u64 head, u64 tail)
{
	if (tail > head)
		return ring->size;
	return min(head - tail, ring->size);
}

/*
 * Publishes the record reserved by kpmod_ring_reserve() or _try_reserve(),
 * @len bytes at res_head (after the pad, if one was written).
 */
void kpmod_ring_commit(struct kpmod_ring *ring, u32 len)
{
	u64 before = ring->head, head = ring->res_head + len, tail;

	ring->head = head;
	WRITE_ONCE(ring->meta->events, ring->meta->events + 1);
	/* Pairs with the reader's acquire of data_head: the record is whole. */
	smp_store_release(&ring->meta->data_head, head);

	/*
	 * Wake pollers when this record, pad included, takes the unread
	 * bytes across the watermark, in both modes.  The reader's tail only
	 * moves forward, so below the mark with the tail seen at reservation
	 * means below it now.
	 */
	if (kpmod_ring_unread(ring, head, ring->res_tail) < ring->watermark ||
	    !atomic_read(&ring->attached))
		return;
	/*
	 * Pairs with the barrier in kpmod_dev_poll(): either this sees the
	 * tail a sleeping reader published, or that reader saw this head.
	 */
	smp_mb();
	tail = READ_ONCE(ring->cons->data_tail);
	if (kpmod_ring_unread(ring, before, tail) < ring->watermark &&
	    kpmod_ring_unread(ring, head, tail) >= ring->watermark)
		irq_work_queue(&ring->wakeup);
}

bool kpmod_ring_write(struct kpmod_ring *ring, const void *rec, u32 len)
{
	void *dst = kpmod_ring_reserve(ring, len);

	if (!dst)
		return false;
	memcpy(dst, rec, len);
	kpmod_ring_commit(ring, len);
	return true;
}

bool kpmod_ring_readable(struct kpmod_ring *ring)
{
	u64 head = READ_ONCE(ring->meta->data_head);
	u64 tail = READ_ONCE(ring->cons->data_tail);

	return kpmod_ring_unread(ring, head, tail) >= ring->watermark;
}
