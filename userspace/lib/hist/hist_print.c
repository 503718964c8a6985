// SPDX-License-Identifier: GPL-2.0
/*
 * hist_trigger_show(), hist_trigger_entry_print() and
 * tracing_map_sort_entries() of the kernel, on a table read from the
 * module: the same header, the same key and value formats, the same
 * order (hist_sort.c).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "hist_print.h"
#include "hist_sort.h"
#include "prometheus.h"

/* A stack key's frames, one a line, each indented by @indent spaces. */
static void kp_print_frames(FILE *out, const struct kp_hist_key_def *k,
			    const struct kpmod_hist_entry *e, const struct kp_ksyms *ks,
			    int indent)
{
	char sym[600];
	unsigned int i;
	uint64_t v;

	for (i = 0; i < KPMOD_HIST_STACK_DEPTH; i++) {
		memcpy(&v, e->key + k->off + i * 8, sizeof(v));
		if (!v)
			break;
		kp_ksyms_snprint(ks, v, true, sym, sizeof(sym));
		fprintf(out, "%*s%s\n", indent, "", sym);
	}
}

static void kp_print_key(FILE *out, const struct kp_hist_key_def *k,
			 const struct kpmod_hist_entry *e, const struct kp_ksyms *ks)
{
	uint64_t v = k->is_string ? 0 : kp_hist_key_u64(e, k);
	char sym[600];

	if (k->is_stack) {
		fprintf(out, "%s:\n", kp_hist_stack_name());
		kp_print_frames(out, k, e, ks, 9);
		return;
	}
	switch (k->show) {
	case KP_HIST_SHOW_HEX:
		fprintf(out, "%s: %" PRIx64, k->name, v);
		break;
	case KP_HIST_SHOW_SYM:
	case KP_HIST_SHOW_SYM_OFFSET:
		if (k->show == KP_HIST_SHOW_SYM)
			kp_ksyms_snprint_name(ks, v, sym, sizeof(sym));
		else
			kp_ksyms_snprint(ks, v, true, sym, sizeof(sym));
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

static const char *kp_hist_stat_name(enum kp_hist_show show)
{
	return show == KP_HIST_SHOW_MAX ? "max" : show == KP_HIST_SHOW_MIN ? "min" : "avg";
}

/* A .max, .min or .avg value: the average is the sum over the hits, signed if the field is. */
static uint64_t kp_hist_stat(const struct kp_hist_key_def *k, uint64_t v, uint64_t hits)
{
	if (k->show != KP_HIST_SHOW_AVG)
		return v;
	if (!hits)
		return 0;
	return k->is_signed ? (uint64_t)((int64_t)v / (int64_t)hits) : v / hits;
}

static void kp_print_val(FILE *out, const struct kp_hist_key_def *k, uint64_t v,
			 uint64_t hits, uint64_t total, uint64_t max)
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
	case KP_HIST_SHOW_AVG:
		/* kpmod's own: in the field's sign, unlike the kernel's sums. */
		fprintf(out, " %s.%s: ", k->name, kp_hist_stat_name(k->show));
		fprintf(out, k->is_signed ? "%10" PRId64 : "%10" PRIu64, kp_hist_stat(k, v, hits));
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
			kp_print_val(out, &h->vals[j], v[i]->vals[1 + j], v[i]->vals[0],
				     total[1 + j], max[1 + j]);
		}
		fputs("\n", out);
	}
	fprintf(out, "\nTotals:\n    Hits: %" PRIu64 "\n    Entries: %zu\n    Dropped: %" PRIu64 "\n",
		d->hits, v ? d->n : 0, d->drops);
	free(v);
}

/* bpftrace's hist() labels: 1024 and up in K, M, G, T, P, E when exact. */
static void kp_graph_num(char *buf, size_t len, uint64_t v, bool suffix)
{
	static const char units[] = "KMGTPE";
	int u = -1;

	while (suffix && v >= 1024 && !(v % 1024) && u < 5) {
		v /= 1024;
		u++;
	}
	if (u >= 0)
		snprintf(buf, len, "%" PRIu64 "%c", v, units[u]);
	else
		snprintf(buf, len, "%" PRIu64, v);
}

