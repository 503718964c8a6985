// SPDX-License-Identifier: GPL-2.0
/*
 * bench/mkrec FILE MIB [NCPU]: writes a record file of about MIB MiB, as
 * `kpmod record` would: NCPU CPUs (default 4), chunks of 32 KiB written
 * round robin, each overlapping the others in time (so `kpmod report`
 * must merge across chunks).  Prints the number of events.  For
 * bench/report-memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recfile.h"

#define PER_CHUNK 512	/* 64-byte records: 32 KiB */

int main(int argc, char **argv)
{
	struct kp_recinfo info = { .uapi_version = KPMOD_UAPI_VERSION,
				   .buf_mode = KPMOD_BUF_DISCARD, .buf_size = 1 << 20,
				   .arch = "x86_64", .release = "bench",
				   .module_version = "bench" };
	struct kp_probe_desc p = { .id = 1, .kind = KPMOD_PROBE_ENTRY,
				   .group = "kprobes", .event = "e", .symbol = "f",
				   .addr = 0xffffffff81000000ULL };
	static struct kpmod_record recs[PER_CHUNK];
	unsigned long long nchunks, k, nwritten = 0;
	unsigned int ncpu, c, j;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: mkrec FILE MIB [NCPU]\n");
		return 2;
	}
	ncpu = argc > 3 ? (unsigned int)atoi(argv[3]) : 4;
	if (!ncpu)
		ncpu = 1;
	info.nr_cpus = ncpu;
	nchunks = strtoull(argv[2], NULL, 10) * 32 / ncpu;	/* 32 chunks per MiB */
	f = fopen(argv[1], "wb");
	if (!f || kp_recfile_write_header(f, &info, &p, 1, NULL, 0)) {
		perror(argv[1]);
		return 1;
	}
	for (c = 0; c < ncpu; c++, nwritten++)
		kp_recfile_write_chunk(f, c, 0, 0, 0, NULL, 0);
	for (k = 0; k < nchunks; k++) {
		for (c = 0; c < ncpu; c++, nwritten++) {
			for (j = 0; j < PER_CHUNK; j++) {
				struct kpmod_record *r = &recs[j];

				r->len = sizeof(*r);
				r->type = KPMOD_REC_EVENT;
				r->probe_id = 1;
				r->cpu = c;
				r->pid = r->tgid = 100 + c;
				r->ts_ns = (k * PER_CHUNK + j) * ncpu + c;
				r->ip = p.addr;
				memcpy(r->comm, "w", 2);
			}
			if (kp_recfile_write_chunk(f, c, 0, 0, 0, recs, sizeof(recs))) {
				perror(argv[1]);
				return 1;
			}
		}
	}
	if (kp_recfile_write_end(f, nwritten) || fclose(f)) {
		perror(argv[1]);
		return 1;
	}
	printf("%llu\n", nchunks * ncpu * PER_CHUNK);
	return 0;
}
