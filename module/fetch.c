// SPDX-License-Identifier: GPL-2.0
/*
 * Fetch programs, after the kernel's trace_probe: one load, dereferences,
 * one store, an optional bitfield and array.  kpmod_fetch_prepare() is the
 * only gate between a netlink message and a handler, so it checks every
 * field of every instruction; kpmod_fetch_run() then trusts the program
 * but never the memory it reads: every read is *_nofault.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
/* 6.12 moved it from asm/ to linux/. */
#ifdef KPMOD_HAVE_LINUX_UNALIGNED
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif
#include <asm/word-at-a-time.h>

#include "compat.h"
#include "fetch.h"
#include "kpmod.h"

/* Deepest $stackN / $argN: one kernel stack's worth of words. */
#define KPMOD_MAX_STACK_INDEX (THREAD_SIZE / sizeof(unsigned long))

/* The fields of a fetch insn an op uses; every other one must be 0. */
enum kpmod_insn_uses {
	KPMOD_USES_SIZE = 1 << 0,
	KPMOD_USES_SHIFTS = 1 << 1,
	KPMOD_USES_PARAM = 1 << 2,
	KPMOD_USES_IMM = 1 << 3,
};

static bool kpmod_insn_unused_zero(const struct kpmod_fetch_insn *in, unsigned int uses)
{
	return ((uses & KPMOD_USES_SIZE) || !in->size) &&
	       ((uses & KPMOD_USES_SHIFTS) || (!in->lshift && !in->rshift)) &&
	       ((uses & KPMOD_USES_PARAM) || !in->param) &&
	       ((uses & KPMOD_USES_IMM) || !in->imm);
}

static int kpmod_check_load(const struct kpmod_fetch_insn *in, unsigned int site,
			    const char *data, struct netlink_ext_ack *extack)
{
	bool is_return = site & KPMOD_FETCH_RETURN;
	bool user = site & KPMOD_FETCH_USER;

	switch (in->op) {
	case KPMOD_FOP_REG:
		if (in->param >= kpmod_arch_nr_regs()) {
			NL_SET_ERR_MSG(extack, "register number out of range");
			return -EINVAL;
		}
		break;
	case KPMOD_FOP_STACK:
		if (in->param >= KPMOD_MAX_STACK_INDEX) {
			NL_SET_ERR_MSG(extack, "$stackN index out of range");
			return -EINVAL;
		}
		break;
	case KPMOD_FOP_ARG:
		if (user) {
			/* As uprobe_events: no calling convention is assumed. */
			NL_SET_ERR_MSG(extack, "$argN is not for uprobes");
			return -EINVAL;
		}
		if (!in->param || in->param > KPMOD_MAX_STACK_INDEX) {
			NL_SET_ERR_MSG(extack, "$argN index out of range");
			return -EINVAL;
		}
		break;
	case KPMOD_FOP_RETVAL:
		if (!is_return) {
			NL_SET_ERR_MSG(extack, "$retval is only for return probes");
			return -EINVAL;
		}
		break;
	case KPMOD_FOP_DURATION:
		if (!is_return || user) {
			NL_SET_ERR_MSG(extack, "$duration is only for kernel return probes");
			return -EINVAL;
		}
		break;
	case KPMOD_FOP_FILE_OFFSET:
		if (!user) {
			NL_SET_ERR_MSG(extack, "@+OFFSET is only for uprobes");
			return -EINVAL;
		}
		break;
	case KPMOD_FOP_DATA:
		if (!data[0]) {
			NL_SET_ERR_MSG(extack, "immediate string op without data");
			return -EINVAL;
		}
		break;
	case KPMOD_FOP_CURRENT:
		/* As 7.3's uprobe_events: the kernel's task, not the process'. */
		if (user) {
			NL_SET_ERR_MSG(extack, "$current is only for kernel probes");
			return -EINVAL;
		}
		break;
	case KPMOD_FOP_STACKP:
	case KPMOD_FOP_IMM:
	case KPMOD_FOP_COMM:
		break;
	default:
		NL_SET_ERR_MSG(extack, "fetch program must start with a load");
		return -EINVAL;
	}
	if (!kpmod_insn_unused_zero(in, (in->op == KPMOD_FOP_REG || in->op == KPMOD_FOP_STACK ||
					 in->op == KPMOD_FOP_ARG ? KPMOD_USES_PARAM : 0) |
				    (in->op == KPMOD_FOP_IMM || in->op == KPMOD_FOP_FILE_OFFSET ?
				     KPMOD_USES_IMM : 0))) {
		NL_SET_ERR_MSG(extack, "unused fetch insn field is not zero");
		return -EINVAL;
	}
	return 0;
}

