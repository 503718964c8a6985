/* SPDX-License-Identifier: GPL-2.0 */
/* kpmod's u: definitions of USDT marker probes (usdt_def.c says the syntax). */
#ifndef KPMOD_USDT_DEF_H
#define KPMOD_USDT_DEF_H

#include <stddef.h>

#include "parse_err.h"
#include "probe_arch.h"

/*
 * Expands the u: definition @text into the p: definition of a uprobe on
 * the marker, in @out (@size bytes): 0, or -1 with @err filled, its
 * position in @text.
 */
int kp_usdt_expand(const char *text, const struct kp_arch *arch, char *out, size_t size,
		   struct kp_parse_err *err);

#endif
