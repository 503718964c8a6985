// SPDX-License-Identifier: GPL-2.0
/*
 * The hit path: what a probe's handler does when it fires.  Handlers take
 * no lock, allocate nothing and do bounded work: they build the record in
 * this CPU's scratch buffer and copy it into this CPU's ring.  The
 * registry (registry.c) points the kernel's kprobes, kretprobes and
 * uprobes at them.
 */
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "hit.h"
#include "kpmod.h"
#include "probe.h"
#include "ring.h"
#include "snapshot.h"
#include "stack.h"
#include "trigger.h"

/* The header but its time, which only a record that is kept needs. */
static void kpmod_fill_header_untimed(struct kpmod_record *rec, struct kpmod_probe *p,
				      unsigned long ip, unsigned long ret_ip, u16 flags)
{
	rec->type = KPMOD_REC_EVENT;
	rec->flags = flags;
	rec->probe_id = p->id;
	rec->cpu = smp_processor_id();
	rec->pid = current->pid;
	rec->tgid = current->tgid;
	rec->ts_ns = 0;
	rec->ip = ip;
	rec->ret_ip = ret_ip;
	memcpy(rec->comm, current->comm, sizeof(rec->comm));
}

static __always_inline void kpmod_fill_header(struct kpmod_record *rec,
					      struct kpmod_probe *p, unsigned long ip,
					      unsigned long ret_ip, u16 flags)
{
	kpmod_fill_header_untimed(rec, p, ip, ret_ip, flags);
	rec->ts_ns = ktime_get_mono_fast_ns();
}

/*
 * Zeroes @n words: the fault bitmap and the slots, a few words.  Not
 * memset(): its call and a string instruction cost more than these stores
 * (the barrier keeps the compiler from making the loop a memset() again).
 */
static __always_inline void kpmod_zero_words(u64 *w, u32 n)
{
	/* The slots follow the header: 8-aligned wherever a record starts. */
	BUILD_BUG_ON(sizeof(struct kpmod_record) % 8);
	while (n--) {
		*w++ = 0;
		barrier();
	}
}

/* Fetches every argument into @rec (@room bytes); returns its length. */
static u32 kpmod_fill_args(struct kpmod_record *rec, u32 room, struct kpmod_probe *p,
			   struct pt_regs *regs, const unsigned long *entry)
{
	/* Every field is set below: not zeroed first on each hit. */
	struct kpmod_fetch_ctx ctx __uninitialized;
	u32 i, len;

	/* No argument: the header alone (8-aligned, as every record). */
	if (!p->layout.nargs)
		return sizeof(*rec);

	ctx.regs = regs;
	ctx.user = kpmod_probe_is_uprobe(p);
	/* A uprobe's ip is its own address (a uretprobe's: its function's). */
	ctx.file_base = rec->ip - p->offset;
	ctx.entry = entry;
	ctx.rec = (u8 *)rec;
	ctx.faults = ctx.rec + sizeof(*rec);
	ctx.slots = ctx.faults + p->layout.bitmap_size;
	ctx.dyn = ctx.slots + p->fixed_size;
	ctx.end = ctx.rec + room;
	kpmod_zero_words((u64 *)ctx.faults, (p->layout.bitmap_size + p->fixed_size) / 8);
	for (i = 0; i < p->layout.nargs; i++) {
		const struct kpmod_arg *a = &p->layout.args[i];

		/* The commonest first, tested alone: a register costs one test. */
		if (likely(a->path == KPMOD_FETCH_REG))
			kpmod_fetch_reg(a, &ctx);
		else if (a->path == KPMOD_FETCH_MEM)
			kpmod_fetch_mem(a, i, &ctx);
		else if (a->path == KPMOD_FETCH_STR)
			kpmod_fetch_str(a, i, &ctx);
		else
			kpmod_fetch_run(a, i, &ctx);
	}
	/* Strings end anywhere: zero up to the next 8 bytes. */
	for (len = ctx.dyn - ctx.rec; len & 7; len++) {
		ctx.rec[len] = 0;
		barrier();
	}
	return len;
}

