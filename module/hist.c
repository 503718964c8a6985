// SPDX-License-Identifier: GPL-2.0
/*
 * Hist tables, as the kernel's tracing_map: one table per hist trigger,
 * shared by all CPUs, allocated whole when the trigger is added.  An
 * open-addressed index of twice the entries maps a key's hash to an
 * element of a preallocated pool; a handler claims a free slot with
 * cmpxchg, takes the next element of the pool, fills its key and publishes
 * it; values are atomic.  A full pool drops the update and counts it.  No
 * lock, no allocation, at most one pass over the index per update.
 *
 * Every table is charged to the memory cgroup of the request that made it
 * and counted against the module's limit for them all (max_hist_mb).
 */
#include <linux/err.h>
#include <linux/jhash.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <net/netlink.h>

#include "field.h"
#include "hist.h"
#include "kpmod.h"
#include "layout.h"
#include "stack.h"

/* The most memory one table may take: about the kernel's largest. */
#define KPMOD_HIST_MAX_BYTES	(128U << 20)

/*
 * How often an update looks again at a slot another CPU is claiming or
 * filling (a copy of the key, some ns) before it drops: an interrupt there
 * costs a drop, never a long spin in a handler.
 */
#define KPMOD_HIST_MAX_WAITS	1024
/* A slot whose claim lost the race for the pool's last element. */
#define KPMOD_HIST_TOMBSTONE	U32_MAX

/*
 * A handler's key, built here.  Only a handler that holds its CPU's ring
 * (kpmod_ring_enter()) updates a table: one user per CPU.
 */
static DEFINE_PER_CPU(u64 [KPMOD_HIST_MAX_KEY_SIZE / sizeof(u64)], kpmod_hist_keybuf);

static u32 kpmod_hist_key_bytes(const struct kpmod_hist_field *k,
				enum kpmod_field_kind kind)
{
	if (k->field == KPMOD_FIELD_STACKTRACE)
		return KPMOD_HIST_STACK_DEPTH * sizeof(u64);
	return kind == KPMOD_FK_STR ? KPMOD_HIST_STR_KEY : sizeof(u64);
}

static int kpmod_hist_check_key(const struct kpmod_layout *lay, const struct kpmod_hist_field *k,
				const struct nlattr *nla, struct netlink_ext_ack *extack)
{
	enum kpmod_field_kind kind = kpmod_field_kind(lay, k->field);
	u16 flags = k->flags;

	if (k->__reserved || (flags & ~(KPMOD_HIST_F_LOG2 | KPMOD_HIST_F_BUCKETS |
					KPMOD_HIST_F_EXECNAME)) ||
	    hweight16(flags) > 1 || !(flags & KPMOD_HIST_F_BUCKETS) != !k->buckets) {
		NL_SET_ERR_MSG_ATTR(extack, nla, "hist key: bad flags");
		return -EINVAL;
	}
	if (k->field == KPMOD_FIELD_STACKTRACE)
		kind = flags ? KPMOD_FK_BAD : KPMOD_FK_NUM;
	else if (kind == KPMOD_FK_STR && flags)
		kind = KPMOD_FK_BAD;
	else if ((flags & KPMOD_HIST_F_EXECNAME) && k->field != KPMOD_FIELD_PID)
		kind = KPMOD_FK_BAD;
	if (kind == KPMOD_FK_BAD) {
		NL_SET_ERR_MSG_ATTR(extack, nla, "hist key: no such field, or unfit for it");
		return -EINVAL;
	}
	return 0;
}