static u32 kpmod_type_size(u32 type)
{
	switch (type) {
	case KPMOD_T_U8: case KPMOD_T_S8: case KPMOD_T_X8: case KPMOD_T_CHAR:
		return 1;
	case KPMOD_T_U16: case KPMOD_T_S16: case KPMOD_T_X16:
		return 2;
	case KPMOD_T_U32: case KPMOD_T_S32: case KPMOD_T_X32:
		return 4;
	case KPMOD_T_U64: case KPMOD_T_S64: case KPMOD_T_X64:
	case KPMOD_T_SYMBOL: case KPMOD_T_SYMSTR:
		return 8;
	default:
		return 0;	/* strings, bitfields: fixed by the store */
	}
}

static bool kpmod_is_string_store(u8 op)
{
	return op == KPMOD_FOP_ST_STRING || op == KPMOD_FOP_ST_USTRING;
}

static bool kpmod_fetch_is_deref(u8 op)
{
	return op == KPMOD_FOP_DEREF || op == KPMOD_FOP_UDEREF || op == KPMOD_FOP_CPU_PTR;
}

/* A uprobe's program reads user memory only: it runs in the task hit. */
static bool kpmod_reads_kernel(u8 op)
{
	return op == KPMOD_FOP_DEREF || op == KPMOD_FOP_ST_MEM || op == KPMOD_FOP_ST_STRING;
}

int kpmod_fetch_prepare(struct kpmod_arg *arg, const struct kpmod_fetch_insn *insns,
			unsigned int n, unsigned int site,
			struct netlink_ext_ack *extack)
{
	const struct kpmod_fetch_insn *st;
	unsigned int i;
	int ret;

	if (n < 3 || n > KPMOD_MAX_INSNS || insns[n - 1].op != KPMOD_FOP_END) {
		NL_SET_ERR_MSG(extack, "fetch program: 3 to 16 insns, ending in END");
		return -EINVAL;
	}
	memcpy(arg->prog, insns, n * sizeof(*insns));
	arg->bf = NULL;
	ret = kpmod_check_load(&insns[0], site, arg->data, extack);
	if (ret)
		return ret;
	/* $comm and immediate strings are the module's own: not memory read. */
	if ((site & KPMOD_FETCH_USER) && insns[0].op != KPMOD_FOP_COMM &&
	    insns[0].op != KPMOD_FOP_DATA) {
		for (i = 1; i < n; i++) {
			if (kpmod_reads_kernel(insns[i].op)) {
				NL_SET_ERR_MSG(extack, "a uprobe reads user memory only");
				return -EINVAL;
			}
		}
	}

	for (i = 1; kpmod_fetch_is_deref(insns[i].op); i++) {
		if (!kpmod_insn_unused_zero(&insns[i], insns[i].op == KPMOD_FOP_CPU_PTR ?
					    0 : KPMOD_USES_IMM)) {
			NL_SET_ERR_MSG(extack, "unused fetch insn field is not zero");
			return -EINVAL;
		}
		/* Per-CPU data is the kernel's, read with preemption off. */
		if (insns[i].op == KPMOD_FOP_CPU_PTR && (site & KPMOD_FETCH_USER)) {
			NL_SET_ERR_MSG(extack, "this_cpu_ptr() is only for kernel probes");
			return -EINVAL;
		}
	}
	if (i > 1 && (insns[0].op == KPMOD_FOP_COMM || insns[0].op == KPMOD_FOP_DATA)) {
		NL_SET_ERR_MSG(extack, "$comm and immediate strings cannot be dereferenced");
		return -EINVAL;
	}
	if (insns[0].op == KPMOD_FOP_DURATION && (i > 1 || insns[i].op != KPMOD_FOP_ST_RAW)) {
		NL_SET_ERR_MSG(extack, "$duration is a number: stored as it is");
		return -EINVAL;
	}

