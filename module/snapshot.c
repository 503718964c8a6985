// SPDX-License-Identifier: GPL-2.0
/*
 * The snapshot trigger: every CPU's ring as it was at the trigger's
 * moment, kept in a second set of rings for `kpmod snapshot`, while the
 * live rings go on recording.
 *
 * The kernel swaps its buffers; kpmod's live rings are mapped by readers,
 * so it copies instead, off the hot path.  The handler only marks each
 * ring's published head and asks its producer to hold the bytes before it
 * (kpmod_snapshot_take(): no lock, no allocation, one pass over the CPUs).
 * A worker, on another CPU if one is online, then runs a function on each
 * ring's own CPU by IPI (kpmod_snapshot_on()): there, between two records,
 * it fixes where the held bytes start and makes the hold certain; the IPI's
 * own ordering makes every byte written before it visible to the worker,
 * so the handlers need no barrier for it.  The worker copies the bytes and
 * releases the hold the same way.  Meanwhile the producer drops (and counts
 * as lost) what would evict or overwrite them: with a full ring, the events
 * of those microseconds are lost, where the kernel's swap loses none.  The
 * copies have the live rings' layout, so readers read them as they read an
 * overwrite-mode ring, any number at once; a new snapshot is not taken
 * while one of them is read.
 */
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/irq_work.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/workqueue.h>

#include "kpmod.h"
#include "ring.h"
#include "snapshot.h"

enum { KPMOD_SNAP_IDLE, KPMOD_SNAP_PENDING };

/* The copies: allocated by the first snapshot trigger, kept until a resize. */
static struct kpmod_ring **kpmod_snap_rings;
/* The live rings a pending snapshot marked, and the copies it goes to. */
static struct kpmod_ring **kpmod_snap_src;
static struct kpmod_ring **kpmod_snap_dst;
static atomic_t kpmod_snap_state = ATOMIC_INIT(KPMOD_SNAP_IDLE);
/* Serialises the copy with readers attaching to it. */
static DEFINE_MUTEX(kpmod_snap_lock);
static u64 kpmod_snap_taken;		/* snapshots copied; under kpmod_snap_lock */
static atomic64_t kpmod_snap_skipped;	/* triggers that found one pending or read */
/* Files holding a copy: while any does, a trigger takes no snapshot. */
static atomic_t kpmod_snap_readers = ATOMIC_INIT(0);

static void kpmod_snapshot_copy_one(struct kpmod_ring *dst, struct kpmod_ring *src)
{
	u64 mask = src->size - 1, mark = READ_ONCE(src->snap_mark);
	u64 floor = READ_ONCE(src->snap_floor), off, first;

	if (dst->size != src->size)
		return;
	/* Everything up to the mark went before the producer held it: none kept. */
	if (floor > mark || mark - floor > src->size)
		floor = mark;
	off = floor & mask;
	first = min(mark - floor, src->size - off);
	memcpy(dst->data + off, src->data + off, first);
	memcpy(dst->data, src->data, mark - floor - first);

	dst->cons->data_tail = floor;
	dst->meta->data_oldest = floor;
	dst->meta->data_head = mark;
	dst->meta->events = READ_ONCE(src->meta->events);
	dst->meta->lost = READ_ONCE(src->meta->lost);
	dst->meta->overwritten = READ_ONCE(src->meta->overwritten);
	dst->meta->nested = READ_ONCE(src->meta->nested);
}

static bool kpmod_snapshot_read_now(struct kpmod_ring **copies)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		if (atomic_read(&copies[cpu]->attached))
			return true;
	return false;
}

enum kpmod_snap_step { KPMOD_SNAP_FREEZE, KPMOD_SNAP_THAW };

struct kpmod_snap_op {
	struct kpmod_ring *ring;
	enum kpmod_snap_step step;
	bool done;
};

/*
 * On the ring's CPU, interrupts off.  It claims the ring as a handler does,
 * so it runs only between two records: a handler it interrupted is
 * mid-record (the caller tries again), and one in an NMI on top of it is
 * dropped as nested.  Later handlers here see what it wrote in program
 * order; the IPI orders it, and every record before it, for the caller.
 */
