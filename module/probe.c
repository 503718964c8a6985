// SPDX-License-Identifier: GPL-2.0
/*
 * Probes.  A probe is registered, disabled, when it is added (so a bad
 * address is refused at once, as kprobe_events does) and enabled later.
 * Handlers take no lock, allocate nothing and do bounded work: they build
 * the record in this CPU's scratch buffer and copy it into this CPU's ring.
 */
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "kpmod.h"
#include "probe.h"
#include "ring.h"
#include "snapshot.h"
#include "stack.h"
#include "trigger.h"

LIST_HEAD(kpmod_probes);
static unsigned int kpmod_probes_count;
/*
 * Probes unlisted but not yet unregistered (kpmod_probes_release()): still
 * the kernel's, so still counted against max_probes.
 */
static atomic_t kpmod_probes_releasing = ATOMIC_INIT(0);
static u32 kpmod_next_id = 1;

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

		switch (a->path) {
		case KPMOD_FETCH_REG:
			kpmod_fetch_reg(a, &ctx);
			break;
		case KPMOD_FETCH_MEM:
			kpmod_fetch_mem(a, i, &ctx);
			break;
		default:
			kpmod_fetch_run(a, i, &ctx);
			break;
		}
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

struct kpmod_probe *kpmod_probe_alloc(u32 nargs)
{
	struct kpmod_probe *p;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return NULL;
	/* Before anything can fail: kpmod_probe_free() walks the triggers. */
	INIT_LIST_HEAD(&p->node);
	INIT_LIST_HEAD(&p->triggers);
	p->layout.args = kcalloc(max_t(u32, nargs, 1), sizeof(*p->layout.args), GFP_KERNEL);
	p->stats = alloc_percpu(struct kpmod_probe_stats);
	if (!p->layout.args || !p->stats) {
		kpmod_probe_free(p);
		return NULL;
	}
	p->layout.nargs = nargs;
	return p;
}

void kpmod_probe_free(struct kpmod_probe *p)
{
	if (!p)
		return;
	free_percpu(p->stats);
	/* Unregistered, or never registered: no handler runs it any more. */
	kpmod_filter_free(rcu_dereference_protected(p->filter, true));
	kpmod_triggers_free(p);
	kfree(p->layout.args);
	kfree(p->definition);
	if (kpmod_probe_is_uprobe(p))
		kpmod_uprobe_release(&p->up, p->offset);
	kfree(p);
}

/*
 * How a handler fetches @a (enum kpmod_fetch_path).  A register or $argN
 * in one stored as it is, and a register, $argN in one or $stack followed
 * by reads of memory into one scalar with no bitfield, need no program.
 */
static void kpmod_arg_choose_path(const struct kpmod_probe *p, struct kpmod_arg *a)
{
	const struct kpmod_fetch_insn *in = &a->prog[0];
	u8 store = a->prog[a->store].op;

	a->path = KPMOD_FETCH_PROGRAM;
	a->base_word = -1;
	if (a->bf || a->entry_slot >= 0 || a->count)
		return;
	if (in->op == KPMOD_FOP_REG)
		a->base_word = kpmod_arch_reg_word(in->param);
	else if (in->op == KPMOD_FOP_ARG)
		a->base_word = kpmod_arch_arg_word(in->param);
	else if (in->op == KPMOD_FOP_STACKP && !kpmod_probe_is_uprobe(p))
		a->base_word = kpmod_arch_sp_word();	/* a uprobe's is the user's */
	if (a->base_word < 0)
		return;
	if (store == KPMOD_FOP_ST_RAW && a->store == 1)
		a->path = KPMOD_FETCH_REG;
	else if (store == KPMOD_FOP_ST_MEM || store == KPMOD_FOP_ST_UMEM)
		a->path = KPMOD_FETCH_MEM;
}

