// SPDX-License-Identifier: GPL-2.0
/*
 * kpmod-ringtest: drives one CPU's ring the way any reader following
 * uapi/kpmod.h may, to check what the CLI's own reader would hide.
 *
 *   kpmod-ringtest watermark    poll() with no timeout is woken when the
 *                               unread bytes reach the watermark, also when
 *                               the record that takes them there needed a
 *                               pad (either buffer mode).  Needs 64K rings
 *                               and an enabled probe on find_task_by_vpid
 *                               with one 8-byte argument; makes its own
 *                               events with getpgid() on CPU 0.
 *   kpmod-ringtest zeros NARGS  CPU 0's ring holds nothing but its records'
 *                               own bytes: past data_head all zero, and in
 *                               each record every byte outside the header,
 *                               fault bitmap, NARGS string slots and the
 *                               strings they point at is zero.
 *   kpmod-ringtest privdrop uid|userns
 *                               a /dev/kpmod file opened (and one attached)
 *                               by root gives nothing to the same process
 *                               once it drops to uid 1000, or enters a new
 *                               user namespace: ATTACH and mmap say EPERM.
 *   kpmod-ringtest wakeup CPU SECONDS
 *                               a reader of CPU's ring sleeping in poll()
 *                               (capped at 1 s) for SECONDS: each time the
 *                               module wakes it, how long after the record
 *                               that took the unread bytes to the
 *                               watermark was written (its timestamp
 *                               against CLOCK_MONOTONIC); prints
 *                               "wakeups N timeouts N latency_us P50 P99
 *                               MAX events N lost N" and "ok" (a
 *                               measurement: nothing is judged).
 *   kpmod-ringtest userns-exec CMD [ARGS...]
 *                               runs CMD in a new user namespace, where it
 *                               is root with every capability, but only
 *                               there: kpmod must refuse it.
 *   kpmod-ringtest nosyslog-exec CMD [ARGS...]
 *                               runs CMD as root with every capability but
 *                               CAP_SYSLOG (dropped from the bounding set,
 *                               so exec does not give it back).
 *
 * Prints "ok ..." or "FAIL ..." lines; exits 1 on a failure, 2 on a setup
 * error, 77 when the kernel has no user namespaces to test with.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "uapi/kpmod.h"

static int failures;

static void result(int ok, const char *what, const char *detail)
{
	printf("%s %s%s%s\n", ok ? "ok" : "FAIL", what, detail[0] ? ": " : "", detail);
	failures += !ok;
}

static void die(const char *what)
{
	fprintf(stderr, "kpmod-ringtest: %s: %s\n", what, strerror(errno));
	exit(2);
}

struct ring {
	int fd;
	struct kpmod_ring_consumer *cons;
	const struct kpmod_ring_meta *meta;
	const uint8_t *data;
	uint64_t size;
};

static void ring_open(struct ring *r, unsigned int cpu)
{
	long page = sysconf(_SC_PAGESIZE);
	uint32_t c = cpu;
	void *ro;

	r->fd = open("/dev/kpmod", O_RDWR);
	if (r->fd < 0)
		die("open /dev/kpmod");
	if (ioctl(r->fd, KPMOD_IOC_ATTACH, &c))
		die("attach");
	r->cons = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (r->cons == MAP_FAILED)
		die("map the consumer page");
	ro = mmap(NULL, page, PROT_READ, MAP_SHARED, r->fd, page);
	if (ro == MAP_FAILED)
		die("map the meta page");
	r->size = ((const struct kpmod_ring_meta *)ro)->data_size;
	munmap(ro, page);
	ro = mmap(NULL, page + r->size, PROT_READ, MAP_SHARED, r->fd, page);
	if (ro == MAP_FAILED)
		die("map the data");
	r->meta = ro;
	r->data = (const uint8_t *)ro + r->meta->data_offset;
}

static uint64_t head_of(const struct ring *r)
{
	return __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
}

static void set_tail(struct ring *r, uint64_t tail)
{
	__atomic_store_n(&r->cons->data_tail, tail, __ATOMIC_RELEASE);
}

/* One event on this CPU (the probe is on find_task_by_vpid). */
static void one_event(void)
{
	syscall(SYS_getpgid, 4242424);
}

