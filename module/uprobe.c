// SPDX-License-Identifier: GPL-2.0
/*
 * uprobes.  As uprobe_events: a probe holds its file (path_get) from add
 * to delete, so the inode it names cannot go away under it; a file
 * replaced on disk by a new one (a package upgrade renames a new inode
 * into place) leaves the probe on the old inode, which only the processes
 * still running it execute.  The uprobe is registered while the probe is
 * armed and unregistered when it is disarmed, deleted, or the module
 * goes: on return no handler of ours runs any more (compat.h).
 */
#include <linux/fs.h>
#include <linux/namei.h>
#include <linux/uprobes.h>

#include "compat.h"
#include "uprobe.h"

#ifdef CONFIG_UPROBES

int kpmod_uprobe_init(struct kpmod_uprobe *up, u64 offset, const char *path,
		      struct netlink_ext_ack *extack)
{
	struct inode *inode;
	int ret;

	ret = kern_path(path, LOOKUP_FOLLOW, &up->path);
	if (ret) {
		NL_SET_ERR_MSG(extack, "no such file");
		return ret;
	}
	up->have_path = true;
	inode = d_inode(up->path.dentry);
	if (!inode || !S_ISREG(inode->i_mode)) {
		NL_SET_ERR_MSG(extack, "not a regular file");
		return -EINVAL;
	}
	/* What uprobe_register() would refuse later, refused at add. */
	if (offset >= i_size_read(inode) || up->ref_ctr_offset >= i_size_read(inode)) {
		NL_SET_ERR_MSG(extack, "offset beyond the end of the file");
		return -EINVAL;
	}
	if (!IS_ALIGNED(offset, UPROBE_SWBP_INSN_SIZE)) {
		NL_SET_ERR_MSG(extack, "offset not aligned to an instruction");
		return -EINVAL;
	}
	if (!IS_ALIGNED(up->ref_ctr_offset, sizeof(short))) {
		NL_SET_ERR_MSG(extack, "semaphore offset not aligned to its 2 bytes");
		return -EINVAL;
	}
	return 0;
}

int kpmod_uprobe_arm(struct kpmod_uprobe *up, u64 offset, bool on)
{
	int ret;

	if (on == up->registered)
		return 0;
	if (!on) {
		kpmod_uprobe_unregister(d_inode(up->path.dentry), offset, up->uprobe, &up->uc);
		up->registered = false;
		up->uprobe = NULL;
		return 0;
	}
	ret = kpmod_uprobe_register(d_inode(up->path.dentry), offset, up->ref_ctr_offset,
				    &up->uc, &up->uprobe);
	if (!ret)
		up->registered = true;
	return ret;
}

void kpmod_uprobe_release(struct kpmod_uprobe *up, u64 offset)
{
	if (up->registered)
		kpmod_uprobe_arm(up, offset, false);
	if (up->have_path)
		path_put(&up->path);
	up->have_path = false;
}

#else /* !CONFIG_UPROBES */

int kpmod_uprobe_init(struct kpmod_uprobe *up, u64 offset, const char *path,
		      struct netlink_ext_ack *extack)
{
	NL_SET_ERR_MSG(extack, "this kernel has no uprobes (CONFIG_UPROBES)");
	return -EOPNOTSUPP;
}

int kpmod_uprobe_arm(struct kpmod_uprobe *up, u64 offset, bool on)
{
	return on ? -EOPNOTSUPP : 0;
}

void kpmod_uprobe_release(struct kpmod_uprobe *up, u64 offset)
{
}

#endif
