// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>

#include "kver.h"
#include "suites.h"

#define KP_MAX_SUITES 64
static Suite *(*kp_suites[KP_MAX_SUITES])(void);
static int kp_nsuites;

void kp_register_suite(Suite *(*fn)(void))
{
	if (kp_nsuites == KP_MAX_SUITES) {
		fprintf(stderr, "too many suites\n");
		exit(EXIT_FAILURE);
	}
	kp_suites[kp_nsuites++] = fn;
}

int main(void)
{
	SRunner *sr = srunner_create(NULL);
	int i, failed;

	/* Output that follows the running kernel's version: 6.1's, wherever run. */
	kp_kver_set("6.1.0");
	for (i = 0; i < kp_nsuites; i++)
		srunner_add_suite(sr, kp_suites[i]());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
