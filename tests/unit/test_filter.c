// SPDX-License-Identifier: GPL-2.0
/*
 * The filter compiler: operands, patterns and errors as the kernel reads
 * them, and programs that give the same verdict as the expression for
 * every truth assignment of thousands of random expressions.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"
#include "filter_probe.h"
#include "suites.h"

static const struct kp_filter_field kp_test_fields[] = {
	{ .name = "f0", .type = KP_FILTER_FIELD_NUM, .size = 8 },
	{ .name = "f1", .type = KP_FILTER_FIELD_NUM, .size = 8 },
	{ .name = "f2", .type = KP_FILTER_FIELD_NUM, .size = 8 },
	{ .name = "f3", .type = KP_FILTER_FIELD_NUM, .size = 8 },
	{ .name = "f4", .type = KP_FILTER_FIELD_NUM, .size = 8 },
	{ .name = "f5", .type = KP_FILTER_FIELD_NUM, .size = 8 },
	{ .name = "nr", .type = KP_FILTER_FIELD_NUM, .size = 4, .is_signed = true },
	{ .name = "flags", .type = KP_FILTER_FIELD_NUM, .size = 4 },
	{ .name = "path", .type = KP_FILTER_FIELD_STRING },
	{ .name = "comm", .type = KP_FILTER_FIELD_COMM },
	{ .name = "cpu", .type = KP_FILTER_FIELD_CPU, .size = 4, .is_signed = true },
	/* Shadowed: the first field of a name wins. */
	{ .name = "nr", .type = KP_FILTER_FIELD_STRING },
};
#define KP_TEST_NR_FIELDS (sizeof(kp_test_fields) / sizeof(kp_test_fields[0]))

static int compile(const char *expr, struct kp_filter_prog *prog,
		   struct kp_filter_error *err)
{
	memset(err, 0, sizeof(*err));
	return kp_filter_compile(expr, kp_test_fields, KP_TEST_NR_FIELDS, prog, err);
}

/* One predicate, compiled: its pred, or the test fails. */
static struct kp_filter_pred one_pred(const char *expr)
{
	struct kp_filter_prog prog;
	struct kp_filter_error err;
	struct kp_filter_pred p;

	ck_assert_msg(!compile(expr, &prog, &err), "%s: %s", expr, err.msg);
	ck_assert_uint_eq(prog.nr_preds, 1);
	p = prog.preds[0];
	kp_filter_prog_free(&prog);
	return p;
}

static void expect_error(const char *expr, const char *msg, int pos)
{
	struct kp_filter_prog prog;
	struct kp_filter_error err;

	ck_assert_msg(compile(expr, &prog, &err) == -EINVAL, "%s compiled", expr);
	ck_assert_msg(!strcmp(err.msg, msg), "%s: \"%s\", not \"%s\"", expr, err.msg, msg);
	ck_assert_msg(err.pos == pos, "%s: position %d, not %d", expr, err.pos, pos);
	ck_assert_ptr_null(prog.insns);
}

START_TEST(numbers_as_kstrtoll_reads_them)
{
	struct kp_filter_pred p;

	p = one_pred("flags == 0x1F");
	ck_assert_uint_eq(p.val, 31);
	ck_assert_int_eq(p.op, KP_FILTER_OP_EQ);
	p = one_pred("flags<=010");
	ck_assert_uint_eq(p.val, 8);
	ck_assert_int_eq(p.op, KP_FILTER_OP_LE);
	p = one_pred("nr < -1");
	ck_assert_uint_eq(p.val, UINT64_MAX);
	ck_assert_int_eq(p.op, KP_FILTER_OP_LT);
	p = one_pred("nr >= -0x10");
	ck_assert_uint_eq(p.val, (uint64_t)-16);
	p = one_pred("nr != -9223372036854775808");
	ck_assert_uint_eq(p.val, (uint64_t)INT64_MIN);
	ck_assert_int_eq(p.op, KP_FILTER_OP_NE);
	p = one_pred("f0 == 18446744073709551615");
	ck_assert_uint_eq(p.val, UINT64_MAX);
	p = one_pred("flags & 4");
	ck_assert_int_eq(p.op, KP_FILTER_OP_BAND);
	ck_assert_uint_eq(p.field, 7);
	p = one_pred("cpu > 0");
	ck_assert_int_eq(p.op, KP_FILTER_OP_GT);
	ck_assert_uint_eq(p.field, 10);
	p = one_pred("nr == 0");
	ck_assert_uint_eq(p.field, 6);

	/* Unsigned fields take no sign; every byte must be a digit. */
	expect_error("flags == -1", "Illegal integer value", 10);
	expect_error("nr == 08", "Illegal integer value", 7);
	expect_error("nr == 0x", "Illegal integer value", 7);
	expect_error("nr == 12ab", "Illegal integer value", 7);
	expect_error("nr == -", "Illegal integer value", 7);
	expect_error("nr == 9223372036854775808", "Illegal integer value", 7);
	expect_error("f0 == 18446744073709551616", "Illegal integer value", 7);
	expect_error("f0 == 0x0000000000000000000001", "Operand too long", 31);
}
END_TEST