/*
 * A record is built in place in the ring when its longest possible form
 * fits there without a pad or a drop (always, for a probe without
 * strings: its length is fixed; in overwrite mode, evicting for it).
 * Otherwise it is built in this CPU's scratch buffer, so the strings are
 * read once, and copied in whole through the exact path that pads, drops
 * or evicts and counts.
 */
/* Whether @p's events go to the rings, its triggers aside. */
static bool kpmod_probe_recording(const struct kpmod_probe *p)
{
	return (READ_ONCE(p->enabled) || READ_ONCE(p->soft_refs)) &&
	       !READ_ONCE(p->soft_disabled) && kpmod_tracing_is_on();
}

/*
 * A hit nested in another handler on this CPU (an interrupt's): the ring
 * is in use, the event is lost, and counted so as any other drop is.
 */
static void kpmod_count_nested(struct kpmod_probe *p)
{
	this_cpu_inc(p->stats->hits);
	this_cpu_inc(p->stats->dropped);
}

/*
 * Puts a record built in the scratch buffer, untimed, through the filter,
 * then in, timed: the clock is read only for an event that is kept.
 */
static void kpmod_emit_built(struct kpmod_probe *p, struct kpmod_ring *ring,
			     struct kpmod_record *rec)
{
	const struct kpmod_filter *filter = rcu_dereference_sched(p->filter);

	this_cpu_inc(p->stats->hits);
	/*
	 * Judged before it takes ring space: an event the filter refuses
	 * evicts nothing and is not "lost".
	 */
	if (filter && !kpmod_filter_match(filter, &p->layout, rec)) {
		this_cpu_inc(p->stats->filtered);
		return;
	}
	rec->ts_ns = ktime_get_mono_fast_ns();
	if (!kpmod_ring_write(ring, rec, rec->len))
		this_cpu_inc(p->stats->dropped);
}

/* A stacktrace trigger's frames, taken before their record's length is known. */
static DEFINE_PER_CPU(u64 [KPMOD_STACK_MAX_FRAMES], kpmod_stack_frames);

/*
 * A stacktrace trigger's record, after the event's: its header (the time
 * too, so that readers merging CPUs keep the two together), then the
 * stack, built in place.  A full ring drops it and counts it lost.
 */
static void kpmod_emit_stack(struct kpmod_probe *p, struct kpmod_ring *ring,
			     const struct kpmod_record *rec)
{
	u64 *frames = this_cpu_ptr(kpmod_stack_frames);
	struct kpmod_stack_rec *s;
	unsigned int nr;
	u32 len;

	nr = kpmod_stack_save(frames, KPMOD_STACK_MAX_FRAMES, (unsigned long)p->rp.kp.addr);
	len = sizeof(*s) + nr * sizeof(u64);
	s = kpmod_ring_reserve(ring, len);
	if (!s)
		return;
	s->hdr = *rec;
	s->hdr.len = len;
	s->hdr.type = KPMOD_REC_STACK;
	s->hdr.ip = 0;
	s->hdr.ret_ip = 0;
	s->nr = nr;
	s->__reserved = 0;
	memcpy(s->frames, frames, nr * sizeof(u64));
	kpmod_ring_commit(ring, len);
}

/*
 * Whether the current task's process descends from process @tgid (whose
 * own threads do not): real_parent is RCU-protected, and a handler runs
 * with preemption off, an RCU-sched read side.  The walk stops at the
 * idle task (its own parent) or after KPMOD_PID_TREE_DEPTH processes.
 */
static bool kpmod_current_descends(pid_t tgid)
{
	struct task_struct *t = current, *parent;
	unsigned int depth;

	for (depth = 0; depth < KPMOD_PID_TREE_DEPTH; depth++) {
		parent = rcu_dereference_sched(t->real_parent);
		if (parent == t)
			return false;
		if (parent->tgid == tgid)
			return true;
		t = parent;
	}
	return false;
}

