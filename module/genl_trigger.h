/* SPDX-License-Identifier: GPL-2.0 */
/* The family's requests about triggers, hist tables and tracing (genl_trigger.c). */
#ifndef _KPMOD_GENL_TRIGGER_H
#define _KPMOD_GENL_TRIGGER_H

#include <net/genetlink.h>

struct kpmod_probe;

int kpmod_genl_trigger(struct sk_buff *skb, struct genl_info *info);
int kpmod_genl_hist_dump(struct sk_buff *skb, struct netlink_callback *cb);
int kpmod_genl_hist_done(struct netlink_callback *cb);
int kpmod_genl_tracing(struct sk_buff *skb, struct genl_info *info);
/* PROBE_GET: @p's triggers, in a KPMOD_A_TRIGGERS nest. */
int kpmod_genl_put_triggers(struct sk_buff *skb, struct kpmod_probe *p);

#endif /* _KPMOD_GENL_TRIGGER_H */
