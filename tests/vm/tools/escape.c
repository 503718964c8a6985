// SPDX-License-Identifier: GPL-2.0
/*
 * kpmod-escape: copies stdin to stdout line by line, escaping each line's
 * bytes as kpmod trace does (userspace/lib/base/escape.c, the same code).  The
 * oracle passes ftrace's raw trace through it before comparing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "userspace/lib/base/escape.h"

int main(void)
{
	char *line = NULL, *out = NULL;
	size_t cap = 0, outcap = 0;
	ssize_t n;

	while ((n = getline(&line, &cap, stdin)) > 0) {
		size_t len = (size_t)n - (line[n - 1] == '\n');

		if (outcap < KP_ESCAPED_MAX(len) + 1) {
			outcap = KP_ESCAPED_MAX(len) + 1;
			out = realloc(out, outcap);
			if (!out)
				return 1;
		}
		fwrite(out, 1, kp_escape_text(out, line, len), stdout);
		putchar('\n');
	}
	free(line);
	free(out);
	return 0;
}
