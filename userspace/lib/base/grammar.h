/* SPDX-License-Identifier: GPL-2.0 */
/* What the trigger and hist grammars share (grammar.c). */
#ifndef KPMOD_GRAMMAR_H
#define KPMOD_GRAMMAR_H

#include <stddef.h>

#define KP_TRIGGER_TEXT_MAX 1024

/* A refusal: the kernel's message, and where (error_log's caret), if it has one. */
struct kp_trigger_error {
	char msg[160];
	char cmd[KP_TRIGGER_TEXT_MAX];	/* error_log's "Command:"; "" for none */
	int pos;
};

/*
 * Refuses with @msg; the caret under the first occurrence of @at in @cmd
 * (error_log's "Command:"; NULL: none).
 */
void kp_gram_err(struct kp_trigger_error *err, const char *cmd, const char *at,
		 const char *msg);
/* The kernel's strim(): blanks off both ends, in place. */
char *kp_strim(char *s);
char *kp_skip_spaces(char *s);
/* kstrtoul(s, 0): the whole string, base from its prefix; 0 or -EINVAL. */
int kp_strtoul(const char *s, unsigned long long *out);

/* What error_log shows for @err (one with a cmd), each line ending in a newline. */
int kp_trigger_error_format(char *buf, size_t len, const char *where,
			    const struct kp_trigger_error *err);

#endif
