// SPDX-License-Identifier: GPL-2.0
/*
 * Parser and compiler of kprobe_events definitions.  It follows the order
 * of checks, the error positions, the generated names and the fetch
 * program layout of Linux 6.1 (trace_kprobe.c, trace_probe.c), so that a
 * definition kprobe_events refuses is refused here at the same place.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "probe_btf.h"
#include "probe_def.h"
#include "probe_parse.h"
#include "uprobe_file.h"
#include "usdt_def.h"

#define MAX_PROBE_EVENT_SIZE	KPMOD_MAX_FIXED_ARGS

/* ---- the kernel's number parsers (lib/kstrtox.c) ---- */

static const char *fixup_radix(const char *s, unsigned int *base)
{
	if (*base == 0) {
		if (s[0] == '0') {
			if (tolower((unsigned char)s[1]) == 'x' &&
			    isxdigit((unsigned char)s[2]))
				*base = 16;
			else
				*base = 8;
		} else {
			*base = 10;
		}
	}
	if (*base == 16 && s[0] == '0' && tolower((unsigned char)s[1]) == 'x')
		s += 2;
	return s;
}

static int digit_val(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return 99;
}

/* kstrtoull(): all of @s, one optional '+', one optional trailing '\n'. */
static int k_strtoull(const char *s, unsigned int base, uint64_t *res)
{
	uint64_t v = 0;
	unsigned int n = 0;
	int d;

	if (s[0] == '+')
		s++;
	s = fixup_radix(s, &base);
	for (; (d = digit_val(*s)) < (int)base; s++, n++) {
		if (v > (UINT64_MAX - (uint64_t)d) / base)
			return -ERANGE;
		v = v * base + (uint64_t)d;
	}
	if (!n)
		return -EINVAL;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = v;
	return 0;
}

static int k_strtoll(const char *s, unsigned int base, int64_t *res)
{
	uint64_t v;
	int ret;

	if (s[0] == '-') {
		ret = k_strtoull(s + 1, base, &v);
		if (ret)
			return ret;
		if (v > (uint64_t)INT64_MAX + 1)
			return -ERANGE;
		*res = (int64_t)(0 - v);
		return 0;
	}
	ret = k_strtoull(s, base, &v);
	if (ret)
		return ret;
	if (v > INT64_MAX)
		return -ERANGE;
	*res = (int64_t)v;
	return 0;
}

static int k_strtouint(const char *s, unsigned int base, unsigned int *res)
{
	uint64_t v;
	int ret = k_strtoull(s, base, &v);

	if (ret)
		return ret;
	if (v > UINT_MAX)
		return -ERANGE;
	*res = (unsigned int)v;
	return 0;
}

/*
 * simple_strtoul(): stops at the first non-digit.  A value past 64 bits is
 * UINT64_MAX here (the kernel's wraps: b18446744073709551617 reads as b1).
 */
static uint64_t k_simple_strtoul(const char *s, const char **end)
{
	unsigned int base = 0;
	uint64_t v = 0;
	int d;

	s = fixup_radix(s, &base);
	for (; (d = digit_val(*s)) < (int)base; s++)
		v = v > (UINT64_MAX - (uint64_t)d) / base ? UINT64_MAX :
		    v * base + (uint64_t)d;
	*end = s;
	return v;
}

/* ---- names ---- */

static bool good_name(const char *name, bool hyphen_ok)
{
	const char *p = name;

	if (!isalpha((unsigned char)*p) && *p != '_' &&
	    (!hyphen_ok || *p != '-'))
		return false;
	while (*++p) {
		if (!isalnum((unsigned char)*p) && *p != '_' &&
		    (!hyphen_ok || *p != '-'))
			return false;
	}
	return true;
}

static const char *const reserved_field_names[] = {
	"common_type", "common_flags", "common_preempt_count",
	"common_pid", "common_tgid",
	"__probe_ip", "__probe_ret_ip", "__probe_func",
};

/* ---- types ---- */

struct kp_type_info {
	const char *name;
	uint32_t type;
	unsigned int size;	/* bytes in the kernel's event record */
	bool is_string;
};

static const struct kp_type_info kp_types[] = {
	{ "string", KPMOD_T_STRING, 4, true },
	{ "ustring", KPMOD_T_USTRING, 4, true },
	{ "symstr", KPMOD_T_SYMSTR, 4, true },
	{ "u8", KPMOD_T_U8, 1, false },   { "u16", KPMOD_T_U16, 2, false },
	{ "u32", KPMOD_T_U32, 4, false }, { "u64", KPMOD_T_U64, 8, false },
	{ "s8", KPMOD_T_S8, 1, false },   { "s16", KPMOD_T_S16, 2, false },
	{ "s32", KPMOD_T_S32, 4, false }, { "s64", KPMOD_T_S64, 8, false },
	{ "x8", KPMOD_T_X8, 1, false },   { "x16", KPMOD_T_X16, 2, false },
	{ "x32", KPMOD_T_X32, 4, false }, { "x64", KPMOD_T_X64, 8, false },
	{ "char", KPMOD_T_CHAR, 1, false },
	{ "symbol", KPMOD_T_SYMBOL, 8, false },
};

#define NTYPES (sizeof(kp_types) / sizeof(kp_types[0]))

const char *kp_type_name(uint32_t type)
{
	unsigned int i;

	if (type == KPMOD_T_BITFIELD)
		return "bitfield";
	for (i = 0; i < NTYPES; i++)
		if (kp_types[i].type == type)
			return kp_types[i].name;
	return "?";
}

/*
 * find_fetch_type(): NULL is the default type, x64 ("unsigned long" in
 * hex); b<W>@<O>/<C> is a bitfield in a C-bit container.
 */
static bool find_type(const char *t, struct kp_type_info *out)
{
	unsigned int i;
	uint64_t bs;

	if (!t)
		t = "x64";
	if (*t == 'b') {
		const char *slash = strchr(t, '/');

		if (!slash || k_strtoull(slash + 1, 0, &bs))
			return false;
		if (bs != 8 && bs != 16 && bs != 32 && bs != 64)
			return false;
		out->name = "bitfield";
		out->type = KPMOD_T_BITFIELD;
		out->size = (unsigned int)bs / 8;
		out->is_string = false;
		return true;
	}
	for (i = 0; i < NTYPES; i++) {
		if (!strcmp(t, kp_types[i].name)) {
			*out = kp_types[i];
			return true;
		}
	}
	return false;
}

/* ---- fetch arguments ---- */

