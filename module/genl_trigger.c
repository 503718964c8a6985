// SPDX-License-Identifier: GPL-2.0
/*
 * The trigger commands: adding and removing a probe's triggers, reading
 * a hist table, and turning the rings on and off.  Every change is made
 * under kpmod_lock, whole or not at all.
 */
#include <linux/err.h>
#include <linux/slab.h>
#include <net/genetlink.h>

#include "genl_common.h"
#include "genl_trigger.h"
#include "hist.h"
#include "kpmod.h"
#include "probe.h"
#include "registry.h"
#include "snapshot.h"
#include "trigger.h"

/* Attributes that belong to one type of trigger only. */
static bool kpmod_trigger_stray(struct nlattr **a, u32 type)
{
	bool hist = type == KPMOD_TRIGGER_HIST;
	bool switches = type == KPMOD_TRIGGER_ENABLE_EVENT || type == KPMOD_TRIGGER_DISABLE_EVENT;

	if (!hist && (a[KPMOD_A_HIST_KEYS] || a[KPMOD_A_HIST_VALS] || a[KPMOD_A_HIST_SIZE] ||
		      a[KPMOD_A_HIST_ACTION] || a[KPMOD_A_HIST_NAME]))
		return true;
	if (hist && a[KPMOD_A_TRIGGER_COUNT])
		return true;
	return !switches && (a[KPMOD_A_TRIGGER_TARGET_GROUP] || a[KPMOD_A_TRIGGER_TARGET_EVENT]);
}

/* A new trigger from the request; an ERR_PTR, the reason in extack, if bad. */
static struct kpmod_trigger *kpmod_genl_build_trigger(struct kpmod_probe *p, u32 type,
						      struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct kpmod_trigger *t;
	u32 count = KPMOD_TRIGGER_UNLIMITED;
	int ret = -ENOMEM;

	if (a[KPMOD_A_TRIGGER_COUNT]) {
		count = nla_get_u32(a[KPMOD_A_TRIGGER_COUNT]);
		if (count > INT_MAX && count != KPMOD_TRIGGER_UNLIMITED) {
			NL_SET_ERR_MSG_ATTR(info->extack, a[KPMOD_A_TRIGGER_COUNT],
					    "count too large");
			return ERR_PTR(-ERANGE);
		}
	}
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return ERR_PTR(-ENOMEM);
	t->type = type;
	atomic_set(&t->count, count == KPMOD_TRIGGER_UNLIMITED ? -1 : count);
	t->text = nla_strdup(a[KPMOD_A_TRIGGER_TEXT], GFP_KERNEL);
	if (!t->text)
		goto fail;
	if (a[KPMOD_A_FILTER_PROG] || a[KPMOD_A_FILTER_TEXT] || a[KPMOD_A_FILTER_STRS]) {
		t->filter = kpmod_genl_parse_filter(p, info);
		if (IS_ERR(t->filter)) {
			ret = PTR_ERR(t->filter);
			t->filter = NULL;
			goto fail;
		}
	}
	if (type == KPMOD_TRIGGER_HIST) {
		struct kpmod_hist_req req = {
			.keys = a[KPMOD_A_HIST_KEYS], .vals = a[KPMOD_A_HIST_VALS],
			.size = a[KPMOD_A_HIST_SIZE], .name = a[KPMOD_A_HIST_NAME], .text = t->text,
		};
		const char *shared;

		t->hist = kpmod_hist_create(&p->layout, &req, info->extack);
		if (IS_ERR(t->hist)) {
			ret = PTR_ERR(t->hist);
			t->hist = NULL;
			goto fail;
		}
		/* A named hist lists as its table's first (its size=, say). */
		shared = kpmod_hist_text(t->hist);
		if (shared && strcmp(shared, t->text)) {
			kfree(t->text);
			t->text = kstrdup(shared, GFP_KERNEL);
			if (!t->text)
				goto fail;
		}
		if (a[KPMOD_A_HIST_ACTION] &&
		    nla_get_u32(a[KPMOD_A_HIST_ACTION]) == KPMOD_HIST_PAUSE)
			t->hist->paused = true;
	} else if (type == KPMOD_TRIGGER_ENABLE_EVENT || type == KPMOD_TRIGGER_DISABLE_EVENT) {
		if (!a[KPMOD_A_TRIGGER_TARGET_GROUP] || !a[KPMOD_A_TRIGGER_TARGET_EVENT]) {
			GENL_SET_ERR_MSG(info, "enable_event and disable_event need their target");
			ret = -EINVAL;
			goto fail;
		}
		t->target = kpmod_probe_find(nla_data(a[KPMOD_A_TRIGGER_TARGET_GROUP]),
					     nla_data(a[KPMOD_A_TRIGGER_TARGET_EVENT]));
		if (!t->target) {
			NL_SET_ERR_MSG_ATTR(info->extack, a[KPMOD_A_TRIGGER_TARGET_EVENT],
					    "no such event to switch");
			ret = -ENOENT;
			goto fail;
		}
	}
	return t;
fail:
	kpmod_trigger_free(t);
	return ERR_PTR(ret);
}

