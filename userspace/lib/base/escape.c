// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>

#include "escape.h"

size_t kp_utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t c;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (len > n)
		return 0;
	c = s[0] & (0x7f >> len);
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and beyond U+10FFFF are not UTF-8. */
	if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	return len;
}

/*
 * A printable character from U+00A0 up: not a C1 control, and not one that
 * moves or reorders text on a terminal (line and paragraph separators,
 * bidirectional embeddings, overrides and isolates).
 */
static size_t kp_printable_utf8(const unsigned char *s, size_t n)
{
	size_t len = kp_utf8_len(s, n);

	/* U+0080..U+009F (C1 controls) are c2 80..c2 9f. */
	if (len == 2 && s[0] == 0xc2 && s[1] < 0xa0)
		return 0;
	/* U+2028..U+202E are e2 80 a8..ae; U+2066..U+2069 are e2 81 a6..a9. */
	if (len == 3 && s[0] == 0xe2 &&
	    ((s[1] == 0x80 && s[2] >= 0xa8 && s[2] <= 0xae) ||
	     (s[1] == 0x81 && s[2] >= 0xa6 && s[2] <= 0xa9)))
		return 0;
	return len;
}

size_t kp_escape_text(char *out, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, o = 0, len;

	while (i < n) {
		if (u[i] >= 0x20 && u[i] < 0x7f) {
			out[o++] = (char)u[i++];
		} else if (u[i] >= 0x80 && (len = kp_printable_utf8(u + i, n - i))) {
			while (len--)
				out[o++] = (char)u[i++];
		} else {
			out[o++] = '\\';
			out[o++] = 'x';
			out[o++] = hex[u[i] >> 4];
			out[o++] = hex[u[i] & 15];
			i++;
		}
	}
	return o;
}