static void kpmod_emit(struct kpmod_probe *p, struct pt_regs *regs,
		       const unsigned long *entry, unsigned long ip,
		       unsigned long ret_ip, u16 flags)
{
	u32 pid_tree = READ_ONCE(p->pid_tree);
	struct kpmod_record *rec;
	struct kpmod_ring *ring;
	u32 len, after;

	/* Another process than a one-shot run's: as if not probed. */
	if (unlikely(pid_tree) && !kpmod_current_descends(pid_tree))
		return;
	if (READ_ONCE(p->ntriggers)) {
		/* Triggers see every hit; the event is recorded after them, or not. */
		ring = kpmod_ring_enter();
		if (!ring) {
			if (kpmod_probe_recording(p))
				kpmod_count_nested(p);
			return;
		}
		rec = (struct kpmod_record *)ring->scratch;
		kpmod_fill_header_untimed(rec, p, ip, ret_ip, flags);
		rec->len = kpmod_fill_args(rec, p->max_len, p, regs, entry);
		after = kpmod_triggers_run(p, rec);
		/* No trigger reads the time: a hist alone takes no clock, as the kernel's. */
		if (kpmod_probe_recording(p))
			kpmod_emit_built(p, ring, rec);
		if ((after & KPMOD_AFTER_STACK) && kpmod_tracing_is_on()) {
			/* The event's time, or the stack's own if it was not kept. */
			if (!rec->ts_ns)
				rec->ts_ns = ktime_get_mono_fast_ns();
			kpmod_emit_stack(p, ring, rec);
		}
		if (after & KPMOD_AFTER_SNAPSHOT)
			kpmod_snapshot_take();
		kpmod_ring_leave(ring);
		return;
	}
	/* A kretprobe can still return into a disabled probe: record nothing. */
	if (unlikely(!kpmod_probe_recording(p)))
		return;
	if (rcu_access_pointer(p->filter)) {
		ring = kpmod_ring_enter();
		if (!ring) {
			kpmod_count_nested(p);
			return;
		}
		rec = (struct kpmod_record *)ring->scratch;
		kpmod_fill_header_untimed(rec, p, ip, ret_ip, flags);
		rec->len = kpmod_fill_args(rec, p->max_len, p, regs, entry);
		kpmod_emit_built(p, ring, rec);
		kpmod_ring_leave(ring);
		return;
	}
	ring = kpmod_ring_enter();
	if (!ring) {
		kpmod_count_nested(p);
		return;
	}
	this_cpu_inc(p->stats->hits);
	if (!p->has_strings) {
		len = sizeof(*rec) + p->layout.bitmap_size + p->fixed_size;
		rec = kpmod_ring_reserve(ring, len);
		if (rec) {
			kpmod_fill_header(rec, p, ip, ret_ip, flags);
			rec->len = kpmod_fill_args(rec, len, p, regs, entry);
			kpmod_ring_commit(ring, len);
		}
	} else {
		rec = kpmod_ring_try_reserve(ring, p->max_len);
		if (rec) {
			kpmod_fill_header(rec, p, ip, ret_ip, flags);
			rec->len = kpmod_fill_args(rec, p->max_len, p, regs, entry);
			kpmod_ring_commit(ring, rec->len);
		} else {
			rec = (struct kpmod_record *)ring->scratch;
			kpmod_fill_header(rec, p, ip, ret_ip, flags);
			rec->len = kpmod_fill_args(rec, p->max_len, p, regs, entry);
			if (!kpmod_ring_write(ring, rec, rec->len))
				rec = NULL;
		}
	}
	if (!rec)
		this_cpu_inc(p->stats->dropped);
	kpmod_ring_leave(ring);
}

static int kpmod_kprobe_handler(struct kprobe *kp, struct pt_regs *regs)
{
	struct kpmod_probe *p = container_of(kp, struct kpmod_probe, rp.kp);

	kpmod_emit(p, regs, NULL, (unsigned long)kp->addr, 0, 0);
	return 0;
}

