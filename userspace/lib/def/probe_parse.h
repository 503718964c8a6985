/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the definition parser (probe_def.c), shared with its BTF part
 * (probe_btf.c): the kernel-shaped instructions a FETCHARG compiles to,
 * the parse state and the errors.  Not for other callers: probe_def.h is
 * the parser's interface.
 */
#ifndef KPMOD_PROBE_PARSE_H
#define KPMOD_PROBE_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kbtf.h"
#include "parse_err.h"

struct kp_arch;
struct kp_arg_def;

/*
 * Instructions as the kernel lays them out in its 16-slot buffer; SYM is
 * its FETCH_NOP_SYMBOL (dropped from the result, but it takes a slot as
 * in the kernel) and ST_SYMSTR its symstr store.
 */
enum {
	I_NOP = 0, I_END, I_SYM,
	I_REG, I_STACK, I_STACKP, I_RETVAL, I_IMM, I_COMM, I_ARG, I_DATA, I_DURATION, I_FOFFS,
	I_CURRENT,
	I_DEREF, I_UDEREF, I_CPU_PTR,
	I_ST_RAW, I_ST_MEM, I_ST_UMEM, I_ST_STRING, I_ST_USTRING, I_ST_SYMSTR,
	I_MOD_BF, I_LP_ARRAY,
};

struct kinsn {
	int op;
	unsigned int size, lshift, rshift;
	uint32_t param;
	int64_t imm;
};

/* The BTF a definition's names are looked up in, and what the last one was. */
struct pbtf {
	struct kp_btf *kb;	/* NULL: no BTF */
	const char *module;	/* the probed function's, "" for vmlinux */
	const char *func;	/* NULL: an address or a uprobe */
	bool used;		/* the FETCHARG named something from BTF */
	bool queried;		/* kp_btf_func() asked, its result in qret */
	int qret;
	struct kp_btf_func f;
	/*
	 * What the last name resolved to, as the kernel's ctx->last_*, and
	 * the BTF it is in (ctx_btf(): a typecast's struct's, or f's).
	 */
	const struct btf *btf;
	const struct btf_type *last_type;
	unsigned int last_bitoffs, last_bitsize;
	int last_offs;		/* where that name is in its word */
};

struct pctx {
	const struct kp_arch *arch;
	int (*resolve)(const char *sym, uint64_t *addr, void *ctx);	/* kp_resolve_fn */
	void *rctx;
	bool is_return;
	bool fentry;		/* the probe is at a function entry */
	bool user;		/* a uprobe: memory is the process' */
	struct kp_parse_err *err;
	size_t base;		/* the current word's offset in the input */
	unsigned int size;	/* the kernel's event record bytes so far */
	unsigned int depth;	/* nested dereferences, typecasts, this_cpu_*() so far */
	struct kp_arg_def *arg;
	struct pbtf btf;
};

/* TRACEPROBE_MAX_NESTED_LEVEL (7.3): +OFFS(), (STRUCT) and this_cpu_*() in one FETCHARG */
#define KP_MAX_NESTED	8

#define ERR(pc, code, pos) \
	kp_parse_set_err((pc)->err, KP_E_##code, (pc)->base + (size_t)(pos), NULL)

/* One word of a definition: its text and its offset in the definition. */
struct word {
	char *s;
	size_t pos;
	bool expanded;		/* made from $arg* or $argN: errors point at pos */
};

#endif
