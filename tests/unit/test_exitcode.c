// SPDX-License-Identifier: GPL-2.0
/* Exit codes and the one-line error messages. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exitcode.h"
#include "suites.h"

static char *print_err(const char *cmd, const struct kp_err *e)
{
	static char buf[1024];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	ck_assert_ptr_nonnull(f);
	kp_err_print(f, cmd, e);
	fclose(f);
	return buf;
}

START_TEST(errno_maps_to_documented_codes)
{
	ck_assert_int_eq(kp_exit_for_errno(0), KP_EXIT_OK);
	ck_assert_int_eq(kp_exit_for_errno(EPERM), KP_EXIT_PERM);
	ck_assert_int_eq(kp_exit_for_errno(EACCES), KP_EXIT_PERM);
	ck_assert_int_eq(kp_exit_for_errno(EINVAL), KP_EXIT_REFUSED);
	ck_assert_int_eq(kp_exit_for_errno(EEXIST), KP_EXIT_REFUSED);
	ck_assert_int_eq(kp_exit_for_errno(ENOENT), KP_EXIT_REFUSED);
	ck_assert_int_eq(kp_exit_for_errno(EBUSY), KP_EXIT_REFUSED);
	ck_assert_int_eq(kp_exit_for_errno(ENOMEM), KP_EXIT_ERROR);
	ck_assert_int_eq(kp_exit_for_errno(EIO), KP_EXIT_ERROR);
	/* Codes are distinct and stable: scripts depend on them. */
	ck_assert_int_eq(KP_EXIT_USAGE, 2);
	ck_assert_int_eq(KP_EXIT_NOMODULE, 3);
	ck_assert_int_eq(KP_EXIT_PERM, 4);
	ck_assert_int_eq(KP_EXIT_REFUSED, 5);
	ck_assert_int_eq(KP_EXIT_MISMATCH, 6);
}
END_TEST

START_TEST(refusal_carries_the_module_message)
{
	struct kp_err e;

	kp_err_set(&e, EINVAL, "unknown register 'zz'");
	ck_assert_int_eq(e.code, KP_EXIT_REFUSED);
	ck_assert_str_eq(print_err("add", &e),
			 "kpmod: add: refused by the module: unknown register 'zz' (Invalid argument)\n");
}
END_TEST

START_TEST(permission_names_the_capability)
{
	struct kp_err e;

	/* Root is told nothing about root: lockdown refuses root too. */
	const char *hint = geteuid() ? "; run as root" : "";
	char want[256];

	kp_err_set(&e, EPERM, NULL);
	snprintf(want, sizeof(want), "kpmod: status: permission denied: kpmod requires CAP_NET_ADMIN and CAP_SYS_ADMIN (Operation not permitted)%s\n", hint);
	ck_assert_str_eq(print_err("status", &e), want);
	kp_err_set(&e, EPERM, "custom");
	snprintf(want, sizeof(want), "kpmod: status: permission denied: custom (Operation not permitted)%s\n", hint);
	ck_assert_str_eq(print_err("status", &e), want);
}
END_TEST

START_TEST(no_module_is_one_clear_line)
{
	struct kp_err e;

	memset(&e, 0, sizeof(e));
	e.code = KP_EXIT_NOMODULE;
	ck_assert_str_eq(print_err("status", &e),
			 "kpmod: status: the kpmod module is not loaded (insmod kpmod.ko, or modprobe kpmod)\n");
}
END_TEST

START_TEST(long_extack_is_truncated_not_overflowed)
{
	struct kp_err e;
	char big[1000];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	kp_err_set(&e, EINVAL, big);
	ck_assert_uint_eq(strlen(e.msg), sizeof(e.msg) - 1);
}
END_TEST

KP_SUITE(exitcode_suite)
static Suite *exitcode_suite(void)
{
	Suite *s = suite_create("exitcode");
	TCase *tc = tcase_create("errors");

	tcase_add_test(tc, errno_maps_to_documented_codes);
	tcase_add_test(tc, refusal_carries_the_module_message);
	tcase_add_test(tc, permission_names_the_capability);
	tcase_add_test(tc, no_module_is_one_clear_line);
	tcase_add_test(tc, long_extack_is_truncated_not_overflowed);
	suite_add_tcase(s, tc);
	return s;
}