	st = &insns[i];
	arg->store = i;
	switch (st->op) {
	case KPMOD_FOP_ST_RAW:
	case KPMOD_FOP_ST_MEM:
	case KPMOD_FOP_ST_UMEM:
		if (st->size != 1 && st->size != 2 && st->size != 4 && st->size != 8) {
			NL_SET_ERR_MSG(extack, "store size must be 1, 2, 4 or 8");
			return -EINVAL;
		}
		if (!kpmod_insn_unused_zero(st, KPMOD_USES_SIZE |
					    (st->op != KPMOD_FOP_ST_RAW ? KPMOD_USES_IMM : 0))) {
			NL_SET_ERR_MSG(extack, "unused fetch insn field is not zero");
			return -EINVAL;
		}
		arg->elem_size = st->size;
		break;
	case KPMOD_FOP_ST_STRING:
	case KPMOD_FOP_ST_USTRING:
		if (!kpmod_insn_unused_zero(st, KPMOD_USES_IMM)) {
			NL_SET_ERR_MSG(extack, "unused fetch insn field is not zero");
			return -EINVAL;
		}
		arg->elem_size = sizeof(u32);	/* a data location */
		break;
	default:
		NL_SET_ERR_MSG(extack, "fetch program lacks a store after its loads");
		return -EINVAL;
	}
	if ((insns[0].op == KPMOD_FOP_COMM || insns[0].op == KPMOD_FOP_DATA) &&
	    (st->op != KPMOD_FOP_ST_STRING || st->imm)) {
		NL_SET_ERR_MSG(extack, "$comm and immediate strings store as string");
		return -EINVAL;
	}
	i++;

	if (insns[i].op == KPMOD_FOP_MOD_BF) {
		/* Point into the module's own copy: @insns is the caller's. */
		const struct kpmod_fetch_insn *bf = &arg->prog[i];
		unsigned int bits = st->size * BITS_PER_BYTE;

		if (kpmod_is_string_store(st->op) || bf->size != st->size ||
		    bf->lshift > bf->rshift || bf->rshift >= bits ||
		    !kpmod_insn_unused_zero(bf, KPMOD_USES_SIZE | KPMOD_USES_SHIFTS)) {
			NL_SET_ERR_MSG(extack, "bad bitfield insn");
			return -EINVAL;
		}
		arg->bf = bf;
		i++;
	}

	if (insns[i].op == KPMOD_FOP_LP_ARRAY) {
		/* A string array is the last dereference repeated: it needs one. */
		if (!insns[i].param || insns[i].param > KPMOD_MAX_ARRAY_LEN ||
		    insns[i].param != arg->count || st->op == KPMOD_FOP_ST_RAW ||
		    (kpmod_is_string_store(st->op) &&
		     (arg->store < 2 || arg->prog[arg->store - 1].op == KPMOD_FOP_CPU_PTR)) ||
		    insns[0].op == KPMOD_FOP_COMM || insns[0].op == KPMOD_FOP_DATA ||
		    !kpmod_insn_unused_zero(&insns[i], KPMOD_USES_PARAM)) {
			NL_SET_ERR_MSG(extack,
				       "bad array insn (count 1..64, from memory, strings after a dereference)");
			return -EINVAL;
		}
		i++;
	} else if (arg->count) {
		NL_SET_ERR_MSG(extack, "array count without an array insn");
		return -EINVAL;
	}

	if (i != n - 1) {
		NL_SET_ERR_MSG(extack, "fetch insns out of order");
		return -EINVAL;
	}

	/* The type says how the value prints; it must match what is stored. */
	if (kpmod_is_string_store(st->op)) {
		if (arg->type != KPMOD_T_STRING && arg->type != KPMOD_T_USTRING) {
			NL_SET_ERR_MSG(extack, "string store needs a string type");
			return -EINVAL;
		}
	} else if (arg->type == KPMOD_T_BITFIELD) {
		if (!arg->bf) {
			NL_SET_ERR_MSG(extack, "bitfield type without a bitfield insn");
			return -EINVAL;
		}
	} else if (kpmod_type_size(arg->type) != st->size) {
		/* (A bitfield member named from BTF keeps its integer's type.) */
		NL_SET_ERR_MSG(extack, "type does not match the store size");
		return -EINVAL;
	}
	arg->size = arg->elem_size * max_t(u32, arg->count, 1);
	return 0;
}

