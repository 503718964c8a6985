// SPDX-License-Identifier: GPL-2.0
/* Kernel symbol table from kallsyms text: sorted array, binary search. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksyms.h"

/* Tables loaded so far: each load's gen (caches of its lookups key on it). */
static unsigned long kp_ksyms_loads;

static int by_addr(const void *a, const void *b)
{
	const struct kp_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* Names point into the text in file order: keep aliases in it. */
	return x->name < y->name ? -1 : x->name > y->name;
}

static int by_name(const void *a, const void *b)
{
	const struct kp_sym *x = *(struct kp_sym * const *)a;
	const struct kp_sym *y = *(struct kp_sym * const *)b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * Sorts @syms by_addr().  kallsyms lists the core kernel in address order
 * and the modules after it: only what follows the sorted start is sorted,
 * then merged in (a sort of it all costs half a `kpmod add`).  0 or -ENOMEM.
 */
static int sort_by_addr(struct kp_sym *syms, size_t n)
{
	struct kp_sym *tail;
	size_t m = 1, i, j, k;

	while (m < n && by_addr(&syms[m - 1], &syms[m]) <= 0)
		m++;
	if (m >= n)
		return 0;
	qsort(syms + m, n - m, sizeof(*syms), by_addr);
	if (by_addr(&syms[m - 1], &syms[m]) <= 0)
		return 0;
	tail = malloc((n - m) * sizeof(*tail));
	if (!tail)
		return -ENOMEM;
	memcpy(tail, syms + m, (n - m) * sizeof(*tail));
	/* From the back: the larger of the two ends goes last. */
	i = m;		/* syms[0, i) not placed yet */
	j = n - m;	/* tail[0, j) not placed yet */
	k = n;
	while (j) {
		if (i && by_addr(&syms[i - 1], &tail[j - 1]) > 0)
			syms[--k] = syms[--i];
		else
			syms[--k] = tail[--j];
	}
	free(tail);
	return 0;
}

/* Parses one line in place: "ADDR T NAME[\t[MOD]]".  Returns 1 if a symbol. */
static int parse_line(char *line, struct kp_sym *s)
{
	char *p = line;
	unsigned int digits = 0;
	uint64_t addr = 0;

	/* Hexadecimal, as strtoull(, 16) without its locale and sign handling. */
	for (;; p++, digits++) {
		unsigned int c = (unsigned char)*p, v;

		if (c - '0' < 10)
			v = c - '0';
		else if ((c | 0x20) - 'a' < 6)
			v = (c | 0x20) - 'a' + 10;
		else
			break;
		addr = addr << 4 | v;
	}
	if (!digits || digits > 16 || *p != ' ')
		return 0;
	s->addr = addr;
	p++;
	if (!*p || p[1] != ' ')
		return 0;
	s->type = *p;
	p += 2;
	s->name = p;
	s->mod = NULL;
	p += strcspn(p, " \t");
	if (p == s->name)
		return 0;
	if (*p) {
		*p++ = '\0';
		p += strspn(p, " \t");
		if (*p == '[') {
			s->mod = ++p;
			p += strcspn(p, "]");
			*p = '\0';
		}
	}
	return 1;
}

/* Keeps an absolute symbol aside: 0 or -ENOMEM. */
static int keep_abs(struct kp_ksyms *k, const struct kp_sym *s, size_t *cap)
{
	struct kp_sym *m;

	if (k->nabs == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		m = realloc(k->abs, *cap * sizeof(*m));
		if (!m)
			return -ENOMEM;
		k->abs = m;
	}
	k->abs[k->nabs++] = *s;
	return 0;
}

int kp_ksyms_load_buf(struct kp_ksyms *k, const char *text, size_t len)
{
	size_t cap = 0, n = 0, abs_cap = 0;
	char *line, *next;
	int nonzero = 0;

	memset(k, 0, sizeof(*k));
	k->gen = ++kp_ksyms_loads;
	k->text = malloc(len + 1);
	if (!k->text)
		return -ENOMEM;
	memcpy(k->text, text, len);
	k->text[len] = '\0';
	k->text_len = len;

	for (line = k->text; line && *line; line = next) {
		struct kp_sym s;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!parse_line(line, &s))
			continue;
		if (s.addr)
			nonzero = 1;
		/*
		 * Absolute symbols (per-CPU variables on x86_64 before 6.15,
		 * and the like) are not code: kept aside for @SYM, never an
		 * address's name.  ELF mapping symbols ($x, $d on arm64) alias
		 * real ones, and the kernel's own lookup skips them too.
		 */
		if (s.name[0] == '$')
			continue;
		if (s.type == 'a' || s.type == 'A') {
			if (keep_abs(k, &s, &abs_cap))
				goto nomem;
			continue;
		}
		if (n == cap) {
			struct kp_sym *m;

			cap = cap ? cap * 2 : 4096;
			m = realloc(k->syms, cap * sizeof(*m));
			if (!m)
				goto nomem;
			k->syms = m;
		}
		k->syms[n++] = s;
	}
	k->nsyms = n;
	k->zeroed = !nonzero;
	if (sort_by_addr(k->syms, n))
		goto nomem;
	k->names = calloc(1, sizeof(*k->names));
	if (!k->names)
		goto nomem;
	return 0;
nomem:
	kp_ksyms_free(k);
	return -ENOMEM;
}

