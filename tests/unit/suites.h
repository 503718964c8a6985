/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KPMOD_TEST_SUITES_H
#define KPMOD_TEST_SUITES_H

#include <check.h>

Suite *cli_suite(void);
Suite *exitcode_suite(void);

#endif
