// SPDX-License-Identifier: GPL-2.0
/*
 * The probe definition parser and compiler: every valid form, the fetch
 * programs, the printback, and the error cases of the kernel's
 * tools/testing/selftests/ftrace/test.d/kprobe/kprobe_syntax_errors.tc
 * with the same caret position.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe_def.h"
#include "suites.h"

#define SDATA	0xffffffff82000000ULL
#define BANNER	0xffffffff82a00100ULL

static int test_resolve(const char *sym, uint64_t *addr, void *ctx)
{
	static const struct { const char *name; uint64_t addr; } syms[] = {
		{ "vfs_read", 0xffffffff81400000ULL },
		{ "do_sys_open", 0xffffffff81410000ULL },
		{ "do_sys_openat2", 0xffffffff81420000ULL },
		{ "inet_csk_accept", 0xffffffff81500000ULL },
		{ "kernel_clone", 0xffffffff81080000ULL },
		{ "tracefs_create_dir", 0xffffffff81600000ULL },
		{ "foo.isra.0", 0xffffffff81700000ULL },
		{ "_sdata", SDATA },
		{ "linux_proc_banner", BANNER },
	};
	uint64_t unused;
	unsigned int i;

	(void)ctx;
	if (!addr)	/* a probe point: only whether it is one symbol */
		addr = &unused;
	if (!strcmp(sym, "dup_sym")) {
		*addr = 0xffffffff81800000ULL;
		return KP_RESOLVE_MULTI;
	}
	/* A per-CPU variable where kallsyms lists it absolute */
	if (!strcmp(sym, "cpu_number")) {
		*addr = 0x1f0a8;
		return KP_RESOLVE_ABS;
	}
	for (i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		if (!strcmp(sym, syms[i].name)) {
			*addr = syms[i].addr;
			return KP_RESOLVE_OK;
		}
	}
	return KP_RESOLVE_NONE;
}

/* A resolver that has no symbol table (kallsyms unreadable or zeroed). */
static int unavail_resolve(const char *sym, uint64_t *addr, void *ctx)
{
	(void)sym;
	(void)addr;
	(void)ctx;
	return KP_RESOLVE_UNAVAIL;
}

static struct kp_probe_def def;
static struct kp_parse_err perr;
static enum kp_def_op op;

static const struct kp_arch *x86(void)
{
	const struct kp_arch *a = kp_arch_by_name("x86_64");

	ck_assert_ptr_nonnull(a);
	return a;
}

static const struct kp_arch *arm(void)
{
	const struct kp_arch *a = kp_arch_by_name("arm64");

	ck_assert_ptr_nonnull(a);
	return a;
}

static const struct kp_probe_def *parse_arch(const char *text,
					     const struct kp_arch *arch)
{
	int ret = kp_parse_def(text, arch, test_resolve, NULL, &op, &def, &perr);

	ck_assert_msg(ret == 0, "'%s' refused: %s at %u", text, perr.msg,
		      perr.pos);
	return &def;
}

static const struct kp_probe_def *parse(const char *text)
{
	const struct kp_probe_def *d = parse_arch(text, x86());

	ck_assert_int_eq(op, KP_DEF_ADD);
	return d;
}

/*
 * @caret_text is the definition with a '^' before the byte the error
 * points at, as kprobe_syntax_errors.tc writes it.
 */
static void check_err_arch(const char *caret_text, int code,
			   const struct kp_arch *arch)
{
	char text[8192];
	const char *c = strchr(caret_text, '^');
	size_t pos;
	int ret;

	ck_assert_msg(c != NULL, "no caret in %s", caret_text);
	pos = (size_t)(c - caret_text);
	ck_assert_uint_lt(strlen(caret_text), sizeof(text));
	memcpy(text, caret_text, pos);
	strcpy(text + pos, c + 1);
	ret = kp_parse_def(text, arch, test_resolve, NULL, &op, &def, &perr);
	ck_assert_msg(ret == -1, "'%s' accepted", text);
	ck_assert_msg(perr.code == code, "'%s': code %d (%s), want %d (%s)",
		      text, perr.code, perr.msg, code, kp_parse_strerror(code));
	ck_assert_msg(perr.pos == pos, "'%s': %s at %u, want %zu", text,
		      perr.msg, perr.pos, pos);
	ck_assert_str_ne(perr.msg, "");
}

static void check_err(const char *caret_text, int code)
{
	check_err_arch(caret_text, code, x86());
}

struct insn {
	int op, size, lshift, rshift;
	uint32_t param;
	int64_t imm;
};

#define OP(o)			{ KPMOD_FOP_##o, 0, 0, 0, 0, 0 }
#define OPP(o, p)		{ KPMOD_FOP_##o, 0, 0, 0, p, 0 }
#define OPI(o, i)		{ KPMOD_FOP_##o, 0, 0, 0, 0, i }
#define ST(o, s, i)		{ KPMOD_FOP_##o, s, 0, 0, 0, i }
#define BF(s, l, r)		{ KPMOD_FOP_MOD_BF, s, l, r, 0, 0 }

static void check_arg_n(const struct kp_probe_def *d, unsigned int i,
			const char *name, uint32_t type, uint32_t count,
			const char *text, const struct insn *exp, unsigned int n)
{
	const struct kp_arg_def *a;
	unsigned int j;

	ck_assert_uint_gt(d->nargs, i);
	a = &d->args[i];
	ck_assert_str_eq(a->name, name);
	ck_assert_msg(a->type == type, "%s: type %u (%s), want %u (%s)", name,
		      a->type, kp_type_name(a->type), type, kp_type_name(type));
	ck_assert_uint_eq(a->count, count);
	ck_assert_str_eq(a->text, text);
	ck_assert_msg(a->ninsns == n + 1, "%s: %u insns, want %u", text,
		      a->ninsns, n + 1);
	for (j = 0; j < n; j++) {
		const struct kpmod_fetch_insn *in = &a->insns[j];

		ck_assert_msg(in->op == exp[j].op && in->size == exp[j].size &&
			      in->lshift == exp[j].lshift &&
			      in->rshift == exp[j].rshift &&
			      in->param == exp[j].param && in->imm == exp[j].imm,
			      "%s insn %u: {%u,%u,%u,%u,%u,%lld} want "
			      "{%d,%d,%d,%d,%u,%lld}", text, j, in->op,
			      in->size, in->lshift, in->rshift, in->param,
			      (long long)in->imm, exp[j].op, exp[j].size,
			      exp[j].lshift, exp[j].rshift, exp[j].param,
			      (long long)exp[j].imm);
	}
	ck_assert_uint_eq(a->insns[n].op, KPMOD_FOP_END);
}

#define CHECK_ARG(d, i, name, type, count, text, ...)			\
	do {								\
		static const struct insn e_[] = { __VA_ARGS__ };	\
		check_arg_n(d, i, name, KPMOD_T_##type, count, text, e_,	\
			    sizeof(e_) / sizeof(e_[0]));		\
	} while (0)

/* ---- probe points, names, printback ---- */

START_TEST(entry_probe_with_name_and_args)
{
	const struct kp_probe_def *d =
		parse("p:myprobe do_sys_openat2 dfd=%di path=+0(%si):ustring");

	ck_assert_str_eq(d->group, "kprobes");
	ck_assert_str_eq(d->event, "myprobe");
	ck_assert_uint_eq(d->kind, KPMOD_PROBE_ENTRY);
	ck_assert_str_eq(d->symbol, "do_sys_openat2");
	ck_assert_str_eq(d->module, "");
	ck_assert_uint_eq(d->offset, 0);
	ck_assert(!d->has_addr);
	ck_assert_uint_eq(d->maxactive, 0);
	ck_assert_uint_eq(d->nargs, 2);
	CHECK_ARG(d, 0, "dfd", X64, 0, "dfd=%di",
		  OPP(REG, KPMOD_REG_X86_DI), ST(ST_RAW, 8, 0));
	CHECK_ARG(d, 1, "path", USTRING, 0, "path=+0(%si):ustring",
		  OPP(REG, KPMOD_REG_X86_SI), ST(ST_USTRING, 0, 0));
	ck_assert_str_eq(d->definition,
		"p:kprobes/myprobe do_sys_openat2 dfd=%di path=+0(%si):ustring");
}
END_TEST

