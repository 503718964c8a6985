/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Function entries probed through ftrace ("sites"): kpmod keeps their
 * ftrace hook armed for as long as it has probes there, so that adding,
 * enabling, disabling and deleting probes never patches the code of a
 * function that has a kprobe on it.  site.c says why.
 */
#ifndef _KPMOD_SITE_H
#define _KPMOD_SITE_H

#include <linux/kprobes.h>

struct kpmod_site;

/*
 * Held from registering a probe to kpmod_site_get(): no site is released
 * meanwhile (site.c).  Inside kpmod_lock.
 */
void kpmod_sites_lock(void);
void kpmod_sites_unlock(void);

/*
 * Called, kpmod_lock held, right after @kp was registered (disabled): if
 * the kernel put @kp on ftrace, takes a reference on its address's site
 * and returns it in @site (NULL for a probe that is not on ftrace).  A new
 * site (@created) registers its enabled anchor, which arms the hook once.
 * On error nothing was taken.
 */
int kpmod_site_get(const struct kprobe *kp, struct kpmod_site **site, bool *created);
/* Drops what kpmod_site_get() took (NULL: nothing); kpmod_lock held. */
void kpmod_site_put(struct kpmod_site *site);
/* Sites armed now, those waiting to be released included. */
unsigned int kpmod_nr_sites(void);
/* Stale breakpoints the anchors' guard has caught since the module loaded. */
u64 kpmod_site_traps_caught(void);
/*
 * Whether @addr is a site armed now or released in the last few seconds:
 * a breakpoint left there may be stale (arch.h's fallback).  Lockless,
 * for breakpoint context.
 */
bool kpmod_site_guarded(unsigned long addr);
/* Counts a stale breakpoint caught (kpmod_site_traps_caught()). */
void kpmod_site_trap_caught(void);
/* Before any probe: the arch's stale-breakpoint fallback.  0 or -errno. */
int kpmod_sites_init(void);
/* Releases every site; on module exit, after every probe is gone. */
void kpmod_sites_exit(void);

#endif /* _KPMOD_SITE_H */
