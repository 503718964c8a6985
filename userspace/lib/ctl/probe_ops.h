/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Changes to one existing probe, each error said on stderr as the command
 * that owns it says it: shared by filter, trigger, one-shot runs and apply.
 */
#ifndef KPMOD_PROBE_OPS_H
#define KPMOD_PROBE_OPS_H

#include "probe_nl.h"

/* Sets @expr, compiled for @p, as its filter, or (NULL) clears it. */
int kp_filter_apply(struct kp_nl *nl, const struct kp_probe_info *p, const char *expr);
/* Parses the trigger @spec for @p, compiles its "if", and adds (or with '!' removes) it. */
int kp_trigger_apply(struct kp_nl *nl, const struct kp_probe_info *p, const char *spec);
/* Removes @p's trigger @ti; 0 or -1 with @e set (ENOENT: gone already). */
int kp_trigger_remove_info(struct kp_nl *nl, const struct kp_probe_info *p,
			   const struct kp_trigger_info *ti, struct kp_err *e);

#endif
