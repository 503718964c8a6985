// SPDX-License-Identifier: GPL-2.0
/*
 * The family's requests about probes, the rings and the module's state:
 * status, adding, deleting, enabling, filters, the buffer, the probe dump.
 * Every handler that changes state does so under kpmod_lock, all or
 * nothing.
 */
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/ctype.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/slab.h>
#include <linux/utsname.h>
#include <net/genetlink.h>

#include "fsite.h"
#include "genl_common.h"
#include "genl_probe.h"
#include "genl_trigger.h"
#include "hist.h"
#include "kpmod.h"
#include "probe.h"
#include "registry.h"
#include "ring.h"
#include "snapshot.h"
#include "trigger.h"

/* Every ring's counters; kpmod_lock held (resizing swaps the rings under it). */
static int kpmod_genl_put_rings(struct sk_buff *msg)
{
	struct nlattr *all, *one;
	unsigned int cpu;

	all = nla_nest_start(msg, KPMOD_A_RINGS);
	if (!all)
		return -EMSGSIZE;
	for_each_possible_cpu(cpu) {
		const struct kpmod_ring *ring = kpmod_ring_get(cpu);
		const struct kpmod_ring_meta *m;

		if (!ring)
			continue;
		m = ring->meta;
		one = nla_nest_start(msg, KPMOD_A_RING);
		if (!one || nla_put_u32(msg, KPMOD_RING_A_CPU, cpu) ||
		    nla_put_u64_64bit(msg, KPMOD_RING_A_EVENTS, READ_ONCE(m->events),
				      KPMOD_RING_A_UNSPEC) ||
		    nla_put_u64_64bit(msg, KPMOD_RING_A_LOST, READ_ONCE(m->lost),
				      KPMOD_RING_A_UNSPEC) ||
		    nla_put_u64_64bit(msg, KPMOD_RING_A_OVERWRITTEN, READ_ONCE(m->overwritten),
				      KPMOD_RING_A_UNSPEC) ||
		    nla_put_u64_64bit(msg, KPMOD_RING_A_NESTED, READ_ONCE(m->nested),
				      KPMOD_RING_A_UNSPEC))
			return -EMSGSIZE;
		nla_nest_end(msg, one);
	}
	nla_nest_end(msg, all);
	return 0;
}

