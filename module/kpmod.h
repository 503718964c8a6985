/* SPDX-License-Identifier: GPL-2.0 */
/* Declarations shared between the module's files. */
#ifndef _KPMOD_KPMOD_H
#define _KPMOD_KPMOD_H

#include <linux/atomic.h>
#include <uapi/kpmod.h>

#if !defined(CONFIG_X86_64) && !defined(CONFIG_ARM64)
#error "kpmod supports x86_64 and arm64 only"
#endif

/* arch/<arch>.c: everything that knows the architecture. */
const char *kpmod_arch_name(void);

/* main.c */
extern unsigned int kpmod_max_probes;
unsigned int kpmod_nr_probes(void);

/* genl.c */
int kpmod_genl_init(void);
void kpmod_genl_exit(void);

/* dev.c */
int kpmod_dev_init(void);
void kpmod_dev_exit(void);

#endif /* _KPMOD_KPMOD_H */
