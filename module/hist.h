/* SPDX-License-Identifier: GPL-2.0 */
/* Hist tables: counts and sums per key, updated by handlers without a lock. */
#ifndef _KPMOD_HIST_H
#define _KPMOD_HIST_H

#include <linux/atomic.h>
#include <linux/netlink.h>
#include <linux/rcupdate.h>
#include <uapi/kpmod.h>

struct kpmod_probe;
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
	u64 gen;		/* unique to this table: a dump notices a clear */
	u32 nslots;		/* twice the entries, a power of two */
	u32 max_elts;		/* size= */
	u32 elt_size;
	atomic_t next_elt;	/* elements handed out, up to max_elts */
	atomic64_t hits;
	atomic64_t drops;
	struct kpmod_hist_slot *slots;
	u8 *elts;
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
	/* Replaced whole by a clear, under kpmod_lock; handlers read it (RCU). */
	struct kpmod_hist_table __rcu *table;
};

/* Checks the spec against @p and allocates the table; ERR_PTR on error. */
struct kpmod_hist *kpmod_hist_create(const struct kpmod_probe *p, const struct nlattr *keys,
				     const struct nlattr *vals, const struct nlattr *size,
				     struct netlink_ext_ack *extack);
/* No handler may see @h any more. */
void kpmod_hist_free(struct kpmod_hist *h);
/* Empties the table: a fresh one replaces it, the old freed after a grace period. */
int kpmod_hist_clear(struct kpmod_hist *h);
/* Handler context: counts @rec of @p, or the drop. */
void kpmod_hist_update(struct kpmod_hist *h, const struct kpmod_probe *p,
		       const struct kpmod_record *rec);
/* kpmod_lock held: the table in force. */
struct kpmod_hist_table *kpmod_hist_table(struct kpmod_hist *h);
u32 kpmod_hist_entries(const struct kpmod_hist_table *t);
/*
 * Puts entries from slot *@pos on as KPMOD_A_HIST_ENTRY attributes until
 * @skb is full; *@pos is where to go on.  Returns -EMSGSIZE when full.
 */
int kpmod_hist_put_entries(struct sk_buff *skb, const struct kpmod_hist *h,
			   const struct kpmod_hist_table *t, unsigned long *pos);

#endif /* _KPMOD_HIST_H */