static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("pin to CPU 0");
}

/* Waits until @pid sleeps (in its poll), at most ~2 s. */
static void wait_sleeping(pid_t pid)
{
	char path[64], buf[256], *p;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (i = 0; i < 200; i++) {
		FILE *f = fopen(path, "r");

		if (f && fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) && p[2] == 'S') {
			fclose(f);
			usleep(50000);
			return;
		}
		if (f)
			fclose(f);
		usleep(10000);
	}
}

/*
 * Brings head to the last record slot before the end of the data area,
 * puts the tail so that unread bytes are just under the watermark there
 * but would be over it counting the pad, and checks that the next event
 * wakes a reader already sleeping in poll(-1).
 */
static void test_watermark(void)
{
	uint64_t wm, head, before, len = 0, tail;
	struct ring r;
	pid_t child;
	int status, i;
	char detail[200];

	pin_cpu0();
	ring_open(&r, 0);
	wm = r.size / 4;
	/* Learn the record length from one event. */
	before = head_of(&r);
	one_event();
	head = head_of(&r);
	len = head - before;
	set_tail(&r, head);
	if (!len || len > 512) {
		fprintf(stderr, "kpmod-ringtest: no event on CPU 0 (is the probe enabled?)\n");
		exit(2);
	}
	/* Up to where the next record no longer fits before the end: a pad. */
	for (i = 0; i < 1000000; i++) {
		uint64_t pos = head & (r.size - 1);

		if (pos + len > r.size)
			break;
		one_event();
		head = head_of(&r);
		set_tail(&r, head);
	}
	if ((head & (r.size - 1)) + len <= r.size) {
		fprintf(stderr, "kpmod-ringtest: never reached the end of the ring\n");
		exit(2);
	}
	/* Unread: under the watermark before the pad, over it with the pad. */
	tail = head - (wm - 8);
	if (r.size - (head & (r.size - 1)) < 8 + 8) {
		fprintf(stderr, "kpmod-ringtest: pad too small to straddle the watermark\n");
		exit(2);
	}
	set_tail(&r, tail);
	child = fork();
	if (child < 0)
		die("fork");
	if (!child) {
		struct pollfd p = { .fd = r.fd, .events = POLLIN };

		_exit(poll(&p, 1, -1) == 1 && (p.revents & POLLIN) ? 0 : 3);
	}
	wait_sleeping(child);
	one_event();
	for (i = 0; i < 500; i++) {
		if (waitpid(child, &status, WNOHANG) == child)
			break;
		usleep(10000);
	}
	snprintf(detail, sizeof(detail),
		 "%s mode, record %llu bytes, pad %llu, unread %llu -> %llu, watermark %llu",
		 r.meta->mode == KPMOD_BUF_OVERWRITE ? "overwrite" : "discard",
		 (unsigned long long)len,
		 (unsigned long long)(r.size - (head & (r.size - 1))),
		 (unsigned long long)(head - tail),
		 (unsigned long long)(head_of(&r) - tail), (unsigned long long)wm);
	if (i == 500) {
		kill(child, SIGKILL);
		waitpid(child, &status, 0);
		result(0, "a poller is woken when a padded record crosses the watermark", detail);
		return;
	}
	result(WIFEXITED(status) && !WEXITSTATUS(status),
	       "a poller is woken when a padded record crosses the watermark", detail);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The time of the record whose end takes @tail's unread bytes to @wm, or 0. */
static uint64_t crossing_ts(const struct ring *r, uint64_t tail, uint64_t head, uint64_t wm)
{
	uint64_t pos = tail;

	while (pos < head) {
		const struct kpmod_record *rec =
			(const void *)(r->data + (pos & (r->size - 1)));

		if (rec->len < sizeof(*rec) || rec->len % 8)
			return 0;
		if (pos + rec->len - tail >= wm)
			return rec->type == KPMOD_REC_PAD ? 0 : rec->ts_ns;
		pos += rec->len;
	}
	return 0;
}

static void test_wakeup(unsigned int cpu, unsigned int secs)
{
	uint64_t *lat = calloc(1000000, sizeof(*lat));
	uint64_t end = mono_ns() + (uint64_t)secs * 1000000000, wm, lost0, events0;
	unsigned int n = 0, timeouts = 0;
	struct ring r;

	if (!lat)
		die("calloc");
	ring_open(&r, cpu);
	wm = r.size / 4;
	lost0 = r.meta->lost;
	events0 = r.meta->events;
	set_tail(&r, head_of(&r));
	while (mono_ns() < end && n < 1000000) {
		struct pollfd p = { .fd = r.fd, .events = POLLIN };
		uint64_t tail = r.cons->data_tail, head, ts;
		int got = poll(&p, 1, 1000);
		uint64_t now = mono_ns();

		head = head_of(&r);
		if (got == 0) {
			timeouts++;
		} else if (got > 0 && head - tail >= wm) {
			ts = crossing_ts(&r, tail, head, wm);
			if (ts && now > ts)
				lat[n++] = now - ts;
		}
		set_tail(&r, head);
	}
	qsort(lat, n, sizeof(*lat), cmp_u64);
	printf("wakeups %u timeouts %u latency_us %llu %llu %llu events %llu lost %llu\n", n, timeouts,
	       n ? (unsigned long long)lat[(n - 1) / 2] / 1000 : 0,
	       n ? (unsigned long long)lat[(n * 99 + 99) / 100 - 1] / 1000 : 0,
	       n ? (unsigned long long)lat[n - 1] / 1000 : 0,
	       (unsigned long long)(r.meta->events - events0),
	       (unsigned long long)(r.meta->lost - lost0));
	result(1, "wakeup measured", "");
	free(lat);
}

/* Marks [off, off + n) of a record as its own bytes. */
static void cover(uint8_t *covered, uint32_t reclen, uint32_t off, uint32_t n)
{
	if (off > reclen || n > reclen - off)
		return;
	memset(covered + off, 1, n);
}

static void test_zeros(unsigned int nargs)
{
	uint32_t fixed = (nargs * 4 + 7) & ~7u, args = KPMOD_ARGS_OFFSET(nargs);
	uint64_t head, pos, bad_after = 0, bad_inside = 0, records = 0;
	uint8_t covered[KPMOD_MAX_RECORD];
	struct ring r;
	char detail[160];
	uint32_t i, j;

	ring_open(&r, 0);
	head = head_of(&r);
	if (head >= r.size) {
		fprintf(stderr, "kpmod-ringtest: the ring wrapped: start from a fresh one\n");
		exit(2);
	}
	for (pos = 0; pos < head; ) {
		const struct kpmod_record *rec = (const void *)(r.data + pos);

		if (rec->len < 8 || rec->len % 8 || rec->len > KPMOD_MAX_RECORD ||
		    pos + rec->len > head) {
			fprintf(stderr, "kpmod-ringtest: bad record at %llu\n",
				(unsigned long long)pos);
			exit(2);
		}
		if (rec->type == KPMOD_REC_EVENT) {
			const uint8_t *b = (const uint8_t *)rec;

			memset(covered, 0, rec->len);
			cover(covered, rec->len, 0, args + fixed);
			for (i = 0; i < nargs; i++) {
				uint32_t loc;

				memcpy(&loc, b + args + 4 * i, 4);
				cover(covered, rec->len, KPMOD_DATA_LOC_OFF(loc),
				      KPMOD_DATA_LOC_LEN(loc));
			}
			/* The slot area's own padding past the last slot. */
			for (j = args + 4 * nargs; j < args + fixed; j++)
				covered[j] = b[j] == 0;
			for (j = 0; j < rec->len; j++)
				bad_inside += !covered[j] && b[j];
			records++;
		}
		pos += rec->len;
	}
	for (pos = head; pos < r.size; pos++)
		bad_after += r.data[pos] != 0;
	snprintf(detail, sizeof(detail), "%llu records, %llu bytes past data_head",
		 (unsigned long long)records, (unsigned long long)(r.size - head));
	result(records > 0, "events were recorded", detail);
	snprintf(detail, sizeof(detail), "%llu non-zero bytes past data_head",
		 (unsigned long long)bad_after);
	result(!bad_after, "nothing but records in the ring", detail);
	snprintf(detail, sizeof(detail), "%llu non-zero bytes outside header, slots and strings",
		 (unsigned long long)bad_inside);
	result(!bad_inside, "records hold only their own bytes", detail);
}

static void test_privdrop(const char *how)
{
	long page = sysconf(_SC_PAGESIZE);
	int plain, attached;
	uint32_t cpu = 0;
	void *m;
	int err;

	plain = open("/dev/kpmod", O_RDWR);
	attached = open("/dev/kpmod", O_RDWR);
	if (plain < 0 || attached < 0)
		die("open /dev/kpmod as root");
	if (ioctl(attached, KPMOD_IOC_ATTACH, &cpu))
		die("attach as root");
	if (!strcmp(how, "uid")) {
		if (setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000))
			die("drop to uid 1000");
	} else if (unshare(CLONE_NEWUSER)) {
		if (errno == EINVAL)
			exit(77);	/* no user namespaces in this kernel */
		die("unshare a user namespace");
	}
	cpu = 1 % (unsigned int)sysconf(_SC_NPROCESSORS_CONF);
	err = ioctl(plain, KPMOD_IOC_ATTACH, &cpu) ? errno : 0;
	result(err == EPERM, "ATTACH after the drop is refused", strerror(err));
	m = mmap(NULL, page, PROT_READ, MAP_SHARED, attached, page);
	err = m == MAP_FAILED ? errno : 0;
	result(err == EPERM, "mmap after the drop is refused", strerror(err));
	err = open("/dev/kpmod", O_RDWR) < 0 ? errno : 0;
	result(err == EPERM || err == EACCES, "open after the drop is refused", strerror(err));
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "userns-exec")) {
		if (unshare(CLONE_NEWUSER)) {
			/* A kernel without user namespaces: nothing to test (77). */
			if (errno == EINVAL)
				return 77;
			die("unshare a user namespace");
		}
		execvp(argv[2], argv + 2);
		die(argv[2]);
	}
	if (argc >= 3 && !strcmp(argv[1], "nosyslog-exec")) {
		if (prctl(PR_CAPBSET_DROP, CAP_SYSLOG, 0, 0, 0))
			die("drop CAP_SYSLOG from the bounding set");
		execvp(argv[2], argv + 2);
		die(argv[2]);
	}
	if (argc == 2 && !strcmp(argv[1], "watermark"))
		test_watermark();
	else if (argc == 4 && !strcmp(argv[1], "wakeup"))
		test_wakeup(atoi(argv[2]), atoi(argv[3]));
	else if (argc == 3 && !strcmp(argv[1], "zeros"))
		test_zeros(atoi(argv[2]));
	else if (argc == 3 && !strcmp(argv[1], "privdrop") &&
		 (!strcmp(argv[2], "uid") || !strcmp(argv[2], "userns")))
		test_privdrop(argv[2]);
	else {
		fprintf(stderr, "usage: kpmod-ringtest watermark | wakeup CPU SECONDS | zeros NARGS | privdrop uid|userns | userns-exec CMD... | nosyslog-exec CMD...\n");
		return 2;
	}
	return failures ? 1 : 0;
}
