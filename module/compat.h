/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel API differences between the supported kernels (5.10 .. 6.12), in
 * one place, keyed on LINUX_VERSION_CODE.  Nothing else in the module tests
 * the kernel version.
 */
#ifndef _KPMOD_COMPAT_H
#define _KPMOD_COMPAT_H

#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/version.h>

/* 6.3 made vm_flags read-only behind accessors. */
static inline void kpmod_vma_clear_maywrite(struct vm_area_struct *vma)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	vm_flags_clear(vma, VM_MAYWRITE);
#else
	vma->vm_flags &= ~VM_MAYWRITE;
#endif
}

/* 5.11 reworked kretprobe instances (and 5.18 moved them onto rethook). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 11, 0)
#define kpmod_kretprobe_of(ri)		get_kretprobe(ri)
#define kpmod_kretprobe_retaddr(ri)	get_kretprobe_retaddr(ri)
#else
#define kpmod_kretprobe_of(ri)		((ri)->rp)
#define kpmod_kretprobe_retaddr(ri)	((unsigned long)(ri)->ret_addr)
#endif

/*
 * 5.11 renamed nla_strlcpy() to nla_strscpy() (returning -E2BIG on
 * truncation instead of the source length; callers here ignore it).
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 11, 0)
#include <net/netlink.h>
#define nla_strscpy(dst, nla, size)	((void)nla_strlcpy(dst, nla, size))
#endif

#endif /* _KPMOD_COMPAT_H */
