// SPDX-License-Identifier: GPL-2.0
/*
 * kpmod-work: a workload with exactly known calls, for the VM scenarios.
 *
 *   kpmod-work getpgid N [FIRST]   getpgid(FIRST..FIRST+N-1): a pid argument
 *                                  (FIRST may be negative)
 *                                  that counts, for checking order and loss
 *   kpmod-work getppid N           N getppid() calls
 *   kpmod-work open PATH N         N open(PATH)+close
 *   kpmod-work read PATH N         N open(PATH), read to the end, close
 *   kpmod-work seekread PATH OFF COUNT  open(PATH), lseek to OFF, one
 *                                  read of COUNT bytes, close: what a probe
 *                                  on vfs_read must see is known
 *   kpmod-work edgeopen N          open() of N paths that end at the end of
 *                                  a page followed by an unmapped one:
 *                                  "a", "ab", ... N bytes and their NUL,
 *                                  then N bytes with no NUL (a fault)
 *   kpmod-work spin SECONDS        getppid() in a loop for SECONDS; prints "calls N"
 *   kpmod-work now                 prints CLOCK_MONOTONIC in nanoseconds
 *   kpmod-work time CMD ARGS...    runs CMD as above, then prints the mean
 *                                  nanoseconds per call ("ns_per_call N")
 *   kpmod-work name NAME CMD ARGS... calls itself NAME (prctl PR_SET_NAME:
 *                                  any bytes, a newline included), then
 *                                  runs CMD as above
 *   kpmod-work fifo PRIO CMD ARGS... runs CMD as above as a SCHED_FIFO
 *                                  task of priority PRIO (busybox has no
 *                                  chrt)
 *   kpmod-work chrt PID PRIO       makes task PID SCHED_FIFO of priority PRIO
 * Prints nothing but what is named above; exits 0, 1 when the kernel
 * refuses a scheduling change, 2 on a bad argument.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long num(const char *s)
{
	char *end;
	long v = strtol(s, &end, 0);

	if (*end || v < 0) {
		fprintf(stderr, "kpmod-work: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

/* Task @pid (0: this one) SCHED_FIFO at @prio; exits 1 if the kernel refuses. */
static void set_fifo(pid_t pid, const char *prio)
{
	struct sched_param sp = { .sched_priority = (int)num(prio) };

	if (sched_setscheduler(pid, SCHED_FIFO, &sp)) {
		perror("kpmod-work: sched_setscheduler");
		exit(1);
	}
}

static long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long i, n, start = 0;
	int timed = 0;

	if (argc == 2 && !strcmp(argv[1], "now")) {
		printf("%ld\n", now_ns());
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "chrt")) {
		set_fifo((pid_t)num(argv[2]), argv[3]);
		return 0;
	}
	if (argc > 3 && !strcmp(argv[1], "fifo")) {
		set_fifo(0, argv[2]);
		argv += 2;
		argc -= 2;
	}
	if (argc > 3 && !strcmp(argv[1], "name")) {
		prctl(PR_SET_NAME, argv[2], 0, 0, 0);
		argv += 2;
		argc -= 2;
	}
	if (argc > 1 && !strcmp(argv[1], "time")) {
		timed = 1;
		argv++;
		argc--;
		start = now_ns();
	}
	if (argc < 3)
		goto usage;
	if (!strcmp(argv[1], "getpgid")) {
		long first = 1000000;

		/* FIRST may be negative: signed keys and values. */
		if (argc > 3)
			first = argv[3][0] == '-' ? -num(argv[3] + 1) : num(argv[3]);

		n = num(argv[2]);
		/* Pids this large do not exist: each call fails fast. */
		for (i = 0; i < n; i++)
			syscall(SYS_getpgid, first + i);
	} else if (!strcmp(argv[1], "getppid")) {
		n = num(argv[2]);
		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
	} else if (!strcmp(argv[1], "open") && argc > 3) {
		n = num(argv[3]);
		for (i = 0; i < n; i++) {
			int fd = open(argv[2], O_RDONLY);

			if (fd >= 0)
				close(fd);
		}
	} else if (!strcmp(argv[1], "read") && argc > 3) {
		char buf[512];

		n = num(argv[3]);
		for (i = 0; i < n; i++) {
			int fd = open(argv[2], O_RDONLY);

			if (fd < 0)
				continue;
			/*
			 * What a probe on the buffer finds at vfs_read's entry
			 * is known: "" before a file's first read, then
			 * "kpmod-work read", never the file's own text.
			 */
			memset(buf, 0, sizeof(buf));
			while (read(fd, buf, sizeof(buf)) > 0) {
				memset(buf, 0, sizeof(buf));
				strcpy(buf, "kpmod-work read");
			}
			close(fd);
		}
	} else if (!strcmp(argv[1], "seekread") && argc > 4) {
		static char buf[1 << 16];
		int fd = open(argv[2], O_RDONLY);
		size_t count = (size_t)num(argv[4]);

		if (fd < 0 || count > sizeof(buf) || lseek(fd, num(argv[3]), SEEK_SET) < 0 ||
		    read(fd, buf, count) < 0)
			return 1;
		close(fd);
	} else if (!strcmp(argv[1], "edgeopen")) {
		long page = sysconf(_SC_PAGESIZE);
		char *map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		char *end;

		n = num(argv[2]);
		if (map == MAP_FAILED || n < 1 || n >= page || munmap(map + page, page))
			return 1;
		end = map + page;
		/* Each string's NUL is the page's last byte, then none at all. */
		for (i = 1; i <= n + 1; i++) {
			long len = i <= n ? i : n;
			char *s = end - len - (i <= n);

			memset(s, 'a' + (int)(i % 26), len);
			if (i <= n)
				end[-1] = '\0';
			open(s, O_RDONLY);
		}
	} else if (!strcmp(argv[1], "spin")) {
		time_t end = time(NULL) + num(argv[2]);

		n = 0;
		while (time(NULL) < end)
			for (i = 0; i < 1000; i++, n++)
				syscall(SYS_getppid);
		printf("calls %ld\n", n);
	} else {
		goto usage;
	}
	if (timed) {
		n = num(argv[!strcmp(argv[1], "open") || !strcmp(argv[1], "read") ? 3 : 2]);
		printf("ns_per_call %.1f\n", n ? (double)(now_ns() - start) / n : 0.0);
	}
	return 0;
usage:
	fprintf(stderr, "usage: kpmod-work [fifo PRIO] [name NAME] [time] getpgid N [FIRST] | getppid N | open PATH N | read PATH N | seekread PATH OFF COUNT | edgeopen N | spin SECONDS | now | chrt PID PRIO\n");
	return 2;
}
