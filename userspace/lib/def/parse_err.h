/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a definition can be refused for: the codes (their order is the exit
 * codes', 16 + code, and kpmod(8)'s table, doc/gen-man), their messages,
 * the limits the messages name, and the kernel's error_log form of one.
 */
#ifndef KPMOD_PARSE_ERR_H
#define KPMOD_PARSE_ERR_H

#include <stddef.h>
#include <stdio.h>

/* A refused definition exits with KP_EXIT_DEF_BASE + its code. */
#define KP_EXIT_DEF_BASE	16

#define KP_MAX_ARGSTR_LEN	63	/* MAX_ARGSTR_LEN: one FETCHARG[:TYPE] */

/*
 * One code per distinct problem.  The first group are the kernel's
 * (trace_probe.h ERRORS) that a kprobe definition can meet; the second
 * are kpmod's own; the third the kernel's again, for BTF names.
 */
#define KP_PARSE_ERRORS							\
	E(NONE,			"Success")				\
	E(MAXACT_NO_KPROBE,	"Maxactive is only for return probes")	\
	E(BAD_MAXACT,		"Invalid maxactive number")		\
	E(MAXACT_TOO_BIG,	"Maxactive is too big (max 4096)")	\
	E(BAD_PROBE_ADDR,	"Invalid probed address or symbol")	\
	E(NON_UNIQ_SYMBOL,	"The symbol is not unique") \
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
	E(BAD_VAR,		"Invalid $-variable specified")		\
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
	E(BAD_USDT_ARG,		"USDT argument not available")		\
	/* The kernel's, for names from BTF (6.6's and later's words) */	\
	E(NOSUP_BTFARG,		"BTF is not available or not supported") \
	E(NO_BTFARG,		"This variable is not found at this probe point") \
	E(NO_BTF_ENTRY,		"No BTF entry for this probe point")	\
	E(NO_RETVAL,		"This function returns 'void' type")	\
	E(NOFENTRY_ARGS,	"$arg* can be used only on function entry or exit") \
	E(DOUBLE_ARGS,		"$arg* can be used only once in the parameters") \
	E(NO_PTR_STRCT,		"This is not a pointer to union/structure.") \
	E(NOSUP_DAT_ARG,	"Non pointer structure/union argument is not supported.") \
	E(BAD_HYPHEN,		"Failed to parse single hyphen. Forgot '>'?") \
	E(NO_BTF_FIELD,		"This field is not found.")		\
	E(BAD_BTF_TID,		"Failed to get BTF type info.")		\
	E(BAD_TYPE4STR,		"This type does not fit for string.") \
	/* The kernel's, for 7.3's typecasts, $current and this_cpu_*() */ \
	E(TOO_MANY_NESTED,	"Too many nested typecasts/dereferences") \
	E(TYPECAST_REQ_FIELD,	"Typecast requires a field access")	\
	E(TYPECAST_SYM_OFFSET,	"@SYM+/-OFFSET with typecast needs parentheses") \
	E(TYPECAST_NOT_ALIGNED,	"Typecast field option is not byte-aligned") \
	E(TYPECAST_BAD_ARROW,	"Typecast field option does not support -> operator") \
	E(NOSUP_PERCPU,		"Per-cpu variable access is only for kernel probes")

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

/* Fills @err: @fmt NULL for the code's own message; returns -1. */
int kp_parse_set_err(struct kp_parse_err *err, int code, size_t pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

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

#endif
