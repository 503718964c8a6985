// SPDX-License-Identifier: GPL-2.0
/* kpmod del, clear, list, enable, disable, stat. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "probe_nl.h"
#include "session.h"

/*
 * "EVENT" names an event in any group, as '-:EVENT' does in kprobe_events;
 * more than one match is ambiguous.  Fills in the group.
 */
static int kp_resolve_group(const char *cmd, struct kp_nl *nl, char *group,
			    const char *event)
{
	struct kp_probe_list l;
	struct kp_err e;
	unsigned int i, found = 0;

	if (group[0])
		return 0;
	if (kp_probe_list_get(nl, &l, &e))
		return kp_fail(cmd, &e);
	for (i = 0; i < l.n; i++) {
		if (strcmp(l.probes[i].event, event))
			continue;
		if (found++)
			break;
		snprintf(group, KPMOD_MAX_NAME_LEN, "%s", l.probes[i].group);
	}
	kp_probe_list_free(&l);
	if (found == 1)
		return 0;
	fprintf(stderr, found ? "kpmod: %s: event '%s' exists in several groups: name it GROUP/%s\n"
			      : "kpmod: %s: no such event '%s'%.0s\n", cmd, event, event);
	return found ? KP_EXIT_USAGE : KP_EXIT_REFUSED;
}

int kp_cmd_del(int argc, char **argv)
{
	char group[KPMOD_MAX_NAME_LEN], event[KPMOD_MAX_NAME_LEN];
	struct kp_status st;
	struct kp_nl nl;
	struct kp_err e;
	int i, ret;

	if (argc < 2) {
		fprintf(stderr, "kpmod: del: name an event: EVENT, GROUP/EVENT or -:EVENT\n");
		return KP_EXIT_USAGE;
	}
	ret = kp_session_open("del", &nl, &st);
	if (ret)
		return ret;
	for (i = 1; i < argc && !ret; i++) {
		if (kp_split_event_name(argv[i], group, sizeof(group), event, sizeof(event))) {
			fprintf(stderr, "kpmod: del: bad event name '%s'\n", argv[i]);
			ret = KP_EXIT_USAGE;
			break;
		}
		ret = kp_resolve_group("del", &nl, group, event);
		if (!ret && kp_probe_del(&nl, group, event, &e))
			ret = kp_fail("del", &e);
	}
	kp_nl_close(&nl);
	return ret;
}

int kp_cmd_clear(int argc, char **argv)
{
	struct kp_status st;
	struct kp_nl nl;
	struct kp_err e;
	int ret;

	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "kpmod: clear: takes no arguments\n");
		return KP_EXIT_USAGE;
	}
	ret = kp_session_open("clear", &nl, &st);
	if (ret)
		return ret;
	if (kp_probe_clear(&nl, &e))
		ret = kp_fail("clear", &e);
	kp_nl_close(&nl);
	return ret;
}

/* Runs @fn over the probe list: for list and stat. */
static int kp_with_list(const char *cmd, int argc,
			void (*fn)(const struct kp_probe_list *l))
{
	struct kp_probe_list l;
	struct kp_status st;
	struct kp_nl nl;
	struct kp_err e;
	int ret;

	if (argc > 1) {
		fprintf(stderr, "kpmod: %s: takes no arguments\n", cmd);
		return KP_EXIT_USAGE;
	}
	ret = kp_session_open(cmd, &nl, &st);
	if (ret)
		return ret;
	if (kp_probe_list_get(&nl, &l, &e)) {
		ret = kp_fail(cmd, &e);
	} else {
		fn(&l);
		kp_probe_list_free(&l);
	}
	kp_nl_close(&nl);
	return ret;
}

/*
 * As kprobe_events, a return probe shows the maxactive in force, which the
 * kernel picks when none was given: "r:..." prints as "r10:...".
 */
static void kp_print_list(const struct kp_probe_list *l)
{
	unsigned int i;

	for (i = 0; i < l->n; i++) {
		const struct kp_probe_info *p = &l->probes[i];
		const char *rest = strchr(p->definition, ':');

		if (p->kind == KPMOD_PROBE_RETURN && p->maxactive && rest &&
		    p->definition[0] == 'r')
			printf("r%u%s\n", p->maxactive, rest);
		else
			printf("%s\n", p->definition);
	}
}

/* kprobe_profile's columns (event, hits, misses), then dropped. */
static void kp_print_stat(const struct kp_probe_list *l)
{
	unsigned int i;

	for (i = 0; i < l->n; i++) {
		const struct kp_probe_info *p = &l->probes[i];

		printf("  %-44s %15llu %15llu %15llu%s\n", p->event,
		       (unsigned long long)p->hits, (unsigned long long)p->misses,
		       (unsigned long long)p->dropped, p->gone ? " (gone)" : "");
	}
}

int kp_cmd_list(int argc, char **argv)
{
	(void)argv;
	return kp_with_list("list", argc, kp_print_list);
}

int kp_cmd_stat(int argc, char **argv)
{
	(void)argv;
	return kp_with_list("stat", argc, kp_print_stat);
}

/* EVENT | GRP/EVENT | GRP/\* | all */
static int kp_set_enabled(const char *cmd, int argc, char **argv, bool on)
{
	char group[KPMOD_MAX_NAME_LEN], event[KPMOD_MAX_NAME_LEN];
	struct kp_status st;
	struct kp_nl nl;
	struct kp_err e;
	int i, ret;

	if (argc < 2) {
		fprintf(stderr, "kpmod: %s: name events: EVENT, GROUP/EVENT, GROUP/* or all\n", cmd);
		return KP_EXIT_USAGE;
	}
	ret = kp_session_open(cmd, &nl, &st);
	if (ret)
		return ret;
	for (i = 1; i < argc && !ret; i++) {
		const char *g = group, *ev = event;

		if (!strcmp(argv[i], "all")) {
			g = ev = NULL;
		} else if (kp_split_event_name(argv[i], group, sizeof(group),
					       event, sizeof(event))) {
			fprintf(stderr, "kpmod: %s: bad event name '%s'\n", cmd, argv[i]);
			ret = KP_EXIT_USAGE;
			break;
		} else if (!strcmp(event, "*")) {
			ev = NULL;
		}
		if (kp_probe_set_enabled(&nl, g, ev, on, &e))
			ret = kp_fail(cmd, &e);
	}
	kp_nl_close(&nl);
	return ret;
}

int kp_cmd_enable(int argc, char **argv)
{
	return kp_set_enabled("enable", argc, argv, true);
}

int kp_cmd_disable(int argc, char **argv)
{
	return kp_set_enabled("disable", argc, argv, false);
}
