/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Each test file registers its suites with KP_SUITE(fn), fn returning a
 * Suite *; main.c runs every registered suite.  No shared list to edit.
 */
#ifndef KPMOD_TEST_SUITES_H
#define KPMOD_TEST_SUITES_H

#include <check.h>

#include <stddef.h>

void kp_register_suite(Suite *(*fn)(void));

/* Runs kp_main with stdout/stderr captured into @out/@err (test_cli.c). */
int run_main(char *out, size_t outsz, char *err, size_t errsz, int argc, char **argv);

#define KP_SUITE(fn)							\
	static Suite *fn(void);						\
	__attribute__((constructor)) static void fn##_register(void)	\
	{								\
		kp_register_suite(fn);					\
	}

#endif
