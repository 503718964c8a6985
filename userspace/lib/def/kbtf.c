// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's BTF through libbpf (kbtf.h).  The lookups follow the
 * kernel's own (kernel/bpf/btf.c): a function is the first FUNC of its
 * name, in vmlinux and then in the modules; a member is looked for in the
 * named members first, then in the anonymous ones.  A file given with
 * --btf is checked before use: every type id it refers to must exist
 * (libbpf 1.1 does not check, and its printer indexes by them).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kbtf.h"

struct decl_buf {
	char *buf;
	size_t size, len;
};

/* One BTF: its functions by name, and its printer of declarations. */
struct kp_btf_index {
	struct btf *btf;	/* NULL: it could not be read */
	struct kp_fn {
		const char *name;
		uint32_t id;
	} *fns;			/* its own FUNCs, by name, then id */
	size_t nfns;
	bool indexed;
	struct btf_dump *dump;
	struct decl_buf db;
};

struct kp_btf_mod {
	char name[NAME_MAX + 1];
	struct kp_btf_index ix;
};

struct kp_btf {
	char spec[PATH_MAX];	/* a file or a directory; "" for none */
	bool is_dir;
	bool opened;		/* vmlinux looked for (found or not) */
	bool scanned;		/* every module of the directory read */
	struct kp_btf_index vmlinux;
	struct kp_btf_mod **mods;	/* each its own allocation: pointers to it stay */
	size_t nmods;
	char why[PATH_MAX + 128];
};

struct kp_btf *kp_btf_new(const char *spec)
{
	struct kp_btf *kb = calloc(1, sizeof(*kb));

	if (!kb)
		return NULL;
	if (!spec || !*spec)
		spec = getenv(KP_BTF_ENV);
	if (!spec || !*spec)
		spec = KP_BTF_SYS;
	if (strcmp(spec, KP_BTF_NONE))
		snprintf(kb->spec, sizeof(kb->spec), "%s", spec);
	return kb;
}

static void index_free(struct kp_btf_index *ix)
{
	btf_dump__free(ix->dump);
	free(ix->fns);
	btf__free(ix->btf);
}

void kp_btf_free(struct kp_btf *kb)
{
	size_t i;

	if (!kb)
		return;
	for (i = 0; i < kb->nmods; i++) {
		index_free(&kb->mods[i]->ix);
		free(kb->mods[i]);
	}
	free(kb->mods);
	index_free(&kb->vmlinux);
	free(kb);
}

const char *kp_btf_why(const struct kp_btf *kb)
{
	return kb->why[0] ? kb->why : "no BTF read yet";
}

const char *kp_btf_source(const struct kp_btf *kb)
{
	return kb->spec[0] ? kb->spec : KP_BTF_NONE;
}