static int kpmod_hist_check_val(const struct kpmod_layout *lay, const struct kpmod_hist_field *v,
				const struct nlattr *nla, struct netlink_ext_ack *extack)
{
	if (v->__reserved || v->buckets ||
	    (v->flags & ~(KPMOD_HIST_F_MAX | KPMOD_HIST_F_MIN)) || hweight16(v->flags) > 1) {
		NL_SET_ERR_MSG_ATTR(extack, nla, "hist value: bad flags");
		return -EINVAL;
	}
	if (kpmod_field_kind(lay, v->field) != KPMOD_FK_NUM) {
		NL_SET_ERR_MSG_ATTR(extack, nla, "hist value: not a numeric field");
		return -EINVAL;
	}
	return 0;
}

/*
 * Tables made and cleared so far: a table's generation, for dumps that span
 * a clear, and a store's serial.
 */
static atomic64_t kpmod_hist_gens = ATOMIC64_INIT(0);
/* What the tables take in all, in bytes; kpmod_lock. */
static u64 kpmod_hist_bytes;

u64 kpmod_hist_limit(void)
{
	/* 0: an eighth of RAM. */
	if (kpmod_max_hist_mb)
		return (u64)kpmod_max_hist_mb << 20;
	return ((u64)totalram_pages() << PAGE_SHIFT) / 8;
}

u64 kpmod_hist_mem(void)
{
	return READ_ONCE(kpmod_hist_bytes);
}

/* What a table of @size entries with keys of @key_size bytes takes: whole pages. */
static u64 kpmod_hist_table_bytes(u32 size, u32 key_size)
{
	return PAGE_ALIGN((u64)(sizeof(struct kpmod_hist_elt) + key_size) * size) +
	       PAGE_ALIGN((u64)size * 2 * sizeof(struct kpmod_hist_slot)) +
	       sizeof(struct kpmod_hist_table);
}

static void kpmod_hist_table_free(struct kpmod_hist_table *t)
{
	if (!t)
		return;
	vfree(t->slots);
	vfree(t->elts);
	kfree(t);
}

/* Counts against kpmod_hist_limit() first: NULL, @over set, past it. */
static struct kpmod_hist_table *kpmod_hist_table_alloc(const struct kpmod_hist_store *st,
						       bool *over)
{
	u64 bytes = kpmod_hist_table_bytes(st->size, st->key_size);
	struct kpmod_hist_table *t;

	lockdep_assert_held(&kpmod_lock);
	*over = kpmod_hist_bytes + bytes > kpmod_hist_limit();
	if (*over)
		return NULL;
	t = kzalloc(sizeof(*t), GFP_KERNEL_ACCOUNT);
	if (!t)
		return NULL;
	t->gen = atomic64_inc_return(&kpmod_hist_gens);
	t->seed = get_random_u32();
	t->max_elts = st->size;
	t->nslots = st->size * 2;
	t->elt_size = sizeof(struct kpmod_hist_elt) + st->key_size;
	t->bytes = bytes;
	t->slots = __vmalloc(array_size(t->nslots, sizeof(*t->slots)),
			     GFP_KERNEL_ACCOUNT | __GFP_ZERO);
	t->elts = __vmalloc(array_size(t->max_elts, t->elt_size),
			    GFP_KERNEL_ACCOUNT | __GFP_ZERO);
	if (!t->slots || !t->elts) {
		kpmod_hist_table_free(t);
		return NULL;
	}
	WRITE_ONCE(kpmod_hist_bytes, kpmod_hist_bytes + bytes);
	return t;
}

void kpmod_hist_table_drop(struct kpmod_hist_table *t)
{
	lockdep_assert_held(&kpmod_lock);
	WRITE_ONCE(kpmod_hist_bytes, kpmod_hist_bytes - t->bytes);
	kpmod_hist_table_free(t);
}

/* The stores of named hists, by name; kpmod_lock. */
static LIST_HEAD(kpmod_hist_names);

/* A field's type as named hists compare it: an argument's, or which common field. */
static u32 kpmod_hist_field_type(const struct kpmod_layout *lay, u16 field)
{
	return field < lay->nargs ? lay->args[field].type : 0x10000U | field;
}

