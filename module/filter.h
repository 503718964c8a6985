/* SPDX-License-Identifier: GPL-2.0 */
/* Event filters: validated once when set, run by the handlers. */
#ifndef _KPMOD_FILTER_H
#define _KPMOD_FILTER_H

#include <linux/netlink.h>
#include <linux/rcupdate.h>
#include <uapi/kpmod.h>

struct kpmod_layout;
struct kpmod_record;

struct kpmod_filter {
	struct rcu_head rcu;
	u32 nr;				/* predicates */
	struct kpmod_filter_pred *preds;
	char *strs;			/* string operands */
	u32 strs_len;
	char *text;			/* the expression, as given */
};

/*
 * Copies and checks a program against @lay's arguments: ops, fields, their
 * types, targets, string operands.  Returns the filter or an ERR_PTR, the
 * reason in @extack.
 */
struct kpmod_filter *kpmod_filter_build(const struct kpmod_layout *lay, const char *text,
					const struct nlattr *prog, const struct nlattr *strs,
					struct netlink_ext_ack *extack);

void kpmod_filter_free(struct kpmod_filter *f);
/* Frees @f once no handler can be running it (NULL: nothing); returns at once. */
void kpmod_filter_free_rcu(struct kpmod_filter *f);

/* Whether the record @rec, laid out as @lay, matches; handler context, bounded. */
bool kpmod_filter_match(const struct kpmod_filter *f, const struct kpmod_layout *lay,
			const struct kpmod_record *rec);

#endif /* _KPMOD_FILTER_H */