int kpmod_genl_status(struct sk_buff *skb, struct genl_info *info)
{
	/* One nest of five counters per ring, padded u64s included. */
	size_t rings = nla_total_size(0) + num_possible_cpus() *
		       (nla_total_size(0) + nla_total_size(sizeof(u32)) +
			4 * nla_total_size_64bit(sizeof(u64)));
	u64 snapshots, skipped;
	struct sk_buff *msg;
	void *hdr;

	if (!kpmod_genl_allowed(skb, info))
		return -EPERM;
	kpmod_snapshot_stats(&snapshots, &skipped);

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE + rings, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	hdr = genlmsg_put_reply(msg, info, &kpmod_genl_family, 0,
				KPMOD_CMD_STATUS);
	if (!hdr)
		goto too_big;

	mutex_lock(&kpmod_lock);
	if (nla_put_string(msg, KPMOD_A_MODULE_VERSION, KPMOD_VERSION) ||
	    nla_put_u32(msg, KPMOD_A_UAPI_VERSION, KPMOD_UAPI_VERSION) ||
	    nla_put_string(msg, KPMOD_A_ARCH, kpmod_arch_name()) ||
	    nla_put_string(msg, KPMOD_A_KERNEL_RELEASE, init_utsname()->release) ||
	    nla_put_u32(msg, KPMOD_A_NR_CPUS, nr_cpu_ids) ||
	    nla_put_u32(msg, KPMOD_A_NR_POSSIBLE_CPUS, num_possible_cpus()) ||
	    nla_put_u32(msg, KPMOD_A_NR_ONLINE_CPUS, num_online_cpus()) ||
	    nla_put_u32(msg, KPMOD_A_NR_PROBES, kpmod_nr_probes()) ||
	    nla_put_u32(msg, KPMOD_A_MAX_PROBES, kpmod_max_probes) ||
	    nla_put_u64_64bit(msg, KPMOD_A_BUF_SIZE, kpmod_rings_size(), KPMOD_A_UNSPEC) ||
	    nla_put_u32(msg, KPMOD_A_BUF_MODE, kpmod_rings_mode()) ||
	    nla_put_u64_64bit(msg, KPMOD_A_BUF_LIMIT, kpmod_rings_limit(), KPMOD_A_UNSPEC) ||
	    nla_put_u32(msg, KPMOD_A_TRACING_ON, kpmod_tracing_is_on()) ||
	    nla_put_u64_64bit(msg, KPMOD_A_SNAPSHOTS, snapshots, KPMOD_A_UNSPEC) ||
	    nla_put_u64_64bit(msg, KPMOD_A_SNAPSHOTS_SKIPPED, skipped, KPMOD_A_UNSPEC) ||
	    nla_put_u64_64bit(msg, KPMOD_A_HIST_MEM, kpmod_hist_mem(), KPMOD_A_UNSPEC) ||
	    nla_put_u64_64bit(msg, KPMOD_A_HIST_LIMIT, kpmod_hist_limit(), KPMOD_A_UNSPEC) ||
	    kpmod_genl_put_rings(msg)) {
		mutex_unlock(&kpmod_lock);
		goto too_big;
	}
	mutex_unlock(&kpmod_lock);

	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

too_big:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

/* The kernel's is_good_name(): a C identifier. */
static bool kpmod_good_name(const char *name)
{
	if (!isalpha(*name) && *name != '_')
		return false;
	while (*++name)
		if (!isalnum(*name) && *name != '_')
			return false;
	return true;
}

static int kpmod_genl_parse_arg(struct kpmod_probe *p, unsigned int i,
				const struct nlattr *nest, struct genl_info *info)
{
	struct kpmod_fetch_insn insns[KPMOD_MAX_INSNS];
	struct nlattr *tb[KPMOD_ARG_A_MAX + 1];
	struct kpmod_arg *a = &p->layout.args[i];
	unsigned int j;
	int ret, len;

	ret = nla_parse_nested(tb, KPMOD_ARG_A_MAX, nest, kpmod_arg_policy,
			       info->extack);
	if (ret)
		return ret;
	if (!tb[KPMOD_ARG_A_TYPE] || !tb[KPMOD_ARG_A_PROG]) {
		NL_SET_ERR_MSG_ATTR(info->extack, nest, "argument needs a type and a program");
		return -EINVAL;
	}
	if (tb[KPMOD_ARG_A_NAME])
		nla_strscpy(a->name, tb[KPMOD_ARG_A_NAME], sizeof(a->name));
	else
		snprintf(a->name, sizeof(a->name), "arg%u", i + 1);
	if (!kpmod_good_name(a->name)) {
		NL_SET_ERR_MSG_ATTR(info->extack, nest, "bad argument name");
		return -EINVAL;
	}
	for (j = 0; j < i; j++) {
		if (!strcmp(p->layout.args[j].name, a->name)) {
			NL_SET_ERR_MSG_ATTR(info->extack, nest, "argument name used twice");
			return -EINVAL;
		}
	}
	a->type = nla_get_u32(tb[KPMOD_ARG_A_TYPE]);
	a->count = tb[KPMOD_ARG_A_COUNT] ? nla_get_u32(tb[KPMOD_ARG_A_COUNT]) : 0;
	if (tb[KPMOD_ARG_A_DATA]) {
		len = nla_len(tb[KPMOD_ARG_A_DATA]);
		if (len < 2 || memchr(nla_data(tb[KPMOD_ARG_A_DATA]), 0, len) !=
			       nla_data(tb[KPMOD_ARG_A_DATA]) + len - 1) {
			NL_SET_ERR_MSG_ATTR(info->extack, tb[KPMOD_ARG_A_DATA],
					    "immediate string must end in its only NUL");
			return -EINVAL;
		}
		memcpy(a->data, nla_data(tb[KPMOD_ARG_A_DATA]), len);
	}
	len = nla_len(tb[KPMOD_ARG_A_PROG]);
	if (len % sizeof(insns[0])) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[KPMOD_ARG_A_PROG],
				    "program length is not a whole number of insns");
		return -EINVAL;
	}
	/* Netlink data is only 4-byte aligned: copy before reading. */
	memcpy(insns, nla_data(tb[KPMOD_ARG_A_PROG]), len);
	ret = kpmod_fetch_prepare(a, insns, len / sizeof(insns[0]),
				  kpmod_probe_fetch_site(p), info->extack);
	if (ret && info->extack && !info->extack->bad_attr)
		info->extack->bad_attr = tb[KPMOD_ARG_A_PROG];
	return ret;
}

/*
 * A process id of the caller's pid namespace as the initial one numbers it
 * (what handlers compare with), or 0 if there is no such process.
 */
static u32 kpmod_pid_global(u32 vnr)
{
	struct pid *pid;
	u32 nr = 0;

	rcu_read_lock();
	pid = find_vpid(vnr);
	if (pid)
		nr = pid_nr(pid);
	rcu_read_unlock();
	return nr;
}

/*
 * The reverse, for replies: as is to a caller in the initial namespace (a
 * run that is gone keeps its number: that is how it is found), else the
 * caller's number for it, 0 if the caller cannot see it.
 */
static u32 kpmod_pid_for_caller(u32 nr)
{
	struct pid *pid;
	u32 vnr = 0;

	if (!nr || task_active_pid_ns(current) == &init_pid_ns)
		return nr;
	rcu_read_lock();
	pid = find_pid_ns(nr, &init_pid_ns);
	if (pid)
		vnr = pid_vnr(pid);
	rcu_read_unlock();
	return vnr;
}