/* parse_probe_vars(): @var is after the '$' of @arg. */
static int parse_vars(struct pctx *pc, char *arg, struct kinsn **pcode, struct kinsn *end,
		      int offs)
{
	unsigned int max = pc->arch ? pc->arch->max_stack : 2048;
	struct kinsn *code = *pcode;
	const char *var = arg + 1;
	size_t len;
	uint64_t param;

	if (!strncmp(var, "retval", 6)) {
		if (!pc->is_return)
			return ERR(pc, RETVAL_ON_PROBE, offs);
		/* A kprobe's is typed from BTF, and may name members. */
		if (!pc->user)
			return kp_btf_parse_arg(pc, arg, pcode, end, offs);
		if (var[6])
			return ERR(pc, BAD_VAR, offs);
		code->op = I_RETVAL;
		return 0;
	}
	/* kpmod's: nanoseconds from the function's entry to this return. */
	if (!strcmp(var, "duration")) {
		if (pc->user)
			return ERR(pc, UPROBE_VAR, offs);
		if (!pc->is_return)
			return ERR(pc, DURATION_ON_PROBE, offs);
		code->op = I_DURATION;
		return 0;
	}
	if (!strncmp(var, "stack", 5)) {
		len = 5;
		if (var[len] == '\0') {
			code->op = I_STACKP;
			return 0;
		}
		if (!isdigit((unsigned char)var[len]) ||
		    k_strtoull(var + len, 10, &param))
			return ERR(pc, BAD_VAR, offs);
		if (param > max)
			return ERR(pc, BAD_STACK_NUM, offs);
		code->op = I_STACK;
		code->param = (uint32_t)param;
		return 0;
	}
	if (!strcmp(var, "comm") || !strcmp(var, "COMM")) {
		code->op = I_COMM;
		return 0;
	}
	/* 7.3's: the task's task_struct; ->member from BTF. */
	if (!strncmp(var, "current", 7)) {
		if (pc->user)
			return ERR(pc, BAD_VAR, offs);
		if (var[7] == '-')
			return kp_btf_parse_arg(pc, arg, pcode, end, offs);
		if (var[7])
			return ERR(pc, BAD_VAR, offs);
		code->op = I_CURRENT;
		return 0;
	}
	if (!strncmp(var, "arg", 3)) {
		/* As uprobe_events: no calling convention is assumed. */
		if (pc->user || k_strtoull(var + 3, 10, &param))
			return ERR(pc, BAD_VAR, offs);
		if (!pc->fentry)
			return ERR(pc, ARG_NOT_AT_ENTRY, offs);
		if (!param || param > max)
			return ERR(pc, BAD_ARG_NUM, offs);
		code->op = I_ARG;
		code->param = (uint32_t)param;
		return 0;
	}
	return ERR(pc, BAD_VAR, offs);
}

static int parse_reg(struct pctx *pc, const char *name, struct kinsn *code,
		     int offs)
{
	const struct kp_arch *a = NULL;
	int num;

	if (!pc->arch)
		return ERR(pc, NO_ARCH, offs);
	num = kp_arch_reg(pc->arch, name);
	if (num >= 0) {
		code->op = I_REG;
		code->param = (uint32_t)num;
		return 0;
	}
	while ((a = kp_arch_next(a))) {
		if (a != pc->arch && kp_arch_reg(a, name) >= 0)
			return kp_parse_set_err(pc->err, KP_E_OTHER_ARCH_REG,
				       pc->base + (size_t)offs,
				       "%%%s: %s register, not valid on %s",
				       name, a->name, pc->arch->name);
	}
	return ERR(pc, BAD_REG_NAME, offs);
}

/* @SYM[+|-OFFS]: the address of SYM + OFFS. */
static int resolve_sym(struct pctx *pc, const char *text, int offs,
		       int64_t *addr)
{
	char name[KPMOD_MAX_SYMBOL_LEN];
	const char *o = strpbrk(text, "+-");
	size_t len = o ? (size_t)(o - text) : strlen(text);
	int64_t off = 0;
	uint64_t a;
	int r;

	if (len == 0)
		return ERR(pc, BAD_MEM_ADDR, offs - 1);
	if (len >= sizeof(name))
		return ERR(pc, SYMBOL_TOO_LONG, offs);
	memcpy(name, text, len);
	name[len] = '\0';
	if (o && k_strtoll(o, 0, &off))
		return ERR(pc, BAD_SYM_OFFS, offs + (int)len);
	r = pc->resolve ? pc->resolve(name, &a, pc->rctx) : KP_RESOLVE_NONE;
	if (r != KP_RESOLVE_OK && r != KP_RESOLVE_MULTI && r != KP_RESOLVE_ABS)
		return kp_parse_set_err(pc->err, KP_E_UNKNOWN_SYMBOL,
			       pc->base + (size_t)offs, "Unknown symbol: %s",
			       name);
	*addr = (int64_t)(a + (uint64_t)off);
	return 0;
}

static int parse_fetch(struct pctx *pc, char *arg, struct kinsn **pcode,
		       struct kinsn *end, int offs);

#define THIS_CPU_PTR	"this_cpu_ptr("
#define THIS_CPU_READ	"this_cpu_read("

static bool is_this_cpu(const char *s)
{
	return !strncmp(s, THIS_CPU_PTR, strlen(THIS_CPU_PTR)) ||
	       !strncmp(s, THIS_CPU_READ, strlen(THIS_CPU_READ));
}

/* find_matched_close_paren(): the ')' that closes the '(' at @s. */
static char *matched_close(char *s)
{
	int depth = 0;

	for (; *s; s++) {
		if (*s == '(')
			depth++;
		else if (*s == ')' && --depth == 0)
			return s;
	}
	return NULL;
}

/*
 * handle_typecast(), 7.3's: (STRUCT[,FIELD])VAR->MEMBER...,
 * (STRUCT)(FETCHARG)->MEMBER... and (STRUCT)+OFFS(...)->MEMBER...; the
 * syntax first, then the FETCHARG inside, then the struct and its members
 * (kp_btf_cast()), as the kernel's forward pass and unwinding.
 */
static int parse_typecast(struct pctx *pc, char *arg, struct kinsn **pcode,
			  struct kinsn *end, int offs)
{
	int orig = offs;
	char *close, *tmp, *field, *open;

	if (pc->user || !pc->fentry)
		return ERR(pc, NOSUP_BTFARG, offs);
	tmp = strchr(arg, ')');
	if (!tmp)
		return ERR(pc, DEREF_OPEN_BRACE, offs + (int)strlen(arg));
	*tmp++ = '\0';
	offs += (int)(tmp - arg);
	if (*tmp == '(') {
		close = matched_close(tmp);
		if (!close)
			return ERR(pc, DEREF_OPEN_BRACE, offs);
		if (close[1] != '-' || close[2] != '>')
			return ERR(pc, TYPECAST_REQ_FIELD, offs + (int)(close - tmp) + 1);
		offs++;
		tmp++;
	} else if (*tmp == '+' || *tmp == '-' || is_this_cpu(tmp)) {
		/* A dereference may hold a member access of its own. */
		open = strchr(tmp + 1, '(');
		if (!open)
			return ERR(pc, DEREF_NEED_BRACE, offs);
		close = matched_close(open);
		if (!close)
			return ERR(pc, DEREF_OPEN_BRACE, offs + (int)strlen(tmp));
		close++;
		if (close[0] != '-' || close[1] != '>')
			return ERR(pc, TYPECAST_REQ_FIELD, offs + (int)(close - tmp));
	} else {
		/* The name ends at the first '-': @SYM-8->m would read SYM - 8. */
		if (tmp[0] == '@') {
			close = strpbrk(tmp, "+-");
			if (close && isdigit((unsigned char)close[1]))
				return ERR(pc, TYPECAST_SYM_OFFSET, offs);
		}
		close = strchr(tmp, '-');
		if (!close || close[1] != '>')
			return ERR(pc, TYPECAST_REQ_FIELD, offs + (int)strlen(tmp));
	}
	field = close + (close[1] == '-' ? 3 : 2);
	*close = '\0';
	if (parse_fetch(pc, tmp, pcode, end, offs))
		return -1;
	return kp_btf_cast(pc, arg + 1, field, pcode, end, orig + 1, orig + (int)(field - arg));
}

