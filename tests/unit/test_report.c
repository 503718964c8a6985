// SPDX-License-Identifier: GPL-2.0
/*
 * kpmod report on recordings of several CPUs whose chunks overlap in time:
 * the events come out in timestamp order, the same from a file (read
 * again chunk by chunk) as from a pipe (kept in memory), and from a file
 * the memory does not grow with the recording's size.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "recfile.h"
#include "suites.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define KP_SANITIZED 1
#else
#define KP_SANITIZED 0
#endif

/*
 * A recording of @ncpu CPUs, @nchunks chunks each, @per records per chunk,
 * written round robin (chunk k of every CPU, then k + 1): CPU c's records
 * have timestamps (k * per + j) * ncpu + c, so every chunk overlaps the
 * other CPUs' and only a merge across chunks puts them in order.
 */
static void write_recording(const char *path, unsigned int ncpu, unsigned int nchunks,
			    unsigned int per)
{
	struct kp_recinfo info = { .uapi_version = KPMOD_UAPI_VERSION,
				   .nr_cpus = ncpu, .buf_mode = KPMOD_BUF_DISCARD,
				   .buf_size = 65536, .arch = "x86_64",
				   .release = "6.1.0-test", .module_version = "0.1.0" };
	struct kp_probe_desc p = { .id = 1, .kind = KPMOD_PROBE_ENTRY,
				   .group = "kprobes", .event = "e", .symbol = "f",
				   .addr = 0xffffffff81000000ULL };
	struct kpmod_record *recs = calloc(per, sizeof(*recs));
	unsigned int k, c, j;
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(recs);
	ck_assert_int_eq(kp_recfile_write_header(f, &info, &p, 1, NULL, 0), 0);
	for (c = 0; c < ncpu; c++)	/* the baseline chunks */
		ck_assert_int_eq(kp_recfile_write_chunk(f, c, 0, 0, 0, NULL, 0), 0);
	for (k = 0; k < nchunks; k++) {
		for (c = 0; c < ncpu; c++) {
			for (j = 0; j < per; j++) {
				struct kpmod_record *r = &recs[j];

				r->len = sizeof(*r);
				r->type = KPMOD_REC_EVENT;
				r->probe_id = 1;
				r->ts_ns = ((uint64_t)k * per + j) * ncpu + c;
				r->cpu = c;
				r->pid = 100 + c;
				r->tgid = 100 + c;
				r->ip = p.addr;
				memcpy(r->comm, "w", 2);
			}
			ck_assert_int_eq(kp_recfile_write_chunk(f, c, 0, 0, 0, recs,
								per * sizeof(*recs)), 0);
		}
	}
	ck_assert_int_eq(kp_recfile_write_end(f, ncpu + (uint64_t)nchunks * ncpu), 0);
	ck_assert_int_eq(fclose(f), 0);
	free(recs);
}

/* Runs kpmod report [--json] @path with stdout to @out; its exit code. */
static int report_to(const char *path, const char *out, bool json)
{
	char *argv[] = { "report", json ? "--json" : (char *)path, json ? (char *)path : NULL, NULL };
	int saved, fd, ret;

	fflush(stdout);
	saved = dup(1);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	dup2(fd, 1);
	close(fd);
	ret = kp_cmd_report(json ? 3 : 2, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	return ret;
}

/* The same through a pipe, which cannot seek: every chunk is kept. */
static int report_piped(const char *path, const char *out, bool json)
{
	char fdpath[32];
	int pfd[2], ret, status;
	pid_t child;

	ck_assert_int_eq(pipe(pfd), 0);
	child = fork();
	ck_assert_int_ge(child, 0);
	if (!child) {
		char buf[65536];
		ssize_t n;
		int in = open(path, O_RDONLY);

		close(pfd[0]);
		while (in >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
			if (write(pfd[1], buf, n) != n)
				_exit(1);
		_exit(0);
	}
	close(pfd[1]);
	snprintf(fdpath, sizeof(fdpath), "/dev/fd/%d", pfd[0]);
	ret = report_to(fdpath, out, json);
	close(pfd[0]);
	waitpid(child, &status, 0);
	return ret;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	*len = ftell(f);
	rewind(f);
	buf = malloc(*len + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, *len, f), *len);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

START_TEST(a_file_and_a_pipe_give_the_same_events_in_time_order)
{
	char dir[] = "/tmp/kp-report-XXXXXX", rec[64], a[64], b[64];
	unsigned int ncpu = 3, nchunks = 40, per = 25, n = 0;
	double prev = -1;
	size_t la, lb;
	char *ta, *tb, *line;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(rec, sizeof(rec), "%s/r.kpm", dir);
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	write_recording(rec, ncpu, nchunks, per);
	ck_assert_int_eq(report_to(rec, a, true), 0);
	ck_assert_int_eq(report_piped(rec, b, true), 0);
	ta = slurp(a, &la);
	tb = slurp(b, &lb);
	ck_assert_uint_eq(la, lb);
	ck_assert(!memcmp(ta, tb, la));
	for (line = ta; (line = strstr(line, "{\"ts\":")); line++, n++) {
		double ts = strtod(line + 6, NULL);

		ck_assert_msg(ts > prev, "event %u at %.9f after %.9f", n, ts, prev);
		prev = ts;
	}
	ck_assert_uint_eq(n, ncpu * nchunks * per);
	/* The text form too. */
	ck_assert_int_eq(report_to(rec, a, false), 0);
	ck_assert_int_eq(report_piped(rec, b, false), 0);
	free(ta);
	free(tb);
	ta = slurp(a, &la);
	tb = slurp(b, &lb);
	ck_assert_uint_eq(la, lb);
	ck_assert(!memcmp(ta, tb, la));
	free(ta);
	free(tb);
	unlink(rec);
	unlink(a);
	unlink(b);
	rmdir(dir);
}
END_TEST

/* Peak memory (KiB) of a child that reports @path to /dev/null. */
static long report_maxrss(const char *path)
{
	struct rusage ru;
	int status;
	pid_t child = fork();

	ck_assert_int_ge(child, 0);
	if (!child)
		_exit(report_to(path, "/dev/null", false));
	ck_assert_int_eq(wait4(child, &status, 0, &ru), child);
	ck_assert(WIFEXITED(status) && !WEXITSTATUS(status));
	return ru.ru_maxrss;
}

START_TEST(memory_stays_flat_whatever_the_recordings_size)
{
	char dir[] = "/tmp/kp-report-XXXXXX", small[64], big[64];
	long rss_small, rss_big;

	if (KP_SANITIZED)
		return;		/* a sanitizer's quarantine keeps what is freed */
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(small, sizeof(small), "%s/small.kpm", dir);
	snprintf(big, sizeof(big), "%s/big.kpm", dir);
	/* 2 CPUs, chunks of 512 records (32 KiB): 4 MiB and 40 MiB. */
	write_recording(small, 2, 64, 512);
	write_recording(big, 2, 640, 512);
	rss_small = report_maxrss(small);
	rss_big = report_maxrss(big);
	ck_assert_msg(rss_big - rss_small < 4096,
		      "a 40 MiB recording took %ld KiB more than a 4 MiB one", rss_big - rss_small);
	unlink(small);
	unlink(big);
	rmdir(dir);
}
END_TEST

static Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("merge");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, a_file_and_a_pipe_give_the_same_events_in_time_order);
	tcase_add_test(tc, memory_stays_flat_whatever_the_recordings_size);
	suite_add_tcase(s, tc);
	return s;
}

KP_SUITE(report_suite)