NOKPROBE_SYMBOL(kpmod_kprobe_handler);

void kpmod_hit_entry(struct kpmod_probe *p, struct pt_regs *regs)
{
	kpmod_emit(p, regs, NULL, (unsigned long)p->rp.kp.addr, 0, 0);
}

NOKPROBE_SYMBOL(kpmod_hit_entry);

/*
 * Returns 1, so the kernel gives the instance back and does not hook the
 * return, for a process outside a one-shot run's tree: those must not use
 * up maxactive instances that the run's own calls need.
 */
static int kpmod_kretprobe_entry(struct kretprobe_instance *ri,
				 struct pt_regs *regs)
{
	struct kpmod_probe *p = container_of(kpmod_kretprobe_of(ri),
					     struct kpmod_probe, rp);
	unsigned long *entry = (unsigned long *)ri->data;
	u32 pid_tree = READ_ONCE(p->pid_tree);
	u32 i;

	if (unlikely(pid_tree) && !kpmod_current_descends(pid_tree))
		return 1;
	for (i = 0; i < p->nentry; i++)
		entry[i] = kpmod_arch_arg(regs, p->entry_arg[i]);
	/* Last: $duration counts from as close to the call as this gets. */
	if (p->has_duration)
		entry[p->nentry] = ktime_get_mono_fast_ns();
	return 0;
}

NOKPROBE_SYMBOL(kpmod_kretprobe_entry);

static int kpmod_kretprobe_handler(struct kretprobe_instance *ri,
				   struct pt_regs *regs)
{
	struct kpmod_probe *p = container_of(kpmod_kretprobe_of(ri),
					     struct kpmod_probe, rp);

	kpmod_emit(p, regs, p->nentry || p->has_duration ? (unsigned long *)ri->data : NULL,
		   (unsigned long)p->rp.kp.addr, kpmod_kretprobe_retaddr(ri),
		   KPMOD_RECF_RETURN);
	return 0;
}

NOKPROBE_SYMBOL(kpmod_kretprobe_handler);

/*
 * uprobe handlers run in the task hit, preemptible (they may sleep); the
 * rings are per CPU and handlers read them with preemption off, as
 * kprobe handlers run.  User memory is read as it is everywhere else, by
 * *_nofault copies: a page not present reads as a fault, where
 * uprobe_events, whose reads may sleep, would fault it in.
 */
static int kpmod_uprobe_handler(KPMOD_UPROBE_HANDLER_PARAMS(uc, regs))
{
	struct kpmod_probe *p = container_of(uc, struct kpmod_probe, up.uc);

	preempt_disable_notrace();
	kpmod_emit(p, regs, NULL, instruction_pointer(regs), 0, 0);
	preempt_enable_notrace();
	return 0;
}

static int kpmod_uretprobe_handler(KPMOD_URETPROBE_HANDLER_PARAMS(uc, func, regs))
{
	struct kpmod_probe *p = container_of(uc, struct kpmod_probe, up.uc);

	preempt_disable_notrace();
	kpmod_emit(p, regs, NULL, func, instruction_pointer(regs), KPMOD_RECF_RETURN);
	preempt_enable_notrace();
	return 0;
}

void kpmod_hit_handlers(struct kpmod_probe *p)
{
	switch (p->kind) {
	case KPMOD_PROBE_RETURN:
		p->rp.handler = kpmod_kretprobe_handler;
		/* Always: it keeps a run's tree's instances (see there). */
		p->rp.entry_handler = kpmod_kretprobe_entry;
		break;
	case KPMOD_PROBE_URETPROBE:
		p->up.uc.ret_handler = kpmod_uretprobe_handler;
		break;
	case KPMOD_PROBE_UPROBE:
		p->up.uc.handler = kpmod_uprobe_handler;
		break;
	default:
		p->rp.kp.pre_handler = kpmod_kprobe_handler;
		break;
	}
}
