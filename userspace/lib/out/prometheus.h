/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kpmod stat --prometheus: the counters in Prometheus' text exposition
 * format (version 0.0.4), for node_exporter's textfile collector.
 */
#ifndef KPMOD_PROMETHEUS_H
#define KPMOD_PROMETHEUS_H

#include <stdio.h>

#include "probe_nl.h"
#include "session.h"

void kp_stat_prometheus(FILE *out, const struct kp_status *st, const struct kp_probe_list *l,
			const struct kp_ring_stats *rs);

/* Writes @s as a label value: backslash, double quote and newline escaped. */
void kp_prom_label_value(FILE *out, const char *s);

#endif
