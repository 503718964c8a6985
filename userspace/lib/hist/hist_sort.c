// SPDX-License-Identifier: GPL-2.0
/*
 * The order of a hist's entries, as the kernel's tracing_map_sort_entries()
 * leaves them, ties included, so that a table prints line for line as
 * tracefs prints it:
 *  1. the entries sorted by their key bytes (memcmp, as detect_dups() does),
 *  2. then by the first sort field,
 *  3. then each run equal on it by the second (sort_secondary(), with its
 *     way of closing the last run),
 * each step with the kernel's sort(): a bottom-up heapsort, not stable, so
 * entries equal on every sort field keep whatever order the heap leaves.
 * Its algorithm changed in 2024 (two elements popped per step; taken as
 * from 6.9, checked on 6.1 and 6.12 only): the running kernel's version
 * picks which one (kver.h).
 */
#include <stdlib.h>
#include <string.h>

#include "hist_sort.h"
#include "kver.h"

typedef const struct kpmod_hist_entry *kp_ent;

/* What one comparison needs: the spec, the field, the key size. */
struct kp_sort_ctx {
	const struct kp_hist_spec *spec;
	const struct kp_hist_sort *by;	/* NULL: the key bytes */
	size_t key_size;
};

static int kp_cmp_u64(uint64_t a, uint64_t b, bool is_signed)
{
	if (is_signed)
		return (int64_t)a < (int64_t)b ? -1 : (int64_t)a > (int64_t)b;
	return a < b ? -1 : a > b;
}

/* cmp_entries_dup(), cmp_entries_sum() and cmp_entries_key() of the kernel. */
static int kp_cmp(kp_ent a, kp_ent b, const struct kp_sort_ctx *c)
{
	const struct kp_hist_sort *s = c->by;
	const struct kp_hist_key_def *k;
	int r;

	if (!s)
		return memcmp(a->key, b->key, c->key_size);
	if (s->field >= 0) {
		/* Sums compare as u64; kpmod's .max/.min/.avg in the field's sign. */
		k = s->field ? &c->spec->vals[s->field - 1] : NULL;
		r = kp_cmp_u64(a->vals[s->field], b->vals[s->field],
			       k && k->is_signed && k->show >= KP_HIST_SHOW_MAX);
	} else {
		k = &c->spec->keys[-s->field - 1];
		if (k->is_stack)
			r = 0;
		else if (k->is_string)
			r = strcmp((const char *)a->key + k->off, (const char *)b->key + k->off);
		else
			r = kp_cmp_u64(kp_hist_key_u64(a, k), kp_hist_key_u64(b, k), k->is_signed);
	}
	return s->descending ? -r : r;
}

static void kp_swap(kp_ent *v, size_t i, size_t j)
{
	kp_ent t = v[i];

	v[i] = v[j];
	v[j] = t;
}

/*
 * Sifts v[a] down a max-heap of @n elements, bottom-up: follow the larger
 * child to a leaf (on equal children, the left one if @left_on_tie), climb
 * back to where v[a] belongs, and rotate it in.
 */
static void kp_sift(kp_ent *v, size_t a, size_t n, bool left_on_tie,
		    const struct kp_sort_ctx *c)
{
	size_t b = a, l, r;
	int cmp;

	for (;;) {
		l = 2 * b + 1;
		r = l + 1;
		if (r >= n)
			break;
		cmp = kp_cmp(v[l], v[r], c);
		b = cmp > 0 || (cmp == 0 && left_on_tie) ? l : r;
	}
	if (r == n)		/* a last leaf with no sibling */
		b = l;
	while (b != a && kp_cmp(v[a], v[b], c) >= 0)
		b = (b - 1) / 2;
	for (l = b; b != a; ) {
		b = (b - 1) / 2;
		kp_swap(v, b, l);
	}
}

/* lib/sort.c's sort() before 6.9: one root popped per step. */
static void kp_heapsort_single_pop(kp_ent *v, size_t num, const struct kp_sort_ctx *c)
{
	size_t n = num, a = num / 2;

	if (!a)
		return;
	for (;;) {
		if (a) {
			a--;
		} else if (--n) {
			kp_swap(v, 0, n);
		} else {
			break;
		}
		kp_sift(v, a, n, true, c);
	}
}

/* lib/sort.c's sort() from 6.9: the root and the larger child popped per step. */
static void kp_heapsort_double_pop(kp_ent *v, size_t num, const struct kp_sort_ctx *c)
{
	size_t n = num, a = num / 2, shift = 0;

	if (!a)
		return;
	for (;;) {
		if (a) {
			a -= (size_t)1 << shift;
		} else if (n > 3) {
			kp_swap(v, 0, --n);
			shift = kp_cmp(v[1], v[2], c) <= 0;
			a = (size_t)1 << shift;
			kp_swap(v, a, --n);
		} else {
			break;
		}
		kp_sift(v, a, n, false, c);
	}
	kp_swap(v, 0, --n);
	if (n == 2 && kp_cmp(v[0], v[1], c) > 0)
		kp_swap(v, 0, 1);
}

static void kp_kernel_sort(kp_ent *v, size_t num, const struct kp_sort_ctx *c)
{
	if (kp_kver() >= KP_KVER(6, 9))
		kp_heapsort_double_pop(v, num, c);
	else
		kp_heapsort_single_pop(v, num, c);
}

/* sort_secondary(): each run equal on the first field, by the second. */
static void kp_sort_runs(kp_ent *v, size_t n, const struct kp_sort_ctx *first,
			 const struct kp_sort_ctx *second)
{
	size_t i, start = 0, run = 1;

	for (i = 0; i + 1 < n; i++) {
		if (kp_cmp(v[i], v[i + 1], first) == 0) {
			run++;
			/* The last pair equal closes its run here. */
			if (i + 2 < n)
				continue;
		}
		if (run >= 2)
			kp_kernel_sort(v + start, run, second);
		start = i + 1;
		run = 1;
	}
}

const struct kpmod_hist_entry **kp_hist_sorted(const struct kp_hist_spec *h,
					       const struct kp_hist_data *d)
{
	kp_ent *v = calloc(d->n ? d->n : 1, sizeof(*v));
	struct kp_sort_ctx bytes = { .spec = h, .key_size = h->key_size };
	struct kp_sort_ctx first = { .spec = h, .by = &h->sort[0] };
	struct kp_sort_ctx second = { .spec = h, .by = &h->sort[1] };
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < d->n; i++)
		v[i] = (kp_ent)(d->entries + i * d->entry_size);
	/* The kernel leaves a table of one entry as it is. */
	if (d->n < 2)
		return v;
	kp_kernel_sort(v, d->n, &bytes);
	kp_kernel_sort(v, d->n, &first);
	if (h->nsort > 1)
		kp_sort_runs(v, d->n, &first, &second);
	return v;
}
