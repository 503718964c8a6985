// SPDX-License-Identifier: GPL-2.0
/*
 * kpmod funcs: the functions a probe can go on, as `perf probe --funcs`
 * and `bpftrace -l 'kprobe:*'` list them, with the rules kprobe_events
 * (and so kpmod) applies: a unique name, not blacklisted, still there.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "funcs.h"
#include "live.h"

#define KP_BLACKLIST_PATH "/sys/kernel/debug/kprobes/blacklist"

/* MOD:NAME as a definition takes it (the kernel's names are under 512). */
#define KP_FUNC_NAME_MAX 640

static int kp_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int kp_cmp_range(const void *a, const void *b)
{
	const struct kp_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* "0xSTART-0xEND" at @line: the range, or 0 (hidden, or not a range). */
static int kp_parse_range(const char *line, struct kp_range *r)
{
	unsigned long long start, end;

	if (sscanf(line, "0x%llx-0x%llx", &start, &end) != 2 || !start || end <= start)
		return 0;
	r->start = start;
	r->end = end;
	return 1;
}

static int kp_blacklist_index_ranges(struct kp_blacklist *bl)
{
	uint64_t m = 0;
	size_t i;

	if (!bl->nranges)
		return 0;
	qsort(bl->ranges, bl->nranges, sizeof(*bl->ranges), kp_cmp_range);
	bl->max_end = malloc(bl->nranges * sizeof(*bl->max_end));
	if (!bl->max_end)
		return -ENOMEM;
	for (i = 0; i < bl->nranges; i++) {
		if (bl->ranges[i].end > m)
			m = bl->ranges[i].end;
		bl->max_end[i] = m;
	}
	return 0;
}

int kp_blacklist_load_buf(struct kp_blacklist *bl, const char *text, size_t len)
{
	const char *line = text, *end = text + len, *nl, *name, *stop, *mod, *mod_end;
	size_t cap = 0, rcap = 0, mod_len;
	struct kp_range r, *rgrown;
	char **grown;

	memset(bl, 0, sizeof(*bl));
	for (; line < end; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(end - line));
		if (!nl)
			nl = end;
		/* The name follows the address range and a tab (or blanks). */
		name = memchr(line, '\t', (size_t)(nl - line));
		if (!name)
			name = memchr(line, ' ', (size_t)(nl - line));
		if (!name)
			continue;
		while (name < nl && (*name == '\t' || *name == ' '))
			name++;
		if (name == nl)
			continue;
		/* A module's function is "NAME [MOD]", kept as MOD:NAME. */
		for (stop = name; stop < nl && *stop != ' ' && *stop != '\t'; stop++)
			;
		mod = memchr(stop, '[', (size_t)(nl - stop));
		mod_end = mod ? memchr(mod, ']', (size_t)(nl - mod)) : NULL;
		if (kp_parse_range(line, &r)) {
			if (bl->nranges == rcap) {
				rcap = rcap ? rcap * 2 : 256;
				rgrown = realloc(bl->ranges, rcap * sizeof(*rgrown));
				if (!rgrown)
					goto nomem;
				bl->ranges = rgrown;
			}
			bl->ranges[bl->nranges++] = r;
		}
		if (bl->n == cap) {
			cap = cap ? cap * 2 : 256;
			grown = realloc(bl->names, cap * sizeof(*grown));
			if (!grown)
				goto nomem;
			bl->names = grown;
		}
		mod_len = mod_end ? (size_t)(mod_end - mod - 1) : 0;
		bl->names[bl->n] = malloc(mod_len + 1 + (size_t)(stop - name) + 1);
		if (!bl->names[bl->n])
			goto nomem;
		if (mod_end)
			sprintf(bl->names[bl->n], "%.*s:%.*s", (int)mod_len, mod + 1,
				(int)(stop - name), name);
		else
			sprintf(bl->names[bl->n], "%.*s", (int)(stop - name), name);
		bl->n++;
	}
	if (bl->n)
		qsort(bl->names, bl->n, sizeof(*bl->names), kp_cmp_str);
	if (kp_blacklist_index_ranges(bl))
		goto nomem;
	return 0;
nomem:
	kp_blacklist_free(bl);
	return -ENOMEM;
}

int kp_blacklist_load(struct kp_blacklist *bl, const char *path)
{
	size_t len;
	char *text;
	int ret;

	memset(bl, 0, sizeof(*bl));
	text = kp_read_file(path ? path : KP_BLACKLIST_PATH, &len);
	if (!text)
		return errno ? -errno : -EIO;
	ret = kp_blacklist_load_buf(bl, text, len);
	free(text);
	return ret;
}

void kp_blacklist_free(struct kp_blacklist *bl)
{
	size_t i;

	for (i = 0; i < bl->n; i++)
		free(bl->names[i]);
	free(bl->names);
	free(bl->ranges);
	free(bl->max_end);
	memset(bl, 0, sizeof(*bl));
}

/*
 * As within_kprobe_blacklist(): by address when both tables show them
 * (an alias of a blacklisted function is refused too), else by name.
 */
