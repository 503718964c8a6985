/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Probe definitions: the kprobe_events syntax, parsed and compiled to the
 * fetch programs of uapi/kpmod.h.
 *
 *   p[:[GRP/|GRP.][EVENT]] [MOD:]SYM[+OFFS]|MEMADDR [FETCHARGS]
 *   r[MAXACTIVE][:[GRP/|GRP.][EVENT]] [MOD:]SYM[+0] [FETCHARGS]
 *   p[:[GRP/][EVENT]] [MOD:]SYM[+0]%return [FETCHARGS]
 *   p[:[GRP/]EVENT] PATH:OFFSET[%return][(REF_CTR_OFFSET)] [FETCHARGS]
 *   r[:[GRP/]EVENT] PATH:OFFSET[(REF_CTR_OFFSET)] [FETCHARGS]
 *   u[:[GRP/][EVENT]] PATH:PROVIDER:NAME [NAME=argN[:TYPE]|FETCHARGS] (usdt_def.c)
 *   -:[GRP/]EVENT
 *
 * The rules, the error positions, the generated names and the printback
 * are those of Linux 6.1's kprobe_events, with the differences listed at
 * kp_parse_def().
 */
#ifndef KPMOD_PROBE_DEF_H
#define KPMOD_PROBE_DEF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "parse_err.h"
#include "probe_arch.h"
#include "uapi/kpmod.h"

/* ---- definitions ---- */

/* NAME=FETCHARG[:TYPE], at most 31 + 1 + 63 characters. */
#define KP_ARG_TEXT_LEN		(KPMOD_MAX_ARG_NAME_LEN + 64 + 1)
#define KP_DEFAULT_GROUP	"kprobes"
#define KP_DEFAULT_UGROUP	"uprobes"

struct kp_arg_def {
	char name[KPMOD_MAX_ARG_NAME_LEN];
	uint32_t type;		/* enum kpmod_type */
	uint32_t count;		/* array length, 0 = scalar */
	struct kpmod_fetch_insn insns[KPMOD_MAX_INSNS];	/* END-terminated */
	unsigned int ninsns;	/* including END */
	uint8_t data[KPMOD_MAX_IMM_STR];	/* immediate string, NUL included */
	unsigned int datalen;	/* 0: none */
	char text[KP_ARG_TEXT_LEN];	/* printback: NAME=FETCHARG[:TYPE] */
	bool btf;		/* a name from BTF: its program is not its text */
};

struct kp_probe_def {
	char group[KPMOD_MAX_NAME_LEN];	/* KP_DEL: "" = any group */
	char event[KPMOD_MAX_NAME_LEN];	/* KP_DEL: "" = every event of group */
	uint32_t kind;		/* enum kpmod_probe_kind */
	char symbol[KPMOD_MAX_SYMBOL_LEN];	/* without MOD: and +OFFS */
	char module[KPMOD_MAX_MODULE_LEN];	/* "" unless MOD:SYM */
	uint64_t offset;	/* SYM+OFFS */
	uint64_t addr;		/* MEMADDR, when has_addr */
	bool has_addr;
	uint32_t maxactive;	/* 0: the kernel's default */
	/* uprobes (kind KPMOD_PROBE_UPROBE / _URETPROBE): offset is in the file */
	char path[KPMOD_MAX_PATH_LEN];
	uint64_t ref_ctr_offset;	/* (REF_CTR_OFFSET): the semaphore, or 0 */
	unsigned int nargs;
	struct kp_arg_def args[KPMOD_MAX_ARGS];
	char definition[KPMOD_MAX_DEF_LEN];	/* as kprobe_events prints it */
};

/*
 * Symbol resolver for @SYM (and the probed SYM, unless MOD:SYM): stores
 * the address of @sym and returns KP_RESOLVE_OK, KP_RESOLVE_MULTI (found
 * more than once, @addr is the first), KP_RESOLVE_NONE, or
 * KP_RESOLVE_UNAVAIL (no symbol table: as with no resolver, the probed
 * symbol is left to the module and @SYM is refused), or KP_RESOLVE_ABS
 * (an absolute symbol, a per-CPU variable: an @SYM, never a probe point).
 * @addr NULL: the probed SYM, whose address is not needed: only whether
 * it is one symbol (KP_RESOLVE_UNAVAIL: left to the module).
 */
#define KP_RESOLVE_OK		0
#define KP_RESOLVE_NONE		(-1)
#define KP_RESOLVE_MULTI	1
#define KP_RESOLVE_UNAVAIL	2
#define KP_RESOLVE_ABS		3
typedef int (*kp_resolve_fn)(const char *sym, uint64_t *addr, void *ctx);

enum kp_def_op { KP_DEF_ADD, KP_DEF_DEL };

/*
 * Parses one definition (one line, no comment, no newline needed) into
 * @out and returns 0, or fills @err and returns -1.  @arch NULL: the
 * native one.  @resolve NULL: the probed symbol is not checked and @SYM
 * is refused.
 *
 * Differences from 6.1's kprobe_events:
 *  - refused where the kernel silently accepts: anything but digits or
 *    ':' after p/r, more than 128 arguments, text after a dereference's
 *    closing brace, extra words after -:EVENT, a name longer than 31, a
 *    bitfield whose width or offset passes 64 bits (the kernel's sum
 *    wraps, and its shifts exceed the container);
 *  - $argN and $stackN are allowed in return probes (kpmod takes them at
 *    the entry); $argN only where the kernel would too (function entry);
 *  - @SYM is resolved here (an unknown one is refused at the '@' SYM);
 *  - a MEMADDR prints and names as 0x%016llx (the kernel hashes %p).
 */
int kp_parse_def(const char *text, const struct kp_arch *arch,
		 kp_resolve_fn resolve, void *ctx, enum kp_def_op *op,
		 struct kp_probe_def *out, struct kp_parse_err *err);

struct kp_btf;
/*
 * The same, with names from @btf (kbtf.h; NULL: none): a parameter by
 * name, ->member, $arg*, a bare $argN named and typed, a typed $retval,
 * as kprobe_events with CONFIG_PROBE_EVENTS_BTF_ARGS (probe_btf.c).
 */
int kp_parse_def_btf(const char *text, const struct kp_arch *arch,
		     kp_resolve_fn resolve, void *ctx, struct kp_btf *btf,
		     enum kp_def_op *op, struct kp_probe_def *out, struct kp_parse_err *err);

static inline bool kp_def_is_uprobe(const struct kp_probe_def *def)
{
	return def->kind == KPMOD_PROBE_UPROBE || def->kind == KPMOD_PROBE_URETPROBE;
}

/* The name of a type ("u32", "string", "b3@4/32" prints "bitfield"). */
const char *kp_type_name(uint32_t type);

#endif
