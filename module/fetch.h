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
	unsigned int store;	/* index of the stage-3 insn */
	const struct kpmod_fetch_insn *bf;	/* the MOD_BF insn, or NULL */
	struct kpmod_fetch_insn prog[KPMOD_MAX_INSNS];
	char data[KPMOD_MAX_IMM_STR];	/* immediate string, NUL-terminated */
};

/* Where a handler writes one record's arguments. */
struct kpmod_fetch_ctx {
	struct pt_regs *regs;
	const unsigned long *entry;	/* values captured at entry, or NULL */
	u8 *rec;			/* record start (data locations count from it) */
	u8 *slots;			/* argument area, after the fault bitmap */
	u8 *faults;			/* fault bitmap */
	u8 *dyn;			/* next free byte for strings */
	u8 *end;			/* end of the record buffer */
};

/*
 * Checks @insns (@n of them) and the argument's type and count, and fills
 * @arg's program, element size and slot size.  @is_return allows $retval.
 */
int kpmod_fetch_prepare(struct kpmod_arg *arg, const struct kpmod_fetch_insn *insns,
			unsigned int n, bool is_return,
			struct netlink_ext_ack *extack);

/* Runs one argument's program into ctx; handler context, never faults. */
void kpmod_fetch_run(const struct kpmod_arg *arg, unsigned int index,
		     struct kpmod_fetch_ctx *ctx);

#endif /* _KPMOD_FETCH_H */
