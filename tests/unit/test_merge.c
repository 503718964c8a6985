// SPDX-License-Identifier: GPL-2.0
/* Merging per-CPU record streams into timestamp order. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"
#include "suites.h"

#define NCPU 4
#define PER_CPU 200

static int failing_peek(void *ctx, const struct kpmod_record **rec)
{
	(void)ctx;
	(void)rec;
	return -EBADMSG;
}

static void noop_next(void *ctx)
{
	(void)ctx;
}

START_TEST(merges_by_time_then_cpu)
{
	static struct kpmod_record recs[NCPU][PER_CPU];
	struct kp_merge_src src[NCPU];
	struct kp_recq q[NCPU];
	const struct kpmod_record *rec;
	struct kp_merge m;
	uint64_t last_ts = 0, ts;
	unsigned int last_cpu = 0, seen = 0, c, i;
	size_t from;

	memset(q, 0, sizeof(q));
	srandom(1);
	for (c = 0; c < NCPU; c++) {
		ts = 0;
		for (i = 0; i < PER_CPU; i++) {
			ts += random() % 5;	/* equal timestamps happen */
			recs[c][i].ts_ns = ts;
			recs[c][i].cpu = c;
			recs[c][i].probe_id = i;
			ck_assert_int_eq(kp_recq_push(&q[c], &recs[c][i], i == 5 ? 9 : 0), 0);
		}
		/* Sources listed in reverse CPU order: ties still go by CPU. */
		src[NCPU - 1 - c] = (struct kp_merge_src){ kp_recq_peek, kp_recq_next,
							   &q[c], c };
	}
	ck_assert_int_eq(kp_merge_init(&m, src, NCPU), 0);
	while (kp_merge_peek(&m, &rec, &from) > 0) {
		ck_assert_ptr_eq(src[from].ctx, &q[rec->cpu]);
		ck_assert(rec->ts_ns > last_ts ||
			  (rec->ts_ns == last_ts && rec->cpu >= last_cpu));
		if (rec->probe_id == 5)
			ck_assert_uint_eq(kp_recq_lost_before(&q[rec->cpu]), 9);
		/* Per CPU, the stream's own order is kept. */
		ck_assert_ptr_eq(rec, q[rec->cpu].recs[q[rec->cpu].pos]);
		last_ts = rec->ts_ns;
		last_cpu = rec->cpu;
		seen++;
		kp_merge_next(&m);
	}
	ck_assert_uint_eq(seen, NCPU * PER_CPU);
	kp_merge_free(&m);
	for (c = 0; c < NCPU; c++)
		kp_recq_free(&q[c]);
}
END_TEST

START_TEST(idle_sources_are_polled_again_and_errors_reported)
{
	struct kpmod_record a = { .ts_ns = 10, .cpu = 0 }, b = { .ts_ns = 5, .cpu = 1 };
	struct kp_recq qa = { 0 }, qb = { 0 };
	struct kp_merge_src src[3] = {
		{ kp_recq_peek, kp_recq_next, &qa, 0 },
		{ kp_recq_peek, kp_recq_next, &qb, 1 },
	};
	const struct kpmod_record *rec;
	struct kp_merge m;
	size_t from;

	ck_assert_int_eq(kp_merge_init(&m, src, 2), 0);
	ck_assert_int_eq(kp_merge_peek(&m, &rec, &from), 0);
	kp_recq_push(&qa, &a, 0);
	ck_assert_int_eq(kp_merge_peek(&m, &rec, &from), 1);
	ck_assert_ptr_eq(rec, &a);
	kp_recq_push(&qb, &b, 0);	/* arrives late, older */
	ck_assert_int_eq(kp_merge_peek(&m, &rec, &from), 1);
	ck_assert_ptr_eq(rec, &b);
	ck_assert_uint_eq(from, 1);
	kp_merge_next(&m);
	ck_assert_int_eq(kp_merge_peek(&m, &rec, &from), 1);
	ck_assert_ptr_eq(rec, &a);
	kp_merge_next(&m);
	ck_assert_int_eq(kp_merge_peek(&m, &rec, &from), 0);
	kp_merge_free(&m);

	src[2] = (struct kp_merge_src){ failing_peek, noop_next, NULL, 2 };
	ck_assert_int_eq(kp_merge_init(&m, src, 3), 0);
	ck_assert_int_eq(kp_merge_peek(&m, &rec, &from), -EBADMSG);
	ck_assert_uint_eq(from, 2);
	kp_merge_free(&m);
	kp_recq_free(&qa);
	kp_recq_free(&qb);
}
END_TEST

KP_SUITE(merge_suite)
/*
 * Copies kept in the queue's own blocks: records of every size, past many
 * blocks (and one larger than a block), consumed while others are pushed,
 * come back whole and in order; a block is reused or freed once consumed
 * (LeakSanitizer checks the rest goes with kp_recq_free).
 */
START_TEST(copies_survive_blocks_and_interleaving)
{
	static uint64_t buf[(600 << 10) / 8];
	struct kpmod_record *src = (struct kpmod_record *)buf;
	const struct kpmod_record *rec;
	struct kp_recq q = { 0 };
	uint32_t pushed = 0, taken = 0, round;

	for (round = 0; round < 40; round++) {
		uint32_t i, n = 50 + round * 7;

		for (i = 0; i < n; i++, pushed++) {
			uint32_t len = pushed == 1000 ? (512 << 10) :
				       sizeof(*src) + 8 * (pushed % 97);

			memset(src, 0, len);
			src->len = len;
			src->type = KPMOD_REC_EVENT;
			src->ts_ns = pushed;
			memset((uint8_t *)(src + 1), (int)(pushed & 0xff), len - sizeof(*src));
			ck_assert_int_eq(kp_recq_push_copy(&q, src, pushed), 0);
		}
		/* Consume a little less than was pushed: the queue keeps some. */
		while (taken + 20 < pushed && kp_recq_peek(&q, &rec) > 0) {
			const uint8_t *body = (const uint8_t *)(rec + 1);
			uint32_t j;

			ck_assert_uint_eq(rec->ts_ns, taken);
			ck_assert_uint_eq(kp_recq_lost_before(&q), taken);
			for (j = 0; j < rec->len - sizeof(*rec); j += 61)
				ck_assert_uint_eq(body[j], taken & 0xff);
			kp_recq_next(&q);
			taken++;
		}
		kp_recq_compact(&q);
	}
	ck_assert_uint_gt(pushed, 1000);
	kp_recq_free(&q);

	/* Drained to empty, then a record larger than a block: still freed. */
	for (round = 0; round < 3; round++) {
		uint32_t len = round == 1 ? (300 << 10) : sizeof(*src);

		memset(src, 0, len);
		src->len = len;
		src->type = KPMOD_REC_EVENT;
		ck_assert_int_eq(kp_recq_push_copy(&q, src, 0), 0);
		ck_assert_int_eq(kp_recq_peek(&q, &rec), 1);
		ck_assert_uint_eq(rec->len, len);
		kp_recq_next(&q);
		ck_assert_ptr_eq(q.head, q.tail);
	}
	kp_recq_free(&q);
}
END_TEST

static Suite *merge_suite(void)
{
	Suite *s = suite_create("merge");
	TCase *tc = tcase_create("merge");

	tcase_add_test(tc, merges_by_time_then_cpu);
	tcase_add_test(tc, copies_survive_blocks_and_interleaving);
	tcase_add_test(tc, idle_sources_are_polled_again_and_errors_reported);
	suite_add_tcase(s, tc);
	return s;
}
