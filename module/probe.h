/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a probe is: the model the registry (registry.h) keeps and the
 * handlers (hit.h) read.
 */
#ifndef _KPMOD_PROBE_H
#define _KPMOD_PROBE_H

#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/netlink.h>

#include "fetch.h"
#include "kpmod.h"
#include "filter.h"
#include "layout.h"
#include "uprobe.h"

struct kpmod_probe_stats {
	u64 hits;
	u64 dropped;
	u64 filtered;		/* hits its filter did not match */
};

struct kpmod_probe {
	struct list_head node;		/* in kpmod_probes, by id; kpmod_lock */
	u32 id;
	u32 kind;			/* enum kpmod_probe_kind */
	char group[KPMOD_MAX_NAME_LEN];
	char event[KPMOD_MAX_NAME_LEN];
	char symbol[KPMOD_MAX_SYMBOL_LEN];
	char module[KPMOD_MAX_MODULE_LEN];
	/* "module:symbol", what register_kprobe() looks up */
	char lookup[KPMOD_MAX_MODULE_LEN + KPMOD_MAX_SYMBOL_LEN];
	u64 offset;
	u64 addr;			/* absolute address, when no symbol */
	u32 maxactive;
	char *definition;
	bool enabled;			/* by hand: PROBE_ENABLE */
	bool armed;			/* the kprobe fires: enabled, or triggers need it */
	/* Armed through kpmod's ftrace sites (fsite.c) instead: wished, in force. */
	bool fsite_want;
	bool fsite_on;
	bool fsite_listed;		/* on fsite.c's list, by fsite_node */
	struct list_head fsite_node;
	bool registered;
	struct kretprobe rp;		/* rp.kp serves entry probes too */
	struct kpmod_uprobe up;		/* a uprobe's (offset: in its file) */
	/* What its records hold; args has layout.nargs entries. */
	struct kpmod_layout layout;
	u32 nentry;			/* $argN values captured at entry */
	u32 entry_arg[KPMOD_MAX_ARGS];	/* their N */
	bool has_duration;		/* $duration: the entry's time after them */
	u32 fixed_size;			/* argument slots bytes, 8-aligned */
	bool has_strings;		/* record length known only after fetching */
	u32 max_len;			/* the longest record this probe can write */
	/* Set and replaced under kpmod_lock; read by the handlers (RCU). */
	struct kpmod_filter __rcu *filter;
	struct kpmod_probe_stats __percpu *stats;
	/* Its triggers (RCU for handlers), and how many. */
	struct list_head triggers;
	u32 ntriggers;
	u32 next_trigger_id;
	/* enable_event/disable_event triggers that switch this probe. */
	u32 soft_refs;
	bool soft_disabled;		/* they switched it off */
	/* A one-shot run's (uapi KPMOD_A_PROBE_PID_TREE, _ONE_SHOT); kpmod_lock. */
	u32 pid_tree;			/* record only this tgid's descendants; 0: all */
	u32 added_by;			/* tgid of the run that added it, or 0 */
	u32 enabled_by;			/* tgid of the run that enabled it, or 0 */
};

static inline bool kpmod_probe_is_uprobe(const struct kpmod_probe *p)
{
	return p->kind == KPMOD_PROBE_UPROBE || p->kind == KPMOD_PROBE_URETPROBE;
}

/* Whether its events are a function's returns (kretprobe or uretprobe). */
static inline bool kpmod_probe_is_return(const struct kpmod_probe *p)
{
	return p->kind == KPMOD_PROBE_RETURN || p->kind == KPMOD_PROBE_URETPROBE;
}

/* Its fetch programs' enum kpmod_fetch_site. */
static inline unsigned int kpmod_probe_fetch_site(const struct kpmod_probe *p)
{
	return (kpmod_probe_is_return(p) ? KPMOD_FETCH_RETURN : 0) |
	       (kpmod_probe_is_uprobe(p) ? KPMOD_FETCH_USER : 0);
}

#endif /* _KPMOD_PROBE_H */