/* KPMOD_A_PROBE_PID_TREE, in the initial namespace: 0 if absent, -ESRCH if no such process. */
static int kpmod_genl_pid_tree(struct genl_info *info, u32 *pid_tree)
{
	struct nlattr *a = info->attrs[KPMOD_A_PROBE_PID_TREE];

	*pid_tree = 0;
	if (!a || !nla_get_u32(a))
		return 0;
	*pid_tree = kpmod_pid_global(nla_get_u32(a));
	if (*pid_tree)
		return 0;
	NL_SET_ERR_MSG_ATTR(info->extack, a, "no such process for the pid tree");
	return -ESRCH;
}

/*
 * Where the probe goes: a kprobe's symbol (with its module and offset) or
 * address, a uprobe's file and offset (with its semaphore's offset).
 */
static int kpmod_genl_check_place(struct genl_info *info)
{
	struct nlattr **attrs = info->attrs;
	u32 kind = nla_get_u32(attrs[KPMOD_A_PROBE_KIND]);

	if (kind == KPMOD_PROBE_UPROBE || kind == KPMOD_PROBE_URETPROBE) {
		if (!attrs[KPMOD_A_PROBE_PATH] || !attrs[KPMOD_A_PROBE_OFFSET]) {
			GENL_SET_ERR_MSG(info, "a uprobe needs a file and an offset");
			return -EINVAL;
		}
		if (attrs[KPMOD_A_PROBE_SYMBOL] || attrs[KPMOD_A_PROBE_ADDR] ||
		    attrs[KPMOD_A_PROBE_MODULE] || attrs[KPMOD_A_PROBE_MAXACTIVE]) {
			GENL_SET_ERR_MSG(info,
					 "a uprobe takes no symbol, address, module or maxactive");
			return -EINVAL;
		}
		return 0;
	}
	if (attrs[KPMOD_A_PROBE_PATH] || attrs[KPMOD_A_PROBE_REF_CTR_OFFSET]) {
		GENL_SET_ERR_MSG(info, "a file and a semaphore are for uprobes");
		return -EINVAL;
	}
	if (!attrs[KPMOD_A_PROBE_SYMBOL] == !attrs[KPMOD_A_PROBE_ADDR]) {
		GENL_SET_ERR_MSG(info, "a probe needs either a symbol or an address");
		return -EINVAL;
	}
	return 0;
}