START_TEST(strings_and_patterns)
{
	struct kp_filter_pred p;

	p = one_pred("path == \"/etc/passwd\"");
	ck_assert_str_eq(p.pattern, "/etc/passwd");
	ck_assert_uint_eq(p.len, 11);
	ck_assert_int_eq(p.match, KP_FILTER_MATCH_FULL);
	ck_assert(!p.invert);
	p = one_pred("comm != 'bash'");
	ck_assert_str_eq(p.pattern, "bash");
	ck_assert(p.invert);
	ck_assert_uint_eq(p.field, 9);
	p = one_pred("path ~ \"/etc/*\"");
	ck_assert_int_eq(p.match, KP_FILTER_MATCH_FRONT);
	ck_assert_str_eq(p.pattern, "/etc/");
	p = one_pred("path ~ \"*.conf\"");
	ck_assert_int_eq(p.match, KP_FILTER_MATCH_END);
	ck_assert_str_eq(p.pattern, ".conf");
	p = one_pred("path ~ \"*ssh*\"");
	ck_assert_int_eq(p.match, KP_FILTER_MATCH_MIDDLE);
	ck_assert_str_eq(p.pattern, "ssh");
	ck_assert_uint_eq(p.len, 3);
	p = one_pred("path ~ \"/e*c/x\"");
	ck_assert_int_eq(p.match, KP_FILTER_MATCH_GLOB);
	ck_assert_str_eq(p.pattern, "/e*c/x");
	p = one_pred("path ~ \"ba?h\"");
	ck_assert_int_eq(p.match, KP_FILTER_MATCH_GLOB);
	p = one_pred("path ~ \"[bz]ash\"");
	ck_assert_int_eq(p.match, KP_FILTER_MATCH_GLOB);
	p = one_pred("comm ~ \"!bash\"");
	ck_assert_int_eq(p.match, KP_FILTER_MATCH_FULL);
	ck_assert_str_eq(p.pattern, "bash");
	ck_assert(p.invert);
	p = one_pred("comm ~ \"1*\"");	/* a leading digit: a full match */
	ck_assert_int_eq(p.match, KP_FILTER_MATCH_FULL);
	ck_assert_str_eq(p.pattern, "1*");
	p = one_pred("comm ~ \"*\"");
	ck_assert_int_eq(p.match, KP_FILTER_MATCH_END);
	ck_assert_uint_eq(p.len, 0);
	p = one_pred("path.ustring == \"x\"");
	ck_assert_str_eq(p.pattern, "x");
	p = one_pred("path == \"a&&b||(c)\"");
	ck_assert_str_eq(p.pattern, "a&&b||(c)");

	expect_error("path < \"a\"", "Illegal operation for field type", 8);
	expect_error("nr ~ \"a\"", "Expecting numeric field", 6);
	expect_error("path == 1", "Expecting string field", 9);
	expect_error("comm == bash", "Invalid value (did you forget quotes)?", 9);
	expect_error("nr ~ 1", "Illegal operation for field type", 6);
}
END_TEST

START_TEST(long_operands)
{
	char expr[KP_FILTER_STR_MAX + 32];
	struct kp_filter_pred p;

	snprintf(expr, sizeof(expr), "path == \"%0*d\"", KP_FILTER_STR_MAX - 1, 0);
	p = one_pred(expr);
	ck_assert_uint_eq(p.len, KP_FILTER_STR_MAX - 1);
	snprintf(expr, sizeof(expr), "path == \"%0*d\"", KP_FILTER_STR_MAX, 0);
	expect_error(expr, "Operand too long", 9 + KP_FILTER_STR_MAX + 1);
}
END_TEST

