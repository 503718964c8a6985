// SPDX-License-Identifier: GPL-2.0
/*
 * The ring reader against a userspace producer that writes the kernel's
 * layout (uapi/kpmod.h "Rings") into malloc'd memory, alone and from a
 * thread racing the reader.  Every record carries a sequence number and a
 * checksum: each number must arrive exactly once, intact, or be counted lost.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ring.h"
#include "suites.h"

/* ---- the test producer: the module's algorithm, with C11 atomics ---- */

struct tprod {
	struct kpmod_ring_meta *meta;
	struct kpmod_ring_consumer *cons;
	uint8_t *data;
	uint64_t size, head, oldest;
	uint32_t mode;
	uint64_t pads;
	uint64_t overwritten;	/* the producer's own count */
};

static void tp_init(struct tprod *p, uint64_t size, uint32_t mode)
{
	memset(p, 0, sizeof(*p));
	p->meta = aligned_alloc(4096, 4096);
	p->cons = aligned_alloc(4096, 4096);
	p->data = aligned_alloc(64, size);
	ck_assert(p->meta && p->cons && p->data);
	memset(p->meta, 0, 4096);
	memset(p->cons, 0, 4096);
	memset(p->data, 0xa5, size);
	p->size = size;
	p->mode = mode;
	p->meta->version = KPMOD_RING_VERSION;
	p->meta->cpu = 3;
	p->meta->mode = mode;
	p->meta->page_size = 4096;
	p->meta->data_size = size;
	p->meta->data_offset = 4096;
}

static void tp_free(struct tprod *p)
{
	free(p->meta);
	free(p->cons);
	free(p->data);
}

/* Only the producer writes a counter: a relaxed load + store is enough. */
static void tp_add(__u64 *ctr, uint64_t n)
{
	__atomic_store_n(ctr, __atomic_load_n(ctr, __ATOMIC_RELAXED) + n,
			 __ATOMIC_RELAXED);
}

/*
 * OVERWRITE data is read while it is rewritten, so it is stored as atomic
 * words; release ordering stands in for the kernel's smp_wmb() between the
 * store of data_oldest and the data.  DISCARD data is plain memory.
 */
static void tp_store(struct tprod *p, uint64_t pos, const void *src, uint32_t len)
{
	uint8_t *dst = p->data + (pos & (p->size - 1));
	const uint64_t *s = src;
	uint64_t *d = (uint64_t *)dst;
	uint32_t i;

	if (p->mode == KPMOD_BUF_DISCARD) {
		memcpy(dst, src, len);
		return;
	}
	for (i = 0; i < len / 8; i++)
		__atomic_store_n(&d[i], s[i], __ATOMIC_RELEASE);
}

static uint32_t tp_len_at(struct tprod *p, uint64_t pos, uint16_t *type)
{
	uint64_t w = __atomic_load_n((uint64_t *)(p->data + (pos & (p->size - 1))),
				     __ATOMIC_RELAXED);
	struct kpmod_record h;

	memcpy(&h, &w, 8);
	*type = h.type;
	return h.len;
}

static void tp_make_room(struct tprod *p, uint64_t need)
{
	uint64_t dropped = 0;
	uint16_t type;

	while (p->head + need - p->oldest > p->size) {
		uint32_t len = tp_len_at(p, p->oldest, &type);

		ck_assert(len >= 8 && len % 8 == 0);
		if (type == KPMOD_REC_EVENT)
			dropped++;
		p->oldest += len;
	}
	__atomic_store_n(&p->meta->data_oldest, p->oldest, __ATOMIC_RELEASE);
	p->overwritten += dropped;
	tp_add(&p->meta->overwritten, dropped);
}

