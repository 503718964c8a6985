/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uprobes: a probe on an offset of a file, as uprobe_events' p: and r:
 * PATH:OFFSET[(REF_CTR_OFFSET)].  The file is held from add to delete;
 * the uprobe is registered with the kernel only while the probe is armed.
 */
#ifndef _KPMOD_UPROBE_H
#define _KPMOD_UPROBE_H

#include <linux/netlink.h>
#include <linux/path.h>
#include <linux/uprobes.h>

struct kpmod_uprobe {
	struct uprobe_consumer uc;
	struct path path;		/* held from add to delete */
	bool have_path;
	u64 ref_ctr_offset;		/* the marker's semaphore, or 0 */
	struct uprobe *uprobe;		/* what registering returned (6.12), or NULL */
	bool registered;
};

/*
 * Looks @path up and checks @offset (in the file) and the semaphore's
 * against it; kpmod_lock not needed.
 */
int kpmod_uprobe_init(struct kpmod_uprobe *up, u64 offset, const char *path,
		      struct netlink_ext_ack *extack);
/* Registers (@on) or unregisters the uprobe at @offset; kpmod_lock held. */
int kpmod_uprobe_arm(struct kpmod_uprobe *up, u64 offset, bool on);
/* Unregisters if armed and lets the file go (kpmod_lock held if registered). */
void kpmod_uprobe_release(struct kpmod_uprobe *up, u64 offset);

#endif /* _KPMOD_UPROBE_H */
