// SPDX-License-Identifier: GPL-2.0
/* kpmod del, clear, list, enable, disable, stat. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "add.h"
#include "args.h"
#include "commands.h"
#include "oneshot.h"
#include "probe_json.h"
#include "probe_nl.h"
#include "prometheus.h"
#include "session.h"

/*
 * del, enable and disable: every name on the command line goes into one
 * request, which the module applies to all of them or to none.
 *   EVENT         that event, in whichever group has it (one only)
 *   GROUP/EVENT   that event
 *   -:[GROUP/]EVENT  as above (kprobe_events' delete syntax)
 *   GROUP/\*      every event of GROUP   (enable, disable, del)
 *   all           every event            (enable, disable)
 */
static int kp_select_names(const char *cmd, uint8_t nlcmd, int argc, char **argv,
			   bool allow_all)
{
	char (*groups)[KPMOD_MAX_NAME_LEN] = NULL, (*events)[KPMOD_MAX_NAME_LEN] = NULL;
	struct kp_select *sel = NULL;
	size_t n = argc > 1 ? (size_t)argc - 1 : 0, i;
	struct kp_status st;
	struct kp_nl nl;
	struct kp_err e;
	int bad, ret;

	if (!n) {
		kp_msg(cmd, "name events: EVENT, GROUP/EVENT, GROUP/*%s\n",
		       allow_all ? " or all" : "");
		return KP_EXIT_USAGE;
	}
	if (n > KPMOD_MAX_SELECTORS) {
		kp_msg(cmd, "at most %d names at once\n", KPMOD_MAX_SELECTORS);
		return KP_EXIT_USAGE;
	}
	sel = calloc(n, sizeof(*sel));
	groups = calloc(n, sizeof(*groups));
	events = calloc(n, sizeof(*events));
	if (!sel || !groups || !events) {
		kp_msg(cmd, "out of memory\n");
		ret = KP_EXIT_ERROR;
		goto out;
	}
	for (i = 0; i < n; i++) {
		const char *arg = argv[i + 1];

		if (allow_all && !strcmp(arg, "all"))
			continue;	/* group and event NULL: every probe */
		if (kp_split_event_name(arg, groups[i], sizeof(groups[i]),
					events[i], sizeof(events[i])) ||
		    (!groups[i][0] && !strcmp(events[i], "*"))) {
			kp_msg(cmd, "bad event name '%s'\n", arg);
			ret = KP_EXIT_USAGE;
			goto out;
		}
		sel[i].group = groups[i][0] ? groups[i] : NULL;
		sel[i].event = strcmp(events[i], "*") ? events[i] : NULL;
	}
	ret = kp_session_open(cmd, &nl, &st);
	if (ret)
		goto out;
	ret = kp_probe_select(&nl, nlcmd, sel, n, &bad, &e);
	if (ret) {
		if (bad >= 0)
			kp_err_about(&e, argv[bad + 1]);
		kp_fail(cmd, &e);
	}
	kp_nl_close(&nl);
out:
	free(sel);
	free(groups);
	free(events);
	return ret;
}

int kp_cmd_del(int argc, char **argv)
{
	return kp_select_names("del", KPMOD_CMD_PROBE_DEL, argc, argv, false);
}

int kp_cmd_clear(int argc, char **argv)
{
	unsigned int reclaimed;
	struct kp_status st;
	struct kp_nl nl;
	struct kp_err e;
	int ret;

	(void)argv;
	if (argc > 1) {
		kp_msg("clear", "takes no arguments\n");
		return KP_EXIT_USAGE;
	}
	ret = kp_session_open("clear", &nl, &st);
	if (ret)
		return ret;
	/* What a killed one-shot run left enabled would keep everything here. */
	ret = kp_oneshot_reclaim("clear", &nl, &reclaimed);
	if (!ret && kp_probe_clear(&nl, &e))
		ret = kp_fail("clear", &e);
	kp_nl_close(&nl);
	return ret;
}

