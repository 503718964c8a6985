// SPDX-License-Identifier: GPL-2.0
/* The record file: round trip, and every truncation and damaged byte. */
#define _GNU_SOURCE	/* fopencookie() */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crc.h"
#include "recfile.h"
#include "suites.h"

#define NCHUNKS 3

static const char kallsyms[] = "ffffffff81001000 T do_sys_openat2\n"
			       "ffffffff81001150 T __x64_sys_openat\n";

struct sample {
	char *buf;
	size_t len;
	long chunk_off[NCHUNKS];	/* where each chunk block starts */
	long chunk_end[NCHUNKS];
	struct kp_probe_desc probes[2];
	uint64_t recs[NCHUNKS][64];
	size_t rec_len[NCHUNKS];
};

static size_t add_rec(uint64_t *w, size_t at, uint32_t probe, uint64_t ts,
		      uint32_t extra)
{
	struct kpmod_record *r = (void *)((uint8_t *)w + at);

	memset(r, 0, sizeof(*r) + extra);
	r->len = sizeof(*r) + extra;
	r->type = KPMOD_REC_EVENT;
	r->probe_id = probe;
	r->ts_ns = ts;
	r->pid = 42;
	memcpy(r->comm, "cat", 4);
	return at + r->len;
}

static void make_sample(struct sample *s)
{
	struct kp_recinfo info = { .uapi_version = KPMOD_UAPI_VERSION,
				   .nr_cpus = 2, .buf_mode = KPMOD_BUF_DISCARD,
				   .buf_size = 65536, .arch = "x86_64",
				   .release = "6.1.0-test", .module_version = "0.1.0" };
	struct kp_probe_desc *p = s->probes;
	FILE *f;
	int i;

	memset(s, 0, sizeof(*s));
	p[0].id = 1;
	p[0].kind = KPMOD_PROBE_ENTRY;
	strcpy(p[0].group, "kprobes");
	strcpy(p[0].event, "open");
	strcpy(p[0].symbol, "do_sys_openat2");
	p[0].nargs = 1;
	p[0].args_size = 8;
	strcpy(p[0].args[0].name, "dfd");
	p[0].args[0].type = KPMOD_T_S64;
	p[0].args[0].size = 8;
	p[1].id = 2;
	p[1].kind = KPMOD_PROBE_RETURN;
	strcpy(p[1].group, "g");
	strcpy(p[1].event, "ret");
	strcpy(p[1].module, "foo");
	p[1].offset = 0x10;
	p[1].addr = 0xffffffffc0001010ULL;

	for (i = 0; i < NCHUNKS; i++) {
		size_t at = 0;

		at = add_rec(s->recs[i], at, 1, 100 * i + 1, 16);
		at = add_rec(s->recs[i], at, 2, 100 * i + 2, 0);
		s->rec_len[i] = at;
	}
	f = open_memstream(&s->buf, &s->len);
	ck_assert_int_eq(kp_recfile_write_header(f, &info, p, 2, kallsyms,
						 strlen(kallsyms)), 0);
	for (i = 0; i < NCHUNKS; i++) {
		s->chunk_off[i] = ftell(f);
		ck_assert_int_eq(kp_recfile_write_chunk(f, i % 2, i, 2 * i, 3 * i,
							s->recs[i], s->rec_len[i]), 0);
		s->chunk_end[i] = ftell(f);
	}
	ck_assert_int_eq(kp_recfile_write_end(f, NCHUNKS), 0);
	ck_assert_int_eq(fclose(f), 0);
}

static FILE *open_bytes(const char *buf, size_t len)
{
	FILE *f;

	if (!len)
		return tmpfile();
	f = fmemopen((void *)buf, len, "r");
	ck_assert_ptr_nonnull(f);
	return f;
}

/*
 * Reads @len bytes of a file; returns the number of good chunks, *ret the
 * final status (0 clean end, < 0 error with @err copied).
 */
