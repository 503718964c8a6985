// SPDX-License-Identifier: GPL-2.0
/*
 * Writes the seeds of fuzz_recfile into DIR with the CLI's own writer
 * (kp_recfile_write_*): whole recordings of every argument type, string
 * escapes, faults, stacks, unknown probes and blocks, and recordings cut
 * short.  `make corpus-recfile` runs it; the files are committed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crc.h"
#include "recfile.h"

static const char kallsyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81001000 T do_sys_openat2\n"
	"ffffffff81001150 T __x64_sys_openat\n"
	"ffffffff81001150 T __ia32_sys_openat\n"
	"ffffffff81002000 t __kretprobe_trampoline\n"
	"ffffffff81002100 T vfs_read\n"
	"ffffffff81002400 d $x.12\n"
	"0000000000000000 A fixed_percpu_data\n"
	"ffffffffc0001000 t foo_init\t[foo]\n"
	"ffffffffc0001080 t foo_exit\t[foo]\n";

/* Three probes: every argument type, a return probe, arrays. */
static struct kp_probe_desc probes[3];

static void add_arg(struct kp_probe_desc *p, const char *name, uint32_t type,
		    uint32_t count, uint32_t offset, uint32_t size)
{
	struct kp_arg_desc *a = &p->args[p->nargs++];

	snprintf(a->name, sizeof(a->name), "%s", name);
	a->type = type;
	a->count = count;
	a->offset = offset;
	a->size = size;
}

static void make_probes(void)
{
	struct kp_probe_desc *p = probes;

	memset(probes, 0, sizeof(probes));
	p[0].id = 1;
	p[0].kind = KPMOD_PROBE_ENTRY;
	strcpy(p[0].group, "kprobes");
	strcpy(p[0].event, "open");
	strcpy(p[0].symbol, "do_sys_openat2");
	p[0].addr = 0xffffffff81001000ULL;
	add_arg(&p[0], "dfd", KPMOD_T_S64, 0, 0, 8);
	add_arg(&p[0], "name", KPMOD_T_STRING, 0, 8, 4);
	add_arg(&p[0], "flags", KPMOD_T_X32, 0, 12, 4);
	add_arg(&p[0], "mode", KPMOD_T_U16, 0, 16, 2);
	add_arg(&p[0], "c", KPMOD_T_CHAR, 0, 18, 1);
	add_arg(&p[0], "bf", KPMOD_T_BITFIELD, 0, 20, 4);
	add_arg(&p[0], "arr", KPMOD_T_U8, 4, 24, 4);
	add_arg(&p[0], "sym", KPMOD_T_SYMBOL, 0, 32, 8);
	add_arg(&p[0], "ss", KPMOD_T_SYMSTR, 0, 40, 8);
	p[0].args_size = 48;

	p[1].id = 2;
	p[1].kind = KPMOD_PROBE_RETURN;
	strcpy(p[1].group, "g");
	strcpy(p[1].event, "ret");
	strcpy(p[1].module, "foo");
	strcpy(p[1].symbol, "foo_init");
	p[1].addr = 0xffffffffc0001000ULL;
	add_arg(&p[1], "ret", KPMOD_T_X64, 0, 0, 8);
	p[1].args_size = 8;

	p[2].id = 3;
	p[2].kind = KPMOD_PROBE_ENTRY;
	strcpy(p[2].group, "kprobes");
	strcpy(p[2].event, "arrays");
	strcpy(p[2].symbol, "vfs_read");
	p[2].offset = 4;
	add_arg(&p[2], "s", KPMOD_T_S8, 3, 0, 3);
	add_arg(&p[2], "strs", KPMOD_T_STRING, 2, 4, 8);
	add_arg(&p[2], "w", KPMOD_T_S16, 2, 12, 4);
	p[2].args_size = 16;
}

/* Records are built here, 8-aligned, one after another. */
static uint64_t recbuf[512];
static size_t reclen;