static void set_why(struct kp_btf *kb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void set_why(struct kp_btf *kb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(kb->why, sizeof(kb->why), fmt, ap);
	va_end(ap);
}

/* Every type id @btf's own types refer to exists: 0, or the first bad type's id. */
static uint32_t check_ids(const struct btf *btf)
{
	const struct btf *base = btf__base_btf(btf);
	uint32_t n = btf__type_cnt(btf), id, i;

	for (id = base ? btf__type_cnt(base) : 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		bool bad = !t;

		if (bad)
			return id;
		switch (btf_kind(t)) {
		case BTF_KIND_PTR: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST: case BTF_KIND_RESTRICT: case BTF_KIND_FUNC:
		case BTF_KIND_VAR: case BTF_KIND_DECL_TAG: case BTF_KIND_TYPE_TAG:
			bad = t->type >= n;
			break;
		case BTF_KIND_FUNC_PROTO:
			bad = t->type >= n;
			for (i = 0; i < btf_vlen(t); i++)
				bad |= btf_params(t)[i].type >= n;
			break;
		case BTF_KIND_ARRAY:
			bad = btf_array(t)->type >= n || btf_array(t)->index_type >= n;
			break;
		case BTF_KIND_STRUCT: case BTF_KIND_UNION:
			for (i = 0; i < btf_vlen(t); i++)
				bad |= btf_members(t)[i].type >= n;
			break;
		case BTF_KIND_DATASEC:
			for (i = 0; i < btf_vlen(t); i++)
				bad |= btf_var_secinfos(t)[i].type >= n;
			break;
		}
		if (bad)
			return id;
	}
	return 0;
}

/* @path's BTF (split on @base) into @ix: 0, or -errno with why. */
static int index_open(struct kp_btf *kb, struct kp_btf_index *ix, const char *path,
		      struct btf *base)
{
	uint32_t bad;

	/* Raw BTF (/sys, pahole's detached file) or an ELF file's .BTF. */
	ix->btf = base ? btf__parse_split(path, base) : btf__parse(path, NULL);
	if (!ix->btf) {
		int err = errno ? errno : ENOENT;

		set_why(kb, "%s: %s", path, strerror(err));
		return -err;
	}
	bad = check_ids(ix->btf);
	if (bad) {
		set_why(kb, "%s: damaged: type %u refers to no type", path, bad);
		btf__free(ix->btf);
		ix->btf = NULL;
		return -EINVAL;
	}
	return 0;
}

int kp_btf_open(struct kp_btf *kb)
{
	char path[PATH_MAX + 16];
	struct stat sb;

	if (kb->opened)
		return kb->vmlinux.btf ? 0 : -EOPNOTSUPP;
	kb->opened = true;
	if (!kb->spec[0]) {
		set_why(kb, "BTF is off (--btf %s)", KP_BTF_NONE);
		return -EOPNOTSUPP;
	}
	/* The default is a directory even where the kernel has none. */
	kb->is_dir = (!stat(kb->spec, &sb) && S_ISDIR(sb.st_mode)) || !strcmp(kb->spec, KP_BTF_SYS);
	snprintf(path, sizeof(path), "%s%s", kb->spec, kb->is_dir ? "/vmlinux" : "");
	return index_open(kb, &kb->vmlinux, path, NULL) ? -EOPNOTSUPP : 0;
}

/* Module @name's BTF, split on vmlinux's; NULL if the directory has none. */
static struct kp_btf_index *module_index(struct kp_btf *kb, const char *name)
{
	char path[PATH_MAX + NAME_MAX + 2];
	struct kp_btf_mod **grown, *m;
	size_t i;

	for (i = 0; i < kb->nmods; i++)
		if (!strcmp(kb->mods[i]->name, name))
			return kb->mods[i]->ix.btf ? &kb->mods[i]->ix : NULL;
	if (!kb->is_dir || strlen(name) > NAME_MAX || strchr(name, '/') ||
	    !strcmp(name, "vmlinux"))
		return NULL;
	grown = realloc(kb->mods, (kb->nmods + 1) * sizeof(*kb->mods));
	if (!grown)
		return NULL;
	kb->mods = grown;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	kb->mods[kb->nmods++] = m;
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(path, sizeof(path), "%s/%s", kb->spec, name);
	/* A module that cannot be read is not a reason to stop: why is not kept. */
	if (index_open(kb, &m->ix, path, kb->vmlinux.btf)) {
		kb->why[0] = '\0';
		return NULL;
	}
	return &m->ix;
}

static int fn_cmp(const void *a, const void *b)
{
	const struct kp_fn *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->id > y->id) - (x->id < y->id);
}

/* The FUNCs of @ix's own types, sorted once: a lookup is a search, not a scan. */
static void index_build(struct kp_btf_index *ix)
{
	const struct btf *base = btf__base_btf(ix->btf);
	uint32_t n = btf__type_cnt(ix->btf), id;

	ix->indexed = true;
	ix->fns = calloc(n, sizeof(*ix->fns));
	if (!ix->fns)
		return;
	for (id = base ? btf__type_cnt(base) : 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(ix->btf, id);
		const char *name = t && btf_is_func(t) ? btf__name_by_offset(ix->btf, t->name_off) : NULL;

		if (name && *name) {
			ix->fns[ix->nfns].name = name;
			ix->fns[ix->nfns++].id = id;
		}
	}
	qsort(ix->fns, ix->nfns, sizeof(*ix->fns), fn_cmp);
}

static int find_func(struct kp_btf_index *ix, const char *func, struct kp_btf_func *out)
{
	size_t lo = 0, hi;
	const struct btf_type *t;

	if (!ix->indexed)
		index_build(ix);
	hi = ix->nfns;
	/* The first of that name: the lowest id, as the kernel's linear search. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(ix->fns[mid].name, func) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == ix->nfns || strcmp(ix->fns[lo].name, func))
		return -ENOENT;
	t = btf__type_by_id(ix->btf, ix->fns[lo].id);
	t = t ? btf__type_by_id(ix->btf, t->type) : NULL;
	if (!t || !btf_is_func_proto(t))
		return -ENOENT;
	out->btf = ix->btf;
	out->index = ix;
	out->proto = t;
	out->params = btf_params(t);
	out->nparams = btf_vlen(t);
	return 0;
}

/* Every module's BTF of the directory, read once. */
static void scan_modules(struct kp_btf *kb)
{
	struct dirent *de;
	DIR *dir;

	if (!kb->is_dir || kb->scanned)
		return;
	kb->scanned = true;
	dir = opendir(kb->spec);
	while (dir && (de = readdir(dir))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "vmlinux"))
			continue;
		module_index(kb, de->d_name);
	}
	if (dir)
		closedir(dir);
}