/*
 * The FETCHARG of a dereference or this_cpu_*() at @arg (@offs), up to
 * its last ')', then the step @op (@imm) on its value; this_cpu_ptr(@SYM)
 * takes SYM's own dereference for its step: SYM's address, not its value.
 */
static int parse_deref_body(struct pctx *pc, char *arg, struct kinsn **pcode,
			    struct kinsn *end, int offs, int op, int64_t imm)
{
	struct kinsn *code = *pcode;
	char *close = strrchr(arg, ')');

	if (!close)
		return ERR(pc, DEREF_OPEN_BRACE, offs + (int)strlen(arg));
	if (close[1] != '\0')
		return ERR(pc, DEREF_SUFFIX, offs + (int)(close + 1 - arg));
	*close = '\0';
	if (parse_fetch(pc, arg, &code, end, offs))
		return -1;
	if (code->op == I_COMM || code->op == I_DATA)
		return ERR(pc, COMM_CANT_DEREF, offs);
	if (!(op == I_CPU_PTR && arg[0] == '@') && ++code == end)
		return ERR(pc, TOO_MANY_OPS, offs);
	*pcode = code;
	code->op = op;
	code->imm = imm;
	/* What a name inside was is not what is read: no BTF type. */
	pc->btf.last_type = NULL;
	return 0;
}

/*
 * this_cpu_ptr(FETCHARG), this CPU's copy of the per-CPU variable at
 * FETCHARG's value (@SYM: at SYM's address, not its value), and
 * this_cpu_read(FETCHARG), the same read: +0(this_cpu_ptr(FETCHARG)).
 */
static int parse_this_cpu(struct pctx *pc, char *arg, struct kinsn **pcode,
			  struct kinsn *end, int offs)
{
	bool is_read = !strncmp(arg, THIS_CPU_READ, strlen(THIS_CPU_READ));
	size_t skip = strlen(is_read ? THIS_CPU_READ : THIS_CPU_PTR);
	struct kinsn *code;

	if (pc->user)
		return ERR(pc, NOSUP_PERCPU, offs);
	arg += skip;
	offs += (int)skip;
	if (parse_deref_body(pc, arg, pcode, end, offs, I_CPU_PTR, 0))
		return -1;
	if (is_read) {
		code = *pcode + 1;
		if (code == end)
			return ERR(pc, TOO_MANY_OPS, offs);
		code->op = I_DEREF;
		code->imm = 0;
		*pcode = code;
	}
	return 0;
}

/* parse_probe_arg(): *pcode is the slot to fill, then the last filled. */
static int parse_fetch(struct pctx *pc, char *arg, struct kinsn **pcode,
		       struct kinsn *end, int offs)
{
	struct kinsn *code = *pcode;
	uint64_t uval;
	int64_t offset = 0;
	char *tmp, *close, numbuf[72];
	bool user = false;
	int ret, ioffs;
	size_t len;

	/* Each nested form takes a level, 8 at most (7.3's limit). */
	if (arg[0] == '+' || arg[0] == '-' || arg[0] == '(' || is_this_cpu(arg)) {
		if (pc->depth >= KP_MAX_NESTED)
			return ERR(pc, TOO_MANY_NESTED, offs);
		pc->depth++;
	}
	if (arg[0] == '(')
		return parse_typecast(pc, arg, pcode, end, offs);
	if (is_this_cpu(arg))
		return parse_this_cpu(pc, arg, pcode, end, offs);

	switch (arg[0]) {
	case '$':
		return parse_vars(pc, arg, pcode, end, offs);

	case '%':
		return parse_reg(pc, arg + 1, code, offs);

	case '@':
		if (isdigit((unsigned char)arg[1])) {
			if (k_strtoull(arg + 1, 0, &uval))
				return ERR(pc, BAD_MEM_ADDR, offs);
			code->op = I_IMM;
			code->imm = (int64_t)uval;
		} else if (arg[1] == '+') {
			if (!pc->user)
				return ERR(pc, FILE_ON_KPROBE, offs);
			if (k_strtoll(arg + 2, 0, &offset))
				return ERR(pc, BAD_FILE_OFFS, offs);
			code->op = I_FOFFS;
			code->imm = offset;
		} else {
			if (pc->user)
				return ERR(pc, SYM_ON_UPROBE, offs);
			if (resolve_sym(pc, arg + 1, offs + 1, &offset))
				return -1;
			code->op = I_SYM;
			if (++code == end)
				return ERR(pc, TOO_MANY_OPS, offs);
			code->op = I_IMM;
			code->imm = offset;
		}
		if (++code == end)
			return ERR(pc, TOO_MANY_OPS, offs);
		*pcode = code;
		code->op = I_DEREF;
		code->imm = 0;
		return 0;

	case '+':
	case '-':
		tmp = arg + 1;
		if (*tmp == 'u') {
			user = true;
			tmp++;
		}
		close = strchr(tmp, '(');
		if (!close)
			return ERR(pc, DEREF_NEED_BRACE, offs);
		len = (size_t)(close - tmp);
		if (len + 2 > sizeof(numbuf))
			return ERR(pc, BAD_DEREF_OFFS, offs);
		/* "-OFFS" keeps its sign; "+OFFS" is parsed without it. */
		numbuf[0] = '-';
		memcpy(numbuf + 1, tmp, len);
		numbuf[len + 1] = '\0';
		if (k_strtoll(arg[0] == '-' ? numbuf : numbuf + 1, 0, &offset))
			return ERR(pc, BAD_DEREF_OFFS, offs);
		ioffs = offs + (int)(close + 1 - arg);
		return parse_deref_body(pc, close + 1, pcode, end, ioffs,
					user ? I_UDEREF : I_DEREF, offset);

	case '\\':
		if (arg[1] == '"') {
			len = strlen(arg + 2);
			if (!len || arg[2 + len - 1] != '"')
				return ERR(pc, IMMSTR_NO_CLOSE, offs + 2 + (int)len);
			len--;
			if (len + 1 > sizeof(pc->arg->data))
				return ERR(pc, ARG_TOO_LONG, offs);
			memcpy(pc->arg->data, arg + 2, len);
			pc->arg->data[len] = '\0';
			pc->arg->datalen = (unsigned int)len + 1;
			code->op = I_DATA;
			return 0;
		}
		/* str_to_immediate() */
		if (isdigit((unsigned char)arg[1]))
			ret = k_strtoull(arg + 1, 0, &uval);
		else if (arg[1] == '-')
			ret = k_strtoll(arg + 1, 0, &offset), uval = (uint64_t)offset;
		else if (arg[1] == '+')
			ret = k_strtoll(arg + 2, 0, &offset), uval = (uint64_t)offset;
		else
			ret = -EINVAL;
		if (ret)
			return ERR(pc, BAD_IMM, offs + 1);
		code->op = I_IMM;
		code->imm = (int64_t)uval;
		return 0;
	}
	/* A name: a parameter of the probed function, from BTF. */
	if (isalpha((unsigned char)arg[0]) || arg[0] == '_') {
		if (pc->user || !pc->fentry)
			return ERR(pc, NOSUP_BTFARG, offs);
		return kp_btf_parse_arg(pc, arg, pcode, end, offs);
	}
	return ERR(pc, BAD_FETCH_ARG, offs);
}

