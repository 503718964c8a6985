/* SPDX-License-Identifier: GPL-2.0 */
/* The types of btf_fixture.c, shared with test_btf.c for their offsets. */
#ifndef KPMOD_BTF_FIXTURE_H
#define KPMOD_BTF_FIXTURE_H

#include <stdbool.h>

/* Named as the kernel's (also $current's task_struct, %pd's dentry, %pD's file). */
struct qstr {
	union {
		struct {
			unsigned int hash;
			unsigned int len;
		};
		unsigned long long hash_len;
	};
	const unsigned char *name;
};

struct fx_dentry {
	unsigned int d_flags;
	struct fx_dentry *d_parent;
	struct qstr d_name;
	char d_iname[32];
};

struct fx_path {
	void *mnt;
	struct fx_dentry *dentry;
};

enum fx_state { FX_IDLE, FX_RUNNING = 7 };

struct fx_file {
	unsigned long f_flags;
	struct fx_path f_path;
	unsigned int f_mode:4, f_kind:3, f_wide:20;
	unsigned char f_byte:8;
	long long f_pos;
	enum fx_state f_state;
	bool f_open;
	const char *f_name;
	int f_array[4];
	struct fx_path *f_ppath;
};

struct fx_task {
	int pid;
	enum fx_state state;
	char comm[16];
	struct fx_task *parent;
};

struct dentry {
	unsigned int d_flags;
	struct dentry *d_parent;
	struct qstr d_name;
};

struct path {
	void *mnt;
	struct dentry *dentry;
};

struct file {
	unsigned long f_flags;
	struct path f_path;
	long long f_pos;
};

struct fx_list_head {
	struct fx_list_head *next, *prev;
};

struct sched_entity {
	unsigned long load;
	struct fx_list_head group_node;
};

struct task_struct {
	unsigned int __state;
	unsigned int in_iowait:1, in_execve:1;
	int pid;
	int tgid;
	struct sched_entity se;
	char comm[16];
	struct task_struct *group_leader;
};

long fx_vfs_read(struct fx_file *file, char *buf, unsigned long count, long long *pos);
void fx_kfree(const void *p);
int fx_noargs(void);
enum fx_state fx_state_of(struct fx_task *t, bool wait, signed char nice);
void fx_touch_atime(const struct path *path);
int fx_dput(struct dentry *dentry);
long fx_read_file(struct file *file, struct task_struct *task);

#endif
