/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What adding a probe on SYM needs of kallsyms without reading it: the
 * core kernel's names that kprobe_events refuses as a probe point (one
 * it has more than once: NON_UNIQ_SYMBOL; an absolute symbol, which is no
 * code), kept per boot in a file.
 *
 * Reading /proc/kallsyms costs the kernel formatting its 100,000 symbols
 * (a quarter of a second on a slow CPU), for an answer that cannot change
 * while the kernel runs: the core kernel's symbols are fixed at boot, and
 * a module's symbol is probed by its own name (the module checks it).  So
 * the first read of kallsyms in a boot writes these few hundred names,
 * and later adds read them instead.  Whether SYM exists at all is left to
 * the module: register_kprobe() says so.
 */
#ifndef KPMOD_KSYMS_DUPS_H
#define KPMOD_KSYMS_DUPS_H
#include <stdbool.h>
#include <stddef.h>

#include "ksyms.h"

/* Where the names are kept: /run is cleared at boot, and root's alone. */
#define KP_KSYMS_DUPS_PATH "/run/kpmod/ksyms-dups"

struct kp_ksyms_dups {
	char *text;		/* the file, names point into it */
	const char **multi;	/* more than one core symbol of the name, sorted */
	size_t nmulti;
	const char **abs;	/* absolute core symbols, sorted */
	size_t nabs;
};

/*
 * Loads @path (NULL: KP_KSYMS_DUPS_PATH) if it was written in this boot,
 * by root or this user, and is nobody else's to write.  Returns 0, or
 * -errno (-ESTALE: another boot's).
 */
int kp_ksyms_dups_load(struct kp_ksyms_dups *d, const char *path);

/* Writes @k's names to @path (NULL: KP_KSYMS_DUPS_PATH), atomically. */
int kp_ksyms_dups_save(const struct kp_ksyms *k, const char *path);

/* True if the core kernel has @name more than once. */
bool kp_ksyms_dups_multi(const struct kp_ksyms_dups *d, const char *name);

/* True if @name is an absolute core symbol. */
bool kp_ksyms_dups_abs(const struct kp_ksyms_dups *d, const char *name);

void kp_ksyms_dups_free(struct kp_ksyms_dups *d);

#endif