/* __parse_bitfield_probe_arg() */
static int parse_bitfield(const char *bf, unsigned int tsize,
			  struct kinsn **pcode)
{
	struct kinsn *code = *pcode;
	unsigned int bits = tsize * 8;
	const char *tail;
	uint64_t bw, bo;

	bw = k_simple_strtoul(bf + 1, &tail);
	if (bw == 0 || *tail != '@')
		return -1;
	bf = tail + 1;
	bo = k_simple_strtoul(bf, &tail);
	if (tail == bf || *tail != '/')
		return -1;
	code++;
	if (code->op != I_NOP)
		return -1;
	*pcode = code;
	/*
	 * The kernel tests bw + bo > bits, which wraps: b18446744073709551615@1
	 * passed, with shifts of 64 and 65 bits.
	 */
	if (bw > bits || bo > bits - bw)
		return -1;
	code->op = I_MOD_BF;
	code->lshift = bits - (unsigned int)(bw + bo);
	code->rshift = bits - (unsigned int)bw;
	code->size = tsize;
	return 0;
}

/*
 * Turns the kernel-shaped program into kpmod's.  A uprobe's (@user) reads
 * user memory wherever it reads memory: uprobe_events' dereferences and
 * strings are the process'.
 */
static void emit_prog(struct kp_arg_def *a, const struct kinsn *code, bool user)
{
	static const uint8_t map[] = {
		[I_REG] = KPMOD_FOP_REG, [I_STACK] = KPMOD_FOP_STACK,
		[I_STACKP] = KPMOD_FOP_STACKP, [I_RETVAL] = KPMOD_FOP_RETVAL,
		[I_IMM] = KPMOD_FOP_IMM, [I_COMM] = KPMOD_FOP_COMM,
		[I_ARG] = KPMOD_FOP_ARG, [I_DATA] = KPMOD_FOP_DATA,
		[I_DURATION] = KPMOD_FOP_DURATION, [I_FOFFS] = KPMOD_FOP_FILE_OFFSET,
		[I_CURRENT] = KPMOD_FOP_CURRENT, [I_CPU_PTR] = KPMOD_FOP_CPU_PTR,
		[I_DEREF] = KPMOD_FOP_DEREF, [I_UDEREF] = KPMOD_FOP_UDEREF,
		[I_ST_RAW] = KPMOD_FOP_ST_RAW, [I_ST_MEM] = KPMOD_FOP_ST_MEM,
		[I_ST_UMEM] = KPMOD_FOP_ST_UMEM,
		[I_ST_STRING] = KPMOD_FOP_ST_STRING,
		[I_ST_USTRING] = KPMOD_FOP_ST_USTRING,
		[I_MOD_BF] = KPMOD_FOP_MOD_BF, [I_LP_ARRAY] = KPMOD_FOP_LP_ARRAY,
	};
	bool own_string = code->op == I_COMM || code->op == I_DATA;
	struct kpmod_fetch_insn *out;
	unsigned int n = 0;

	for (; code->op != I_END; code++) {
		if (code->op == I_SYM)
			continue;
		if (code->op == I_ST_SYMSTR) {
			/* The symbol's address, 8 bytes: from memory if a
			 * dereference loaded it, else as it is. */
			if (n && a->insns[n - 1].op == KPMOD_FOP_DEREF) {
				out = &a->insns[n - 1];
				out->op = KPMOD_FOP_ST_MEM;
			} else {
				out = &a->insns[n++];
				memset(out, 0, sizeof(*out));
				out->op = KPMOD_FOP_ST_RAW;
			}
			out->size = 8;
			continue;
		}
		out = &a->insns[n++];
		memset(out, 0, sizeof(*out));
		out->op = map[code->op];
		switch (code->op) {
		case I_ST_RAW: case I_ST_MEM: case I_ST_UMEM: case I_MOD_BF:
			out->size = (uint8_t)code->size;
			break;
		}
		out->lshift = (uint8_t)code->lshift;
		out->rshift = (uint8_t)code->rshift;
		out->param = code->param;
		out->imm = code->imm;
		if (user && out->op == KPMOD_FOP_DEREF)
			out->op = KPMOD_FOP_UDEREF;
		else if (user && out->op == KPMOD_FOP_ST_MEM)
			out->op = KPMOD_FOP_ST_UMEM;
		else if (user && out->op == KPMOD_FOP_ST_STRING && !own_string)
			out->op = KPMOD_FOP_ST_USTRING;
	}
	memset(&a->insns[n], 0, sizeof(a->insns[n]));
	a->insns[n++].op = KPMOD_FOP_END;
	a->ninsns = n;
}

