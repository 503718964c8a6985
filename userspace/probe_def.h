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

#include "uapi/kpmod.h"

/* ---- architectures ---- */

struct kp_reg {
	const char *name;	/* as written after '%' */
	unsigned int num;	/* KPMOD_REG_* */
};

struct kp_arch {
	const char *name;	/* "x86_64" or "arm64", as KPMOD_A_ARCH */
	unsigned int nregs;	/* KPMOD_REG_*_NR */
	unsigned int max_stack;	/* largest N of $stackN and $argN */
	const struct kp_reg *regs;
	unsigned int nnames;	/* entries in regs, aliases included */
};

/* "x86_64" (or "amd64"), "arm64" (or "aarch64"); NULL if unknown. */
const struct kp_arch *kp_arch_by_name(const char *name);
/* The architecture this program was built for; NULL if neither. */
const struct kp_arch *kp_arch_native(void);
/* Iterates the known architectures: start with NULL; NULL at the end. */
const struct kp_arch *kp_arch_next(const struct kp_arch *arch);
/* The KPMOD_REG_* number of register @name (no '%'), or -1. */
int kp_arch_reg(const struct kp_arch *arch, const char *name);
/* The kernel's name of register @num ("di", "x0"), or NULL. */
const char *kp_arch_reg_name(const struct kp_arch *arch, unsigned int num);

/* ---- definitions ---- */

/* NAME=FETCHARG[:TYPE], at most 31 + 1 + 63 characters. */
#define KP_ARG_TEXT_LEN		(KPMOD_MAX_ARG_NAME_LEN + 64 + 1)
#define KP_MAX_ARGSTR_LEN	63	/* MAX_ARGSTR_LEN: one FETCHARG[:TYPE] */
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
 * One code per distinct problem.  The first group are the kernel's
 * (trace_probe.h ERRORS) that a kprobe definition can meet; the second
 * are kpmod's own.
 */
#define KP_PARSE_ERRORS							\
	E(NONE,			"Success")				\
	E(MAXACT_NO_KPROBE,	"Maxactive is only for return probes")	\
	E(BAD_MAXACT,		"Invalid maxactive number")		\
	E(MAXACT_TOO_BIG,	"Maxactive is too big (max 4096)")	\
	E(BAD_PROBE_ADDR,	"Invalid probed address or symbol")	\
	E(NON_UNIQ_SYMBOL,	"The symbol is not unique; probe its address") \
	E(BAD_RETPROBE,		"Return probe must be on a function entry") \
	E(BAD_ADDR_SUFFIX,	"Invalid probed address suffix")	\
	E(NO_GROUP_NAME,	"Group name is not specified")		\
	E(GROUP_TOO_LONG,	"Group name is too long (max 63)")	\
	E(BAD_GROUP_NAME,	"Group name must be a C identifier (or '-')") \
	E(NO_EVENT_NAME,	"Event name is not specified")		\
	E(EVENT_TOO_LONG,	"Event name is too long (max 63)")	\
	E(BAD_EVENT_NAME,	"Event name must be a C identifier")	\
	E(EVENT_EXIST,		"Group/event name is already used")	\
	E(RETVAL_ON_PROBE,	"$retval is only for return probes")	\
	E(BAD_STACK_NUM,	"Invalid stack number")			\
	E(BAD_ARG_NUM,		"Invalid argument number")		\
	E(BAD_VAR,		"Invalid $-variable")			\
	E(BAD_REG_NAME,		"Invalid register name")		\
	E(BAD_MEM_ADDR,		"Invalid memory address")		\
	E(BAD_IMM,		"Invalid immediate value")		\
	E(IMMSTR_NO_CLOSE,	"String is not closed with '\"'")	\
	E(FILE_ON_KPROBE,	"File offset is not available with kprobe") \
	E(TOO_MANY_OPS,		"Dereference is nested too deeply")	\
	E(DEREF_NEED_BRACE,	"Dereference needs a brace")		\
	E(BAD_DEREF_OFFS,	"Invalid dereference offset")		\
	E(DEREF_OPEN_BRACE,	"Dereference brace is not closed")	\
	E(COMM_CANT_DEREF,	"$comm and strings can not be dereferenced") \
	E(BAD_FETCH_ARG,	"Invalid fetch argument")		\
	E(ARRAY_NO_CLOSE,	"Array is not closed")			\
	E(BAD_ARRAY_SUFFIX,	"Array has a wrong suffix")		\
	E(BAD_ARRAY_NUM,	"Invalid array size")			\
	E(ARRAY_TOO_BIG,	"Array is too big (max 64)")		\
	E(BAD_TYPE,		"Unknown type")				\
	E(BAD_STRING,		"String and array need a memory argument") \
	E(BAD_SYMSTRING,	"symstr needs a register, stack, $retval, $arg or memory") \
	E(BAD_BITFIELD,		"Invalid bitfield")			\
	E(ARG_NAME_TOO_LONG,	"Argument name is too long (max 31)")	\
	E(NO_ARG_NAME,		"Argument name is not specified")	\
	E(BAD_ARG_NAME,		"Argument name must be a C identifier")	\
	E(USED_ARG_NAME,	"Argument name is already used")	\
	E(ARG_TOO_LONG,		"Argument expression is too long (max 63)") \
	E(NO_ARG_BODY,		"No argument expression")		\
	E(BAD_INSN_BNDRY,	"Probe point is not an instruction boundary") \
	E(FAIL_REG_PROBE,	"Failed to register the probe")		\
	E(EVENT_TOO_BIG,	"Event is too big (max 3072 bytes of arguments)") \
	/* kpmod's own */						\
	E(EMPTY,		"Empty definition")			\
	E(BAD_COMMAND,		"Definition must start with p, r, u or -")	\
	E(NO_PROBE_POINT,	"Probe point is not specified")		\
	/* retired (kept: the exit codes of the codes after it never move) */ \
	E(UPROBE,		"Uprobe definitions are not supported")	\
	E(SYMBOL_TOO_LONG,	"Symbol name is too long (max 511)")	\
	E(MODULE_TOO_LONG,	"Module name is too long (max 55)")	\
	E(OTHER_ARCH_REG,	"Register of another architecture")	\
	E(NO_ARCH,		"Unknown architecture: no registers")	\
	E(UNKNOWN_SYMBOL,	"Unknown symbol")			\
	E(BAD_SYM_OFFS,		"Invalid symbol offset")		\
	E(ARG_NOT_AT_ENTRY,	"$argN is only available at a function entry") \
	E(STRING_ONLY,		"$comm and immediate strings are only of type string") \
	E(DEREF_SUFFIX,		"Unexpected text after the dereference") \
	E(TOO_MANY_ARGS,	"Too many arguments (max 128)")		\
	E(DEF_TOO_LONG,		"Definition is too long (max 4095)")	\
	E(DEL_EXTRA_ARGS,	"Delete takes only -:[GRP/]EVENT")	\
	E(DURATION_ON_PROBE,	"$duration is only for return probes")	\
	/* the kernel's uprobe_events' (trace_probe.h), then kpmod's */	\
	E(FILE_NOT_FOUND,	"Failed to find the given file")	\
	E(NO_REGULAR_FILE,	"Not a regular file")			\
	E(BAD_REFCNT,		"Invalid reference counter offset")	\
	E(REFCNT_OPEN_BRACE,	"Reference counter brace is not closed") \
	E(BAD_REFCNT_SUFFIX,	"Reference counter has wrong suffix")	\
	E(BAD_UPROBE_OFFS,	"Invalid uprobe offset")		\
	E(BAD_FILE_OFFS,	"Invalid file offset value")		\
	E(SYM_ON_UPROBE,	"Symbol is not available with uprobe")	\
	E(NOT_ELF,		"Not an ELF file")			\
	E(ELF_OTHER_ARCH,	"ELF file of another architecture")	\
	E(OFFS_NOT_EXEC,	"Offset is outside any executable segment") \
	E(UPROBE_VAR,		"Not available with uprobe")		\
	E(MAXACT_ON_UPROBE,	"Maxactive is only for kprobes")		\
	E(UNKNOWN_MARKER,	"Unknown USDT marker")			\
	E(BAD_USDT_ARG,		"USDT argument not available")