static bool tp_write(struct tprod *p, const void *rec, uint32_t len)
{
	uint64_t mask = p->size - 1, pos = p->head & mask;
	uint64_t pad = pos + len > p->size ? p->size - pos : 0;
	uint64_t need = pad + len;

	if (p->mode == KPMOD_BUF_DISCARD) {
		uint64_t tail = __atomic_load_n(&p->cons->data_tail,
						__ATOMIC_ACQUIRE);

		if (tail > p->head || p->head - tail > p->size ||
		    p->size - (p->head - tail) < need) {
			tp_add(&p->meta->lost, 1);
			return false;
		}
	} else {
		tp_make_room(p, need);
	}
	if (pad) {
		struct kpmod_record h = { .len = pad, .type = KPMOD_REC_PAD };

		tp_store(p, p->head, &h, 8);
		p->head += pad;
		p->pads++;
	}
	tp_store(p, p->head, rec, len);
	p->head += len;
	tp_add(&p->meta->events, 1);
	__atomic_store_n(&p->meta->data_head, p->head, __ATOMIC_RELEASE);
	return true;
}

/* ---- records whose every word depends on their sequence number ---- */

#define REC_MAX (sizeof(struct kpmod_record) + 16 + 22 * 8 * 16)

/*
 * Payload words per record: (seq % 23) * rec_scale.  Big records keep the
 * producer writing for longer, so the reader's copy overlaps the writing.
 */
static unsigned int rec_scale = 1;

/*
 * Fills @buf (REC_MAX bytes) with record @seq; returns its length.  Cheap,
 * so the producer thread laps the ring while the reader copies it.
 */
static uint32_t make_rec(uint64_t *buf, uint64_t seq)
{
	struct kpmod_record *r = (void *)buf;
	uint32_t len = sizeof(*r) + 16 + (seq % 23) * 8 * rec_scale, i;
	uint64_t *pl = (uint64_t *)(r + 1);

	memset(r, 0, sizeof(*r));
	r->len = len;
	r->type = KPMOD_REC_EVENT;
	r->probe_id = (uint32_t)seq;
	r->cpu = 3;
	r->pid = (uint32_t)(seq * 3);
	r->tgid = (uint32_t)(seq * 5);
	r->ts_ns = seq;
	r->ip = ~seq;
	r->ret_ip = seq * 0x9e3779b97f4a7c15ULL;
	pl[0] = seq;
	pl[1] = ~seq ^ len;
	for (i = 2; i < (len - sizeof(*r)) / 8; i++)
		pl[i] = seq * 0x9e3779b97f4a7c15ULL + i;
	return len;
}

/* Returns the record's sequence number; fails the test if it is damaged. */
static uint64_t check_rec(const struct kpmod_record *r)
{
	uint64_t buf[REC_MAX / 8], seq;

	ck_assert_uint_eq(r->type, KPMOD_REC_EVENT);
	memcpy(&seq, r + 1, 8);
	ck_assert_uint_eq(make_rec(buf, seq), r->len);
	ck_assert_msg(!memcmp(buf, r, r->len), "record %llu is torn",
		      (unsigned long long)seq);
	return seq;
}

static bool put(struct tprod *p, uint64_t seq)
{
	uint64_t buf[REC_MAX / 8];

	return tp_write(p, buf, make_rec(buf, seq));
}

/* ---- single-threaded behaviour ---- */

START_TEST(init_validates_meta)
{
	struct tprod p;
	struct kp_ring r;

	tp_init(&p, 4096, KPMOD_BUF_DISCARD);
	p.meta->version = 99;
	ck_assert_int_eq(kp_ring_init(&r, p.meta, p.cons, p.data), -EINVAL);
	ck_assert_ptr_nonnull(strstr(r.err, "version 99"));
	p.meta->version = KPMOD_RING_VERSION;
	p.meta->data_size = 3000;
	ck_assert_int_eq(kp_ring_init(&r, p.meta, p.cons, p.data), -EINVAL);
	p.meta->data_size = 4096;
	p.meta->mode = 7;
	ck_assert_int_eq(kp_ring_init(&r, p.meta, p.cons, p.data), -EINVAL);
	p.meta->mode = KPMOD_BUF_DISCARD;
	ck_assert_int_eq(kp_ring_init(&r, p.meta, p.cons, p.data), 0);
	ck_assert_uint_eq(r.cpu, 3);
	kp_ring_close(&r);
	tp_free(&p);
}
END_TEST

