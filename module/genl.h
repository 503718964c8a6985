/* SPDX-License-Identifier: GPL-2.0 */
/* The generic netlink family, shared by genl.c and genl_trigger.c. */
#ifndef _KPMOD_GENL_H
#define _KPMOD_GENL_H

#include <net/genetlink.h>

struct kpmod_probe;

extern struct genl_family kpmod_genl_family;

/* CAP_SYS_ADMIN as well as GENL_ADMIN_PERM's CAP_NET_ADMIN. */
bool kpmod_genl_allowed(struct sk_buff *skb, struct genl_info *info);
/* 0, or the error under lockdown (confidentiality), with its message. */
int kpmod_genl_lockdown(struct genl_info *info);
/* The request's filter attributes, checked against @p; an ERR_PTR if bad. */
struct kpmod_filter *kpmod_genl_parse_filter(const struct kpmod_probe *p,
					     struct genl_info *info);

/* genl_trigger.c */
int kpmod_genl_trigger(struct sk_buff *skb, struct genl_info *info);
int kpmod_genl_hist_dump(struct sk_buff *skb, struct netlink_callback *cb);
int kpmod_genl_tracing(struct sk_buff *skb, struct genl_info *info);
/* PROBE_GET: @p's triggers, in a KPMOD_A_TRIGGERS nest. */
int kpmod_genl_put_triggers(struct sk_buff *skb, struct kpmod_probe *p);

#endif /* _KPMOD_GENL_H */