static void kpmod_snapshot_on_cpu(void *arg)
{
	struct kpmod_snap_op *op = arg;
	struct kpmod_ring *ring = op->ring;

	if (local_inc_return(&ring->writing) == 1) {
		if (op->step == KPMOD_SNAP_FREEZE) {
			kpmod_ring_snap_floor(ring);
			WRITE_ONCE(ring->snap_hold, 1);
		} else {
			WRITE_ONCE(ring->snap_hold, 0);
			WRITE_ONCE(ring->snap_floor, U64_MAX);
		}
		op->done = true;
	}
	local_dec(&ring->writing);
}

/* Runs @step on @ring's CPU, between two of its records; cpus_read_lock held. */
static void kpmod_snapshot_on(struct kpmod_ring *ring, enum kpmod_snap_step step)
{
	struct kpmod_snap_op op = { .ring = ring, .step = step };

	while (!op.done) {
		if (!cpu_online(ring->cpu)) {
			/* No handler runs there until it comes back: after this. */
			kpmod_snapshot_on_cpu(&op);
			break;
		}
		smp_call_function_single(ring->cpu, kpmod_snapshot_on_cpu, &op, 1);
		/* Handlers are short: the next try finds this one done. */
		if (!op.done)
			usleep_range(10, 50);
	}
}

static void kpmod_snapshot_copy(struct work_struct *work)
{
	struct kpmod_ring **src = kpmod_snap_src, **dst = kpmod_snap_dst;
	bool skip;
	unsigned int cpu;

	mutex_lock(&kpmod_snap_lock);
	/* A reader attached since the trigger looked. */
	skip = kpmod_snapshot_read_now(dst);
	if (skip)
		atomic64_inc(&kpmod_snap_skipped);
	cpus_read_lock();
	for_each_possible_cpu(cpu) {
		if (!skip) {
			kpmod_snapshot_on(src[cpu], KPMOD_SNAP_FREEZE);
			kpmod_snapshot_copy_one(dst[cpu], src[cpu]);
		}
		kpmod_snapshot_on(src[cpu], KPMOD_SNAP_THAW);
	}
	cpus_read_unlock();
	if (!skip)
		kpmod_snap_taken++;
	mutex_unlock(&kpmod_snap_lock);
	atomic_set_release(&kpmod_snap_state, KPMOD_SNAP_IDLE);
}

static DECLARE_WORK(kpmod_snap_work, kpmod_snapshot_copy);

/*
 * Hard-IRQ context, on the CPU that fired, on PREEMPT_RT too (a hard
 * irq_work: queue_work_on() takes only raw locks), so that the copy is not
 * held up behind real-time tasks while the rings hold bytes for it: the
 * copy goes to another CPU.
 */
static void kpmod_snapshot_kick(struct irq_work *w)
{
	unsigned int cpu = cpumask_any_but(cpu_online_mask, smp_processor_id());

	if (cpu >= nr_cpu_ids)
		cpu = smp_processor_id();
	queue_work_on(cpu, system_highpri_wq, &kpmod_snap_work);
}

static struct irq_work kpmod_snap_irq_work = IRQ_WORK_INIT_HARD(kpmod_snapshot_kick);

void kpmod_snapshot_take(void)
{
	struct kpmod_ring **rings = kpmod_rings_live();
	struct kpmod_ring **copies = READ_ONCE(kpmod_snap_rings);
	unsigned int cpu;

	/*
	 * The copies exist while a snapshot trigger does; one at a time, and
	 * none while one is read (the worker looks again).
	 */
	if (!copies || atomic_read(&kpmod_snap_readers) ||
	    atomic_cmpxchg(&kpmod_snap_state, KPMOD_SNAP_IDLE, KPMOD_SNAP_PENDING) !=
	    KPMOD_SNAP_IDLE) {
		atomic64_inc(&kpmod_snap_skipped);
		return;
	}
	for_each_possible_cpu(cpu) {
		struct kpmod_ring *r = rings[cpu];

		/* The last record its producer published: whole, as a reader sees it. */
		WRITE_ONCE(r->snap_mark, smp_load_acquire(&r->meta->data_head));
		/* A hint, to keep more; the worker's freeze makes it certain. */
		WRITE_ONCE(r->snap_hold, 1);
	}
	kpmod_snap_src = rings;
	kpmod_snap_dst = copies;
	/* NMI-safe; the worker runs in process context. */
	irq_work_queue(&kpmod_snap_irq_work);
}

