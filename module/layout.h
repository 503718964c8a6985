/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a probe's records hold: its arguments' slots and types, and all
 * else that reading one of their fields needs.  Fields, filters and hist
 * tables take this, not the probe.
 */
#ifndef _KPMOD_LAYOUT_H
#define _KPMOD_LAYOUT_H

#include <linux/types.h>

#include "fetch.h"

struct kpmod_layout {
	struct kpmod_arg *args;		/* nargs, their slots once laid out */
	u32 nargs;
	u32 bitmap_size;		/* fault bitmap bytes, 8-aligned */
	bool is_return;			/* a function's returns: no probe_ip */
};

#endif /* _KPMOD_LAYOUT_H */
