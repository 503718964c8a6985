/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel symbols from /proc/kallsyms text (or a copy of it, as a record
 * file embeds): address -> "sym+0xoff/0xsize [mod]" as the kernel's %pS
 * prints it, and name -> address for @SYM.
 *
 * A symbol's size is the distance to the next higher address, as kallsyms
 * computes it.  Read without root, /proc/kallsyms shows every address as 0:
 * the table then loads with kp_ksyms_zeroed() true and every lookup fails,
 * so addresses print as hex.
 */
#ifndef KPMOD_KSYMS_H
#define KPMOD_KSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uapi/kpmod.h"

struct kp_sym {
	uint64_t addr;
	const char *name;
	const char *mod;	/* NULL for the core kernel */
	char type;		/* the nm letter */
	uint64_t size;		/* in a sized table (kp_ksyms_load_sized()) only */
};

/*
 * The name index: a reader that only symbolizes addresses never sorts it,
 * and a command that looks up a few names (one `kpmod add`) finds them by
 * a pass over the table instead (sorting 100,000 names by name costs
 * what a thousand passes do); past KP_KSYMS_SCANS lookups it is built.
 */
#define KP_KSYMS_SCANS 8
struct kp_ksyms_names {
	struct kp_sym **by_name;	/* NULL until first used */
	unsigned int scans;		/* lookups by a pass so far */
};

struct kp_ksyms {
	char *text;		/* the loaded text, NUL-terminated (names point here) */
	size_t text_len;	/* without the NUL */
	struct kp_sym *syms;	/* by address, file order among equal addresses */
	size_t nsyms;
	struct kp_sym *abs;	/* absolute symbols ('A'): found by name only */
	size_t nabs;
	/* by name, then by address: built on first use (kp_ksyms_by_name) */
	struct kp_ksyms_names *names;
	bool zeroed;
	bool sized;		/* each symbol's size is its own, not the gap to the next */
	unsigned long gen;	/* differs between any two loads (caches key on it) */
};

/* Loads @path (NULL: /proc/kallsyms).  Returns 0 or -errno. */
int kp_ksyms_load_file(struct kp_ksyms *k, const char *path);
/*
 * Loads /proc/kallsyms if it has addresses to look up: 0, or -1 with @k
 * empty (unreadable, or read without root).
 */
int kp_ksyms_load_usable(struct kp_ksyms *k);

/*
 * Up to @max names of @k's core kernel symbols whose nm letter is one of
 * @types (NULL: any) nearest to @name (edit distance at most 1 +
 * strlen(@name) / 5, nearest first, then in table order), for "did you
 * mean" hints: written to @out as "a, b or c".  Returns how many.
 */
unsigned int kp_ksyms_near(const struct kp_ksyms *k, const char *name, const char *types,
			   unsigned int max, char *out, size_t outsz);

/* Loads a copy of kallsyms text (@len bytes, need not end in NUL). */
int kp_ksyms_load_buf(struct kp_ksyms *k, const char *text, size_t len);

/*
 * Loads the symbols the kernel named (each with its size, as %pS gives
 * them: what a recording embeds), copying names and modules.  Duplicates
 * of one address are kept once.  0 or -ENOMEM.
 */
int kp_ksyms_load_sized(struct kp_ksyms *k, const struct kp_sym *syms, size_t n);

/*
 * Parses @text, the kernel's %pS of @addr ("sym+0x1a/0x40 [mod]"), into
 * @s (name and mod point into @name and @mod, of KPMOD_MAX_SYMBOL_LEN and
 * KPMOD_MAX_MODULE_LEN bytes, the kernel's own bounds; the type is 't').
 * Returns 0, or -ENOENT where the kernel named no symbol ("0x...", or
 * text that does not add up to @addr or is out of those bounds).
 */
int kp_ksyms_parse_ps(const char *text, uint64_t addr, struct kp_sym *s,
		      char name[KPMOD_MAX_SYMBOL_LEN], char mod[KPMOD_MAX_MODULE_LEN]);

void kp_ksyms_free(struct kp_ksyms *k);

/* How many core kernel symbols (not a module's) are named @name. */
size_t kp_ksyms_count_core(const struct kp_ksyms *k, const char *name);

/* @k's symbols by name, then by address (nsyms of them); NULL if out of memory. */
struct kp_sym * const *kp_ksyms_by_name(const struct kp_ksyms *k);

/*
 * Whether /proc/kallsyms shows this process its addresses (its first lines
 * only: kptr_restrict hides all or none).  False if it cannot be read.
 */
bool kp_ksyms_shown(void);

/* True when the table has no usable addresses (kallsyms read without root). */
bool kp_ksyms_zeroed(const struct kp_ksyms *k);

/*
 * The symbol containing @addr, with @off and @size as kallsyms gives them;
 * NULL if none (below the first symbol, past the last, or no table).
 */
const struct kp_sym *kp_ksyms_lookup(const struct kp_ksyms *k, uint64_t addr,
				     uint64_t *off, uint64_t *size);

/*
 * Formats @addr into @buf as the kernel's sprint_symbol() (%pS):
 * "sym+0x1a/0x40" or "sym+0x1a/0x40 [mod]"; "0x<hex>" if unknown.  With
 * !@with_offset, only "sym" (as ftrace prints a return probe's function),
 * or "0x%08lx" if unknown.  @k may be NULL.  Returns snprintf's result.
 */
int kp_ksyms_snprint(const struct kp_ksyms *k, uint64_t addr, bool with_offset,
		     char *buf, size_t len);

/*
 * Formats @addr into @buf as the kernel's sprint_symbol_no_offset() (%ps,
 * what a hist's .sym key prints): "sym" or "sym [mod]"; "0x<hex>" if
 * unknown.  @k may be NULL.  Returns snprintf's result.
 */
int kp_ksyms_snprint_name(const struct kp_ksyms *k, uint64_t addr, char *buf, size_t len);

/*
 * The address of @name, in module @mod (NULL: the core kernel first, then
 * any module).  Returns 0, -ENOENT if there is no such symbol, or -EPERM
 * if the table is zeroed.  Duplicated local names give the lowest address.
 */
int kp_ksyms_addr(const struct kp_ksyms *k, const char *name, const char *mod,
		  uint64_t *addr);
/*
 * An absolute symbol's value by @name (a per-CPU variable's offset on
 * x86_64 before 6.15): 0, or -ENOENT.  Never a probe point.
 */
int kp_ksyms_abs_addr(const struct kp_ksyms *k, const char *name, uint64_t *addr);

#endif
