/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bytes from the traced kernel (task names, fetched strings) printed in
 * text: ftrace prints them raw, so a task that names itself "x\n  fake-1
 * [000] ..." (prctl(PR_SET_NAME)) or a path with a newline would forge
 * lines.  kpmod keeps ftrace's output for printable bytes and escapes the
 * rest: printable ASCII and valid UTF-8 for characters from U+00A0 up pass
 * as they are; every other byte (controls, DEL, C1 controls, the Unicode
 * line separators and bidirectional controls, bytes that are not UTF-8)
 * becomes \xNN.  A backslash passes as ftrace prints it.
 */
#ifndef KPMOD_ESCAPE_H
#define KPMOD_ESCAPE_H

#include <stddef.h>

/* Length of the valid UTF-8 sequence at @s (at most @n bytes), or 0. */
size_t kp_utf8_len(const unsigned char *s, size_t n);

/* Longest escaped form of @n bytes. */
#define KP_ESCAPED_MAX(n) (4 * (n))

/* Writes @n bytes of @s to @out, escaped; returns the bytes written. */
size_t kp_escape_text(char *out, const char *s, size_t n);

#endif