static void kpmod_hist_shape_of(const struct kpmod_layout *lay, const struct kpmod_hist *h,
				struct kpmod_hist_shape *s)
{
	u32 i;

	memset(s, 0, sizeof(*s));
	s->nkeys = h->nkeys;
	s->nvals = h->nvals;
	for (i = 0; i < h->nkeys; i++) {
		s->key_type[i] = kpmod_hist_field_type(lay, h->keys[i].field);
		s->key_flags[i] = h->keys[i].flags;
		s->key_buckets[i] = h->keys[i].buckets;
	}
	for (i = 0; i < h->nvals; i++) {
		s->val_type[i] = kpmod_hist_field_type(lay, h->vals[i].field);
		s->val_flags[i] = h->vals[i].flags;
	}
}

/* ":size=N" in a hist's text, or its end. */
static const char *kpmod_hist_size_attr(const char *text, const char **after)
{
	const char *s = strstr(text, ":size=");

	if (!s) {
		*after = text + strlen(text);
		return *after;
	}
	*after = strchrnul(s + 1, ':');
	return s;
}

bool kpmod_hist_text_match(const char *a, const char *b)
{
	const char *a_rest, *b_rest;
	const char *a_size = kpmod_hist_size_attr(a, &a_rest);
	const char *b_size = kpmod_hist_size_attr(b, &b_rest);

	return a_size - a == b_size - b && !memcmp(a, b, a_size - a) && !strcmp(a_rest, b_rest);
}

static struct kpmod_hist_store *kpmod_hist_named(const char *name)
{
	struct kpmod_hist_store *st;

	list_for_each_entry(st, &kpmod_hist_names, node)
		if (!strcmp(st->name, name))
			return st;
	return NULL;
}

static void kpmod_hist_store_put(struct kpmod_hist_store *st)
{
	if (--st->refs)
		return;
	if (st->name)
		list_del(&st->node);
	kpmod_hist_table_drop(st->table);
	kfree(st->name);
	kfree(st->text);
	kfree(st);
}

/*
 * @h's own store, or with @name a new named one; a table either way.
 * ERR_PTR(-ENOMEM), or -E2BIG past the module's limit.
 */
static struct kpmod_hist_store *kpmod_hist_store_new(const struct kpmod_layout *lay,
						     const struct kpmod_hist *h,
						     const char *name, const char *text)
{
	struct kpmod_hist_store *st = kzalloc(sizeof(*st), GFP_KERNEL_ACCOUNT);
	bool over = false;

	if (!st)
		return ERR_PTR(-ENOMEM);
	st->refs = 1;
	st->serial = atomic64_inc_return(&kpmod_hist_gens);
	st->key_size = h->key_size;
	st->size = h->size;
	kpmod_hist_shape_of(lay, h, &st->shape);
	INIT_LIST_HEAD(&st->node);
	if (name) {
		st->name = kstrdup(name, GFP_KERNEL);
		st->text = kstrdup(text, GFP_KERNEL);
		if (!st->name || !st->text)
			goto fail;
	}
	st->table = kpmod_hist_table_alloc(st, &over);
	if (!st->table)
		goto fail;
	if (name)
		list_add(&st->node, &kpmod_hist_names);
	return st;
fail:
	kfree(st->name);
	kfree(st->text);
	kfree(st);
	return ERR_PTR(over ? -E2BIG : -ENOMEM);
}

/* Joins the table of @name if @h is alike in keys, values, sort and types. */
static int kpmod_hist_join(const struct kpmod_layout *lay, struct kpmod_hist *h,
			   struct kpmod_hist_store *st, const struct kpmod_hist_req *req,
			   struct netlink_ext_ack *extack)
{
	struct kpmod_hist_shape shape;

