// SPDX-License-Identifier: GPL-2.0
/*
 * The glob of event filters, as the kernel's lib/glob.c matches it, on a
 * string that is counted rather than NUL-terminated (a record's).  It
 * needs nothing of the kernel but its types, so the unit tests run this
 * file against fnmatch(3).
 */
#include "glob.h"

bool kpmod_glob(const char *pat, const char *str, u32 len)
{
	const char *back_pat = NULL;
	u32 pos = 0, back_pos = 0;

	for (;;) {
		unsigned char c = pos < len ? str[pos] : '\0';
		unsigned char d = *pat++;

		pos++;
		switch (d) {
		case '?':
			if (c == '\0')
				return false;
			break;
		case '*':
			if (*pat == '\0')
				return true;
			back_pat = pat;
			back_pos = --pos;
			break;
		case '[': {
			bool match = false, inverted = *pat == '!';
			const char *class = pat + inverted;
			unsigned char a = *class++;

			/* A set matches one character: never the end of the string. */
			if (c == '\0')
				return false;
			do {
				unsigned char b = a;

				if (a == '\0')
					goto literal;
				if (class[0] == '-' && class[1] != ']') {
					b = class[1];
					if (b == '\0')
						goto literal;
					class += 2;
				}
				match |= a <= c && c <= b;
			} while ((a = *class++) != ']');
			if (match == inverted)
				goto backtrack;
			pat = class;
			break;
		}
		case '\\':
			d = *pat++;
			fallthrough;
		default:
literal:
			if (c == d) {
				if (d == '\0')
					return true;
				break;
			}
backtrack:
			if (c == '\0' || !back_pat)
				return false;
			pat = back_pat;
			pos = ++back_pos;
			break;
		}
	}
}
