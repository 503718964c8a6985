/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's BTF, read with libbpf: what a function's parameters are
 * named and typed, and where a member of a structure is.  From
 * /sys/kernel/btf (vmlinux, and a module's split on it), or from what
 * --btf or $KPMOD_BTF name: a detached file (pahole --btf_encode_detached,
 * or a copy of /sys/kernel/btf/vmlinux) or a directory laid out as
 * /sys/kernel/btf.  Opened on first use: definitions that name nothing
 * by BTF read nothing.
 */
#ifndef KPMOD_KBTF_H
#define KPMOD_KBTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <bpf/btf.h>

#define KP_BTF_ENV	"KPMOD_BTF"	/* as bpftrace's BPFTRACE_BTF */
#define KP_BTF_SYS	"/sys/kernel/btf"
#define KP_BTF_NONE	"none"		/* --btf none: no BTF at all */

struct kp_btf;

/*
 * @spec: a file, a directory, "none", or NULL: $KPMOD_BTF if set, else
 * /sys/kernel/btf.  NULL only when out of memory.
 */
struct kp_btf *kp_btf_new(const char *spec);
void kp_btf_free(struct kp_btf *kb);

/* vmlinux's BTF, read once: 0, or -EOPNOTSUPP if there is none (kp_btf_why()). */
int kp_btf_open(struct kp_btf *kb);
/* Why there is no BTF (after a lookup said -EOPNOTSUPP), e.g. "/sys/kernel/btf/vmlinux: No such file or directory". */
const char *kp_btf_why(const struct kp_btf *kb);
/* What BTF is read: the file or directory. */
const char *kp_btf_source(const struct kp_btf *kb);

struct kp_btf_index;

/* A function's prototype. */
struct kp_btf_func {
	const struct btf *btf;
	struct kp_btf_index *index;	/* kbtf.c's, of that BTF */
	const struct btf_type *proto;	/* its FUNC_PROTO */
	const struct btf_param *params;
	unsigned int nparams;		/* a variadic one's "..." counted, as the kernel */
};

/*
 * The prototype of @func, in @module's BTF ("": vmlinux's, then each
 * module's, as the kernel looks): 0, -ENOENT if no BTF names it, or
 * -EOPNOTSUPP if there is no BTF to read (kp_btf_why()).
 */
int kp_btf_func(struct kp_btf *kb, const char *module, const char *func,
		struct kp_btf_func *out);

/*
 * The struct named @name (not a union, not a typedef), in vmlinux's BTF
 * and then in each module's, as the kernel's bpf_find_btf_id(): 0 with
 * *@btf and *@id, -ENOENT, or -EOPNOTSUPP if there is no BTF to read.
 */
int kp_btf_struct(struct kp_btf *kb, const char *name, const struct btf **btf, uint32_t *id);

/*
 * btf_type_skip_modifiers(): @id's type past const, volatile, restrict,
 * typedef and type tags, its id in *@res_id (may be NULL); NULL if an id
 * on the way does not exist.
 */
const struct btf_type *kp_btf_skip_mods(const struct btf *btf, uint32_t id, uint32_t *res_id);

/*
 * btf_find_struct_member(): the member @name of struct or union @t,
 * looked for in anonymous members too; *@owner is the struct or union it
 * is a member of (@t or an anonymous one in it), *@anon_bits where that
 * is in @t (0 for @t).  NULL if @t has no such member; *@not_struct set
 * if @t is no struct or union.
 */
const struct btf_member *kp_btf_member(const struct btf *btf, const struct btf_type *t,
				       const char *name, uint32_t *anon_bits,
				       const struct btf_type **owner, bool *not_struct);

/* The declaration of parameter @i of @f ("struct file *file"), or of its return type (@i -1). */
int kp_btf_decl(const struct kp_btf_func *f, int i, char *buf, size_t size);

#endif
