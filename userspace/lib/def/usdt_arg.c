// SPDX-License-Identifier: GPL-2.0
/*
 * A USDT argument spec ("SIZE@LOCATION", SIZE negative when signed, the
 * location in the assembler's operand syntax) as a uprobe_events FETCHARG.
 *   x86_64: %REG, $IMM, DISP(%REG), SYM[+-DISP](%rip)
 *   arm64:  xN/wN/sp, IMM, [REG], [REG, IMM]
 */
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "usdt.h"

/* A signed number written as the assembler writes it. */
struct num {
	bool neg;
	unsigned long long mag;
};

struct conv {
	const struct kp_elf *e;
	uint64_t pc;
	char type[4];		/* u8..u64, s8..s64 */
	char *out;
	size_t outlen;
	char *err;
	size_t errlen;
};

static int fail(struct conv *c, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	return ret;
}

static int emit(struct conv *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(c->out, c->outlen, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= c->outlen)
		return fail(c, -E2BIG, "fetcharg too long");
	return 0;
}

/* The whole of @s[0..@len) as a number: decimal, 0x hex or 0 octal. */
static bool parse_num(const char *s, size_t len, struct num *v)
{
	char buf[32], *end;

	v->neg = len && *s == '-';
	s += v->neg;
	len -= v->neg;
	if (!len || len >= sizeof(buf) || *s < '0' || *s > '9')
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	v->mag = strtoull(buf, &end, 0);
	return !errno && *end == '\0';
}

static bool parse_num_str(const char *s, struct num *v)
{
	return parse_num(s, strlen(s), v);
}

/* "-4@" → s32; sets *@loc to what follows the '@'. */
static int parse_size(struct conv *c, const char *spec, const char **loc)
{
	const char *at = strchr(spec, '@');
	struct num n;

	if (!at)
		return fail(c, -EINVAL, "'%s' has no SIZE@", spec);
	if (!parse_num(spec, (size_t)(at - spec), &n) ||
	    (n.mag != 1 && n.mag != 2 && n.mag != 4 && n.mag != 8))
		return fail(c, -EINVAL, "bad size in '%s' (1, 2, 4 or 8, negative if signed)",
			    spec);
	snprintf(c->type, sizeof(c->type), "%c%llu", n.neg ? 's' : 'u', n.mag * 8);
	*loc = at + 1;
	if (!**loc)
		return fail(c, -EINVAL, "'%s' has no location", spec);
	return 0;
}

static int emit_imm(struct conv *c, const struct num *v)
{
	return emit(c, "\\%s%llu:%s", v->neg ? "-" : "", v->mag, c->type);
}

static int emit_deref(struct conv *c, const struct num *d, const char *reg)
{
	return emit(c, "%c%llu(%%%s):%s", d->neg ? '-' : '+', d->mag, reg, c->type);
}