	kpmod_hist_shape_of(lay, h, &shape);
	if (memcmp(&shape, &st->shape, sizeof(shape)) || h->key_size != st->key_size ||
	    !kpmod_hist_text_match(st->text, req->text)) {
		NL_SET_ERR_MSG_ATTR(extack, req->name,
				    "Named hist trigger doesn't match existing named trigger (includes variables)");
		return -EINVAL;
	}
	/* As the kernel's: the table, and so its size, is the first hist's. */
	h->size = st->size;
	st->refs++;
	h->store = st;
	return 0;
}

struct kpmod_hist *kpmod_hist_create(const struct kpmod_layout *lay,
				     const struct kpmod_hist_req *req,
				     struct netlink_ext_ack *extack)
{
	const struct nlattr *keys = req->keys, *vals = req->vals, *size = req->size;
	const u32 fsz = sizeof(struct kpmod_hist_field);
	const char *name = req->name ? nla_data(req->name) : NULL;
	struct kpmod_hist_store *st;
	struct kpmod_hist *h;
	u32 i, nkeys, nvals;
	int ret;

	lockdep_assert_held(&kpmod_lock);
	nkeys = keys ? nla_len(keys) / fsz : 0;
	nvals = vals ? nla_len(vals) / fsz : 0;
	if (!keys || nla_len(keys) % fsz || !nkeys || nkeys > KPMOD_HIST_MAX_KEYS) {
		NL_SET_ERR_MSG_ATTR(extack, keys, "a hist needs 1 to 3 keys");
		return ERR_PTR(-EINVAL);
	}
	if (vals && (nla_len(vals) % fsz || nvals > KPMOD_HIST_MAX_VALS)) {
		NL_SET_ERR_MSG_ATTR(extack, vals, "a hist takes at most 2 values");
		return ERR_PTR(-EINVAL);
	}
	if (!size || !is_power_of_2(nla_get_u32(size)) ||
	    nla_get_u32(size) < KPMOD_HIST_SIZE_MIN || nla_get_u32(size) > KPMOD_HIST_SIZE_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, size, "hist size: a power of two, 128 to 131072");
		return ERR_PTR(-EINVAL);
	}
	if (name && !*name) {
		NL_SET_ERR_MSG_ATTR(extack, req->name, "a hist's name is empty");
		return ERR_PTR(-EINVAL);
	}
	h = kzalloc(sizeof(*h), GFP_KERNEL_ACCOUNT);
	if (!h)
		return ERR_PTR(-ENOMEM);
	h->nkeys = nkeys;
	h->nvals = nvals;
	h->size = nla_get_u32(size);
	memcpy(h->keys, nla_data(keys), nkeys * fsz);
	if (nvals)
		memcpy(h->vals, nla_data(vals), nvals * fsz);
	ret = -EINVAL;
	for (i = 0; i < nkeys; i++) {
		if (kpmod_hist_check_key(lay, &h->keys[i], keys, extack))
			goto fail;
		h->key_off[i] = h->key_size;
		h->key_size += kpmod_hist_key_bytes(&h->keys[i],
						    kpmod_field_kind(lay, h->keys[i].field));
	}
	for (i = 0; i < nvals; i++) {
		if (kpmod_hist_check_val(lay, &h->vals[i], vals, extack))
			goto fail;
		h->val_signed[i] = kpmod_field_signed(lay, h->vals[i].field);
	}
	st = name ? kpmod_hist_named(name) : NULL;
	if (st) {
		ret = kpmod_hist_join(lay, h, st, req, extack);
		if (ret)
			goto fail;
		return h;
	}
	if (kpmod_hist_table_bytes(h->size, h->key_size) > KPMOD_HIST_MAX_BYTES) {
		NL_SET_ERR_MSG_ATTR(extack, size, "hist table would exceed 128 MiB");
		ret = -E2BIG;
		goto fail;
	}
	h->store = kpmod_hist_store_new(lay, h, name, req->text);
	if (IS_ERR(h->store)) {
		ret = PTR_ERR(h->store);
		if (ret == -E2BIG)
			NL_SET_ERR_MSG_ATTR(extack, size,
					    "hist tables would exceed the module's limit (module parameter max_hist_mb)");
		goto fail;
	}
	return h;