/*
 * The label of a .buckets key @key ([lo, lo + width), lhist()'s) or a .log2
 * one (its bucket; hist() prints [lo, hi) where the kernel's bucket is).
 */
static void kp_bucket_label(char *label, size_t len, const struct kp_hist_key_def *k,
			    uint64_t key)
{
	char a[32], b[32];

	if (k->show == KP_HIST_SHOW_BUCKETS) {
		kp_graph_num(a, sizeof(a), key, false);
		kp_graph_num(b, sizeof(b), key + k->mod.buckets, false);
		snprintf(label, len, "[%s, %s)", a, b);
	} else if (key == 0) {
		/* The kernel's .log2 puts 0 and 1 in bucket 0. */
		snprintf(label, len, "[0, 1]");
	} else {
		/* Bucket k holds (2^(k-1), 2^k]: roundup_pow_of_two. */
		kp_graph_num(a, sizeof(a), 1ULL << (key - 1), true);
		kp_graph_num(b, sizeof(b), key < 64 ? 1ULL << key : UINT64_MAX, true);
		snprintf(label, len, "(%s, %s]", a, b);
	}
}

/* One row as bpftrace's text output: label, count, a bar of 52. */
static void kp_graph_row(FILE *out, const char *label, uint64_t count, uint64_t max)
{
	int bar = max ? (int)((float)count / (float)max * 52) : 0;

	fprintf(out, "%-16s%8" PRIu64 " |%.*s%*s|\n", label, count, bar,
		"@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@", 52 - bar, "");
}

/* The count of @key (a log2 power or a bucket's start) in @v, or 0. */
static uint64_t kp_graph_count(const struct kpmod_hist_entry **v, size_t n,
			       const struct kp_hist_key_def *k, uint64_t key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (kp_hist_key_u64(v[i], k) == key)
			return v[i]->vals[0];
	return 0;
}

/*
 * One key of a map row as bpftrace prints a map key: the bare value (signed
 * if its field is), a string as it is, a stack one frame a line, a symbol
 * by name; .execname as bpftrace's @[pid, comm], a .log2 or .buckets key
 * as its hist()/lhist() row label.
 */
static void kp_map_key(FILE *out, const struct kp_hist_key_def *k,
		       const struct kpmod_hist_entry *e, const struct kp_ksyms *ks)
{
	uint64_t v = k->is_string ? 0 : kp_hist_key_u64(e, k);
	char sym[600];

	if (k->is_stack) {
		fputs("\n", out);
		kp_print_frames(out, k, e, ks, 8);
		return;
	}
	if (k->is_string) {
		fprintf(out, "%.*s", KPMOD_HIST_STR_KEY, (const char *)e->key + k->off);
		return;
	}
	switch (k->show) {
	case KP_HIST_SHOW_HEX:
		fprintf(out, "0x%" PRIx64, v);
		break;
	case KP_HIST_SHOW_SYM:
		kp_ksyms_snprint_name(ks, v, sym, sizeof(sym));
		fputs(sym, out);
		break;
	case KP_HIST_SHOW_SYM_OFFSET:
		kp_ksyms_snprint(ks, v, true, sym, sizeof(sym));
		fputs(sym, out);
		break;
	case KP_HIST_SHOW_EXECNAME:
		fprintf(out, "%" PRIu64 ", %.16s", v, e->comm);
		break;
	case KP_HIST_SHOW_LOG2:
	case KP_HIST_SHOW_BUCKETS:
		kp_bucket_label(sym, sizeof(sym), k, v);
		fputs(sym, out);
		break;
	default:
		if (k->is_signed)
			fprintf(out, "%" PRId64, (int64_t)v);
		else
			fprintf(out, "%" PRIu64, v);
		break;
	}
}