/* x86_64: a register as the assembler names it → pt_regs' name, or NULL. */
static const char *x86_reg(const char *r)
{
	static const char *const regs[][5] = {
		{ "ax", "rax", "eax", "ax", "al" }, { "bx", "rbx", "ebx", "bx", "bl" },
		{ "cx", "rcx", "ecx", "cx", "cl" }, { "dx", "rdx", "edx", "dx", "dl" },
		{ "si", "rsi", "esi", "si", "sil" }, { "di", "rdi", "edi", "di", "dil" },
		{ "bp", "rbp", "ebp", "bp", "bpl" }, { "sp", "rsp", "esp", "sp", "spl" },
		{ "ip", "rip", "eip", "ip", "" },
	};
	static const char *const hi[] = { "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15" };
	size_t i, j, len;

	for (i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
		for (j = 1; j < 5; j++)
			if (*regs[i][j] && !strcmp(r, regs[i][j]))
				return regs[i][0];
	for (i = 0; i < sizeof(hi) / sizeof(hi[0]); i++) {
		len = strlen(hi[i]);
		if (!strncmp(r, hi[i], len) && (!r[len] || (strchr("dwb", r[len]) && !r[len + 1])))
			return hi[i];
	}
	return NULL;
}

static int x86_reg_or_fail(struct conv *c, const char *r, const char **pt)
{
	if (*r != '%')
		return fail(c, -EINVAL, "'%s' is not a register", r);
	*pt = x86_reg(r + 1);
	if (*pt)
		return 0;
	if (strlen(r) == 3 && strchr("abcd", r[1]) && r[2] == 'h')
		return fail(c, -ENOTSUP, "high-byte register %s not supported", r);
	return fail(c, -EINVAL, "unknown x86_64 register '%s'", r);
}

/* SYM, SYM+DISP or SYM-DISP relative to %rip: @+OFFSET of the same file. */
static int x86_rip_sym(struct conv *c, const char *disp)
{
	const struct kp_elf_seg *seg = kp_elf_seg_of(c->e, c->pc);
	char sym[256];
	size_t len = strcspn(disp, "+-");
	uint64_t addr;
	struct num d = { false, 0 };
	int ret;

	if (!len || len >= sizeof(sym) || (disp[len] && !parse_num_str(disp + len + 1, &d)))
		return fail(c, -EINVAL, "bad %%rip-relative address '%s'", disp);
	memcpy(sym, disp, len);
	sym[len] = '\0';
	ret = kp_elf_symbol(c->e, sym, &addr);
	if (ret == -ENOENT)
		return fail(c, ret, "symbol %s not in the file's symbol tables", sym);
	if (ret)
		return fail(c, ret, "symbol %s: %s", sym, strerror(-ret));
	if (!seg)
		return fail(c, -EINVAL, "the marker's address is in no segment");
	addr += disp[len] == '-' ? -d.mag : d.mag;
	/* uprobe_events adds it to the probed segment's load base. */
	return emit(c, "@+0x%llx:%s",
		    (unsigned long long)(addr - (seg->vaddr - seg->offset)), c->type);
}

/* DISP(%REG) and SYM(%rip). */
static int x86_mem(struct conv *c, const char *loc)
{
	const char *open = strchr(loc, '('), *reg;
	char disp[256], inner[32];
	size_t dlen, ilen;
	struct num d = { false, 0 };
	int ret;

	dlen = (size_t)(open - loc);
	ilen = strlen(open + 1);
	if (!ilen || open[ilen] != ')' || dlen >= sizeof(disp) || ilen > sizeof(inner))
		return fail(c, -EINVAL, "bad memory operand '%s'", loc);
	memcpy(disp, loc, dlen);
	disp[dlen] = '\0';
	memcpy(inner, open + 1, ilen - 1);
	inner[ilen - 1] = '\0';
	if (strchr(inner, ','))
		return fail(c, -ENOTSUP, "indexed addressing not supported");
	ret = x86_reg_or_fail(c, inner, &reg);
	if (ret)
		return ret;
	if (dlen && !parse_num_str(disp, &d)) {
		if (!strcmp(reg, "ip"))
			return x86_rip_sym(c, disp);
		return fail(c, -ENOTSUP, "symbol-relative address '%s' not supported", loc);
	}
	if (!strcmp(reg, "ip"))
		return fail(c, -ENOTSUP, "%%rip-relative address without a symbol not supported");
	return emit_deref(c, &d, reg);
}

/* Whether @loc can only be arm64's syntax. */
static bool looks_arm64(const char *loc)
{
	struct num n;

	return *loc == '[' || parse_num_str(loc, &n) || *loc == '#' ||
	       ((*loc == 'x' || *loc == 'w') && loc[1] >= '0' && loc[1] <= '9') ||
	       !strcmp(loc, "sp");
}

static bool looks_x86(const char *loc)
{
	return strpbrk(loc, "%$(") != NULL;
}

static int x86_arg(struct conv *c, const char *loc)
{
	const char *reg;
	struct num n;
	int ret;

	if (*loc == '%') {
		if (strchr(loc, ':'))
			return fail(c, -ENOTSUP, "segment-relative address '%s' not supported", loc);
		ret = x86_reg_or_fail(c, loc, &reg);
		return ret ? ret : emit(c, "%%%s:%s", reg, c->type);
	}
	if (*loc == '$') {
		if (!parse_num_str(loc + 1, &n))
			return fail(c, -ENOTSUP, "immediate '%s' not supported", loc);
		return emit_imm(c, &n);
	}
	if (strchr(loc, '('))
		return x86_mem(c, loc);
	if (looks_arm64(loc))
		return fail(c, -EINVAL, "'%s' is arm64 syntax: the file is x86_64", loc);
	return fail(c, -EINVAL, "unrecognised x86_64 operand '%s'", loc);
}

/* arm64: xN, wN (N 0..30), sp, wsp, xzr, wzr → the FETCHARG for it. */
static int arm64_reg(const char *r, char *name, size_t len)
{
	struct num n;

	if (!strcmp(r, "sp") || !strcmp(r, "wsp")) {
		snprintf(name, len, "%%sp");
		return 0;
	}
	if (!strcmp(r, "xzr") || !strcmp(r, "wzr")) {
		snprintf(name, len, "\\0");
		return 0;
	}
	if ((*r != 'x' && *r != 'w') || strlen(r) > 3 || r[1] == '-' ||
	    !parse_num_str(r + 1, &n) || n.mag > 30 || (r[1] == '0' && r[2]))
		return -EINVAL;
	snprintf(name, len, "%%x%llu", n.mag);
	return 0;
}

static void trim(char *s)
{
	size_t n = strlen(s), i = 0;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	while (s[i] == ' ' || s[i] == '\t')
		i++;
	memmove(s, s + i, n - i + 1);
}

/* [REG] or [REG, IMM]. */
static int arm64_mem(struct conv *c, const char *loc)
{
	char inner[64], reg[16], *comma, *off;
	size_t len = strlen(loc);
	struct num d = { false, 0 };

	if (len < 3 || loc[len - 1] != ']' || len - 2 >= sizeof(inner))
		return fail(c, -EINVAL, "bad memory operand '%s'", loc);
	memcpy(inner, loc + 1, len - 2);
	inner[len - 2] = '\0';
	comma = strchr(inner, ',');
	off = comma ? comma + 1 : NULL;
	if (comma)
		*comma = '\0';
	trim(inner);
	if (arm64_reg(inner, reg, sizeof(reg)) || *reg != '%')
		return fail(c, -EINVAL, "unknown arm64 base register '%s'", inner);
	if (off) {
		trim(off);
		off += *off == '#';
		if (*off == ':')
			return fail(c, -ENOTSUP, "symbol-relative address (%s) not supported", off);
		if (!parse_num_str(off, &d) && (*off == 'x' || *off == 'w'))
			return fail(c, -ENOTSUP, "indexed addressing not supported");
		if (!parse_num_str(off, &d))
			return fail(c, -EINVAL, "bad offset '%s' in '%s'", off, loc);
	}
	return emit_deref(c, &d, reg + 1);
}

static int arm64_arg(struct conv *c, const char *loc)
{
	char reg[16];
	struct num n;

	if (*loc == '[')
		return arm64_mem(c, loc);
	if (parse_num_str(loc + (*loc == '#'), &n))
		return emit_imm(c, &n);
	if (!arm64_reg(loc, reg, sizeof(reg)))
		return emit(c, "%s:%s", reg, c->type);
	if (looks_x86(loc))
		return fail(c, -EINVAL, "'%s' is x86_64 syntax: the file is arm64", loc);
	return fail(c, -EINVAL, "unrecognised arm64 operand '%s'", loc);
}

int kp_usdt_arg_fetch(const struct kp_elf *e, uint64_t pc, const char *spec,
		      char *out, size_t outlen, char *err, size_t errlen)
{
	struct conv c = { .e = e, .pc = pc, .out = out, .outlen = outlen,
			  .err = err, .errlen = errlen };
	const char *loc = NULL;
	int ret;

	if (outlen)
		*out = '\0';
	ret = parse_size(&c, spec, &loc);
	if (ret)
		return ret;
	if (e->machine == EM_X86_64)
		return x86_arg(&c, loc);
	if (e->machine == EM_AARCH64)
		return arm64_arg(&c, loc);
	return fail(&c, -ENOTSUP, "unsupported machine %u", e->machine);
}
