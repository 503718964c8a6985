// SPDX-License-Identifier: GPL-2.0
/* A parsed trigger sent to the module: KPMOD_CMD_TRIGGER. */
#include <netlink/genl/genl.h>

#include "trigger_nl.h"

static int kp_fill_trigger(struct nl_msg *msg, void *arg)
{
	const struct kp_trigger_req *r = arg;
	const struct kp_trigger *t = r->t;
	const struct kp_hist_spec *h = &t->hist;
	struct kpmod_hist_field f[KPMOD_HIST_MAX_KEYS];
	unsigned int i;

	if (nla_put_string(msg, KPMOD_A_PROBE_GROUP, r->group) ||
	    nla_put_string(msg, KPMOD_A_PROBE_EVENT, r->event) ||
	    nla_put_u32(msg, KPMOD_A_TRIGGER_TYPE, t->type) ||
	    nla_put_string(msg, KPMOD_A_TRIGGER_TEXT, t->text))
		return -NLE_NOMEM;
	if (t->remove) {
		if (nla_put_flag(msg, KPMOD_A_TRIGGER_REMOVE) ||
		    (t->filter[0] && nla_put_string(msg, KPMOD_A_FILTER_TEXT, t->filter)))
			return -NLE_NOMEM;
		return 0;
	}
	/* Its filter: compiled for a new trigger; its text names an existing one. */
	if (r->filter ? kp_filter_put(msg, r->filter) < 0 :
	    t->filter[0] && nla_put_string(msg, KPMOD_A_FILTER_TEXT, t->filter))
		return -NLE_NOMEM;
	if (t->type == KPMOD_TRIGGER_HIST) {
		for (i = 0; i < h->nkeys; i++)
			f[i] = h->keys[i].mod;
		if (nla_put(msg, KPMOD_A_HIST_KEYS, h->nkeys * sizeof(f[0]), f))
			return -NLE_NOMEM;
		for (i = 0; i < h->nvals; i++)
			f[i] = h->vals[i].mod;
		if ((h->nvals && nla_put(msg, KPMOD_A_HIST_VALS, h->nvals * sizeof(f[0]), f)) ||
		    nla_put_u32(msg, KPMOD_A_HIST_SIZE, h->size) ||
		    (h->action && nla_put_u32(msg, KPMOD_A_HIST_ACTION, h->action)) ||
		    (h->name[0] && nla_put_string(msg, KPMOD_A_HIST_NAME, h->name)))
			return -NLE_NOMEM;
		return 0;
	}
	if (t->count != KPMOD_TRIGGER_UNLIMITED && nla_put_u32(msg, KPMOD_A_TRIGGER_COUNT, t->count))
		return -NLE_NOMEM;
	if (t->target_event[0] &&
	    (nla_put_string(msg, KPMOD_A_TRIGGER_TARGET_GROUP, t->target_group) ||
	     nla_put_string(msg, KPMOD_A_TRIGGER_TARGET_EVENT, t->target_event)))
		return -NLE_NOMEM;
	return 0;
}

int kp_trigger_set(struct kp_nl *nl, const struct kp_trigger_req *r, struct kp_err *e)
{
	return kp_nl_call(nl, KPMOD_CMD_TRIGGER, 0, kp_fill_trigger, NULL, (void *)r, e);
}
