// SPDX-License-Identifier: GPL-2.0
/*
 * hist_trigger_show(), hist_trigger_entry_print() and
 * tracing_map_sort_entries() of the kernel, on a table read from the
 * module: the same header, the same key and value formats, the same sort
 * (entries equal on every sort field come in no particular order, as in
 * the kernel).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hist_print.h"

static const struct kp_hist_spec *kp_sort_spec;

static uint64_t kp_key_u64(const struct kpmod_hist_entry *e, const struct kp_hist_key_def *k)
{
	uint64_t v;

	memcpy(&v, e->key + k->off, sizeof(v));
	return v;
}

static int kp_cmp_u64(uint64_t a, uint64_t b, bool is_signed)
{
	if (is_signed)
		return (int64_t)a < (int64_t)b ? -1 : (int64_t)a > (int64_t)b;
	return a < b ? -1 : a > b;
}

static int kp_cmp_field(const struct kpmod_hist_entry *a, const struct kpmod_hist_entry *b,
			const struct kp_hist_sort *s)
{
	const struct kp_hist_key_def *k;
	int r;

	if (s->field >= 0) {
		r = kp_cmp_u64(a->vals[s->field], b->vals[s->field], false);
	} else {
		k = &kp_sort_spec->keys[-s->field - 1];
		if (k->is_stack)
			r = 0;
		else if (k->is_string)
			r = strcmp((const char *)a->key + k->off, (const char *)b->key + k->off);
		else
			r = kp_cmp_u64(kp_key_u64(a, k), kp_key_u64(b, k), k->is_signed);
	}
	return s->descending ? -r : r;
}

static int kp_cmp_entries(const void *pa, const void *pb)
{
	const struct kpmod_hist_entry *a = *(const struct kpmod_hist_entry *const *)pa;
	const struct kpmod_hist_entry *b = *(const struct kpmod_hist_entry *const *)pb;
	unsigned int i;
	int r = 0;

	for (i = 0; !r && i < kp_sort_spec->nsort; i++)
		r = kp_cmp_field(a, b, &kp_sort_spec->sort[i]);
	return r;
}

const struct kpmod_hist_entry **kp_hist_sorted(const struct kp_hist_spec *h,
					       const struct kp_hist_data *d)
{
	const struct kpmod_hist_entry **v = calloc(d->n ? d->n : 1, sizeof(*v));
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < d->n; i++)
		v[i] = (const struct kpmod_hist_entry *)(d->entries + i * d->entry_size);
	kp_sort_spec = h;
	qsort(v, d->n, sizeof(*v), kp_cmp_entries);
	return v;
}

static void kp_print_key(FILE *out, const struct kp_hist_key_def *k,
			 const struct kpmod_hist_entry *e, const struct kp_ksyms *ks)
{
	uint64_t v = k->is_string ? 0 : kp_key_u64(e, k);
	char sym[600];
	unsigned int i;

	if (k->is_stack) {
		fputs("stacktrace:\n", out);
		for (i = 0; i < KPMOD_HIST_STACK_DEPTH; i++) {
			memcpy(&v, e->key + k->off + i * 8, sizeof(v));
			if (!v)
				break;
			kp_ksyms_snprint(ks, v, true, sym, sizeof(sym));
			fprintf(out, "%9s%s\n", "", sym);
		}
		return;
	}
	switch (k->show) {
	case KP_HIST_SHOW_HEX:
		fprintf(out, "%s: %" PRIx64, k->name, v);
		break;
	case KP_HIST_SHOW_SYM:
	case KP_HIST_SHOW_SYM_OFFSET:
		kp_ksyms_snprint(ks, v, k->show == KP_HIST_SHOW_SYM_OFFSET, sym, sizeof(sym));
		fprintf(out, "%s: [%" PRIx64 "] %-*s", k->name, v,
			k->show == KP_HIST_SHOW_SYM ? 45 : 55, sym);
		break;
	case KP_HIST_SHOW_EXECNAME:
		fprintf(out, "%s: %-16.16s[%10" PRIu64 "]", k->name, e->comm, v);
		break;
	case KP_HIST_SHOW_LOG2:
		fprintf(out, "%s: ~ 2^%-2" PRIu64, k->name, v);
		break;
	case KP_HIST_SHOW_BUCKETS:
		fprintf(out, "%s: ~ %" PRIu64 "-%" PRIu64, k->name, v,
			v + (uint64_t)k->mod.buckets - 1);
		break;
	default:
		if (k->is_string)
			fprintf(out, "%s: %-50.*s", k->name, KPMOD_HIST_STR_KEY,
				(const char *)e->key + k->off);
		else
			fprintf(out, "%s: %10" PRIu64, k->name, v);
		break;
	}
}

/* __get_percentage(): 100 x the percentage, UINT32_MAX for "ERROR". */
static uint32_t kp_percent(uint64_t val, uint64_t total)
{
	if (!total)
		return val ? UINT32_MAX : 0;
	if (val < UINT64_MAX / 10000)
		return (uint32_t)(val * 10000 / total);
	total /= 10000;
	return total ? (uint32_t)(val / total) : (val ? UINT32_MAX : 0);
}

