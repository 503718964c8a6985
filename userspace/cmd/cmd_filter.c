// SPDX-License-Identifier: GPL-2.0
/*
 * kpmod filter EVENT [EXPR | 0]: prints, sets or clears one probe's filter,
 * as reading and writing tracefs' events/GRP/EVENT/filter do.  The
 * expression is compiled here and checked again by the module; one that
 * does not parse is shown as the kernel shows it, and the filter in force
 * stays.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "filter_probe.h"
#include "probe_ops.h"
#include "session.h"

int kp_cmd_filter(int argc, char **argv)
{
	enum { KP_FILTER_SHOW, KP_FILTER_SET, KP_FILTER_CLEAR } action = KP_FILTER_SHOW;
	const struct kp_probe_info *p;
	struct kp_probe_list l;
	struct kp_status st;
	char *expr = NULL, *start;
	const char *why;
	struct kp_nl nl;
	struct kp_err e;
	size_t len;
	int ret;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: kpmod filter EVENT|GROUP/EVENT [EXPR | 0]\n");
		return KP_EXIT_USAGE;
	}
	if (argc == 3) {
		/* As the filter file: trailing blanks go; "0" alone clears. */
		expr = strdup(argv[2]);
		if (!expr) {
			kp_msg("filter", "out of memory\n");
			return KP_EXIT_ERROR;
		}
		len = strlen(expr);
		while (len && isspace((unsigned char)expr[len - 1]))
			expr[--len] = '\0';
		for (start = expr; isspace((unsigned char)*start); start++)
			;
		action = KP_FILTER_SET;
		if (!strcmp(start, "0")) {
			free(expr);
			expr = NULL;
			action = KP_FILTER_CLEAR;
		}
	}
	ret = kp_session_open("filter", &nl, &st);
	if (ret)
		goto out;
	if (kp_probe_list_get(&nl, &l, &e)) {
		ret = kp_fail("filter", &e);
		goto close;
	}
	p = kp_probe_list_find_name(&l, argv[1], &why);
	if (!p) {
		kp_msg("filter", "'%s': %s\n", argv[1], why);
		ret = KP_EXIT_REFUSED;
	} else if (action == KP_FILTER_SHOW) {
		printf("%s\n", p->filter[0] ? p->filter : "none");
	} else {
		ret = kp_filter_apply(&nl, p, expr);
	}
	kp_probe_list_free(&l);
close:
	kp_nl_close(&nl);
out:
	free(expr);
	return ret;
}
