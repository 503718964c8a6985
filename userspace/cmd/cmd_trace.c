// SPDX-License-Identifier: GPL-2.0
/*
 * kpmod trace | record | snapshot: the live readers.
 *
 * trace copies records out of every CPU's ring and prints them merged in
 * timestamp order.  A record younger than KP_SETTLE_NS is held back one
 * round: another CPU may still be publishing an older one.  record writes
 * each CPU's records as they come, unmerged (report merges them).
 * snapshot reads overwrite-mode rings once, after the fact.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "emit.h"
#include "exitcode.h"
#include "live.h"
#include "merge.h"
#include "oneshot.h"
#include "recsyms.h"

#define KP_SETTLE_NS	50000000ULL	/* 50 ms */
#define KP_POLL_MS	100

struct kp_opts {
	const char *out;
	bool json;
	double duration;	/* seconds, 0: none */
	uint64_t count;		/* events, 0: no limit */
	bool live_rings;	/* snapshot --live: the rings, not a trigger's snapshot */
	struct kp_oneshot_args run;	/* DEF|EVENT|GLOB ... [-- COMMAND] */
	uint64_t run_start;		/* kp_now_ns() when the run began */
};

enum kp_opt_flags {
	KP_OPT_NEED_OUT = 1 << 0,	/* -o FILE is required */
	KP_OPT_LIVE = 1 << 1,		/* reads as events come: --duration, --count */
	KP_OPT_RUN = 1 << 2,		/* takes a one-shot run's DEF|EVENT ... [-- CMD] */
};

/* A whole positive number of events: "-1" and "1e3" are refused. */
static bool kp_parse_count(const char *s, uint64_t *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return !*end && !errno && *out;
}

/* Seconds, finite and above zero: "nan", "inf" and "-1" are refused. */
static bool kp_parse_seconds(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return end != s && !*end && !errno && isfinite(*out) && *out > 0 && *out < 1e9;
}

static int kp_parse_opts(const char *cmd, int argc, char **argv, struct kp_opts *o,
			 unsigned int flags)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "duration", required_argument, NULL, 'd' },
		{ "count", required_argument, NULL, 'c' },
		{ "live", no_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 },
	};
	bool live = flags & KP_OPT_LIVE;
	int c, nopts = argc;

	memset(o, 0, sizeof(*o));
	/* Options go anywhere before "--"; what follows it is the command's. */
	if (flags & KP_OPT_RUN)
		for (nopts = 1; nopts < argc && strcmp(argv[nopts], "--"); nopts++)
			;
	optind = 1;
	while ((c = getopt_long(nopts, argv, ":jo:d:c:l", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			o->json = true;
			break;
		case 'o':
			o->out = optarg;
			break;
		case 'd':
			if (!live || !kp_parse_seconds(optarg, &o->duration)) {
				kp_msg(cmd, "bad --duration '%s' (seconds, above 0)\n", optarg);
				return KP_EXIT_USAGE;
			}
			break;
		case 'c':
			if (!live || !kp_parse_count(optarg, &o->count)) {
				kp_msg(cmd, "bad --count '%s' (a number of events, above 0)\n",
				       optarg);
				return KP_EXIT_USAGE;
			}
			break;
		case 'l':
			if (strcmp(cmd, "snapshot")) {
				kp_msg(cmd, "--live is snapshot's only\n");
				return KP_EXIT_USAGE;
			}
			o->live_rings = true;
			break;
		default:
			return kp_opt_error(cmd, c, argv);
		}
	}
	if (flags & KP_OPT_RUN) {
		/* getopt put the DEFs and EVENTs after the options, before "--". */
		o->run.specs = &argv[optind];
		o->run.nspecs = nopts - optind;
		if (nopts < argc && nopts + 1 == argc) {
			kp_msg(cmd, "'--' is followed by no command\n");
			return KP_EXIT_USAGE;
		}
		o->run.command = nopts + 1 < argc ? &argv[nopts + 1] : NULL;
	} else if (optind < argc) {
		kp_msg(cmd, "unexpected argument '%s'\n", argv[optind]);
		return KP_EXIT_USAGE;
	}
	if ((flags & KP_OPT_NEED_OUT) && !o->out) {
		kp_msg(cmd, "-o FILE is required\n");
		return KP_EXIT_USAGE;
	}
	return 0;
}