static int read_all(const struct sample *s, const char *buf, size_t len,
		    int *ret, char *err, size_t errlen)
{
	struct kp_recfile r;
	struct kp_chunk c;
	FILE *f = open_bytes(buf, len);
	int n = 0;

	*ret = kp_recfile_open(&r, f, "record.kpm");
	if (!*ret) {
		while ((*ret = kp_recfile_next(&r, &c)) > 0) {
			/* Whatever is returned is exactly what was written. */
			ck_assert_int_lt(n, NCHUNKS);
			ck_assert_uint_eq(c.len, s->rec_len[n]);
			ck_assert(!memcmp(c.recs, s->recs[n], c.len));
			ck_assert_uint_eq(c.cpu, n % 2);
			ck_assert_uint_eq(c.lost, n);
			kp_chunk_free(&c);
			n++;
		}
	}
	snprintf(err, errlen, "%s", *ret ? r.err : "");
	kp_recfile_close(&r);
	fclose(f);
	return n;
}

START_TEST(round_trip)
{
	const struct kpmod_record *rec;
	struct kp_recfile r;
	struct kp_chunk c;
	struct sample s;
	size_t pos = 0;
	FILE *f;
	int n = 0;

	make_sample(&s);
	ck_assert_uint_eq(s.len % 8, 0);
	f = open_bytes(s.buf, s.len);
	ck_assert_int_eq(kp_recfile_open(&r, f, "record.kpm"), 0);
	ck_assert_str_eq(r.info.arch, "x86_64");
	ck_assert_str_eq(r.info.release, "6.1.0-test");
	ck_assert_str_eq(r.info.module_version, "0.1.0");
	ck_assert_uint_eq(r.info.nr_cpus, 2);
	ck_assert_uint_eq(r.info.buf_size, 65536);
	ck_assert_uint_eq(r.nprobes, 2);
	ck_assert(!memcmp(&r.probes[0], &s.probes[0], sizeof(s.probes[0])));
	ck_assert(!memcmp(&r.probes[1], &s.probes[1], sizeof(s.probes[1])));
	ck_assert_str_eq(r.ksyms, kallsyms);
	ck_assert_int_eq(kp_recfile_next(&r, &c), 1);
	ck_assert_uint_eq(c.file_off, s.chunk_off[0]);
	ck_assert_uint_eq(c.overwritten, 0);
	while (kp_chunk_record(&c, &pos, &rec)) {
		ck_assert_uint_eq(rec->ts_ns, n + 1);
		n++;
	}
	ck_assert_int_eq(n, 2);
	kp_chunk_free(&c);
	ck_assert_int_eq(kp_recfile_next(&r, &c), 1);
	ck_assert_uint_eq(c.nested, 3);
	kp_chunk_free(&c);
	ck_assert_int_eq(kp_recfile_next(&r, &c), 1);
	kp_chunk_free(&c);
	ck_assert_int_eq(kp_recfile_next(&r, &c), 0);
	ck_assert_int_eq(kp_recfile_next(&r, &c), 0);
	kp_recfile_close(&r);
	fclose(f);
	free(s.buf);
}
END_TEST

START_TEST(every_truncation_reports_and_keeps_the_prefix)
{
	struct sample s;
	char err[256], want[64];
	size_t n;
	int ret, got, whole, i;

	make_sample(&s);
	for (n = 0; n < s.len; n++) {
		got = read_all(&s, s.buf, n, &ret, err, sizeof(err));
		for (whole = 0, i = 0; i < NCHUNKS; i++)
			whole += s.chunk_end[i] <= (long)n;
		ck_assert_msg(got == whole, "cut at %zu: %d chunks, want %d",
			      n, got, whole);
		/* Even a cut between blocks: the end block is missing. */
		ck_assert_int_eq(ret, -EBADMSG);
		snprintf(want, sizeof(want), "record.kpm: truncated at byte %zu", n);
		ck_assert_msg(!strncmp(err, want, strlen(want)),
			      "cut at %zu: \"%s\"", n, err);
	}
	free(s.buf);
}
END_TEST