/* Slots in argument order, each aligned to its element size. */
static int kpmod_probe_layout(struct kpmod_probe *p, struct netlink_ext_ack *extack)
{
	u32 i, off = 0;

	p->layout.bitmap_size = KPMOD_FAULT_BITMAP_SIZE(p->layout.nargs);
	p->nentry = 0;
	p->has_strings = false;
	for (i = 0; i < p->layout.nargs; i++) {
		struct kpmod_arg *a = &p->layout.args[i];

		off = ALIGN(off, a->elem_size);
		a->offset = off;
		if (a->prog[a->store].op == KPMOD_FOP_ST_STRING ||
		    a->prog[a->store].op == KPMOD_FOP_ST_USTRING)
			p->has_strings = true;
		off += a->size;
		a->entry_slot = -1;
		if (p->kind == KPMOD_PROBE_RETURN && a->prog[0].op == KPMOD_FOP_ARG) {
			a->entry_slot = p->nentry;
			p->entry_arg[p->nentry++] = a->prog[0].param;
		}
	}
	/* The time of the call goes after the captured arguments. */
	p->has_duration = false;
	for (i = 0; i < p->layout.nargs; i++) {
		if (p->layout.args[i].prog[0].op == KPMOD_FOP_DURATION) {
			p->layout.args[i].entry_slot = p->nentry;
			p->has_duration = true;
		}
	}
	for (i = 0; i < p->layout.nargs; i++)
		kpmod_arg_choose_path(p, &p->layout.args[i]);
	p->fixed_size = ALIGN(off, 8);
	/* Fixed part, then every string at its longest; cut to a record's max. */
	p->max_len = sizeof(struct kpmod_record) + p->layout.bitmap_size + p->fixed_size;
	for (i = 0; i < p->layout.nargs; i++) {
		const struct kpmod_arg *a = &p->layout.args[i];

		if (a->prog[a->store].op == KPMOD_FOP_ST_STRING ||
		    a->prog[a->store].op == KPMOD_FOP_ST_USTRING)
			p->max_len += max_t(u32, a->count, 1) * KPMOD_MAX_STRING;
	}
	p->max_len = min_t(u32, ALIGN(p->max_len, 8), KPMOD_MAX_RECORD);
	if (p->fixed_size > KPMOD_MAX_FIXED_ARGS) {
		NL_SET_ERR_MSG(extack, "arguments exceed 3072 bytes");
		return -E2BIG;
	}
	return 0;
}

static void kpmod_register_error(struct netlink_ext_ack *extack, int err)
{
	switch (err) {
	case -ENOENT:
		NL_SET_ERR_MSG(extack, "symbol not found");
		break;
	case -EINVAL:
	case -EILSEQ:
		NL_SET_ERR_MSG(extack, "address is not probeable");
		break;
	case -EBUSY:
		NL_SET_ERR_MSG(extack, "address is busy (another probe or tracer owns it)");
		break;
	case -EOPNOTSUPP:
		NL_SET_ERR_MSG(extack, "return probes are not supported here");
		break;
	default:
		NL_SET_ERR_MSG(extack, "the kernel refused the probe");
		break;
	}
}

/* Both wait for running handlers before returning. */
static void kpmod_probe_unregister_kernel(struct kpmod_probe *p)
{
	if (p->kind == KPMOD_PROBE_RETURN)
		unregister_kretprobe(&p->rp);
	else
		unregister_kprobe(&p->rp.kp);
}

/* Registers @p's kprobe or kretprobe, disabled, from scratch. */
static int kpmod_probe_register_kernel(struct kpmod_probe *p)
{
	struct kprobe *kp = &p->rp.kp;

	/* Also when registering again: nothing of the last time stays. */
	memset(&p->rp, 0, sizeof(p->rp));
	if (p->symbol[0]) {
		kp->symbol_name = p->lookup;
		kp->offset = p->offset;
	} else {
		kp->addr = (kprobe_opcode_t *)(unsigned long)p->addr;
	}
	kp->flags = KPROBE_FLAG_DISABLED;
	if (p->kind == KPMOD_PROBE_RETURN) {
		p->rp.handler = kpmod_kretprobe_handler;
		/* Always: it keeps a run's tree's instances (see there). */
		p->rp.entry_handler = kpmod_kretprobe_entry;
		p->rp.data_size = (p->nentry + p->has_duration) * sizeof(unsigned long);
		p->rp.maxactive = p->maxactive;
		return register_kretprobe(&p->rp);
	}
	kp->pre_handler = kpmod_kprobe_handler;
	return register_kprobe(kp);
}

/* What every probe checks before it is registered; kpmod_lock held. */
static int kpmod_probe_admit(struct kpmod_probe *p, struct netlink_ext_ack *extack)
{
	lockdep_assert_held(&kpmod_lock);
	if (kpmod_probe_find(p->group, p->event)) {
		NL_SET_ERR_MSG(extack, "an event with this group and name exists");
		return -EEXIST;
	}
	if (kpmod_probes_count + atomic_read(&kpmod_probes_releasing) >= kpmod_max_probes) {
		NL_SET_ERR_MSG(extack, "too many probes (module parameter max_probes)");
		return -ENOSPC;
	}
	return kpmod_probe_layout(p, extack);
}

static void kpmod_probe_list_add(struct kpmod_probe *p)
{
	p->registered = true;
	p->id = kpmod_next_id++;
	list_add_tail(&p->node, &kpmod_probes);
	kpmod_probes_count++;
	kpmod_probes_changed();
}

int kpmod_probe_register_user(struct kpmod_probe *p, struct netlink_ext_ack *extack)
{
	int ret = kpmod_probe_admit(p, extack);

	if (ret)
		return ret;
	if (p->kind == KPMOD_PROBE_URETPROBE)
		p->up.uc.ret_handler = kpmod_uretprobe_handler;
	else
		p->up.uc.handler = kpmod_uprobe_handler;
	kpmod_probe_list_add(p);
	return 0;
}