/* A uprobe's $stackN: 0 if unreadable, as uprobe_events' get_user_stack_nth(). */
static unsigned long kpmod_user_stack(struct pt_regs *regs, unsigned int n)
{
	unsigned long v = 0, addr = user_stack_pointer(regs) + n * sizeof(v);

	if (copy_from_user_nofault(&v, (const void __user *)addr, sizeof(v)))
		return 0;
	return v;
}

/* Stage 1.  Only $stackN beyond the stack can fail, and reads 0 as the kernel. */
static unsigned long kpmod_fetch_load(const struct kpmod_arg *arg,
				      const struct kpmod_fetch_ctx *ctx)
{
	const struct kpmod_fetch_insn *in = &arg->prog[0];

	switch (in->op) {
	case KPMOD_FOP_REG:
		return kpmod_arch_reg(ctx->regs, in->param);
	case KPMOD_FOP_STACK:
		if (ctx->user)
			return kpmod_user_stack(ctx->regs, in->param);
		return kpmod_arch_stack(ctx->regs, in->param);
	case KPMOD_FOP_STACKP:
		if (ctx->user)
			return user_stack_pointer(ctx->regs);
		return kpmod_arch_sp(ctx->regs);
	case KPMOD_FOP_FILE_OFFSET:
		return ctx->file_base + in->imm;
	case KPMOD_FOP_RETVAL:
		return kpmod_arch_retval(ctx->regs);
	case KPMOD_FOP_IMM:
		return in->imm;
	case KPMOD_FOP_COMM:
		return (unsigned long)current->comm;
	case KPMOD_FOP_CURRENT:
		return (unsigned long)current;
	case KPMOD_FOP_ARG:
		if (ctx->entry && arg->entry_slot >= 0)
			return ctx->entry[arg->entry_slot];
		return kpmod_arch_arg(ctx->regs, in->param);
	case KPMOD_FOP_DURATION:
		/* The entry handler put the time of the call in its slot. */
		if (ctx->entry && arg->entry_slot >= 0)
			return ktime_get_mono_fast_ns() - ctx->entry[arg->entry_slot];
		return 0;
	case KPMOD_FOP_DATA:
		return (unsigned long)arg->data;
	}
	return 0;
}

static u64 kpmod_apply_bf(const struct kpmod_fetch_insn *bf, u64 v)
{
	switch (bf->size) {
	case 1:
		return (u8)((u8)v << bf->lshift) >> bf->rshift;
	case 2:
		return (u16)((u16)v << bf->lshift) >> bf->rshift;
	case 4:
		return (u32)((u32)v << bf->lshift) >> bf->rshift;
	default:
		return (v << bf->lshift) >> bf->rshift;
	}
}

/*
 * A user string is read as strncpy_from_user_nofault() reads it, a word at
 * a time up to the NUL (kpmod_copy_user_string()), only where the current
 * mm is the task's: not in an NMI, not in a kernel thread (an interrupt
 * there runs on whatever user mm is lazily loaded), which
 * copy_from_user_nofault() refuses with nmi_uaccess_okay() (not
 * exported); there the chunked copy below runs, and faults as that does.
 */
static bool kpmod_user_string(bool user, unsigned long addr)
{
	return kpmod_reads_user(user, addr) && !in_nmi() && current->mm;
}

/*
 * A user string straight into @dst as the kernel's strncpy_from_user()
 * reads one (a word at a time up to the NUL, bytes on from where a word
 * would fault, never past the top of user space), with page faults off:
 * at most @room bytes, NUL included.  Returns the length with the NUL,
 * @room when cut (its last byte then the NUL), or -EFAULT, then with
 * nothing left written.  The bytes after the NUL in its last word are
 * written as zeros: only the string's own bytes reach @dst.  Not through
 * strncpy_from_user() itself, which checks its destination as hardened
 * usercopy does: on a ring's mapped pages that is a vmap area lookup,
 * under a lock on some kernels, from a probe handler; kpmod bounds @dst
 * itself.
 */