/*
 * A one-shot run when the command line names events or a command: what
 * it adds and enables is undone by kp_run_end(), whatever ends it.
 */
static int kp_run_begin(const char *cmd, struct kp_opts *o, struct kp_oneshot *os)
{
	unsigned int flags = KP_ONESHOT_ENABLE | (o->run.command ? KP_ONESHOT_COMMAND : 0);

	memset(os, 0, sizeof(*os));
	if (!o->run.nspecs && !o->run.command)
		return 0;
	o->run_start = kp_now_ns();
	if (o->run.command && !o->run.nspecs)
		kp_msg(cmd, "no event named: the enabled events are read for every process\n");
	return kp_oneshot_begin(os, cmd, &o->run, flags);
}

/*
 * After the rings are open: a run reads its own events only, not what the
 * rings held before it; warns when nothing is enabled; starts the command.
 */
static int kp_run_start(struct kp_live *lv, const struct kp_opts *o, struct kp_oneshot *os)
{
	if (o->run_start)
		kp_live_discard_before(lv, o->run_start);
	kp_oneshot_warn_idle(lv->cmd, lv->nenabled);
	return o->run.command ? kp_oneshot_spawn(os, o->run.command) : 0;
}

/* The run's exit code: the reader's, or else the undoing's. */
static int kp_run_end(struct kp_oneshot *os, int ret)
{
	int undo = kp_oneshot_end(os);

	return ret ? ret : undo;
}

static FILE *kp_open_out(const char *cmd, const char *path, const char *mode)
{
	FILE *f;

	if (!path || !strcmp(path, "-"))
		return stdout;
	f = fopen(path, mode);
	if (!f)
		kp_msg(cmd, "%s: %s\n", path, strerror(errno));
	return f;
}

static void kp_wait(struct kp_live *lv)
{
	struct pollfd pfd[lv->nrings ? lv->nrings : 1];
	unsigned int i;

	for (i = 0; i < lv->nrings; i++) {
		pfd[i].fd = lv->rings[i].fd;
		pfd[i].events = POLLIN;
	}
	poll(pfd, lv->nrings, KP_POLL_MS);
}

/* Copies every available record of ring @i into @q; 0 or an exit code. */
static int kp_drain_to_queue(struct kp_live *lv, unsigned int i, struct kp_recq *q)
{
	struct kp_ring *r = &lv->rings[i];
	const struct kpmod_record *rec;
	int ret;

	while ((ret = kp_ring_peek(r, &rec)) != 0) {
		uint64_t lost = kp_ring_lost(r), delta = lost - lv->lost_seen[i];

		if (ret < 0) {
			kp_msg(lv->cmd, "cpu%u: %s\n", r->cpu, r->err);
			continue;
		}
		if (kp_recq_push_copy(q, rec, delta)) {
			kp_msg(lv->cmd, "out of memory\n");
			return KP_EXIT_ERROR;
		}
		/* The copy's addresses, named before it prints. */
		kp_live_note(lv, q->recs[q->n - 1]);
		lv->lost_seen[i] = lost;
		kp_ring_skip(r);
	}
	/* Copied out: give the space back in one store. */
	kp_ring_release(r);
	return 0;
}

/* Prints merged records up to @cut; returns true when --count is reached. */
static bool kp_flush(struct kp_merge *m, struct kp_recq *q, struct kp_live *lv,
		     struct kp_emit *em, uint64_t cut, uint64_t limit)
{
	const struct kpmod_record *rec;
	size_t src;
	unsigned int i;

