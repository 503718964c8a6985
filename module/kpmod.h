/* SPDX-License-Identifier: GPL-2.0 */
/* Declarations shared between the module's files. */
#ifndef _KPMOD_KPMOD_H
#define _KPMOD_KPMOD_H

#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <uapi/kpmod.h>

#include "arch.h"
#include "compat.h"

#if !defined(CONFIG_X86_64) && !defined(CONFIG_ARM64)
#error "kpmod supports x86_64 and arm64 only"
#endif

/* Serialises every change of state: probes, their enabling, the rings. */
extern struct mutex kpmod_lock;

/* state.c: what probe dumps show, its generation (kpmod_lock) */
extern u32 kpmod_probes_gen;

/*
 * Every change a probe dump shows but the live counters (adding, deleting,
 * enabling, filters, triggers) moves the generation, kpmod_lock held: a
 * dump that spans one says NLM_F_DUMP_INTR.
 */
static inline void kpmod_probes_changed(void)
{
	lockdep_assert_held(&kpmod_lock);
	kpmod_probes_gen++;
}

/* state.c: the module parameters */
extern unsigned int kpmod_max_probes;
extern unsigned int kpmod_max_buffer_mb;
extern unsigned int kpmod_max_hist_mb;

/* genl.c */
int kpmod_genl_init(void);
void kpmod_genl_exit(void);

/* dev.c */
int kpmod_dev_init(void);
void kpmod_dev_exit(void);

#endif /* _KPMOD_KPMOD_H */
