/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A filter for one probe: the fields it may name (the probe's own, then
 * those every event has), and the compiled program in the module's form
 * (struct kpmod_filter_pred[] and the string operands).
 */
#ifndef KPMOD_FILTER_PROBE_H
#define KPMOD_FILTER_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "filter.h"
#include "probe_def.h"
#include "probe_nl.h"

#define KP_FILTER_MAX_FIELDS (KPMOD_MAX_ARGS + 16)

struct kp_filter_fields {
	unsigned int n;
	struct kp_filter_field f[KP_FILTER_MAX_FIELDS];
	uint16_t id[KP_FILTER_MAX_FIELDS];	/* argument index or KPMOD_FIELD_* */
	/* Why the module cannot compare a field the kernel knows, or NULL. */
	const char *refused[KP_FILTER_MAX_FIELDS];
};

/* The fields of @p, in the order the kernel searches them. */
void kp_filter_fields_of(const struct kp_probe_info *p, struct kp_filter_fields *ff);
/* The same for a probe not added yet. */
void kp_filter_fields_of_def(const struct kp_probe_def *d, struct kp_filter_fields *ff);

struct kp_filter_code {
	struct kpmod_filter_pred *preds;
	size_t nr;
	char *strs;
	size_t strs_len;
};

/*
 * Compiles @expr for @ff into @code.  Returns 0; or -EINVAL with @err set
 * as the kernel reports a parse error; or -EPERM with *@why naming a field
 * the module cannot compare; or -ENOMEM.
 */
int kp_filter_build(const char *expr, const struct kp_filter_fields *ff,
		    struct kp_filter_code *code, struct kp_filter_error *err,
		    const char **why);

void kp_filter_code_free(struct kp_filter_code *code);

#endif