static long kpmod_copy_user_string(char *dst, unsigned long addr, long room)
{
	const struct word_at_a_time zero = WORD_AT_A_TIME_CONSTANTS;
	const char __user *src = (const char __user *)addr;
	unsigned long top = untagged_addr(addr);
#ifdef KPMOD_HAVE_FORCE_UACCESS
	/*
	 * Until 5.18 an arch could still have set_fs() (arm64 on 5.10), and a
	 * return handler runs with the address limit the probed function
	 * returned with: as that function does there, user accesses are
	 * forced to USER_DS.
	 */
	mm_segment_t old_fs;
#endif
	unsigned long max;
	long res = 0, written = 0;
	char c;

#ifdef KPMOD_HAVE_FORCE_UACCESS
	old_fs = force_uaccess_begin();
#endif
	if (top >= KPMOD_USER_TOP) {
		res = -EFAULT;
		goto out_fs;
	}
	max = min_t(unsigned long, room, KPMOD_USER_TOP - top);
	pagefault_disable();
	if (!user_read_access_begin(src, max)) {
		res = -EFAULT;
		goto out;
	}
	while (max - res >= sizeof(unsigned long)) {
		unsigned long w, bits;

		unsafe_get_user(w, (const unsigned long __user *)(src + res), bytes);
		if (has_zero(w, &bits, &zero)) {
			bits = create_zero_mask(prep_zero_mask(w, bits, &zero));
			put_unaligned(w & zero_bytemask(bits), (unsigned long *)(dst + res));
			res += find_zero(bits) + 1;
			goto done;
		}
		put_unaligned(w, (unsigned long *)(dst + res));
		res += sizeof(unsigned long);
	}
bytes:
	while (res < max) {
		unsafe_get_user(c, src + res, fault);
		dst[res++] = c;
		if (!c)
			goto done;
	}
	/* No NUL: cut at @room, or a fault where user space ends first. */
	if (max < (unsigned long)room)
		goto fault;
	dst[room - 1] = '\0';
done:
	user_read_access_end();
out:
	pagefault_enable();
out_fs:
#ifdef KPMOD_HAVE_FORCE_UACCESS
	force_uaccess_end(old_fs);
#endif
	/* Not part of any record: leave nothing of it behind. */
	if (written)
		memset(dst, 0, written);
	return res;
fault:
	written = res;
	res = -EFAULT;
	goto done;
}

/* Bytes read at a time: never across a page, so a fault is the string's own. */
#define KPMOD_STRING_CHUNK	64

/*
 * Copies a NUL-terminated string of at most @room bytes (NUL included, cut
 * to fit) to @dst; returns its length with the NUL, or -EFAULT.  Except a
 * user string where it can be read word-wise, it is read in chunks that
 * never cross a page, through a buffer on the stack: only the string's own
 * bytes reach @dst (a mapped ring), never what follows it in memory ($comm
 * is 16 bytes inside task_struct, whose next fields are kernel pointers).
 */
static long kpmod_copy_string(bool user, char *dst, unsigned long addr, long room)
{
	/* Not zeroed first (INIT_STACK_ALL_ZERO): only bytes read are copied out. */
	char chunk[KPMOD_STRING_CHUNK] __uninitialized;
	long done = 0;

	if (kpmod_user_string(user, addr))
		return kpmod_copy_user_string(dst, addr, room);
	while (done < room) {
		long n = min_t(long, room - done,
			       PAGE_SIZE - ((addr + done) & ~PAGE_MASK));
		const char *nul;

		n = min_t(long, n, sizeof(chunk));
		if (kpmod_read(user, chunk, addr + done, n))
			goto fault;
		nul = memchr(chunk, '\0', n);
		if (nul) {
			memcpy(dst + done, chunk, nul - chunk + 1);
			return done + (nul - chunk) + 1;
		}
		memcpy(dst + done, chunk, n);
		done += n;
	}
	dst[room - 1] = '\0';
	return room;
fault:
	/* Not part of any record: leave nothing of it behind. */
	memset(dst, 0, done);
	return -EFAULT;
}