START_TEST(generated_event_names)
{
	const struct kp_probe_def *d;

	d = parse("p do_sys_open");
	ck_assert_str_eq(d->event, "p_do_sys_open_0");
	ck_assert_str_eq(d->definition, "p:kprobes/p_do_sys_open_0 do_sys_open");

	d = parse("r vfs_read");
	ck_assert_str_eq(d->event, "r_vfs_read_0");
	ck_assert_uint_eq(d->kind, KPMOD_PROBE_RETURN);
	ck_assert_str_eq(d->definition, "r:kprobes/r_vfs_read_0 vfs_read");

	d = parse("p vfs_read+0x10");
	ck_assert_str_eq(d->event, "p_vfs_read_16");
	ck_assert_uint_eq(d->offset, 16);
	ck_assert_str_eq(d->definition, "p:kprobes/p_vfs_read_16 vfs_read+16");

	/* '.' and ':' become '_' (sanitize_event_name) */
	d = parse("p foo.isra.0");
	ck_assert_str_eq(d->event, "p_foo_isra_0_0");
	ck_assert_str_eq(d->symbol, "foo.isra.0");
	ck_assert_str_eq(d->definition, "p:kprobes/p_foo_isra_0_0 foo.isra.0");

	d = parse("p trace_printk:trace_printk_irq_work+4");
	ck_assert_str_eq(d->event, "p_trace_printk_trace_printk_irq_work_4");
	ck_assert_str_eq(d->module, "trace_printk");
	ck_assert_str_eq(d->symbol, "trace_printk_irq_work");
	ck_assert_uint_eq(d->offset, 4);
	ck_assert_str_eq(d->definition, "p:kprobes/p_trace_printk_trace_printk_"
			 "irq_work_4 trace_printk:trace_printk_irq_work+4");

	/* A group alone: the event name is made up. */
	d = parse("p:mygrp/ vfs_read");
	ck_assert_str_eq(d->group, "mygrp");
	ck_assert_str_eq(d->event, "p_vfs_read_0");

	/* Too long a generated name is cut at 63 characters. */
	d = parse("p mod:abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz"
		  "abcdefghijklmnopqrstuvwxyz");
	ck_assert_uint_eq(strlen(d->event), 63);
	ck_assert_str_eq(d->event, "p_mod_abcdefghijklmnopqrstuvwxyzabcdefghij"
			 "klmnopqrstuvwxyzabcde");
}
END_TEST

START_TEST(addresses)
{
	const struct kp_probe_def *d = parse("p 0xffffffff81000010 %ax");

	ck_assert(d->has_addr);
	ck_assert_uint_eq(d->addr, 0xffffffff81000010ULL);
	ck_assert_str_eq(d->symbol, "");
	ck_assert_str_eq(d->event, "p_0xffffffff81000010");
	ck_assert_str_eq(d->definition,
		"p:kprobes/p_0xffffffff81000010 0xffffffff81000010 arg1=%ax");

	d = parse("r:ev 1234");
	ck_assert(d->has_addr);
	ck_assert_uint_eq(d->addr, 1234);
	ck_assert_uint_eq(d->kind, KPMOD_PROBE_RETURN);
	ck_assert_str_eq(d->definition, "r:kprobes/ev 0x00000000000004d2");
}
END_TEST

START_TEST(group_and_event_names)
{
	const struct kp_probe_def *d;

	d = parse("p:kprobes2/event2 vfs_read");
	ck_assert_str_eq(d->group, "kprobes2");
	ck_assert_str_eq(d->event, "event2");
	d = parse("p:grp.ev vfs_read");
	ck_assert_str_eq(d->group, "grp");
	ck_assert_str_eq(d->event, "ev");
	d = parse("p:my-grp/_ev_1 vfs_read");
	ck_assert_str_eq(d->group, "my-grp");
	ck_assert_str_eq(d->event, "_ev_1");
	ck_assert_str_eq(d->definition, "p:my-grp/_ev_1 vfs_read");
	/* 63 characters is the longest */
	d = parse("p:g23456789012345678901234567890123456789012345678901234567890123/"
		  "e23456789012345678901234567890123456789012345678901234567890123"
		  " vfs_read");
	ck_assert_uint_eq(strlen(d->group), 63);
	ck_assert_uint_eq(strlen(d->event), 63);
}
END_TEST

START_TEST(return_probes)
{
	const struct kp_probe_def *d;
	char r1[KPMOD_MAX_DEF_LEN];

	d = parse("r:testprobe2 kernel_clone $retval");
	ck_assert_uint_eq(d->kind, KPMOD_PROBE_RETURN);
	ck_assert_str_eq(d->definition,
			 "r:kprobes/testprobe2 kernel_clone arg1=$retval");
	CHECK_ARG(d, 0, "arg1", X64, 0, "arg1=$retval",
		  OP(RETVAL), ST(ST_RAW, 8, 0));

	d = parse("r10:myprobeaccept inet_csk_accept");
	ck_assert_uint_eq(d->maxactive, 10);
	ck_assert_str_eq(d->definition,
			 "r10:kprobes/myprobeaccept inet_csk_accept");
	d = parse("r10 inet_csk_accept");
	ck_assert_uint_eq(d->maxactive, 10);
	ck_assert_str_eq(d->event, "r_inet_csk_accept_0");
	d = parse("r0x10 vfs_read");
	ck_assert_uint_eq(d->maxactive, 16);
	d = parse("r4096 vfs_read");
	ck_assert_uint_eq(d->maxactive, 4096);
	d = parse("r vfs_read+0");
	ck_assert_str_eq(d->definition, "r:kprobes/r_vfs_read_0 vfs_read");

	/* %return is the same as r (kretprobe_return_suffix.tc) */
	d = parse("r:myprobeaccept vfs_read");
	strcpy(r1, d->definition);
	d = parse("p:myprobeaccept vfs_read%return");
	ck_assert_uint_eq(d->kind, KPMOD_PROBE_RETURN);
	ck_assert_str_eq(d->definition, r1);
	d = parse("p vfs_read+0%return $retval:s32");
	ck_assert_str_eq(d->event, "r_vfs_read_0");
	ck_assert_str_eq(d->definition,
			 "r:kprobes/r_vfs_read_0 vfs_read arg1=$retval:s32");

	/* kpmod takes $argN and $stackN at the entry of a return probe. */
	d = parse("r vfs_read $arg1 s=$stack2 $retval");
	CHECK_ARG(d, 0, "arg1", X64, 0, "arg1=$arg1", OPP(ARG, 1),
		  ST(ST_RAW, 8, 0));
	CHECK_ARG(d, 1, "s", X64, 0, "s=$stack2", OPP(STACK, 2),
		  ST(ST_RAW, 8, 0));
	CHECK_ARG(d, 2, "arg3", X64, 0, "arg3=$retval", OP(RETVAL),
		  ST(ST_RAW, 8, 0));
}
END_TEST

START_TEST(delete)
{
	const struct kp_probe_def *d;

	d = parse_arch("-:myprobe", x86());
	ck_assert_int_eq(op, KP_DEF_DEL);
	ck_assert_str_eq(d->group, "");
	ck_assert_str_eq(d->event, "myprobe");
	d = parse_arch("  -:grp/ev  ", x86());
	ck_assert_int_eq(op, KP_DEF_DEL);
	ck_assert_str_eq(d->group, "grp");
	ck_assert_str_eq(d->event, "ev");
	d = parse_arch("-:grp/", x86());
	ck_assert_int_eq(op, KP_DEF_DEL);
	ck_assert_str_eq(d->group, "grp");
	ck_assert_str_eq(d->event, "");

	check_err("-^ myprobe", KP_E_BAD_COMMAND);
	check_err("-:^", KP_E_NO_EVENT_NAME);
	check_err("-:^/ev", KP_E_NO_GROUP_NAME);
	check_err("-:^g.1/ev", KP_E_BAD_GROUP_NAME);
	check_err("-:g/^e.1", KP_E_BAD_EVENT_NAME);
	check_err("-:grp/ev ^vfs_read", KP_E_DEL_EXTRA_ARGS);
}
END_TEST

/* ---- fetch arguments ---- */

START_TEST(registers)
{
	const struct kp_probe_def *d = parse(
		"p vfs_read %ax %rax %orig_ax %flags %ip %rip %sp %rsp %r8 %r15"
		" %cs %ss %bp %bx %cx %dx %si %di");
	static const unsigned int want[] = {
		KPMOD_REG_X86_AX, KPMOD_REG_X86_AX, KPMOD_REG_X86_ORIG_AX,
		KPMOD_REG_X86_FLAGS, KPMOD_REG_X86_IP, KPMOD_REG_X86_IP,
		KPMOD_REG_X86_SP, KPMOD_REG_X86_SP, KPMOD_REG_X86_R8,
		KPMOD_REG_X86_R15, KPMOD_REG_X86_CS, KPMOD_REG_X86_SS,
		KPMOD_REG_X86_BP, KPMOD_REG_X86_BX, KPMOD_REG_X86_CX,
		KPMOD_REG_X86_DX, KPMOD_REG_X86_SI, KPMOD_REG_X86_DI,
	};
	unsigned int i;

	ck_assert_uint_eq(d->nargs, 18);
	for (i = 0; i < d->nargs; i++) {
		ck_assert_uint_eq(d->args[i].insns[0].op, KPMOD_FOP_REG);
		ck_assert_uint_eq(d->args[i].insns[0].param, want[i]);
		ck_assert_uint_eq(d->args[i].insns[1].op, KPMOD_FOP_ST_RAW);
		ck_assert_uint_eq(d->args[i].insns[1].size, 8);
	}
	ck_assert_str_eq(d->args[1].text, "arg2=%rax");

	d = parse_arch("p vfs_read %x0 %x30 %sp %pc %pstate", arm());
	CHECK_ARG(d, 0, "arg1", X64, 0, "arg1=%x0", OPP(REG, 0), ST(ST_RAW, 8, 0));
	CHECK_ARG(d, 1, "arg2", X64, 0, "arg2=%x30", OPP(REG, 30), ST(ST_RAW, 8, 0));
	CHECK_ARG(d, 2, "arg3", X64, 0, "arg3=%sp",
		  OPP(REG, KPMOD_REG_ARM64_SP), ST(ST_RAW, 8, 0));
	CHECK_ARG(d, 3, "arg4", X64, 0, "arg4=%pc",
		  OPP(REG, KPMOD_REG_ARM64_PC), ST(ST_RAW, 8, 0));
	CHECK_ARG(d, 4, "arg5", X64, 0, "arg5=%pstate",
		  OPP(REG, KPMOD_REG_ARM64_PSTATE), ST(ST_RAW, 8, 0));

	check_err("p vfs_read ^%x0", KP_E_OTHER_ARCH_REG);
	ck_assert_str_eq(perr.msg, "%x0: arm64 register, not valid on x86_64");
	check_err("p vfs_read ^%pstate", KP_E_OTHER_ARCH_REG);
	check_err_arch("p vfs_read ^%ax", KP_E_OTHER_ARCH_REG, arm());
	ck_assert_str_eq(perr.msg, "%ax: x86_64 register, not valid on arm64");
	check_err_arch("p vfs_read ^%rdi", KP_E_OTHER_ARCH_REG, arm());
	check_err_arch("p vfs_read ^%x31", KP_E_BAD_REG_NAME, arm());
	check_err("p vfs_read ^%ex", KP_E_BAD_REG_NAME);
	check_err("p vfs_read ^%AX", KP_E_BAD_REG_NAME);
	check_err("p vfs_read ^%", KP_E_BAD_REG_NAME);
}
END_TEST

