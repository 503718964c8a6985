// SPDX-License-Identifier: GPL-2.0
/*
 * What every handler of the generic netlink family shares: the family
 * itself and its policies (every request is checked against them before a
 * handler sees it), who may call, lockdown, a request's filter.  The ops,
 * which name the handlers, are genl.c's.
 */
#include <linux/capability.h>
#include <linux/security.h>
#include <net/genetlink.h>

#include "genl_common.h"
#include "probe.h"

const struct nla_policy kpmod_arg_policy[KPMOD_ARG_A_MAX + 1] = {
	[KPMOD_ARG_A_NAME] = { .type = NLA_NUL_STRING, .len = KPMOD_MAX_ARG_NAME_LEN - 1 },
	[KPMOD_ARG_A_TYPE] = NLA_POLICY_RANGE(NLA_U32, KPMOD_T_U8, __KPMOD_T_MAX - 1),
	[KPMOD_ARG_A_COUNT] = NLA_POLICY_MAX(NLA_U32, KPMOD_MAX_ARRAY_LEN),
	[KPMOD_ARG_A_PROG] = { .type = NLA_BINARY,
			       .len = KPMOD_MAX_INSNS * sizeof(struct kpmod_fetch_insn) },
	[KPMOD_ARG_A_DATA] = { .type = NLA_BINARY, .len = KPMOD_MAX_IMM_STR },
	[KPMOD_ARG_A_OFFSET] = { .type = NLA_U32 },
	[KPMOD_ARG_A_SIZE] = { .type = NLA_U32 },
};

const struct nla_policy kpmod_sel_policy[KPMOD_SEL_A_MAX + 1] = {
	[KPMOD_SEL_A_GROUP] = { .type = NLA_NUL_STRING, .len = KPMOD_MAX_NAME_LEN - 1 },
	[KPMOD_SEL_A_EVENT] = { .type = NLA_NUL_STRING, .len = KPMOD_MAX_NAME_LEN - 1 },
};

/* struct kprobe's offset is an unsigned int: a larger one must not wrap. */
static struct netlink_range_validation kpmod_offset_range = {
	.max = KPMOD_MAX_OFFSET,
};