START_TEST(discard_reads_in_order_and_frees_space)
{
	const struct kpmod_record *rec;
	struct tprod p;
	struct kp_ring r;
	uint64_t seq = 0, next = 0;
	int i;

	tp_init(&p, 1024, KPMOD_BUF_DISCARD);
	ck_assert_int_eq(kp_ring_init(&r, p.meta, p.cons, p.data), 0);
	ck_assert_int_eq(kp_ring_peek(&r, &rec), 0);
	/* Many laps of a small ring: records of every size, pads at the end. */
	for (i = 0; i < 2000; i++) {
		while (put(&p, seq))
			seq++;
		while (kp_ring_peek(&r, &rec) > 0) {
			ck_assert_uint_eq(check_rec(rec), next);
			next++;
			kp_ring_next(&r);
		}
		ck_assert_uint_eq(p.cons->data_tail, p.head);
	}
	ck_assert_uint_eq(next, seq);
	ck_assert_uint_gt(p.pads, 10);
	ck_assert_uint_eq(kp_ring_lost(&r), 2000);	/* one failed put per lap */
	ck_assert_uint_eq(kp_ring_events(&r), seq);
	ck_assert_uint_eq(r.corrupt, 0);
	kp_ring_close(&r);
	tp_free(&p);
}
END_TEST

START_TEST(discard_full_ring_counts_exactly)
{
	const struct kpmod_record *rec;
	struct tprod p;
	struct kp_ring r;
	uint64_t seq, kept = 0, next = 0;

	tp_init(&p, 4096, KPMOD_BUF_DISCARD);
	ck_assert_int_eq(kp_ring_init(&r, p.meta, p.cons, p.data), 0);
	for (seq = 0; seq < 500; seq++)
		kept += put(&p, seq);
	ck_assert_uint_gt(kept, 10);
	ck_assert_uint_eq(kp_ring_lost(&r), 500 - kept);
	ck_assert_uint_le(kp_ring_pending(&r), 4096);
	/* Only the records that fit, oldest first; the rest were dropped. */
	while (kp_ring_peek(&r, &rec) > 0) {
		ck_assert_uint_eq(check_rec(rec), next);
		next++;
		kp_ring_next(&r);
	}
	ck_assert_uint_eq(next, kept);
	ck_assert(put(&p, 1000));
	ck_assert_int_eq(kp_ring_peek(&r, &rec), 1);
	ck_assert_uint_eq(check_rec(rec), 1000);
	kp_ring_close(&r);
	tp_free(&p);
}
END_TEST

START_TEST(init_resumes_valid_tail_and_drops_bad_one)
{
	const struct kpmod_record *rec;
	struct tprod p;
	struct kp_ring r;
	uint64_t first;

	tp_init(&p, 4096, KPMOD_BUF_DISCARD);
	put(&p, 0);
	first = p.head;
	put(&p, 1);
	p.cons->data_tail = first;	/* an earlier reader consumed record 0 */
	ck_assert_int_eq(kp_ring_init(&r, p.meta, p.cons, p.data), 0);
	ck_assert_int_eq(kp_ring_peek(&r, &rec), 1);
	ck_assert_uint_eq(check_rec(rec), 1);
	p.cons->data_tail = p.head + 8;	/* nonsense: start at head */
	ck_assert_int_eq(kp_ring_init(&r, p.meta, p.cons, p.data), 0);
	ck_assert_int_eq(kp_ring_peek(&r, &rec), 0);
	ck_assert_uint_eq(p.cons->data_tail, p.head);
	tp_free(&p);
}
END_TEST

/* Publishes @len raw bytes at head as if the producer had written a record. */
static void raw_publish(struct tprod *p, const void *bytes, uint32_t len)
{
	memcpy(p->data + (p->head & (p->size - 1)), bytes, len);
	p->head += len;
	__atomic_store_n(&p->meta->data_head, p->head, __ATOMIC_RELEASE);
}