fail:
	kfree(h);
	return ERR_PTR(ret);
}

const char *kpmod_hist_text(const struct kpmod_hist *h)
{
	return h->store->text;
}

void kpmod_hist_free(struct kpmod_hist *h)
{
	if (!h)
		return;
	kpmod_hist_store_put(h->store);
	kfree(h);
}

struct kpmod_hist_table *kpmod_hist_table(struct kpmod_hist *h)
{
	lockdep_assert_held(&kpmod_lock);
	return h->store->table;
}

struct kpmod_hist_store *kpmod_hist_clear_begin(struct kpmod_hist *h)
{
	struct kpmod_hist_store *st = h->store;

	lockdep_assert_held(&kpmod_lock);
	/* Held: the hist may go meanwhile, its table stays until the end. */
	st->refs++;
	WRITE_ONCE(st->clearing, st->clearing + 1);
	return st;
}

void kpmod_hist_clear_end(struct kpmod_hist_store *st)
{
	struct kpmod_hist_table *t = st->table;

	lockdep_assert_held(&kpmod_lock);
	/* No handler is in an update: every hist of the store stopped a grace period ago. */
	memset(t->slots, 0, array_size(t->nslots, sizeof(*t->slots)));
	memset(t->elts, 0, array_size(kpmod_hist_entries(t), t->elt_size));
	atomic_set(&t->next_elt, 0);
	atomic64_set(&t->hits, 0);
	atomic64_set(&t->drops, 0);
	t->gen = atomic64_inc_return(&kpmod_hist_gens);
	t->seed = get_random_u32();
	/* The empty table before updates start again: kpmod_hist_update() acquires. */
	smp_store_release(&st->clearing, st->clearing - 1);
	/* Its hits and entries, which probe dumps show, start again from 0. */
	kpmod_probes_changed();
	kpmod_hist_store_put(st);
}

struct kpmod_hist_table *kpmod_hist_swap(struct kpmod_hist *h)
{
	struct kpmod_hist_store *st = h->store;
	struct kpmod_hist_table *old = st->table, *t;
	bool over;

	t = kpmod_hist_table_alloc(st, &over);
	if (!t)
		return ERR_PTR(over ? -E2BIG : -ENOMEM);
	/* Its zeroed slots before its address: kpmod_hist_update() reads it once. */
	smp_store_release(&st->table, t);
	/* Its hits and entries, which probe dumps show, start again from 0. */
	kpmod_probes_changed();
	return old;
}

u64 kpmod_hist_serial(const struct kpmod_hist *h)
{
	return h->store->serial;
}

u32 kpmod_hist_entries(const struct kpmod_hist_table *t)
{
	return min_t(u32, atomic_read(&t->next_elt), t->max_elts);
}

static struct kpmod_hist_elt *kpmod_hist_elt(const struct kpmod_hist_table *t, u32 idx)
{
	return (struct kpmod_hist_elt *)(t->elts + (size_t)idx * t->elt_size);
}

/* Takes a fresh element, its key, name and starting values set. */
static struct kpmod_hist_elt *kpmod_hist_new_elt(struct kpmod_hist_table *t,
						 const struct kpmod_hist *h,
						 const void *key, u32 *idx)
{
	struct kpmod_hist_elt *e;
	u32 i;

	*idx = atomic_fetch_add_unless(&t->next_elt, 1, t->max_elts);
	if (*idx >= t->max_elts)
		return NULL;
	e = kpmod_hist_elt(t, *idx);
	memcpy(e->key, key, h->key_size);
	if (current->pid)
		memcpy(e->comm, current->comm, sizeof(e->comm));
	else
		strscpy(e->comm, "<idle>", sizeof(e->comm));
	for (i = 0; i < h->nvals; i++) {
		if (h->vals[i].flags & KPMOD_HIST_F_MIN)
			atomic64_set(&e->vals[1 + i], h->val_signed[i] ? S64_MAX : -1);
		else if ((h->vals[i].flags & KPMOD_HIST_F_MAX) && h->val_signed[i])
			atomic64_set(&e->vals[1 + i], S64_MIN);
	}
	return e;
}

