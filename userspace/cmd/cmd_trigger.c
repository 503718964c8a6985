// SPDX-License-Identifier: GPL-2.0
/*
 * kpmod trigger EVENT [TRIGGER]: lists, adds or (with '!') removes one
 * probe's triggers, as reading and writing tracefs' events/GRP/EVENT/trigger
 * do.  kpmod hist EVENT: what reading events/GRP/EVENT/hist shows.
 * kpmod tracing [on|off]: whether events reach the rings (tracing_on).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "filter_probe.h"
#include "hist_print.h"
#include "live.h"
#include "oneshot.h"
#include "probe_ops.h"
#include "session.h"
#include "trigger.h"
#include "trigger_nl.h"

static int kp_trigger_list(const struct kp_probe_info *p)
{
	char line[KP_TRIGGER_TEXT_MAX + KPMOD_MAX_FILTER_TEXT + 64];
	struct kp_filter_fields *ff;
	unsigned int i;

	if (!p->ntriggers) {
		printf("# Available triggers:\n# traceon traceoff snapshot stacktrace enable_event disable_event hist\n");
		return 0;
	}
	ff = malloc(sizeof(*ff));
	if (!ff) {
		kp_msg("trigger", "out of memory\n");
		return KP_EXIT_ERROR;
	}
	kp_filter_fields_of(p, ff);
	for (i = 0; i < p->ntriggers; i++) {
		kp_trigger_line(line, sizeof(line), &p->triggers[i], ff);
		fputs(line, stdout);
	}
	free(ff);
	return 0;
}

/* The probe a command names, from a fresh list; prints why not. */
static int kp_trigger_session(const char *cmd, const char *name, struct kp_nl *nl,
			      struct kp_probe_list *l, const struct kp_probe_info **p)
{
	struct kp_status st;
	const char *why;
	struct kp_err e;
	int ret;

	ret = kp_session_open(cmd, nl, &st);
	if (ret)
		return ret;
	if (kp_probe_list_get(nl, l, &e)) {
		ret = kp_fail(cmd, &e);
		kp_nl_close(nl);
		return ret;
	}
	*p = kp_probe_list_find_name(l, name, &why);
	if (!*p) {
		kp_msg(cmd, "'%s': %s\n", name, why);
		kp_probe_list_free(l);
		kp_nl_close(nl);
		return KP_EXIT_REFUSED;
	}
	return 0;
}

int kp_cmd_trigger(int argc, char **argv)
{
	const struct kp_probe_info *p;
	struct kp_probe_list l;
	struct kp_nl nl;
	int ret;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: kpmod trigger EVENT|GROUP/EVENT ['[!]TRIGGER [if FILTER]']\n");
		return KP_EXIT_USAGE;
	}
	ret = kp_trigger_session("trigger", argv[1], &nl, &l, &p);
	if (ret)
		return ret;
	if (argc == 2)
		ret = kp_trigger_list(p);
	else
		ret = kp_trigger_apply(&nl, p, argv[2]);
	kp_probe_list_free(&l);
	kp_nl_close(&nl);
	return ret;
}

static bool kp_hist_needs_syms(const struct kp_hist_spec *h)
{
	unsigned int i;

	for (i = 0; i < h->nkeys; i++)
		if (h->keys[i].is_stack || h->keys[i].show == KP_HIST_SHOW_SYM ||
		    h->keys[i].show == KP_HIST_SHOW_SYM_OFFSET)
			return true;
	return false;
}

struct kp_hist_opts {
	bool graph;
	bool json;
	unsigned int interval;		/* seconds; 0: print once */
	double duration;		/* a run's, seconds; 0: until its end */
	bool prometheus;		/* Prometheus' text format */
	bool prom_values;		/* its second pass: the values */
	bool prom_header;		/* the family's HELP and TYPE still to print */
};