/* Builds a probe from the request; nothing is registered yet. */
static int kpmod_genl_parse_probe(struct genl_info *info, struct kpmod_probe **out)
{
	struct nlattr **attrs = info->attrs;
	struct kpmod_probe *p;
	struct nlattr *nest;
	unsigned int n = 0, i = 0;
	int rem, ret;

	if (!attrs[KPMOD_A_PROBE_GROUP] || !attrs[KPMOD_A_PROBE_EVENT] ||
	    !attrs[KPMOD_A_PROBE_KIND]) {
		GENL_SET_ERR_MSG(info, "a probe needs a group, an event name and a kind");
		return -EINVAL;
	}
	ret = kpmod_genl_check_place(info);
	if (ret)
		return ret;
	if (attrs[KPMOD_A_PROBE_ADDR] &&
	    (attrs[KPMOD_A_PROBE_MODULE] || attrs[KPMOD_A_PROBE_OFFSET])) {
		GENL_SET_ERR_MSG(info, "an address probe takes no module or offset");
		return -EINVAL;
	}
	if (attrs[KPMOD_A_PROBE_ARGS]) {
		nla_for_each_nested(nest, attrs[KPMOD_A_PROBE_ARGS], rem) {
			if (nla_type(nest) != KPMOD_A_ARG) {
				NL_SET_ERR_MSG_ATTR(info->extack, nest,
						    "ARGS holds only ARG nests");
				return -EINVAL;
			}
			if (++n > KPMOD_MAX_ARGS) {
				NL_SET_ERR_MSG_ATTR(info->extack, nest,
						    "too many arguments (max 128)");
				return -E2BIG;
			}
		}
	}

	p = kpmod_probe_alloc(n);
	if (!p)
		return -ENOMEM;
	nla_strscpy(p->group, attrs[KPMOD_A_PROBE_GROUP], sizeof(p->group));
	nla_strscpy(p->event, attrs[KPMOD_A_PROBE_EVENT], sizeof(p->event));
	if (!kpmod_good_name(p->group) || !kpmod_good_name(p->event)) {
		GENL_SET_ERR_MSG(info, "group and event names must be C identifiers");
		ret = -EINVAL;
		goto fail;
	}
	p->kind = nla_get_u32(attrs[KPMOD_A_PROBE_KIND]);
	p->layout.is_return = kpmod_probe_is_return(p);
	if (attrs[KPMOD_A_PROBE_SYMBOL])
		nla_strscpy(p->symbol, attrs[KPMOD_A_PROBE_SYMBOL], sizeof(p->symbol));
	if (attrs[KPMOD_A_PROBE_MODULE])
		nla_strscpy(p->module, attrs[KPMOD_A_PROBE_MODULE], sizeof(p->module));
	if (attrs[KPMOD_A_PROBE_ADDR])
		p->addr = nla_get_u64(attrs[KPMOD_A_PROBE_ADDR]);
	if (attrs[KPMOD_A_PROBE_OFFSET])
		p->offset = nla_get_u64(attrs[KPMOD_A_PROBE_OFFSET]);
	if (p->symbol[0] == '\0' && attrs[KPMOD_A_PROBE_SYMBOL]) {
		GENL_SET_ERR_MSG(info, "empty symbol");
		ret = -EINVAL;
		goto fail;
	}
	if (attrs[KPMOD_A_PROBE_REF_CTR_OFFSET])
		p->up.ref_ctr_offset = nla_get_u64(attrs[KPMOD_A_PROBE_REF_CTR_OFFSET]);
	if (p->kind == KPMOD_PROBE_RETURN && p->offset) {
		GENL_SET_ERR_MSG(info, "a return probe must sit at the function entry (offset 0)");
		ret = -EINVAL;
		goto fail;
	}
	if (attrs[KPMOD_A_PROBE_MAXACTIVE]) {
		if (p->kind != KPMOD_PROBE_RETURN) {
			GENL_SET_ERR_MSG(info, "maxactive is only for return probes");
			ret = -EINVAL;
			goto fail;
		}
		p->maxactive = nla_get_u32(attrs[KPMOD_A_PROBE_MAXACTIVE]);
	}
	if (attrs[KPMOD_A_PROBE_DEFINITION])
		p->definition = nla_strdup(attrs[KPMOD_A_PROBE_DEFINITION], GFP_KERNEL);
	else if (kpmod_probe_is_uprobe(p) && p->up.ref_ctr_offset)
		p->definition = kasprintf(GFP_KERNEL, "%c:%s/%s %s:0x%016llx(0x%llx)",
					  kpmod_probe_is_return(p) ? 'r' : 'p', p->group, p->event,
					  (char *)nla_data(attrs[KPMOD_A_PROBE_PATH]), p->offset,
					  p->up.ref_ctr_offset);
	else if (kpmod_probe_is_uprobe(p))
		p->definition = kasprintf(GFP_KERNEL, "%c:%s/%s %s:0x%016llx",
					  kpmod_probe_is_return(p) ? 'r' : 'p', p->group, p->event,
					  (char *)nla_data(attrs[KPMOD_A_PROBE_PATH]), p->offset);
	else
		p->definition = kasprintf(GFP_KERNEL, "%c:%s/%s %s",
					  kpmod_probe_is_return(p) ? 'r' : 'p',
					  p->group, p->event, p->symbol);
	if (!p->definition) {
		ret = -ENOMEM;
		goto fail;
	}
	if (attrs[KPMOD_A_PROBE_ARGS]) {
		nla_for_each_nested(nest, attrs[KPMOD_A_PROBE_ARGS], rem) {
			ret = kpmod_genl_parse_arg(p, i++, nest, info);
			if (ret)
				goto fail;
		}
	}
	/* A uprobe's file, looked up here: outside kpmod_lock, as it may block. */
	if (kpmod_probe_is_uprobe(p)) {
		ret = kpmod_uprobe_init(&p->up, p->offset, nla_data(attrs[KPMOD_A_PROBE_PATH]),
					info->extack);
		if (ret)
			goto fail;
	}
	/* A one-shot run's, in force from the first hit too. */
	ret = kpmod_genl_pid_tree(info, &p->pid_tree);
	if (ret)
		goto fail;
	if (attrs[KPMOD_A_PROBE_ONE_SHOT]) {
		p->added_by = task_tgid_nr(current);
		if (attrs[KPMOD_A_PROBE_ENABLED])
			p->enabled_by = p->added_by;
	}
	/* A filter given with the probe is in force from its first hit. */
	if (attrs[KPMOD_A_FILTER_PROG] || attrs[KPMOD_A_FILTER_TEXT] ||
	    attrs[KPMOD_A_FILTER_STRS]) {
		struct kpmod_filter *f = kpmod_genl_parse_filter(p, info);

		if (IS_ERR(f)) {
			ret = PTR_ERR(f);
			goto fail;
		}
		RCU_INIT_POINTER(p->filter, f);
	}
	*out = p;
	return 0;
fail:
	kpmod_probe_free(p);
	return ret;
}

/*
 * The reply is built before anything is registered and sent under the
 * lock: if it cannot be sent, the probe is removed again before anyone can
 * see it, so an error always means nothing was added.
 */
