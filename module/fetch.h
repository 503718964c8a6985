/* SPDX-License-Identifier: GPL-2.0 */
/* Fetch programs: validated once at registration, run by the handlers. */
#ifndef _KPMOD_FETCH_H
#define _KPMOD_FETCH_H

#include <linux/netlink.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/uaccess.h>
#include <uapi/kpmod.h>
#ifdef CONFIG_X86_64
#include <asm/vsyscall.h>
#endif

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
	KPMOD_FETCH_STR,	/* a register or $stack, reads, one string: kpmod_fetch_str() */
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
 * x86_64: whether a kernel read may touch @addr: canonical for the paging
 * in use, and not the vsyscall page.  Reading a non-canonical address
 * takes a #GP, whose fixup in copy_from_kernel_nofault() WARNs (a lost
 * machine under panic_on_warn); the kernel's own check of the address
 * goes by the CPU's address width, which a CPU with 5-level paging gives
 * as 57 bits while the kernel runs 4-level (no5lvl, or a kernel built
 * without 5-level paging).  A kernel-mode fault on the vsyscall page is
 * not fixed up on some kernels (an oops), and the kernel's own check of
 * it, where there is one, looks at the first byte only.
 */
static inline bool kpmod_kernel_addr_ok(unsigned long addr)
{
#ifdef CONFIG_X86_64
	unsigned int shift = 63 - __VIRTUAL_MASK_SHIFT;

	return (unsigned long)((long)(addr << shift) >> shift) == addr &&
	       (addr & PAGE_MASK) != VSYSCALL_ADDR;
#else
	return true;
#endif
}

/*
 * Whether copy_from_kernel_nofault() would surely let a read at @addr
 * (checked by kpmod_kernel_addr_ok()) through to its loads: on x86_64 one
 * above the user range and its guard page; arm64's check lets every
 * address through.
 */
static inline bool kpmod_kernel_read_plain(unsigned long addr)
{
#if defined(CONFIG_X86_64)
	return addr >= TASK_SIZE_MAX + PAGE_SIZE;
#elif defined(CONFIG_ARM64)
	return true;
#else
	return false;
#endif
}

/*
 * A kernel read of 1, 2, 4 or 8 bytes done as copy_from_kernel_nofault()
 * does it, page faults off and the arch's __get_kernel_nofault() (a load
 * with an exception table entry), but inline: the call, its check and its
 * copy loop were most of a dereference's cost.  Any other read, and any
 * address the kernel's own check might refuse, is the kernel's to do.
 */
static __always_inline int kpmod_read_kernel(void *dst, unsigned long addr, size_t size)
{
#ifdef __get_kernel_nofault
	if (kpmod_kernel_read_plain(addr)) {
		const void *src = (const void *)addr;

		pagefault_disable();
		switch (size) {
		case 1:
			__get_kernel_nofault(dst, src, u8, fault);
			break;
		case 2:
			__get_kernel_nofault(dst, src, u16, fault);
			break;
		case 4:
			__get_kernel_nofault(dst, src, u32, fault);
			break;
		case 8:
			__get_kernel_nofault(dst, src, u64, fault);
			break;
		default:
			pagefault_enable();
			return copy_from_kernel_nofault(dst, src, size);
		}
		pagefault_enable();
		return 0;
fault:
		pagefault_enable();
		return -EFAULT;
	}
#endif
	return copy_from_kernel_nofault(dst, (const void *)addr, size);
}

static inline int kpmod_read(bool user, void *dst, unsigned long addr, size_t size)
{
	if (kpmod_reads_user(user, addr))
		return copy_from_user_nofault(dst, (const void __user *)addr, size);
	if (!kpmod_kernel_addr_ok(addr) || !kpmod_kernel_addr_ok(addr + size - 1))
		return -ERANGE;
	return kpmod_read_kernel(dst, addr, size);
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

/*
 * The fast form of kpmod_fetch_run() for a register, $argN in one or
 * $stack, then dereferences, then one string (KPMOD_FETCH_STR).
 */
void kpmod_fetch_str(const struct kpmod_arg *arg, unsigned int index,
		     struct kpmod_fetch_ctx *ctx);

/* Runs one argument's program into ctx; handler context, never faults. */
void kpmod_fetch_run(const struct kpmod_arg *arg, unsigned int index,
		     struct kpmod_fetch_ctx *ctx);

#endif /* _KPMOD_FETCH_H */
