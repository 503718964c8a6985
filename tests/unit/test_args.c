// SPDX-License-Identifier: GPL-2.0
/* Sizes and event names as the command line and probe files give them. */
#include <stdint.h>

#include "args.h"
#include "uapi/kpmod.h"
#include "suites.h"

static int size_of(const char *s, uint64_t *v)
{
	*v = 12345;
	return kp_parse_size(s, v);
}

START_TEST(sizes_with_their_suffixes)
{
	uint64_t v;

	ck_assert_int_eq(size_of("1048576", &v), 0);
	ck_assert_uint_eq(v, 1048576);
	ck_assert_int_eq(size_of("64K", &v), 0);
	ck_assert_uint_eq(v, 65536);
	ck_assert_int_eq(size_of("64k", &v), 0);
	ck_assert_uint_eq(v, 65536);
	ck_assert_int_eq(size_of("1M", &v), 0);
	ck_assert_uint_eq(v, 1 << 20);
	ck_assert_int_eq(size_of("1MiB", &v), 0);
	ck_assert_uint_eq(v, 1 << 20);
	ck_assert_int_eq(size_of("2GB", &v), 0);
	ck_assert_uint_eq(v, 2ULL << 30);
	ck_assert_int_eq(size_of("0", &v), 0);
	ck_assert_uint_eq(v, 0);
}
END_TEST

START_TEST(sizes_refused_leave_the_value)
{
	static const char *const bad[] = {
		"", "-1", "K", "1T", "1KX", "1 M", "1024B", "1Mi B", "0x10",
		/* Past 2^64 - 1: refused, not wrapped to a small size. */
		"17592186044417M", "17179869185G", "18014398509481985K",
		"18446744073709551616",
	};
	uint64_t v;
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(size_of(bad[i], &v) == -1, "'%s' accepted", bad[i]);
		ck_assert_uint_eq(v, 12345);
	}
	/* The largest of each suffix still parses. */
	ck_assert_int_eq(size_of("17179869183G", &v), 0);
	ck_assert_uint_eq(v, 17179869183ULL << 30);
	ck_assert_int_eq(size_of("18446744073709551615", &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
}
END_TEST

START_TEST(event_names_split)
{
	char g[8], e[8];

	ck_assert_int_eq(kp_split_event_name("grp/ev", g, sizeof(g), e, sizeof(e)), 0);
	ck_assert_str_eq(g, "grp");
	ck_assert_str_eq(e, "ev");
	ck_assert_int_eq(kp_split_event_name("-:grp/ev", g, sizeof(g), e, sizeof(e)), 0);
	ck_assert_str_eq(g, "grp");
	ck_assert_int_eq(kp_split_event_name("ev", g, sizeof(g), e, sizeof(e)), 0);
	ck_assert_str_eq(g, "");
	ck_assert_str_eq(e, "ev");
	ck_assert_int_eq(kp_split_event_name("/ev", g, sizeof(g), e, sizeof(e)), -1);
	ck_assert_int_eq(kp_split_event_name("grp/", g, sizeof(g), e, sizeof(e)), -1);
	ck_assert_int_eq(kp_split_event_name("a/b/c", g, sizeof(g), e, sizeof(e)), -1);
	ck_assert_int_eq(kp_split_event_name("toolonggroup/e", g, sizeof(g), e, sizeof(e)), -1);
	ck_assert_int_eq(kp_split_event_name("g/toolongevent", g, sizeof(g), e, sizeof(e)), -1);
}
END_TEST

START_TEST(buffer_modes_by_name)
{
	ck_assert_int_eq(kp_parse_buf_mode("discard"), KPMOD_BUF_DISCARD);
	ck_assert_int_eq(kp_parse_buf_mode("overwrite"), KPMOD_BUF_OVERWRITE);
	ck_assert_int_eq(kp_parse_buf_mode(""), -1);
	ck_assert_int_eq(kp_parse_buf_mode("Discard"), -1);
	ck_assert_int_eq(kp_parse_buf_mode("overwrite "), -1);
	ck_assert_str_eq(kpmod_buf_mode_name(KPMOD_BUF_OVERWRITE), "overwrite");
	ck_assert_str_eq(kpmod_buf_mode_name(KPMOD_BUF_DISCARD), "discard");
}
END_TEST

START_TEST(ring_sizes_both_sides_accept)
{
	ck_assert(kpmod_buf_size_valid(65536));
	ck_assert(kpmod_buf_size_valid(268435456));
	ck_assert(kpmod_buf_size_valid(1048576));
	ck_assert(!kpmod_buf_size_valid(32768));
	ck_assert(!kpmod_buf_size_valid(536870912));
	ck_assert(!kpmod_buf_size_valid(65536 + 4096));
	ck_assert(!kpmod_buf_size_valid(0));
}
END_TEST

KP_SUITE(args_suite)
static Suite *args_suite(void)
{
	Suite *s = suite_create("args");
	TCase *tc = tcase_create("values");

	tcase_add_test(tc, sizes_with_their_suffixes);
	tcase_add_test(tc, sizes_refused_leave_the_value);
	tcase_add_test(tc, event_names_split);
	tcase_add_test(tc, buffer_modes_by_name);
	tcase_add_test(tc, ring_sizes_both_sides_accept);
	suite_add_tcase(s, tc);
	return s;
}
