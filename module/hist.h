/* SPDX-License-Identifier: GPL-2.0 */
/* Hist tables: counts and sums per key, updated by handlers without a lock. */
#ifndef _KPMOD_HIST_H
#define _KPMOD_HIST_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/netlink.h>
#include <linux/rcupdate.h>
#include <uapi/kpmod.h>

struct kpmod_layout;
struct kpmod_record;
struct sk_buff;

/* One entry as the table keeps it: the uapi's, with atomic values. */
struct kpmod_hist_elt {
	atomic64_t vals[1 + KPMOD_HIST_MAX_VALS];
	char comm[16];
	u8 key[];
};

/* A slot of the open-addressed index: a key's hash and its element. */
struct kpmod_hist_slot {
	u32 hash;		/* 0: free */
	u32 elt;		/* index + 1 in the pool; 0 while being filled, U32_MAX lost */
};

struct kpmod_hist_table {
	u64 gen;		/* new at every clear: a dump notices one */
	u32 seed;		/* of its hash: random, so no key can be chosen to collide */
	u32 nslots;		/* twice the entries, a power of two */
	u32 max_elts;		/* size= */
	u32 elt_size;
	u64 bytes;		/* it takes, as max_hist_mb counts it */
	atomic_t next_elt;	/* elements handed out, up to max_elts */
	atomic64_t hits;
	atomic64_t drops;
	struct kpmod_hist_slot *slots;
	u8 *elts;
};

/*
 * What a hist's keys and values are, field by field: hists that share a
 * table (by name=) must be alike in it, as the kernel's hist_trigger_match().
 */
struct kpmod_hist_shape {
	u32 nkeys;
	u32 nvals;
	u32 key_type[KPMOD_HIST_MAX_KEYS];	/* kpmod_hist_field_type() */
	u16 key_flags[KPMOD_HIST_MAX_KEYS];
	u64 key_buckets[KPMOD_HIST_MAX_KEYS];
	u32 val_type[KPMOD_HIST_MAX_VALS];
	u16 val_flags[KPMOD_HIST_MAX_VALS];
};

/*
 * A table and the hists that update it: one hist's own, or every hist of
 * one name= (the kernel's named triggers).  Changed under kpmod_lock.
 */
struct kpmod_hist_store {
	struct list_head node;	/* in the named stores, if named */
	u32 refs;		/* hists on it */
	u64 serial;		/* its own while the module is loaded */
	char *name;		/* NULL: one hist's own */
	char *text;		/* named: the first hist's trigger text */
	struct kpmod_hist_shape shape;
	u32 key_size;
	u32 size;		/* entries: the first hist's size= */
	u32 clearing;		/* clears under way: no update meanwhile */
	struct kpmod_hist_table *table;	/* handlers read it once: kpmod_hist_swap() */
};

struct kpmod_hist {
	u32 nkeys;
	u32 nvals;
	struct kpmod_hist_field keys[KPMOD_HIST_MAX_KEYS];
	struct kpmod_hist_field vals[KPMOD_HIST_MAX_VALS];
	bool val_signed[KPMOD_HIST_MAX_VALS];	/* .max/.min compare signed */
	u32 key_off[KPMOD_HIST_MAX_KEYS];
	u32 key_size;
	u32 size;
	bool paused;		/* READ_ONCE in handlers */
	struct kpmod_hist_store *store;	/* set at creation, never changed */
};

/* A hist's spec as KPMOD_CMD_TRIGGER carries it. */
struct kpmod_hist_req {
	const struct nlattr *keys;
	const struct nlattr *vals;
	const struct nlattr *size;
	const struct nlattr *name;	/* or NULL */
	const char *text;		/* the trigger's text */
};

/*
 * kpmod_lock held.  Checks the spec against @lay and allocates the table, or
 * with a name= already in use joins that table if alike; ERR_PTR on error.
 */
struct kpmod_hist *kpmod_hist_create(const struct kpmod_layout *lay,
				     const struct kpmod_hist_req *req,
				     struct netlink_ext_ack *extack);
/* The text a hist's trigger keeps: a named one's, its table's first. */
const char *kpmod_hist_text(const struct kpmod_hist *h);
/* Whether two hist trigger texts name the same hist: alike but for size=. */
bool kpmod_hist_text_match(const char *a, const char *b);
/* kpmod_lock held (or no command can run); no handler may see @h any more. */
void kpmod_hist_free(struct kpmod_hist *h);
/*
 * Empties @h's table in place, as the kernel's hist_clear() does, so a
 * clear needs no second table: kpmod_hist_clear_begin() (kpmod_lock held)
 * stops the table's updates and returns its store, held; the caller waits
 * for a grace period without the lock (no handler is in an update then)
 * and calls kpmod_hist_clear_end() (kpmod_lock held again).
 */
struct kpmod_hist_store *kpmod_hist_clear_begin(struct kpmod_hist *h);
void kpmod_hist_clear_end(struct kpmod_hist_store *st);
/*
 * A read that clears (hist --interval) swaps instead: kpmod_hist_swap()
 * (kpmod_lock held) puts an empty table in @h's place, which handlers take
 * at once, and returns the old one, so a hit is in this read or the next,
 * never lost between a read and a clear.  The caller reads the old table
 * after a grace period (no handler is in an update of it then) and gives
 * it to kpmod_hist_table_drop() (kpmod_lock held).  ERR_PTR(-E2BIG) when
 * the second table would pass max_hist_mb.
 */
struct kpmod_hist_table *kpmod_hist_swap(struct kpmod_hist *h);
void kpmod_hist_table_drop(struct kpmod_hist_table *t);
/* Which table @h updates, for good: a dump tells a new hist of its id by it. */
u64 kpmod_hist_serial(const struct kpmod_hist *h);
/* What the tables take in all, and the most they may (max_hist_mb), in bytes. */
u64 kpmod_hist_mem(void);
u64 kpmod_hist_limit(void);
/*
 * Handler context: counts @rec, laid out as @lay, or the drop; a stack
 * key starts at @addr, the probed function.
 */
void kpmod_hist_update(struct kpmod_hist *h, const struct kpmod_layout *lay,
		       const struct kpmod_record *rec, unsigned long addr);
/* kpmod_lock held: the table in force. */
struct kpmod_hist_table *kpmod_hist_table(struct kpmod_hist *h);
u32 kpmod_hist_entries(const struct kpmod_hist_table *t);
/*
 * Puts entries from slot *@pos on as KPMOD_A_HIST_ENTRY attributes until
 * @skb is full; *@pos is where to go on.  Returns -EMSGSIZE when full.
 */
int kpmod_hist_put_entries(struct sk_buff *skb, const struct kpmod_hist_table *t,
			   unsigned long *pos);
/* The key bytes of each of @t's entries. */
u32 kpmod_hist_key_size(const struct kpmod_hist_table *t);

#endif /* _KPMOD_HIST_H */