int kp_ksyms_load_file(struct kp_ksyms *k, const char *path)
{
	size_t len = 0, cap = 1 << 20, got;
	char *buf = malloc(cap);
	FILE *f;
	int ret;

	memset(k, 0, sizeof(*k));
	if (!buf)
		return -ENOMEM;
	f = fopen(path ? path : "/proc/kallsyms", "re");
	if (!f) {
		ret = -errno;
		free(buf);
		return ret;
	}
	while ((got = fread(buf + len, 1, cap - len, f)) > 0) {
		len += got;
		if (len == cap) {
			char *m = realloc(buf, cap * 2);

			if (!m) {
				fclose(f);
				free(buf);
				return -ENOMEM;
			}
			buf = m;
			cap *= 2;
		}
	}
	ret = ferror(f) ? -EIO : 0;
	fclose(f);
	if (!ret)
		ret = kp_ksyms_load_buf(k, buf, len);
	free(buf);
	return ret;
}

int kp_ksyms_load_sized(struct kp_ksyms *k, const struct kp_sym *syms, size_t n)
{
	size_t text = 0, i, j = 0, at = 0;

	memset(k, 0, sizeof(*k));
	k->gen = ++kp_ksyms_loads;
	k->sized = true;
	for (i = 0; i < n; i++)
		text += strlen(syms[i].name) + 1 + (syms[i].mod ? strlen(syms[i].mod) + 1 : 0);
	k->text = malloc(text + 1);
	k->syms = malloc((n ? n : 1) * sizeof(*k->syms));
	k->names = calloc(1, sizeof(*k->names));
	if (!k->text || !k->syms || !k->names) {
		kp_ksyms_free(k);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		struct kp_sym *d = &k->syms[i];
		size_t len = strlen(syms[i].name) + 1;

		*d = syms[i];
		d->name = memcpy(k->text + at, syms[i].name, len);
		at += len;
		if (syms[i].mod) {
			len = strlen(syms[i].mod) + 1;
			d->mod = memcpy(k->text + at, syms[i].mod, len);
			at += len;
		}
	}
	k->text[at] = '\0';
	k->text_len = at;
	if (n)
		qsort(k->syms, n, sizeof(*k->syms), by_addr);
	/* One entry an address: the kernel named each the same way. */
	for (i = 0; i < n; i++)
		if (!j || k->syms[j - 1].addr != k->syms[i].addr)
			k->syms[j++] = k->syms[i];
	k->nsyms = j;
	k->zeroed = !j;
	return 0;
}

