/* SPDX-License-Identifier: GPL-2.0 */
/* The family's requests about probes and the module's state (genl_probe.c). */
#ifndef _KPMOD_GENL_PROBE_H
#define _KPMOD_GENL_PROBE_H

#include <net/genetlink.h>

int kpmod_genl_status(struct sk_buff *skb, struct genl_info *info);
int kpmod_genl_probe_add(struct sk_buff *skb, struct genl_info *info);
int kpmod_genl_probe_del(struct sk_buff *skb, struct genl_info *info);
int kpmod_genl_enable(struct sk_buff *skb, struct genl_info *info);
int kpmod_genl_disable(struct sk_buff *skb, struct genl_info *info);
int kpmod_genl_clear(struct sk_buff *skb, struct genl_info *info);
int kpmod_genl_buffer_set(struct sk_buff *skb, struct genl_info *info);
int kpmod_genl_probe_filter(struct sk_buff *skb, struct genl_info *info);
int kpmod_genl_probe_dump(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* _KPMOD_GENL_PROBE_H */
