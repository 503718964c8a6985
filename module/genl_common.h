/* SPDX-License-Identifier: GPL-2.0 */
/* What the family's handlers share (genl_common.c). */
#ifndef _KPMOD_GENL_COMMON_H
#define _KPMOD_GENL_COMMON_H

#include <net/genetlink.h>
#include <uapi/kpmod.h>

struct kpmod_probe;

extern struct genl_family kpmod_genl_family;
extern const struct nla_policy kpmod_arg_policy[KPMOD_ARG_A_MAX + 1];
extern const struct nla_policy kpmod_sel_policy[KPMOD_SEL_A_MAX + 1];

/* CAP_SYS_ADMIN as well as GENL_ADMIN_PERM's CAP_NET_ADMIN. */
bool kpmod_genl_allowed(struct sk_buff *skb, struct genl_info *info);
/* 0, or the error under lockdown (confidentiality), with its message. */
int kpmod_genl_lockdown(struct genl_info *info);
/* The request's filter attributes, checked against @p; an ERR_PTR if bad. */
struct kpmod_filter *kpmod_genl_parse_filter(const struct kpmod_probe *p,
					     struct genl_info *info);
/* A dump's start: its first message sized for the largest probe. */
int kpmod_genl_dump_start(struct netlink_callback *cb);

#endif /* _KPMOD_GENL_COMMON_H */
