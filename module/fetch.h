/* SPDX-License-Identifier: GPL-2.0 */
/* Fetch programs: validated once at registration, run by the handlers. */
#ifndef _KPMOD_FETCH_H
#define _KPMOD_FETCH_H

#include <linux/netlink.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/uaccess.h>
#include <uapi/kpmod.h>

struct kpmod_arg {
	char name[KPMOD_MAX_ARG_NAME_LEN];
	u32 type;		/* enum kpmod_type */
	u32 count;		/* array length, 0 for a scalar */
	u32 offset;		/* slot, from the start of the argument area */
	u32 size;		/* slot bytes */
	u32 elem_size;		/* bytes per element in the slot */
	int entry_slot;		/* return probes: $argN captured at entry, or -1 */
	u32 path;		/* enum kpmod_fetch_path: how a handler fetches it */
	int base_word;		/* the fast paths' pt_regs word: register, $argN, $stack */
	unsigned int store;	/* index of the stage-3 insn */
	const struct kpmod_fetch_insn *bf;	/* the MOD_BF insn, or NULL */
	struct kpmod_fetch_insn prog[KPMOD_MAX_INSNS];
	char data[KPMOD_MAX_IMM_STR];	/* immediate string, NUL-terminated */
};

/* Where a probe sits, as its fetch programs may differ by it. */
enum kpmod_fetch_site {
	KPMOD_FETCH_RETURN = 1 << 0,	/* a return probe: $retval, $duration */
	KPMOD_FETCH_USER = 1 << 1,	/* a uprobe: user memory and stack only */
};

/*
 * How a handler fetches an argument (kpmod_probe_layout() decides): the
 * common forms skip the program's interpreter, as kprobe_events' fetch
 * code is inlined per form.
 */
enum kpmod_fetch_path {
	KPMOD_FETCH_PROGRAM,	/* kpmod_fetch_run() */
	KPMOD_FETCH_REG,	/* a register stored as it is: kpmod_fetch_reg() */
	KPMOD_FETCH_MEM,	/* a register or $stack, reads, one scalar: kpmod_fetch_mem() */
};

/* Where a handler writes one record's arguments. */
struct kpmod_fetch_ctx {
	struct pt_regs *regs;
	bool user;			/* a uprobe's: $stackN on the user stack */
	unsigned long file_base;	/* a uprobe's: where file offset 0 is mapped */
	const unsigned long *entry;	/* values captured at entry, or NULL */
	u8 *rec;			/* record start (data locations count from it) */
	u8 *slots;			/* argument area, after the fault bitmap */
	u8 *faults;			/* fault bitmap */
	u8 *dyn;			/* next free byte for strings */
	u8 *end;			/* end of the record buffer */
};

/*
 * Checks @insns (@n of them) and the argument's type and count, and fills
 * @arg's program, element size and slot size.  @site (enum
 * kpmod_fetch_site) says which loads and reads the probe may use.
 */
int kpmod_fetch_prepare(struct kpmod_arg *arg, const struct kpmod_fetch_insn *insns,
			unsigned int n, unsigned int site,
			struct netlink_ext_ack *extack);

/* A slot's element of @size bytes, aligned to its size. */
static inline void kpmod_fetch_put(u8 *slot, u64 v, unsigned int size)
{
	switch (size) {
	case 1:
		*slot = v;
		break;
	case 2:
		*(u16 *)slot = v;
		break;
	case 4:
		*(u32 *)slot = v;
		break;
	default:
		*(u64 *)slot = v;
		break;
	}
}

/*
 * The fast form of kpmod_fetch_run() for an argument that is a register
 * stored as it is (KPMOD_FETCH_REG): the same value, without running the
 * program.
 */
static inline void kpmod_fetch_reg(const struct kpmod_arg *arg, struct kpmod_fetch_ctx *ctx)
{
	kpmod_fetch_put(ctx->slots + arg->offset,
			((const unsigned long *)ctx->regs)[arg->base_word], arg->elem_size);
}