/*
 * The element of @key, added if new; NULL when the pool is exhausted or a
 * slot another CPU is filling stays unfilled too long (both counted as a
 * drop).  A slot is claimed only while the pool has an element left; one
 * that loses the race for the last is left as a tombstone that lookups
 * pass over, so a full table never gains slots that lengthen the probes.
 */
static struct kpmod_hist_elt *kpmod_hist_insert(struct kpmod_hist_table *t,
						const struct kpmod_hist *h, const void *key)
{
	u32 hash = jhash(key, h->key_size, t->seed) ?: 1;
	u32 mask = t->nslots - 1;
	u32 idx = hash >> (32 - ilog2(t->nslots));
	u32 tries = 0, waits = 0;

	while (tries < t->nslots) {
		struct kpmod_hist_slot *s = &t->slots[idx & mask];
		u32 cur = READ_ONCE(s->hash);
		struct kpmod_hist_elt *e;
		u32 n;

		if (cur == hash) {
			/* Pairs with the store-release that publishes a filled element. */
			n = smp_load_acquire(&s->elt);
			if (!n) {
				if (++waits > KPMOD_HIST_MAX_WAITS)
					return NULL;
				cpu_relax();
				continue;
			}
			if (n != KPMOD_HIST_TOMBSTONE) {
				e = kpmod_hist_elt(t, n - 1);
				if (!memcmp(e->key, key, h->key_size))
					return e;
			}
		} else if (!cur) {
			if (atomic_read(&t->next_elt) >= t->max_elts)
				return NULL;
			if (cmpxchg(&s->hash, 0, hash) != 0) {
				if (++waits > KPMOD_HIST_MAX_WAITS)
					return NULL;
				continue;	/* taken meanwhile: look again */
			}
			e = kpmod_hist_new_elt(t, h, key, &n);
			if (!e) {
				/* Ends the wait of an update of the same hash. */
				smp_store_release(&s->elt, KPMOD_HIST_TOMBSTONE);
				return NULL;
			}
			/* The key before the index: readers load-acquire it. */
			smp_store_release(&s->elt, n + 1);
			return e;
		}
		idx++;
		tries++;
	}
	return NULL;
}

/*
 * ceil(log2(v)), what the kernel's ilog2(roundup_pow_of_two(v)) means.
 * Past 2^63 (a negative value) the kernel's rounding shifts by 64, which
 * C leaves undefined and kernels differ on (6.12 arm64 gives 64): 64 here.
 */
static u64 kpmod_hist_log2(u64 v)
{
	return v > 1 ? fls64(v - 1) : 0;
}

static void kpmod_hist_key_field(const struct kpmod_hist_field *k, const struct kpmod_layout *lay,
				 const struct kpmod_record *rec, unsigned long addr, u8 *dst)
{
	const char *str;
	u32 len;
	u64 v;

	if (k->field == KPMOD_FIELD_STACKTRACE) {
		kpmod_stack_save((u64 *)dst, KPMOD_HIST_STACK_DEPTH, addr);
		return;
	}
	if (kpmod_field_kind(lay, k->field) == KPMOD_FK_STR) {
		if (!kpmod_field_str(lay, rec, k->field, &str, &len)) {
			str = "(fault)";
			len = strlen(str);
		}
		memcpy(dst, str, min_t(u32, len, KPMOD_HIST_STR_KEY - 1));
		return;
	}
	kpmod_field_num(lay, rec, k->field, &v);
	if (k->flags & KPMOD_HIST_F_LOG2)
		v = kpmod_hist_log2(v);
	else if (k->flags & KPMOD_HIST_F_BUCKETS)
		v = div64_u64(v, k->buckets) * k->buckets;
	memcpy(dst, &v, sizeof(v));
}

