/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The symbols a reader's records need, and only those: `kpmod record`
 * hands each record it writes to kp_recsyms_add(), which keeps the kernel
 * addresses report will look up (kp_format_addrs()) that no earlier block
 * named; before the chunk holding them, kp_recsyms_flush() has the module
 * name them (SYM_RESOLVE, as the kernel's %pS) and writes them as a SYMS
 * block.  A file cut short thus still names every address of its
 * surviving chunks, and no recording pays for the kernel formatting all of
 * /proc/kallsyms (more than a short recording's own cost).  trace and
 * snapshot do the same before printing, with kp_recsyms_table() in place
 * of the block: a table of every symbol named so far.
 */
#ifndef KPMOD_RECSYMS_H
#define KPMOD_RECSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ksyms.h"
#include "nl.h"
#include "probe_desc.h"
#include "uapi/kpmod.h"

/* A set of addresses: open addressing, 0 for an empty slot. */
struct kp_addrset {
	uint64_t *slot;
	size_t cap, n;		/* cap: a power of two, or 0 */
};

struct kp_recsyms {
	const char *cmd;	/* the command, for what it says */
	bool on;		/* false: not named (kallsyms hides them, or the module refused) */
	const struct kp_probe_desc *probes;
	size_t nprobes;
	const struct kp_probe_desc *last;	/* the last record's probe */
	bool last_plain;		/* it has no symbol arguments */
	uint64_t last_ip, last_ret_ip;	/* the last event's, once asked for */
	struct kp_addrset seen;		/* every address asked for */
	struct kp_addrset starts;	/* every symbol written */
	uint64_t *pending;		/* asked for, not yet named */
	size_t npending, pending_cap;
	struct kp_sym *out;		/* named, not yet written or merged */
	size_t nout, out_cap;
	struct kp_sym *all;		/* kp_recsyms_merge(): every symbol named */
	size_t nall, all_cap;
	bool oom;
};

/*
 * Starts the symbols of @cmd's records of @probes.  Off (every address
 * stays hex, as kallsyms read without the right has it) where
 * /proc/kallsyms shows no addresses to this process: kptr_restrict.
 */
void kp_recsyms_init(struct kp_recsyms *rs, const char *cmd,
		     const struct kp_probe_desc *probes, size_t n);

/* Keeps the addresses of @rec (whole and checked) not asked for before. */
void kp_recsyms_add(struct kp_recsyms *rs, const struct kpmod_record *rec);

/*
 * Names what was kept and writes it to @f as one SYMS block (none if no
 * new symbol).  0, -EIO if the write failed, -ENOMEM; a module that
 * refuses turns naming off, said once on stderr, and the recording goes on.
 */
int kp_recsyms_flush(struct kp_recsyms *rs, struct kp_nl *nl, FILE *f);

/*
 * Names what was kept, as kp_recsyms_flush(), and makes @ks (empty, or
 * made here) a sized table of every symbol named so far, reloaded only
 * when something new was named (its gen then changes).  0 or -ENOMEM.
 */
int kp_recsyms_table(struct kp_recsyms *rs, struct kp_nl *nl, struct kp_ksyms *ks);
/* Its second half: what was named goes into @ks. */
int kp_recsyms_merge(struct kp_recsyms *rs, struct kp_ksyms *ks);
/* A kp_sym_fn: one address the kernel named as @text (%pS), kept in rs->out. */
int kp_recsyms_named(uint64_t addr, const char *text, void *rs);

void kp_recsyms_free(struct kp_recsyms *rs);

#endif