/* Copies a string into the record's tail and sets its data location. */
static int kpmod_fetch_string(bool user, unsigned long addr, u32 *loc,
			      struct kpmod_fetch_ctx *ctx)
{
	long room = min_t(long, ctx->end - ctx->dyn, KPMOD_MAX_STRING);
	long len;

	*loc = 0;
	if (room <= 0)
		return -EFAULT;
	len = kpmod_copy_string(user, (char *)ctx->dyn, addr, room);
	if (len < 0)
		return -EFAULT;
	*loc = KPMOD_DATA_LOC(len, ctx->dyn - ctx->rec);
	ctx->dyn += len;
	return 0;
}

/*
 * string[N], as the kernel's LP_ARRAY: element i is the string at the
 * pointer the last dereference reads from @lval + its offset + i pointers
 * (@lval: the value before that dereference).  An element whose pointer
 * or string faults is "(fault)" alone, a zero data location.
 */
static void kpmod_fetch_strings(const struct kpmod_arg *arg, unsigned long lval,
				u32 *locs, struct kpmod_fetch_ctx *ctx)
{
	const struct kpmod_fetch_insn *last = &arg->prog[arg->store - 1];
	const struct kpmod_fetch_insn *st = &arg->prog[arg->store];
	bool user = st->op == KPMOD_FOP_ST_USTRING;
	unsigned long addr;
	unsigned int i;

	for (i = 0; i < arg->count; i++) {
		locs[i] = 0;
		if (kpmod_read(last->op == KPMOD_FOP_UDEREF, &addr,
			       lval + last->imm + i * sizeof(addr), sizeof(addr)))
			continue;
		kpmod_fetch_string(user, addr + st->imm, &locs[i], ctx);
	}
}

void kpmod_fetch_str(const struct kpmod_arg *arg, unsigned int index,
		     struct kpmod_fetch_ctx *ctx)
{
	unsigned long val = ((const unsigned long *)ctx->regs)[arg->base_word];
	const struct kpmod_fetch_insn *st = &arg->prog[arg->store];

	if (kpmod_fetch_derefs(arg, &val) ||
	    kpmod_fetch_string(st->op == KPMOD_FOP_ST_USTRING, val + st->imm,
			       (u32 *)(ctx->slots + arg->offset), ctx))
		ctx->faults[index / 8] |= 1 << (index % 8);
}

void kpmod_fetch_run(const struct kpmod_arg *arg, unsigned int index,
		     struct kpmod_fetch_ctx *ctx)
{
	const struct kpmod_fetch_insn *st = &arg->prog[arg->store];
	unsigned int i, n = max_t(u32, arg->count, 1);
	u8 *slot = ctx->slots + arg->offset;
	unsigned long val = kpmod_fetch_load(arg, ctx);
	bool strings = arg->count && kpmod_is_string_store(st->op);
	bool user;
	u64 v;

	/* A string array stops before its last dereference: it repeats it. */
	if (kpmod_fetch_derefs_to(arg, &val, strings ? arg->store - 1 : arg->store))
		goto fault;
	if (strings) {
		kpmod_fetch_strings(arg, val, (u32 *)slot, ctx);
		return;
	}

	switch (st->op) {
	case KPMOD_FOP_ST_RAW:
		v = val;
		if (arg->bf)
			v = kpmod_apply_bf(arg->bf, v);
		kpmod_fetch_put(slot, v, st->size);
		return;
	case KPMOD_FOP_ST_MEM:
	case KPMOD_FOP_ST_UMEM:
		user = st->op == KPMOD_FOP_ST_UMEM;
		for (i = 0; i < n; i++) {
			v = 0;
			if (kpmod_read(user, &v, val + st->imm + i * st->size, st->size))
				goto fault;
			if (arg->bf)
				v = kpmod_apply_bf(arg->bf, v);
			kpmod_fetch_put(slot + i * st->size, v, st->size);
		}
		return;
	default:	/* ST_STRING, ST_USTRING */
		user = st->op == KPMOD_FOP_ST_USTRING;
		if (kpmod_fetch_string(user, val + st->imm, (u32 *)slot, ctx))
			goto fault;
		return;
	}
fault:
	ctx->faults[index / 8] |= 1 << (index % 8);
}
