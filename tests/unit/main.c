// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>

#include "suites.h"

int main(void)
{
	SRunner *sr = srunner_create(cli_suite());
	int failed;

	srunner_add_suite(sr, exitcode_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