static struct kpmod_record *rec_start(uint32_t probe, uint32_t flags, uint64_t ts,
				      const char *comm, uint32_t pid)
{
	struct kpmod_record *r = (void *)((uint8_t *)recbuf + reclen);

	memset(r, 0, sizeof(*r));
	r->len = sizeof(*r);
	r->type = KPMOD_REC_EVENT;
	r->flags = flags;
	r->probe_id = probe;
	r->pid = pid;
	r->tgid = pid;
	r->ts_ns = ts;
	strncpy(r->comm, comm, sizeof(r->comm));
	return r;
}

static void rec_end(struct kpmod_record *r)
{
	r->len = (r->len + 7) & ~7u;
	reclen += r->len;
}

/* Appends @n bytes to @r, returns their offset in it. */
static uint32_t rec_put(struct kpmod_record *r, const void *p, size_t n)
{
	uint32_t off = r->len;

	memcpy((uint8_t *)r + off, p, n);
	r->len += (uint32_t)n;
	return off;
}

/* The fault bitmap and an argument area of @size bytes, zeroed. */
static uint8_t *rec_args(struct kpmod_record *r, uint32_t nargs, uint32_t size,
			 uint64_t faults)
{
	uint8_t *bm = (uint8_t *)r + r->len;
	uint32_t bmlen = KPMOD_FAULT_BITMAP_SIZE(nargs);

	memset(bm, 0, bmlen + ((size + 7) & ~7u));
	memcpy(bm, &faults, bmlen < 8 ? bmlen : 8);
	r->len += bmlen + ((size + 7) & ~7u);
	return bm + bmlen;
}

static void put_loc(struct kpmod_record *r, uint8_t *slot, const char *s, size_t n)
{
	uint32_t off = rec_put(r, s, n), loc = KPMOD_DATA_LOC(n, off);

	memcpy(slot, &loc, 4);
}

static void event_open(uint64_t ts, const char *comm, const char *name, size_t namelen,
		       uint64_t faults)
{
	struct kpmod_record *r = rec_start(1, 0, ts, comm, 1234);
	uint8_t *a = rec_args(r, 9, 48, faults);
	int64_t dfd = -100;
	uint32_t flags = 0x8241, bf = 5;
	uint16_t mode = 0644;
	uint64_t sym = 0xffffffff81002105ULL, ss = 0xffffffffc0001010ULL;

	r->ip = 0xffffffff81001000ULL;
	memcpy(a, &dfd, 8);
	memcpy(a + 12, &flags, 4);
	memcpy(a + 16, &mode, 2);
	a[18] = 'x';
	memcpy(a + 20, &bf, 4);
	memcpy(a + 24, "\x01\x02\x03\xff", 4);
	memcpy(a + 32, &sym, 8);
	memcpy(a + 40, &ss, 8);
	if (namelen)
		put_loc(r, a + 8, name, namelen);
	rec_end(r);
}

static void event_ret(uint64_t ts, uint64_t ret_ip)
{
	struct kpmod_record *r = rec_start(2, KPMOD_RECF_RETURN, ts, "insmod", 77);
	uint8_t *a = rec_args(r, 1, 8, 0);
	uint64_t v = 0xfffffffffffffff2ULL;

	r->ip = 0xffffffffc0001000ULL;
	r->ret_ip = ret_ip;
	memcpy(a, &v, 8);
	rec_end(r);
}

static void event_arrays(uint64_t ts)
{
	struct kpmod_record *r = rec_start(3, 0, ts, "cat", 42);
	uint8_t *a = rec_args(r, 3, 16, 0);
	int16_t w[2] = { -2, 300 };

	r->ip = 0xffffffff81002104ULL;
	memcpy(a, "\x80\x7f\x00", 3);
	put_loc(r, a + 4, "first", 6);
	put_loc(r, a + 8, "second", 7);
	memcpy(a + 12, w, 4);
	rec_end(r);
}

/* A record of a probe the file does not describe. */
static void event_unknown(uint64_t ts, uint32_t flags)
{
	struct kpmod_record *r = rec_start(99, flags, ts, "", 0);

	r->ip = 0xffffffff81001150ULL;
	r->ret_ip = flags ? 0xffffffff81002000ULL : 0;
	rec_put(r, "\0\0\0\0\0\0\0\0", 8);
	rec_end(r);
}

