/* SPDX-License-Identifier: GPL-2.0 */
/*
 * USDT markers (<sys/sdt.h>'s DTRACE_PROBE, STAP_PROBE) of an ELF file,
 * from its .note.stapsdt section, and their arguments as uprobe_events
 * FETCHARGs.
 */
#ifndef KPMOD_USDT_H
#define KPMOD_USDT_H

#include <stddef.h>
#include <stdint.h>

#include "elf_file.h"

struct kp_usdt {
	char *provider;
	char *name;
	char *args;		/* the argument specs, as the note has them */
	uint64_t pc;		/* the marker's address, prelink-adjusted */
	uint64_t offset;	/* pc's file offset: where its uprobe goes */
	uint64_t sema;		/* the semaphore's address, 0: none */
	uint64_t sema_offset;	/* its file offset (uprobe_register_refctr's) */
};

/*
 * Every marker of @e, in the order of the notes.  A file without the
 * section has none: 0 and *@n = 0.  A damaged note section, a marker
 * outside any executable segment or a semaphore outside any segment:
 * a negative errno and a message in @err.
 */
int kp_usdt_read(const struct kp_elf *e, struct kp_usdt **markers, size_t *n,
		 char *err, size_t errlen);
void kp_usdt_free(struct kp_usdt *markers, size_t n);

/*
 * The next argument spec of a marker's argument list at *@pos into @spec
 * ("[sp, 12]" keeps its space).  Returns 1 and moves *@pos past it, 0 at
 * the end, -E2BIG (skipping it) for a spec longer than @len - 1.
 */
int kp_usdt_arg_next(const char **pos, char *spec, size_t len);

/*
 * Converts one argument spec ("-4@-4(%rbp)", "8@[sp, 12]") of a marker
 * at address @pc of @e into a uprobe_events FETCHARG with its type
 * ("-4(%bp):s32"), in the syntax of e->machine.  A symbol relative to
 * %rip becomes @+OFFSET: uprobe_events adds OFFSET to the address the
 * probed segment's file offset 0 is loaded at, so OFFSET is the symbol's
 * address less that of @pc's segment's offset 0: the symbol's file
 * offset when both segments lie as far from their file offsets (the
 * usual layout).  @pc only matters for that form.  Returns 0, or -EINVAL,
 * -ENOENT or -ENOTSUP with the reason in @err.
 */
int kp_usdt_arg_fetch(const struct kp_elf *e, uint64_t pc, const char *spec,
		      char *out, size_t outlen, char *err, size_t errlen);

#endif
