// SPDX-License-Identifier: GPL-2.0
/*
 * kpmod-filtercheck: the filter compiler (userspace/lib/filter/filter.c, the same
 * code) against a probe's fields, printing what tracefs' filter file shows
 * after writing the same expression: the expression when it compiles, the
 * expression, a caret, "parse_error: MSG" and an empty line when it does
 * not.
 *
 *   kpmod-filtercheck [-r] EXPR NAME:TYPE ...   TYPE: s8..s64 u8..u64
 *                                               x8..x64 char symbol string
 *   kpmod-filtercheck --gen N SEED              N random expressions
 *
 * -r: a return probe's fields (__probe_func, __probe_ret_ip).  The
 * generator mixes valid and broken predicates, connectors and
 * parentheses over the fields the filter scenario defines.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "userspace/lib/filter/filter.h"

#define KP_MAX_FIELDS 64

static int kp_field_type(const char *type, struct kp_filter_field *f)
{
	unsigned int bits;

	if (!strcmp(type, "string") || !strcmp(type, "ustring") ||
	    !strcmp(type, "symstr")) {
		f->type = KP_FILTER_FIELD_STRING;
		return 0;
	}
	f->type = KP_FILTER_FIELD_NUM;
	if (!strcmp(type, "char")) {
		f->size = 1;
		return 0;
	}
	if (!strcmp(type, "symbol")) {
		f->size = sizeof(long);
		return 0;
	}
	if (sscanf(type + 1, "%u", &bits) != 1 || !strchr("sux", type[0]) ||
	    (bits != 8 && bits != 16 && bits != 32 && bits != 64))
		return -1;
	f->size = bits / 8;
	f->is_signed = type[0] == 's';
	return 0;
}

static const char *pick(const char *const *v, size_t n)
{
	return v[random() % n];
}

#define PICK(v) pick(v, sizeof(v) / sizeof(v[0]))

static const char *const kp_gen_fields[] = {
	"dfd", "dfd", "path", "path", "flags", "mode", "big", "b", "comm",
	"COMM", "cpu", "CPU", "common_pid", "common_cpu", "__probe_ip",
	"nosuch", "", "dfd2", "Path",
};
static const char *const kp_gen_ops[] = {
	"==", "==", "!=", "<", "<=", ">", ">=", "&", "~", "~", "=", "!",
	"=>", "<>", "", "!~",
};
static const char *const kp_gen_values[] = {
	"0", "1", "-1", "42", "0x1f", "0X1F", "017", "09", "-0x10", "0x",
	"-", "12ab", "18446744073709551615", "18446744073709551616",
	"9223372036854775807", "9223372036854775808", "-9223372036854775808",
	"0x0000000000000000000001", "\"/etc/passwd\"", "\"*ss*\"", "'a*'",
	"\"*d\"", "\"a*b\"", "\"[ab]c\"", "\"?\"", "\"!kpmod\"", "\"1*\"",
	"\"\"", "\"*\"", "\"unterminated", "bash", "'it''s'", "\"a&&b\"",
	"\"(x)\"",
};
static const char *const kp_gen_joins[] = {
	"&&", "&&", "||", "||", "&", "|", "", "&&&", "|||",
};

static void kp_gen_space(char *out, size_t size)
{
	static const char *const sp[] = { "", " ", " ", "  ", "\t" };

	strncat(out, PICK(sp), size - strlen(out) - 1);
}

static void kp_gen_pred(char *out, size_t size)
{
	kp_gen_space(out, size);
	if (random() % 6 == 0)
		strncat(out, random() % 4 ? "!" : "!!", size - strlen(out) - 1);
	strncat(out, PICK(kp_gen_fields), size - strlen(out) - 1);
	kp_gen_space(out, size);
	strncat(out, PICK(kp_gen_ops), size - strlen(out) - 1);
	kp_gen_space(out, size);
	strncat(out, PICK(kp_gen_values), size - strlen(out) - 1);
}

static void kp_gen_expr(char *out, size_t size, int depth)
{
	int terms = 1 + random() % 3, t;
	bool paren = depth > 0 && random() % 3 == 0;

	if (paren)
		strncat(out, random() % 8 ? "(" : "((", size - strlen(out) - 1);
	for (t = 0; t < terms; t++) {
		if (t) {
			kp_gen_space(out, size);
			strncat(out, PICK(kp_gen_joins), size - strlen(out) - 1);
		}
		if (depth > 0 && random() % 4 == 0)
			kp_gen_expr(out, size, depth - 1);
		else
			kp_gen_pred(out, size);
	}
	kp_gen_space(out, size);
	if (paren)
		strncat(out, random() % 8 ? ")" : "", size - strlen(out) - 1);
	else if (random() % 20 == 0)
		strncat(out, ")", size - strlen(out) - 1);
}

static int kp_gen(int n, unsigned int seed)
{
	char expr[1024];

	srandom(seed);
	while (n-- > 0) {
		size_t len;

		expr[0] = '\0';
		kp_gen_expr(expr, sizeof(expr), 2);
		/* As the filter file keeps it: trailing blanks stripped. */
		len = strlen(expr);
		while (len && isspace((unsigned char)expr[len - 1]))
			expr[--len] = '\0';
		/* "0" clears a filter instead; an empty line writes nothing. */
		if (!len || !strcmp(expr, "0"))
			continue;
		puts(expr);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct kp_filter_field fields[KP_MAX_FIELDS];
	struct kp_filter_error err;
	struct kp_filter_prog prog;
	unsigned int nr = 0, i;
	bool ret_probe = false;
	char out[8192];
	const char *expr;
	int arg = 1;

	if (argc == 4 && !strcmp(argv[1], "--gen"))
		return kp_gen(atoi(argv[2]), strtoul(argv[3], NULL, 0));
	if (arg < argc && !strcmp(argv[arg], "-r")) {
		ret_probe = true;
		arg++;
	}
	if (arg >= argc) {
		fprintf(stderr, "usage: kpmod-filtercheck [-r] EXPR NAME:TYPE ... | --gen N SEED\n");
		return 2;
	}
	expr = argv[arg++];
	memset(fields, 0, sizeof(fields));
	if (ret_probe) {
		fields[nr++] = (struct kp_filter_field){ .name = "__probe_func",
			.type = KP_FILTER_FIELD_NUM, .size = sizeof(long) };
		fields[nr++] = (struct kp_filter_field){ .name = "__probe_ret_ip",
			.type = KP_FILTER_FIELD_NUM, .size = sizeof(long) };
	} else {
		fields[nr++] = (struct kp_filter_field){ .name = "__probe_ip",
			.type = KP_FILTER_FIELD_NUM, .size = sizeof(long) };
	}
	for (; arg < argc; arg++) {
		char *colon = strchr(argv[arg], ':');

		if (!colon || nr + kp_filter_nr_common_fields >= KP_MAX_FIELDS) {
			fprintf(stderr, "kpmod-filtercheck: bad field %s\n", argv[arg]);
			return 2;
		}
		*colon = '\0';
		fields[nr].name = argv[arg];
		if (kp_field_type(colon + 1, &fields[nr])) {
			fprintf(stderr, "kpmod-filtercheck: bad type %s\n", colon + 1);
			return 2;
		}
		nr++;
	}
	for (i = 0; i < kp_filter_nr_common_fields; i++)
		fields[nr++] = kp_filter_common_fields[i];

	if (kp_filter_compile(expr, fields, nr, &prog, &err)) {
		kp_filter_error_format(out, sizeof(out), expr, &err);
		/* The file adds a newline to the error text, which ends in one. */
		printf("%s\n", out);
		return 1;
	}
	kp_filter_prog_free(&prog);
	printf("%s\n", expr);
	return 0;
}