static void stack(uint64_t ts, uint32_t nr)
{
	struct kpmod_stack_rec *s = (void *)rec_start(1, 0, ts, "cat", 42);
	uint32_t i;

	s->hdr.type = KPMOD_REC_STACK;
	s->nr = nr;
	s->__reserved = 0;
	s->hdr.len = sizeof(*s) + nr * 8;
	for (i = 0; i < nr; i++)
		s->frames[i] = 0xffffffff81001000ULL + 0x80 * i;
	rec_end(&s->hdr);
}

static const struct kp_recinfo info_x86 = {
	.uapi_version = KPMOD_UAPI_VERSION, .nr_cpus = 2, .buf_mode = KPMOD_BUF_DISCARD,
	.buf_size = 65536, .arch = "x86_64", .release = "6.1.0-test",
	.module_version = "0.1.0",
};

static const struct kp_recinfo info_arm = {
	.uapi_version = KPMOD_UAPI_VERSION, .nr_cpus = 4, .buf_mode = KPMOD_BUF_OVERWRITE,
	.buf_size = 1 << 20, .arch = "arm64", .release = "6.12.0-arm",
	.module_version = "0.1.0",
};

static char *buf;
static size_t buflen;
static FILE *f;

static void check(int ret, const char *what)
{
	if (ret) {
		fprintf(stderr, "gen_recfile: %s: %s\n", what, strerror(-ret));
		exit(1);
	}
}

static void begin(const struct kp_recinfo *info, size_t nprobes, bool ksyms)
{
	f = open_memstream(&buf, &buflen);
	if (!f)
		exit(1);
	check(kp_recfile_write_header(f, info, probes, nprobes, ksyms ? kallsyms : NULL,
				      ksyms ? strlen(kallsyms) : 0), "header");
}

static void chunk(uint32_t cpu, uint64_t lost, uint64_t overwritten)
{
	check(kp_recfile_write_chunk(f, cpu, lost, overwritten, 0, recbuf, reclen), "chunk");
	reclen = 0;
}

/* A block of a type this reader does not know: skipped. */
static void unknown_block(void)
{
	static const char payload[] = "a newer writer's block";
	uint8_t h[24] = { 9 };
	uint64_t len = sizeof(payload);
	uint32_t crc = kp_crc32c(0, payload, sizeof(payload));
	static const uint8_t zero[8];

	memcpy(h + 8, &len, 8);
	memcpy(h + 16, &crc, 4);
	crc = kp_crc32c(0, h, 20);
	memcpy(h + 20, &crc, 4);
	fwrite(h, 1, sizeof(h), f);
	fwrite(payload, 1, sizeof(payload), f);
	fwrite(zero, 1, (8 - sizeof(payload) % 8) % 8, f);
}

