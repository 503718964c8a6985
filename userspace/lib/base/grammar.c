// SPDX-License-Identifier: GPL-2.0
/*
 * What the trigger and hist grammars share: a refusal as error_log shows
 * it (message, command, caret), and the kernel's string helpers they are
 * parsed with (strim(), skip_spaces(), kstrtoul()).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grammar.h"

void kp_gram_err(struct kp_trigger_error *err, const char *cmd, const char *at,
		   const char *msg)
{
	const char *found = at && *at && cmd ? strstr(cmd, at) : NULL;

	snprintf(err->msg, sizeof(err->msg), "%s", msg);
	snprintf(err->cmd, sizeof(err->cmd), "%s", cmd ? cmd : "");
	err->pos = found ? (int)(found - cmd) : 0;
}

char *kp_strim(char *s)
{
	size_t len;

	while (isspace((unsigned char)*s))
		s++;
	len = strlen(s);
	while (len && isspace((unsigned char)s[len - 1]))
		s[--len] = '\0';
	return s;
}

char *kp_skip_spaces(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* kstrtoul(s, 0): the whole string, base from its prefix. */
int kp_strtoul(const char *s, unsigned long long *out)
{
	char *end;

	if (!*s || *s == '-' || *s == '+' || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*out = strtoull(s, &end, 0);
	if (errno || *end)
		return -EINVAL;
	return 0;
}

int kp_trigger_error_format(char *buf, size_t len, const char *where,
			    const struct kp_trigger_error *err)
{
	return snprintf(buf, len, "%s: error: %s\n  Command: %s\n%*s^\n", where, err->msg,
			err->cmd, err->pos + 11, "");
}