START_TEST(corrupt_records_are_reported_and_skipped)
{
	const struct kpmod_record *rec;
	struct kpmod_record bad;
	struct tprod p;
	struct kp_ring r;
	uint64_t buf[REC_MAX / 8];
	int i;

	tp_init(&p, 4096, KPMOD_BUF_DISCARD);
	ck_assert_int_eq(kp_ring_init(&r, p.meta, p.cons, p.data), 0);
	for (i = 0; i < 6; i++) {
		memset(buf, 0, sizeof(buf));
		make_rec(buf, 7);
		memcpy(&bad, buf, sizeof(bad));
		switch (i) {
		case 0: bad.len = 100; break;		/* not a multiple of 8 */
		case 1: bad.len = 0; break;
		case 2: bad.type = 9; break;		/* unknown type */
		case 3: bad.len = 4096; break;		/* longer than published */
		case 4: bad.len = 32; break;		/* shorter than a header */
		case 5: bad.len = 2 * KPMOD_MAX_RECORD; break;
		}
		memcpy(buf, &bad, sizeof(bad));
		raw_publish(&p, buf, sizeof(bad) + 16);
		ck_assert_int_eq(kp_ring_peek(&r, &rec), -EBADMSG);
		ck_assert_ptr_nonnull(strstr(r.err, "CPU 3: corrupt ring data"));
		/* Skipped, space given back, and good records still read. */
		ck_assert_uint_eq(p.cons->data_tail, p.head);
		ck_assert(put(&p, i));
		ck_assert_int_eq(kp_ring_peek(&r, &rec), 1);
		ck_assert_uint_eq(check_rec(rec), i);
		kp_ring_next(&r);
	}
	/* A record crossing the end of the data area. */
	while (p.size - (p.head & (p.size - 1)) > 200) {
		ck_assert(put(&p, 0));
		ck_assert_int_eq(kp_ring_peek(&r, &rec), 1);
		kp_ring_next(&r);
	}
	make_rec(buf, 22);
	raw_publish(&p, buf, (uint32_t)(p.size - (p.head & (p.size - 1))));
	ck_assert_int_eq(kp_ring_peek(&r, &rec), -EBADMSG);
	/* A head that ran more than a ring ahead. */
	p.head += 2 * p.size;
	__atomic_store_n(&p.meta->data_head, p.head, __ATOMIC_RELEASE);
	ck_assert_int_eq(kp_ring_peek(&r, &rec), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(r.err, "data_head"));
	ck_assert_int_eq(kp_ring_peek(&r, &rec), 0);
	ck_assert_uint_eq(r.corrupt, 8);
	tp_free(&p);
}
END_TEST

START_TEST(overwrite_keeps_the_newest)
{
	const struct kpmod_record *rec;
	struct tprod p;
	struct kp_ring r;
	uint64_t seq, next, got = 0;

	tp_init(&p, 4096, KPMOD_BUF_OVERWRITE);
	ck_assert_int_eq(kp_ring_init(&r, p.meta, p.cons, p.data), 0);
	for (seq = 0; seq < 1000; seq++)
		ck_assert(put(&p, seq));
	ck_assert_uint_eq(kp_ring_overwritten(&r), p.overwritten);
	ck_assert_uint_gt(p.overwritten, 900);
	next = p.overwritten;	/* the oldest intact record */
	while (kp_ring_peek(&r, &rec) > 0) {
		ck_assert_uint_eq(check_rec(rec), next);
		next++;
		got++;
		kp_ring_next(&r);
	}
	ck_assert_uint_eq(next, 1000);
	ck_assert_uint_eq(got + p.overwritten, 1000);
	/* Nothing is returned twice; new records follow on. */
	ck_assert_int_eq(kp_ring_peek(&r, &rec), 0);
	ck_assert(put(&p, 1000));
	ck_assert_int_eq(kp_ring_peek(&r, &rec), 1);
	ck_assert_uint_eq(check_rec(rec), 1000);
	kp_ring_close(&r);
	tp_free(&p);
}
END_TEST

START_TEST(overwrite_rejects_impossible_positions)
{
	const struct kpmod_record *rec;
	struct tprod p;
	struct kp_ring r;

	tp_init(&p, 4096, KPMOD_BUF_OVERWRITE);
	ck_assert_int_eq(kp_ring_init(&r, p.meta, p.cons, p.data), 0);
	put(&p, 0);
	p.meta->data_oldest = 0;
	p.meta->data_head = 3 * 4096;	/* more than a ring between them */
	ck_assert_int_eq(kp_ring_peek(&r, &rec), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(r.err, "bad ring positions"));
	kp_ring_close(&r);
	tp_free(&p);
}
END_TEST