/* traceprobe_parse_probe_arg_body(): @offs is the body's offset in its word. */
static int parse_arg_body(struct pctx *pc, const char *body, int offs)
{
	struct kp_arg_def *a = pc->arg;
	struct kinsn code_buf[KPMOD_MAX_INSNS], *code, *scode;
	struct kp_type_info ti;
	char arg[KP_MAX_ARGSTR_LEN + 1], *t = NULL, *t2, *t3;
	const char *btf_type = NULL;
	size_t len = strlen(body);
	int tpos = offs;

	if (len > KP_MAX_ARGSTR_LEN)
		return ERR(pc, ARG_TOO_LONG, offs);
	if (len == 0)
		return ERR(pc, NO_ARG_BODY, offs);
	memcpy(arg, body, len + 1);

	t = strchr(arg, ':');
	if (t) {
		*t++ = '\0';
		tpos = offs + (int)(t - arg);
		t2 = strchr(t, '[');
		if (t2) {
			*t2++ = '\0';
			t3 = strchr(t2, ']');
			if (!t3)
				return ERR(pc, ARRAY_NO_CLOSE,
					   offs + (int)(t2 + strlen(t2) - arg));
			if (t3[1] != '\0')
				return ERR(pc, BAD_ARRAY_SUFFIX,
					   offs + (int)(t3 + 1 - arg));
			*t3 = '\0';
			if (k_strtouint(t2, 0, &a->count) || !a->count)
				return ERR(pc, BAD_ARRAY_NUM, offs + (int)(t2 - arg));
			if (a->count > KPMOD_MAX_ARRAY_LEN)
				return ERR(pc, ARRAY_TOO_BIG, offs + (int)(t2 - arg));
		}
	}

	/* $comm and an immediate string are strings, never arrays. */
	if (!strcmp(arg, "$comm") || !strcmp(arg, "$COMM") ||
	    !strncmp(arg, "\\\"", 2)) {
		if (a->count || (t && strcmp(t, "string")))
			return ERR(pc, STRING_ONLY, tpos);
		find_type("string", &ti);
	} else if (!find_type(!t && !strcmp(arg, "$duration") ? "u64" : t, &ti)) {
		/* A duration is a number of nanoseconds: u64 unless typed. */
		return ERR(pc, BAD_TYPE, tpos);
	}

	memset(code_buf, 0, sizeof(code_buf));
	code = code_buf;
	code_buf[KPMOD_MAX_INSNS - 1].op = I_END;
	pc->btf.last_type = NULL;
	pc->btf.used = false;
	pc->depth = 0;
	if (parse_fetch(pc, arg, &code, &code_buf[KPMOD_MAX_INSNS - 1], offs))
		return -1;
	/* A name's type from BTF, or its char * dereferenced for a string. */
	btf_type = t;
	if (kp_btf_fix_type(pc, t, &code, &btf_type))
		return -1;
	if (btf_type != t)
		find_type(btf_type, &ti);
	a->btf = pc->btf.used;
	a->type = ti.type;
	pc->size += ti.size * (a->count ? a->count : 1);
	if (pc->size > MAX_PROBE_EVENT_SIZE)
		return ERR(pc, EVENT_TOO_BIG, offs);

	/* Store operation */
	if (ti.is_string) {
		bool symstr = ti.type == KPMOD_T_SYMSTR;

		if (symstr) {
			if (code->op != I_REG && code->op != I_STACK &&
			    code->op != I_RETVAL && code->op != I_ARG &&
			    code->op != I_DEREF)
				return ERR(pc, BAD_SYMSTRING, tpos);
		} else if (code->op != I_DEREF && code->op != I_UDEREF &&
			   code->op != I_IMM && code->op != I_COMM &&
			   code->op != I_DATA) {
			return ERR(pc, BAD_STRING, tpos);
		}
		/*
		 * An array of strings repeats the last dereference one pointer
		 * further per element; the kernel's breaks at the second
		 * element of an immediate's (\IMM), so it is refused.
		 */
		if (a->count && code->op != I_DEREF && code->op != I_UDEREF)
			return ERR(pc, BAD_STRING, tpos);
		if (symstr || code->op == I_IMM || code->op == I_COMM ||
		    code->op == I_DATA || a->count) {
			/* Keep the value: it is the string's address (or an
			 * array of string addresses, or the symbol's). */
			code++;
			if (code->op != I_NOP)
				return ERR(pc, TOO_MANY_OPS, offs);
		}
		if (ti.type == KPMOD_T_USTRING || code->op == I_UDEREF)
			code->op = I_ST_USTRING;
		else if (symstr)
			code->op = I_ST_SYMSTR;
		else
			code->op = I_ST_STRING;
		code->size = 0;
	} else if (code->op == I_DEREF) {
		code->op = I_ST_MEM;
		code->size = ti.size;
	} else if (code->op == I_UDEREF) {
		code->op = I_ST_UMEM;
		code->size = ti.size;
	} else {
		code++;
		if (code->op != I_NOP)
			return ERR(pc, TOO_MANY_OPS, offs);
		code->op = I_ST_RAW;
		code->size = ti.size;
	}
	scode = code;

	/* Modify operation: a bitfield given, or a bitfield member's */
	if (t && *t == 'b' && parse_bitfield(t, ti.size, &code))
		return ERR(pc, BAD_BITFIELD, tpos);
	if (!t && kp_btf_bitfield(pc, ti.size, &code))
		return -1;

	/* Loop operation */
	if (a->count) {
		if (scode->op != I_ST_MEM && scode->op != I_ST_STRING &&
		    scode->op != I_ST_USTRING)
			return ERR(pc, BAD_STRING, tpos);
		code++;
		if (code->op != I_NOP)
			return ERR(pc, TOO_MANY_OPS, offs);
		code->op = I_LP_ARRAY;
		code->param = a->count;
	}
	code++;
	code->op = I_END;
	emit_prog(a, code_buf, pc->user);
	return 0;
}

/* traceprobe_parse_probe_arg(): @i-th argument, @word its text. */
static int parse_arg(struct pctx *pc, struct kp_probe_def *def,
		     unsigned int i, const char *word)
{
	struct kp_arg_def *a = &def->args[i];
	const char *body = strchr(word, '=');
	unsigned int j;

	memset(a, 0, sizeof(*a));
	pc->arg = a;
	if (body) {
		if (body - word > KPMOD_MAX_ARG_NAME_LEN - 1)
			return ERR(pc, ARG_NAME_TOO_LONG, 0);
		if (body == word)
			return ERR(pc, NO_ARG_NAME, 0);
		memcpy(a->name, word, (size_t)(body - word));
		a->name[body - word] = '\0';
		body++;
	} else {
		/* generate_probe_arg_name(): a name as it is (BTF's), else argN. */
		size_t n = strcspn(word, ":");

		if (n < sizeof(a->name)) {
			memcpy(a->name, word, n);
			a->name[n] = '\0';
		}
		if (n >= sizeof(a->name) || !good_name(a->name, false))
			snprintf(a->name, sizeof(a->name), "arg%u", i + 1);
		body = word;
	}
	if (!good_name(a->name, false))
		return ERR(pc, BAD_ARG_NAME, 0);
	for (j = 0; j < sizeof(reserved_field_names) /
			sizeof(reserved_field_names[0]); j++)
		if (!strcmp(a->name, reserved_field_names[j]))
			return ERR(pc, USED_ARG_NAME, 0);
	for (j = 0; j < i; j++)
		if (!strcmp(a->name, def->args[j].name))
			return ERR(pc, USED_ARG_NAME, 0);
	if (parse_arg_body(pc, body, (int)(body - word)))
		return -1;
	snprintf(a->text, sizeof(a->text), "%s=%s", a->name, body);
	return 0;
}

/* ---- the probe ---- */

/* traceprobe_parse_event_name(): @s is GRP/EVENT, GRP.EVENT, EVENT, GRP/. */
static int parse_event_name(struct pctx *pc, const char *s, int offs,
			    struct kp_probe_def *def, bool *have_event)
{
	const char *slash = strchr(s, '/');
	size_t len;