/* A "0x" and hex digits up to @end; false if anything else. */
static bool parse_hex(const char *p, const char *end, uint64_t *v)
{
	if (end - p < 3 || p[0] != '0' || p[1] != 'x' || end - p > 18)
		return false;
	*v = 0;
	for (p += 2; p < end; p++) {
		unsigned int c = (unsigned char)*p;

		if (c - '0' < 10)
			*v = *v << 4 | (c - '0');
		else if ((c | 0x20) - 'a' < 6)
			*v = *v << 4 | ((c | 0x20) - 'a' + 10);
		else
			return false;
	}
	return true;
}

/* The last @c in [@p, @end), or NULL. */
static const char *last_of(const char *p, const char *end, char c)
{
	while (end > p)
		if (*--end == c)
			return end;
	return NULL;
}

int kp_ksyms_parse_ps(const char *text, uint64_t addr, struct kp_sym *s,
		      char name[KPMOD_MAX_SYMBOL_LEN], char mod[KPMOD_MAX_MODULE_LEN])
{
	const char *end = text + strlen(text), *slash, *plus, *p;
	uint64_t off, len;

	memset(s, 0, sizeof(*s));
	s->type = 't';
	/* " [mod]" last: a module's symbol. */
	if (end > text && end[-1] == ']' && (p = strrchr(text, '[')) && p > text + 1 &&
	    p[-1] == ' ') {
		if (end - 1 - (p + 1) >= KPMOD_MAX_MODULE_LEN || end - 1 == p + 1)
			return -ENOENT;
		memcpy(mod, p + 1, end - 1 - (p + 1));
		mod[end - 1 - (p + 1)] = '\0';
		s->mod = mod;
		end = p - 1;
	}
	/* "name+0xoff/0xsize": a name has neither '+' nor '/' after it. */
	slash = last_of(text, end, '/');
	plus = slash ? last_of(text, slash, '+') : NULL;
	/* The kernel's offset is within the size (a size 0 only at offset 0). */
	if (!plus || plus == text || plus - text >= KPMOD_MAX_SYMBOL_LEN ||
	    !parse_hex(plus + 1, slash, &off) || !parse_hex(slash + 1, end, &len) ||
	    off >= addr || (len ? off >= len : off != 0))
		return -ENOENT;
	memcpy(name, text, plus - text);
	name[plus - text] = '\0';
	s->name = name;
	s->addr = addr - off;
	s->size = len;
	return 0;
}

void kp_ksyms_free(struct kp_ksyms *k)
{
	free(k->text);
	free(k->syms);
	free(k->abs);
	if (k->names)
		free(k->names->by_name);
	free(k->names);
	memset(k, 0, sizeof(*k));
}

struct kp_sym * const *kp_ksyms_by_name(const struct kp_ksyms *k)
{
	struct kp_ksyms_names *nm = k->names;
	size_t i;

	if (!nm || nm->by_name)
		return nm ? nm->by_name : NULL;
	nm->by_name = malloc((k->nsyms ? k->nsyms : 1) * sizeof(*nm->by_name));
	if (!nm->by_name)
		return NULL;
	for (i = 0; i < k->nsyms; i++)
		nm->by_name[i] = &k->syms[i];
	/* qsort() takes no NULL, even for no elements. */
	if (k->nsyms)
		qsort(nm->by_name, k->nsyms, sizeof(*nm->by_name), by_name);
	return nm->by_name;
}

bool kp_ksyms_shown(void)
{
	char line[1024];
	struct kp_sym s;
	FILE *f = fopen("/proc/kallsyms", "re");
	bool shown = false;
	int i;

	if (!f)
		return false;
	/* x86_64's first lines are per-CPU offsets, the first of them 0. */
	for (i = 0; i < 16 && !shown && fgets(line, sizeof(line), f); i++)
		shown = parse_line(line, &s) && s.addr;
	fclose(f);
	return shown;
}

bool kp_ksyms_zeroed(const struct kp_ksyms *k)
{
	return !k || k->zeroed || !k->nsyms;
}

int kp_ksyms_load_usable(struct kp_ksyms *k)
{
	if (!kp_ksyms_load_file(k, NULL) && !kp_ksyms_zeroed(k))
		return 0;
	kp_ksyms_free(k);
	return -1;
}