NOKPROBE_SYMBOL(kpmod_snapshot_take);

int kpmod_snapshot_prepare(struct netlink_ext_ack *extack)
{
	u64 size = kpmod_rings_size(), all = size * num_possible_cpus();
	struct kpmod_ring **rings;
	unsigned int cpu;

	lockdep_assert_held(&kpmod_lock);
	if (kpmod_snap_rings)
		return 0;
	if (2 * all > kpmod_rings_limit()) {
		NL_SET_ERR_MSG(extack,
			       "a snapshot doubles the rings: that exceeds the module's limit (max_buffer_mb); make the buffer smaller");
		return -E2BIG;
	}
	rings = kpmod_rings_alloc(size, KPMOD_BUF_OVERWRITE);
	if (!rings) {
		NL_SET_ERR_MSG(extack, "out of memory for the snapshot's copy of the rings");
		return -ENOMEM;
	}
	for_each_possible_cpu(cpu)
		rings[cpu]->is_snapshot = true;
	WRITE_ONCE(kpmod_snap_rings, rings);
	return 0;
}

bool kpmod_snapshot_prepared(void)
{
	lockdep_assert_held(&kpmod_lock);
	return kpmod_snap_rings;
}

/* Whatever a handler queued has been copied, or found nothing to copy. */
static void kpmod_snapshot_flush(void)
{
	irq_work_sync(&kpmod_snap_irq_work);
	flush_work(&kpmod_snap_work);
}

bool kpmod_snapshot_attached(void)
{
	lockdep_assert_held(&kpmod_lock);
	return kpmod_snap_rings && kpmod_snapshot_read_now(kpmod_snap_rings);
}

void kpmod_snapshot_free(void)
{
	struct kpmod_ring **rings = kpmod_snap_rings;

	lockdep_assert_held(&kpmod_lock);
	if (!rings)
		return;
	/* No trigger can take one now (none is armed); a late one finds none. */
	WRITE_ONCE(kpmod_snap_rings, NULL);
	synchronize_rcu();
	kpmod_snapshot_flush();
	kpmod_rings_free(rings);
	mutex_lock(&kpmod_snap_lock);
	kpmod_snap_taken = 0;
	mutex_unlock(&kpmod_snap_lock);
}

int kpmod_snapshot_attach(unsigned int cpu, struct kpmod_ring **ring)
{
	int ret = -ENOENT;

	lockdep_assert_held(&kpmod_lock);
	if (cpu >= nr_cpu_ids || !cpu_possible(cpu))
		return -ENXIO;
	mutex_lock(&kpmod_snap_lock);
	if (kpmod_snap_rings && kpmod_snap_taken) {
		*ring = kpmod_snap_rings[cpu];
		atomic_inc(&(*ring)->attached);
		atomic_inc(&kpmod_snap_readers);
		ret = 0;
	}
	mutex_unlock(&kpmod_snap_lock);
	return ret;
}

void kpmod_snapshot_detach(struct kpmod_ring *ring)
{
	atomic_dec(&ring->attached);
	atomic_dec(&kpmod_snap_readers);
}

void kpmod_snapshot_stats(u64 *taken, u64 *skipped)
{
	mutex_lock(&kpmod_snap_lock);
	*taken = kpmod_snap_taken;
	mutex_unlock(&kpmod_snap_lock);
	*skipped = atomic64_read(&kpmod_snap_skipped);
}
