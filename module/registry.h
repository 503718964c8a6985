/* SPDX-License-Identifier: GPL-2.0 */
/* The probe registry: adding, finding, arming, deleting (registry.c). */
#ifndef _KPMOD_REGISTRY_H
#define _KPMOD_REGISTRY_H

#include <linux/list.h>
#include <linux/netlink.h>

#include "probe.h"

struct kpmod_trigger;

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

/* Puts @t in force on @p, its target soft-disabled; arms both. On error @t is the caller's. */
int kpmod_trigger_attach(struct kpmod_probe *p, struct kpmod_trigger *t);
/*
 * Removing a trigger takes two steps, so that no other request waits for
 * the grace period between them: kpmod_trigger_unlink() takes @t off @p
 * and disarms @p if nothing else needs it (kpmod_lock held); then
 * kpmod_trigger_release() waits until no handler runs @t, puts its
 * target's soft state back and frees it (kpmod_lock not held: it takes it).
 */
void kpmod_trigger_unlink(struct kpmod_probe *p, struct kpmod_trigger *t);
void kpmod_trigger_release(struct kpmod_trigger *t);

#endif /* _KPMOD_REGISTRY_H */