START_TEST(syntax_errors)
{
	char *big;

	expect_error("foo == 1", "Field not found", 4);
	expect_error("nr = 1", "Invalid operator", 4);
	expect_error("nr == 1 && (f0 == 1", "Too many '('", 11);
	expect_error("nr == 1)", "Too few '('", 7);
	expect_error("(nr == 1))", "Too few '('", 9);
	expect_error("comm == \"bash", "Missing matching quote", 8);
	expect_error("nr == 1 f0 == 2", "Too many terms in predicate expression", 8);
	expect_error("nr == 1 &", "Too many terms in predicate expression", 8);
	expect_error("nr == 1 &&", "Meaningless filter expression", 10);
	expect_error("", "No filter found", 0);
	expect_error("   ", "No filter found", 0);
	expect_error("()", "No filter found", 0);
	big = malloc(KP_FILTER_TEXT_MAX + 1);
	memset(big, ' ', KP_FILTER_TEXT_MAX);
	big[KP_FILTER_TEXT_MAX] = '\0';
	memcpy(big, "nr == 1", 7);
	expect_error(big, "Filter string too long", 0);
	free(big);
}
END_TEST

START_TEST(error_text_as_the_filter_file_shows_it)
{
	struct kp_filter_error err = { .pos = 4, .msg = "Field not found" };
	char buf[128];

	kp_filter_error_format(buf, sizeof(buf), "foo == 1", &err);
	ck_assert_str_eq(buf, "foo == 1\n    ^\nparse_error: Field not found\n");
	err.pos = 0;
	err.msg = "No filter found";
	kp_filter_error_format(buf, sizeof(buf), "", &err);
	ck_assert_str_eq(buf, "\n^\nparse_error: No filter found\n");
	err.pos = 99;	/* clipped to the end */
	kp_filter_error_format(buf, sizeof(buf), "ab", &err);
	ck_assert_str_eq(buf, "ab\n  ^\nparse_error: No filter found\n");
}
END_TEST

/* --- The program against the expression, over random expressions. --- */

#define KP_TEST_VARS 6

/* A recursive evaluator of the generated text: !, &&, ||, ( ). */
struct kp_ref {
	const char *s;
	unsigned int bits;
};

static bool ref_or(struct kp_ref *r);

static void ref_space(struct kp_ref *r)
{
	while (*r->s == ' ')
		r->s++;
}

static bool ref_primary(struct kp_ref *r)
{
	bool v;

	ref_space(r);
	if (*r->s == '!') {
		r->s++;
		return !ref_primary(r);
	}
	if (*r->s == '(') {
		r->s++;
		v = ref_or(r);
		ref_space(r);
		if (*r->s != ')')
			ck_abort_msg("no ')' at %s", r->s);
		r->s++;
		return v;
	}
	/* "fK == 1" */
	if (r->s[0] != 'f')
		ck_abort_msg("no field at %s", r->s);
	v = (r->bits >> (r->s[1] - '0')) & 1;
	r->s += 2;
	ref_space(r);
	if (strncmp(r->s, "==", 2))
		ck_abort_msg("no == at %s", r->s);
	r->s += 2;
	ref_space(r);
	if (*r->s != '1')
		ck_abort_msg("no 1 at %s", r->s);
	r->s++;
	return v;
}

static bool ref_and(struct kp_ref *r)
{
	bool v = ref_primary(r);

	for (;;) {
		ref_space(r);
		if (strncmp(r->s, "&&", 2))
			return v;
		r->s += 2;
		v = ref_primary(r) && v;
	}
}

static bool ref_or(struct kp_ref *r)
{
	bool v = ref_and(r);

	for (;;) {
		ref_space(r);
		if (strncmp(r->s, "||", 2))
			return v;
		r->s += 2;
		v = ref_and(r) || v;
	}
}

/* The program, run as a handler would run it. */
static bool run(const struct kp_filter_prog *prog, unsigned int bits)
{
	unsigned int i = 0, steps = 0;

	while (prog->insns[i].pred != KP_FILTER_END) {
		const struct kp_filter_insn *in = &prog->insns[i];
		const struct kp_filter_pred *p = &prog->preds[in->pred];
		bool match = ((bits >> p->field) & 1) == p->val;

		/* (check's asserts cost a write each: only on failure) */
		if (steps++ >= prog->nr_preds)
			ck_abort_msg("more steps than predicates");
		if (match == in->when_to_branch) {
			if (in->target <= i || in->target > prog->nr_preds + 1)
				ck_abort_msg("entry %u jumps to %u", i, in->target);
			i = in->target;
		} else {
			i++;
		}
	}
	if (i < prog->nr_preds)
		ck_abort_msg("ended at entry %u", i);
	return prog->insns[i].target;
}