START_TEST(arch_tables)
{
	const struct kp_arch *a;

	ck_assert_ptr_eq(kp_arch_by_name("amd64"), x86());
	ck_assert_ptr_eq(kp_arch_by_name("aarch64"), arm());
	ck_assert_ptr_null(kp_arch_by_name("riscv64"));
	ck_assert_ptr_null(kp_arch_by_name(NULL));
#if defined(__x86_64__)
	ck_assert_ptr_eq(kp_arch_native(), x86());
#elif defined(__aarch64__)
	ck_assert_ptr_eq(kp_arch_native(), arm());
#endif
	ck_assert_str_eq(x86()->name, "x86_64");
	ck_assert_str_eq(arm()->name, "arm64");
	ck_assert_int_eq(kp_arch_reg(x86(), "rdi"), KPMOD_REG_X86_DI);
	ck_assert_int_eq(kp_arch_reg(x86(), "x0"), -1);
	ck_assert_int_eq(kp_arch_reg(arm(), "x29"), 29);
	ck_assert_str_eq(kp_arch_reg_name(x86(), KPMOD_REG_X86_DI), "di");
	ck_assert_str_eq(kp_arch_reg_name(arm(), KPMOD_REG_ARM64_PC), "pc");
	ck_assert_ptr_null(kp_arch_reg_name(arm(), 99));
	/* every slot has a name, every name a valid slot */
	for (a = kp_arch_next(NULL); a; a = kp_arch_next(a)) {
		unsigned int i;

		for (i = 0; i < a->nregs; i++)
			ck_assert_ptr_nonnull(kp_arch_reg_name(a, i));
		for (i = 0; i < a->nnames; i++)
			ck_assert_uint_lt(a->regs[i].num, a->nregs);
	}
}
END_TEST

START_TEST(memory_and_symbols)
{
	const struct kp_probe_def *d = parse(
		"p vfs_read @0xffffffff82000000 @_sdata @_sdata+10 @_sdata-10"
		" +10(@_sdata-10):u16 @_sdata:string v=@linux_proc_banner:b8@4/32");

	CHECK_ARG(d, 0, "arg1", X64, 0, "arg1=@0xffffffff82000000",
		  OPI(IMM, (int64_t)SDATA), ST(ST_MEM, 8, 0));
	CHECK_ARG(d, 1, "arg2", X64, 0, "arg2=@_sdata",
		  OPI(IMM, (int64_t)SDATA), ST(ST_MEM, 8, 0));
	CHECK_ARG(d, 2, "arg3", X64, 0, "arg3=@_sdata+10",
		  OPI(IMM, (int64_t)SDATA + 10), ST(ST_MEM, 8, 0));
	CHECK_ARG(d, 3, "arg4", X64, 0, "arg4=@_sdata-10",
		  OPI(IMM, (int64_t)SDATA - 10), ST(ST_MEM, 8, 0));
	CHECK_ARG(d, 4, "arg5", U16, 0, "arg5=+10(@_sdata-10):u16",
		  OPI(IMM, (int64_t)SDATA - 10), OPI(DEREF, 0),
		  ST(ST_MEM, 2, 10));
	CHECK_ARG(d, 5, "arg6", STRING, 0, "arg6=@_sdata:string",
		  OPI(IMM, (int64_t)SDATA), ST(ST_STRING, 0, 0));
	CHECK_ARG(d, 6, "v", BITFIELD, 0, "v=@linux_proc_banner:b8@4/32",
		  OPI(IMM, (int64_t)BANNER), ST(ST_MEM, 4, 0), BF(4, 20, 24));

	/* kprobe_args_syntax.tc's bad symbol accesses */
	check_err("p vfs_read ^@", KP_E_BAD_MEM_ADDR);
	check_err("p vfs_read @^deaqswdefr", KP_E_UNKNOWN_SYMBOL);
	ck_assert_str_eq(perr.msg, "Unknown symbol: deaqswdefr");
	check_err("p vfs_read @^_sdata*10", KP_E_UNKNOWN_SYMBOL);
	check_err("p vfs_read @^_sdata/10", KP_E_UNKNOWN_SYMBOL);
	check_err("p vfs_read @^_sdata%10", KP_E_UNKNOWN_SYMBOL);
	check_err("p vfs_read @^_sdata&10", KP_E_UNKNOWN_SYMBOL);
	check_err("p vfs_read @^_sdata|10", KP_E_UNKNOWN_SYMBOL);
	check_err("p vfs_read @_sdata^+x", KP_E_BAD_SYM_OFFS);
	/* no resolver: no symbol */
	ck_assert_int_eq(kp_parse_def("p vfs_read @_sdata", x86(), NULL, NULL,
				      &op, &def, &perr), -1);
	ck_assert_int_eq(perr.code, KP_E_UNKNOWN_SYMBOL);
	ck_assert_uint_eq(perr.pos, 12);
	/* ... and the probed symbol is not checked */
	ck_assert_int_eq(kp_parse_def("p nosuch", x86(), NULL, NULL, &op, &def,
				      &perr), 0);
	/* a resolver without a symbol table behaves the same */
	ck_assert_int_eq(kp_parse_def("p vfs_read @_sdata", x86(), unavail_resolve,
				      NULL, &op, &def, &perr), -1);
	ck_assert_int_eq(perr.code, KP_E_UNKNOWN_SYMBOL);
	ck_assert_uint_eq(perr.pos, 12);
	ck_assert_int_eq(kp_parse_def("p nosuch", x86(), unavail_resolve, NULL,
				      &op, &def, &perr), 0);
	ck_assert_str_eq(def.symbol, "nosuch");
}
END_TEST

