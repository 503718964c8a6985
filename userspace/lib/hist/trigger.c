// SPDX-License-Identifier: GPL-2.0
/*
 * The trigger grammar, as kernel/trace/trace_events_trigger.c
 * (trigger_process_regex(), event_trigger_parse(),
 * event_enable_trigger_parse()) reads and prints it; a hist's own grammar
 * is hist_spec.c's.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grammar.h"
#include "trigger.h"

/* event_trigger_separate_filter(), event_trigger_parse_num(), the "if". */
static int kp_trigger_count_filter(char *param, bool param_required, char **rest,
				   struct kp_trigger *t, struct kp_trigger_error *err)
{
	char *filter = NULL, *word;
	unsigned long long count;

	*rest = NULL;
	if (!param) {
		if (!param_required)
			return 0;
		kp_gram_err(err, NULL, NULL, "kpmod: this trigger needs GROUP:EVENT");
		return -EINVAL;
	}
	if (!param_required && !isdigit((unsigned char)param[0])) {
		filter = param;
	} else {
		*rest = strsep(&param, " \t");
		if (param) {
			filter = kp_skip_spaces(param);
			if (!*filter)
				filter = NULL;
		}
	}
	if (!param_required && *rest) {
		char *number = strsep(rest, ":");

		if (!*number || kp_strtoul(number, &count) || count > 0x7fffffff) {
			kp_gram_err(err, NULL, NULL, "kpmod: the count is not a number");
			return -EINVAL;
		}
		t->count = (uint32_t)count;
	}
	if (filter) {
		word = strsep(&filter, " \t");
		if (strcmp(word, "if") || !filter) {
			kp_gram_err(err, NULL, NULL, "kpmod: a filter starts with 'if'");
			return -EINVAL;
		}
		snprintf(t->filter, sizeof(t->filter), "%s", filter);
	}
	return 0;
}

static int kp_trigger_switch(char *param, struct kp_trigger *t, struct kp_trigger_error *err)
{
	char *trigger, *group, *event;
	unsigned long long count;
	int ret;

	ret = kp_trigger_count_filter(param, true, &trigger, t, err);
	if (ret)
		return ret;
	group = strsep(&trigger, ":");
	event = strsep(&trigger, ":");
	if (!event || !*group || !*event) {
		kp_gram_err(err, NULL, NULL, "kpmod: name the event to switch as GROUP:EVENT");
		return -EINVAL;
	}
	snprintf(t->target_group, sizeof(t->target_group), "%s", group);
	snprintf(t->target_event, sizeof(t->target_event), "%s", event);
	if (trigger) {
		if (!*trigger || kp_strtoul(trigger, &count) || count > 0x7fffffff) {
			kp_gram_err(err, NULL, NULL, "kpmod: the count is not a number");
			return -EINVAL;
		}
		t->count = (uint32_t)count;
	}
	snprintf(t->text, sizeof(t->text), "%s:%s:%s",
		 t->type == KPMOD_TRIGGER_ENABLE_EVENT ? "enable_event" : "disable_event",
		 group, event);
	return 0;
}

int kp_trigger_parse(const char *line, const struct kp_filter_fields *ff,
		     struct kp_trigger *out, struct kp_trigger_error *err)
{
	char *buf = strdup(line), *next, *command;
	int ret = -EINVAL;

	memset(out, 0, sizeof(*out));
	memset(err, 0, sizeof(*err));
	out->count = KPMOD_TRIGGER_UNLIMITED;
	if (!buf)
		return -ENOMEM;
	next = kp_strim(buf);
	command = strsep(&next, ": \t");
	if (next) {
		next = kp_skip_spaces(next);
		if (!*next)
			next = NULL;
	}
	if (command[0] == '!') {
		out->remove = true;
		command++;
	}
	if (!strcmp(command, "traceon") || !strcmp(command, "traceoff") ||
	    !strcmp(command, "stacktrace") || !strcmp(command, "snapshot")) {
		out->type = !strcmp(command, "traceon") ? KPMOD_TRIGGER_TRACEON :
			    !strcmp(command, "traceoff") ? KPMOD_TRIGGER_TRACEOFF :
			    !strcmp(command, "snapshot") ? KPMOD_TRIGGER_SNAPSHOT :
							   KPMOD_TRIGGER_STACKTRACE;
		snprintf(out->text, sizeof(out->text), "%s", command);
		ret = kp_trigger_count_filter(next, false, &(char *){ NULL }, out, err);
	} else if (!strcmp(command, "enable_event") || !strcmp(command, "disable_event")) {
		out->type = strcmp(command, "enable_event") ? KPMOD_TRIGGER_DISABLE_EVENT :
							      KPMOD_TRIGGER_ENABLE_EVENT;
		ret = kp_trigger_switch(next, out, err);
	} else if (!strcmp(command, "hist")) {
		out->type = KPMOD_TRIGGER_HIST;
		ret = kp_hist_trigger_parse(next, ff, &out->hist, out->filter, sizeof(out->filter),
					    out->text, sizeof(out->text), err);
	} else if (!strcmp(command, "enable_hist") || !strcmp(command, "disable_hist")) {
		kp_gram_err(err, NULL, NULL, "kpmod: this trigger is not supported yet");
	} else {
		kp_gram_err(err, NULL, NULL, "kpmod: no such trigger command");
	}
	free(buf);
	return ret;
}

int kp_trigger_line(char *buf, size_t len, const struct kp_trigger_info *t,
		    const struct kp_filter_fields *ff)
{
	char text[KP_TRIGGER_TEXT_MAX], c[32];
	struct kp_hist_spec h;

	if (t->type == KPMOD_TRIGGER_HIST) {
		if (kp_hist_spec_of(t->text, ff, &h))
			snprintf(text, sizeof(text), "%s", t->text);
		else
			kp_hist_text(text, sizeof(text), &h, false);
		return snprintf(buf, len, "%s%s%s %s\n", text, *t->filter ? " if " : "",
				t->filter, t->paused ? "[paused]" : "[active]");
	}
	if (t->count == KPMOD_TRIGGER_UNLIMITED)
		snprintf(c, sizeof(c), ":unlimited");
	else
		snprintf(c, sizeof(c), ":count=%u", t->count);
	return snprintf(buf, len, "%s%s%s%s\n", t->text, c, *t->filter ? " if " : "", t->filter);
}

bool kp_trigger_named_mismatch(const char *spec, const struct kp_trigger *t,
			       const struct kp_err *e, struct kp_trigger_error *err)
{
	char cmd[KP_TRIGGER_TEXT_MAX], at[KPMOD_HIST_NAME_MAX + 8];
	const char *param;

	if (t->type != KPMOD_TRIGGER_HIST || !t->hist.name[0] || e->errnum != EINVAL ||
	    strncmp(e->msg, "Named hist trigger", 18))
		return false;
	/* error_log's Command: "hist:", then what followed the command's colon. */
	while (isspace((unsigned char)*spec))
		spec++;
	param = strchr(spec, ':');
	snprintf(cmd, sizeof(cmd), "hist:%s", param ? param + 1 : "");
	kp_strim(cmd);
	snprintf(at, sizeof(at), "name=%s", t->hist.name);
	kp_gram_err(err, cmd, at, "Named hist trigger doesn't match existing named trigger (includes variables)");
	return true;
}
