/* SPDX-License-Identifier: GPL-2.0 */
/* Declarations shared between the module's files. */
#ifndef _KPMOD_KPMOD_H
#define _KPMOD_KPMOD_H

#include <linux/mutex.h>
#include <uapi/kpmod.h>

#include "arch.h"
#include "compat.h"

#if !defined(CONFIG_X86_64) && !defined(CONFIG_ARM64)
#error "kpmod supports x86_64 and arm64 only"
#endif

/* Serialises every change of state: probes, their enabling, the rings. */
extern struct mutex kpmod_lock;

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
