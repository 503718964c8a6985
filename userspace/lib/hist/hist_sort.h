/* SPDX-License-Identifier: GPL-2.0 */
/* The order of a hist table's entries, as the running kernel prints them. */
#ifndef KPMOD_HIST_SORT_H
#define KPMOD_HIST_SORT_H

#include <stdint.h>
#include <string.h>

#include "probe_nl.h"
#include "trigger.h"

/*
 * The entries of @d in the order the running kernel's hist prints them
 * for the spec (hist_sort.c): an array of n pointers, malloc'd.
 */
const struct kpmod_hist_entry **kp_hist_sorted(const struct kp_hist_spec *h,
					       const struct kp_hist_data *d);

/* The 8-byte slot of numeric key @k in entry @e. */
static inline uint64_t kp_hist_key_u64(const struct kpmod_hist_entry *e,
				       const struct kp_hist_key_def *k)
{
	uint64_t v;

	memcpy(&v, e->key + k->off, sizeof(v));
	return v;
}

#endif
