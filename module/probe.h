/* SPDX-License-Identifier: GPL-2.0 */
/* Probes: the registry, and the handlers that turn a hit into a record. */
#ifndef _KPMOD_PROBE_H
#define _KPMOD_PROBE_H

#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/netlink.h>

#include "fetch.h"
#include "kpmod.h"
#include "filter.h"
#include "layout.h"
#include "trigger.h"
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

struct kpmod_probe *kpmod_probe_alloc(u32 nargs);
void kpmod_probe_free(struct kpmod_probe *p);
/* Lays out the slots, then registers (disabled); kpmod_lock held. */
int kpmod_probe_register(struct kpmod_probe *p, struct netlink_ext_ack *extack);
/*
 * The same for a uprobe, its file already looked up (kpmod_uprobe_init(),
 * outside kpmod_lock): it is registered with the kernel when armed.
 */
int kpmod_probe_register_user(struct kpmod_probe *p, struct netlink_ext_ack *extack);
/* kpmod_lock held. */
struct kpmod_probe *kpmod_probe_find(const char *group, const char *event);
/* -EBUSY, the reason in @extack, while enabled, with triggers or switched by one. */
int kpmod_probe_busy(const struct kpmod_probe *p, struct netlink_ext_ack *extack);
/*
 * Deleting takes two steps.  Under kpmod_lock, kpmod_probe_unlist() moves
 * a probe that is not busy (so disarmed) from the registry to @doomed: no
 * request finds it any more.  Then, without the lock, kpmod_probes_release()
 * unregisters the whole list at once, which waits for a grace period, and
 * frees it: no other request waits for that.  kpmod_probe_delete() does
 * both, under the lock, for the rare path that must.
 */
void kpmod_probe_unlist(struct kpmod_probe *p, struct list_head *doomed);
void kpmod_probes_release(struct list_head *doomed);
int kpmod_probe_delete(struct kpmod_probe *p, struct netlink_ext_ack *extack);
int kpmod_probe_enable(struct kpmod_probe *p, bool on);
/* Arms or disarms the kprobe as enabling, triggers and targets need it. */
int kpmod_probe_arm(struct kpmod_probe *p);
/* Whether any probe's kprobe fires. */
bool kpmod_probes_any_armed(void);
/* Every probe to @doomed (kpmod_probe_unlist()), or none if one is busy. */
int kpmod_probes_clear(struct list_head *doomed, struct netlink_ext_ack *extack);
bool kpmod_probes_any_enabled(void);
unsigned int kpmod_nr_probes(void);
u64 kpmod_probe_misses(struct kpmod_probe *p);
/* The per-CPU counters, summed. */
void kpmod_probe_counters(struct kpmod_probe *p, struct kpmod_probe_stats *sum);
/* Puts @f in force (NULL: none) once no handler can see the old one; kpmod_lock held. */
void kpmod_probe_set_filter(struct kpmod_probe *p, struct kpmod_filter *f);
/* The filter in force, or NULL; kpmod_lock held. */
struct kpmod_filter *kpmod_probe_filter(struct kpmod_probe *p);
bool kpmod_probe_gone(struct kpmod_probe *p);
unsigned long kpmod_probe_address(struct kpmod_probe *p);
/* What the kernel chose for a return probe (its default when 0 was asked). */
u32 kpmod_probe_maxactive(struct kpmod_probe *p);
/* Unregisters and frees every probe; on module exit. */
void kpmod_probes_exit(void);

extern struct list_head kpmod_probes;

#endif /* _KPMOD_PROBE_H */