START_TEST(every_damaged_byte_is_caught_or_harmless)
{
	struct sample s;
	char *copy, err[256];
	size_t n;
	int ret, got, i, before;

	make_sample(&s);
	copy = malloc(s.len);
	for (n = 0; n < s.len; n++) {
		memcpy(copy, s.buf, s.len);
		copy[n] ^= 0x5a;
		got = read_all(&s, copy, s.len, &ret, err, sizeof(err));
		for (before = 0, i = 0; i < NCHUNKS; i++)
			before += s.chunk_end[i] <= (long)n;
		if (!ret) {
			/* Only padding is not checksummed; it changes nothing. */
			ck_assert_int_eq(got, NCHUNKS);
			continue;
		}
		ck_assert_int_eq(ret, -EBADMSG);
		ck_assert_msg(got == before, "damage at %zu: %d chunks, want %d",
			      n, got, before);
		ck_assert_msg(strstr(err, "corrupt") || strstr(err, "not a kpmod") ||
			      strstr(err, "version"), "damage at %zu: \"%s\"", n, err);
		if (before < NCHUNKS && n >= (size_t)s.chunk_off[before] + 24) {
			char want[64];

			snprintf(want, sizeof(want), "record.kpm: corrupt chunk at byte %ld",
				 s.chunk_off[before]);
			ck_assert_msg(!strncmp(err, want, strlen(want)),
				      "damage at %zu: \"%s\"", n, err);
		}
	}
	free(copy);
	free(s.buf);
}
END_TEST

START_TEST(bad_records_inside_a_good_checksum)
{
	uint64_t w[16];
	struct kp_recinfo info = { .arch = "x86_64" };
	struct kp_recfile r;
	struct kp_chunk c;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	FILE *in;

	add_rec(w, 0, 1, 1, 0);
	((struct kpmod_record *)w)->len = 12;	/* the writer wrote garbage */
	kp_recfile_write_header(f, &info, NULL, 0, NULL, 0);
	kp_recfile_write_chunk(f, 0, 0, 0, 0, w, 64);
	kp_recfile_write_end(f, 1);
	fclose(f);
	in = open_bytes(buf, len);
	ck_assert_int_eq(kp_recfile_open(&r, in, "x.kpm"), -EBADMSG);
	ck_assert_msg(strstr(r.err, "x.kpm: corrupt chunk at byte 88: record at byte 144: bad record length 12"),
		      "%s", r.err);
	kp_recfile_close(&r);
	fclose(in);
	(void)c;
	in = open_bytes("KPMODREX", 8);
	ck_assert_int_eq(kp_recfile_open(&r, in, "x.kpm"), -EBADMSG);
	ck_assert_str_eq(r.err, "x.kpm: truncated at byte 8 (in the file header at byte 0)");
	fclose(in);
	free(buf);
}
END_TEST

/* The check values of both CRCs, the instruction's against the tables'. */
START_TEST(checksums)
{
	uint8_t buf[300];
	size_t i, off, len;

	ck_assert_uint_eq(kp_crc32(0, "123456789", 9), 0xcbf43926);
	ck_assert_uint_eq(kp_crc32c(0, "123456789", 9), 0xe3069283);
	ck_assert_uint_eq(kp_crc32c_sw(0, "123456789", 9), 0xe3069283);
	ck_assert_uint_eq(kp_crc32c(kp_crc32c(0, "1234", 4), "56789", 5), 0xe3069283);
	srand(3);
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)rand();
	/* Every alignment and length: the instruction's loop and tail. */
	for (off = 0; off < 8; off++)
		for (len = 0; len + off <= sizeof(buf); len += 7)
			ck_assert_uint_eq(kp_crc32c(5, buf + off, len),
					  kp_crc32c_sw(5, buf + off, len));
}
END_TEST

/*
 * A version 1 file (kpmod before CRC-32C: the same blocks checksummed with
 * CRC-32) reads as it did, and a version 2 one (before SYMS blocks); a
 * version 2 file checksummed with CRC-32 is damaged; a version 4 one is
 * refused by name.
 */
static void set_version(char *b, size_t size, uint32_t version,
			uint32_t (*csum)(uint32_t, const void *, size_t))
{
	size_t off = 16, i;

	for (i = 0; i < 4; i++)
		b[8 + i] = (char)(version >> (8 * i));
	while (size - off >= 24) {
		uint64_t len = 0;
		uint32_t c;

		for (i = 0; i < 8; i++)
			len |= (uint64_t)(uint8_t)b[off + 8 + i] << (8 * i);
		c = csum(0, b + off + 24, len);
		for (i = 0; i < 4; i++)
			b[off + 16 + i] = (char)(c >> (8 * i));
		c = csum(0, b + off, 20);
		for (i = 0; i < 4; i++)
			b[off + 20 + i] = (char)(c >> (8 * i));
		off += 24 + len + (len % 8 ? 8 - len % 8 : 0);
	}
}

