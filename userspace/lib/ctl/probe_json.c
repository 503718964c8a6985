// SPDX-License-Identifier: GPL-2.0
/* --json for kpmod list, stat and status (probe_json.h). */
#include <string.h>

#include "add.h"
#include "fetch_text.h"
#include "format.h"
#include "oneshot.h"
#include "probe_json.h"

static void kp_jstr(FILE *out, const char *key, const char *val, const char *sep)
{
	fprintf(out, "\"%s\":", key);
	kp_json_string(out, val, strlen(val));
	fputs(sep, out);
}

static void kp_jnum(FILE *out, const char *key, unsigned long long val, const char *sep)
{
	fprintf(out, "\"%s\":%llu%s", key, val, sep);
}

static void kp_jbool(FILE *out, const char *key, bool val, const char *sep)
{
	fprintf(out, "\"%s\":%s%s", key, val ? "true" : "false", sep);
}

static void kp_probe_name_json(FILE *out, const struct kp_probe_info *p)
{
	kp_jstr(out, "group", p->desc.group, ",");
	kp_jstr(out, "event", p->desc.event, ",");
}

void kp_list_json(FILE *out, const struct kp_probe_list *l, struct kp_def_parser *dp)
{
	static struct kp_probe_def def;
	char text[KP_ARG_TEXT_LEN * 2];
	unsigned int i, j;
	bool parsed;

	fputc('[', out);
	for (i = 0; i < l->n; i++) {
		const struct kp_probe_info *p = &l->probes[i];

		fputs(i ? ",\n{" : "{", out);
		kp_probe_name_json(out, p);
		kp_jstr(out, "kind", kp_kind_is_return(p->desc.kind) ? "r" : "p", ",");
		kp_jstr(out, "type", kp_kind_is_uprobe(p->desc.kind) ? "uprobe" : "kprobe", ",");
		kp_jstr(out, "definition", p->definition, ",");
		kp_jstr(out, "symbol", p->desc.symbol, ",");
		kp_jstr(out, "module", p->desc.module, ",");
		kp_jnum(out, "offset", p->desc.offset, ",");
		/* Above 2^53: a hex string, which no JSON reader rounds. */
		fprintf(out, "\"address\":\"0x%llx\",", (unsigned long long)p->desc.addr);
		kp_jnum(out, "maxactive", p->desc.kind == KPMOD_PROBE_RETURN ? p->maxactive : 0, ",");
		kp_jbool(out, "enabled", p->enabled, ",");
		kp_jbool(out, "soft_disabled", p->soft_disabled, ",");
		kp_jbool(out, "gone", p->gone, ",");
		kp_jstr(out, "filter", p->filter, ",");
		fputs("\"args\":[", out);
		parsed = dp && !kp_def_parser_compile(dp, p->definition, &def) &&
			 def.nargs == p->desc.nargs;
		for (j = 0; j < p->desc.nargs; j++) {
			fputs(j ? ",{" : "{", out);
			kp_jstr(out, "name", p->desc.args[j].name, dp ? "," : "}");
			if (!dp)
				continue;
			if (!parsed) {
				fputs("\"compiled\":null}", out);
				continue;
			}
			kp_fetch_text(&def.args[j], kp_def_parser_arch(dp), text, sizeof(text));
			kp_jstr(out, "compiled", text, "}");
		}
		fputs("],\"triggers\":[", out);
		for (j = 0; j < p->ntriggers; j++) {
			fputs(j ? ",{" : "{", out);
			kp_jstr(out, "trigger", p->triggers[j].text, ",");
			kp_jstr(out, "filter", p->triggers[j].filter, "}");
		}
		fputs("],", out);
		kp_jnum(out, "pid_tree", p->pid_tree, ",");
		kp_jnum(out, "added_by", p->added_by, ",");
		kp_jnum(out, "enabled_by", p->enabled_by, "}");
	}
	fputs("]\n", out);
}

void kp_stat_json(FILE *out, const struct kp_probe_list *l)
{
	unsigned int i;

	fputc('[', out);
	for (i = 0; i < l->n; i++) {
		const struct kp_probe_info *p = &l->probes[i];

		fputs(i ? ",\n{" : "{", out);
		kp_probe_name_json(out, p);
		kp_jnum(out, "hits", p->hits, ",");
		kp_jnum(out, "misses", p->misses, ",");
		kp_jnum(out, "dropped", p->dropped, ",");
		kp_jnum(out, "filtered", p->filtered, ",");
		kp_jbool(out, "gone", p->gone, "}");
	}
	fputs("]\n", out);
}

void kp_status_json(FILE *out, const struct kp_status *st, const struct kp_probe_list *l)
{
	unsigned int i, n = 0;

	fputc('{', out);
	kp_jstr(out, "module_version", st->module_version, ",");
	kp_jnum(out, "uapi", st->uapi, ",");
	kp_jstr(out, "cli_version", KPMOD_VERSION, ",");
	kp_jnum(out, "cli_uapi", KPMOD_UAPI_VERSION, ",");
	kp_jstr(out, "arch", st->arch, ",");
	kp_jstr(out, "kernel", st->release, ",");
	kp_jnum(out, "cpus_possible", st->possible, ",");
	kp_jnum(out, "cpus_online", st->online, ",");
	kp_jnum(out, "probes", st->probes, ",");
	kp_jnum(out, "max_probes", st->max_probes, ",");
	kp_jnum(out, "buffer_size", st->buf_size, ",");
	kp_jstr(out, "buffer_mode", kpmod_buf_mode_name(st->buf_mode), ",");
	kp_jnum(out, "buffer_limit", st->buf_limit, ",");
	kp_jnum(out, "hist_memory", st->hist_mem, ",");
	kp_jnum(out, "hist_limit", st->hist_limit, ",");
	kp_jbool(out, "tracing_on", st->tracing_on, ",");
	kp_jnum(out, "snapshots", st->snapshots, ",");
	kp_jnum(out, "snapshots_skipped", st->snapshots_skipped, ",");
	fputs("\"left_behind\":[", out);
	for (i = 0; l && i < l->n; i++) {
		const struct kp_probe_info *p = &l->probes[i];
		bool added, enabled;

		if (!kp_oneshot_left(p, &added, &enabled))
			continue;
		fputs(n++ ? ",{" : "{", out);
		kp_probe_name_json(out, p);
		kp_jnum(out, "added_by", added ? p->added_by : 0, ",");
		kp_jnum(out, "enabled_by", enabled ? p->enabled_by : 0, "}");
	}
	fputs("]}\n", out);
}
