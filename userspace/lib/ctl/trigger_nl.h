/* SPDX-License-Identifier: GPL-2.0 */
/* A parsed trigger (trigger.h) sent to the module. */
#ifndef KPMOD_TRIGGER_NL_H
#define KPMOD_TRIGGER_NL_H

#include "exitcode.h"
#include "probe_nl.h"
#include "trigger.h"

/* One KPMOD_CMD_TRIGGER: add or remove a trigger of GROUP/EVENT. */
struct kp_trigger_req {
	const char *group, *event;
	const struct kp_trigger *t;
	const struct kp_filter_req *filter;	/* its "if", or NULL */
};

int kp_trigger_set(struct kp_nl *nl, const struct kp_trigger_req *r, struct kp_err *e);

#endif