static struct netlink_range_validation kpmod_pid_range = {
	.max = KPMOD_PID_MAX,
};

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
	[KPMOD_A_BUF_SIZE] = { .type = NLA_U64 },	/* range checked by the handler */
	[KPMOD_A_BUF_MODE] = NLA_POLICY_MAX(NLA_U32, KPMOD_BUF_OVERWRITE),
	[KPMOD_A_PROBE_ID] = { .type = NLA_U32 },
	[KPMOD_A_PROBE_GROUP] = { .type = NLA_NUL_STRING, .len = KPMOD_MAX_NAME_LEN - 1 },
	[KPMOD_A_PROBE_EVENT] = { .type = NLA_NUL_STRING, .len = KPMOD_MAX_NAME_LEN - 1 },
	[KPMOD_A_PROBE_KIND] = NLA_POLICY_RANGE(NLA_U32, KPMOD_PROBE_ENTRY, KPMOD_PROBE_URETPROBE),
	[KPMOD_A_PROBE_PATH] = { .type = NLA_NUL_STRING, .len = KPMOD_MAX_PATH_LEN - 1 },
	[KPMOD_A_PROBE_REF_CTR_OFFSET] = NLA_POLICY_FULL_RANGE(NLA_U64, &kpmod_offset_range),
	[KPMOD_A_PROBE_SYMBOL] = { .type = NLA_NUL_STRING, .len = KPMOD_MAX_SYMBOL_LEN - 1 },
	[KPMOD_A_PROBE_MODULE] = { .type = NLA_NUL_STRING, .len = KPMOD_MAX_MODULE_LEN - 1 },
	[KPMOD_A_PROBE_OFFSET] = NLA_POLICY_FULL_RANGE(NLA_U64, &kpmod_offset_range),
	[KPMOD_A_PROBE_ADDR] = { .type = NLA_U64 },
	[KPMOD_A_PROBE_MAXACTIVE] = NLA_POLICY_MAX(NLA_U32, KPMOD_MAX_MAXACTIVE),
	[KPMOD_A_PROBE_DEFINITION] = { .type = NLA_NUL_STRING, .len = KPMOD_MAX_DEF_LEN - 1 },
	[KPMOD_A_PROBE_ARGS] = NLA_POLICY_NESTED_ARRAY(kpmod_arg_policy),
	[KPMOD_A_PROBE_ENABLED] = { .type = NLA_FLAG },
	[KPMOD_A_PROBE_HITS] = { .type = NLA_U64 },
	[KPMOD_A_PROBE_MISSES] = { .type = NLA_U64 },
	[KPMOD_A_PROBE_DROPPED] = { .type = NLA_U64 },
	[KPMOD_A_PROBE_GONE] = { .type = NLA_FLAG },
	[KPMOD_A_PROBE_ADDRESS] = { .type = NLA_U64 },
	[KPMOD_A_PROBE_ARGS_SIZE] = { .type = NLA_U32 },
	[KPMOD_A_ARG] = { .type = NLA_NESTED },
	[KPMOD_A_NR_POSSIBLE_CPUS] = { .type = NLA_U32 },
	[KPMOD_A_NR_SITES] = { .type = NLA_U32 },
	[KPMOD_A_BUF_LIMIT] = { .type = NLA_U64 },
	[KPMOD_A_SITE_TRAPS] = { .type = NLA_U64 },
	[KPMOD_A_PROBE_SELECT] = NLA_POLICY_NESTED_ARRAY(kpmod_sel_policy),
	/* Only inside PROBE_SELECT, whose policy checks it. */
	[KPMOD_A_SELECTOR] = { .type = NLA_REJECT },
	[KPMOD_A_FILTER_TEXT] = { .type = NLA_NUL_STRING, .len = KPMOD_MAX_FILTER_TEXT - 1 },
	[KPMOD_A_FILTER_PROG] = { .type = NLA_BINARY, .len = KPMOD_MAX_FILTER_PREDS *
							      sizeof(struct kpmod_filter_pred) },
	[KPMOD_A_FILTER_STRS] = { .type = NLA_BINARY, .len = KPMOD_MAX_FILTER_STRS },
	[KPMOD_A_PROBE_FILTERED] = { .type = NLA_U64 },
	[KPMOD_A_TRIGGER_TYPE] = NLA_POLICY_RANGE(NLA_U32, KPMOD_TRIGGER_TRACEON,
						  __KPMOD_TRIGGER_MAX - 1),
	[KPMOD_A_TRIGGER_TEXT] = { .type = NLA_NUL_STRING, .len = KPMOD_MAX_TRIGGER_TEXT - 1 },
	[KPMOD_A_TRIGGER_COUNT] = { .type = NLA_U32 },	/* checked by the handler */
	[KPMOD_A_TRIGGER_REMOVE] = { .type = NLA_FLAG },
	[KPMOD_A_TRIGGER_ID] = { .type = NLA_U32 },
	/* Replies only. */
	[KPMOD_A_TRIGGERS] = { .type = NLA_REJECT },
	[KPMOD_A_TRIGGER] = { .type = NLA_REJECT },
	[KPMOD_A_HIST_KEYS] = { .type = NLA_BINARY, .len = KPMOD_HIST_MAX_KEYS *
							    sizeof(struct kpmod_hist_field) },
	[KPMOD_A_HIST_VALS] = { .type = NLA_BINARY, .len = KPMOD_HIST_MAX_VALS *
							    sizeof(struct kpmod_hist_field) },
	[KPMOD_A_HIST_SIZE] = { .type = NLA_U32 },	/* range checked with the spec */
	[KPMOD_A_HIST_ACTION] = NLA_POLICY_MAX(NLA_U32, KPMOD_HIST_CLEAR),
	[KPMOD_A_HIST_NAME] = { .type = NLA_NUL_STRING, .len = KPMOD_HIST_NAME_MAX - 1 },
	[KPMOD_A_HIST_ENTRY] = { .type = NLA_REJECT },
	[KPMOD_A_HIST_HITS] = { .type = NLA_U64 },
	[KPMOD_A_HIST_DROPS] = { .type = NLA_U64 },
	[KPMOD_A_HIST_KEY_SIZE] = { .type = NLA_U32 },
	[KPMOD_A_TRACING_ON] = NLA_POLICY_MAX(NLA_U32, 1),
	[KPMOD_A_SNAPSHOTS] = { .type = NLA_REJECT },
	[KPMOD_A_SNAPSHOTS_SKIPPED] = { .type = NLA_REJECT },
	[KPMOD_A_TRIGGER_TARGET_GROUP] = { .type = NLA_NUL_STRING,
					   .len = KPMOD_MAX_NAME_LEN - 1 },
	[KPMOD_A_TRIGGER_TARGET_EVENT] = { .type = NLA_NUL_STRING,
					   .len = KPMOD_MAX_NAME_LEN - 1 },
	[KPMOD_A_PROBE_SOFT_DISABLED] = { .type = NLA_FLAG },
	[KPMOD_A_HIST_ENTRIES] = { .type = NLA_REJECT },
	[KPMOD_A_PROBE_PID_TREE] = NLA_POLICY_FULL_RANGE(NLA_U32, &kpmod_pid_range),
	[KPMOD_A_PROBE_ONE_SHOT] = { .type = NLA_FLAG },
	[KPMOD_A_PROBE_ADDED_BY] = { .type = NLA_REJECT },
	[KPMOD_A_PROBE_ENABLED_BY] = { .type = NLA_REJECT },
	[KPMOD_A_RINGS] = { .type = NLA_REJECT },
	[KPMOD_A_RING] = { .type = NLA_REJECT },
	[KPMOD_A_HIST_MEM] = { .type = NLA_REJECT },
	[KPMOD_A_HIST_LIMIT] = { .type = NLA_REJECT },
	[KPMOD_A_SYM_ADDRS] = { .type = NLA_BINARY, .len = KPMOD_SYM_BATCH * sizeof(u64) },
	[KPMOD_A_SYMS] = { .type = NLA_REJECT },
	[KPMOD_A_SYM_TEXT] = { .type = NLA_REJECT },
};

