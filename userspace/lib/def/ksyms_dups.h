/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What adding a probe on SYM needs of kallsyms without reading it: the
 * core kernel's names that kprobe_events refuses as a probe point (one
 * it has more than once: NON_UNIQ_SYMBOL; an absolute symbol, which is no
 * code), kept per kernel image in a file.
 *
 * Reading /proc/kallsyms costs the kernel formatting its 100,000 to
 * 200,000 symbols (a quarter of a second on a slow CPU; 0.9 s of 7.3's in
 * an emulator), for an answer no boot of the same image changes: the core
 * kernel's symbols are built into it, and a module's symbol is probed by
 * its own name (the module checks it).  So the first read of kallsyms
 * under a kernel writes these few hundred names, and later adds, in that
 * boot and the next ones, read them instead.  Whether SYM exists at all is
 * left to the module: register_kprobe() says so.
 */
#ifndef KPMOD_KSYMS_DUPS_H
#define KPMOD_KSYMS_DUPS_H
#include <stdbool.h>
#include <stddef.h>

#include "ksyms.h"

/*
 * Where the names are kept, root's alone: for the kernel image (its build
 * id), across boots; in /run, cleared at boot, where /var cannot be written.
 */
#define KP_KSYMS_DUPS_PATH "/var/cache/kpmod/ksyms-dups"
#define KP_KSYMS_DUPS_RUN_PATH "/run/kpmod/ksyms-dups"

struct kp_ksyms_dups {
	char *text;		/* the file, names point into it */
	const char **multi;	/* more than one core symbol of the name, sorted */
	size_t nmulti;
	const char **abs;	/* absolute core symbols, sorted */
	size_t nabs;
};

/*
 * Loads @path (NULL: KP_KSYMS_DUPS_PATH, then KP_KSYMS_DUPS_RUN_PATH) if
 * it was written for the running kernel image (or, for a kernel without a
 * build id, in this boot), by root or this user, and is nobody else's to
 * write.  Returns 0, or -errno (-ESTALE: another kernel's or boot's; with
 * no @path, the last place's answer).
 */
int kp_ksyms_dups_load(struct kp_ksyms_dups *d, const char *path);

/* Writes @k's names to @path (NULL: the first of the two above that can be), atomically. */
int kp_ksyms_dups_save(const struct kp_ksyms *k, const char *path);

/* True if the core kernel has @name more than once. */
bool kp_ksyms_dups_multi(const struct kp_ksyms_dups *d, const char *name);

/* True if @name is an absolute core symbol. */
bool kp_ksyms_dups_abs(const struct kp_ksyms_dups *d, const char *name);

void kp_ksyms_dups_free(struct kp_ksyms_dups *d);

/*
 * The GNU build id in @notes (/sys/kernel/notes: ELF notes, 4-aligned), as
 * hex into @hex of @size bytes.  Returns 0, -ENOENT (none), -EINVAL (a
 * note past the end) or -ENAMETOOLONG.
 */
int kp_ksyms_dups_build_id(const void *notes, size_t len, char *hex, size_t size);

#endif