/* One hist trigger's table; @first: no blank lines before it. */
static int kp_hist_one(struct kp_nl *nl, const struct kp_probe_info *p,
		       const struct kp_trigger_info *t, const struct kp_filter_fields *ff,
		       bool first, struct kp_hist_opts *o, struct kp_ksyms *ks,
		       bool *ks_loaded)
{
	char info[KP_TRIGGER_TEXT_MAX + KPMOD_MAX_FILTER_TEXT + 64];
	struct kp_hist_spec h;
	struct kp_hist_data d;
	struct kp_err e;

	if (kp_hist_spec_of(t->text, ff, &h)) {
		kp_msg("hist", "%s/%s: cannot read back '%s'\n", p->desc.group, p->desc.event,
		       t->text);
		return KP_EXIT_ERROR;
	}
	if (kp_hist_needs_syms(&h) && !*ks_loaded)
		*ks_loaded = !kp_ksyms_load_file(ks, NULL);
	/* --interval: taken, an empty table in its place, so every hit is in one round. */
	if (kp_hist_get(nl, p->desc.group, p->desc.event, t->id,
			o->interval ? KP_HIST_READ_CLEAR : KP_HIST_READ, &d, &e)) {
		kp_err_about(&e, p->desc.event);
		return kp_fail("hist", &e);
	}
	if (d.key_size != h.key_size) {
		kp_msg("hist", "%s/%s: the module's keys are not what its text says\n",
		       p->desc.group, p->desc.event);
		kp_hist_data_free(&d);
		return KP_EXIT_ERROR;
	}
	if (o->prometheus) {
		o->prom_header = kp_hist_prometheus(stdout, p->desc.group, p->desc.event, t->id, &h, &d,
						    *ks_loaded ? ks : NULL, o->prom_values,
						    o->prom_header);
	} else if (o->json) {
		char event[2 * KPMOD_MAX_NAME_LEN];

		kp_trigger_line(info, sizeof(info), t, ff);
		snprintf(event, sizeof(event), "%s/%s", p->desc.group, p->desc.event);
		kp_hist_json(stdout, event, &h, info, &d, *ks_loaded ? ks : NULL);
	} else if (o->graph) {
		kp_hist_graph(stdout, &h, &d, *ks_loaded ? ks : NULL);
	} else {
		kp_trigger_line(info, sizeof(info), t, ff);
		if (!first)
			fputs("\n\n", stdout);
		kp_hist_show(stdout, &h, info, &d, *ks_loaded ? ks : NULL);
	}
	kp_hist_data_free(&d);
	return 0;
}

/* Every hist table of @p once; KP_EXIT_REFUSED if it has none. */
static int kp_hist_all(struct kp_nl *nl, const struct kp_probe_info *p,
		       const struct kp_filter_fields *ff, struct kp_hist_opts *o,
		       struct kp_ksyms *ks, bool *ks_loaded)
{
	unsigned int i, pass;
	bool first = true;
	int ret = 0;

	/* Prometheus: every table's hits, then every table's values. */
	for (pass = 0; pass < (o->prometheus ? 2U : 1U); pass++) {
		o->prom_values = pass;
		o->prom_header = true;
		first = true;
		for (i = 0; !ret && i < p->ntriggers; i++) {
			if (p->triggers[i].type != KPMOD_TRIGGER_HIST)
				continue;
			ret = kp_hist_one(nl, p, &p->triggers[i], ff, first, o, ks, ks_loaded);
			first = false;
		}
	}
	if (first) {
		kp_msg("hist",
		       "%s/%s has no hist trigger (kpmod trigger %s/%s " "'hist:keys=...')\n",
		       p->desc.group, p->desc.event, p->desc.group, p->desc.event);
		ret = KP_EXIT_REFUSED;
	}
	fflush(stdout);
	return ret;
}

static int kp_hist_options(int argc, char **argv, struct kp_hist_opts *o, const char **event,
			   struct kp_oneshot_args *run)
{
	char *end;
	int i;