int kpmod_genl_probe_add(struct sk_buff *skb, struct genl_info *info)
{
	struct kpmod_probe *p;
	struct sk_buff *msg;
	void *hdr;
	int ret;

	if (!kpmod_genl_allowed(skb, info))
		return -EPERM;
	ret = kpmod_genl_lockdown(info);
	if (ret)
		return ret;
	ret = kpmod_genl_parse_probe(info, &p);
	if (ret)
		return ret;
	msg = genlmsg_new(nla_total_size(sizeof(u32)), GFP_KERNEL);
	if (!msg) {
		kpmod_probe_free(p);
		return -ENOMEM;
	}
	hdr = genlmsg_put_reply(msg, info, &kpmod_genl_family, 0, KPMOD_CMD_PROBE_ADD);
	if (!hdr) {
		nlmsg_free(msg);
		kpmod_probe_free(p);
		return -EMSGSIZE;
	}

	mutex_lock(&kpmod_lock);
	if (kpmod_probe_is_uprobe(p))
		ret = kpmod_probe_register_user(p, info->extack);
	else
		ret = kpmod_probe_register(p, info->extack);
	if (ret) {
		mutex_unlock(&kpmod_lock);
		nlmsg_free(msg);
		kpmod_probe_free(p);
		return ret;
	}
	if (info->attrs[KPMOD_A_PROBE_ENABLED]) {
		ret = kpmod_probe_enable(p, true);
		if (ret)
			GENL_SET_ERR_MSG(info, "registered, but could not enable: removed again");
	}
	if (!ret && nla_put_u32(msg, KPMOD_A_PROBE_ID, p->id))
		ret = -EMSGSIZE;
	if (ret) {
		nlmsg_free(msg);
	} else {
		genlmsg_end(msg, hdr);
		ret = genlmsg_reply(msg, info);
		if (ret)
			GENL_SET_ERR_MSG(info, "could not send the reply: probe removed again");
	}
	if (ret) {
		kpmod_probe_enable(p, false);
		kpmod_probe_delete(p, NULL);
	}
	mutex_unlock(&kpmod_lock);
	return ret;
}

/* One selector of a PROBE_SELECT: NULL group or event matches any. */
struct kpmod_sel {
	const char *group;
	const char *event;
	const struct nlattr *nla;	/* for errors */
};

/* An absent or empty name matches any (an empty nest would not survive). */
static const char *kpmod_sel_name(const struct nlattr *nla)
{
	return nla && *(const char *)nla_data(nla) ? nla_data(nla) : NULL;
}

/* Parses KPMOD_A_PROBE_SELECT into a kmalloc'd array of @*n selectors. */
static int kpmod_genl_parse_select(struct genl_info *info, bool need_name,
				   struct kpmod_sel **out, unsigned int *n)
{
	struct nlattr *select = info->attrs[KPMOD_A_PROBE_SELECT];
	struct nlattr *tb[KPMOD_SEL_A_MAX + 1];
	struct kpmod_sel *sel;
	struct nlattr *nest;
	unsigned int i = 0;
	int rem, ret;

	*n = 0;
	if (!select) {
		GENL_SET_ERR_MSG(info, "name the probes (KPMOD_A_PROBE_SELECT)");
		return -EINVAL;
	}
	nla_for_each_nested(nest, select, rem) {
		if (nla_type(nest) != KPMOD_A_SELECTOR) {
			NL_SET_ERR_MSG_ATTR(info->extack, nest, "SELECT holds only SELECTOR nests");
			return -EINVAL;
		}
		(*n)++;
	}
	if (!*n || *n > KPMOD_MAX_SELECTORS) {
		NL_SET_ERR_MSG_ATTR(info->extack, select, "1 to 1024 selectors");
		return -EINVAL;
	}
	sel = kcalloc(*n, sizeof(*sel), GFP_KERNEL);
	if (!sel)
		return -ENOMEM;
	nla_for_each_nested(nest, select, rem) {
		ret = nla_parse_nested(tb, KPMOD_SEL_A_MAX, nest, kpmod_sel_policy,
				       info->extack);
		if (ret) {
			kfree(sel);
			return ret;
		}
		sel[i].group = kpmod_sel_name(tb[KPMOD_SEL_A_GROUP]);
		sel[i].event = kpmod_sel_name(tb[KPMOD_SEL_A_EVENT]);
		sel[i].nla = nest;
		if (need_name && !sel[i].event && !sel[i].group) {
			NL_SET_ERR_MSG_ATTR(info->extack, nest, "name the events to delete");
			kfree(sel);
			return -EINVAL;
		}
		i++;
	}
	*out = sel;
	return 0;
}

static bool kpmod_sel_matches(const struct kpmod_sel *s, const struct kpmod_probe *p)
{
	return (!s->group || !strcmp(s->group, p->group)) &&
	       (!s->event || !strcmp(s->event, p->event));
}

/* The first selector matching @p, or NULL. */
static const struct kpmod_sel *kpmod_sel_find(const struct kpmod_sel *sel,
					      unsigned int n,
					      const struct kpmod_probe *p)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (kpmod_sel_matches(&sel[i], p))
			return &sel[i];
	return NULL;
}

/*
 * Every selector names something, and a bare event name one probe only.
 * kpmod_lock held.
 */
static int kpmod_genl_check_select(struct genl_info *info,
				   const struct kpmod_sel *sel, unsigned int n)
{
	struct kpmod_probe *p;
	unsigned int i, count;

	for (i = 0; i < n; i++) {
		count = 0;
		list_for_each_entry(p, &kpmod_probes, node)
			count += kpmod_sel_matches(&sel[i], p);
		if (!count && sel[i].event) {
			NL_SET_ERR_MSG_ATTR(info->extack, sel[i].nla, "no such event");
			return -ENOENT;
		}
		if (!count) {
			NL_SET_ERR_MSG_ATTR(info->extack, sel[i].nla, "no matching event");
			return -ENOENT;
		}
		if (sel[i].event && !sel[i].group && count > 1) {
			NL_SET_ERR_MSG_ATTR(info->extack, sel[i].nla,
					    "the event exists in several groups: name its group");
			return -EINVAL;
		}
	}
	return 0;
}

