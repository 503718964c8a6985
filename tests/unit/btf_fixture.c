// SPDX-License-Identifier: GPL-2.0
/*
 * test_btf's BTF: kernel-shaped types and functions, compiled with -g and
 * given a .BTF section by pahole -J (tests/unit/Makefile), as the
 * kernel's build gives vmlinux its BTF.  Offsets are the compiler's:
 * test_btf.c reads them from here (offsetof), never hard-codes them.
 */
#include <stdbool.h>
#include <stddef.h>

#include "btf_fixture.h"

long fx_vfs_read(struct fx_file *file, char *buf, unsigned long count, long long *pos)
{
	return (long)count + (file ? file->f_pos : 0) + (buf ? 1 : 0) + (pos ? 1 : 0);
}

void fx_kfree(const void *p)
{
	(void)p;
}

int fx_noargs(void)
{
	return 1;
}

enum fx_state fx_state_of(struct fx_task *t, bool wait, signed char nice)
{
	return t && wait && nice ? t->state : FX_IDLE;
}

void fx_touch_atime(const struct path *path)
{
	(void)path;
}

int fx_dput(struct dentry *dentry)
{
	return dentry ? (int)dentry->d_flags : 0;
}

long fx_read_file(struct file *file, struct task_struct *task)
{
	return (file ? file->f_pos : 0) + (task ? task->pid : 0);
}

/* A FUNC for every parameter type above, and their types, in the BTF. */
struct fx_file fx_a_file;
struct fx_task fx_a_task;
struct task_struct fx_a_task_struct;
struct file fx_a_kfile;