	if (!slash)
		slash = strchr(s, '.');
	*have_event = true;
	if (slash) {
		if (slash == s)
			return ERR(pc, NO_GROUP_NAME, offs);
		if ((size_t)(slash - s) + 1 > KPMOD_MAX_NAME_LEN)
			return ERR(pc, GROUP_TOO_LONG, offs);
		memcpy(def->group, s, (size_t)(slash - s));
		def->group[slash - s] = '\0';
		if (!good_name(def->group, true))
			return ERR(pc, BAD_GROUP_NAME, offs);
		offs += (int)(slash - s) + 1;
		s = slash + 1;
	}
	len = strlen(s);
	if (len == 0) {
		if (slash) {
			*have_event = false;
			return 0;
		}
		return ERR(pc, NO_EVENT_NAME, offs);
	}
	if (len >= KPMOD_MAX_NAME_LEN)
		return ERR(pc, EVENT_TOO_LONG, offs);
	if (!good_name(s, false))
		return ERR(pc, BAD_EVENT_NAME, offs);
	memcpy(def->event, s, len + 1);
	return 0;
}

/* -:[GRP/]EVENT (GRP/ alone: every event of GRP) */
static int parse_del(struct pctx *pc, struct word *w, size_t nw,
		     struct kp_probe_def *def)
{
	const char *s = w[0].s, *slash;
	size_t len;

	if (s[1] != ':')
		return ERR(pc, BAD_COMMAND, 1);
	s += 2;
	slash = strchr(s, '/');
	if (slash) {
		if (slash == s)
			return ERR(pc, NO_GROUP_NAME, 2);
		if ((size_t)(slash - s) >= KPMOD_MAX_NAME_LEN)
			return ERR(pc, GROUP_TOO_LONG, 2);
		memcpy(def->group, s, (size_t)(slash - s));
		def->group[slash - s] = '\0';
		if (!good_name(def->group, true))
			return ERR(pc, BAD_GROUP_NAME, 2);
		s = slash + 1;
	} else if (!*s) {
		return ERR(pc, NO_EVENT_NAME, 2);
	}
	len = strlen(s);
	if (len >= KPMOD_MAX_NAME_LEN)
		return ERR(pc, EVENT_TOO_LONG, s - w[0].s);
	if (len && !good_name(s, false))
		return ERR(pc, BAD_EVENT_NAME, s - w[0].s);
	memcpy(def->event, s, len + 1);
	if (nw > 1) {
		pc->base = w[1].pos;
		return ERR(pc, DEL_EXTRA_ARGS, 0);
	}
	snprintf(def->definition, sizeof(def->definition), "%s", w[0].s);
	return 0;
}

/* The kernel's "p_<basename to its first . - _>_0x<offset>", 'p' for returns too. */
static void uprobe_event_name(const struct kp_probe_def *def, char *name, size_t size)
{
	const char *base = strrchr(def->path, '/');
	char tail[KPMOD_MAX_PATH_LEN];

	char *c;

	snprintf(tail, sizeof(tail), "%s", base ? base + 1 : def->path);
	tail[strcspn(tail, ".-_")] = '\0';
	/* kpmod's: what else a file name holds cannot be in an event name. */
	for (c = tail; *c; c++)
		if (!isalnum((unsigned char)*c))
			*c = '_';
	/* The whole name is cut at 63 characters later, as the kernel cuts it. */
	snprintf(name, size, "p_%.64s_0x%llx", tail, (unsigned long long)def->offset);
}

static size_t uprobe_printback(struct kp_probe_def *def)
{
	size_t pos;

	pos = (size_t)snprintf(def->definition, sizeof(def->definition), "%c:%s/%s %s:0x%016llx",
			       def->kind == KPMOD_PROBE_URETPROBE ? 'r' : 'p', def->group,
			       def->event, def->path, (unsigned long long)def->offset);
	if (def->ref_ctr_offset && pos < sizeof(def->definition))
		pos += (size_t)snprintf(def->definition + pos, sizeof(def->definition) - pos,
					"(0x%llx)", (unsigned long long)def->ref_ctr_offset);
	return pos;
}

static size_t kprobe_printback(struct kp_probe_def *def)
{
	bool is_return = def->kind == KPMOD_PROBE_RETURN;
	size_t pos;

	pos = (size_t)snprintf(def->definition, sizeof(def->definition),
			       "%c", is_return ? 'r' : 'p');
	if (def->maxactive)
		pos += (size_t)snprintf(def->definition + pos,
					sizeof(def->definition) - pos, "%u",
					def->maxactive);
	pos += (size_t)snprintf(def->definition + pos,
				sizeof(def->definition) - pos, ":%s/%s ",
				def->group, def->event);
	if (def->has_addr)
		pos += (size_t)snprintf(def->definition + pos,
					sizeof(def->definition) - pos,
					"0x%016llx",
					(unsigned long long)def->addr);
	else
		pos += (size_t)snprintf(def->definition + pos,
					sizeof(def->definition) - pos,
					"%s%s%s", def->module,
					def->module[0] ? ":" : "", def->symbol);
	if (!def->has_addr && def->offset)
		pos += (size_t)snprintf(def->definition + pos,
					sizeof(def->definition) - pos,
					"+%u", (unsigned int)def->offset);
	return pos;
}

/*
 * A uprobe's PATH:OFFSET[(REF_CTR_OFFSET)][%return], as
 * __trace_uprobe_create(): @s is the word, its positions the caret's.
 */
static int parse_uprobe_place(struct pctx *pc, const char *s, struct kp_probe_def *def)
{
	char buf[KPMOD_MAX_PATH_LEN + 64], msg[sizeof(pc->err->msg)];
	char *arg, *rctr, *rctr_end, *tmp;
	size_t len = strlen(s);
	int code;

	if (len >= sizeof(buf))
		return ERR(pc, FILE_NOT_FOUND, 0);
	memcpy(buf, s, len + 1);
	/* The last ':', as a path may hold one too. */
	arg = strrchr(buf, ':');
	*arg++ = '\0';
	if ((size_t)(arg - 1 - buf) >= sizeof(def->path))
		return ERR(pc, FILE_NOT_FOUND, 0);
	strcpy(def->path, buf);
	code = kp_uprobe_check_file(def->path, UINT64_MAX, pc->arch, msg, sizeof(msg));
	if (code)
		return kp_parse_set_err(pc->err, code, pc->base, "%s", msg);

	rctr = strchr(arg, '(');
	if (rctr) {
		rctr_end = strchr(rctr, ')');
		if (!rctr_end)
			return ERR(pc, REFCNT_OPEN_BRACE, rctr + strlen(rctr) - buf);
		if (rctr_end[1] != '\0')
			return ERR(pc, BAD_REFCNT_SUFFIX, rctr_end + 1 - buf);
		*rctr++ = '\0';
		*rctr_end = '\0';
		if (k_strtoull(rctr, 0, &def->ref_ctr_offset))
			return ERR(pc, BAD_REFCNT, rctr - buf);
	}
	tmp = strchr(arg, '%');
	if (tmp) {
		if (strcmp(tmp, "%return"))
			return ERR(pc, BAD_ADDR_SUFFIX, tmp - buf);
		*tmp = '\0';
		pc->is_return = true;
	}
	if (k_strtoull(arg, 0, &def->offset))
		return ERR(pc, BAD_UPROBE_OFFS, arg - buf);
	code = kp_uprobe_check_file(def->path, def->offset, pc->arch, msg, sizeof(msg));
	if (code)
		return kp_parse_set_err(pc->err, code, pc->base + (size_t)(arg - buf), "%s", msg);
	return 0;
}