	while (kp_merge_peek(m, &rec, &src) > 0 && rec->ts_ns <= cut) {
		if (limit && em->events >= limit)
			return true;
		kp_emit_record(em, rec, lv->rings[src].cpu, kp_recq_lost_before(&q[src]));
		kp_merge_next(m);
	}
	for (i = 0; i < lv->nrings; i++)
		kp_recq_compact(&q[i]);
	return limit && em->events >= limit;
}

static int kp_trace_loop(struct kp_live *lv, const struct kp_opts *o, FILE *out)
{
	struct kp_recq *q = calloc(lv->nrings ? lv->nrings : 1, sizeof(*q));
	struct kp_merge_src *src = calloc(lv->nrings ? lv->nrings : 1, sizeof(*src));
	struct kp_emit em = { .out = out, .json = o->json, .probes = lv->probes,
			      .nprobes = lv->nprobes };
	uint64_t deadline = o->duration ? kp_now_ns() + o->duration * 1e9 : 0;
	struct kp_merge m;
	unsigned int i;
	int ret = 0;
	bool done = false;

	if (!q || !src) {
		kp_msg(lv->cmd, "out of memory\n");
		return KP_EXIT_ERROR;
	}
	for (i = 0; i < lv->nrings; i++)
		src[i] = (struct kp_merge_src){ kp_recq_peek, kp_recq_next, &q[i], lv->rings[i].cpu };
	kp_merge_init(&m, src, lv->nrings);
	while (!done && !ret) {
		bool last = kp_stop || (deadline && kp_now_ns() >= deadline);

		for (i = 0; i < lv->nrings && !ret; i++)
			ret = kp_drain_to_queue(lv, i, &q[i]);
		em.ks = kp_live_ksyms(lv);
		done = kp_flush(&m, q, lv, &em, last ? UINT64_MAX : kp_now_ns() - KP_SETTLE_NS,
				o->count);
		if (fflush(out) || ferror(out)) {
			/* A closed pipe ends a reader quietly; a full disk is an error. */
			if (errno != EPIPE) {
				kp_msg(lv->cmd, "write error: %s\n", strerror(errno));
				ret = KP_EXIT_ERROR;
			} else {
				clearerr(out);	/* said: kp_main() must not say it again */
			}
			break;
		}
		if (last)
			break;
		if (!done)
			kp_wait(lv);
	}
	/* What was read but not printed (--count reached) goes with the queues. */
	kp_merge_free(&m);
	for (i = 0; i < lv->nrings; i++)
		kp_recq_free(&q[i]);
	free(q);
	free(src);
	kp_live_summary(lv, em.events);
	return ret;
}

int kp_cmd_trace(int argc, char **argv)
{
	struct kp_oneshot os;
	struct kp_live lv;
	struct kp_opts o;
	FILE *out;
	int ret;

	ret = kp_parse_opts("trace", argc, argv, &o, KP_OPT_LIVE | KP_OPT_RUN);
	if (ret)
		return ret;
	/*
	 * Catch SIGINT before attaching: a script that starts a reader with
	 * '&' (SIGINT ignored until we catch it) and stops it once the rings
	 * are open must not have its signal lost meanwhile.
	 */
	kp_catch_signals();
	ret = kp_run_begin("trace", &o, &os);
	if (ret)
		return ret;
	/* The module first: without the right, that is what to say. */
	ret = kp_live_open(&lv, "trace", true);
	if (ret)
		goto end_run;
	out = kp_open_out("trace", o.out, "we");
	if (!out) {
		ret = KP_EXIT_ERROR;
		goto close_live;
	}
	ret = kp_run_start(&lv, &o, &os);
	if (!ret)
		ret = kp_trace_loop(&lv, &o, out);
	if (out != stdout && fclose(out) && !ret) {
		kp_msg("trace", "%s: %s\n", o.out, strerror(errno));
		ret = KP_EXIT_ERROR;
	}
close_live:
	kp_live_close(&lv);
end_run:
	return kp_run_end(&os, ret);
}