int kpmod_probe_register(struct kpmod_probe *p, struct netlink_ext_ack *extack)
{
	int ret;

	ret = kpmod_probe_admit(p, extack);
	if (ret)
		return ret;

	if (p->module[0])
		snprintf(p->lookup, sizeof(p->lookup), "%s:%s", p->module, p->symbol);
	else
		strscpy(p->lookup, p->symbol, sizeof(p->lookup));
	ret = kpmod_probe_register_kernel(p);
	if (ret) {
		kpmod_register_error(extack, ret);
		return ret;
	}
	kpmod_probe_list_add(p);
	return 0;
}

struct kpmod_probe *kpmod_probe_find(const char *group, const char *event)
{
	struct kpmod_probe *p;

	list_for_each_entry(p, &kpmod_probes, node)
		if (!strcmp(p->group, group) && !strcmp(p->event, event))
			return p;
	return NULL;
}

static void kpmod_probe_unregister(struct kpmod_probe *p)
{
	if (kpmod_probe_is_uprobe(p))
		kpmod_uprobe_release(&p->up, p->offset);
	else
		kpmod_probe_unregister_kernel(p);
	p->registered = false;
}

/*
 * Unregisters every probe on @list: the kprobes in one call and the
 * kretprobes in another, each waiting for one grace period whatever their
 * number (one call per probe when the arrays cannot be had).
 */
static void kpmod_probes_unregister(struct list_head *list)
{
	struct kretprobe **rps = NULL;
	struct kprobe **kps = NULL;
	unsigned int n = 0, nk = 0, nr = 0;
	struct kpmod_probe *p;

	list_for_each_entry(p, list, node)
		n++;
	if (n > 1) {
		kps = kvmalloc_array(n, sizeof(*kps), GFP_KERNEL);
		rps = kvmalloc_array(n, sizeof(*rps), GFP_KERNEL);
	}
	list_for_each_entry(p, list, node) {
		if (!kps || !rps || kpmod_probe_is_uprobe(p))
			kpmod_probe_unregister(p);
		else if (p->kind == KPMOD_PROBE_RETURN)
			rps[nr++] = &p->rp;
		else
			kps[nk++] = &p->rp.kp;
		p->registered = false;
	}
	if (nk)
		unregister_kprobes(kps, nk);
	if (nr)
		unregister_kretprobes(rps, nr);
	kvfree(kps);
	kvfree(rps);
}

void kpmod_probe_unlist(struct kpmod_probe *p, struct list_head *doomed)
{
	lockdep_assert_held(&kpmod_lock);
	list_move_tail(&p->node, doomed);
	kpmod_probes_count--;
	atomic_inc(&kpmod_probes_releasing);
	kpmod_probes_changed();
}

void kpmod_probes_release(struct list_head *doomed)
{
	struct kpmod_probe *p, *tmp;

	kpmod_probes_unregister(doomed);
	list_for_each_entry_safe(p, tmp, doomed, node) {
		list_del(&p->node);
		kpmod_probe_free(p);
		atomic_dec(&kpmod_probes_releasing);
	}
}

int kpmod_probe_busy(const struct kpmod_probe *p, struct netlink_ext_ack *extack)
{
	if (p->enabled) {
		NL_SET_ERR_MSG(extack, "probe is enabled: disable it first");
		return -EBUSY;
	}
	if (p->ntriggers) {
		NL_SET_ERR_MSG(extack, "probe has triggers: remove them first");
		return -EBUSY;
	}
	if (p->soft_refs) {
		NL_SET_ERR_MSG(extack, "another probe's trigger switches it: remove that first");
		return -EBUSY;
	}
	return 0;
}

int kpmod_probe_delete(struct kpmod_probe *p, struct netlink_ext_ack *extack)
{
	LIST_HEAD(doomed);
	int ret;

	lockdep_assert_held(&kpmod_lock);
	ret = kpmod_probe_busy(p, extack);
	if (ret)
		return ret;
	kpmod_probe_unlist(p, &doomed);
	kpmod_probes_release(&doomed);
	return 0;
}

int kpmod_probe_arm(struct kpmod_probe *p)
{
	bool want = p->enabled || p->ntriggers || p->soft_refs;
	int ret;

	lockdep_assert_held(&kpmod_lock);
	/* A gone probe's handler never runs again: nothing of it is armed. */
	if (kpmod_probe_gone(p)) {
		p->armed = false;
		return 0;
	}
	if (want == p->armed)
		return 0;
	if (kpmod_probe_is_uprobe(p))
		ret = kpmod_uprobe_arm(&p->up, p->offset, want);
	else if (p->kind == KPMOD_PROBE_RETURN)
		ret = want ? enable_kretprobe(&p->rp) : disable_kretprobe(&p->rp);
	else
		ret = want ? enable_kprobe(&p->rp.kp) : disable_kprobe(&p->rp.kp);
	if (!ret)
		p->armed = want;
	return ret;
}

