// SPDX-License-Identifier: GPL-2.0
/* k-way merge of per-CPU record streams by (timestamp, CPU). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"
#include "ring.h"

static bool before(const struct kp_merge *m, size_t a, size_t b)
{
	uint64_t ta = m->top[a]->ts_ns, tb = m->top[b]->ts_ns;

	if (ta != tb)
		return ta < tb;
	if (m->src[a].cpu != m->src[b].cpu)
		return m->src[a].cpu < m->src[b].cpu;
	return a < b;
}

static void sift_up(struct kp_merge *m, size_t i)
{
	while (i > 0) {
		size_t parent = (i - 1) / 2, t;

		if (!before(m, m->heap[i], m->heap[parent]))
			break;
		t = m->heap[i];
		m->heap[i] = m->heap[parent];
		m->heap[parent] = t;
		i = parent;
	}
}

static void sift_down(struct kp_merge *m, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, min = i, t;

		if (l < m->nheap && before(m, m->heap[l], m->heap[min]))
			min = l;
		if (r < m->nheap && before(m, m->heap[r], m->heap[min]))
			min = r;
		if (min == i)
			return;
		t = m->heap[i];
		m->heap[i] = m->heap[min];
		m->heap[min] = t;
		i = min;
	}
}

int kp_merge_init(struct kp_merge *m, struct kp_merge_src *src, size_t n)
{
	memset(m, 0, sizeof(*m));
	m->src = src;
	m->n = n;
	m->heap = calloc(n ? n : 1, sizeof(*m->heap));
	m->top = calloc(n ? n : 1, sizeof(*m->top));
	m->queued = calloc(n ? n : 1, 1);
	if (!m->heap || !m->top || !m->queued) {
		kp_merge_free(m);
		return -ENOMEM;
	}
	return 0;
}

void kp_merge_free(struct kp_merge *m)
{
	free(m->heap);
	free(m->top);
	free(m->queued);
	memset(m, 0, sizeof(*m));
}

int kp_merge_peek(struct kp_merge *m, const struct kpmod_record **rec,
		  size_t *src)
{
	size_t i;
	int ret;

	/* Sources with nothing queued may have something now. */
	for (i = 0; i < m->n; i++) {
		if (m->queued[i])
			continue;
		ret = m->src[i].peek(m->src[i].ctx, &m->top[i]);
		if (ret < 0) {
			*src = i;
			return ret;
		}
		if (ret > 0) {
			m->queued[i] = 1;
			m->heap[m->nheap++] = i;
			sift_up(m, m->nheap - 1);
		}
	}
	if (!m->nheap)
		return 0;
	*src = m->heap[0];
	*rec = m->top[*src];
	return 1;
}

void kp_merge_next(struct kp_merge *m)
{
	size_t i;

	if (!m->nheap)
		return;
	i = m->heap[0];
	m->src[i].next(m->src[i].ctx);
	/* Out of the heap: the next peek polls it again and sees any error. */
	m->queued[i] = 0;
	m->heap[0] = m->heap[--m->nheap];
	sift_down(m, 0);
}

struct kp_recblk {
	struct kp_recblk *next;
	size_t used, cap;	/* bytes */
	size_t live;		/* records in it not consumed yet */
	uint64_t data[];	/* records stay 8-aligned */
};

#define KP_RECBLK_BYTES (256 << 10)

int kp_recq_push_copy(struct kp_recq *q, const struct kpmod_record *rec,
		      uint64_t lost_before)
{
	struct kp_recblk *b = q->tail;
	size_t len = (rec->len + 7) & ~(size_t)7;
	uint8_t *at;

	if (!b || b->used + len > b->cap) {
		size_t cap = len > KP_RECBLK_BYTES ? len : KP_RECBLK_BYTES;

		/* An emptied block is the only one (the head): it goes first. */
		if (b && !b->live) {
			free(b);
			q->head = q->tail = NULL;
		}

		b = malloc(sizeof(*b) + cap);
		if (!b)
			return -ENOMEM;
		*b = (struct kp_recblk){ .cap = cap };
		if (q->tail)
			q->tail->next = b;
		else
			q->head = b;
		q->tail = b;
	}
	at = (uint8_t *)b->data + b->used;
	memcpy(at, rec, rec->len);
	if (kp_recq_push(q, (const struct kpmod_record *)at, lost_before))
		return -ENOMEM;
	b->used += len;
	b->live++;
	return 0;
}

int kp_recq_push(struct kp_recq *q, const struct kpmod_record *rec,
		 uint64_t lost_before)
{
	if (q->n == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 256;
		const struct kpmod_record **r = realloc(q->recs, cap * sizeof(*r));
		uint64_t *l;

		if (!r)
			return -ENOMEM;
		q->recs = r;
		l = realloc(q->lost, cap * sizeof(*l));
		if (!l)
			return -ENOMEM;
		q->lost = l;
		q->cap = cap;
	}
	q->recs[q->n] = rec;
	q->lost[q->n++] = lost_before;
	return 0;
}

uint64_t kp_recq_lost_before(const struct kp_recq *q)
{
	return q->pos < q->n ? q->lost[q->pos] : 0;
}

void kp_recq_free(struct kp_recq *q)
{
	while (q->head) {
		struct kp_recblk *next = q->head->next;

		free(q->head);
		q->head = next;
	}
	free(q->recs);
	free(q->lost);
	memset(q, 0, sizeof(*q));
}

void kp_recq_compact(struct kp_recq *q)
{
	if (!q->pos)
		return;
	memmove(q->recs, q->recs + q->pos, (q->n - q->pos) * sizeof(*q->recs));
	memmove(q->lost, q->lost + q->pos, (q->n - q->pos) * sizeof(*q->lost));
	q->n -= q->pos;
	q->pos = 0;
}

int kp_recq_peek(void *ctx, const struct kpmod_record **rec)
{
	struct kp_recq *q = ctx;

	if (q->pos == q->n)
		return 0;
	*rec = q->recs[q->pos];
	return 1;
}

void kp_recq_next(void *ctx)
{
	struct kp_recq *q = ctx;
	struct kp_recblk *b = q->head;

	if (q->pos == q->n)
		return;
	q->pos++;
	if (!b)
		return;
	/* Copies are consumed in the order they were made: the oldest block's. */
	if (--b->live)
		return;
	if (b != q->tail) {
		q->head = b->next;
		free(b);
	} else {
		b->used = 0;	/* all consumed: filled again from the start */
	}
}

int kp_ring_src_peek(void *ring, const struct kpmod_record **rec)
{
	return kp_ring_peek(ring, rec);
}

void kp_ring_src_next(void *ring)
{
	kp_ring_next(ring);
}