/*
 * The kernel overwrites the start of the region the reader is about to
 * copy, after the reader read data_oldest: the copy holds new bytes where
 * old records were expected, and none of them may be returned.
 */
static struct tprod *hook_prod;
static uint64_t hook_seq;

static void overwrite_during_copy(struct kp_ring *r)
{
	(void)r;
	for (int i = 0; i < 3; i++)
		ck_assert(put(hook_prod, hook_seq++));
}

START_TEST(overwrite_drops_records_overwritten_while_copying)
{
	const struct kpmod_record *rec;
	struct tprod p;
	struct kp_ring r;
	uint64_t seq, prev = 0;
	int got = 0;

	tp_init(&p, 4096, KPMOD_BUF_OVERWRITE);
	ck_assert_int_eq(kp_ring_init(&r, p.meta, p.cons, p.data), 0);
	for (seq = 0; seq < 100; seq++)
		ck_assert(put(&p, seq));
	hook_prod = &p;
	hook_seq = 100;
	kp_ring_snapshot_hook = overwrite_during_copy;
	while (kp_ring_peek(&r, &rec) > 0) {
		kp_ring_snapshot_hook = NULL;
		seq = check_rec(rec);	/* fails on a torn record */
		ck_assert(!got || seq > prev);
		ck_assert_uint_lt(seq, 100);	/* beyond the old head: not copied */
		prev = seq;
		got++;
		kp_ring_next(&r);
		if (seq == 99)
			break;
	}
	ck_assert_uint_eq(r.corrupt, 0);
	ck_assert_uint_eq(r.torn, 1);
	ck_assert_uint_eq(prev, 99);
	/* The three new records come next, whole. */
	for (seq = 100; seq < 103; seq++) {
		ck_assert_int_eq(kp_ring_peek(&r, &rec), 1);
		ck_assert_uint_eq(check_rec(rec), seq);
		kp_ring_next(&r);
	}
	ck_assert_int_eq(kp_ring_peek(&r, &rec), 0);
	kp_ring_close(&r);
	tp_free(&p);
}
END_TEST

/* ---- a producer thread racing the reader ---- */

#define RACE_EVENTS 100000

struct race {
	struct tprod p;
	uint8_t *dropped;	/* per seq: the producer could not write it */
	int done;
};