static void kp_print_val(FILE *out, const struct kp_hist_key_def *k, uint64_t v,
			 uint64_t total, uint64_t max)
{
	uint32_t pc, len, i;
	char bar[21];

	switch (k->show) {
	case KP_HIST_SHOW_PERCENT:
		pc = kp_percent(v, total);
		if (pc == UINT32_MAX)
			fprintf(out, " %s (%%):[ERROR]", k->name);
		else
			fprintf(out, " %s (%%): %3u.%02u", k->name, pc / 100, pc % 100);
		break;
	case KP_HIST_SHOW_GRAPH:
		pc = kp_percent(v, max);
		if (pc == UINT32_MAX) {
			snprintf(bar, sizeof(bar), "[ERROR]");
		} else {
			len = pc * 20 / 10000;
			for (i = 0; i < 20; i++)
				bar[i] = i < len ? '#' : ' ';
			bar[20] = '\0';
		}
		fprintf(out, " %s: %20s", k->name, bar);
		break;
	case KP_HIST_SHOW_HEX:
		fprintf(out, " %s: %10" PRIx64, k->name, v);
		break;
	case KP_HIST_SHOW_MAX:
	case KP_HIST_SHOW_MIN:
		fprintf(out, " %s.%s: %10" PRIu64, k->name,
			k->show == KP_HIST_SHOW_MAX ? "max" : "min", v);
		break;
	default:
		fprintf(out, " %s: %10" PRIu64, k->name, v);
		break;
	}
}

void kp_hist_show(FILE *out, const struct kp_hist_spec *h, const char *info,
		  const struct kp_hist_data *d, const struct kp_ksyms *ks)
{
	const struct kpmod_hist_entry **v = kp_hist_sorted(h, d);
	uint64_t total[1 + KPMOD_HIST_MAX_VALS] = { 0 }, max[1 + KPMOD_HIST_MAX_VALS] = { 0 };
	bool multiline;
	size_t i;
	unsigned int j;

	fprintf(out, "# event histogram\n#\n# trigger info: %s#\n\n", info);
	for (i = 0; v && i < d->n; i++) {
		for (j = 0; j < h->nvals; j++) {
			total[1 + j] += v[i]->vals[1 + j];
			if (v[i]->vals[1 + j] > max[1 + j])
				max[1 + j] = v[i]->vals[1 + j];
		}
	}
	for (i = 0; v && i < d->n; i++) {
		fputs("{ ", out);
		multiline = false;
		for (j = 0; j < h->nkeys; j++) {
			if (j)
				fputs(", ", out);
			kp_print_key(out, &h->keys[j], v[i], ks);
			multiline |= h->keys[j].is_stack;
		}
		fputs(multiline ? "}" : " }", out);
		fprintf(out, " hitcount: %10" PRIu64, (uint64_t)v[i]->vals[0]);
		for (j = 0; j < h->nvals; j++) {
			fputs(" ", out);
			kp_print_val(out, &h->vals[j], v[i]->vals[1 + j], total[1 + j], max[1 + j]);
		}
		fputs("\n", out);
	}
	fprintf(out, "\nTotals:\n    Hits: %" PRIu64 "\n    Entries: %zu\n    Dropped: %" PRIu64 "\n",
		d->hits, v ? d->n : 0, d->drops);
	free(v);
}