START_TEST(stack_comm_args_and_immediates)
{
	const struct kp_probe_def *d = parse(
		"p:testprobe kernel_clone $stack $stack0 $stack2048 comm=$comm"
		" c2=$COMM $arg1 $arg2048:u32 \\123 \\0x10:u8 \\-5:s32 \\+7"
		" s=\\\"hello\" \\0xffff:string");

	CHECK_ARG(d, 0, "arg1", X64, 0, "arg1=$stack", OP(STACKP),
		  ST(ST_RAW, 8, 0));
	CHECK_ARG(d, 1, "arg2", X64, 0, "arg2=$stack0", OPP(STACK, 0),
		  ST(ST_RAW, 8, 0));
	CHECK_ARG(d, 2, "arg3", X64, 0, "arg3=$stack2048", OPP(STACK, 2048),
		  ST(ST_RAW, 8, 0));
	CHECK_ARG(d, 3, "comm", STRING, 0, "comm=$comm", OP(COMM),
		  ST(ST_STRING, 0, 0));
	CHECK_ARG(d, 4, "c2", STRING, 0, "c2=$COMM", OP(COMM),
		  ST(ST_STRING, 0, 0));
	CHECK_ARG(d, 5, "arg6", X64, 0, "arg6=$arg1", OPP(ARG, 1),
		  ST(ST_RAW, 8, 0));
	CHECK_ARG(d, 6, "arg7", U32, 0, "arg7=$arg2048:u32", OPP(ARG, 2048),
		  ST(ST_RAW, 4, 0));
	CHECK_ARG(d, 7, "arg8", X64, 0, "arg8=\\123", OPI(IMM, 123),
		  ST(ST_RAW, 8, 0));
	CHECK_ARG(d, 8, "arg9", U8, 0, "arg9=\\0x10:u8", OPI(IMM, 16),
		  ST(ST_RAW, 1, 0));
	CHECK_ARG(d, 9, "arg10", S32, 0, "arg10=\\-5:s32", OPI(IMM, -5),
		  ST(ST_RAW, 4, 0));
	CHECK_ARG(d, 10, "arg11", X64, 0, "arg11=\\+7", OPI(IMM, 7),
		  ST(ST_RAW, 8, 0));
	CHECK_ARG(d, 11, "s", STRING, 0, "s=\\\"hello\"", OP(DATA),
		  ST(ST_STRING, 0, 0));
	ck_assert_uint_eq(d->args[11].datalen, 6);
	ck_assert_mem_eq(d->args[11].data, "hello", 6);
	ck_assert_uint_eq(d->args[0].datalen, 0);
	CHECK_ARG(d, 12, "arg13", STRING, 0, "arg13=\\0xffff:string",
		  OPI(IMM, 0xffff), ST(ST_STRING, 0, 0));
	ck_assert_str_eq(d->definition,
		"p:kprobes/testprobe kernel_clone arg1=$stack arg2=$stack0"
		" arg3=$stack2048 comm=$comm c2=$COMM arg6=$arg1"
		" arg7=$arg2048:u32 arg8=\\123 arg9=\\0x10:u8 arg10=\\-5:s32"
		" arg11=\\+7 s=\\\"hello\" arg13=\\0xffff:string");

	/* the type splits at the first ':', even in a string (as 6.1) */
	check_err("p vfs_read t=\\\"a:^b\"", KP_E_STRING_ONLY);

	d = parse("p kernel_clone comm=$comm:string");
	CHECK_ARG(d, 0, "comm", STRING, 0, "comm=$comm:string", OP(COMM),
		  ST(ST_STRING, 0, 0));

	/* kprobe_args_syntax.tc */
	check_err("p vfs_read ^$stackp", KP_E_BAD_VAR);
	check_err("p vfs_read ^$stack0+10", KP_E_BAD_VAR);
	check_err("p vfs_read ^$stack1-10", KP_E_BAD_VAR);
	check_err("p vfs_read ^$stack2049", KP_E_BAD_STACK_NUM);
	check_err("p vfs_read ^$arg0", KP_E_BAD_ARG_NUM);
	check_err("p vfs_read ^$arg2049", KP_E_BAD_ARG_NUM);
	check_err("p vfs_read ^$arg", KP_E_BAD_VAR);
	check_err("p vfs_read ^$argx", KP_E_BAD_VAR);
	check_err("p vfs_read ^$", KP_E_BAD_VAR);
	check_err("p vfs_read+4 ^$arg1", KP_E_ARG_NOT_AT_ENTRY);
	check_err("p 0xffffffff81000000 ^$arg1", KP_E_ARG_NOT_AT_ENTRY);
	check_err("p vfs_read $comm:^u8", KP_E_STRING_ONLY);
	check_err("p vfs_read $comm:^string[2]", KP_E_STRING_ONLY);
	/* A string array needs a dereference to repeat (@SYM is one). */
	check_err("p vfs_read \\1234:^string[2]", KP_E_BAD_STRING);
	check_err("p vfs_read %di:^string[2]", KP_E_BAD_STRING);
	check_err("p vfs_read +0(%di):^symstr[2]", KP_E_BAD_STRING);
	check_err("p vfs_read \\\"ab\":^ustring", KP_E_STRING_ONLY);
	check_err("p vfs_read \\^", KP_E_BAD_IMM);
	check_err("p vfs_read \\^0x", KP_E_BAD_IMM);
	check_err("p vfs_read \\^-x", KP_E_BAD_IMM);
	check_err("p vfs_read \\\"^", KP_E_IMMSTR_NO_CLOSE);
}
END_TEST

START_TEST(dereferences)
{
	const struct kp_probe_def *d = parse(
		"p vfs_read +8(%di):u32 -8(%di) +0(+8(%si)):string +u8(%si):u16"
		" -u0x10(%si):s64 +u0(%si):string +0(%si):ustring +10($stack)"
		" +0($stack1) +0(+10(+20($stack))) +0(%di):x8 +0x10(%di):char");

	CHECK_ARG(d, 0, "arg1", U32, 0, "arg1=+8(%di):u32",
		  OPP(REG, KPMOD_REG_X86_DI), ST(ST_MEM, 4, 8));
	CHECK_ARG(d, 1, "arg2", X64, 0, "arg2=-8(%di)",
		  OPP(REG, KPMOD_REG_X86_DI), ST(ST_MEM, 8, -8));
	CHECK_ARG(d, 2, "arg3", STRING, 0, "arg3=+0(+8(%si)):string",
		  OPP(REG, KPMOD_REG_X86_SI), OPI(DEREF, 8),
		  ST(ST_STRING, 0, 0));
	CHECK_ARG(d, 3, "arg4", U16, 0, "arg4=+u8(%si):u16",
		  OPP(REG, KPMOD_REG_X86_SI), ST(ST_UMEM, 2, 8));
	CHECK_ARG(d, 4, "arg5", S64, 0, "arg5=-u0x10(%si):s64",
		  OPP(REG, KPMOD_REG_X86_SI), ST(ST_UMEM, 8, -16));
	CHECK_ARG(d, 5, "arg6", STRING, 0, "arg6=+u0(%si):string",
		  OPP(REG, KPMOD_REG_X86_SI), ST(ST_USTRING, 0, 0));
	CHECK_ARG(d, 6, "arg7", USTRING, 0, "arg7=+0(%si):ustring",
		  OPP(REG, KPMOD_REG_X86_SI), ST(ST_USTRING, 0, 0));
	CHECK_ARG(d, 7, "arg8", X64, 0, "arg8=+10($stack)", OP(STACKP),
		  ST(ST_MEM, 8, 10));
	CHECK_ARG(d, 8, "arg9", X64, 0, "arg9=+0($stack1)", OPP(STACK, 1),
		  ST(ST_MEM, 8, 0));
	CHECK_ARG(d, 9, "arg10", X64, 0, "arg10=+0(+10(+20($stack)))",
		  OP(STACKP), OPI(DEREF, 20), OPI(DEREF, 10), ST(ST_MEM, 8, 0));
	CHECK_ARG(d, 10, "arg11", X8, 0, "arg11=+0(%di):x8",
		  OPP(REG, KPMOD_REG_X86_DI), ST(ST_MEM, 1, 0));
	CHECK_ARG(d, 11, "arg12", CHAR, 0, "arg12=+0x10(%di):char",
		  OPP(REG, KPMOD_REG_X86_DI), ST(ST_MEM, 1, 16));

	/* kprobe_args_user.tc */
	d = parse("p:myevent do_sys_open path=+0($arg2):ustring "
		  "path2=+u0($arg2):string");
	ck_assert_str_eq(d->definition, "p:kprobes/myevent do_sys_open "
			 "path=+0($arg2):ustring path2=+u0($arg2):string");
	CHECK_ARG(d, 0, "path", USTRING, 0, "path=+0($arg2):ustring",
		  OPP(ARG, 2), ST(ST_USTRING, 0, 0));
	CHECK_ARG(d, 1, "path2", STRING, 0, "path2=+u0($arg2):string",
		  OPP(ARG, 2), ST(ST_USTRING, 0, 0));

	/* 8 levels, 7.3's limit (older kernels: as many as 16 instructions hold) */
	d = parse("p vfs_read +0(+0(+0(+0(+0(+0(+0(+1(@0))))))))");
	ck_assert_uint_eq(d->args[0].ninsns, 11);
	ck_assert_uint_eq(d->args[0].insns[0].op, KPMOD_FOP_IMM);
	ck_assert_uint_eq(d->args[0].insns[8].op, KPMOD_FOP_DEREF);
	ck_assert_uint_eq(d->args[0].insns[9].op, KPMOD_FOP_ST_MEM);
	ck_assert_int_eq(d->args[0].insns[1].imm, 0);
	ck_assert_int_eq(d->args[0].insns[2].imm, 1);
	parse("p vfs_read +0(+0(+0(+0(+0(+0(+0(+0(@_sdata))))))))");
	check_err("p vfs_read +0(+0(+0(+0(+0(+0(+0(+0(^+0(@_sdata)))))))))",
		  KP_E_TOO_MANY_NESTED);
}
END_TEST

