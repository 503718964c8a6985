/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A compiled argument written back as a FETCHARG with offsets only, as
 * kprobe_events reads it: what a name from BTF became on this kernel
 * ("file->f_pos" is "+0x68($arg1):s64"), for add --dry-run, apply --check
 * and list --json.
 */
#ifndef KPMOD_FETCH_TEXT_H
#define KPMOD_FETCH_TEXT_H

#include <stddef.h>

#include "probe_arch.h"
#include "probe_def.h"

/* @a's program for @arch into @buf; the length it needs (as snprintf). */
int kp_fetch_text(const struct kp_arg_def *a, const struct kp_arch *arch, char *buf,
		  size_t size);

#endif
