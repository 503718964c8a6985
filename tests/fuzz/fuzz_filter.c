// SPDX-License-Identifier: GPL-2.0
/*
 * Event filters: the compiler (kp_filter_compile()) and its front for a
 * probe (kp_filter_build(), as `kpmod filter` calls it), the error printed
 * as the kernel prints it when the expression is refused.
 *
 * The first byte chooses, the rest is the expression: bit 0 clear, the
 * compiler over the unit tests' fields; set, kp_filter_build() over a
 * probe's (bit 1: an entry or a return probe).  Seeds start with '0'
 * (compiler), '1' (entry probe) or '3' (return probe).
 */
#include <errno.h>

#include "fields.h"
#include "fuzz.h"

static const struct kp_filter_field test_fields[] = {
	{ .name = "f0", .type = KP_FILTER_FIELD_NUM, .size = 8 },
	{ .name = "f1", .type = KP_FILTER_FIELD_NUM, .size = 8 },
	{ .name = "nr", .type = KP_FILTER_FIELD_NUM, .size = 4, .is_signed = true },
	{ .name = "flags", .type = KP_FILTER_FIELD_NUM, .size = 4 },
	{ .name = "b", .type = KP_FILTER_FIELD_NUM, .size = 1 },
	{ .name = "path", .type = KP_FILTER_FIELD_STRING },
	{ .name = "comm", .type = KP_FILTER_FIELD_COMM },
	{ .name = "cpu", .type = KP_FILTER_FIELD_CPU, .size = 4, .is_signed = true },
	/* Shadowed: the first field of a name wins. */
	{ .name = "nr", .type = KP_FILTER_FIELD_STRING },
};
#define NR_TEST_FIELDS (sizeof(test_fields) / sizeof(test_fields[0]))

static void print_error(const char *expr, const struct kp_filter_error *err)
{
	int len = kp_filter_error_format(NULL, 0, expr, err);
	char *buf;

	FUZZ_ASSERT(err->msg && err->msg[0], "no message: %s", expr);
	FUZZ_ASSERT(len > 0, "error format: %d", len);
	buf = malloc((size_t)len + 1);
	if (!buf)
		abort();
	FUZZ_ASSERT(kp_filter_error_format(buf, (size_t)len + 1, expr, err) == len,
		    "error format changed its length");
	fputs(buf, fuzz_devnull());
	free(buf);
}

/* The program as kp_filter_compile() promises it. */
static void check_prog(const struct kp_filter_prog *prog, unsigned int nr_fields,
		       const char *expr)
{
	unsigned int i, n = prog->nr_preds;

	FUZZ_ASSERT(n > 0, "no predicate: %s", expr);
	for (i = 0; i < n; i++) {
		const struct kp_filter_pred *p = &prog->preds[i];

		FUZZ_ASSERT(prog->insns[i].pred == (int)i, "entry %u: pred %d: %s", i,
			    prog->insns[i].pred, expr);
		FUZZ_ASSERT(prog->insns[i].target > i && prog->insns[i].target <= n + 1,
			    "entry %u of %u: target %u: %s", i, n, prog->insns[i].target, expr);
		FUZZ_ASSERT(p->field < nr_fields, "entry %u: field %u: %s", i, p->field, expr);
		FUZZ_ASSERT(p->len < KP_FILTER_STR_MAX && p->len == strlen(p->pattern),
			    "entry %u: pattern of %u bytes: %s", i, p->len, expr);
	}
	FUZZ_ASSERT(prog->insns[n].pred == KP_FILTER_END && prog->insns[n].target == 1 &&
		    prog->insns[n + 1].pred == KP_FILTER_END && !prog->insns[n + 1].target,
		    "no verdicts: %s", expr);
}

/* The program as the module's kpmod_filter_check() takes it. */
static void check_code(const struct kp_filter_code *code, const char *expr)
{
	size_t i;

	FUZZ_ASSERT(code->nr > 0 && code->nr <= KPMOD_MAX_FILTER_PREDS, "%zu predicates: %s",
		    code->nr, expr);
	FUZZ_ASSERT(code->strs_len <= KPMOD_MAX_FILTER_STRS, "%zu bytes of strings: %s",
		    code->strs_len, expr);
	for (i = 0; i < code->nr; i++) {
		const struct kpmod_filter_pred *u = &code->preds[i];
		bool str_op = u->op >= KPMOD_FILTER_STR_FULL && u->op <= KPMOD_FILTER_STR_GLOB;

		FUZZ_ASSERT(u->op && u->op < __KPMOD_FILTER_OP_MAX && !u->__reserved &&
			    !(u->flags & ~(KPMOD_FILTER_BRANCH | KPMOD_FILTER_INVERT)),
			    "predicate %zu: op %u flags %#x: %s", i, u->op, u->flags, expr);
		FUZZ_ASSERT(u->target > i && u->target <= code->nr + 1,
			    "predicate %zu of %zu: target %u: %s", i, code->nr, u->target, expr);
		if (!str_op) {
			FUZZ_ASSERT(!(u->flags & KPMOD_FILTER_INVERT) && !u->len && !u->str_off,
				    "predicate %zu: a number with a string: %s", i, expr);
			continue;
		}
		FUZZ_ASSERT(!u->val && u->len < KPMOD_MAX_FILTER_STR &&
			    (uint64_t)u->str_off + u->len < code->strs_len &&
			    !code->strs[u->str_off + u->len] &&
			    !memchr(code->strs + u->str_off, 0, u->len),
			    "predicate %zu: bad string operand: %s", i, expr);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct kp_filter_fields ff;
	struct kp_filter_error err;
	struct kp_filter_prog prog;
	struct kp_filter_code code;
	const char *why;
	char *expr;
	int ret;

	if (!size)
		return 0;
	expr = fuzz_str(data + 1, size - 1);
	memset(&err, 0, sizeof(err));
	if (!(data[0] & 1)) {
		ret = kp_filter_compile(expr, test_fields, NR_TEST_FIELDS, &prog, &err);
		if (!ret) {
			check_prog(&prog, NR_TEST_FIELDS, expr);
			kp_filter_prog_free(&prog);
		}
	} else {
		fuzz_fields(data[0] & 2 ? KPMOD_PROBE_RETURN : KPMOD_PROBE_ENTRY, &ff);
		ret = kp_filter_build(expr, &ff, &code, &err, &why);
		if (!ret) {
			check_code(&code, expr);
			kp_filter_code_free(&code);
		} else if (ret == -EPERM) {
			FUZZ_ASSERT(why && why[0], "refused without a reason: %s", expr);
		}
	}
	FUZZ_ASSERT(!ret || ret == -EINVAL || ret == -EPERM, "%d: %s", ret, expr);
	if (ret == -EINVAL)
		print_error(expr, &err);
	free(expr);
	return 0;
}