/* The index of the last symbol at or below @addr (not below the first). */
static size_t last_at_or_below(const struct kp_ksyms *k, uint64_t addr)
{
	size_t lo = 0, hi = k->nsyms;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* In a sized table: the last symbol at or below @addr, if @addr is in it. */
static const struct kp_sym *lookup_sized(const struct kp_ksyms *k, uint64_t addr,
					 uint64_t *off, uint64_t *size)
{
	const struct kp_sym *s = &k->syms[last_at_or_below(k, addr)];

	*off = addr - s->addr;
	*size = s->size;
	/* Size 0: the kernel knew no end, as for the last symbol here. */
	if (s->size ? *off >= s->size : *off != 0)
		return NULL;
	return s;
}

const struct kp_sym *kp_ksyms_lookup(const struct kp_ksyms *k, uint64_t addr,
				     uint64_t *off, uint64_t *size)
{
	size_t lo, i, j;

	if (kp_ksyms_zeroed(k) || addr < k->syms[0].addr)
		return NULL;
	if (k->sized)
		return lookup_sized(k, addr, off, size);
	/* The last symbol at or below addr... */
	lo = last_at_or_below(k, addr);
	/* ...the first of its aliases, as kallsyms picks... */
	i = lo;
	while (i > 0 && k->syms[i - 1].addr == k->syms[i].addr)
		i--;
	/* ...and its end: the next higher address. */
	for (j = lo + 1; j < k->nsyms && k->syms[j].addr == k->syms[i].addr; j++)
		;
	if (j == k->nsyms) {
		/* The last symbol: nothing bounds it, so only its start is known. */
		if (addr != k->syms[i].addr)
			return NULL;
		*size = 0;
	} else {
		*size = k->syms[j].addr - k->syms[i].addr;
	}
	*off = addr - k->syms[i].addr;
	return &k->syms[i];
}

int kp_ksyms_snprint(const struct kp_ksyms *k, uint64_t addr, bool with_offset,
		     char *buf, size_t len)
{
	const struct kp_sym *s;
	uint64_t off, size;

	s = k ? kp_ksyms_lookup(k, addr, &off, &size) : NULL;
	if (!s)
		return snprintf(buf, len, with_offset ? "0x%llx" : "0x%08llx",
				(unsigned long long)addr);
	if (!with_offset)
		return snprintf(buf, len, "%s", s->name);
	/* The kernel's %#lx prints 0 as 0x0, unlike printf's. */
	if (s->mod)
		return snprintf(buf, len, "%s+0x%llx/0x%llx [%s]", s->name,
				(unsigned long long)off,
				(unsigned long long)size, s->mod);
	return snprintf(buf, len, "%s+0x%llx/0x%llx", s->name,
			(unsigned long long)off, (unsigned long long)size);
}

int kp_ksyms_snprint_name(const struct kp_ksyms *k, uint64_t addr, char *buf, size_t len)
{
	const struct kp_sym *s;
	uint64_t off, size;

	s = k ? kp_ksyms_lookup(k, addr, &off, &size) : NULL;
	if (!s)
		return snprintf(buf, len, "0x%llx", (unsigned long long)addr);
	if (s->mod)
		return snprintf(buf, len, "%s [%s]", s->name, s->mod);
	return snprintf(buf, len, "%s", s->name);
}

/* Names longer than this are never offered as near matches. */
#define KP_NEAR_NAME_MAX 128

/* Levenshtein distance of @a and @b, or @bound + 1 once it must exceed @bound. */
static unsigned int kp_edit_distance(const char *a, const char *b, unsigned int bound)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	unsigned int row[KP_NEAR_NAME_MAX + 1], diag, up, best;

	if (la > KP_NEAR_NAME_MAX || lb > KP_NEAR_NAME_MAX ||
	    (la > lb ? la - lb : lb - la) > bound)
		return bound + 1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		diag = row[0];
		row[0] = i;
		best = row[0];
		for (j = 1; j <= lb; j++) {
			up = row[j];
			row[j] = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < row[j])
				row[j] = up + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			diag = up;
			if (row[j] < best)
				best = row[j];
		}
		if (best > bound)
			return bound + 1;
	}
	return row[lb];
}