/* Writes the file, or its first @cut bytes (0: all). */
static void finish(const char *dir, const char *name, uint64_t nchunks, bool end,
		   size_t cut)
{
	char path[4096];
	FILE *out;

	if (end)
		check(kp_recfile_write_end(f, nchunks), "end");
	if (fclose(f))
		exit(1);
	if (cut && cut < buflen)
		buflen = cut;
	if (buflen > 4096) {
		fprintf(stderr, "gen_recfile: %s: %zu bytes, more than 4 KiB\n", name, buflen);
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	out = fopen(path, "wb");
	if (!out || fwrite(buf, 1, buflen, out) != buflen || fclose(out)) {
		fprintf(stderr, "gen_recfile: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	free(buf);
	buf = NULL;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";
	static const char utf8[] = "caf\xc3\xa9 \xe2\x80\xa8 \xff\"q\" \\ \t";

	make_probes();

	/* Everything: symbols, three probes, two CPUs, a stack, an end. */
	begin(&info_x86, 3, true);
	event_open(1000, "bash", "/etc/passwd", 12, 0);
	event_ret(2000, 0xffffffff81001160ULL);
	stack(2000, 3);
	chunk(0, 0, 0);
	event_arrays(1500);
	event_open(2500, "cat", "/tmp", 5, 0);
	chunk(1, 5, 0);
	finish(dir, "full.kpm", 2, true, 0);

	/* Version 3: SYMS blocks before the chunks that need them. */
	{
		struct kp_recinfo info = info_x86;
		const struct kp_sym s1[2] = {
			{ .addr = 0xffffffff81001000ULL, .size = 0x150, .name = "do_sys_openat2" },
			{ .addr = 0xffffffffc0001000ULL, .size = 0x20, .name = "foo_init",
			  .mod = "foo" },
		};
		const struct kp_sym s2 = { .addr = 0xffffffff81001150ULL, .size = 0x40,
					   .name = "__x64_sys_openat" };

		info.syms = true;
		begin(&info, 3, false);
		check(kp_recfile_write_syms(f, s1, 2), "syms");
		event_open(1000, "bash", "/etc/passwd", 12, 0);
		stack(1000, 3);
		chunk(0, 0, 0);
		check(kp_recfile_write_syms(f, &s2, 1), "syms");
		event_ret(2000, 0xffffffff81001160ULL);
		chunk(1, 0, 0);
		finish(dir, "syms.kpm", 2, true, 0);
	}

	/* No symbol block: addresses print as hex. */
	begin(&info_x86, 3, false);
	event_open(1000, "bash", "/etc/passwd", 12, 0);
	event_ret(2000, 0xffffffff81001160ULL);
	chunk(0, 0, 0);
	finish(dir, "nosyms.kpm", 1, true, 0);

	/* The recorder died: no end block. */
	begin(&info_x86, 3, true);
	event_arrays(10);
	chunk(1, 0, 0);
	finish(dir, "no-end.kpm", 1, false, 0);

	/* No probe, no chunk. */
	begin(&info_x86, 0, false);
	finish(dir, "empty.kpm", 0, true, 0);

	/* Records of a probe the file does not describe, entry and return. */
	begin(&info_x86, 1, true);
	event_unknown(5, 0);
	event_unknown(6, KPMOD_RECF_RETURN);
	chunk(0, 0, 0);
	finish(dir, "unknown-probe.kpm", 1, true, 0);

	/* Faulted arguments, and a string of length 0 (a fault). */
	begin(&info_x86, 1, true);
	event_open(7, "bash", NULL, 0, 0x1ff);
	event_open(8, "bash", NULL, 0, 0x2);
	event_open(9, "bash", NULL, 0, 0);
	chunk(0, 0, 0);
	finish(dir, "faults.kpm", 1, true, 0);

	/* Bytes to escape in a task's name and a string. */
	begin(&info_x86, 1, true);
	event_open(10, "x\n  fake-1 [0", utf8, sizeof(utf8), 0);
	event_open(11, "\x1b[31m\xc3\xa9", "no NUL", 6, 0);
	chunk(0, 0, 0);
	finish(dir, "escapes.kpm", 1, true, 0);

	/* Overwrite mode on arm64, counters in the chunks. */
	begin(&info_arm, 3, true);
	event_open(12, "kworker/0:1", "/", 2, 0);
	chunk(3, 0, 17);
	event_ret(13, 0xffffffff81002000ULL);	/* a kretprobe trampoline */
	chunk(3, 2, 40);
	finish(dir, "overwrite.kpm", 2, true, 0);

	/* A block of a newer writer between chunks. */
	begin(&info_x86, 3, true);
	event_arrays(20);
	chunk(0, 0, 0);
	unknown_block();
	event_arrays(21);
	chunk(1, 0, 0);
	finish(dir, "unknown-block.kpm", 2, true, 0);

	/* The idle task, a large timestamp, stacks of 0 and 64 frames. */
	begin(&info_x86, 1, true);
	event_open(0xfffffffffffffff0ULL, "swapper/0", "", 1, 0);
	((struct kpmod_record *)recbuf)->pid = 0;
	stack(30, 0);
	stack(31, KPMOD_STACK_MAX_FRAMES);
	chunk(0, 0, 0);
	finish(dir, "stacks.kpm", 1, true, 0);

	/* Cut inside the second chunk, and inside the header blocks. */
	begin(&info_x86, 3, true);
	event_open(40, "bash", "/etc", 5, 0);
	chunk(0, 0, 0);
	event_arrays(41);
	chunk(0, 0, 0);
	finish(dir, "cut-chunk.kpm", 2, true, 1040);
	begin(&info_x86, 3, true);
	finish(dir, "cut-header.kpm", 0, true, 300);
	return 0;
}
