// SPDX-License-Identifier: GPL-2.0
/* /dev/kpmod: the character device readers open to map the rings. */
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>

#include "kpmod.h"

static int kpmod_dev_open(struct inode *inode, struct file *file)
{
	/* The rings hold kernel addresses and data: same right as the control. */
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	return nonseekable_open(inode, file);
}

static int kpmod_dev_release(struct inode *inode, struct file *file)
{
	return 0;
}

static const struct file_operations kpmod_dev_fops = {
	.owner = THIS_MODULE,
	.open = kpmod_dev_open,
	.release = kpmod_dev_release,
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