#define KP_NEAR_MAX 8

unsigned int kp_ksyms_near(const struct kp_ksyms *k, const char *name, const char *types,
			   unsigned int max, char *out, size_t outsz)
{
	unsigned int bound = 1 + strlen(name) / 5, d, n = 0, i;
	size_t found[KP_NEAR_MAX], s, len = 0;

	if (max > KP_NEAR_MAX)
		max = KP_NEAR_MAX;
	/* A pass per distance, nearest first, until @max names. */
	for (d = 1; d <= bound && n < max; d++) {
		for (s = 0; s < k->nsyms && n < max; s++) {
			const struct kp_sym *y = &k->syms[s];

			if (y->mod || (types && !strchr(types, y->type)) ||
			    kp_edit_distance(name, y->name, d) != d)
				continue;
			/* A name several symbols share counts once. */
			for (i = 0; i < n && strcmp(k->syms[found[i]].name, y->name); i++)
				;
			if (i == n)
				found[n++] = s;
		}
	}
	if (outsz)
		out[0] = '\0';
	for (i = 0; i < n && len < outsz; i++)
		len += snprintf(out + len, outsz - len, "%s%s",
				!i ? "" : i + 1 == n ? " or " : ", ", k->syms[found[i]].name);
	return n;
}

/* The first entry of the run of @name in @by_name (by name, then address). */
static size_t kp_first_named(struct kp_sym * const *by_name, size_t n, const char *name)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(by_name[mid]->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The entries named @name, in address order: from the name index if
 * built, or once lookups are many; else by one pass over the table, which
 * is in that order (and, at one address, in file order, which no lookup
 * can tell from the index's: same name, same address).
 */
struct kp_named {
	const struct kp_ksyms *k;
	const char *name;
	struct kp_sym * const *by_name;
	size_t i;
};

static void kp_named_start(struct kp_named *it, const struct kp_ksyms *k, const char *name)
{
	struct kp_ksyms_names *nm = k->names;

	it->k = k;
	it->name = name;
	it->by_name = NULL;
	it->i = 0;
	if (nm && (nm->by_name || ++nm->scans > KP_KSYMS_SCANS))
		it->by_name = kp_ksyms_by_name(k);
	if (it->by_name)
		it->i = kp_first_named(it->by_name, k->nsyms, name);
}

static const struct kp_sym *kp_named_next(struct kp_named *it)
{
	const struct kp_ksyms *k = it->k;

	if (it->by_name)
		return it->i < k->nsyms && !strcmp(it->by_name[it->i]->name, it->name) ?
		       it->by_name[it->i++] : NULL;
	for (; it->i < k->nsyms; it->i++)
		if (!strcmp(k->syms[it->i].name, it->name))
			return &k->syms[it->i++];
	return NULL;
}

size_t kp_ksyms_count_core(const struct kp_ksyms *k, const char *name)
{
	const struct kp_sym *s;
	struct kp_named it;
	size_t n = 0;

	kp_named_start(&it, k, name);
	while ((s = kp_named_next(&it)))
		n += !s->mod;
	return n;
}

int kp_ksyms_addr(const struct kp_ksyms *k, const char *name, const char *mod,
		  uint64_t *addr)
{
	const struct kp_sym *s, *any = NULL;
	struct kp_named it;

	if (kp_ksyms_zeroed(k))
		return -EPERM;
	kp_named_start(&it, k, name);
	while ((s = kp_named_next(&it))) {
		if (mod ? s->mod && !strcmp(s->mod, mod) : !s->mod) {
			*addr = s->addr;
			return 0;
		}
		if (!mod && !any)
			any = s;
	}
	if (!any)
		return -ENOENT;
	*addr = any->addr;
	return 0;
}

int kp_ksyms_abs_addr(const struct kp_ksyms *k, const char *name, uint64_t *addr)
{
	size_t n;

	for (n = 0; n < k->nabs; n++) {
		if (!strcmp(k->abs[n].name, name) && !k->abs[n].mod) {
			*addr = k->abs[n].addr;
			return 0;
		}
	}
	return -ENOENT;
}