int kp_btf_func(struct kp_btf *kb, const char *module, const char *func,
		struct kp_btf_func *out)
{
	struct kp_btf_index *ix;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (kp_btf_open(kb))
		return -EOPNOTSUPP;
	if (module && *module) {
		ix = module_index(kb, module);
		return ix ? find_func(ix, func, out) : -ENOENT;
	}
	if (!find_func(&kb->vmlinux, func, out))
		return 0;
	/* Not in vmlinux: in a module, as the kernel's bpf_find_btf_id(). */
	scan_modules(kb);
	for (i = 0; i < kb->nmods; i++)
		if (kb->mods[i]->ix.btf && !find_func(&kb->mods[i]->ix, func, out))
			return 0;
	return -ENOENT;
}

int kp_btf_struct(struct kp_btf *kb, const char *name, const struct btf **btf, uint32_t *id)
{
	int32_t found;
	size_t i;

	if (kp_btf_open(kb))
		return -EOPNOTSUPP;
	found = btf__find_by_name_kind(kb->vmlinux.btf, name, BTF_KIND_STRUCT);
	if (found > 0) {
		*btf = kb->vmlinux.btf;
		*id = (uint32_t)found;
		return 0;
	}
	scan_modules(kb);
	for (i = 0; i < kb->nmods; i++) {
		const struct btf *m = kb->mods[i]->ix.btf;

		found = m ? btf__find_by_name_kind(m, name, BTF_KIND_STRUCT) : -ENOENT;
		if (found > 0) {
			*btf = m;
			*id = (uint32_t)found;
			return 0;
		}
	}
	return -ENOENT;
}

const struct btf_type *kp_btf_skip_mods(const struct btf *btf, uint32_t id, uint32_t *res_id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	unsigned int hops = 0;

	/* Bounded: a damaged file could make a loop of modifiers. */
	while (t && (btf_is_mod(t) || btf_is_typedef(t)) && hops++ < 64) {
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	if (t && (btf_is_mod(t) || btf_is_typedef(t)))
		return NULL;
	if (res_id)
		*res_id = id;
	return t;
}

/*
 * Anonymous members are searched after the named ones, the last found
 * first; at most so many, and so many searched in all (a damaged file
 * could make a structure its own anonymous member).
 */
#define ANON_MAX	16
#define ANON_SEARCHED	4096

const struct btf_member *kp_btf_member(const struct btf *btf, const struct btf_type *t,
				       const char *name, uint32_t *anon_bits,
				       const struct btf_type **owner, bool *not_struct)
{
	struct { const struct btf_type *t; uint32_t bits; } stack[ANON_MAX];
	unsigned int top = 0, searched = 0, i;
	uint32_t bits = 0;

	*not_struct = !btf_is_composite(t);
	if (*not_struct)
		return NULL;
	for (;;) {
		const struct btf_member *m = btf_members(t);
		const char *mname;

		for (i = 0; i < btf_vlen(t); i++, m++) {
			if (!m->name_off) {
				const struct btf_type *at = kp_btf_skip_mods(btf, m->type, NULL);

				if (at && btf_is_composite(at) && top < ANON_MAX) {
					stack[top].t = at;
					stack[top++].bits = bits + btf_member_bit_offset(t, i);
				}
				continue;
			}
			mname = btf__name_by_offset(btf, m->name_off);
			/* NULL: a name outside the strings of a damaged file. */
			if (mname && !strcmp(mname, name)) {
				*anon_bits = bits;
				*owner = t;
				return m;
			}
		}
		if (!top || ++searched > ANON_SEARCHED)
			return NULL;
		t = stack[--top].t;
		bits = stack[top].bits;
	}
}

static void decl_printf(void *ctx, const char *fmt, va_list args)
{
	struct decl_buf *d = ctx;
	int n;

	if (d->len >= d->size)
		return;
	n = vsnprintf(d->buf + d->len, d->size - d->len, fmt, args);
	if (n > 0)
		d->len += (size_t)n;
}

int kp_btf_decl(const struct kp_btf_func *f, int i, char *buf, size_t size)
{
	LIBBPF_OPTS(btf_dump_emit_type_decl_opts, o);
	struct kp_btf_index *ix = f->index;
	uint32_t id;

	if (!size)
		return -EINVAL;
	buf[0] = '\0';
	if (i >= (int)f->nparams || !ix)
		return -EINVAL;
	if (i < 0) {
		id = f->proto->type;
		o.field_name = "";	/* libbpf 1.1 reads it even when unset */
	} else {
		id = f->params[i].type;
		o.field_name = btf__name_by_offset(f->btf, f->params[i].name_off);
		if (!o.field_name)
			o.field_name = "";
		if (!id) {	/* a variadic function's "..." */
			snprintf(buf, size, "...");
			return 0;
		}
	}
	/* One printer per BTF: making one reads every type. */
	if (!ix->dump) {
		ix->dump = btf_dump__new(ix->btf, decl_printf, &ix->db, NULL);
		if (!ix->dump)
			return -errno;
	}
	ix->db = (struct decl_buf){ buf, size, 0 };
	return btf_dump__emit_type_decl(ix->dump, id, &o);
}