START_TEST(types_arrays_bitfields)
{
	const struct kp_probe_def *d = parse(
		"p:testprobe kernel_clone $stack0:s64 $stack0:u64 $stack0:x64"
		" $stack0:b4@4/64 %di:b1@0/8 +0(%di):b3@5/16 %di:symbol"
		" +8(%di):symbol %di:symstr +0(%di):symstr @_sdata:symstr");

	CHECK_ARG(d, 0, "arg1", S64, 0, "arg1=$stack0:s64", OPP(STACK, 0),
		  ST(ST_RAW, 8, 0));
	CHECK_ARG(d, 1, "arg2", U64, 0, "arg2=$stack0:u64", OPP(STACK, 0),
		  ST(ST_RAW, 8, 0));
	CHECK_ARG(d, 2, "arg3", X64, 0, "arg3=$stack0:x64", OPP(STACK, 0),
		  ST(ST_RAW, 8, 0));
	CHECK_ARG(d, 3, "arg4", BITFIELD, 0, "arg4=$stack0:b4@4/64",
		  OPP(STACK, 0), ST(ST_RAW, 8, 0), BF(8, 56, 60));
	CHECK_ARG(d, 4, "arg5", BITFIELD, 0, "arg5=%di:b1@0/8",
		  OPP(REG, KPMOD_REG_X86_DI), ST(ST_RAW, 1, 0), BF(1, 7, 7));
	CHECK_ARG(d, 5, "arg6", BITFIELD, 0, "arg6=+0(%di):b3@5/16",
		  OPP(REG, KPMOD_REG_X86_DI), ST(ST_MEM, 2, 0), BF(2, 8, 13));
	CHECK_ARG(d, 6, "arg7", SYMBOL, 0, "arg7=%di:symbol",
		  OPP(REG, KPMOD_REG_X86_DI), ST(ST_RAW, 8, 0));
	CHECK_ARG(d, 7, "arg8", SYMBOL, 0, "arg8=+8(%di):symbol",
		  OPP(REG, KPMOD_REG_X86_DI), ST(ST_MEM, 8, 8));
	CHECK_ARG(d, 8, "arg9", SYMSTR, 0, "arg9=%di:symstr",
		  OPP(REG, KPMOD_REG_X86_DI), ST(ST_RAW, 8, 0));
	CHECK_ARG(d, 9, "arg10", SYMSTR, 0, "arg10=+0(%di):symstr",
		  OPP(REG, KPMOD_REG_X86_DI), ST(ST_MEM, 8, 0));
	CHECK_ARG(d, 10, "arg11", SYMSTR, 0, "arg11=@_sdata:symstr",
		  OPI(IMM, (int64_t)SDATA), ST(ST_MEM, 8, 0));

	d = parse("p vfs_read +0(%si):u8[4] +0(%si):string[3] +u0(%si):string[2]"
		  " +0(%si):ustring[2] a=+0(%di):b2@1/32[0x40] +4(%di):symbol[2]");
	CHECK_ARG(d, 0, "arg1", U8, 4, "arg1=+0(%si):u8[4]",
		  OPP(REG, KPMOD_REG_X86_SI), ST(ST_MEM, 1, 0), OPP(LP_ARRAY, 4));
	CHECK_ARG(d, 1, "arg2", STRING, 3, "arg2=+0(%si):string[3]",
		  OPP(REG, KPMOD_REG_X86_SI), OPI(DEREF, 0), ST(ST_STRING, 0, 0),
		  OPP(LP_ARRAY, 3));
	/* 6.1: the array of user strings keeps an ST_STRING store */
	CHECK_ARG(d, 2, "arg3", STRING, 2, "arg3=+u0(%si):string[2]",
		  OPP(REG, KPMOD_REG_X86_SI), OPI(UDEREF, 0),
		  ST(ST_STRING, 0, 0), OPP(LP_ARRAY, 2));
	CHECK_ARG(d, 3, "arg4", USTRING, 2, "arg4=+0(%si):ustring[2]",
		  OPP(REG, KPMOD_REG_X86_SI), OPI(DEREF, 0),
		  ST(ST_USTRING, 0, 0), OPP(LP_ARRAY, 2));
	CHECK_ARG(d, 4, "a", BITFIELD, 64, "a=+0(%di):b2@1/32[0x40]",
		  OPP(REG, KPMOD_REG_X86_DI), ST(ST_MEM, 4, 0), BF(4, 29, 30),
		  OPP(LP_ARRAY, 64));
	CHECK_ARG(d, 5, "arg6", SYMBOL, 2, "arg6=+4(%di):symbol[2]",
		  OPP(REG, KPMOD_REG_X86_DI), ST(ST_MEM, 8, 4), OPP(LP_ARRAY, 2));

	check_err("p vfs_read %di:^b8@0/12", KP_E_BAD_TYPE);
	check_err("p vfs_read %di:^b8", KP_E_BAD_TYPE);
	check_err("p vfs_read %di:^y16", KP_E_BAD_TYPE);
	check_err("p vfs_read %di:^", KP_E_BAD_TYPE);
	check_err("p vfs_read %di:^U8", KP_E_BAD_TYPE);
	check_err("p vfs_read %di:^b10@60/64", KP_E_BAD_BITFIELD);
	check_err("p vfs_read %di:^b0@0/64", KP_E_BAD_BITFIELD);
	check_err("p vfs_read %di:^b65@0/64", KP_E_BAD_BITFIELD);
	check_err("p vfs_read %di:^b4@/64", KP_E_BAD_BITFIELD);
	check_err("p vfs_read %di:^b4/64", KP_E_BAD_BITFIELD);
	/* Width + offset past 64 bits: the sum wrapped, and these passed. */
	check_err("p vfs_read %di:^b18446744073709551615@1/64", KP_E_BAD_BITFIELD);
	check_err("p vfs_read %di:^b1@18446744073709551615/8", KP_E_BAD_BITFIELD);
	check_err("p vfs_read %di:^b0x8000000000000000@0x8000000000000001/8",
		  KP_E_BAD_BITFIELD);
	/* A width past 64 bits: it wrapped to 1. */
	check_err("p vfs_read %di:^b18446744073709551617@0/8", KP_E_BAD_BITFIELD);
	check_err("p vfs_read %di:^string", KP_E_BAD_STRING);
	check_err("p vfs_read %di:^symstr[2]", KP_E_BAD_STRING);
	check_err("p vfs_read +u0(%di):^u8[4]", KP_E_BAD_STRING);
	check_err("p vfs_read %di:^u8[4]", KP_E_BAD_STRING);
	check_err("p vfs_read $stack:^symstr", KP_E_BAD_SYMSTRING);
	check_err("p vfs_read \\1:^symstr", KP_E_BAD_SYMSTRING);
	check_err("p vfs_read +u0(%di):^symstr", KP_E_BAD_SYMSTRING);
	check_err("p vfs_read $comm:^symstr", KP_E_STRING_ONLY);
}
END_TEST

/*
 * kprobe_syntax_errors.tc, every check_error with the same caret.
 * Skipped, as they are not about the definition's text:
 *  - BAD_INSN_BNDRY ('p ^vfs_read+3'): needs the kernel's instruction
 *    decoder; the module reports it when it registers the probe;
 *  - the "multiprobe errors" (DIFF_PROBE_TYPE, DIFF_ARG_TYPE, SAME_PROBE):
 *    appending a probe to an existing event is not a kpmod feature, and
 *    they need events registered earlier.
 * uprobe_syntax_errors.tc, the BTF ($arg by name, $$args), fprobe,
 * tracepoint and event-probe forms do not exist in 6.1's kprobe_events.
 */
START_TEST(kprobe_syntax_errors_tc)
{
	check_err("p^100 vfs_read", KP_E_MAXACT_NO_KPROBE);
	check_err("r^1a111 vfs_read", KP_E_BAD_MAXACT);
	check_err("r^100000 vfs_read", KP_E_MAXACT_TOO_BIG);

	check_err("p ^non_exist_func", KP_E_BAD_PROBE_ADDR);
	check_err("p ^hoge-fuga", KP_E_BAD_PROBE_ADDR);
	check_err("p ^hoge+1000-1000", KP_E_BAD_PROBE_ADDR);
	check_err("r ^vfs_read+10", KP_E_BAD_RETPROBE);
	check_err("p:^/bar vfs_read", KP_E_NO_GROUP_NAME);
	check_err("p:^12345678901234567890123456789012345678901234567890123456789012345/bar vfs_read",
		  KP_E_GROUP_TOO_LONG);

	check_err("p:^foo.1/bar vfs_read", KP_E_BAD_GROUP_NAME);
	check_err("p:^ vfs_read", KP_E_NO_EVENT_NAME);
	check_err("p:foo/^12345678901234567890123456789012345678901234567890123456789012345 vfs_read",
		  KP_E_EVENT_TOO_LONG);
	check_err("p:foo/^bar.1 vfs_read", KP_E_BAD_EVENT_NAME);

	check_err("p vfs_read ^$retval", KP_E_RETVAL_ON_PROBE);
	check_err("p vfs_read ^$stack10000", KP_E_BAD_STACK_NUM);
	check_err("p vfs_read ^$arg10000", KP_E_BAD_ARG_NUM);
	check_err("p vfs_read ^$none_var", KP_E_BAD_VAR);

	check_err("p vfs_read ^%none_reg", KP_E_BAD_REG_NAME);
	check_err("p vfs_read ^@12345678abcde", KP_E_BAD_MEM_ADDR);
	check_err("p vfs_read ^@+10", KP_E_FILE_ON_KPROBE);

	check_err("p vfs_read arg1=\\^x", KP_E_BAD_IMM);
	check_err("p vfs_read arg1=\\\"abcd^", KP_E_IMMSTR_NO_CLOSE);

	check_err("p vfs_read ^+0@0)", KP_E_DEREF_NEED_BRACE);
	check_err("p vfs_read ^+0ab1(@0)", KP_E_BAD_DEREF_OFFS);
	check_err("p vfs_read +0(+0(@0^)", KP_E_DEREF_OPEN_BRACE);

	check_err("p vfs_read +0(^$comm)", KP_E_COMM_CANT_DEREF);

	check_err("p vfs_read ^&1", KP_E_BAD_FETCH_ARG);

	/* 7.3's: the ninth nested form (6.12's said TOO_MANY_OPS at the second) */
	check_err("p vfs_read +0(+0(+0(+0(+0(+0(+0(+0(^+0(+0(+0(+0(+0(+0(@0))))))))))))))",
		  KP_E_TOO_MANY_NESTED);
	check_err("p vfs_read +0(@11):u8[10^", KP_E_ARRAY_NO_CLOSE);
	check_err("p vfs_read +0(@11):u8[10]^a", KP_E_BAD_ARRAY_SUFFIX);
	check_err("p vfs_read +0(@11):u8[^10a]", KP_E_BAD_ARRAY_NUM);
	check_err("p vfs_read +0(@11):u8[^256]", KP_E_ARRAY_TOO_BIG);

	check_err("p vfs_read @11:^unknown_type", KP_E_BAD_TYPE);
	check_err("p vfs_read $stack0:^string", KP_E_BAD_STRING);
	check_err("p vfs_read @11:^b10@a/16", KP_E_BAD_BITFIELD);

	check_err("p vfs_read ^arg123456789012345678901234567890=@11",
		  KP_E_ARG_NAME_TOO_LONG);
	check_err("p vfs_read ^=@11", KP_E_NO_ARG_NAME);
	check_err("p vfs_read ^var.1=@11", KP_E_BAD_ARG_NAME);
	check_err("p vfs_read var1=@11 ^var1=@12", KP_E_USED_ARG_NAME);
	check_err("p vfs_read ^+1234567(+1234567(+1234567(+1234567(+1234567(+1234567(@1234))))))",
		  KP_E_ARG_TOO_LONG);
	check_err("p vfs_read arg1=^", KP_E_NO_ARG_BODY);

	check_err("p vfs_read^%hoge", KP_E_BAD_ADDR_SUFFIX);
	check_err("p ^vfs_read+10%return", KP_E_BAD_RETPROBE);
}
END_TEST