/* Whether @v should replace @old: .max wants it larger, .min smaller. */
static bool kpmod_hist_beats(u16 flags, bool is_signed, u64 v, u64 old)
{
	bool greater = is_signed ? (s64)v > (s64)old : v > old;

	if (v == old)
		return false;
	return (flags & KPMOD_HIST_F_MAX) ? greater : !greater;
}

static void kpmod_hist_val(atomic64_t *val, u16 flags, bool is_signed, u64 v)
{
	s64 old;

	if (!(flags & (KPMOD_HIST_F_MAX | KPMOD_HIST_F_MIN))) {
		atomic64_add(v, val);
		return;
	}
	/* Retried only when another CPU moved it, never past v. */
	old = atomic64_read(val);
	while (kpmod_hist_beats(flags, is_signed, v, old))
		if (atomic64_try_cmpxchg(val, &old, v))
			break;
}

void kpmod_hist_update(struct kpmod_hist *h, const struct kpmod_layout *lay,
		       const struct kpmod_record *rec, unsigned long addr)
{
	struct kpmod_hist_store *st = h->store;
	u8 *key = (u8 *)this_cpu_ptr(kpmod_hist_keybuf);
	struct kpmod_hist_table *t;
	struct kpmod_hist_elt *e;
	u32 i;
	u64 v;

	/* Pairs with the store-release that ends a clear: the table is empty then. */
	if (READ_ONCE(h->paused) || smp_load_acquire(&st->clearing))
		return;
	/* Once: a swap meanwhile (kpmod_hist_swap()) is seen at the next hit. */
	t = READ_ONCE(st->table);
	memset(key, 0, h->key_size);
	for (i = 0; i < h->nkeys; i++)
		kpmod_hist_key_field(&h->keys[i], lay, rec, addr, key + h->key_off[i]);
	e = kpmod_hist_insert(t, h, key);
	if (!e) {
		atomic64_inc(&t->drops);
		return;
	}
	atomic64_inc(&t->hits);
	atomic64_inc(&e->vals[0]);
	for (i = 0; i < h->nvals; i++) {
		kpmod_field_num(lay, rec, h->vals[i].field, &v);
		kpmod_hist_val(&e->vals[1 + i], h->vals[i].flags, h->val_signed[i], v);
	}
}

u32 kpmod_hist_key_size(const struct kpmod_hist_table *t)
{
	return t->elt_size - sizeof(struct kpmod_hist_elt);
}

int kpmod_hist_put_entries(struct sk_buff *skb, const struct kpmod_hist_table *t,
			   unsigned long *pos)
{
	u32 key_size = kpmod_hist_key_size(t);
	u32 len = sizeof(struct kpmod_hist_entry) + key_size;

	for (; *pos < t->nslots; (*pos)++) {
		const struct kpmod_hist_elt *e;
		struct kpmod_hist_entry *out;
		struct nlattr *nla;
		u32 n, i;

		/* Pairs with the handler's store-release: the key is there. */
		n = smp_load_acquire(&t->slots[*pos].elt);
		if (!n || n == KPMOD_HIST_TOMBSTONE)
			continue;
		nla = nla_reserve(skb, KPMOD_A_HIST_ENTRY, len);
		if (!nla)
			return -EMSGSIZE;
		e = kpmod_hist_elt(t, n - 1);
		out = nla_data(nla);
		for (i = 0; i < ARRAY_SIZE(out->vals); i++)
			out->vals[i] = atomic64_read(&e->vals[i]);
		memcpy(out->comm, e->comm, sizeof(out->comm));
		memcpy(out->key, e->key, key_size);
	}
	return 0;
}