static void *race_producer(void *arg)
{
	struct race *x = arg;
	uint64_t seq;

	for (seq = 0; seq < RACE_EVENTS; seq++)
		if (!put(&x->p, seq))
			x->dropped[seq] = 1;
	__atomic_store_n(&x->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Reads until the producer is done and the ring is drained; marks @seen. */
static uint64_t race_read(struct race *x, struct kp_ring *r, uint8_t *seen)
{
	const struct kpmod_record *rec;
	uint64_t got = 0, seq;
	int64_t last = -1;
	int done, ret;

	do {
		done = __atomic_load_n(&x->done, __ATOMIC_ACQUIRE);
		while ((ret = kp_ring_peek(r, &rec)) > 0) {
			seq = check_rec(rec);
			ck_assert_uint_lt(seq, RACE_EVENTS);
			ck_assert_msg((int64_t)seq > last, "seq %llu after %lld",
				      (unsigned long long)seq, (long long)last);
			ck_assert(!seen[seq]);
			seen[seq] = 1;
			last = (int64_t)seq;
			got++;
			kp_ring_next(r);
		}
		ck_assert_int_eq(ret, 0);
	} while (!done);
	return got;
}

static void race_setup(struct race *x, uint64_t size, uint32_t mode)
{
	memset(x, 0, sizeof(*x));
	tp_init(&x->p, size, mode);
	x->dropped = calloc(RACE_EVENTS, 1);
	ck_assert_ptr_nonnull(x->dropped);
}

START_TEST(race_discard_every_event_once_or_lost)
{
	uint8_t *seen = calloc(RACE_EVENTS, 1);
	uint64_t got, lost = 0, i;
	struct kp_ring r;
	struct race x;
	pthread_t t;

	race_setup(&x, 4096, KPMOD_BUF_DISCARD);
	ck_assert_int_eq(kp_ring_init(&r, x.p.meta, x.p.cons, x.p.data), 0);
	ck_assert_int_eq(pthread_create(&t, NULL, race_producer, &x), 0);
	got = race_read(&x, &r, seen);
	pthread_join(t, NULL);
	for (i = 0; i < RACE_EVENTS; i++) {
		ck_assert_msg(seen[i] != x.dropped[i],
			      "event %llu: seen %d dropped %d",
			      (unsigned long long)i, seen[i], x.dropped[i]);
		lost += x.dropped[i];
	}
	ck_assert_uint_eq(got + kp_ring_lost(&r), RACE_EVENTS);
	ck_assert_uint_eq(lost, kp_ring_lost(&r));
	ck_assert_uint_eq(kp_ring_events(&r), got);
	ck_assert_uint_eq(r.corrupt, 0);
	kp_ring_close(&r);
	tp_free(&x.p);
	free(x.dropped);
	free(seen);
}
END_TEST

START_TEST(race_overwrite_never_returns_a_torn_record)
{
	uint8_t *seen = calloc(RACE_EVENTS, 1);
	uint64_t got, missing = 0, i;
	struct kp_ring r;
	struct race x;
	pthread_t t;

	rec_scale = 16;
	race_setup(&x, 65536, KPMOD_BUF_OVERWRITE);
	ck_assert_int_eq(kp_ring_init(&r, x.p.meta, x.p.cons, x.p.data), 0);
	ck_assert_int_eq(pthread_create(&t, NULL, race_producer, &x), 0);
	got = race_read(&x, &r, seen);	/* check_rec() fails on a torn record */
	pthread_join(t, NULL);
	for (i = 0; i < RACE_EVENTS; i++)
		missing += !seen[i];
	/* The last event is never overwritten; what is missing was overwritten. */
	ck_assert(seen[RACE_EVENTS - 1]);
	ck_assert_uint_eq(got + missing, RACE_EVENTS);
	ck_assert_uint_le(missing, kp_ring_overwritten(&r));
	ck_assert_uint_eq(kp_ring_events(&r), RACE_EVENTS);
	ck_assert_uint_eq(r.corrupt, 0);
	kp_ring_close(&r);
	tp_free(&x.p);
	free(x.dropped);
	free(seen);
}
END_TEST

START_TEST(open_reports_missing_device)
{
	struct kp_ring r;

	ck_assert_int_eq(kp_ring_open(&r, "/nonexistent/kpmod", 0), -ENOENT);
	ck_assert_ptr_nonnull(strstr(r.err, "is the kpmod module loaded?"));
	kp_ring_close(&r);
}
END_TEST

KP_SUITE(ring_suite)
static Suite *ring_suite(void)
{
	Suite *s = suite_create("ring");
	TCase *tc = tcase_create("single");
	TCase *race = tcase_create("race");

	tcase_add_test(tc, init_validates_meta);
	tcase_add_test(tc, discard_reads_in_order_and_frees_space);
	tcase_add_test(tc, discard_full_ring_counts_exactly);
	tcase_add_test(tc, init_resumes_valid_tail_and_drops_bad_one);
	tcase_add_test(tc, corrupt_records_are_reported_and_skipped);
	tcase_add_test(tc, overwrite_keeps_the_newest);
	tcase_add_test(tc, overwrite_rejects_impossible_positions);
	tcase_add_test(tc, overwrite_drops_records_overwritten_while_copying);
	tcase_add_test(tc, open_reports_missing_device);
	suite_add_tcase(s, tc);
	tcase_set_timeout(race, 120);
	tcase_add_test(race, race_discard_every_event_once_or_lost);
	tcase_add_test(race, race_overwrite_never_returns_a_torn_record);
	suite_add_tcase(s, race);
	return s;
}
