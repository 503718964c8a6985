// SPDX-License-Identifier: GPL-2.0
/* kpmod stat --prometheus (prometheus.h). */
#include <stddef.h>
#include <stdint.h>

#include "prometheus.h"

void kp_prom_label_value(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fprintf(out, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", out);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

static void kp_prom_header(FILE *out, const char *name, const char *type, const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A per-probe metric: one sample per probe, labelled by group and event. */
static void kp_prom_probes(FILE *out, const struct kp_probe_list *l, const char *name,
			   const char *type, const char *help, size_t field)
{
	unsigned int i;

	kp_prom_header(out, name, type, help);
	for (i = 0; i < l->n; i++) {
		const struct kp_probe_info *p = &l->probes[i];
		uint64_t v = field == SIZE_MAX ? p->enabled :
			     *(const uint64_t *)((const char *)p + field);

		fprintf(out, "%s{group=", name);
		kp_prom_label_value(out, p->desc.group);
		fputs(",event=", out);
		kp_prom_label_value(out, p->desc.event);
		fprintf(out, "} %llu\n", (unsigned long long)v);
	}
}

/* A per-ring metric: one sample per CPU. */
static void kp_prom_rings(FILE *out, const struct kp_ring_stats *rs, const char *name,
			  const char *help, size_t field)
{
	unsigned int i;

	kp_prom_header(out, name, "counter", help);
	for (i = 0; i < rs->n; i++)
		fprintf(out, "%s{cpu=\"%u\"} %llu\n", name, rs->rings[i].cpu,
			(unsigned long long)*(const uint64_t *)((const char *)&rs->rings[i] + field));
}

void kp_stat_prometheus(FILE *out, const struct kp_status *st, const struct kp_probe_list *l,
			const struct kp_ring_stats *rs)
{
	kp_prom_header(out, "kpmod_probes", "gauge", "Probes registered in the kpmod module.");
	fprintf(out, "kpmod_probes %u\n", st->probes);
	kp_prom_header(out, "kpmod_tracing_on", "gauge",
		       "1 when events reach the rings (kpmod tracing on), else 0.");
	fprintf(out, "kpmod_tracing_on %d\n", st->tracing_on);
	kp_prom_probes(out, l, "kpmod_probe_enabled", "gauge",
		       "1 when the probe is enabled, else 0.", SIZE_MAX);
	kp_prom_probes(out, l, "kpmod_probe_hits_total", "counter",
		       "Hits of the probe, as kprobe_profile counts them.",
		       offsetof(struct kp_probe_info, hits));
	kp_prom_probes(out, l, "kpmod_probe_misses_total", "counter",
		       "Hits the kernel's kprobes machinery missed (kprobe_profile's misses).",
		       offsetof(struct kp_probe_info, misses));
	kp_prom_probes(out, l, "kpmod_probe_dropped_total", "counter",
		       "Events of the probe dropped for lack of ring space.",
		       offsetof(struct kp_probe_info, dropped));
	kp_prom_probes(out, l, "kpmod_probe_filtered_total", "counter",
		       "Events of the probe its filter did not match.",
		       offsetof(struct kp_probe_info, filtered));
	kp_prom_rings(out, rs, "kpmod_ring_events_total", "Records written into the CPU's ring.",
		      offsetof(struct kp_ring_stat, events));
	kp_prom_rings(out, rs, "kpmod_ring_lost_total",
		      "Records dropped: the CPU's ring was full (discard mode).",
		      offsetof(struct kp_ring_stat, lost));
	kp_prom_rings(out, rs, "kpmod_ring_overwritten_total",
		      "Records overwritten by newer ones (overwrite mode).",
		      offsetof(struct kp_ring_stat, overwritten));
	kp_prom_rings(out, rs, "kpmod_ring_nested_total",
		      "Events lost: a handler nested in another on the CPU.",
		      offsetof(struct kp_ring_stat, nested));
}
