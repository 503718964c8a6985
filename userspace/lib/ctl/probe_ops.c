// SPDX-License-Identifier: GPL-2.0
/*
 * Changes to one existing probe: its filter, a trigger added or removed.
 * Each error is said on stderr as `kpmod filter` and `kpmod trigger` say
 * it; filter, trigger, apply and the one-shot runs share them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter_probe.h"
#include "probe_ops.h"
#include "session.h"
#include "trigger.h"
#include "trigger_nl.h"

int kp_filter_apply(struct kp_nl *nl, const struct kp_probe_info *p,
			   const char *expr)
{
	struct kp_filter_req req = { .group = p->desc.group, .event = p->desc.event };
	struct kp_filter_fields *ff = NULL;
	struct kp_filter_code code = { 0 };
	struct kp_filter_error ferr;
	const char *why;
	struct kp_err e;
	char out[KPMOD_MAX_FILTER_TEXT * 2 + 128];
	int ret;

	if (expr) {
		ff = malloc(sizeof(*ff));
		if (!ff) {
			kp_msg("filter", "out of memory\n");
			return KP_EXIT_ERROR;
		}
		kp_filter_fields_of(p, ff);
		ret = kp_filter_build(expr, ff, &code, &ferr, &why);
		free(ff);
		if (ret == -EINVAL) {
			kp_filter_error_format(out, sizeof(out), expr, &ferr);
			kp_msg("filter", "%s/%s: the filter does not parse:\n%s", p->desc.group,
			       p->desc.event, out);
			return KP_EXIT_BADFILTER;
		}
		if (ret == -EPERM) {
			kp_msg("filter", "%s/%s: %s\n", p->desc.group, p->desc.event, why);
			return KP_EXIT_BADFILTER;
		}
		if (ret) {
			kp_msg("filter", "out of memory\n");
			return KP_EXIT_ERROR;
		}
		req.text = expr;
		req.preds = code.preds;
		req.nr = code.nr;
		req.strs = code.strs;
		req.strs_len = code.strs_len;
	}
	ret = kp_probe_filter_set(nl, &req, &e);
	if (ret) {
		kp_err_about(&e, p->desc.event);
		kp_fail("filter", &e);
	}
	kp_filter_code_free(&code);
	return ret;
}

int kp_trigger_apply(struct kp_nl *nl, const struct kp_probe_info *p, const char *spec)
{
	struct kp_filter_req freq = { .group = p->desc.group, .event = p->desc.event };
	struct kp_trigger_req req = { .group = p->desc.group, .event = p->desc.event };
	char where[2 * KPMOD_MAX_NAME_LEN + 8];
	struct kp_filter_code code = { 0 };
	struct kp_filter_fields *ff;
	struct kp_trigger_error terr;
	struct kp_filter_error ferr;
	struct kp_trigger *t;
	const char *why;
	char *out = NULL;
	struct kp_err e;
	int ret;

	ff = malloc(sizeof(*ff));
	t = malloc(sizeof(*t));
	out = malloc(2 * KPMOD_MAX_FILTER_TEXT + 2 * KP_TRIGGER_TEXT_MAX);
	ret = KP_EXIT_ERROR;
	if (!ff || !t || !out) {
		kp_msg("trigger", "out of memory\n");
		goto out;
	}
	kp_filter_fields_of(p, ff);
	snprintf(where, sizeof(where), "hist:%s:%s", p->desc.group, p->desc.event);
	ret = kp_trigger_parse(spec, ff, t, &terr);
	if (ret == -EINVAL && !terr.cmd[0]) {
		/* No error_log entry in the kernel: one line of kpmod's own. */
		kp_msg("trigger", "%s/%s: %s\n", p->desc.group, p->desc.event,
		       strncmp(terr.msg, "kpmod: ", 7) ? terr.msg : terr.msg + 7);
		ret = KP_EXIT_BADTRIGGER;
		goto out;
	}
	if (ret == -EINVAL) {
		kp_trigger_error_format(out, 2 * KP_TRIGGER_TEXT_MAX, where, &terr);
		kp_msg("trigger", "%s/%s: the trigger does not parse:\n%s", p->desc.group,
		       p->desc.event, out);
		ret = KP_EXIT_BADTRIGGER;
		goto out;
	}
	if (ret) {
		kp_msg("trigger", "out of memory\n");
		ret = KP_EXIT_ERROR;
		goto out;
	}
	if (t->filter[0] && !t->remove) {
		ret = kp_filter_build(t->filter, ff, &code, &ferr, &why);
		if (ret == -EINVAL) {
			kp_filter_error_format(out, 2 * KPMOD_MAX_FILTER_TEXT, t->filter, &ferr);
			kp_msg("trigger", "%s/%s: its filter does not parse:\n%s", p->desc.group,
			       p->desc.event, out);
			ret = KP_EXIT_BADFILTER;
			goto out;
		}
		if (ret) {
			kp_msg("trigger", "%s/%s: %s\n", p->desc.group, p->desc.event,
			       ret == -EPERM ? why : "out of memory");
			ret = ret == -EPERM ? KP_EXIT_BADFILTER : KP_EXIT_ERROR;
			goto out;
		}
		freq.text = t->filter;
		freq.preds = code.preds;
		freq.nr = code.nr;
		freq.strs = code.strs;
		freq.strs_len = code.strs_len;
		req.filter = &freq;
	}
	req.t = t;
	ret = kp_trigger_set(nl, &req, &e);
	if (ret && kp_trigger_named_mismatch(spec, t, &e, &terr)) {
		kp_trigger_error_format(out, 2 * KP_TRIGGER_TEXT_MAX, where, &terr);
		kp_msg("trigger", "%s/%s: the module refused it:\n%s", p->desc.group, p->desc.event,
		       out);
		ret = KP_EXIT_BADTRIGGER;
	} else if (ret) {
		kp_err_about(&e, p->desc.event);
		kp_fail("trigger", &e);
	}
out:
	kp_filter_code_free(&code);
	free(out);
	free(t);
	free(ff);
	return ret;
}

int kp_trigger_remove_info(struct kp_nl *nl, const struct kp_probe_info *p,
			   const struct kp_trigger_info *ti, struct kp_err *e)
{
	struct kp_trigger *t = calloc(1, sizeof(*t));
	struct kp_trigger_req r = { p->desc.group, p->desc.event, t, NULL };
	int ret;

	if (!t) {
		kp_err_set(e, ENOMEM, NULL);
		return -1;
	}
	t->remove = true;
	t->type = ti->type;
	snprintf(t->text, sizeof(t->text), "%s", ti->text);
	snprintf(t->filter, sizeof(t->filter), "%s", ti->filter);
	ret = kp_trigger_set(nl, &r, e) ? -1 : 0;
	free(t);
	return ret;
}