/*
 * Puts @t in force on @p: a snapshot trigger has the rings' copies first,
 * made here, last, and freed again if @t is refused after all (no
 * snapshot trigger had them: the first one makes them).  On error @t is
 * still the caller's.
 */
static int kpmod_genl_attach_trigger(struct kpmod_probe *p, struct kpmod_trigger *t,
				     struct genl_info *info)
{
	bool had_copies = kpmod_snapshot_prepared();
	int ret;

	if (t->type == KPMOD_TRIGGER_SNAPSHOT) {
		ret = kpmod_snapshot_prepare(info->extack);
		if (ret)
			return ret;
	}
	ret = kpmod_trigger_attach(p, t);
	if (ret) {
		GENL_SET_ERR_MSG(info, "the kernel refused to arm the probe; nothing changed");
		if (!had_copies)
			kpmod_snapshot_free();
	}
	return ret;
}

int kpmod_genl_trigger(struct sk_buff *skb, struct genl_info *info)
{
	struct kpmod_hist_store *clearing = NULL;
	struct kpmod_trigger *t, *removed = NULL;
	struct nlattr **a = info->attrs;
	struct kpmod_probe *p;
	u32 type, action;
	bool remove;
	int ret;

	if (!kpmod_genl_allowed(skb, info))
		return -EPERM;
	if (!a[KPMOD_A_PROBE_GROUP] || !a[KPMOD_A_PROBE_EVENT] || !a[KPMOD_A_TRIGGER_TYPE] ||
	    !a[KPMOD_A_TRIGGER_TEXT] || !nla_len(a[KPMOD_A_TRIGGER_TEXT]) ||
	    !*(char *)nla_data(a[KPMOD_A_TRIGGER_TEXT])) {
		GENL_SET_ERR_MSG(info, "a trigger names its probe, its type and its text");
		return -EINVAL;
	}
	type = nla_get_u32(a[KPMOD_A_TRIGGER_TYPE]);
	remove = nla_get_flag(a[KPMOD_A_TRIGGER_REMOVE]);
	action = a[KPMOD_A_HIST_ACTION] ? nla_get_u32(a[KPMOD_A_HIST_ACTION]) : KPMOD_HIST_NONE;
	if (kpmod_trigger_stray(a, type) || (remove && action)) {
		GENL_SET_ERR_MSG(info, "an attribute this trigger does not take");
		return -EINVAL;
	}
	if (!remove) {
		/* A trigger arms its probe: as enabling it. */
		ret = kpmod_genl_lockdown(info);
		if (ret)
			return ret;
	}

	mutex_lock(&kpmod_lock);
	p = kpmod_probe_find(nla_data(a[KPMOD_A_PROBE_GROUP]), nla_data(a[KPMOD_A_PROBE_EVENT]));
	if (!p) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[KPMOD_A_PROBE_EVENT], "no such event");
		ret = -ENOENT;
		goto out;
	}
	t = kpmod_trigger_find(p, type, nla_data(a[KPMOD_A_TRIGGER_TEXT]),
			       a[KPMOD_A_FILTER_TEXT] ? nla_data(a[KPMOD_A_FILTER_TEXT]) : NULL);
	if (remove) {
		if (t)
			kpmod_trigger_unlink(p, t);
		else
			GENL_SET_ERR_MSG(info, "no such trigger");
		removed = t;
		ret = t ? 0 : -ENOENT;
		goto out;
	}
	if (t && type == KPMOD_TRIGGER_HIST && action) {
		if (action == KPMOD_HIST_CLEAR)
			clearing = kpmod_hist_clear_begin(t->hist);
		else
			WRITE_ONCE(t->hist->paused, action == KPMOD_HIST_PAUSE);
		kpmod_probes_changed();
		ret = 0;
		goto out;
	}
	if (t) {
		if (type == KPMOD_TRIGGER_HIST)
			GENL_SET_ERR_MSG(info, "Hist trigger already exists");
		else
			GENL_SET_ERR_MSG(info, "the event has this trigger already");
		ret = -EEXIST;
		goto out;
	}
	if (action == KPMOD_HIST_CONT || action == KPMOD_HIST_CLEAR) {
		GENL_SET_ERR_MSG(info, "Can't clear or continue a nonexistent hist trigger");
		ret = -ENOENT;
		goto out;
	}
	if (kpmod_probe_gone(p)) {
		GENL_SET_ERR_MSG(info, "the probed module is gone: delete the probe");
		ret = -ENOENT;
		goto out;
	}
	if (p->ntriggers >= KPMOD_MAX_TRIGGERS) {
		GENL_SET_ERR_MSG(info, "too many triggers on this event (16)");
		ret = -ENOSPC;
		goto out;
	}
	t = kpmod_genl_build_trigger(p, type, info);
	if (IS_ERR(t)) {
		ret = PTR_ERR(t);
		goto out;
	}
	if (kpmod_triggers_text(p) + kpmod_trigger_text_bytes(t) > KPMOD_MAX_TRIGGERS_TEXT) {
		/* So that the probe with all it holds fits one message of a dump. */
		GENL_SET_ERR_MSG(info, "the event's triggers would hold over 8 KiB of text");
		kpmod_trigger_free(t);
		ret = -ENOSPC;
		goto out;
	}
	t->id = ++p->next_trigger_id;
	ret = kpmod_genl_attach_trigger(p, t, info);
	if (ret)
		kpmod_trigger_free(t);