static unsigned int kp_test_seed = 1;

static unsigned int rnd(unsigned int n)
{
	kp_test_seed = kp_test_seed * 1103515245 + 12345;
	return (kp_test_seed >> 16) % n;
}

static void gen(char *out, size_t size, int depth)
{
	size_t len = strlen(out);
	const char *sp = rnd(3) ? " " : "";

	if (rnd(4) == 0)
		snprintf(out + len, size - len, "!%s", sp);
	len = strlen(out);
	if (depth > 0 && rnd(3)) {
		int terms = 2 + rnd(3), t;
		bool paren = rnd(2);

		if (paren)
			snprintf(out + len, size - len, "(");
		for (t = 0; t < terms; t++) {
			if (t) {
				len = strlen(out);
				snprintf(out + len, size - len, "%s%s%s", sp,
					 rnd(2) ? "&&" : "||", sp);
			}
			gen(out, size, depth - 1);
		}
		len = strlen(out);
		if (paren)
			snprintf(out + len, size - len, ")");
		return;
	}
	snprintf(out + len, size - len, "f%u%s==%s1", rnd(KP_TEST_VARS), sp, sp);
}

START_TEST(programs_agree_with_the_expression)
{
	static const char *const fixed[] = {
		"f0 == 1", "!f0 == 1", "f0 == 1 && f1 == 1 || f2 == 1",
		"f0 == 1 || f1 == 1 && f2 == 1", "!(f0 == 1 || f1 == 1) && f2 == 1",
		"((((f0 == 1))))", "!!f0 == 1", "f0 == 1 && !(f1 == 1 && !(f2 == 1 || f3 == 1))",
		"f0==1||f1==1||f2==1||f3==1||f4==1||f5==1",
		"f0==1&&f1==1&&f2==1&&f3==1&&f4==1&&f5==1",
	};
	char expr[2048];
	unsigned int e, bits, nfixed = sizeof(fixed) / sizeof(fixed[0]);

	for (e = 0; e < nfixed + 5000; e++) {
		struct kp_filter_prog prog;
		struct kp_filter_error err;

		if (e < nfixed) {
			snprintf(expr, sizeof(expr), "%s", fixed[e]);
		} else {
			expr[0] = '\0';
			gen(expr, sizeof(expr), 3);
		}
		ck_assert_msg(!compile(expr, &prog, &err), "%s: %s at %d", expr, err.msg, err.pos);
		for (bits = 0; bits < 1u << KP_TEST_VARS; bits++) {
			struct kp_ref r = { .s = expr, .bits = bits };
			bool want = ref_or(&r);

			if (run(&prog, bits) != want)
				ck_abort_msg("%s with bits %#x", expr, bits);
		}
		kp_filter_prog_free(&prog);
	}
}
END_TEST

/* --- A probe's fields, and the program in the module's form. --- */

