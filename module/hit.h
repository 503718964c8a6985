/* SPDX-License-Identifier: GPL-2.0 */
/* The hit path (hit.c): the handlers a probe is registered with. */
#ifndef _KPMOD_HIT_H
#define _KPMOD_HIT_H

#include "probe.h"

/* Points @p's kprobe, kretprobe or uprobe at the handlers of its kind. */
void kpmod_hit_handlers(struct kpmod_probe *p);
/* An entry probe's hit from an ftrace site of kpmod's (fsite.c), preemption off. */
void kpmod_hit_entry(struct kpmod_probe *p, struct pt_regs *regs);

#endif /* _KPMOD_HIT_H */
