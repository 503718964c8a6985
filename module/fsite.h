/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Entry probes on ftrace sites, armed through one ftrace_ops of kpmod's
 * (fsite.c): arming or disarming any number of them is one change of its
 * filter, where the kernel's kprobes make one per probe.
 */
#ifndef _KPMOD_FSITE_H
#define _KPMOD_FSITE_H

#include "probe.h"

/* KPMOD_FSITE: module/Kbuild builds fsite.c (x86_64, 5.18 and later). */
#ifdef KPMOD_FSITE
int kpmod_fsite_init(void);
/* Stops every ftrace site of kpmod's and waits for their handlers. */
void kpmod_fsite_exit(void);
/*
 * Whether @p is armed here rather than by its kprobe: an entry probe the
 * kernel put on an ftrace site (its kprobe, registered and disabled,
 * keeps the address checked and listed).
 */
bool kpmod_fsite_eligible(const struct kpmod_probe *p);
/* Arms or disarms @p; kpmod_lock held.  Inside a batch, only noted. */
int kpmod_fsite_arm(struct kpmod_probe *p, bool on);
/*
 * A batch: between kpmod_fsite_batch() and kpmod_fsite_flush() every
 * kpmod_fsite_arm() is only noted, and the flush makes them all in one
 * change, or none (the notes undone) and returns the error.
 * kpmod_fsite_discard() drops the notes instead.  kpmod_lock held.
 */
void kpmod_fsite_batch(void);
int kpmod_fsite_flush(void);
void kpmod_fsite_discard(void);
/* No handler finds @p any more, whatever failed before; kpmod_lock held. */
void kpmod_fsite_forget(struct kpmod_probe *p);
#else
static inline int kpmod_fsite_init(void) { return 0; }
static inline void kpmod_fsite_exit(void) { }
static inline bool kpmod_fsite_eligible(const struct kpmod_probe *p) { return false; }
static inline int kpmod_fsite_arm(struct kpmod_probe *p, bool on) { return -EOPNOTSUPP; }
static inline void kpmod_fsite_batch(void) { }
static inline int kpmod_fsite_flush(void) { return 0; }
static inline void kpmod_fsite_discard(void) { }
static inline void kpmod_fsite_forget(struct kpmod_probe *p) { }
#endif

#endif /* _KPMOD_FSITE_H */
