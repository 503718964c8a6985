// SPDX-License-Identifier: GPL-2.0
/*
 * kpmod report [--json] FILE: prints a record file, on any machine, merged
 * in timestamp order.  Damage stops the reading with a clear error after
 * everything valid before it has been printed.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "emit.h"
#include "exitcode.h"
#include "merge.h"
#include "recfile.h"

/*
 * Every chunk of one CPU, in file order, as a merge source.  From a file
 * that can seek, the chunks hold no records until the merge reaches them
 * (kp_recfile_chunk_at), and let them go after: memory stays one chunk
 * per CPU whatever the recording's size.  From a pipe they are all kept.
 */
struct kp_cpu_chunks {
	struct kp_chunk *chunks;
	size_t n, cur;
	size_t pos;		/* in chunks[cur] */
	uint64_t lost_prev;	/* the lost counter of the previous chunk */
	uint64_t lost_pending;	/* lost before the next record */
	unsigned int cpu;
	struct kp_recfile *rf;	/* to read chunks again; NULL: all kept */
};

static int kp_cc_peek(void *ctx, const struct kpmod_record **rec)
{
	struct kp_cpu_chunks *c = ctx;

	while (c->cur < c->n) {
		struct kp_chunk *ch = &c->chunks[c->cur];
		size_t pos = c->pos;

		if (c->rf && ch->len && !ch->recs) {
			struct kp_chunk was = *ch;
			int ret = kp_recfile_chunk_at(c->rf, ch->file_off, ch);

			if (ret < 0)
				return ret;
			/* The file changed between the two readings. */
			if (ch->cpu != was.cpu || ch->len != was.len || ch->lost != was.lost) {
				snprintf(c->rf->err, sizeof(c->rf->err),
					 "%s: the chunk at byte %llu changed while read",
					 c->rf->name, (unsigned long long)was.file_off);
				free(ch->recs);
				*ch = was;
				return -EBADMSG;
			}
		}
		if (kp_chunk_record(ch, &pos, rec) > 0)
			return 1;
		if (c->rf) {
			free(ch->recs);
			ch->recs = NULL;
		}
		c->cur++;
		c->pos = 0;
		if (c->cur < c->n) {
			c->lost_pending += c->chunks[c->cur].lost - c->lost_prev;
			c->lost_prev = c->chunks[c->cur].lost;
		}
	}
	return 0;
}

static void kp_cc_next(void *ctx)
{
	struct kp_cpu_chunks *c = ctx;
	const struct kpmod_record *rec;

	if (c->cur < c->n)
		kp_chunk_record(&c->chunks[c->cur], &c->pos, &rec);
	c->lost_pending = 0;
}