struct kp_rec_state {
	uint8_t *buf;
	size_t cap;
	struct kp_recsyms syms;		/* the symbols its records need */
	uint64_t events, bytes, chunks;
	bool got_data;		/* this round read something: no need to sleep */
};

static int kp_record_chunk(FILE *f, unsigned int cpu, struct kp_ring_counts c,
			   const void *recs, size_t len)
{
	return kp_recfile_write_chunk(f, cpu, c.lost, c.overwritten, c.nested, recs, len);
}

/* Writes ring @i's available records as one chunk. */
static int kp_record_ring(struct kp_live *lv, unsigned int i, FILE *f,
			  struct kp_rec_state *st, uint64_t limit)
{
	struct kp_ring *r = &lv->rings[i];
	const struct kpmod_record *rec;
	size_t len = 0;
	int ret;

	while ((!limit || st->events < limit) && (ret = kp_ring_peek(r, &rec)) != 0) {
		if (ret < 0) {
			kp_msg("record", "cpu%u: %s\n", r->cpu, r->err);
			continue;
		}
		if (len + rec->len > st->cap) {
			size_t cap = st->cap ? st->cap * 2 : 1 << 20;
			uint8_t *b = realloc(st->buf, cap);

			if (!b)
				return -ENOMEM;
			st->buf = b;
			st->cap = cap;
			continue;
		}
		memcpy(st->buf + len, rec, rec->len);
		kp_recsyms_add(&st->syms, (const struct kpmod_record *)(st->buf + len));
		len += rec->len;
		st->events += rec->type == KPMOD_REC_EVENT;	/* a stack follows its event */
		kp_ring_skip(r);
		/* Bound a chunk so a busy CPU cannot starve the others. */
		if (len >= (4 << 20))
			break;
	}
	/* The records are copied: give their space back in one store. */
	kp_ring_release(r);
	if (!len)
		return 0;
	st->got_data = true;
	st->chunks++;
	st->bytes += len;
	/* The symbols first: a file cut after them still names the chunk's. */
	ret = kp_recsyms_flush(&st->syms, &lv->nl, f);
	if (ret)
		return ret;
	return kp_record_chunk(f, r->cpu, kp_ring_counts(r), st->buf, len);
}

/*
 * Every ring's counters as a chunk without records: first, the baseline
 * (the counters when the ring was attached), so that report counts only
 * what was lost while recording; last, so that it sees what was lost
 * after a CPU's last record.
 */
static int kp_record_counters(struct kp_live *lv, FILE *f, struct kp_rec_state *st,
			      bool baseline)
{
	unsigned int i;

	for (i = 0; i < lv->nrings; i++) {
		struct kp_ring *r = &lv->rings[i];

		if (kp_record_chunk(f, r->cpu, baseline ? lv->at_attach[i] : kp_ring_counts(r),
				    NULL, 0))
			return -EIO;
		st->chunks++;
	}
	return 0;
}

