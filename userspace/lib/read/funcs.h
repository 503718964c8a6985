/* SPDX-License-Identifier: GPL-2.0 */
/* Which kernel functions a probe can go on (kpmod funcs). */
#ifndef KPMOD_FUNCS_H
#define KPMOD_FUNCS_H

#include <stdint.h>
#include <stdio.h>

#include "kbtf.h"
#include "ksyms.h"

/* One blacklisted range of code, [start, end). */
struct kp_range {
	uint64_t start, end;
};

/*
 * The kprobes blacklist: its address ranges (what the kernel refuses by),
 * sorted by start, with the greatest end up to each; and its names (NAME,
 * or MOD:NAME for a module's), sorted, for when addresses are hidden.
 */
struct kp_blacklist {
	char **names;
	size_t n;
	struct kp_range *ranges;
	uint64_t *max_end;	/* max_end[i]: the greatest end of ranges[0..i] */
	size_t nranges;
};

/*
 * Loads debugfs' kprobes/blacklist (@path; NULL: the usual place), lines
 * "0xSTART-0xEND\tNAME".  Returns 0 or -errno (nothing loaded).
 */
int kp_blacklist_load(struct kp_blacklist *bl, const char *path);
/* The same from text in memory (@len bytes). */
int kp_blacklist_load_buf(struct kp_blacklist *bl, const char *text, size_t len);
void kp_blacklist_free(struct kp_blacklist *bl);

/* How kp_funcs_print() writes the list. */
enum kp_funcs_format {
	KP_FUNCS_TEXT,		/* one per line */
	KP_FUNCS_JSON,		/* one JSON array of strings */
};

/*
 * Prints, in name order, the functions of @k a probe can go on whose name
 * (or MOD:NAME) matches @glob (NULL: all): text symbols whose name no
 * other symbol of the kernel (or of their module) has, minus @bl (may be
 * NULL; by address when both @k and @bl show addresses, as the kernel
 * refuses, else by name), compiler-made copies (names with '.'), the padding symbols in
 * front of functions (__pfx_, __cfi_) and the kernel's __init code (gone
 * after boot; known when @k has addresses).  A module's function prints
 * as MOD:NAME, as a definition names it.  With @btf (may be NULL), each
 * with its prototype from BTF, as bpftrace -lv: a line per parameter
 * ("    struct file * file" in text; "args" and "retval" in JSON), then the
 * return type as "retval".  Returns how many.
 */
size_t kp_funcs_print(FILE *out, const struct kp_ksyms *k, const struct kp_blacklist *bl,
		      const char *glob, enum kp_funcs_format format, struct kp_btf *btf);

#endif