/* More refusals, with the kernel's positions where it has one. */
START_TEST(more_errors)
{
	const struct kp_probe_def *d;

	/* kretprobe_maxactive.tc, kprobe_args_syntax.tc */
	check_err("^a:myprobeaccept inet_csk_accept", KP_E_BAD_COMMAND);
	check_err("r^1000000:myprobeaccept inet_csk_accept", KP_E_MAXACT_TOO_BIG);
	check_err("r^10fuzz:myprobeaccept inet_csk_accept", KP_E_BAD_MAXACT);
	check_err("r^0 vfs_read", KP_E_BAD_MAXACT);
	check_err("r^4097 vfs_read", KP_E_MAXACT_TOO_BIG);
	check_err("p^foo vfs_read", KP_E_BAD_COMMAND);
	/* An absolute symbol is an @SYM, never a probe point */
	d = parse("p vfs_read c=this_cpu_read(@cpu_number):s32");
	ck_assert_int_eq(d->args[0].insns[0].imm, 0x1f0a8);
	ck_assert_uint_eq(d->args[0].insns[1].op, KPMOD_FOP_CPU_PTR);
	check_err("p ^cpu_number", KP_E_BAD_PROBE_ADDR);
	/* 7.3 takes a '(' for a typecast */
	check_err("p vfs_read (%ax+10)^", KP_E_TYPECAST_REQ_FIELD);
	check_err("p vfs_read (%ax)^", KP_E_TYPECAST_REQ_FIELD);
	check_err("p vfs_read ^+(%ax)", KP_E_BAD_DEREF_OFFS);
	check_err("p vfs_read ^-(%ax)", KP_E_BAD_DEREF_OFFS);
	check_err("p vfs_read +10(^$comm)", KP_E_COMM_CANT_DEREF);
	check_err("p vfs_read +0(^\\\"s\")", KP_E_COMM_CANT_DEREF);
	check_err("p vfs_read +0(%ax)^+10", KP_E_DEREF_SUFFIX);
	check_err("p vfs_read +0(^)", KP_E_BAD_FETCH_ARG);
	check_err("p vfs_read +u0(^%none)", KP_E_BAD_REG_NAME);
	check_err("p vfs_read -u0(^%none)", KP_E_BAD_REG_NAME);
	/* A name is BTF's (from 6.6): here there is none. */
	check_err("p vfs_read varname=^varname2=%ax", KP_E_NOSUP_BTFARG);
	check_err("p vfs_read ^common_pid=%ax", KP_E_USED_ARG_NAME);
	check_err("p vfs_read ^__probe_ip=%ax", KP_E_USED_ARG_NAME);
	check_err("p vfs_read arg2=%di ^%si", KP_E_USED_ARG_NAME);
	check_err("p vfs_read ^1a=%di", KP_E_BAD_ARG_NAME);
	check_err("p vfs_read ^a1234567890123456789012345678901=%di",
		  KP_E_ARG_NAME_TOO_LONG);
	parse("p vfs_read a123456789012345678901234567890=%di");
	check_err("p vfs_read +0(@11):u8[^0]", KP_E_BAD_ARRAY_NUM);
	check_err("p vfs_read +0(@11):u8[^]", KP_E_BAD_ARRAY_NUM);
	check_err("p vfs_read +0(@11):u8[^65]", KP_E_ARRAY_TOO_BIG);
	parse("p vfs_read +0(@11):u8[64]");

	/* the probe point */
	check_err("^", KP_E_EMPTY);
	check_err(" \t^", KP_E_EMPTY);
	check_err("^x vfs_read", KP_E_BAD_COMMAND);
	check_err("p^", KP_E_NO_PROBE_POINT);
	check_err("p:foo ^", KP_E_NO_PROBE_POINT);
	check_err("p ^dup_sym", KP_E_NON_UNIQ_SYMBOL);
	check_err("p ^vfs_read-10", KP_E_BAD_PROBE_ADDR);
	check_err("p ^vfs_read+0x100000000", KP_E_BAD_PROBE_ADDR);
	check_err("p ^-0", KP_E_BAD_PROBE_ADDR);
	check_err("p ^+x", KP_E_BAD_PROBE_ADDR);
	/* "+10" is an address for kstrtoul, as in the kernel */
	ck_assert(parse("p +10")->has_addr);
	check_err("p ^mod:", KP_E_BAD_PROBE_ADDR);
	check_err("p ^:sym", KP_E_BAD_PROBE_ADDR);
	check_err("p vfs_read^%returnx", KP_E_BAD_ADDR_SUFFIX);
	check_err("p:foo/bar vfs_read^%return+0", KP_E_BAD_ADDR_SUFFIX);
	check_err("p:^foo-bar vfs_read", KP_E_BAD_EVENT_NAME);
	check_err("p:^1foo vfs_read", KP_E_BAD_EVENT_NAME);
	check_err("p:^.ev vfs_read", KP_E_NO_GROUP_NAME);
	check_err("p:^1g/ev vfs_read", KP_E_BAD_GROUP_NAME);
	/* the probe point is checked before the names, as in the kernel */
	check_err("p:/bar ^nosuch", KP_E_BAD_PROBE_ADDR);
	/* positions count in the input, blanks as they are */
	check_err("p   vfs_read\t ^%none", KP_E_BAD_REG_NAME);
	check_err("  p:foo/^bar.1   vfs_read", KP_E_BAD_EVENT_NAME);
}
END_TEST

START_TEST(limits)
{
	char text[16384], *p;
	const struct kp_probe_def *d;
	unsigned int i;

	/* 128 arguments */
	p = text + sprintf(text, "p vfs_read");
	for (i = 0; i < KPMOD_MAX_ARGS; i++)
		p += sprintf(p, " %%di");
	d = parse(text);
	ck_assert_uint_eq(d->nargs, 128);
	ck_assert_str_eq(d->args[127].name, "arg128");
	/* ... and not one more */
	i = (unsigned int)(p - text);
	strcpy(p, " ^%si");
	check_err(text, KP_E_TOO_MANY_ARGS);
	ck_assert_uint_eq(perr.pos, i + 1);

	/* 3072 bytes of arguments: 6 arrays of 64 u64, not 7 */
	p = text + sprintf(text, "p vfs_read");
	for (i = 0; i < 6; i++)
		p += sprintf(p, " +0(%%di):u64[64]");
	parse(text);
	strcpy(p, " ^%di");
	check_err(text, KP_E_EVENT_TOO_BIG);
	/* strings count 4 bytes */
	p = text + sprintf(text, "p vfs_read");
	for (i = 0; i < 5; i++)
		p += sprintf(p, " +0(%%di):u64[64]");
	p += sprintf(p, " +0(%%di):u64[63] +0(%%di):string $comm");
	parse(text);
	strcpy(p, " ^+0(%si):string");
	check_err(text, KP_E_EVENT_TOO_BIG);

	/* the printback fits in KPMOD_MAX_DEF_LEN or is refused */
	p = text + sprintf(text, "p vfs_read");
	for (i = 0; i < 45; i++)
		p += sprintf(p, " n%029u=+100(+100(+100(+100(+100(+100(+100(+100(%%di))))))))", i);
	d = parse(text);
	ck_assert_uint_lt(strlen(d->definition), KPMOD_MAX_DEF_LEN);
	ck_assert_str_eq(d->definition + strlen("p:kprobes/p_vfs_read_0 "),
			 text + 2);
	for (i = 0; i < 5; i++)
		p += sprintf(p, " m%029u=+100(+100(+100(+100(+100(+100(+100(+100(%%di))))))))", i);
	ck_assert_uint_gt(strlen(text), KPMOD_MAX_DEF_LEN);
	ck_assert_int_eq(kp_parse_def(text, x86(), test_resolve, NULL, &op,
				      &def, &perr), -1);
	ck_assert_int_eq(perr.code, KP_E_DEF_TOO_LONG);

	/* symbol and module lengths */
	p = text + sprintf(text, "p ");
	memset(p, 'a', KPMOD_MAX_SYMBOL_LEN);
	p[KPMOD_MAX_SYMBOL_LEN] = '\0';
	ck_assert_int_eq(kp_parse_def(text, x86(), NULL, NULL, &op, &def, &perr), -1);
	ck_assert_int_eq(perr.code, KP_E_SYMBOL_TOO_LONG);
	ck_assert_uint_eq(perr.pos, 2);
	p[KPMOD_MAX_SYMBOL_LEN - 1] = '\0';
	ck_assert_int_eq(kp_parse_def(text, x86(), NULL, NULL, &op, &def, &perr), 0);
	ck_assert_uint_eq(strlen(def.symbol), KPMOD_MAX_SYMBOL_LEN - 1);
	p = text + sprintf(text, "p ");
	memset(p, 'm', KPMOD_MAX_MODULE_LEN);
	strcpy(p + KPMOD_MAX_MODULE_LEN, ":sym");
	ck_assert_int_eq(kp_parse_def(text, x86(), NULL, NULL, &op, &def, &perr), -1);
	ck_assert_int_eq(perr.code, KP_E_MODULE_TOO_LONG);
}
END_TEST