int kpmod_probe_enable(struct kpmod_probe *p, bool on)
{
	bool soft_disabled = p->soft_disabled;
	int ret;

	lockdep_assert_held(&kpmod_lock);
	if (p->enabled == on) {
		/* As the kernel's: enabling by hand ends a disable_event's soft disable. */
		if (on)
			WRITE_ONCE(p->soft_disabled, false);
		return 0;
	}
	/* A probe whose module went away stays gone, as in kprobe_events. */
	if (kpmod_probe_gone(p)) {
		WRITE_ONCE(p->enabled, false);
		return on ? -ENOENT : 0;
	}
	/*
	 * Handlers test enabled: set it before arming, clear it before
	 * disarming.  As the kernel's soft mode: enabling by hand records
	 * at once; disabling a target of enable_event leaves it to them.
	 */
	WRITE_ONCE(p->enabled, on);
	WRITE_ONCE(p->soft_disabled, !on && p->soft_refs);
	ret = kpmod_probe_arm(p);
	if (ret) {
		WRITE_ONCE(p->enabled, !on);
		WRITE_ONCE(p->soft_disabled, soft_disabled);
	}
	kpmod_probes_changed();
	return ret;
}

int kpmod_probes_clear(struct list_head *doomed, struct netlink_ext_ack *extack)
{
	struct kpmod_probe *p, *tmp;

	lockdep_assert_held(&kpmod_lock);
	/* All or none: a busy one refuses the whole request. */
	list_for_each_entry(p, &kpmod_probes, node) {
		int ret = kpmod_probe_busy(p, extack);

		if (ret)
			return ret;
	}
	list_for_each_entry_safe(p, tmp, &kpmod_probes, node)
		kpmod_probe_unlist(p, doomed);
	return 0;
}

bool kpmod_probes_any_armed(void)
{
	struct kpmod_probe *p;

	list_for_each_entry(p, &kpmod_probes, node)
		if (p->armed && !kpmod_probe_gone(p))
			return true;
	return false;
}

bool kpmod_probes_any_enabled(void)
{
	struct kpmod_probe *p;

	list_for_each_entry(p, &kpmod_probes, node)
		if (p->enabled)
			return true;
	return false;
}

unsigned int kpmod_nr_probes(void)
{
	return READ_ONCE(kpmod_probes_count);
}

u64 kpmod_probe_misses(struct kpmod_probe *p)
{
	u64 n = p->rp.kp.nmissed;	/* 0 for a uprobe: none can be missed */

	if (p->kind == KPMOD_PROBE_RETURN)
		n += p->rp.nmissed;
	return n;
}

void kpmod_probe_counters(struct kpmod_probe *p, struct kpmod_probe_stats *sum)
{
	int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		const struct kpmod_probe_stats *s = per_cpu_ptr(p->stats, cpu);

		sum->hits += READ_ONCE(s->hits);
		sum->dropped += READ_ONCE(s->dropped);
		sum->filtered += READ_ONCE(s->filtered);
	}
}

struct kpmod_filter *kpmod_probe_filter(struct kpmod_probe *p)
{
	return rcu_dereference_protected(p->filter, lockdep_is_held(&kpmod_lock));
}

void kpmod_probe_set_filter(struct kpmod_probe *p, struct kpmod_filter *f)
{
	struct kpmod_filter *old = kpmod_probe_filter(p);

	rcu_assign_pointer(p->filter, f);
	kpmod_filter_free_rcu(old);
	kpmod_probes_changed();
}

bool kpmod_probe_gone(struct kpmod_probe *p)
{
	return !kpmod_probe_is_uprobe(p) && kprobe_gone(&p->rp.kp);
}

/* A uprobe's is its offset in its file: it has an address per process. */
unsigned long kpmod_probe_address(struct kpmod_probe *p)
{
	if (kpmod_probe_is_uprobe(p))
		return p->offset;
	return (unsigned long)p->rp.kp.addr;
}

u32 kpmod_probe_maxactive(struct kpmod_probe *p)
{
	return p->kind == KPMOD_PROBE_RETURN ? p->rp.maxactive : 0;
}

void kpmod_probes_exit(void)
{
	struct kpmod_probe *p, *tmp;
	LIST_HEAD(doomed);

	mutex_lock(&kpmod_lock);
	list_for_each_entry_safe(p, tmp, &kpmod_probes, node)
		kpmod_probe_unlist(p, &doomed);
	/* All unregistered before any is freed: a trigger may point at any of them. */
	kpmod_probes_release(&doomed);
	mutex_unlock(&kpmod_lock);
}
