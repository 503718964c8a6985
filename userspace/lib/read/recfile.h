/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The `kpmod record` file: everything `kpmod report` needs to print the
 * events on another machine, little-endian, fixed layout, checksummed.
 *
 *   file header, 16 bytes:  "KPMODREC", le32 version (3), le32 flags (0)
 *   then blocks, each:      le32 type, le32 reserved (0), le64 payload length,
 *                           le32 CRC-32C of the payload,
 *                           le32 CRC-32C of the 20 header bytes before it,
 *                           payload, zero padding to a multiple of 8.
 *
 *   INFO  (1, first):   le32 uapi version, le32 nr_cpus, le32 buffer mode,
 *                       le32 number of PROBE blocks, le64 buffer size,
 *                       le32 flags (1: a KSYMS block follows; 2: SYMS
 *                       blocks name the addresses), le32 reserved,
 *                       str arch, str kernel release, str module version
 *   PROBE (2, one per probe, before any CHUNK): le32 id, le32 kind,
 *                       le64 offset, le64 address, le32 args_size,
 *                       le32 nargs, str group, str event, str symbol,
 *                       str module, then per argument: le32 type,
 *                       le32 count, le32 offset, le32 size, str name
 *   KSYMS (3, at most one, before any CHUNK): /proc/kallsyms text as read
 *                       (what versions 1 and 2 embed)
 *   SYMS  (6, before the CHUNK whose records first name them): le32 n,
 *                       le32 reserved, then n symbols, each: le64 start,
 *                       le64 size, str name, str module ("" for the core
 *                       kernel), as the kernel's %pS named an address
 *   CHUNK (4):          le32 cpu, le32 reserved, le64 lost, le64 overwritten,
 *                       le64 nested (the CPU's counters after these
 *                       records), then whole EVENT records as the ring
 *                       held them (the recording CPU's byte order);
 *                       record writes one without records per CPU at
 *                       the start (the baseline of the counters) and
 *                       at the end (losses after the CPU's last record)
 *   END   (5, last):    le64 number of chunks; a file without it was cut
 *                       short (the recorder died): reported as truncated
 *                       after every chunk is returned
 *   str = le16 length + bytes, no NUL.  Unknown block types are skipped.
 *
 * Version 2 is version 3 without SYMS blocks (its symbols are KSYMS'),
 * version 1 version 2 checksummed with CRC-32 (IEEE): both read too.
 * The reader checks every byte it uses: a file cut short or damaged gives
 * "NAME: truncated at byte N ..." or "NAME: corrupt chunk at byte N ...",
 * and every chunk before the damage is still returned.
 */
#ifndef KPMOD_RECFILE_H
#define KPMOD_RECFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "format.h"

#define KP_RECFILE_MAGIC	"KPMODREC"
#define KP_RECFILE_VERSION	3

enum kp_rec_block {
	KP_BLK_INFO = 1,
	KP_BLK_PROBE = 2,
	KP_BLK_KSYMS = 3,
	KP_BLK_CHUNK = 4,
	KP_BLK_END = 5,
	KP_BLK_SYMS = 6,
};

struct kp_recinfo {
	uint32_t uapi_version;
	uint32_t nr_cpus;
	uint32_t buf_mode;
	uint64_t buf_size;
	char arch[KPMOD_STR_MAX];
	char release[KPMOD_STR_MAX];
	char module_version[KPMOD_STR_MAX];
	bool syms;		/* SYMS blocks name the addresses */
};

/* One CPU's records as drained at one time, and its counters then. */
struct kp_chunk {
	uint32_t cpu;
	uint64_t lost, overwritten, nested;
	uint8_t *recs;		/* whole, validated EVENT records; malloc'd */
	size_t len;
	uint64_t file_off;	/* where its block starts */
};

/* ---- writing: each returns 0 or -errno ---- */

int kp_recfile_write_header(FILE *f, const struct kp_recinfo *info,
			    const struct kp_probe_desc *probes, size_t nprobes,
			    const char *ksyms, size_t ksyms_len);

/* A SYMS block: @n symbols, each with its size (kp_ksyms_parse_ps()). */
int kp_recfile_write_syms(FILE *f, const struct kp_sym *syms, size_t n);

/* @recs: @len bytes of whole EVENT records (no pads). */
int kp_recfile_write_chunk(FILE *f, uint32_t cpu, uint64_t lost,
			   uint64_t overwritten, uint64_t nested,
			   const void *recs, size_t len);

/* Closes the recording: without this, readers report it truncated. */
int kp_recfile_write_end(FILE *f, uint64_t nchunks);

/* ---- reading ---- */

struct kp_recfile {
	FILE *f;
	const char *name;	/* for messages */
	uint64_t off;		/* bytes consumed */
	struct kp_recinfo info;
	struct kp_probe_desc *probes;
	size_t nprobes;
	char *ksyms;		/* NUL-terminated, or NULL */
	size_t ksyms_len;
	/* The SYMS blocks' symbols read so far; names and modules malloc'd. */
	struct kp_sym *syms;
	size_t nsyms, syms_cap;
	/* A CHUNK read while looking for the end of the header blocks. */
	int have_chunk;
	struct kp_chunk chunk;
	uint32_t want_probes;	/* as INFO announced */
	int want_ksyms;
	uint64_t nchunks;	/* returned so far */
	int ended;		/* the END block was read */
	/* The version's checksum: CRC-32 (1) or CRC-32C (2, 3). */
	uint32_t (*csum)(uint32_t crc, const void *buf, size_t len);
	char err[256];
};

/*
 * Reads the file header and every block before the first chunk.  Returns
 * 0, or a negative errno with r->err a one-line message (-EBADMSG for a
 * bad or truncated file).  @f stays the caller's.
 */
int kp_recfile_open(struct kp_recfile *r, FILE *f, const char *name);

/*
 * The next chunk: 1 with @c filled (free it with kp_chunk_free()), 0 at
 * the END block, < 0 with r->err set; chunks before an error are valid.
 */
int kp_recfile_next(struct kp_recfile *r, struct kp_chunk *c);

/*
 * The chunk whose block starts at byte @off (a kp_chunk's file_off), read
 * again from a seekable file: 1 with @c filled, or < 0 with r->err set.
 */
int kp_recfile_chunk_at(struct kp_recfile *r, uint64_t off, struct kp_chunk *c);

/* The record at *pos in @c, advancing *pos; 0 after the last. */
int kp_chunk_record(const struct kp_chunk *c, size_t *pos,
		    const struct kpmod_record **rec);

void kp_chunk_free(struct kp_chunk *c);
void kp_recfile_close(struct kp_recfile *r);

#endif