/* Whether @s names a uprobe's place: a path, then ':' and a digit. */
static bool is_uprobe_place(const char *s)
{
	const char *colon = strrchr(s, ':');

	return strchr(s, '/') && colon && isdigit((unsigned char)colon[1]);
}

/* The words after the probed place, @w (@nw of them), into @def's arguments. */
static int parse_args(struct pctx *pc, const struct word *w, size_t nw, struct kp_probe_def *def)
{
	size_t room = nw > KPMOD_MAX_ARGS ? nw : KPMOD_MAX_ARGS;
	size_t bufsize = KPMOD_MAX_ARGS * (KP_MAX_ARGSTR_LEN + 1);
	struct word *args = calloc(room, sizeof(*args));
	char *buf = malloc(bufsize), *dbuf = malloc(bufsize);
	size_t i;
	int ret = -1;

	if (!args || !buf || !dbuf) {
		kp_parse_set_err(pc->err, KP_E_EMPTY, 0, "Out of memory");
		goto out;
	}
	memcpy(args, w, nw * sizeof(*w));
	if (!pc->user && (kp_btf_expand_args(pc, args, &nw, buf, bufsize) ||
			  kp_btf_expand_dentry(pc, args, nw, dbuf, bufsize)))
		goto out;
	for (i = 0; i < nw; i++) {
		pc->base = args[i].pos;
		if (i >= KPMOD_MAX_ARGS) {
			ERR(pc, TOO_MANY_ARGS, 0);
			goto out;
		}
		if (parse_arg(pc, def, (unsigned int)i, args[i].s)) {
			/* A word made from $arg* or $argN: the caret at the one given. */
			if (args[i].expanded)
				pc->err->pos = (unsigned int)args[i].pos;
			goto out;
		}
		def->nargs++;
	}
	ret = 0;
out:
	free(args);
	free(buf);
	free(dbuf);
	return ret;
}

static int parse_add(struct pctx *pc, struct word *w, size_t nw,
		     size_t textlen, struct kp_probe_def *def)
{
	const char *w0 = w[0].s, *event;
	char buf[KPMOD_MAX_NAME_LEN], sym[KPMOD_MAX_SYMBOL_LEN +
					   KPMOD_MAX_MODULE_LEN + 1];
	char *tmp, *colon;
	int64_t offset = 0;
	bool have_event = false;
	size_t len, pos, i;
	int n;

	pc->is_return = w0[0] == 'r';
	event = strchr(w0 + 1, ':');
	if (event)
		event++;

	pc->user = nw > 1 && is_uprobe_place(w[1].s);
	if (isdigit((unsigned char)w0[1])) {
		if (pc->user)
			return ERR(pc, MAXACT_ON_UPROBE, 1);
		if (!pc->is_return)
			return ERR(pc, MAXACT_NO_KPROBE, 1);
		len = event ? (size_t)(event - w0 - 2) : strlen(w0 + 1);
		if (len > KPMOD_MAX_NAME_LEN - 1)
			return ERR(pc, BAD_MAXACT, 1);
		memcpy(buf, w0 + 1, len);
		buf[len] = '\0';
		if (k_strtouint(buf, 0, &def->maxactive) || !def->maxactive)
			return ERR(pc, BAD_MAXACT, 1);
		if (def->maxactive > KPMOD_MAX_MAXACTIVE)
			return ERR(pc, MAXACT_TOO_BIG, 1);
	} else if (w0[1] != '\0' && w0[1] != ':') {
		return ERR(pc, BAD_COMMAND, 1);
	}

	if (nw < 2) {
		pc->base = 0;
		return ERR(pc, NO_PROBE_POINT, textlen);
	}

	/* The probed place: an address, else [MOD:]SYM[+OFFS][%return]. */
	pc->base = w[1].pos;
	if (pc->user) {
		if (parse_uprobe_place(pc, w[1].s, def))
			return -1;
	} else if (!k_strtoull(w[1].s, 0, &def->addr)) {
		def->has_addr = true;
	} else if (strchr(w[1].s, '/') && strrchr(w[1].s, ':')) {
		/* A path, then no number: neither parser of the kernel takes it. */
		return ERR(pc, BAD_UPROBE_OFFS, strrchr(w[1].s, ':') + 1 - w[1].s);
	} else {
		len = strlen(w[1].s);
		if (len >= sizeof(sym))
			return ERR(pc, SYMBOL_TOO_LONG, 0);
		memcpy(sym, w[1].s, len + 1);
		tmp = strchr(sym, '%');
		if (tmp) {
			if (strcmp(tmp, "%return"))
				return ERR(pc, BAD_ADDR_SUFFIX, tmp - sym);
			*tmp = '\0';
			pc->is_return = true;
		}
		tmp = strpbrk(sym, "+-");
		if (tmp) {
			if (k_strtoll(tmp, 0, &offset))
				return ERR(pc, BAD_PROBE_ADDR, 0);
			*tmp = '\0';
		}
		if (offset < 0 || offset > UINT_MAX)
			return ERR(pc, BAD_PROBE_ADDR, 0);
		def->offset = (uint64_t)offset;
		if (pc->is_return && offset != 0)
			return ERR(pc, BAD_RETPROBE, 0);
		pc->fentry = offset == 0;

		colon = strchr(sym, ':');
		if (colon) {
			if (colon == sym || !colon[1])
				return ERR(pc, BAD_PROBE_ADDR, 0);
			if ((size_t)(colon - sym) >= KPMOD_MAX_MODULE_LEN)
				return ERR(pc, MODULE_TOO_LONG, 0);
			memcpy(def->module, sym, (size_t)(colon - sym));
			def->module[colon - sym] = '\0';
		}
		tmp = colon ? colon + 1 : sym;
		if (!*tmp)
			return ERR(pc, BAD_PROBE_ADDR, 0);
		if (strlen(tmp) >= KPMOD_MAX_SYMBOL_LEN)
			return ERR(pc, SYMBOL_TOO_LONG, 0);
		strcpy(def->symbol, tmp);
		if (!colon && pc->resolve) {
			n = pc->resolve(def->symbol, NULL, pc->rctx);
			if (n == KP_RESOLVE_MULTI)
				return ERR(pc, NON_UNIQ_SYMBOL, 0);
			if (n != KP_RESOLVE_OK && n != KP_RESOLVE_UNAVAIL)
				return ERR(pc, BAD_PROBE_ADDR, 0);
		}
	}
	if (pc->user)
		def->kind = pc->is_return ? KPMOD_PROBE_URETPROBE : KPMOD_PROBE_UPROBE;
	else
		def->kind = pc->is_return ? KPMOD_PROBE_RETURN : KPMOD_PROBE_ENTRY;
	if (!pc->is_return)
		def->maxactive = 0;

	/* The names */
	pc->base = w[0].pos;
	strcpy(def->group, pc->user ? KP_DEFAULT_UGROUP : KP_DEFAULT_GROUP);
	if (event && parse_event_name(pc, event, (int)(event - w0), def,
				      &have_event))
		return -1;
	if (!have_event) {
		char name[sizeof(sym) + 32], *p;

		if (pc->user)
			uprobe_event_name(def, name, sizeof(name));
		else if (def->has_addr)
			snprintf(name, sizeof(name), "%c_0x%016llx",
				 pc->is_return ? 'r' : 'p',
				 (unsigned long long)def->addr);
		else
			snprintf(name, sizeof(name), "%c_%s_%lld",
				 pc->is_return ? 'r' : 'p', sym,
				 (long long)offset);
		/* cut at MAX_EVENT_NAME_LEN - 1, as the kernel's snprintf */
		memcpy(def->event, name, sizeof(def->event) - 1);
		def->event[sizeof(def->event) - 1] = '\0';
		/* sanitize_event_name(): the first character is kept. */
		for (p = def->event; *p++ != '\0';)
			if (*p == ':' || *p == '.')
				*p = '_';
	}

	/* The arguments, $arg* and a bare $argN first named from BTF */
	if (!pc->user && !def->has_addr) {
		pc->btf.func = def->symbol;
		pc->btf.module = def->module;
	}
	if (parse_args(pc, w + 2, nw - 2, def))
		return -1;

	/* The printback, as trace_uprobe_show() or trace_kprobe_show() */
	if (pc->user)
		pos = uprobe_printback(def);
	else
		pos = kprobe_printback(def);
	for (i = 0; i < def->nargs && pos < sizeof(def->definition); i++)
		pos += (size_t)snprintf(def->definition + pos,
					sizeof(def->definition) - pos, " %s",
					def->args[i].text);
	if (pos >= sizeof(def->definition)) {
		pc->base = 0;
		return ERR(pc, DEF_TOO_LONG, 0);
	}
	return 0;
}