static void format_err(const char *text, char *buf, size_t size)
{
	FILE *f = tmpfile();
	size_t n;

	ck_assert_ptr_nonnull(f);
	kp_format_parse_err(f, text, &perr);
	rewind(f);
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
}

START_TEST(format_parse_err)
{
	char buf[1024];
	const char *text = "p vfs_read %none_reg";

	ck_assert_int_eq(kp_parse_def(text, x86(), test_resolve, NULL, &op,
				      &def, &perr), -1);
	format_err(text, buf, sizeof(buf));
	ck_assert_str_eq(buf,
		"kpmod: error: Invalid register name\n"
		"  Command: p vfs_read %none_reg\n"
		"                      ^\n");

	/* a tab prints as a space, the caret stays under its byte */
	text = "p\tvfs_read $retval";
	ck_assert_int_eq(kp_parse_def(text, x86(), test_resolve, NULL, &op,
				      &def, &perr), -1);
	format_err(text, buf, sizeof(buf));
	ck_assert_str_eq(buf,
		"kpmod: error: $retval is only for return probes\n"
		"  Command: p vfs_read $retval\n"
		"                      ^\n");

	/* a specific message */
	text = "p vfs_read %x0";
	ck_assert_int_eq(kp_parse_def(text, x86(), test_resolve, NULL, &op,
				      &def, &perr), -1);
	format_err(text, buf, sizeof(buf));
	ck_assert_str_eq(buf,
		"kpmod: error: %x0: arm64 register, not valid on x86_64\n"
		"  Command: p vfs_read %x0\n"
		"                      ^\n");

	/* past the end */
	text = "p";
	ck_assert_int_eq(kp_parse_def(text, x86(), test_resolve, NULL, &op,
				      &def, &perr), -1);
	format_err(text, buf, sizeof(buf));
	ck_assert_str_eq(buf,
		"kpmod: error: Probe point is not specified\n"
		"  Command: p\n"
		"            ^\n");
}
END_TEST

START_TEST(error_table)
{
	int i, j;

	for (i = 0; i < KP_E__COUNT; i++) {
		const char *m = kp_parse_strerror(i);

		ck_assert_ptr_nonnull(m);
		ck_assert_int_gt(strlen(m), 5);
		ck_assert_int_lt(strlen(m), 80);
		for (j = 0; j < i; j++)
			ck_assert_str_ne(m, kp_parse_strerror(j));
	}
	ck_assert_str_eq(kp_parse_strerror(KP_E_BAD_REG_NAME),
			 "Invalid register name");
	ck_assert_str_eq(kp_parse_strerror(KP_E_TOO_MANY_ARGS),
			 "Too many arguments (max 128)");
	ck_assert_str_eq(kp_parse_strerror(-1), "Unknown error");
	ck_assert_str_eq(kp_parse_strerror(KP_E__COUNT), "Unknown error");
	/* a failed parse says why; a good one leaves err clear */
	ck_assert_int_eq(kp_parse_def("p vfs_read", x86(), test_resolve, NULL,
				      &op, &def, &perr), 0);
	ck_assert_int_eq(perr.code, KP_E_NONE);
	/* err may be NULL */
	ck_assert_int_eq(kp_parse_def("p vfs_read %bad", x86(), test_resolve,
				      NULL, &op, &def, NULL), -1);
}
END_TEST

KP_SUITE(probe_def_suite)

/*
 * This test program's own file (/proc/self/exe, an ELF of the native arch)
 * and a file offset in its executable mapping, from /proc/self/maps.
 */
static uint64_t exe_text_offset(void)
{
	unsigned long lo, hi, off;
	char line[512], perms[8], exe[512], path[512];
	uint64_t found = 0;
	ssize_t n;
	FILE *f;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ck_assert_int_gt(n, 0);
	exe[n] = '\0';
	f = fopen("/proc/self/maps", "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %511s", &lo, &hi, perms, &off, path) == 5 &&
		    perms[2] == 'x' && !strcmp(path, exe)) {
			found = off + 0x10;
			break;
		}
	}
	fclose(f);
	ck_assert_msg(found, "no executable mapping of %s", exe);
	return found;
}

