// SPDX-License-Identifier: GPL-2.0
/* The generic netlink family: the module's only control interface. */
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/utsname.h>
#include <net/genetlink.h>

#include "kpmod.h"

static struct genl_family kpmod_genl_family;

/*
 * Every attribute has a type and a bound, including those the module only
 * sends: a request carrying one is checked, never trusted.
 */
static const struct nla_policy kpmod_genl_policy[KPMOD_A_MAX + 1] = {
	[KPMOD_A_MODULE_VERSION] = { .type = NLA_NUL_STRING, .len = KPMOD_STR_MAX - 1 },
	[KPMOD_A_UAPI_VERSION] = { .type = NLA_U32 },
	[KPMOD_A_ARCH] = { .type = NLA_NUL_STRING, .len = KPMOD_STR_MAX - 1 },
	[KPMOD_A_KERNEL_RELEASE] = { .type = NLA_NUL_STRING, .len = KPMOD_STR_MAX - 1 },
	[KPMOD_A_NR_CPUS] = { .type = NLA_U32 },
	[KPMOD_A_NR_ONLINE_CPUS] = { .type = NLA_U32 },
	[KPMOD_A_NR_PROBES] = { .type = NLA_U32 },
	[KPMOD_A_MAX_PROBES] = { .type = NLA_U32 },
};

/*
 * GENL_ADMIN_PERM only asks for CAP_NET_ADMIN; reading kernel memory
 * through probes is CAP_SYS_ADMIN's business, as for kprobe_events.
 */
static bool kpmod_genl_allowed(struct sk_buff *skb, struct genl_info *info)
{
	if (netlink_capable(skb, CAP_SYS_ADMIN))
		return true;
	GENL_SET_ERR_MSG(info, "kpmod requires CAP_SYS_ADMIN");
	return false;
}

static int kpmod_genl_status(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;

	if (!kpmod_genl_allowed(skb, info))
		return -EPERM;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	hdr = genlmsg_put_reply(msg, info, &kpmod_genl_family, 0,
				KPMOD_CMD_STATUS);
	if (!hdr)
		goto too_big;

	if (nla_put_string(msg, KPMOD_A_MODULE_VERSION, KPMOD_VERSION) ||
	    nla_put_u32(msg, KPMOD_A_UAPI_VERSION, KPMOD_UAPI_VERSION) ||
	    nla_put_string(msg, KPMOD_A_ARCH, kpmod_arch_name()) ||
	    nla_put_string(msg, KPMOD_A_KERNEL_RELEASE, init_utsname()->release) ||
	    nla_put_u32(msg, KPMOD_A_NR_CPUS, num_possible_cpus()) ||
	    nla_put_u32(msg, KPMOD_A_NR_ONLINE_CPUS, num_online_cpus()) ||
	    nla_put_u32(msg, KPMOD_A_NR_PROBES, kpmod_nr_probes()) ||
	    nla_put_u32(msg, KPMOD_A_MAX_PROBES, kpmod_max_probes))
		goto too_big;

	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

too_big:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

static const struct genl_small_ops kpmod_genl_ops[] = {
	{
		.cmd = KPMOD_CMD_STATUS,
		.doit = kpmod_genl_status,
		.flags = GENL_ADMIN_PERM,
	},
};

static struct genl_family kpmod_genl_family __ro_after_init = {
	.name = KPMOD_GENL_NAME,
	.version = KPMOD_GENL_VERSION,
	.maxattr = KPMOD_A_MAX,
	.policy = kpmod_genl_policy,
	.netnsok = false,
	.module = THIS_MODULE,
	.small_ops = kpmod_genl_ops,
	.n_small_ops = ARRAY_SIZE(kpmod_genl_ops),
};

int __init kpmod_genl_init(void)
{
	return genl_register_family(&kpmod_genl_family);
}

void kpmod_genl_exit(void)
{
	genl_unregister_family(&kpmod_genl_family);
}
