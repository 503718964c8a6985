/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel stack of a hit, as hist keys and the stacktrace trigger take it. */
#ifndef _KPMOD_STACK_H
#define _KPMOD_STACK_H

#include <linux/types.h>

/*
 * Handler context: up to @max return addresses into @out, innermost
 * first, from the probed function (at @at) down; returns how many.
 */
unsigned int kpmod_stack_save(u64 *out, unsigned int max, unsigned long at);

#endif /* _KPMOD_STACK_H */