START_TEST(uprobes)
{
	const struct kp_probe_def *d;
	uint64_t off = exe_text_offset();
	char text[512], want[512], caret[512];

	snprintf(text, sizeof(text), "p /proc/self/exe:0x%llx %%di s=+0(%%si):string "
		 "f=@+0x10:u64 sp=$stack s1=$stack1 c=$comm m=-8(+16($stack)):s32",
		 (unsigned long long)off);
	d = parse(text);
	ck_assert_uint_eq(d->kind, KPMOD_PROBE_UPROBE);
	ck_assert_str_eq(d->group, "uprobes");
	snprintf(want, sizeof(want), "p_exe_0x%llx", (unsigned long long)off);
	ck_assert_str_eq(d->event, want);
	ck_assert_str_eq(d->path, "/proc/self/exe");
	ck_assert_uint_eq(d->offset, off);
	snprintf(want, sizeof(want), "p:uprobes/p_exe_0x%llx /proc/self/exe:0x%016llx arg1=%%di "
		 "s=+0(%%si):string f=@+0x10:u64 sp=$stack s1=$stack1 c=$comm m=-8(+16($stack)):s32",
		 (unsigned long long)off, (unsigned long long)off);
	ck_assert_str_eq(d->definition, want);
	/* Memory is the process': user loads and stores. */
	check_arg_n(d, 1, "s", KPMOD_T_STRING, 0, "s=+0(%si):string",
		    (struct insn[]){ OPP(REG, KPMOD_REG_X86_SI), ST(ST_USTRING, 0, 0) }, 2);
	check_arg_n(d, 2, "f", KPMOD_T_U64, 0, "f=@+0x10:u64",
		    (struct insn[]){ OPI(FILE_OFFSET, 0x10), ST(ST_UMEM, 8, 0) }, 2);
	check_arg_n(d, 5, "c", KPMOD_T_STRING, 0, "c=$comm",
		    (struct insn[]){ OP(COMM), ST(ST_STRING, 0, 0) }, 2);
	check_arg_n(d, 6, "m", KPMOD_T_S32, 0, "m=-8(+16($stack)):s32",
		    (struct insn[]){ OP(STACKP), OPI(UDEREF, 16), ST(ST_UMEM, 4, -8) }, 3);

	snprintf(text, sizeof(text), "r:g/ev /proc/self/exe:0x%llx $retval", (unsigned long long)off);
	d = parse(text);
	ck_assert_uint_eq(d->kind, KPMOD_PROBE_URETPROBE);
	snprintf(text, sizeof(text), "p /proc/self/exe:0x%llx%%return", (unsigned long long)off);
	d = parse(text);
	ck_assert_uint_eq(d->kind, KPMOD_PROBE_URETPROBE);
	/* The kernel names return uprobes with 'p' too. */
	snprintf(want, sizeof(want), "p_exe_0x%llx", (unsigned long long)off);
	ck_assert_str_eq(d->event, want);
	snprintf(text, sizeof(text), "p /proc/self/exe:0x%llx(0x20)", (unsigned long long)off);
	d = parse(text);
	ck_assert_uint_eq(d->ref_ctr_offset, 0x20);
	ck_assert_msg(strstr(d->definition, ":0x") && strstr(d->definition, "(0x20)"),
		      "%s", d->definition);

	/* uprobe_syntax_errors.tc's, on a file kpmod takes */
	check_err("p ^/non_exist_file:100", KP_E_FILE_NOT_FOUND);
	check_err("p ^/sys:100", KP_E_NO_REGULAR_FILE);
	check_err("p /proc/self/exe:^10a", KP_E_BAD_UPROBE_OFFS);
	check_err("p /proc/self/exe:10(^1a)", KP_E_BAD_REFCNT);
	check_err("p /proc/self/exe:10(10^", KP_E_REFCNT_OPEN_BRACE);
	check_err("p /proc/self/exe:10(10)^a", KP_E_BAD_REFCNT_SUFFIX);
	check_err("p /bin/ls:^main", KP_E_BAD_UPROBE_OFFS);
	check_err("p /proc/self/exe:0x10(0x8)^%return", KP_E_BAD_REFCNT_SUFFIX);
	snprintf(text, sizeof(text), "p /proc/self/exe:0x%llx%%return(0x20)", (unsigned long long)off);
	ck_assert_uint_eq(parse(text)->kind, KPMOD_PROBE_URETPROBE);
	ck_assert_uint_eq(def.ref_ctr_offset, 0x20);
	check_err("p ^/no/such/file:0x10", KP_E_FILE_NOT_FOUND);
	check_err("p ^/proc/self:0x10", KP_E_NO_REGULAR_FILE);
	check_err("p ^/proc/self/status:0x10", KP_E_NOT_ELF);
	check_err("p /proc/self/exe:^0x10", KP_E_OFFS_NOT_EXEC);
	check_err("p /proc/self/exe:^0x1z", KP_E_BAD_UPROBE_OFFS);
	check_err("p /proc/self/exe:0x10^%ret", KP_E_BAD_ADDR_SUFFIX);
	check_err("p /proc/self/exe:0x10(0x8^", KP_E_REFCNT_OPEN_BRACE);
	check_err("p /proc/self/exe:0x10(0x8)^x", KP_E_BAD_REFCNT_SUFFIX);
	check_err("p /proc/self/exe:0x10(^zz)", KP_E_BAD_REFCNT);
	check_err("r^2 /proc/self/exe:0x10", KP_E_MAXACT_ON_UPROBE);
	check_err_arch("p ^/proc/self/exe:0x10", KP_E_ELF_OTHER_ARCH,
		       kp_arch_native() == x86() ? arm() : x86());
	check_err("p vfs_read ^@+10", KP_E_FILE_ON_KPROBE);
	snprintf(caret, sizeof(caret), "p /proc/self/exe:0x%llx ^@jiffies", (unsigned long long)off);
	check_err(caret, KP_E_SYM_ON_UPROBE);
	/* 7.3's: $current and per-CPU data are the kernel's */
	snprintf(caret, sizeof(caret), "p /proc/self/exe:0x%llx ^$current:u8", (unsigned long long)off);
	check_err(caret, KP_E_BAD_VAR);
	snprintf(caret, sizeof(caret), "p /proc/self/exe:0x%llx x=^this_cpu_ptr(%%di)",
		 (unsigned long long)off);
	check_err(caret, KP_E_NOSUP_PERCPU);
	snprintf(caret, sizeof(caret), "p /proc/self/exe:0x%llx ^(task_struct)%%di->pid",
		 (unsigned long long)off);
	check_err(caret, KP_E_NOSUP_BTFARG);
	snprintf(caret, sizeof(caret), "p /proc/self/exe:0x%llx ^@+zz", (unsigned long long)off);
	check_err(caret, KP_E_BAD_FILE_OFFS);
	snprintf(caret, sizeof(caret), "p /proc/self/exe:0x%llx ^$arg1", (unsigned long long)off);
	check_err(caret, KP_E_BAD_VAR);
	snprintf(caret, sizeof(caret), "r /proc/self/exe:0x%llx ^$duration", (unsigned long long)off);
	check_err(caret, KP_E_UPROBE_VAR);
}
END_TEST

#ifdef KP_USDT_FIXTURES
#define UT_X86 KP_USDT_FIXTURES "/utarget-x86_64"

START_TEST(usdt_definitions)
{
	const struct kp_probe_def *d;
	char caret[512];

	if (access(UT_X86, R_OK))
		return;	/* no x86_64 compiler for the fixture */
	d = parse_arch("u " UT_X86 ":kpmod:tick", x86());
	ck_assert_uint_eq(d->kind, KPMOD_PROBE_UPROBE);
	ck_assert_str_eq(d->group, "sdt_kpmod");
	ck_assert_str_eq(d->event, "tick");
	ck_assert_str_eq(d->path, UT_X86);
	ck_assert_uint_eq(d->ref_ctr_offset, 0);
	/* The note's sizes give the types: (long, char *, struct *). */
	ck_assert_uint_eq(d->nargs, 3);
	ck_assert_str_eq(d->args[0].name, "arg1");
	ck_assert_uint_eq(d->args[0].type, KPMOD_T_S64);
	ck_assert_uint_eq(d->args[1].type, KPMOD_T_U64);
	ck_assert_msg(!strncmp(d->definition, "p:sdt_kpmod/tick " UT_X86 ":0x", 17 + strlen(UT_X86) + 3),
		      "%s", d->definition);

	/* The semaphore, names, a pointer read as a string, a FETCHARG as it is. */
	d = parse_arch("u:g/e " UT_X86 ":kpmod:tock i=arg1 v=arg2:x64 c=$comm", x86());
	ck_assert_str_eq(d->group, "g");
	ck_assert_str_eq(d->event, "e");
	ck_assert_uint_ne(d->ref_ctr_offset, 0);
	ck_assert_uint_eq(d->nargs, 3);
	ck_assert_str_eq(d->args[1].name, "v");
	ck_assert_uint_eq(d->args[1].type, KPMOD_T_X64);
	d = parse_arch("u:ev " UT_X86 ":kpmod:tick w=arg2:string", x86());
	ck_assert_str_eq(d->group, "sdt_kpmod");
	ck_assert_str_eq(d->event, "ev");
	ck_assert_uint_eq(d->args[0].type, KPMOD_T_STRING);
	ck_assert_uint_eq(d->args[0].insns[1].op, KPMOD_FOP_ST_USTRING);
	/* argN inside a FETCHARG */
	d = parse_arch("u " UT_X86 ":kpmod:tick v=+0(arg3):s64 m=-8(+16(arg3)):u8", x86());
	ck_assert_uint_eq(d->args[0].insns[1].op, KPMOD_FOP_ST_UMEM);
	ck_assert_uint_eq(d->args[1].insns[1].op, KPMOD_FOP_UDEREF);
	ck_assert_msg(strstr(d->definition, " v=+0(%r") && !strstr(d->definition, "arg3"), "%s",
		      d->definition);
	/* A RIP-relative argument: @+OFFSET, user memory. */
	d = parse_arch("u " UT_X86 ":kpmod:mem", x86());
	ck_assert_uint_eq(d->args[0].insns[0].op, KPMOD_FOP_FILE_OFFSET);

	check_err_arch("u " UT_X86 ":^kpmod:nope", KP_E_UNKNOWN_MARKER, x86());
	check_err_arch("u ^" UT_X86 ":kpmodtick", KP_E_UNKNOWN_MARKER, x86());
	check_err_arch("u " UT_X86 ":kpmod:tick x=^arg4", KP_E_BAD_USDT_ARG, x86());
	check_err_arch("u " UT_X86 ":kpmod:tick x=+8(^arg0)", KP_E_BAD_USDT_ARG, x86());
	check_err_arch("u ^" UT_X86 ":kpmod:tick", KP_E_ELF_OTHER_ARCH, arm());
	check_err_arch("u ^/proc/self/status:a:b", KP_E_NOT_ELF, x86());
	check_err_arch("u ^/no/such:a:b", KP_E_FILE_NOT_FOUND, x86());
	check_err_arch("u^x " UT_X86 ":kpmod:tick", KP_E_BAD_COMMAND, x86());
	/* An error in a FETCHARG given as it is points into it. */
	snprintf(caret, sizeof(caret), "u " UT_X86 ":kpmod:tick %%di +0(^%%zz)");
	check_err_arch(caret, KP_E_BAD_REG_NAME, x86());
}
END_TEST
#endif

static Suite *probe_def_suite(void)
{
	Suite *s = suite_create("probe_def");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, entry_probe_with_name_and_args);
	tcase_add_test(tc, generated_event_names);
	tcase_add_test(tc, addresses);
	tcase_add_test(tc, group_and_event_names);
	tcase_add_test(tc, return_probes);
	tcase_add_test(tc, delete);
	tcase_add_test(tc, registers);
	tcase_add_test(tc, arch_tables);
	tcase_add_test(tc, memory_and_symbols);
	tcase_add_test(tc, stack_comm_args_and_immediates);
	tcase_add_test(tc, dereferences);
	tcase_add_test(tc, types_arrays_bitfields);
	tcase_add_test(tc, kprobe_syntax_errors_tc);
	tcase_add_test(tc, more_errors);
	tcase_add_test(tc, limits);
	tcase_add_test(tc, format_parse_err);
	tcase_add_test(tc, error_table);
	tcase_add_test(tc, uprobes);
#ifdef KP_USDT_FIXTURES
	tcase_add_test(tc, usdt_definitions);
#endif
	suite_add_tcase(s, tc);
	return s;
}
