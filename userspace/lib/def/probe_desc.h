/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A probe's description: its name, where it sits and its record's layout.
 * The module's PROBE_GET reply gives it (inside struct kp_probe_info, with
 * the probe's live state) and a record file stores it, so that a
 * recording is read without the module.
 */
#ifndef KPMOD_PROBE_DESC_H
#define KPMOD_PROBE_DESC_H

#include <stdbool.h>
#include <stdint.h>

#include "uapi/kpmod.h"

struct kp_arg_desc {
	char name[KPMOD_MAX_ARG_NAME_LEN];
	uint32_t type;		/* enum kpmod_type */
	uint32_t count;		/* array length; 0: a scalar */
	uint32_t offset;	/* slot offset in the argument area */
	uint32_t size;		/* slot bytes (all elements) */
};

struct kp_probe_desc {
	uint32_t id;
	uint32_t kind;		/* enum kpmod_probe_kind */
	char group[KPMOD_MAX_NAME_LEN];
	char event[KPMOD_MAX_NAME_LEN];
	char symbol[KPMOD_MAX_SYMBOL_LEN];	/* "" for an address probe */
	char module[KPMOD_MAX_MODULE_LEN];	/* "" for the core kernel */
	uint64_t offset;	/* added to symbol */
	uint64_t addr;		/* KPMOD_A_PROBE_ADDRESS: where it sits */
	uint32_t args_size;	/* KPMOD_A_PROBE_ARGS_SIZE */
	uint32_t nargs;
	struct kp_arg_desc args[KPMOD_MAX_ARGS];
};

/* Whether a probe of @kind records a function's returns. */
static inline bool kp_kind_is_return(uint32_t kind)
{
	return kind == KPMOD_PROBE_RETURN || kind == KPMOD_PROBE_URETPROBE;
}

/* Whether @kind is a uprobe's: its addresses are the process', not the kernel's. */
static inline bool kp_kind_is_uprobe(uint32_t kind)
{
	return kind == KPMOD_PROBE_UPROBE || kind == KPMOD_PROBE_URETPROBE;
}

#endif
