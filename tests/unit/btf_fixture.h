/* SPDX-License-Identifier: GPL-2.0 */
/* The types of btf_fixture.c, shared with test_btf.c for their offsets. */
#ifndef KPMOD_BTF_FIXTURE_H
#define KPMOD_BTF_FIXTURE_H

#include <stdbool.h>

struct fx_qstr {
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
	struct fx_qstr d_name;
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

long fx_vfs_read(struct fx_file *file, char *buf, unsigned long count, long long *pos);
void fx_kfree(const void *p);
int fx_noargs(void);
enum fx_state fx_state_of(struct fx_task *t, bool wait, signed char nice);

#endif
