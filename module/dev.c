// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/kpmod: readers bind a file to one CPU's ring (KPMOD_IOC_ATTACH) or
 * to its snapshot's copy (KPMOD_IOC_ATTACH_SNAPSHOT), map it (consumer
 * page writable, meta and data read-only), and poll it.
 */
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "kpmod.h"
#include "ring.h"
#include "snapshot.h"

/*
 * The rings hold kernel addresses and data: the same right as the control,
 * checked on every operation, not only at open, so a file passed to a
 * process without it (SCM_RIGHTS, an inherited descriptor after a
 * privilege drop) attaches and maps nothing.
 */
static bool kpmod_dev_allowed(void)
{
	return capable(CAP_SYS_ADMIN);
}

static int kpmod_dev_open(struct inode *inode, struct file *file)
{
	if (!kpmod_dev_allowed())
		return -EPERM;
	file->private_data = NULL;
	return nonseekable_open(inode, file);
}

static int kpmod_dev_release(struct inode *inode, struct file *file)
{
	struct kpmod_ring *ring = file->private_data;

	if (ring && ring->is_snapshot)
		kpmod_snapshot_detach(ring);
	else if (ring)
		atomic_set(&ring->attached, 0);
	return 0;
}

static long kpmod_dev_attach_snapshot(struct file *file, u32 __user *arg)
{
	struct kpmod_ring *ring;
	u32 cpu;
	long ret;

	if (get_user(cpu, arg))
		return -EFAULT;
	mutex_lock(&kpmod_lock);
	ret = file->private_data ? -EINVAL : kpmod_snapshot_attach(cpu, &ring);
	if (!ret)
		file->private_data = ring;
	mutex_unlock(&kpmod_lock);
	return ret;
}

static long kpmod_dev_attach(struct file *file, u32 __user *arg)
{
	struct kpmod_ring *ring;
	u32 cpu;
	long ret = 0;

	if (get_user(cpu, arg))
		return -EFAULT;
	/* Serialises with a resize, which swaps the rings under kpmod_lock. */
	mutex_lock(&kpmod_lock);
	if (file->private_data) {
		ret = -EINVAL;
		goto out;
	}
	ring = kpmod_ring_get(cpu);
	if (!ring) {
		ret = -ENXIO;
		goto out;
	}
	if (atomic_cmpxchg(&ring->attached, 0, 1) != 0) {
		ret = -EBUSY;
		goto out;
	}
	file->private_data = ring;
out:
	mutex_unlock(&kpmod_lock);
	return ret;
}

static long kpmod_dev_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	if (!kpmod_dev_allowed())
		return -EPERM;
	switch (cmd) {
	case KPMOD_IOC_ATTACH:
		return kpmod_dev_attach(file, (u32 __user *)arg);
	case KPMOD_IOC_ATTACH_SNAPSHOT:
		return kpmod_dev_attach_snapshot(file, (u32 __user *)arg);
	default:
		return -ENOTTY;
	}
}

/*
 * Page 0 (the consumer page) may be mapped writable; everything from page 1
 * on is read-only, for good: the producer reads record lengths back in
 * overwrite mode, so userspace must never write them.
 */
static int kpmod_dev_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct kpmod_ring *ring = file->private_data;
	unsigned long len = vma->vm_end - vma->vm_start;
	unsigned long pages = ring ? ring->area_size >> PAGE_SHIFT : 0;

	if (!kpmod_dev_allowed())
		return -EPERM;
	if (!ring)
		return -EINVAL;
	if (vma->vm_pgoff >= pages || (len >> PAGE_SHIFT) > pages - vma->vm_pgoff)
		return -EINVAL;
	if (vma->vm_pgoff + (len >> PAGE_SHIFT) > 1) {
		if (vma->vm_flags & VM_WRITE)
			return -EPERM;
		kpmod_vma_clear_maywrite(vma);
	}
	return remap_vmalloc_range(vma, ring->area, vma->vm_pgoff);
}

static __poll_t kpmod_dev_poll(struct file *file, poll_table *wait)
{
	struct kpmod_ring *ring = file->private_data;

	if (!ring)
		return EPOLLERR;
	/* A snapshot's copy does not change while it is held. */
	if (ring->is_snapshot)
		return EPOLLIN | EPOLLRDNORM;
	poll_wait(file, &ring->wq, wait);
	/*
	 * Pairs with the barrier in kpmod_ring_commit(): the tail this reader
	 * published before polling is seen there, or the new head is seen here.
	 */
	smp_mb();
	return kpmod_ring_readable(ring) ? EPOLLIN | EPOLLRDNORM : 0;
}

static const struct file_operations kpmod_dev_fops = {
	.owner = THIS_MODULE,
	.open = kpmod_dev_open,
	.release = kpmod_dev_release,
	.unlocked_ioctl = kpmod_dev_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = kpmod_dev_mmap,
	.poll = kpmod_dev_poll,
};

static struct miscdevice kpmod_miscdev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = KPMOD_DEVICE_NAME,
	.fops = &kpmod_dev_fops,
	.mode = 0600,
};

int kpmod_dev_init(void)
{
	return misc_register(&kpmod_miscdev);
}

void kpmod_dev_exit(void)
{
	misc_deregister(&kpmod_miscdev);
}