void kp_hist_graph(FILE *out, const struct kp_hist_spec *h, const struct kp_hist_data *d,
		   const struct kp_ksyms *ks)
{
	const struct kp_hist_key_def *k = &h->keys[0];
	bool graph = h->nkeys == 1 && (k->show == KP_HIST_SHOW_LOG2 ||
				       k->show == KP_HIST_SHOW_BUCKETS);
	struct kp_hist_spec by = *h;
	const struct kpmod_hist_entry **v;
	uint64_t lo = UINT64_MAX, hi = 0, max = 0, key, step, c;
	char label[80];
	size_t i;
	unsigned int j;

	/* Maps: ascending by count, as bpftrace prints them. */
	by.nsort = 1;
	by.sort[0] = (struct kp_hist_sort){ .field = graph ? -1 : 0 };
	v = kp_hist_sorted(&by, d);
	if (!v)
		return;
	if (graph)
		fprintf(out, "@%s:\n", k->name);
	for (i = 0; !graph && i < d->n; i++) {
		fputs("@[", out);
		for (j = 0; j < h->nkeys; j++) {
			fputs(j ? ", " : "", out);
			kp_map_key(out, &h->keys[j], v[i], ks);
		}
		fprintf(out, "]: %" PRIu64 "\n", (uint64_t)v[i]->vals[0]);
	}
	for (i = 0; graph && i < d->n; i++) {
		key = kp_hist_key_u64(v[i], k);
		lo = key < lo ? key : lo;
		hi = key > hi ? key : hi;
		max = v[i]->vals[0] > max ? v[i]->vals[0] : max;
	}
	step = k->show == KP_HIST_SHOW_LOG2 ? 1 : k->mod.buckets;
	for (key = lo; graph && d->n && key <= hi; key += step) {
		c = kp_graph_count(v, d->n, k, key);
		kp_bucket_label(label, sizeof(label), k, key);
		kp_graph_row(out, label, c, max);
		if (key > UINT64_MAX - step)
			break;
	}
	fputs("\n", out);
	free(v);
}

static void kp_json_key(FILE *out, const struct kp_hist_key_def *k,
			const struct kpmod_hist_entry *e, const struct kp_ksyms *ks)
{
	uint64_t v = k->is_string ? 0 : kp_hist_key_u64(e, k);
	char sym[600];
	unsigned int i;

	kp_json_string(out, k->name, strlen(k->name));
	fputs(":", out);
	if (k->is_stack) {
		fputs("[", out);
		for (i = 0; i < KPMOD_HIST_STACK_DEPTH; i++) {
			memcpy(&v, e->key + k->off + i * 8, sizeof(v));
			if (!v)
				break;
			kp_ksyms_snprint(ks, v, true, sym, sizeof(sym));
			fputs(i ? "," : "", out);
			kp_json_string(out, sym, strlen(sym));
		}
		fputs("]", out);
		return;
	}
	if (k->is_string) {
		kp_json_string(out, (const char *)e->key + k->off,
			       strnlen((const char *)e->key + k->off, KPMOD_HIST_STR_KEY));
		return;
	}
	switch (k->show) {
	case KP_HIST_SHOW_SYM:
	case KP_HIST_SHOW_SYM_OFFSET:
		if (k->show == KP_HIST_SHOW_SYM)
			kp_ksyms_snprint_name(ks, v, sym, sizeof(sym));
		else
			kp_ksyms_snprint(ks, v, true, sym, sizeof(sym));
		fprintf(out, "{\"addr\":%" PRIu64 ",\"sym\":", v);
		kp_json_string(out, sym, strlen(sym));
		fputs("}", out);
		break;
	case KP_HIST_SHOW_EXECNAME:
		fprintf(out, "{\"pid\":%" PRIu64 ",\"comm\":", v);
		kp_json_string(out, e->comm, strnlen(e->comm, sizeof(e->comm)));
		fputs("}", out);
		break;
	case KP_HIST_SHOW_LOG2:
		/* The kernel's bucket: (2^(k-1), 2^k], 0 and 1 in bucket 0. */
		fprintf(out, "{\"log2\":%" PRIu64 ",\"from\":%" PRIu64 ",\"to\":%" PRIu64 "}", v,
			v ? ((uint64_t)1 << (v - 1)) + 1 : 0, v < 64 ? (uint64_t)1 << v : UINT64_MAX);
		break;
	case KP_HIST_SHOW_BUCKETS:
		fprintf(out, "{\"from\":%" PRIu64 ",\"to\":%" PRIu64 "}", v,
			v + (uint64_t)k->mod.buckets - 1);
		break;
	default:
		fprintf(out, k->is_signed ? "%" PRId64 : "%" PRIu64, v);
		break;
	}
}

