/* SPDX-License-Identifier: GPL-2.0 */
/* Fetch programs: validated once at registration, run by the handlers. */
#ifndef _KPMOD_FETCH_H
#define _KPMOD_FETCH_H

#include <linux/netlink.h>
#include <linux/ptrace.h>
#include <uapi/kpmod.h>

struct kpmod_arg {
	char name[KPMOD_MAX_ARG_NAME_LEN];
	u32 type;		/* enum kpmod_type */
	u32 count;		/* array length, 0 for a scalar */
	u32 offset;		/* slot, from the start of the argument area */
	u32 size;		/* slot bytes */
	u32 elem_size;		/* bytes per element in the slot */
	int entry_slot;		/* return probes: $argN captured at entry, or -1 */
	int reg_word;		/* a register stored as it is: its pt_regs word, or -1 */
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
 * stored as it is (reg_word >= 0, as kpmod_probe_layout() decides): the
 * same value, without running the program.
 */
static inline void kpmod_fetch_reg(const struct kpmod_arg *arg, struct kpmod_fetch_ctx *ctx)
{
	kpmod_fetch_put(ctx->slots + arg->offset,
			((const unsigned long *)ctx->regs)[arg->reg_word], arg->elem_size);
}

/* Runs one argument's program into ctx; handler context, never faults. */
void kpmod_fetch_run(const struct kpmod_arg *arg, unsigned int index,
		     struct kpmod_fetch_ctx *ctx);

#endif /* _KPMOD_FETCH_H */
