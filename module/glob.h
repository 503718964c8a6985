/* SPDX-License-Identifier: GPL-2.0 */
/* The filters' glob ('~'): the kernel's lib/glob.c, on a counted string. */
#ifndef _KPMOD_GLOB_H
#define _KPMOD_GLOB_H

#include <linux/types.h>

/*
 * Whether @str (@len bytes, or up to a NUL before them) matches the
 * NUL-terminated @pat: '*', '?', '[set]' with ranges and a leading '!',
 * '\' quoting.  One backtrack point: at most len x strlen(pat) steps.
 */
bool kpmod_glob(const char *pat, const char *str, u32 len);

#endif /* _KPMOD_GLOB_H */
