// SPDX-License-Identifier: GPL-2.0
/*
 * kpmod-utarget: a userspace program with known calls and USDT markers,
 * for the uprobe scenarios (static, built for each guest's arch).
 *
 *   kpmod-utarget run N       calls ut_add(i, 1000 + i, word, &rec) and
 *                             passes the markers for i = 1..N
 *   kpmod-utarget offsets     prints "NAME 0xFILEOFFSET" for ut_add,
 *                             ut_leaf and the semaphore tock_semaphore
 *                             (from /proc/self/maps), text_base (a text
 *                             vaddr less its file offset), and
 *                             ut_counter's address less the text's base
 *                             (what uprobe_events' @+OFFSET adds it to)
 *   kpmod-utarget fork N      forks; parent and child each make the N
 *                             passes of "run"; exits 0 if the child did
 *   kpmod-utarget sem         prints how many times the semaphore-guarded
 *                             marker's guard was open in one pass
 *
 * Markers (provider kpmod):
 *   kpmod:tick  (i, word, &rec)      no semaphore
 *   kpmod:tock  (i, rec.value)       guarded by kpmod_tock_semaphore
 *   kpmod:mem   (ut_counter, rec.small)  an argument in memory (RIP/PC-relative)
 * word is "w<i%7>" ("w0".."w6"); rec.value is i * 3, rec.small is i % 100,
 * rec.tag "tag<i>", rec.names { word, rec.tag, "w<(i+1)%7>" }.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>
#include <sys/wait.h>
#include <unistd.h>

struct ut_rec {
	long value;
	int small;
	char tag[24];
	const char *names[3];	/* at +40: word, tag, the next word */
};

/* utarget_sem.c: the marker with a semaphore. */
extern unsigned short kpmod_tock_semaphore;
void ut_tock(long i, long value);
/* Initialised: in .data, mapped from the file. */
volatile long ut_counter = 1;

__attribute__((noinline)) long ut_leaf(long x)
{
	__asm__ volatile("" : : : "memory");
	return x * 2 + 1;
}

__attribute__((noinline)) long ut_add(long a, long b, const char *s, struct ut_rec *r)
{
	__asm__ volatile("" : : : "memory");
	return ut_leaf(a) + b + (long)strlen(s) + r->small;
}

static void pass(long i, unsigned long *guarded)
{
	static const char *const words[] = { "w0", "w1", "w2", "w3", "w4", "w5", "w6" };
	const char *word = words[i % 7];
	struct ut_rec rec;
	long sum;

	memset(&rec, 0, sizeof(rec));
	rec.value = i * 3;
	rec.small = i % 100;
	snprintf(rec.tag, sizeof(rec.tag), "tag%ld", i);
	rec.names[0] = word;
	rec.names[1] = rec.tag;
	rec.names[2] = words[(i + 1) % 7];
	ut_counter = i;
	sum = ut_add(i, 1000 + i, word, &rec);
	DTRACE_PROBE3(kpmod, tick, i, word, &rec);
	if (kpmod_tock_semaphore) {
		(*guarded)++;
		ut_tock(i, rec.value);
	}
	DTRACE_PROBE2(kpmod, mem, ut_counter, rec.small);
	if (sum < 0)
		abort();
}

/* The file offset of @addr, from the mapping that holds it. */
static unsigned long file_offset(const void *addr)
{
	unsigned long a = (unsigned long)addr, lo, hi, off;
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		exit(1);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %*s %lx", &lo, &hi, &off) == 3 && a >= lo && a < hi) {
			fclose(f);
			return a - lo + off;
		}
	}
	exit(1);
}

int main(int argc, char **argv)
{
	unsigned long guarded = 0;
	long i, n;

	if (argc == 3 && !strcmp(argv[1], "run")) {
		n = strtol(argv[2], NULL, 0);
		for (i = 1; i <= n; i++)
			pass(i, &guarded);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "offsets")) {
		printf("ut_add 0x%lx\n", file_offset((const void *)ut_add));
		printf("ut_leaf 0x%lx\n", file_offset((const void *)ut_leaf));
		/* Where a note's Location (a vaddr) is in the file: less this. */
		printf("text_base 0x%lx\n",
		       (unsigned long)ut_add - file_offset((const void *)ut_add));
		printf("tock_semaphore 0x%lx\n", file_offset(&kpmod_tock_semaphore));
		/* As uprobe_events' @+OFFSET reaches it: from the text's base. */
		printf("ut_counter 0x%lx\n", (unsigned long)&ut_counter -
		       ((unsigned long)ut_add - file_offset((const void *)ut_add)));
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "fork")) {
		pid_t child;
		int status;

		n = strtol(argv[2], NULL, 0);
		child = fork();
		if (child < 0)
			return 1;
		for (i = 1; i <= n; i++)
			pass(i, &guarded);
		if (!child)
			return 0;
		if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status))
			return 1;
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "sem")) {
		pass(1, &guarded);
		printf("%lu\n", guarded);
		return 0;
	}
	fprintf(stderr, "usage: kpmod-utarget run N | fork N | offsets | sem\n");
	return 2;
}