int kpmod_genl_probe_del(struct sk_buff *skb, struct genl_info *info)
{
	const struct kpmod_sel *s;
	struct kpmod_probe *p, *tmp;
	struct kpmod_sel *sel;
	LIST_HEAD(doomed);
	unsigned int n;
	int ret;

	if (!kpmod_genl_allowed(skb, info))
		return -EPERM;
	ret = kpmod_genl_parse_select(info, true, &sel, &n);
	if (ret)
		return ret;
	mutex_lock(&kpmod_lock);
	ret = kpmod_genl_check_select(info, sel, n);
	list_for_each_entry(p, &kpmod_probes, node) {
		if (ret)
			break;
		s = kpmod_sel_find(sel, n, p);
		if (s)
			ret = kpmod_probe_busy(p, info->extack);
		if (ret && info->extack)
			info->extack->bad_attr = s->nla;
	}
	if (!ret) {
		list_for_each_entry_safe(p, tmp, &kpmod_probes, node)
			if (kpmod_sel_find(sel, n, p))
				kpmod_probe_unlist(p, &doomed);
	}
	mutex_unlock(&kpmod_lock);
	/* Gone from the registry: the wait for their handlers is this request's own. */
	kpmod_probes_release(&doomed);
	kfree(sel);
	return ret;
}

/*
 * Enables or disables every probe the selectors match, or none: on a
 * failure, exactly the probes this request changed are changed back.
 */
/* What undoing a PROBE_ENABLE or _DISABLE puts back. */
struct kpmod_changed {
	struct kpmod_probe *p;
	u32 pid_tree;
};

static int kpmod_genl_set_enabled(struct sk_buff *skb, struct genl_info *info,
				  bool on)
{
	struct kpmod_changed *changed = NULL;
	unsigned int n, nchanged = 0;
	const struct kpmod_sel *s;
	struct kpmod_probe *p;
	struct kpmod_sel *sel;
	u32 pid_tree = 0, run = 0;
	int ret;

	if (!kpmod_genl_allowed(skb, info))
		return -EPERM;
	if (on) {
		ret = kpmod_genl_lockdown(info);
		if (ret)
			return ret;
	}
	if (on) {
		ret = kpmod_genl_pid_tree(info, &pid_tree);
		if (ret)
			return ret;
	}
	if (on && info->attrs[KPMOD_A_PROBE_ONE_SHOT])
		run = task_tgid_nr(current);
	ret = kpmod_genl_parse_select(info, false, &sel, &n);
	if (ret)
		return ret;
	mutex_lock(&kpmod_lock);
	ret = kpmod_genl_check_select(info, sel, n);
	if (ret)
		goto out;
	changed = kmalloc_array(max(kpmod_nr_probes(), 1U), sizeof(*changed), GFP_KERNEL);
	if (!changed) {
		ret = -ENOMEM;
		goto out;
	}
	/* The ftrace sites of them all in one change, at the flush. */
	kpmod_fsite_batch();
	list_for_each_entry(p, &kpmod_probes, node) {
		s = kpmod_sel_find(sel, n, p);
		if (!s || p->enabled == on)
			continue;
		changed[nchanged] = (struct kpmod_changed){ p, p->pid_tree };
		/*
		 * Set before the probe records.  A probe a run added keeps the
		 * tree it was added with, whoever enables it.
		 */
		if (on && !p->added_by)
			WRITE_ONCE(p->pid_tree, pid_tree);
		ret = kpmod_probe_enable(p, on);
		if (ret == -ENOENT)
			NL_SET_ERR_MSG_ATTR(info->extack, s->nla,
					    "the probed module is gone: delete the probe");
		else if (ret)
			NL_SET_ERR_MSG_ATTR(info->extack, s->nla,
					    "the kernel refused to change this probe; nothing changed");
		if (ret) {
			WRITE_ONCE(p->pid_tree, changed[nchanged].pid_tree);
			break;
		}
		nchanged++;
	}
	if (ret) {
		kpmod_fsite_discard();
	} else {
		ret = kpmod_fsite_flush();
		if (ret)
			GENL_SET_ERR_MSG(info,
					 "the kernel refused to change the probes' ftrace sites; nothing changed");
	}
	/* Undo: a gone probe has nothing armed, only its flag to restore. */
	while (ret && nchanged--) {
		p = changed[nchanged].p;
		if (kpmod_probe_gone(p))
			WRITE_ONCE(p->enabled, !on);
		else if (kpmod_probe_enable(p, !on))
			GENL_SET_ERR_MSG(info, "failed, and a probe could not be restored");
		WRITE_ONCE(p->pid_tree, changed[nchanged].pid_tree);
	}
	/* Done: a one-shot run's marks, on exactly the probes it changed. */
	while (!ret && nchanged--) {
		p = changed[nchanged].p;
		p->enabled_by = run;
		if (!on && !p->added_by)
			WRITE_ONCE(p->pid_tree, 0);
	}
out:
	mutex_unlock(&kpmod_lock);
	kfree(changed);
	kfree(sel);
	return ret;
}