	*event = NULL;
	memset(run, 0, sizeof(*run));
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--graph")) {
			o->graph = true;
		} else if (!strcmp(argv[i], "--json")) {
			o->json = true;
		} else if (!strcmp(argv[i], "--prometheus")) {
			o->prometheus = true;
		} else if (!strcmp(argv[i], "--interval") && i + 1 < argc) {
			o->interval = (unsigned int)strtoul(argv[++i], &end, 10);
			if (argv[i][0] < '0' || argv[i][0] > '9' || *end || !o->interval ||
			    o->interval > 86400)
				return -1;
		} else if (!strcmp(argv[i], "--duration") && i + 1 < argc) {
			o->duration = strtod(argv[++i], &end);
			if (end == argv[i] || *end || !isfinite(o->duration) || o->duration <= 0 ||
			    o->duration >= 1e9)
				return -1;
		} else if (!strcmp(argv[i], "--")) {
			run->command = i + 1 < argc ? &argv[i + 1] : NULL;
			if (!run->command)
				return -1;
			break;
		} else if (argv[i][0] != '-' && !*event) {
			*event = argv[i];
		} else if (argv[i][0] != '-') {
			/* The triggers of a one-shot run. */
			if (!run->nspecs)
				run->specs = &argv[i];
			else if (run->specs + run->nspecs != &argv[i])
				return -1;
			run->nspecs++;
		} else {
			return -1;
		}
	}
	return *event && o->graph + o->json + o->prometheus <= 1 &&
	       !(o->prometheus && (o->interval || run->nspecs || run->command)) ? 0 : -1;
}

/*
 * kpmod hist [--graph|--json] [--interval S] [--duration S] DEF TRIGGER...
 * [-- COMMAND]: a one-shot run.  The probe DEF is added (not enabled:
 * its hist counts without recording events), with COMMAND's process
 * tree only, its TRIGGERs added; then COMMAND runs (or the run waits for
 * Ctrl-C or --duration), the tables are printed (and every --interval),
 * and the probe and its triggers go.
 */
/* The probe a run added, from a fresh list in @l (the old one freed); NULL if gone. */
static const struct kp_probe_info *kp_hist_run_probe(struct kp_oneshot *os,
						     struct kp_probe_list *l)
{
	struct kp_event_name *want = &os->added[0];
	const struct kp_probe_info *p;
	struct kp_err e;

	kp_probe_list_free(l);
	if (kp_probe_list_get(&os->nl, l, &e)) {
		kp_fail("hist", &e);
		return NULL;
	}
	p = kp_probe_list_find(l, want->group, want->event);
	if (!p)
		kp_msg("hist", "%s/%s is gone\n", want->group, want->event);
	return p;
}

static int kp_hist_run(const char *def, const struct kp_oneshot_args *run,
		       struct kp_hist_opts *o)
{
	struct kp_oneshot_args a = { .specs = (char **)&def, .nspecs = 1, .command = run->command };
	const struct kp_probe_info *p = NULL;
	struct kp_filter_fields *ff = NULL;
	struct kp_probe_list l = { 0 };
	struct kp_ksyms ks = { 0 };
	uint64_t deadline, next;
	bool ks_loaded = false;
	struct kp_oneshot os;
	int ret, i;

	if (!kp_oneshot_is_def(def)) {
		kp_msg("hist",
		       "a run's hist goes on a probe it adds: '%s' is not a definition (for an existing event: kpmod trigger)\n",
		       def);
		return KP_EXIT_USAGE;
	}
	if (!run->nspecs) {
		kp_msg("hist", "a run needs a trigger: 'hist:keys=...'\n");
		return KP_EXIT_USAGE;
	}
	kp_catch_signals();
	ret = kp_oneshot_begin(&os, "hist", &a, run->command ? KP_ONESHOT_COMMAND : 0);
	if (ret)
		return ret;
	ff = malloc(sizeof(*ff));
	if (!ff) {
		ret = KP_EXIT_ERROR;
		goto out;
	}
	p = kp_hist_run_probe(&os, &l);
	if (!p) {
		ret = KP_EXIT_ERROR;
		goto out;
	}
	for (i = 0; i < run->nspecs && !ret; i++)
		ret = kp_trigger_apply(&os.nl, p, run->specs[i]);
	if (ret)
		goto out;
	if (run->command)
		ret = kp_oneshot_spawn(&os, run->command);
	deadline = o->duration ? kp_now_ns() + o->duration * 1e9 : 0;
	next = o->interval ? kp_now_ns() + o->interval * 1000000000ULL : 0;
	while (!ret && !kp_stop && (!deadline || kp_now_ns() < deadline)) {
		usleep(20000);
		if (next && kp_now_ns() >= next && !kp_stop) {
			next += o->interval * 1000000000ULL;
			p = kp_hist_run_probe(&os, &l);
			if (!p)
				break;
			kp_filter_fields_of(p, ff);
			ret = kp_hist_all(&os.nl, p, ff, o, &ks, &ks_loaded);
		}
	}
	/* The tables as the run leaves them (since --interval's last round). */
	p = ret ? NULL : kp_hist_run_probe(&os, &l);
	if (p) {
		kp_filter_fields_of(p, ff);
		o->interval = 0;
		ret = kp_hist_all(&os.nl, p, ff, o, &ks, &ks_loaded);
	}
out:
	if (ks_loaded)
		kp_ksyms_free(&ks);
	kp_probe_list_free(&l);
	free(ff);
	i = kp_oneshot_end(&os);
	return ret ? ret : i;
}

