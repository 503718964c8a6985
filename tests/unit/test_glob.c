// SPDX-License-Identifier: GPL-2.0
/*
 * The module's filter glob (module/glob.c, compiled here for the host with
 * the two kernel names it uses) against fnmatch(3) on random patterns, in
 * the grammar both share: '*', '?', '[set]' with ordered ranges and '!',
 * '\' before a letter.
 */
#include <fnmatch.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint32_t u32;
#define fallthrough __attribute__((__fallthrough__))
#include "module/glob.c"

#include "suites.h"

static const char kp_letters[] = "abc";

static char kp_letter(void)
{
	return kp_letters[rand() % 3];
}

/* A random pattern of up to 6 items over "abc". */
static void kp_gen_pattern(char *p)
{
	int n = rand() % 7, i;

	for (i = 0; i < n; i++) {
		switch (rand() % 8) {
		case 0:
			*p++ = '*';
			break;
		case 1:
			*p++ = '?';
			break;
		case 2: {
			int m = 1 + rand() % 3, j;

			*p++ = '[';
			if (rand() % 2)
				*p++ = '!';
			for (j = 0; j < m; j++) {
				char a = kp_letter(), b = kp_letter();

				if (rand() % 2 && a < b) {
					*p++ = a;
					*p++ = '-';
					*p++ = b;
				} else {
					*p++ = a;
				}
			}
			*p++ = ']';
			break;
		}
		case 3:
			*p++ = '\\';
			*p++ = kp_letter();
			break;
		default:
			*p++ = kp_letter();
			break;
		}
	}
	*p = '\0';
}

static void kp_gen_string(char *s)
{
	int n = rand() % 6, i;

	for (i = 0; i < n; i++)
		s[i] = kp_letter();
	s[n] = '\0';
}

START_TEST(glob_as_fnmatch_on_random_patterns)
{
	char pat[64], str[16];
	int i;

	srand(20261127);
	for (i = 0; i < 300000; i++) {
		bool want, got;

		kp_gen_pattern(pat);
		kp_gen_string(str);
		want = fnmatch(pat, str, 0) == 0;
		got = kpmod_glob(pat, str, strlen(str));
		ck_assert_msg(got == want, "'%s' ~ '%s': module %d, fnmatch %d", str, pat, got, want);
	}
}
END_TEST

START_TEST(glob_counted_string)
{
	/* A record's string is counted: what follows its length is not part of it. */
	ck_assert(kpmod_glob("sleep", "sleepy", 5));
	ck_assert(!kpmod_glob("sleep?", "sleepy", 5));
	ck_assert(!kpmod_glob("sleep[!x]", "sleepy", 5));
	ck_assert(kpmod_glob("sleep[!x]", "sleepy", 6));
}
END_TEST

START_TEST(glob_set_never_matches_the_end)
{
	ck_assert(!kpmod_glob("sleep[!x]", "sleep", 5));
	ck_assert(!kpmod_glob("sleep[a-z]", "sleep", 5));
	ck_assert(!kpmod_glob("*[!x]", "", 0));
	ck_assert(kpmod_glob("*[!x]", "sleep", 5));
}
END_TEST

KP_SUITE(glob_suite)
static Suite *glob_suite(void)
{
	Suite *s = suite_create("glob");
	TCase *tc = tcase_create("glob");

	tcase_add_test(tc, glob_as_fnmatch_on_random_patterns);
	tcase_add_test(tc, glob_counted_string);
	tcase_add_test(tc, glob_set_never_matches_the_end);
	suite_add_tcase(s, tc);
	return s;
}