/*
 * GENL_ADMIN_PERM only asks for CAP_NET_ADMIN; reading kernel memory
 * through probes is CAP_SYS_ADMIN's business, as for kprobe_events.  Both
 * in the initial user namespace (netlink_capable()).
 */
bool kpmod_genl_allowed(struct sk_buff *skb, struct genl_info *info)
{
	if (netlink_capable(skb, CAP_SYS_ADMIN))
		return true;
	GENL_SET_ERR_MSG(info, "kpmod requires CAP_SYS_ADMIN as well as CAP_NET_ADMIN");
	return false;
}

/* As kprobe_events: no probe is registered or armed under lockdown. */
int kpmod_genl_lockdown(struct genl_info *info)
{
	int ret = security_locked_down(LOCKDOWN_KPROBES);

	if (ret)
		GENL_SET_ERR_MSG(info, "kernel lockdown (confidentiality) forbids kprobes");
	return ret;
}

/* A filter's three attributes, checked against @p; an ERR_PTR if bad. */
struct kpmod_filter *kpmod_genl_parse_filter(const struct kpmod_probe *p,
					     struct genl_info *info)
{
	struct nlattr **a = info->attrs;

	if (!a[KPMOD_A_FILTER_PROG] || !a[KPMOD_A_FILTER_TEXT]) {
		GENL_SET_ERR_MSG(info, "a filter needs its text and its program");
		return ERR_PTR(-EINVAL);
	}
	return kpmod_filter_build(&p->layout, nla_data(a[KPMOD_A_FILTER_TEXT]),
				  a[KPMOD_A_FILTER_PROG], a[KPMOD_A_FILTER_STRS], info->extack);
}

/*
 * A dump's first message is sized before the reader has read anything:
 * without this, a fresh socket's would be one page, too small for a probe
 * with all the limits allow (under 28 KiB).  Readers read with 32 KiB.
 */
int kpmod_genl_dump_start(struct netlink_callback *cb)
{
	cb->min_dump_alloc = KPMOD_DUMP_MSG_SIZE;
	return 0;
}

struct genl_family kpmod_genl_family __ro_after_init = {
	.name = KPMOD_GENL_NAME,
	.version = KPMOD_GENL_VERSION,
	.maxattr = KPMOD_A_MAX,
	.policy = kpmod_genl_policy,
	.netnsok = false,
	/*
	 * Not serialised by the genl core's one mutex (shared with every other
	 * family of the machine): kpmod_lock serialises what must be, and a
	 * request waiting for a grace period holds neither.
	 */
	.parallel_ops = true,
	.module = THIS_MODULE,
	/* Its ops, which name the handlers: genl.c, when it registers it. */
};