void kp_hist_json(FILE *out, const char *event, const struct kp_hist_spec *h, const char *info,
		  const struct kp_hist_data *d, const struct kp_ksyms *ks)
{
	const struct kpmod_hist_entry **v = kp_hist_sorted(h, d);
	size_t i, len = strlen(info);
	unsigned int j;
	uint64_t x;

	if (!v)
		return;
	fputs("{\"event\":", out);
	kp_json_string(out, event, strlen(event));
	fputs(",\"trigger\":", out);
	kp_json_string(out, info, len && info[len - 1] == '\n' ? len - 1 : len);
	fprintf(out, ",\"hits\":%" PRIu64 ",\"dropped\":%" PRIu64 ",\"entries\":[", d->hits,
		d->drops);
	for (i = 0; i < d->n; i++) {
		fputs(i ? ",{\"keys\":{" : "{\"keys\":{", out);
		for (j = 0; j < h->nkeys; j++) {
			fputs(j ? "," : "", out);
			kp_json_key(out, &h->keys[j], v[i], ks);
		}
		fprintf(out, "},\"hitcount\":%" PRIu64 ",\"vals\":{", (uint64_t)v[i]->vals[0]);
		for (j = 0; j < h->nvals; j++) {
			const struct kp_hist_key_def *k = &h->vals[j];
			char name[KPMOD_MAX_ARG_NAME_LEN + 8];

			bool stat = k->show >= KP_HIST_SHOW_MAX;

			x = stat ? kp_hist_stat(k, v[i]->vals[1 + j], v[i]->vals[0]) :
				   v[i]->vals[1 + j];
			snprintf(name, sizeof(name), "%s%s%s", k->name, stat ? "." : "",
				 stat ? kp_hist_stat_name(k->show) : "");
			fputs(j ? "," : "", out);
			kp_json_string(out, name, strlen(name));
			fprintf(out, stat && k->is_signed ? ":%" PRId64 : ":%" PRIu64, x);
		}
		fputs("}}", out);
	}
	fputs("]}\n", out);
	free(v);
}

/*
 * A key's Prometheus label name: [a-zA-Z_][a-zA-Z0-9_]*, and key_NAME when
 * NAME is one of the labels kpmod sets itself.
 */