/*
 * As kprobe_events: where user and kernel addresses cannot overlap, a
 * kernel dereference of a user address reads user memory.
 */
static inline bool kpmod_reads_user(bool user, unsigned long addr)
{
	return user || (IS_ENABLED(CONFIG_ARCH_HAS_NON_OVERLAPPING_ADDRESS_SPACE) &&
			addr < TASK_SIZE);
}

/*
 * x86_64: whether @addr is canonical for the paging in use.  Reading one
 * that is not takes a #GP, whose fixup in copy_from_kernel_nofault()
 * WARNs (a lost machine under panic_on_warn); the kernel's own check of
 * the address goes by the CPU's address width, which a CPU with 5-level
 * paging gives as 57 bits while the kernel runs 4-level (no5lvl, or a
 * kernel built without 5-level paging).
 */
static inline bool kpmod_kernel_addr_ok(unsigned long addr)
{
#ifdef CONFIG_X86_64
	unsigned int shift = 63 - __VIRTUAL_MASK_SHIFT;

	return (unsigned long)((long)(addr << shift) >> shift) == addr;
#else
	return true;
#endif
}

static inline int kpmod_read(bool user, void *dst, unsigned long addr, size_t size)
{
	if (kpmod_reads_user(user, addr))
		return copy_from_user_nofault(dst, (const void __user *)addr, size);
	if (!kpmod_kernel_addr_ok(addr) || !kpmod_kernel_addr_ok(addr + size - 1))
		return -ERANGE;
	return copy_from_kernel_nofault(dst, (const void *)addr, size);
}

/*
 * Stage 2, for kpmod_fetch_run() and its fast form: the dereferences
 * (and this_cpu_ptr()s) before insn @end, each from *@val; non-zero on a
 * fault.
 */
static inline int kpmod_fetch_derefs_to(const struct kpmod_arg *arg, unsigned long *val,
					unsigned int end)
{
	unsigned int i;

	for (i = 1; i < end; i++) {
		const struct kpmod_fetch_insn *in = &arg->prog[i];

		if (in->op == KPMOD_FOP_CPU_PTR) {
			/* An offset into the per-CPU area: nothing is read. */
			*val = (unsigned long)this_cpu_ptr((void __percpu *)*val);
			continue;
		}
		if (kpmod_read(in->op == KPMOD_FOP_UDEREF, val, *val + in->imm, sizeof(*val)))
			return -EFAULT;
	}
	return 0;
}

/* Every dereference between the load and the store. */
static inline int kpmod_fetch_derefs(const struct kpmod_arg *arg, unsigned long *val)
{
	return kpmod_fetch_derefs_to(arg, val, arg->store);
}

/*
 * The fast form of kpmod_fetch_run() for a register, $argN in one or
 * $stack, then dereferences, then one scalar read and stored as it is,
 * no bitfield (KPMOD_FETCH_MEM): the same reads in the same order, the
 * same value or fault bit, without the interpreter.
 */
static inline void kpmod_fetch_mem(const struct kpmod_arg *arg, unsigned int index,
				   struct kpmod_fetch_ctx *ctx)
{
	unsigned long val = ((const unsigned long *)ctx->regs)[arg->base_word];
	const struct kpmod_fetch_insn *st = &arg->prog[arg->store];
	u64 v = 0;

	if (kpmod_fetch_derefs(arg, &val) ||
	    kpmod_read(st->op == KPMOD_FOP_ST_UMEM, &v, val + st->imm, st->size)) {
		ctx->faults[index / 8] |= 1 << (index % 8);
		return;
	}
	kpmod_fetch_put(ctx->slots + arg->offset, v, st->size);
}

/* Runs one argument's program into ctx; handler context, never faults. */
void kpmod_fetch_run(const struct kpmod_arg *arg, unsigned int index,
		     struct kpmod_fetch_ctx *ctx);

#endif /* _KPMOD_FETCH_H */