/* The offset of word @n (from 0) of @text, or its length if it has fewer. */
static size_t word_pos(const char *text, unsigned int n)
{
	size_t i = 0, start, end, len = strlen(text);
	unsigned int w = 0;

	while (kp_next_word(text, len, &i, &start, &end))
		if (w++ == n)
			return start;
	return len;
}

/* Which word of @text @pos falls in, and @pos's offset into it. */
static unsigned int word_of(const char *text, size_t pos, size_t *delta)
{
	unsigned int n = 0;

	while (word_pos(text, n + 1) <= pos && word_pos(text, n + 1) < strlen(text))
		n++;
	*delta = pos - word_pos(text, n);
	return n;
}

/*
 * A u: definition: parsed as the p: definition it expands to; an error
 * there points into @text: at the same byte of a FETCHARG given as it is,
 * else at the start of the word that made the expanded one.
 */
static int parse_usdt(const char *text, const struct kp_arch *arch, kp_resolve_fn resolve,
		      void *ctx, enum kp_def_op *op, struct kp_probe_def *out,
		      struct kp_parse_err *err)
{
	char expanded[KPMOD_MAX_DEF_LEN];
	unsigned int w, given = 0;
	size_t delta;

	if (op)
		*op = KP_DEF_ADD;
	if (kp_usdt_expand(text, arch, expanded, sizeof(expanded), err))
		return -1;
	if (!kp_parse_def(expanded, arch, resolve, ctx, op, out, err))
		return 0;
	while (word_pos(text, given + 1) < strlen(text))
		given++;
	w = word_of(expanded, err->pos, &delta);
	if (w >= 2 && given >= 2)
		err->pos = (unsigned int)(word_pos(text, w) +
					  (strncmp(text + word_pos(text, w), expanded + word_pos(expanded, w),
						   delta) ? 0 : delta));
	else
		err->pos = (unsigned int)word_pos(text, w < 2 ? w : 1);
	return -1;
}

int kp_parse_def(const char *text, const struct kp_arch *arch,
		 kp_resolve_fn resolve, void *ctx, enum kp_def_op *op,
		 struct kp_probe_def *out, struct kp_parse_err *err)
{
	return kp_parse_def_btf(text, arch, resolve, ctx, NULL, op, out, err);
}

int kp_parse_def_btf(const char *text, const struct kp_arch *arch,
		     kp_resolve_fn resolve, void *ctx, struct kp_btf *btf,
		     enum kp_def_op *op, struct kp_probe_def *out, struct kp_parse_err *err)
{
	struct kp_parse_err dummy;
	struct pctx pc;
	struct word *w = NULL;
	size_t textlen = strlen(text), nw = 0, i, start, end;
	char *copy;
	int ret;

	if (!err)
		err = &dummy;
	memset(err, 0, sizeof(*err));
	/*
	 * Not the arguments' slots nor the printed definition (68 of its 69
	 * KiB): the parser fills them as far as nargs and the NUL, and
	 * zeroing them all was half of the CLI's work in adding a thousand.
	 */
	memset(out, 0, offsetof(struct kp_probe_def, args));
	out->definition[0] = '\0';
	memset(&pc, 0, sizeof(pc));
	pc.arch = arch ? arch : kp_arch_native();
	if (text[word_pos(text, 0)] == 'u')
		return parse_usdt(text, pc.arch, resolve, ctx, op, out, err);
	pc.resolve = resolve;
	pc.rctx = ctx;
	pc.err = err;
	pc.btf.kb = btf;

	/* argv_split(): words between blanks, with their offsets. */
	copy = strdup(text);
	w = calloc(textlen / 2 + 1, sizeof(*w));
	if (!copy || !w) {
		free(copy);
		free(w);
		return kp_parse_set_err(err, KP_E_EMPTY, 0, "Out of memory");
	}
	for (i = 0; kp_next_word(copy, textlen, &i, &start, &end); i++) {
		w[nw].s = copy + start;
		w[nw++].pos = start;
		copy[end] = '\0';
	}

	if (nw == 0) {
		ret = kp_parse_set_err(err, KP_E_EMPTY, textlen, NULL);
	} else {
		pc.base = w[0].pos;
		switch (w[0].s[0]) {
		case '-':
			if (op)
				*op = KP_DEF_DEL;
			ret = parse_del(&pc, w, nw, out);
			break;
		case 'p':
		case 'r':
			if (op)
				*op = KP_DEF_ADD;
			ret = parse_add(&pc, w, nw, textlen, out);
			break;
		default:
			ret = ERR(&pc, BAD_COMMAND, 0);
		}
	}
	free(copy);
	free(w);
	return ret;
}
