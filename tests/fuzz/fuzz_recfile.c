// SPDX-License-Identifier: GPL-2.0
/*
 * Record files: kp_recfile_open() and kp_recfile_next() to the end or the
 * first damage, as `kpmod report` reads them, and every record of every
 * chunk returned printed as text and as JSON, with the file's symbols
 * (its KSYMS block's, or its SYMS blocks' read so far).
 *
 * Every block is checksummed, so nearly every mutation would stop at the
 * first CRC: each input is read as it is, then again with its blocks'
 * checksums made right, so that the mutations reach the block parsers.
 */
#include "emit.h"
#include "fuzz.h"
#include "crc.h"
#include "recfile.h"

static void print_chunk(const struct kp_recfile *r, const struct kp_chunk *c,
			const struct kp_ksyms *ks)
{
	struct kp_emit em = { .out = fuzz_devnull(), .probes = r->probes,
			      .nprobes = r->nprobes, .ks = ks };
	const struct kpmod_record *rec;
	size_t pos = 0;

	while (kp_chunk_record(c, &pos, &rec) > 0) {
		em.json = false;
		kp_emit_record(&em, rec, c->cpu, c->lost);
		em.json = true;
		kp_emit_record(&em, rec, c->cpu, c->lost);
	}
}

static uint64_t get_le(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* The CRCs of every block in @b (layout in recfile.h) set right; true if one changed. */
static bool fix_crcs(uint8_t *b, size_t size)
{
	uint32_t (*csum)(uint32_t, const void *, size_t) = kp_crc32c;
	uint8_t old[8];
	size_t off = 16;
	bool changed = false;

	/* Version 1 checksums with CRC-32. */
	if (size >= 16 && get_le(b + 8, 4) == 1)
		csum = kp_crc32;
	while (off < size && size - off >= 24) {
		uint64_t len = get_le(b + off + 8, 8);
		bool whole = len <= size - off - 24;

		memcpy(old, b + off + 16, 8);
		if (whole)
			put_le32(b + off + 16, csum(0, b + off + 24, len));
		put_le32(b + off + 20, csum(0, b + off, 20));
		changed |= memcmp(old, b + off + 16, 8) != 0;
		if (!whole)
			break;
		off += 24 + len + (len % 8 ? 8 - len % 8 : 0);
	}
	return changed;
}

static void read_file(char *buf, size_t size)
{
	struct kp_ksyms ks = { 0 };
	struct kp_recfile r;
	struct kp_chunk c;
	bool have_ks;
	FILE *f;
	int ret;

	f = fmemopen(buf, size, "r");
	if (!f)
		abort();
	if (!kp_recfile_open(&r, f, "fuzz.kpm")) {
		have_ks = r.ksyms && !kp_ksyms_load_buf(&ks, r.ksyms, r.ksyms_len);
		while ((ret = kp_recfile_next(&r, &c)) > 0) {
			struct kp_ksyms sized;

			/* Version 3: the SYMS blocks read so far name the addresses. */
			if (r.info.syms && !kp_ksyms_load_sized(&sized, r.syms, r.nsyms)) {
				print_chunk(&r, &c, &sized);
				kp_ksyms_free(&sized);
			} else {
				print_chunk(&r, &c, have_ks ? &ks : NULL);
			}
			kp_chunk_free(&c);
		}
		FUZZ_ASSERT(ret == 0 || r.err[0], "error %d without a message", ret);
		if (have_ks)
			kp_ksyms_free(&ks);
	} else {
		FUZZ_ASSERT(r.err[0], "open failed without a message");
	}
	kp_recfile_close(&r);
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf;

	/* glibc's fmemopen() takes no empty buffer. */
	if (!size)
		return 0;
	buf = fuzz_str(data, size);
	read_file(buf, size);
	if (fix_crcs((uint8_t *)buf, size))
		read_file(buf, size);
	free(buf);
	return 0;
}
