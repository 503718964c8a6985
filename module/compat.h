/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel API differences between the kernels kpmod builds for, in one
 * place.  Each KPMOD_HAVE_* comes from a feature probe of the target's
 * headers in Kbuild, not from its version number: kernels between the
 * tested ones (5.11..5.17: Ubuntu 22.04's 5.15, RHEL 9's 5.14) and vendor
 * backports get what their headers actually offer.
 */
#ifndef _KPMOD_COMPAT_H
#define _KPMOD_COMPAT_H

#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/uaccess.h>
#include <net/netlink.h>

/* 6.3 made vm_flags read-only behind accessors. */
static inline void kpmod_vma_clear_maywrite(struct vm_area_struct *vma)
{
#ifdef KPMOD_HAVE_VM_FLAGS_CLEAR
	vm_flags_clear(vma, VM_MAYWRITE);
#else
	vma->vm_flags &= ~VM_MAYWRITE;
#endif
}

/*
 * 5.11 put kretprobe instances behind get_kretprobe(); 5.18 moved the
 * return address into the rethook node, behind get_kretprobe_retaddr().
 */
#ifdef KPMOD_HAVE_GET_KRETPROBE
#define kpmod_kretprobe_of(ri)		get_kretprobe(ri)
#else
#define kpmod_kretprobe_of(ri)		((ri)->rp)
#endif
#ifdef KPMOD_HAVE_GET_KRETPROBE_RETADDR
#define kpmod_kretprobe_retaddr(ri)	get_kretprobe_retaddr(ri)
#else
#define kpmod_kretprobe_retaddr(ri)	((unsigned long)(ri)->ret_addr)
#endif

/*
 * 5.11 renamed nla_strlcpy() to nla_strscpy() (returning -E2BIG on
 * truncation instead of the source length; callers here ignore it).
 */
#ifndef KPMOD_HAVE_NLA_STRSCPY
#define nla_strscpy(dst, nla, size)	((void)nla_strlcpy(dst, nla, size))
#endif

/*
 * 5.11 split irq_works into hard ones and the others, which PREEMPT_RT runs
 * in a thread; before, every one ran in hard interrupt context.
 */
#include <linux/irq_work.h>
#ifndef IRQ_WORK_INIT_HARD
#define IRQ_WORK_INIT_HARD(_func)	{ .func = (_func) }
#endif

/*
 * __noipa (no inlining, cloning or identical-code folding across
 * functions) is in compiler_attributes.h from 5.19; clang has no noipa.
 */
#ifndef __noipa
#if defined(__GNUC__) && !defined(__clang__)
#define __noipa		__attribute__((__noipa__))
#else
#define __noipa
#endif
#endif

/* 6.2 put a dump's request attributes in a struct genl_info. */
#ifdef KPMOD_HAVE_GENL_INFO_DUMP
#define kpmod_dump_attrs(cb)		(genl_info_dump(cb)->attrs)
#else
#define kpmod_dump_attrs(cb)		(genl_dumpit_info(cb)->attrs)
#endif

/*
 * Where user space ends for a read of a user string: arm64 on 5.10 (set_fs)
 * has only the address limit, not a constant.
 */
#ifdef TASK_SIZE_MAX
#define KPMOD_USER_TOP		TASK_SIZE_MAX
#else
#define KPMOD_USER_TOP		user_addr_max()
#endif

/*
 * 6.13 gave a consumer's handler and ret_handler a last argument, the
 * session's data (da09a9e0c3ea): their parameter lists, either way.
 */
#ifdef KPMOD_HAVE_UPROBE_HANDLER_DATA
#define KPMOD_UPROBE_HANDLER_PARAMS(uc, regs) \
	struct uprobe_consumer *uc, struct pt_regs *regs, __u64 *data
#define KPMOD_URETPROBE_HANDLER_PARAMS(uc, func, regs) \
	struct uprobe_consumer *uc, unsigned long func, struct pt_regs *regs, __u64 *data
#else
#define KPMOD_UPROBE_HANDLER_PARAMS(uc, regs) \
	struct uprobe_consumer *uc, struct pt_regs *regs
#define KPMOD_URETPROBE_HANDLER_PARAMS(uc, func, regs) \
	struct uprobe_consumer *uc, unsigned long func, struct pt_regs *regs
#endif

#ifdef CONFIG_UPROBES
#include <linux/uprobes.h>

/*
 * 6.12 folded uprobe_register_refctr() into uprobe_register(), which
 * returns the uprobe, and split unregistering into uprobe_unregister_nosync()
 * and uprobe_unregister_sync(), which waits for running handlers.  Before,
 * uprobe_unregister() took the uprobe's register_rwsem for writing, which
 * every handler call holds for reading: on return none runs.
 */
static inline int kpmod_uprobe_register(struct inode *inode, loff_t offset, loff_t ref_ctr_offset,
					struct uprobe_consumer *uc, struct uprobe **uprobe)
{
#ifdef KPMOD_HAVE_UPROBE_UNREGISTER_NOSYNC
	struct uprobe *u = uprobe_register(inode, offset, ref_ctr_offset, uc);

	if (IS_ERR(u))
		return PTR_ERR(u);
	*uprobe = u;
	return 0;
#else
	*uprobe = NULL;
	return uprobe_register_refctr(inode, offset, ref_ctr_offset, uc);
#endif
}

static inline void kpmod_uprobe_unregister(struct inode *inode, loff_t offset,
					   struct uprobe *uprobe, struct uprobe_consumer *uc)
{
#ifdef KPMOD_HAVE_UPROBE_UNREGISTER_NOSYNC
	uprobe_unregister_nosync(uprobe, uc);
	uprobe_unregister_sync();
#else
	uprobe_unregister(inode, offset, uc);
#endif
}
#endif /* CONFIG_UPROBES */

#endif /* _KPMOD_COMPAT_H */
