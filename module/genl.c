// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family: the module's only control interface.  Here,
 * which handler serves which command (genl_probe.c, genl_trigger.c,
 * genl_sym.c), and registering the family (genl_common.c, with its
 * policies).
 */
#include <net/genetlink.h>

#include "genl_common.h"
#include "genl_probe.h"
#include "genl_sym.h"
#include "genl_trigger.h"
#include "kpmod.h"

/* The dumps: full ops, for their start callback (small ops have none). */
static const struct genl_ops kpmod_genl_dump_ops[] = {
	{
		.cmd = KPMOD_CMD_PROBE_GET,
		.start = kpmod_genl_dump_start,
		.dumpit = kpmod_genl_probe_dump,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = KPMOD_CMD_HIST_GET,
		.start = kpmod_genl_dump_start,
		.dumpit = kpmod_genl_hist_dump,
		.done = kpmod_genl_hist_done,
		.flags = GENL_ADMIN_PERM,
	},
};

static int (*const kpmod_genl_doits[__KPMOD_CMD_MAX])(struct sk_buff *skb,
						     struct genl_info *info) = {
	[KPMOD_CMD_STATUS] = kpmod_genl_status,
	[KPMOD_CMD_PROBE_ADD] = kpmod_genl_probe_add,
	[KPMOD_CMD_PROBE_DEL] = kpmod_genl_probe_del,
	[KPMOD_CMD_PROBE_ENABLE] = kpmod_genl_enable,
	[KPMOD_CMD_PROBE_DISABLE] = kpmod_genl_disable,
	[KPMOD_CMD_CLEAR] = kpmod_genl_clear,
	[KPMOD_CMD_BUFFER_SET] = kpmod_genl_buffer_set,
	[KPMOD_CMD_PROBE_FILTER] = kpmod_genl_probe_filter,
	[KPMOD_CMD_TRIGGER] = kpmod_genl_trigger,
	[KPMOD_CMD_TRACING] = kpmod_genl_tracing,
	[KPMOD_CMD_SYM_RESOLVE] = kpmod_genl_sym_resolve,
};

/*
 * Every request goes through here: a path that ran out of memory without
 * saying so gets the message, so that each ENOMEM comes with one.  The
 * genl core calls it only for the commands listed below, all in the table.
 */
static int kpmod_genl_doit(struct sk_buff *skb, struct genl_info *info)
{
	int ret = kpmod_genl_doits[info->genlhdr->cmd](skb, info);

	if (ret == -ENOMEM && !info->extack->_msg)
		GENL_SET_ERR_MSG(info, "out of memory");
	return ret;
}

static const struct genl_small_ops kpmod_genl_ops[] = {
	{
		.cmd = KPMOD_CMD_STATUS,
		.doit = kpmod_genl_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = KPMOD_CMD_PROBE_ADD,
		.doit = kpmod_genl_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = KPMOD_CMD_PROBE_DEL,
		.doit = kpmod_genl_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = KPMOD_CMD_PROBE_ENABLE,
		.doit = kpmod_genl_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = KPMOD_CMD_PROBE_DISABLE,
		.doit = kpmod_genl_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = KPMOD_CMD_CLEAR,
		.doit = kpmod_genl_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = KPMOD_CMD_BUFFER_SET,
		.doit = kpmod_genl_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = KPMOD_CMD_PROBE_FILTER,
		.doit = kpmod_genl_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = KPMOD_CMD_TRIGGER,
		.doit = kpmod_genl_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = KPMOD_CMD_TRACING,
		.doit = kpmod_genl_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = KPMOD_CMD_SYM_RESOLVE,
		.doit = kpmod_genl_doit,
		.flags = GENL_ADMIN_PERM,
	},
};

int __init kpmod_genl_init(void)
{
	kpmod_genl_family.ops = kpmod_genl_dump_ops;
	kpmod_genl_family.n_ops = ARRAY_SIZE(kpmod_genl_dump_ops);
	kpmod_genl_family.small_ops = kpmod_genl_ops;
	kpmod_genl_family.n_small_ops = ARRAY_SIZE(kpmod_genl_ops);
	return genl_register_family(&kpmod_genl_family);
}

void kpmod_genl_exit(void)
{
	genl_unregister_family(&kpmod_genl_family);
}
