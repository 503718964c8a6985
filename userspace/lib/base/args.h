/* SPDX-License-Identifier: GPL-2.0 */
/* Values from the command line and probe files (args.c). */
#ifndef KPMOD_ARGS_H
#define KPMOD_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The one word splitter of definitions (argv_split()'s rule: words
 * between isspace() blanks): the next word of @s (@len bytes) from *@i,
 * true with its bytes at [*@start, *@end) and *@i at its end; false when
 * only blanks are left.
 */
bool kp_next_word(const char *s, size_t len, size_t *i, size_t *start, size_t *end);

/* "GRP/EVENT", "EVENT", "-:[GRP/]EVENT" -> group ("" if none) and event. */
int kp_split_event_name(const char *spec, char *group, size_t gsz, char *event, size_t esz);

/* "discard" or "overwrite": its enum kpmod_buf_mode, or -1. */
int kp_parse_buf_mode(const char *name);

/* Parses "64K", "1M", "1GiB", "1048576"; returns 0, or -1 (also past 2^64 - 1). */
int kp_parse_size(const char *s, uint64_t *out);

/* kpmod_buf_size_valid()'s rule, as the CLI's messages say it. */
#define KP_BUF_SIZE_RULE "a power of two from 64K to 256M"

#endif