int kp_cmd_hist(int argc, char **argv)
{
	struct kp_hist_opts o = { 0 };
	struct kp_oneshot_args run;
	struct kp_ksyms ks = { 0 };
	bool ks_loaded = false;
	const struct kp_probe_info *p;
	struct kp_filter_fields *ff;
	struct kp_probe_list l;
	const char *event;
	struct kp_nl nl;
	struct kp_err e;
	int ret;

	if (kp_hist_options(argc, argv, &o, &event, &run)) {
		fprintf(stderr, "usage: kpmod hist [--graph | --json | --prometheus] [--interval SECONDS] EVENT|GROUP/EVENT\n"
			"       kpmod hist [--graph | --json] [--interval SECONDS] [--duration SECONDS]\n"
			"                  DEF TRIGGER... [-- COMMAND [ARGS...]]\n");
		return KP_EXIT_USAGE;
	}
	if (run.nspecs || run.command || o.duration)
		return kp_hist_run(event, &run, &o);
	ff = malloc(sizeof(*ff));
	if (!ff) {
		kp_msg("hist", "out of memory\n");
		return KP_EXIT_ERROR;
	}
	if (o.interval)
		kp_catch_signals();
	ret = kp_trigger_session("hist", event, &nl, &l, &p);
	if (ret) {
		free(ff);
		return ret;
	}
	kp_filter_fields_of(p, ff);
	if (!o.interval)
		ret = kp_hist_all(&nl, p, ff, &o, &ks, &ks_loaded);
	while (o.interval && !ret) {
		/*
		 * As bpftrace's interval:s:N { print(@); clear(@); }, until
		 * Ctrl-C, and then the part-round since the last, as bpftrace
		 * prints its maps at exit: the rounds add up to every hit.
		 */
		sleep(o.interval);
		ret = kp_hist_all(&nl, p, ff, &o, &ks, &ks_loaded);
		if (kp_stop)
			break;
		/* The triggers' counts and hits changed: list them again. */
		kp_probe_list_free(&l);
		if (!ret && kp_probe_list_get(&nl, &l, &e))
			ret = kp_fail("hist", &e);
		if (!ret && !(p = kp_probe_list_find_name(&l, event, &(const char *){ NULL }))) {
			kp_msg("hist", "'%s' is gone\n", event);
			ret = KP_EXIT_REFUSED;
		}
		/* The fields name the listed arguments: the old list is freed. */
		if (!ret)
			kp_filter_fields_of(p, ff);
	}
	if (ks_loaded)
		kp_ksyms_free(&ks);
	kp_probe_list_free(&l);
	kp_nl_close(&nl);
	free(ff);
	return ret;
}

int kp_cmd_tracing(int argc, char **argv)
{
	struct kp_status st;
	struct kp_nl nl;
	struct kp_err e;
	int ret;

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "on") && strcmp(argv[1], "off"))) {
		fprintf(stderr, "usage: kpmod tracing [on|off]\n");
		return KP_EXIT_USAGE;
	}
	ret = kp_session_open("tracing", &nl, &st);
	if (ret)
		return ret;
	if (argc == 1) {
		printf("%s\n", st.tracing_on ? "on" : "off");
	} else {
		ret = kp_tracing_set(&nl, !strcmp(argv[1], "on"), &e);
		if (ret)
			ret = kp_fail("tracing", &e);
	}
	kp_nl_close(&nl);
	return ret;
}