START_TEST(version_1_files_still_read)
{
	struct sample s;
	char err[256];
	int ret;

	make_sample(&s);
	ck_assert_int_eq(s.buf[8], 3);
	set_version(s.buf, s.len, 1, kp_crc32);
	ck_assert_int_eq(read_all(&s, s.buf, s.len, &ret, err, sizeof(err)), NCHUNKS);
	ck_assert_int_eq(ret, 0);
	set_version(s.buf, s.len, 2, kp_crc32c);
	ck_assert_int_eq(read_all(&s, s.buf, s.len, &ret, err, sizeof(err)), NCHUNKS);
	ck_assert_int_eq(ret, 0);
	set_version(s.buf, s.len, 2, kp_crc32);
	read_all(&s, s.buf, s.len, &ret, err, sizeof(err));
	ck_assert_int_eq(ret, -EBADMSG);
	ck_assert_msg(strstr(err, "corrupt"), "%s", err);
	set_version(s.buf, s.len, 4, kp_crc32c);
	read_all(&s, s.buf, s.len, &ret, err, sizeof(err));
	ck_assert_int_eq(ret, -EBADMSG);
	ck_assert_msg(strstr(err, "record file version 4, this kpmod reads versions 1 to 3"), "%s", err);
	free(s.buf);
}
END_TEST

/* A file in memory whose reads note the process's size as they happen. */
struct measured {
	const char *buf;
	size_t len, pos;
	long peak;		/* the most pages of address space seen */
};

static long vm_pages(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long pages = 0;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%ld", &pages), 1);
	fclose(f);
	return pages;
}

static ssize_t measured_read(void *cookie, char *buf, size_t size)
{
	struct measured *m = cookie;
	size_t n = m->len - m->pos < size ? m->len - m->pos : size;
	long pages = vm_pages();

	if (pages > m->peak)
		m->peak = pages;
	memcpy(buf, m->buf + m->pos, n);
	m->pos += n;
	return (ssize_t)n;
}

/*
 * A block header with a good checksum and a length the file does not
 * have: a truncation, and the memory taken follows the bytes read, not
 * the length (it took a 1 GiB buffer for a 64-byte file).
 */
START_TEST(a_length_past_the_end_takes_no_memory)
{
	static const cookie_io_functions_t io = { .read = measured_read };
	uint8_t file[64] = "KPMODREC\x01";
	struct measured m = { .buf = (const char *)file, .len = sizeof(file) };
	uint64_t len = (1ULL << 30) - 8;
	uint32_t crc;
	struct kp_recfile r;
	long before;
	FILE *f;
	int i;

	file[16] = KP_BLK_INFO;
	for (i = 0; i < 8; i++)
		file[24 + i] = (uint8_t)(len >> (8 * i));
	crc = kp_crc32(0, file + 16, 20);
	for (i = 0; i < 4; i++)
		file[36 + i] = (uint8_t)(crc >> (8 * i));
	f = fopencookie(&m, "r", io);
	ck_assert_ptr_nonnull(f);
	before = vm_pages();
	ck_assert_int_eq(kp_recfile_open(&r, f, "x.kpm"), -EBADMSG);
	ck_assert_str_eq(r.err, "x.kpm: truncated at byte 64 (in the info block at byte 16)");
	ck_assert_msg(m.peak - before < (64 << 20) / sysconf(_SC_PAGESIZE),
		      "%ld KiB taken to read 64 bytes",
		      (m.peak - before) * sysconf(_SC_PAGESIZE) / 1024);
	kp_recfile_close(&r);
	fclose(f);
}
END_TEST


/*
 * Version 3: the symbols come in SYMS blocks, each before the chunk whose
 * records first name them; they add up across the file, a file cut after
 * a chunk keeps the symbols of what it holds, and a damaged one is said.
 */
