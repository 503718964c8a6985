/* SPDX-License-Identifier: GPL-2.0 */
/* The snapshot trigger: a copy of every CPU's ring at one moment. */
#ifndef _KPMOD_SNAPSHOT_H
#define _KPMOD_SNAPSHOT_H

#include <linux/types.h>

struct kpmod_ring;
struct netlink_ext_ack;

/* Handler context: marks every ring now; a worker copies them soon after. */
void kpmod_snapshot_take(void);

/* kpmod_lock held for all below. */
/* Allocates the copies, if not yet: a snapshot trigger is being added. */
int kpmod_snapshot_prepare(struct netlink_ext_ack *extack);
/* Whether the copies are there. */
bool kpmod_snapshot_prepared(void);
/* Whether a reader holds one of the copies. */
bool kpmod_snapshot_attached(void);
/* Waits for a pending copy and frees the copies: on resize and exit. */
void kpmod_snapshot_free(void);
/* A reader's hold on @cpu's copy: -ENOENT if no snapshot has been taken. */
int kpmod_snapshot_attach(unsigned int cpu, struct kpmod_ring **ring);

/* A reader's file lets its copy go (any context a release runs in). */
void kpmod_snapshot_detach(struct kpmod_ring *ring);

/* Snapshots copied, and triggers that took none (one pending or being read). */
void kpmod_snapshot_stats(u64 *taken, u64 *skipped);

#endif /* _KPMOD_SNAPSHOT_H */