#define E(code, msg) KP_E_##code,
enum kp_parse_errcode { KP_PARSE_ERRORS KP_E__COUNT };
#undef E

/* The default message of @code. */
const char *kp_parse_strerror(int code);

struct kp_parse_err {
	int code;		/* enum kp_parse_errcode */
	unsigned int pos;	/* byte offset into the input: the caret */
	char msg[256];		/* the message, perhaps more specific */
};

/*
 * Symbol resolver for @SYM (and the probed SYM, unless MOD:SYM): stores
 * the address of @sym and returns KP_RESOLVE_OK, KP_RESOLVE_MULTI (found
 * more than once, @addr is the first), KP_RESOLVE_NONE, or
 * KP_RESOLVE_UNAVAIL (no symbol table: as with no resolver, the probed
 * symbol is left to the module and @SYM is refused).
 */
#define KP_RESOLVE_OK		0
#define KP_RESOLVE_NONE		(-1)
#define KP_RESOLVE_MULTI	1
#define KP_RESOLVE_UNAVAIL	2
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

/*
 * Prints @err as the kernel's error_log does:
 *   kpmod: error: MESSAGE
 *     Command: TEXT
 *              ^
 */
void kp_format_parse_err(FILE *f, const char *text,
			 const struct kp_parse_err *err);

/* The same, "kpmod: WHERE: error: …" (e.g. "probes.conf:3"); @where may be NULL. */
void kp_format_parse_err_at(FILE *f, const char *where, const char *text,
			    const struct kp_parse_err *err);

/*
 * The checks of a uprobe's file that the kernel's uprobe_events makes
 * (FILE_NOT_FOUND, NO_REGULAR_FILE) and kpmod's own (NOT_ELF,
 * ELF_OTHER_ARCH, OFFS_NOT_EXEC): 0, or an error code with @msg filled.
 * In uprobe_file.c; kp_parse_def() calls it.
 */
int kp_uprobe_check_file(const char *path, uint64_t offset, const struct kp_arch *arch,
			 char *msg, size_t msglen);

static inline bool kp_def_is_uprobe(const struct kp_probe_def *def)
{
	return def->kind == KPMOD_PROBE_UPROBE || def->kind == KPMOD_PROBE_URETPROBE;
}

/* The name of a type ("u32", "string", "b3@4/32" prints "bitfield"). */
const char *kp_type_name(uint32_t type);

#endif