int kpmod_genl_enable(struct sk_buff *skb, struct genl_info *info)
{
	return kpmod_genl_set_enabled(skb, info, true);
}

int kpmod_genl_disable(struct sk_buff *skb, struct genl_info *info)
{
	return kpmod_genl_set_enabled(skb, info, false);
}

int kpmod_genl_clear(struct sk_buff *skb, struct genl_info *info)
{
	LIST_HEAD(doomed);
	int ret;

	if (!kpmod_genl_allowed(skb, info))
		return -EPERM;
	mutex_lock(&kpmod_lock);
	ret = kpmod_probes_clear(&doomed, info->extack);
	mutex_unlock(&kpmod_lock);
	kpmod_probes_release(&doomed);
	return ret;
}

int kpmod_genl_buffer_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *size = info->attrs[KPMOD_A_BUF_SIZE];
	struct nlattr *mode = info->attrs[KPMOD_A_BUF_MODE];
	struct kpmod_ring **old;
	u64 sz;
	int ret;

	if (!kpmod_genl_allowed(skb, info))
		return -EPERM;
	if (!size && !mode) {
		GENL_SET_ERR_MSG(info, "give a size, a mode, or both");
		return -EINVAL;
	}
	if (size && !kpmod_buf_size_valid(nla_get_u64(size))) {
		NL_SET_ERR_MSG_ATTR(info->extack, size,
				    "size must be a power of two from 64 KiB to 256 MiB");
		return -EINVAL;
	}
	if (size && nla_get_u64(size) * num_possible_cpus() > kpmod_rings_limit()) {
		NL_SET_ERR_MSG_ATTR(info->extack, size,
				    "all rings together would exceed the module's limit (max_buffer_mb)");
		return -E2BIG;
	}
	mutex_lock(&kpmod_lock);
	sz = size ? nla_get_u64(size) : kpmod_rings_size();
	if (kpmod_probes_any_armed()) {
		GENL_SET_ERR_MSG(info, "probes are enabled or have triggers: disable them first");
		ret = -EBUSY;
	} else if (kpmod_rings_attached() || kpmod_snapshot_attached()) {
		GENL_SET_ERR_MSG(info, "a reader has a ring open");
		ret = -EBUSY;
	} else {
		ret = kpmod_rings_replace(sz, mode ? nla_get_u32(mode) : kpmod_rings_mode(), &old);
		if (!ret) {
			/* A snapshot of the old rings goes too (after its copy). */
			kpmod_snapshot_free();
			kpmod_rings_free(old);
		}
	}
	mutex_unlock(&kpmod_lock);
	return ret;
}