int kp_cmd_record(int argc, char **argv)
{
	struct kp_rec_state st = { 0 };
	struct kp_oneshot os;
	struct kp_recinfo info;
	uint64_t deadline, last_progress = 0;
	struct kp_live lv;
	struct kp_opts o;
	bool tty = isatty(2);
	unsigned int i;
	FILE *f;
	int ret;

	ret = kp_parse_opts("record", argc, argv, &o,
			    KP_OPT_NEED_OUT | KP_OPT_LIVE | KP_OPT_RUN);
	if (ret)
		return ret;
	if (o.json) {
		kp_msg("record", "writes binary records; use kpmod report --json\n");
		return KP_EXIT_USAGE;
	}
	kp_catch_signals();	/* before attaching, as trace does */
	ret = kp_run_begin("record", &o, &os);
	if (ret)
		return ret;
	/* The module first: without the right, that is what to say. */
	ret = kp_live_open(&lv, "record", false);
	if (ret)
		return kp_run_end(&os, ret);
	f = kp_open_out("record", o.out, "wbe");
	if (!f) {
		kp_live_close(&lv);
		return kp_run_end(&os, KP_EXIT_ERROR);
	}
	kp_live_info(&lv, &info);
	/* The records' symbols go in as they come; report reads them anywhere. */
	kp_recsyms_init(&st.syms, "record", lv.probes, lv.nprobes);
	info.syms = st.syms.on;
	if (kp_recfile_write_header(f, &info, lv.probes, lv.nprobes, NULL, 0) ||
	    kp_record_counters(&lv, f, &st, true)) {
		kp_msg("record", "%s: write failed\n", o.out);
		ret = KP_EXIT_ERROR;
		goto out;
	}
	ret = kp_run_start(&lv, &o, &os);
	if (ret)
		goto out;
	deadline = o.duration ? kp_now_ns() + o.duration * 1e9 : 0;
	for (;;) {
		bool last = kp_stop || (deadline && kp_now_ns() >= deadline);

		st.got_data = false;
		for (i = 0; i < lv.nrings && !ret; i++)
			if (kp_record_ring(&lv, i, f, &st, o.count))
				ret = KP_EXIT_ERROR;
		if (ret) {
			kp_msg("record", "%s: write failed\n", o.out);
			break;
		}
		if (tty && kp_now_ns() - last_progress > 500000000ULL) {
			uint64_t lost = 0;

			for (i = 0; i < lv.nrings; i++)
				lost += kp_ring_lost(&lv.rings[i]) - lv.at_attach[i].lost;
			fprintf(stderr, "\rrecording: %llu events, %llu bytes, %llu lost ",
				(unsigned long long)st.events, (unsigned long long)st.bytes,
				(unsigned long long)lost);
			last_progress = kp_now_ns();
		}
		if (last || (o.count && st.events >= o.count))
			break;
		if (!st.got_data)
			kp_wait(&lv);
	}
	if (tty)
		fputc('\n', stderr);
	if ((!ret && kp_record_counters(&lv, f, &st, false)) ||
	    kp_recfile_write_end(f, st.chunks) || fflush(f)) {
		kp_msg("record", "%s: write failed\n", o.out);
		ret = KP_EXIT_ERROR;
	}
	kp_live_summary(&lv, st.events);
out:
	kp_recsyms_free(&st.syms);
	free(st.buf);
	if (fclose(f) && !ret) {
		kp_msg("record", "%s: %s\n", o.out, strerror(errno));
		ret = KP_EXIT_ERROR;
	}
	kp_live_close(&lv);
	return kp_run_end(&os, ret);
}

int kp_cmd_snapshot(int argc, char **argv)
{
	struct kp_live lv;
	struct kp_opts o;
	FILE *out;
	int ret;

	ret = kp_parse_opts("snapshot", argc, argv, &o, 0);
	if (ret)
		return ret;
	if (!o.live_rings) {
		struct kp_status st;
		struct kp_nl nl;

		/* A snapshot trigger's snapshot if one was taken, else the rings. */
		ret = kp_session_open("snapshot", &nl, &st);
		if (ret)
			return ret;
		kp_nl_close(&nl);
		o.live_rings = !st.snapshots;
		if (st.snapshots)
			kp_msg("snapshot",
			       "the snapshot trigger's last snapshot (%llu taken; --live reads the rings)\n",
			       (unsigned long long)st.snapshots);
	}
	ret = kp_live_open_rings(&lv, "snapshot", true,
				 o.live_rings ? kp_ring_open : kp_ring_open_snapshot);
	if (ret)
		return ret;
	if (o.live_rings && lv.st.buf_mode != KPMOD_BUF_OVERWRITE)
		kp_msg("snapshot",
		       "the buffer is in discard mode: this reads and consumes what is there\n");
	out = kp_open_out("snapshot", o.out, "w");
	if (!out) {
		kp_live_close(&lv);
		return KP_EXIT_ERROR;
	}
	/* One round: everything there now, merged. */
	kp_stop = 1;
	ret = kp_trace_loop(&lv, &o, out);
	if (out != stdout)
		fclose(out);
	kp_live_close(&lv);
	return ret;
}
