// SPDX-License-Identifier: GPL-2.0
/*
 * SYM_RESOLVE: addresses a reader's records hold, named as the kernel's %pS
 * names them (what ftrace prints), so that `kpmod record` embeds, and
 * trace prints, the symbols of its events only, instead of reading every
 * line of /proc/kallsyms, which the kernel formats at a cost larger than a
 * short recording's.
 */
#include <linux/capability.h>
#include <linux/kallsyms.h>
#include <linux/slab.h>
#include <net/genetlink.h>

#include "genl_common.h"
#include "genl_sym.h"

int kpmod_genl_sym_resolve(struct sk_buff *skb, struct genl_info *info)
{
	const struct nlattr *a = info->attrs[KPMOD_A_SYM_ADDRS];
	struct nlattr *nest;
	struct sk_buff *msg;
	unsigned int i, n;
	char *text;
	void *hdr;
	int ret = -EMSGSIZE;

	if (!kpmod_genl_allowed(skb, info))
		return -EPERM;
	/* As /proc/kallsyms, which shows its addresses to CAP_SYSLOG only. */
	if (!netlink_capable(skb, CAP_SYSLOG)) {
		GENL_SET_ERR_MSG(info, "naming kernel addresses requires CAP_SYSLOG");
		return -EPERM;
	}
	if (!a || !nla_len(a) || nla_len(a) % sizeof(u64)) {
		NL_SET_ERR_MSG_ATTR(info->extack, a, "name the addresses: whole 64-bit values");
		return -EINVAL;
	}
	n = nla_len(a) / sizeof(u64);	/* the policy bounds it */
	text = kmalloc(KSYM_SYMBOL_LEN, GFP_KERNEL);
	msg = genlmsg_new(nla_total_size(0) + n * nla_total_size(KSYM_SYMBOL_LEN), GFP_KERNEL);
	if (!text || !msg) {
		ret = -ENOMEM;
		goto out;
	}
	hdr = genlmsg_put_reply(msg, info, &kpmod_genl_family, 0, KPMOD_CMD_SYM_RESOLVE);
	if (!hdr)
		goto out;
	nest = nla_nest_start(msg, KPMOD_A_SYMS);
	if (!nest)
		goto out;
	for (i = 0; i < n; i++) {
		u64 addr;

		/* The value is only looked up, never read through. */
		memcpy(&addr, (const u8 *)nla_data(a) + i * sizeof(u64), sizeof(addr));
		snprintf(text, KSYM_SYMBOL_LEN, "%pS", (void *)(unsigned long)addr);
		if (nla_put_string(msg, KPMOD_A_SYM_TEXT, text))
			goto out;
	}
	nla_nest_end(msg, nest);
	genlmsg_end(msg, hdr);
	kfree(text);
	return genlmsg_reply(msg, info);
out:
	nlmsg_free(msg);
	kfree(text);
	return ret;
}