static bool kp_blacklisted(const struct kp_blacklist *bl, const struct kp_sym *s,
			   const char *full, bool by_address)
{
	size_t lo = 0, hi;

	if (!bl)
		return false;
	if (!by_address)
		return bl->n && bsearch(&full, bl->names, bl->n, sizeof(*bl->names), kp_cmp_str);
	/* The last range starting at or below the address. */
	hi = bl->nranges;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (bl->ranges[mid].start <= s->addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && s->addr < bl->max_end[lo - 1];
}

static bool kp_same_scope(const struct kp_sym *a, const struct kp_sym *b)
{
	return (!a->mod && !b->mod) || (a->mod && b->mod && !strcmp(a->mod, b->mod));
}

/* No other symbol of its scope (the kernel, or its module) has its name. */
static bool kp_unique(const struct kp_ksyms *k, struct kp_sym * const *by_name, size_t i)
{
	const struct kp_sym *s = by_name[i];
	size_t j;

	for (j = i; j-- > 0 && !strcmp(by_name[j]->name, s->name); )
		if (kp_same_scope(by_name[j], s))
			return false;
	for (j = i + 1; j < k->nsyms && !strcmp(by_name[j]->name, s->name); j++)
		if (kp_same_scope(by_name[j], s))
			return false;
	return true;
}

/* [@from, @to) of the kernel's symbols, or 0, 0 (hidden, or not there). */
static void kp_core_range(const struct kp_ksyms *k, const char *from, const char *to,
			  uint64_t *start, uint64_t *end)
{
	uint64_t a;

	*start = *end = 0;
	if (kp_ksyms_zeroed(k) || kp_ksyms_addr(k, from, NULL, &a))
		return;
	*start = a;
	if (kp_ksyms_addr(k, to, NULL, &a))
		*start = 0;
	else
		*end = a;
}

/* @s's prototype from @btf, in @format, after its name; nothing without one. */
static void kp_func_proto(FILE *out, struct kp_btf *btf, const struct kp_sym *s,
			  enum kp_funcs_format format)
{
	struct kp_btf_func f;
	char decl[256];
	unsigned int i;

	if (kp_btf_func(btf, s->mod ? s->mod : "", s->name, &f)) {
		if (format == KP_FUNCS_JSON)
			fputs(",\"args\":null,\"retval\":null", out);
		return;
	}
	if (format == KP_FUNCS_JSON)
		fputs(",\"args\":[", out);
	for (i = 0; i < f.nparams; i++) {
		kp_btf_decl(&f, (int)i, decl, sizeof(decl));
		if (format == KP_FUNCS_JSON) {
			fputs(i ? "," : "", out);
			kp_json_string(out, decl, strlen(decl));
		} else {
			fprintf(out, "    %s\n", decl);
		}
	}
	if (format == KP_FUNCS_JSON)
		fputs("],\"retval\":", out);
	if (!f.proto->type) {
		if (format == KP_FUNCS_JSON)
			fputs("null", out);
		return;
	}
	kp_btf_decl(&f, -1, decl, sizeof(decl));
	if (format == KP_FUNCS_JSON)
		kp_json_string(out, decl, strlen(decl));
	else
		fprintf(out, "    %s retval\n", decl);
}

size_t kp_funcs_print(FILE *out, const struct kp_ksyms *k, const struct kp_blacklist *bl,
		      const char *glob, enum kp_funcs_format format, struct kp_btf *btf)
{
	bool by_address = bl && bl->nranges && !kp_ksyms_zeroed(k);
	struct kp_sym * const *by_name = kp_ksyms_by_name(k);
	uint64_t init_start, init_end, text_start, text_end;
	char full[KP_FUNC_NAME_MAX];
	size_t i, n = 0;
	int len;

	/* __init text, freed after boot. */
	kp_core_range(k, "_sinittext", "_einittext", &init_start, &init_end);
	/*
	 * The kernel's text, as kernel_text_address() (and so
	 * register_kprobe()) takes it: 7.3 on x86_64 types the symbols of
	 * its .data t and T too.
	 */
	kp_core_range(k, "_stext", "_etext", &text_start, &text_end);
	if (format == KP_FUNCS_JSON)
		fputc('[', out);
	for (i = 0; by_name && i < k->nsyms; i++) {
		const struct kp_sym *s = by_name[i];

		if ((s->type != 't' && s->type != 'T') || strpbrk(s->name, ".$") ||
		    !strncmp(s->name, "__pfx_", 6) || !strncmp(s->name, "__cfi_", 6))
			continue;
		if (!s->mod && ((s->addr >= init_start && s->addr < init_end) ||
				(text_end && (s->addr < text_start || s->addr >= text_end))))
			continue;
		if (s->mod)
			len = snprintf(full, sizeof(full), "%s:%s", s->mod, s->name);
		else
			len = snprintf(full, sizeof(full), "%s", s->name);
		/* Longer than a definition takes: not offered. */
		if (len < 0 || (size_t)len >= sizeof(full))
			continue;
		if (kp_blacklisted(bl, s, full, by_address) || !kp_unique(k, by_name, i))
			continue;
		if (glob && fnmatch(glob, s->name, 0) && fnmatch(glob, full, 0))
			continue;
		if (format == KP_FUNCS_JSON) {
			fputs(n ? "," : "", out);
			if (btf)
				fputs("{\"name\":", out);
			kp_json_string(out, full, strlen(full));
		} else {
			fprintf(out, "%s\n", full);
		}
		if (btf)
			kp_func_proto(out, btf, s, format);
		if (btf && format == KP_FUNCS_JSON)
			fputc('}', out);
		n++;
	}
	if (format == KP_FUNCS_JSON)
		fputs("]\n", out);
	return n;
}