out:
	mutex_unlock(&kpmod_lock);
	/* The grace period a removal or a clear needs, waited for without the lock. */
	if (removed)
		kpmod_trigger_release(removed);
	if (clearing) {
		synchronize_rcu();
		mutex_lock(&kpmod_lock);
		kpmod_hist_clear_end(clearing);
		mutex_unlock(&kpmod_lock);
	}
	return ret;
}

static int kpmod_genl_put_trigger(struct sk_buff *skb, struct kpmod_trigger *t)
{
	struct nlattr *nest = nla_nest_start(skb, KPMOD_A_TRIGGER);
	int count = atomic_read(&t->count);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, KPMOD_TRIG_A_ID, t->id) ||
	    nla_put_u32(skb, KPMOD_TRIG_A_TYPE, t->type) ||
	    nla_put_string(skb, KPMOD_TRIG_A_TEXT, t->text) ||
	    nla_put_u32(skb, KPMOD_TRIG_A_COUNT, count < 0 ? KPMOD_TRIGGER_UNLIMITED : count) ||
	    (t->filter && nla_put_string(skb, KPMOD_TRIG_A_FILTER, t->filter->text)))
		goto full;
	if (t->hist) {
		struct kpmod_hist_table *table = kpmod_hist_table(t->hist);

		if ((t->hist->paused && nla_put_flag(skb, KPMOD_TRIG_A_PAUSED)) ||
		    nla_put_u64_64bit(skb, KPMOD_TRIG_A_HITS, atomic64_read(&table->hits),
				      KPMOD_TRIG_A_UNSPEC) ||
		    nla_put_u64_64bit(skb, KPMOD_TRIG_A_DROPS, atomic64_read(&table->drops),
				      KPMOD_TRIG_A_UNSPEC) ||
		    nla_put_u32(skb, KPMOD_TRIG_A_ENTRIES, kpmod_hist_entries(table)) ||
		    nla_put_u32(skb, KPMOD_TRIG_A_KEY_SIZE, t->hist->key_size))
			goto full;
	}
	nla_nest_end(skb, nest);
	return 0;
full:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

int kpmod_genl_put_triggers(struct sk_buff *skb, struct kpmod_probe *p)
{
	struct kpmod_trigger *t;
	struct nlattr *nest;

	if (!p->ntriggers)
		return 0;
	nest = nla_nest_start(skb, KPMOD_A_TRIGGERS);
	if (!nest)
		return -EMSGSIZE;
	list_for_each_entry(t, &p->triggers, node)
		if (kpmod_genl_put_trigger(skb, t))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* kpmod_lock held: the hist trigger a dump names, or NULL. */
static struct kpmod_trigger *kpmod_genl_hist_of(struct nlattr **a)
{
	struct kpmod_probe *p;
	struct kpmod_trigger *t;

	p = kpmod_probe_find(nla_data(a[KPMOD_A_PROBE_GROUP]), nla_data(a[KPMOD_A_PROBE_EVENT]));
	t = p ? kpmod_trigger_by_id(p, nla_get_u32(a[KPMOD_A_TRIGGER_ID])) : NULL;
	return t && t->hist ? t : NULL;
}

/*
 * A read that clears: the table in force is taken out of use (an empty one
 * goes in its place) into cb->args[2], read from there once no handler is
 * in an update of it, and dropped by kpmod_genl_hist_done(); cb->args[3]:
 * its hist's kpmod_hist_serial().
 */
static int kpmod_genl_hist_take(struct nlattr **a, struct netlink_callback *cb)
{
	struct kpmod_hist_table *old;
	struct kpmod_trigger *t;

	mutex_lock(&kpmod_lock);
	t = kpmod_genl_hist_of(a);
	old = t ? kpmod_hist_swap(t->hist) : ERR_PTR(-ENOENT);
	if (!IS_ERR(old))
		cb->args[3] = kpmod_hist_serial(t->hist);
	mutex_unlock(&kpmod_lock);
	if (IS_ERR(old)) {
		if (PTR_ERR(old) == -ENOENT)
			NL_SET_ERR_MSG(cb->extack, "no such hist trigger");
		else if (PTR_ERR(old) == -E2BIG)
			NL_SET_ERR_MSG(cb->extack,
				       "hist tables would exceed the module's limit (module parameter max_hist_mb): a read that clears takes a second table");
		return PTR_ERR(old);
	}
	cb->args[2] = (unsigned long)old;
	synchronize_rcu();
	return 0;
}

int kpmod_genl_hist_done(struct netlink_callback *cb)
{
	if (cb->args[2]) {
		mutex_lock(&kpmod_lock);
		kpmod_hist_table_drop((struct kpmod_hist_table *)cb->args[2]);
		mutex_unlock(&kpmod_lock);
		cb->args[2] = 0;
	}
	return 0;
}

/*
 * One hist table, as many messages as it takes.  cb->args[0]: the next
 * slot to look at; cb->args[1]: 1 once the last slot was sent.  A table
 * cleared meanwhile marks the dump interrupted, one removed ends it with
 * ENOENT: a reader never takes a mix of two tables for one.  With
 * KPMOD_A_HIST_ACTION CLEAR, the table read is the one taken out of use
 * at the start (kpmod_genl_hist_take()): every hit is in one read.
 */
int kpmod_genl_hist_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **a = kpmod_dump_attrs(cb);
	struct kpmod_hist_table *table;
	struct kpmod_trigger *t;
	struct nlattr *nest;
	void *hdr;
	int ret;

	if (!netlink_capable(cb->skb, CAP_SYS_ADMIN))
		return -EPERM;
	if (cb->args[1])
		return 0;
	if (!a[KPMOD_A_PROBE_GROUP] || !a[KPMOD_A_PROBE_EVENT] || !a[KPMOD_A_TRIGGER_ID]) {
		NL_SET_ERR_MSG(cb->extack, "name the probe and the trigger's id");
		return -EINVAL;
	}
	if (a[KPMOD_A_HIST_ACTION] && nla_get_u32(a[KPMOD_A_HIST_ACTION]) != KPMOD_HIST_CLEAR) {
		NL_SET_ERR_MSG_ATTR(cb->extack, a[KPMOD_A_HIST_ACTION],
				    "a hist read can only clear");
		return -EINVAL;
	}
	if (a[KPMOD_A_HIST_ACTION] && !cb->args[2]) {
		ret = kpmod_genl_hist_take(a, cb);
		if (ret)
			return ret;
	}
	mutex_lock(&kpmod_lock);
	t = kpmod_genl_hist_of(a);
	/* Gone, or another hist with its id since the table was taken. */
	if (!t || (cb->args[2] && kpmod_hist_serial(t->hist) != cb->args[3])) {
		mutex_unlock(&kpmod_lock);
		NL_SET_ERR_MSG(cb->extack, "no such hist trigger");
		return -ENOENT;
	}
	table = cb->args[2] ? (struct kpmod_hist_table *)cb->args[2] : kpmod_hist_table(t->hist);
	/* A clear meanwhile: this message says NLM_F_DUMP_INTR, read it again. */
	cb->seq = (unsigned int)table->gen;
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &kpmod_genl_family, NLM_F_MULTI, KPMOD_CMD_HIST_GET);
	if (!hdr) {
		ret = -EMSGSIZE;
		goto out;
	}
	genl_dump_check_consistent(cb, hdr);
	if (nla_put_u32(skb, KPMOD_A_TRIGGER_ID, t->id) ||
	    nla_put_u64_64bit(skb, KPMOD_A_HIST_HITS, atomic64_read(&table->hits),
			      KPMOD_A_UNSPEC) ||
	    nla_put_u64_64bit(skb, KPMOD_A_HIST_DROPS, atomic64_read(&table->drops),
			      KPMOD_A_UNSPEC) ||
	    nla_put_u32(skb, KPMOD_A_HIST_KEY_SIZE, kpmod_hist_key_size(table))) {
		genlmsg_cancel(skb, hdr);
		ret = -EMSGSIZE;
		goto out;
	}
	nest = nla_nest_start(skb, KPMOD_A_HIST_ENTRIES);
	if (!nest) {
		genlmsg_cancel(skb, hdr);
		ret = -EMSGSIZE;
		goto out;
	}
	/* Whole entries only: the nest ends after the last that fit. */
	if (!kpmod_hist_put_entries(skb, table, &cb->args[0]))
		cb->args[1] = 1;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	ret = 0;
out:
	mutex_unlock(&kpmod_lock);
	if (ret && !skb->len)
		return ret;
	return skb->len;
}

int kpmod_genl_tracing(struct sk_buff *skb, struct genl_info *info)
{
	if (!kpmod_genl_allowed(skb, info))
		return -EPERM;
	if (!info->attrs[KPMOD_A_TRACING_ON]) {
		GENL_SET_ERR_MSG(info, "say whether tracing is on");
		return -EINVAL;
	}
	kpmod_tracing_set(nla_get_u32(info->attrs[KPMOD_A_TRACING_ON]));
	return 0;
}