static void kp_prom_label_name(FILE *out, const char *name)
{
	static const char *const taken[] = { "group", "event", "hist", "value", "comm" };
	const char *s;
	unsigned int i;

	for (i = 0; i < sizeof(taken) / sizeof(taken[0]); i++)
		if (!strcmp(name, taken[i]))
			fputs("key_", out);
	if (*name >= '0' && *name <= '9')
		fputc('_', out);
	for (s = name; *s; s++)
		fputc((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' ? *s : '_', out);
}

/* A key's value as a label: the kernel's text for it, without padding. */
static void kp_prom_key(FILE *out, const struct kp_hist_key_def *k,
			const struct kpmod_hist_entry *e, const struct kp_ksyms *ks)
{
	uint64_t v = k->is_string ? 0 : kp_hist_key_u64(e, k);
	char buf[KPMOD_HIST_STACK_DEPTH * 600], *p = buf;
	unsigned int i;

	buf[0] = '\0';
	if (k->is_stack) {
		/* Folded, outermost first, as flame graph tools read stacks. */
		for (i = KPMOD_HIST_STACK_DEPTH; i-- > 0;) {
			memcpy(&v, e->key + k->off + i * 8, sizeof(v));
			if (!v)
				continue;
			p += strlen(p);
			if (p != buf)
				*p++ = ';';
			kp_ksyms_snprint(ks, v, true, p, buf + sizeof(buf) - p);
		}
	} else if (k->is_string) {
		snprintf(buf, sizeof(buf), "%.*s", KPMOD_HIST_STR_KEY, (const char *)e->key + k->off);
	} else if (k->show == KP_HIST_SHOW_HEX) {
		snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	} else if (k->show == KP_HIST_SHOW_SYM || k->show == KP_HIST_SHOW_SYM_OFFSET) {
		/* As the kernel prints it, "[addr] sym": two sites, two series. */
		p += snprintf(buf, sizeof(buf), "[%" PRIx64 "] ", v);
		if (k->show == KP_HIST_SHOW_SYM)
			kp_ksyms_snprint_name(ks, v, p, buf + sizeof(buf) - p);
		else
			kp_ksyms_snprint(ks, v, true, p, buf + sizeof(buf) - p);
	} else if (k->show == KP_HIST_SHOW_LOG2) {
		snprintf(buf, sizeof(buf), "2^%" PRIu64, v);
	} else if (k->show == KP_HIST_SHOW_BUCKETS) {
		snprintf(buf, sizeof(buf), "%" PRIu64 "-%" PRIu64, v,
			 v + (uint64_t)k->mod.buckets - 1);
	} else {
		snprintf(buf, sizeof(buf), "%" PRIu64, v);
	}
	kp_prom_label_name(out, k->is_stack ? "stacktrace" : k->name);
	fputc('=', out);
	kp_prom_label_value(out, buf);
	if (k->show == KP_HIST_SHOW_EXECNAME) {
		fputs(",comm=", out);
		snprintf(buf, sizeof(buf), "%.16s", e->comm);
		kp_prom_label_value(out, buf);
	}
}

bool kp_hist_prometheus(FILE *out, const char *group, const char *event, uint32_t id,
			const struct kp_hist_spec *h, const struct kp_hist_data *d,
			const struct kp_ksyms *ks, bool values, bool header)
{
	const struct kpmod_hist_entry **v;
	unsigned int j, pass;
	size_t i;

	if (values && !h->nvals)
		return header;
	v = kp_hist_sorted(h, d);
	if (!v)
		return header;
	if (header)
		fprintf(out, "# HELP %s %s\n# TYPE %s gauge\n",
			values ? "kpmod_hist_value" : "kpmod_hist_hitcount",
			values ? "A hist trigger's value per key (vals=), labelled value=NAME."
			       : "A hist trigger's hits per key (kpmod hist), labelled by its keys.",
			values ? "kpmod_hist_value" : "kpmod_hist_hitcount");
	for (pass = values; pass <= (values ? h->nvals : 0); pass++) {
		const char *name = pass ? "kpmod_hist_value" : "kpmod_hist_hitcount";

		for (i = 0; i < d->n; i++) {
			uint64_t x = v[i]->vals[pass];

			fprintf(out, "%s{group=", name);
			kp_prom_label_value(out, group);
			fputs(",event=", out);
			kp_prom_label_value(out, event);
			fprintf(out, ",hist=\"%u\"", id);
			if (pass) {
				const struct kp_hist_key_def *k = &h->vals[pass - 1];

				if (k->show >= KP_HIST_SHOW_MAX)
					x = kp_hist_stat(k, x, v[i]->vals[0]);
				fputs(",value=", out);
				kp_prom_label_value(out, k->name);
			}
			for (j = 0; j < h->nkeys; j++) {
				fputc(',', out);
				kp_prom_key(out, &h->keys[j], v[i], ks);
			}
			fprintf(out, pass && h->vals[pass - 1].is_signed ? "} %" PRId64 "\n" :
				"} %" PRIu64 "\n", x);
		}
	}
	free(v);
	return false;
}