/* Runs @fn (or with --json, @json) over the probe list: for list and stat. */
static int kp_with_list(const char *cmd, int argc, char **argv,
			void (*fn)(const struct kp_probe_list *l),
			void (*json)(FILE *out, const struct kp_status *st,
				     const struct kp_probe_list *l))
{
	bool as_json = argc == 2 && !strcmp(argv[1], "--json");
	struct kp_probe_list l;
	struct kp_status st;
	struct kp_nl nl;
	struct kp_err e;
	int ret;

	if (argc > 1 && !as_json) {
		kp_msg(cmd, "takes no arguments but --json%s\n",
		       strcmp(cmd, "stat") ? "" : " or --prometheus");
		return KP_EXIT_USAGE;
	}
	ret = kp_session_open(cmd, &nl, &st);
	if (ret)
		return ret;
	if (kp_probe_list_get(&nl, &l, &e)) {
		ret = kp_fail(cmd, &e);
	} else {
		if (as_json)
			json(stdout, &st, &l);
		else
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

		if (p->desc.kind == KPMOD_PROBE_RETURN && p->maxactive && rest &&
		    p->definition[0] == 'r')
			printf("r%u%s\n", p->maxactive, rest);
		else
			printf("%s\n", p->definition);
	}
}

/* kprobe_profile's columns (event, hits, misses), then dropped and filtered. */
static void kp_print_stat(const struct kp_probe_list *l)
{
	unsigned int i;

	for (i = 0; i < l->n; i++) {
		const struct kp_probe_info *p = &l->probes[i];

		printf("  %-44s %15llu %15llu %15llu %15llu%s\n", p->desc.event,
		       (unsigned long long)p->hits, (unsigned long long)p->misses,
		       (unsigned long long)p->dropped, (unsigned long long)p->filtered,
		       p->gone ? " (gone)" : "");
	}
}

/* list --json: with what each argument compiled to on this machine. */
static void kp_list_json_compiled(FILE *out, const struct kp_status *st,
				   const struct kp_probe_list *l)
{
	const struct kp_arch *arch = kp_arch_by_name(st->arch);
	struct kp_def_parser *dp = arch ? kp_def_parser_new(arch, KP_SYMS_KALLSYMS, NULL) : NULL;

	kp_list_json(out, l, dp);
	kp_def_parser_free(dp);
}

static void kp_stat_json_of(FILE *out, const struct kp_status *st, const struct kp_probe_list *l)
{
	(void)st;
	kp_stat_json(out, l);
}

int kp_cmd_list(int argc, char **argv)
{
	return kp_with_list("list", argc, argv, kp_print_list, kp_list_json_compiled);
}

/* stat --prometheus: the probes' counters and every ring's, one exposition. */
static int kp_stat_prom(void)
{
	struct kp_probe_list l;
	struct kp_ring_stats rs;
	struct kp_status st;
	struct kp_nl nl;
	struct kp_err e;
	int ret;

	ret = kp_session_open("stat", &nl, &st);
	if (ret)
		return ret;
	if (kp_probe_list_get(&nl, &l, &e)) {
		ret = kp_fail("stat", &e);
	} else {
		if (kp_ring_stats_get(&nl, &rs, &e)) {
			ret = kp_fail("stat", &e);
		} else {
			kp_stat_prometheus(stdout, &st, &l, &rs);
			kp_ring_stats_free(&rs);
		}
		kp_probe_list_free(&l);
	}
	kp_nl_close(&nl);
	return ret;
}

int kp_cmd_stat(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--prometheus"))
		return kp_stat_prom();
	return kp_with_list("stat", argc, argv, kp_print_stat, kp_stat_json_of);
}

int kp_cmd_enable(int argc, char **argv)
{
	return kp_select_names("enable", KPMOD_CMD_PROBE_ENABLE, argc, argv, true);
}

int kp_cmd_disable(int argc, char **argv)
{
	return kp_select_names("disable", KPMOD_CMD_PROBE_DISABLE, argc, argv, true);
}