START_TEST(a_probe_filter_in_the_modules_form)
{
	static struct kp_probe_info p;
	struct kp_filter_fields ff;
	struct kp_filter_code code;
	struct kp_filter_error err;
	const char *why;

	memset(&p, 0, sizeof(p));
	p.desc.kind = KPMOD_PROBE_ENTRY;
	p.desc.nargs = 4;
	strcpy(p.desc.args[0].name, "nr");
	p.desc.args[0].type = KPMOD_T_S32;
	p.desc.args[0].size = 4;
	strcpy(p.desc.args[1].name, "path");
	p.desc.args[1].type = KPMOD_T_USTRING;
	p.desc.args[1].size = 4;
	strcpy(p.desc.args[2].name, "arr");
	p.desc.args[2].type = KPMOD_T_U8;
	p.desc.args[2].count = 8;
	p.desc.args[2].size = 8;
	strcpy(p.desc.args[3].name, "comm");	/* shadows the common comm */
	p.desc.args[3].type = KPMOD_T_U32;
	p.desc.args[3].size = 4;
	kp_filter_fields_of(&p, &ff);

	ck_assert_int_eq(kp_filter_build("nr < 5 || path ~ \"*.so\" && cpu != 1 && common_pid > 0",
					 &ff, &code, &err, &why), 0);
	ck_assert_uint_eq(code.nr, 4);
	ck_assert_int_eq(code.preds[0].op, KPMOD_FILTER_LT);
	ck_assert_int_eq(code.preds[0].field, 0);
	ck_assert_uint_eq(code.preds[0].val, 5);
	/* nr < 5 true: the event matches (entry 4, past the last). */
	ck_assert_int_eq(code.preds[0].flags, KPMOD_FILTER_BRANCH);
	ck_assert_int_eq(code.preds[0].target, 4);
	ck_assert_int_eq(code.preds[1].op, KPMOD_FILTER_STR_END);
	ck_assert_int_eq(code.preds[1].field, 1);
	ck_assert_int_eq(code.preds[1].len, 3);
	ck_assert_str_eq(code.strs + code.preds[1].str_off, ".so");
	/* path does not end in .so: no match (entry 5). */
	ck_assert_int_eq(code.preds[1].flags, 0);
	ck_assert_int_eq(code.preds[1].target, 5);
	ck_assert_int_eq(code.preds[2].op, KPMOD_FILTER_NE);
	ck_assert_int_eq(code.preds[2].field, KPMOD_FIELD_CPU);
	ck_assert_int_eq(code.preds[3].op, KPMOD_FILTER_GT);
	ck_assert_int_eq(code.preds[3].field, KPMOD_FIELD_PID);
	ck_assert_int_eq(code.preds[3].target, 5);
	ck_assert_uint_eq(code.strs_len, 4);
	kp_filter_code_free(&code);

	/* The argument named comm is a number, found before the task's name. */
	ck_assert_int_eq(kp_filter_build("comm == 3", &ff, &code, &err, &why), 0);
	ck_assert_int_eq(code.preds[0].field, 3);
	ck_assert_ptr_null(code.strs);
	kp_filter_code_free(&code);
	ck_assert_int_eq(kp_filter_build("COMM ~ \"!sh*\"", &ff, &code, &err, &why), 0);
	ck_assert_int_eq(code.preds[0].field, KPMOD_FIELD_COMM);
	ck_assert_int_eq(code.preds[0].op, KPMOD_FILTER_STR_FRONT);
	ck_assert_int_eq(code.preds[0].flags, KPMOD_FILTER_INVERT);
	kp_filter_code_free(&code);

	/* What the kernel accepts and the module cannot compare: refused. */
	ck_assert_int_eq(kp_filter_build("arr == 1", &ff, &code, &err, &why), -EPERM);
	ck_assert_str_eq(why, "an array argument cannot be filtered on");
	ck_assert_int_eq(kp_filter_build("__probe_ret_ip == 1", &ff, &code, &err, &why), -EINVAL);
	ck_assert_str_eq(err.msg, "Field not found");

	{
		/* 257 predicates: past the module's bound, refused here. */
		static char many[257 * 12];
		size_t len = 0;
		int t;

		for (t = 0; t < 257; t++)
			len += sprintf(many + len, "%snr == %d", t ? "||" : "", t);
		ck_assert_int_eq(kp_filter_build(many, &ff, &code, &err, &why), -EINVAL);
		ck_assert_str_eq(err.msg, "Too many terms in predicate expression");
		many[len - strlen("||nr == 256")] = '\0';
		ck_assert_int_eq(kp_filter_build(many, &ff, &code, &err, &why), 0);
		ck_assert_uint_eq(code.nr, 256);
		kp_filter_code_free(&code);
	}

	p.desc.kind = KPMOD_PROBE_RETURN;
	kp_filter_fields_of(&p, &ff);
	ck_assert_int_eq(kp_filter_build("__probe_ret_ip != 0 && __probe_func > 1", &ff, &code,
					 &err, &why), 0);
	ck_assert_int_eq(code.preds[0].field, KPMOD_FIELD_PROBE_RET_IP);
	ck_assert_int_eq(code.preds[1].field, KPMOD_FIELD_PROBE_FUNC);
	kp_filter_code_free(&code);
}
END_TEST

KP_SUITE(filter_suite)
static Suite *filter_suite(void)
{
	Suite *s = suite_create("filter");
	TCase *tc = tcase_create("compile");

	tcase_add_test(tc, numbers_as_kstrtoll_reads_them);
	tcase_add_test(tc, strings_and_patterns);
	tcase_add_test(tc, long_operands);
	tcase_add_test(tc, syntax_errors);
	tcase_add_test(tc, error_text_as_the_filter_file_shows_it);
	tcase_add_test(tc, programs_agree_with_the_expression);
	tcase_add_test(tc, a_probe_filter_in_the_modules_form);
	suite_add_tcase(s, tc);
	return s;
}