static int kpmod_genl_put_arg(struct sk_buff *skb, const struct kpmod_arg *a)
{
	struct nlattr *nest = nla_nest_start(skb, KPMOD_A_ARG);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_string(skb, KPMOD_ARG_A_NAME, a->name) ||
	    nla_put_u32(skb, KPMOD_ARG_A_TYPE, a->type) ||
	    nla_put_u32(skb, KPMOD_ARG_A_COUNT, a->count) ||
	    nla_put_u32(skb, KPMOD_ARG_A_OFFSET, a->offset) ||
	    nla_put_u32(skb, KPMOD_ARG_A_SIZE, a->size)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int kpmod_genl_put_probe(struct sk_buff *skb, struct kpmod_probe *p)
{
	struct kpmod_filter *filter = kpmod_probe_filter(p);
	struct kpmod_probe_stats sum;
	struct nlattr *args;
	u32 i;

	kpmod_probe_counters(p, &sum);
	if (nla_put_u32(skb, KPMOD_A_PROBE_ID, p->id) ||
	    nla_put_string(skb, KPMOD_A_PROBE_GROUP, p->group) ||
	    nla_put_string(skb, KPMOD_A_PROBE_EVENT, p->event) ||
	    nla_put_u32(skb, KPMOD_A_PROBE_KIND, p->kind) ||
	    (p->symbol[0] && nla_put_string(skb, KPMOD_A_PROBE_SYMBOL, p->symbol)) ||
	    (p->module[0] && nla_put_string(skb, KPMOD_A_PROBE_MODULE, p->module)) ||
	    nla_put_u64_64bit(skb, KPMOD_A_PROBE_OFFSET, p->offset, KPMOD_A_UNSPEC) ||
	    nla_put_u64_64bit(skb, KPMOD_A_PROBE_ADDRESS, kpmod_probe_address(p),
			      KPMOD_A_UNSPEC) ||
	    nla_put_u32(skb, KPMOD_A_PROBE_MAXACTIVE, kpmod_probe_maxactive(p)) ||
	    nla_put_string(skb, KPMOD_A_PROBE_DEFINITION, p->definition) ||
	    (p->enabled && nla_put_flag(skb, KPMOD_A_PROBE_ENABLED)) ||
	    (kpmod_probe_gone(p) && nla_put_flag(skb, KPMOD_A_PROBE_GONE)) ||
	    nla_put_u64_64bit(skb, KPMOD_A_PROBE_HITS, sum.hits, KPMOD_A_UNSPEC) ||
	    nla_put_u64_64bit(skb, KPMOD_A_PROBE_MISSES, kpmod_probe_misses(p),
			      KPMOD_A_UNSPEC) ||
	    nla_put_u64_64bit(skb, KPMOD_A_PROBE_DROPPED, sum.dropped, KPMOD_A_UNSPEC) ||
	    nla_put_u64_64bit(skb, KPMOD_A_PROBE_FILTERED, sum.filtered, KPMOD_A_UNSPEC) ||
	    (filter && nla_put_string(skb, KPMOD_A_FILTER_TEXT, filter->text)) ||
	    nla_put_u32(skb, KPMOD_A_PROBE_ARGS_SIZE, p->fixed_size) ||
	    (p->soft_refs && p->soft_disabled &&
	     nla_put_flag(skb, KPMOD_A_PROBE_SOFT_DISABLED)) ||
	    (p->pid_tree && nla_put_u32(skb, KPMOD_A_PROBE_PID_TREE,
					kpmod_pid_for_caller(p->pid_tree))) ||
	    (p->added_by && nla_put_u32(skb, KPMOD_A_PROBE_ADDED_BY,
					kpmod_pid_for_caller(p->added_by))) ||
	    (p->enabled_by && nla_put_u32(skb, KPMOD_A_PROBE_ENABLED_BY,
					  kpmod_pid_for_caller(p->enabled_by))) ||
	    kpmod_genl_put_triggers(skb, p))
		return -EMSGSIZE;
	args = nla_nest_start(skb, KPMOD_A_PROBE_ARGS);
	if (!args)
		return -EMSGSIZE;
	for (i = 0; i < p->layout.nargs; i++)
		if (kpmod_genl_put_arg(skb, &p->layout.args[i]))
			return -EMSGSIZE;
	nla_nest_end(skb, args);
	return 0;
}

/* cb->args[0]: the id of the last probe sent; ids only grow. */
int kpmod_genl_probe_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct kpmod_probe *p;
	void *hdr;
	int ret = 0;

	if (!netlink_capable(cb->skb, CAP_SYS_ADMIN))
		return -EPERM;
	mutex_lock(&kpmod_lock);
	cb->seq = kpmod_probes_gen;
	list_for_each_entry(p, &kpmod_probes, node) {
		if (p->id <= cb->args[0])
			continue;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
				  &kpmod_genl_family, NLM_F_MULTI, KPMOD_CMD_PROBE_GET);
		if (!hdr) {
			ret = -EMSGSIZE;
			break;
		}
		genl_dump_check_consistent(cb, hdr);
		if (kpmod_genl_put_probe(skb, p)) {
			genlmsg_cancel(skb, hdr);
			ret = -EMSGSIZE;
			break;
		}
		genlmsg_end(skb, hdr);
		cb->args[0] = p->id;
	}
	mutex_unlock(&kpmod_lock);
	/* A probe that fits no message at all must end the dump, not loop it. */
	if (ret && !skb->len)
		return ret;
	return skb->len;
}

/* Sets, replaces or (with no program) clears one probe's filter. */
int kpmod_genl_probe_filter(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct kpmod_filter *f = NULL;
	struct kpmod_probe *p;
	int ret = 0;

	if (!kpmod_genl_allowed(skb, info))
		return -EPERM;
	if (!a[KPMOD_A_PROBE_GROUP] || !a[KPMOD_A_PROBE_EVENT]) {
		GENL_SET_ERR_MSG(info, "a filter is set on one probe: its group and event");
		return -EINVAL;
	}
	if (!a[KPMOD_A_FILTER_PROG] && (a[KPMOD_A_FILTER_TEXT] || a[KPMOD_A_FILTER_STRS])) {
		GENL_SET_ERR_MSG(info, "a filter needs its text and program, or neither (clear)");
		return -EINVAL;
	}

	mutex_lock(&kpmod_lock);
	p = kpmod_probe_find(nla_data(a[KPMOD_A_PROBE_GROUP]),
			     nla_data(a[KPMOD_A_PROBE_EVENT]));
	if (!p) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[KPMOD_A_PROBE_EVENT], "no such event");
		ret = -ENOENT;
		goto out;
	}
	if (a[KPMOD_A_FILTER_PROG]) {
		f = kpmod_genl_parse_filter(p, info);
		if (IS_ERR(f)) {
			ret = PTR_ERR(f);	/* the old filter stays */
			goto out;
		}
	}
	kpmod_probe_set_filter(p, f);
out:
	mutex_unlock(&kpmod_lock);
	return ret;
}