int kp_cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	struct kp_cpu_chunks *cpus = NULL;
	struct kp_merge_src *src = NULL;
	struct kp_recfile rf;
	struct kp_ksyms ks = { 0 };
	struct kp_emit em = { .out = stdout };
	const struct kpmod_record *rec;
	struct kp_chunk ch;
	struct kp_merge m;
	char first_err[sizeof(rf.err)];
	size_t ncpu = 0, i, s;
	int c, ret = 0, rd;
	bool seekable;
	FILE *f;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":j", opts, NULL)) != -1) {
		if (c != 'j')
			return kp_opt_error("report", c, argv);
		em.json = true;
	}
	if (optind != argc - 1) {
		kp_msg("report", "name one record file\n");
		return KP_EXIT_USAGE;
	}
	f = fopen(argv[optind], "rb");
	if (!f) {
		kp_msg("report", "%s: %s\n", argv[optind], strerror(errno));
		return KP_EXIT_ERROR;
	}
	if (kp_recfile_open(&rf, f, argv[optind])) {
		kp_msg("report", "%s\n", rf.err);
		fclose(f);
		return KP_EXIT_ERROR;
	}
	/* Versions 1 and 2: kallsyms' text, before the first chunk. */
	if (rf.ksyms && !kp_ksyms_load_buf(&ks, rf.ksyms, rf.ksyms_len))
		em.ks = &ks;
	em.probes = rf.probes;
	em.nprobes = rf.nprobes;

	/*
	 * Group the chunks by CPU, then merge the CPUs by timestamp.  A file
	 * that can seek is read twice: once for where each chunk is, once
	 * in merge order.
	 */
	seekable = !fseeko(f, 0, SEEK_CUR);
	while ((rd = kp_recfile_next(&rf, &ch)) > 0) {
		struct kp_cpu_chunks *cc = NULL;

		if (seekable) {
			free(ch.recs);
			ch.recs = NULL;
		}
		for (i = 0; i < ncpu; i++)
			if (cpus[i].cpu == ch.cpu)
				cc = &cpus[i];
		if (!cc) {
			struct kp_cpu_chunks *g = realloc(cpus, (ncpu + 1) * sizeof(*cpus));

			if (!g)
				break;
			cpus = g;
			cc = &cpus[ncpu++];
			memset(cc, 0, sizeof(*cc));
			cc->cpu = ch.cpu;
		}
		{
			struct kp_chunk *g = realloc(cc->chunks, (cc->n + 1) * sizeof(*g));

			if (!g)
				break;
			cc->chunks = g;
			cc->chunks[cc->n++] = ch;
		}
	}
	/* Version 3: the SYMS blocks, met in the pass above, name the addresses. */
	if (rf.info.syms && !em.ks && !kp_ksyms_load_sized(&ks, rf.syms, rf.nsyms))
		em.ks = &ks;
	src = calloc(ncpu ? ncpu : 1, sizeof(*src));
	for (i = 0; i < ncpu && src; i++) {
		/*
		 * A first chunk without records is the recording's baseline:
		 * what was lost before is not this file's.  A file without one
		 * (an older recorder's) counts everything before its first chunk.
		 */
		cpus[i].lost_prev = cpus[i].n ? cpus[i].chunks[0].lost : 0;
		cpus[i].lost_pending = cpus[i].n && !cpus[i].chunks[0].len ? 0 :
				       cpus[i].lost_prev;
		cpus[i].rf = seekable ? &rf : NULL;
		src[i] = (struct kp_merge_src){ kp_cc_peek, kp_cc_next, &cpus[i], cpus[i].cpu };
	}
	/* The first pass's error is said after what came before it is printed. */
	if (rd < 0)
		snprintf(first_err, sizeof(first_err), "%s", rf.err);
	if (src && !kp_merge_init(&m, src, ncpu)) {
		int got;

		/* Stops at a write error: kp_main() reports it. */
		while ((got = kp_merge_peek(&m, &rec, &s)) > 0 && !ferror(stdout)) {
			kp_emit_record(&em, rec, cpus[s].cpu, cpus[s].lost_pending);
			kp_merge_next(&m);
		}
		kp_merge_free(&m);
		if (got < 0) {
			kp_msg("report", "%s\n", rf.err);
			ret = KP_EXIT_ERROR;
		}
		/* What was lost after a CPU's last record, as the last lines. */
		for (i = 0; i < ncpu && got >= 0; i++)
			kp_emit_lost(&em, cpus[i].cpu, cpus[i].lost_pending);
	}
	fflush(stdout);
	if (rd < 0) {
		kp_msg("report", "%s\n", first_err);
		ret = KP_EXIT_ERROR;
	}
	if (em.bad) {
		kp_msg("report", "%llu records did not match their probe's layout\n",
		       (unsigned long long)em.bad);
		ret = KP_EXIT_ERROR;
	}
	for (i = 0; i < ncpu; i++) {
		for (s = 0; s < cpus[i].n; s++)
			kp_chunk_free(&cpus[i].chunks[s]);
		free(cpus[i].chunks);
	}
	free(cpus);
	free(src);
	kp_ksyms_free(&ks);
	kp_recfile_close(&rf);
	fclose(f);
	return ret;
}
