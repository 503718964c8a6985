// SPDX-License-Identifier: GPL-2.0
/* Values from the command line and probe files: sizes, event names. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "uapi/kpmod.h"

bool kp_next_word(const char *s, size_t len, size_t *i, size_t *start, size_t *end)
{
	while (*i < len && isspace((unsigned char)s[*i]))
		(*i)++;
	if (*i >= len)
		return false;
	*start = *i;
	while (*i < len && !isspace((unsigned char)s[*i]))
		(*i)++;
	*end = *i;
	return true;
}

int kp_split_event_name(const char *spec, char *group, size_t gsz, char *event, size_t esz)
{
	const char *slash;

	if (!strncmp(spec, "-:", 2))
		spec += 2;
	slash = strchr(spec, '/');
	if (slash) {
		if ((size_t)(slash - spec) >= gsz || slash == spec)
			return -1;
		memcpy(group, spec, slash - spec);
		group[slash - spec] = '\0';
		spec = slash + 1;
	} else {
		group[0] = '\0';
	}
	if (!spec[0] || strlen(spec) >= esz || strchr(spec, '/'))
		return -1;
	strcpy(event, spec);
	return 0;
}

int kp_parse_size(const char *s, uint64_t *out)
{
	unsigned int shift = 0;
	unsigned long long v;
	char *end;

	errno = 0;
	if (!*s || *s == '-')
		return -1;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case '\0':
		break;
	case 'k': case 'K':
		shift = 10;
		break;
	case 'm': case 'M':
		shift = 20;
		break;
	case 'g': case 'G':
		shift = 30;
		break;
	default:
		return -1;
	}
	if (shift) {
		/* 2^64 and beyond is no size: refused, not wrapped. */
		if (v > UINT64_MAX >> shift)
			return -1;
		v <<= shift;
		end++;
	}
	if (*end == 'i' || *end == 'I')
		end++;
	if (*end == 'b' || *end == 'B')
		end++;
	if (*end)
		return -1;
	*out = v;
	return 0;
}

int kp_parse_buf_mode(const char *name)
{
	int mode;

	for (mode = KPMOD_BUF_DISCARD; mode <= KPMOD_BUF_OVERWRITE; mode++)
		if (!strcmp(name, kpmod_buf_mode_name(mode)))
			return mode;
	return -1;
}