START_TEST(syms_blocks_name_a_recordings_addresses)
{
	struct kp_recinfo info = { .uapi_version = KPMOD_UAPI_VERSION, .nr_cpus = 1,
				   .arch = "x86_64", .syms = true };
	const struct kp_sym a[2] = {
		{ .addr = 0xffffffff81200000ULL, .size = 0x2a0, .name = "vfs_write" },
		{ .addr = 0xffffffffc0001000ULL, .size = 0x40, .name = "foo_fn", .mod = "foo" },
	};
	const struct kp_sym b = { .addr = 0xffffffff81300000ULL, .size = 0x100, .name = "bar" };
	uint64_t w[16];
	struct kp_recfile r;
	struct kp_ksyms ks;
	struct kp_chunk c;
	char *buf = NULL, text[128];
	size_t len = 0, cut;
	FILE *f = open_memstream(&buf, &len);
	int n;

	add_rec(w, 0, 1, 1, 0);
	ck_assert_int_eq(kp_recfile_write_header(f, &info, NULL, 0, NULL, 0), 0);
	ck_assert_int_eq(kp_recfile_write_syms(f, a, 2), 0);
	ck_assert_int_eq(kp_recfile_write_chunk(f, 0, 0, 0, 0, w, sizeof(struct kpmod_record)), 0);
	cut = ftell(f);
	ck_assert_int_eq(kp_recfile_write_syms(f, &b, 1), 0);
	ck_assert_int_eq(kp_recfile_write_chunk(f, 0, 0, 0, 0, w, sizeof(struct kpmod_record)), 0);
	ck_assert_int_eq(kp_recfile_write_end(f, 2), 0);
	fclose(f);

	f = open_bytes(buf, len);
	ck_assert_int_eq(kp_recfile_open(&r, f, "x.kpm"), 0);
	ck_assert(r.info.syms);
	n = 0;
	while (kp_recfile_next(&r, &c) > 0) {
		kp_chunk_free(&c);
		n++;
	}
	ck_assert_int_eq(n, 2);
	ck_assert_uint_eq(r.nsyms, 3);
	ck_assert_int_eq(kp_ksyms_load_sized(&ks, r.syms, r.nsyms), 0);
	kp_ksyms_snprint(&ks, 0xffffffff81200009ULL, true, text, sizeof(text));
	ck_assert_str_eq(text, "vfs_write+0x9/0x2a0");
	kp_ksyms_snprint(&ks, 0xffffffffc0001010ULL, true, text, sizeof(text));
	ck_assert_str_eq(text, "foo_fn+0x10/0x40 [foo]");
	kp_ksyms_snprint(&ks, 0xffffffff81300000ULL, false, text, sizeof(text));
	ck_assert_str_eq(text, "bar");
	/* Past a symbol's own size: no name, though no symbol follows it. */
	kp_ksyms_snprint(&ks, 0xffffffff812002a0ULL, true, text, sizeof(text));
	ck_assert_str_eq(text, "0xffffffff812002a0");
	kp_ksyms_free(&ks);
	kp_recfile_close(&r);
	fclose(f);

	/* Cut after the first chunk: its symbols are there. */
	f = open_bytes(buf, cut);
	ck_assert_int_eq(kp_recfile_open(&r, f, "x.kpm"), 0);
	ck_assert_int_eq(kp_recfile_next(&r, &c), 1);
	kp_chunk_free(&c);
	ck_assert_int_eq(kp_recfile_next(&r, &c), -EBADMSG);
	ck_assert_uint_eq(r.nsyms, 2);
	kp_recfile_close(&r);
	fclose(f);

	/* A count larger than the block holds: corrupt, said where. */
	buf[cut + 24] = 9;
	set_version(buf, len, 3, kp_crc32c);
	f = open_bytes(buf, len);
	ck_assert_int_eq(kp_recfile_open(&r, f, "x.kpm"), 0);
	ck_assert_int_eq(kp_recfile_next(&r, &c), 1);
	kp_chunk_free(&c);
	ck_assert_int_eq(kp_recfile_next(&r, &c), -EBADMSG);
	ck_assert_msg(strstr(r.err, "corrupt symbols block at byte"), "%s", r.err);
	kp_recfile_close(&r);
	fclose(f);
	free(buf);
}
END_TEST

KP_SUITE(recfile_suite)
static Suite *recfile_suite(void)
{
	Suite *s = suite_create("recfile");
	TCase *tc = tcase_create("recfile");

	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, every_truncation_reports_and_keeps_the_prefix);
	tcase_add_test(tc, every_damaged_byte_is_caught_or_harmless);
	tcase_add_test(tc, bad_records_inside_a_good_checksum);
	tcase_add_test(tc, a_length_past_the_end_takes_no_memory);
	tcase_add_test(tc, checksums);
	tcase_add_test(tc, version_1_files_still_read);
	tcase_add_test(tc, syms_blocks_name_a_recordings_addresses);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}
