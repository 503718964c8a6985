// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "live.h"
#include "probe_nl.h"

volatile int kp_stop;

static void kp_on_signal(int sig)
{
	(void)sig;
	kp_stop = 1;
}

void kp_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = kp_on_signal;
	/* Restart netlink and file I/O; poll() in kp_wait still returns EINTR. */
	sa.sa_flags = SA_RESTART;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

char *kp_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	size_t cap = 1 << 20, n = 0, got;
	char *buf = NULL, *grown;

	if (!f)
		return NULL;
	for (;;) {
		grown = realloc(buf, cap);
		if (!grown) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = grown;
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (n < cap)
			break;
		cap *= 2;
	}
	fclose(f);
	*len = n;
	return buf;
}

uint64_t kp_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

int kp_live_attach(struct kp_live *lv, kp_ring_open_fn open_ring)
{
	unsigned int cpu;
	int ret;

	for (cpu = 0; cpu < lv->st.cpus; cpu++) {
		struct kp_ring *r = &lv->rings[lv->nrings];

		ret = open_ring(r, NULL, cpu);
		if (ret == -ENXIO)
			continue;
		if (ret) {
			kp_msg(lv->cmd, "%s\n", r->err);
			return ret == -EBUSY ? KP_EXIT_REFUSED :
			       ret == -EPERM || ret == -EACCES ? KP_EXIT_PERM : KP_EXIT_ERROR;
		}
		lv->at_attach[lv->nrings] = kp_ring_counts(r);
		lv->lost_seen[lv->nrings] = lv->at_attach[lv->nrings].lost;
		lv->nrings++;
	}
	return 0;
}

void kp_live_discard_before(struct kp_live *lv, uint64_t t0)
{
	const struct kpmod_record *rec;
	unsigned int i;
	int ret;

	for (i = 0; i < lv->nrings; i++) {
		struct kp_ring *r = &lv->rings[i];

		while ((ret = kp_ring_peek(r, &rec)) != 0) {
			if (ret > 0 && rec->ts_ns >= t0)
				break;
			kp_ring_skip(r);
		}
		kp_ring_release(r);
		lv->lost_seen[i] = kp_ring_lost(r);
	}
}

int kp_live_open(struct kp_live *lv, const char *cmd, bool symbolize)
{
	return kp_live_open_rings(lv, cmd, symbolize, kp_ring_open);
}

int kp_live_open_rings(struct kp_live *lv, const char *cmd, bool symbolize,
		       kp_ring_open_fn open_ring)
{
	struct kp_probe_list l;
	struct kp_err e;
	unsigned int i;
	int ret;

	memset(lv, 0, sizeof(*lv));
	lv->cmd = cmd;
	ret = kp_session_open(cmd, &lv->nl, &lv->st);
	if (ret)
		return ret;
	if (kp_probe_list_get(&lv->nl, &l, &e)) {
		ret = kp_fail(cmd, &e);
		goto fail;
	}
	lv->probes = calloc(l.n ? l.n : 1, sizeof(*lv->probes));
	lv->rings = calloc(lv->st.cpus ? lv->st.cpus : 1, sizeof(*lv->rings));
	lv->at_attach = calloc(lv->st.cpus ? lv->st.cpus : 1, sizeof(*lv->at_attach));
	lv->lost_seen = calloc(lv->st.cpus ? lv->st.cpus : 1, sizeof(*lv->lost_seen));
	if (!lv->probes || !lv->rings || !lv->at_attach || !lv->lost_seen) {
		kp_probe_list_free(&l);
		kp_msg(cmd, "out of memory\n");
		ret = KP_EXIT_ERROR;
		goto fail;
	}
	for (i = 0; i < l.n; i++) {
		lv->probes[i] = l.probes[i].desc;
		lv->nenabled += l.probes[i].enabled;
	}
	lv->nprobes = l.n;
	kp_probe_list_free(&l);
	if (symbolize)
		kp_recsyms_init(&lv->names, cmd, lv->probes, lv->nprobes);
	ret = kp_live_attach(lv, open_ring);
	if (ret)
		goto fail;
	return 0;
fail:
	kp_live_close(lv);
	return ret;
}

void kp_live_note(struct kp_live *lv, const struct kpmod_record *rec)
{
	kp_recsyms_add(&lv->names, rec);
}

const struct kp_ksyms *kp_live_ksyms(struct kp_live *lv)
{
	/* Out of memory costs names, not events: said once. */
	if (kp_recsyms_table(&lv->names, &lv->nl, &lv->ks) && lv->names.on) {
		kp_msg(lv->cmd, "out of memory: kernel addresses print as hex from here\n");
		lv->names.on = false;
	}
	return lv->ks.gen ? &lv->ks : NULL;
}

void kp_live_close(struct kp_live *lv)
{
	unsigned int i;

	for (i = 0; i < lv->nrings; i++)
		kp_ring_close(&lv->rings[i]);
	free(lv->rings);
	free(lv->at_attach);
	free(lv->lost_seen);
	free(lv->probes);
	kp_ksyms_free(&lv->ks);
	kp_recsyms_free(&lv->names);
	kp_nl_close(&lv->nl);
	memset(lv, 0, sizeof(*lv));
}

void kp_live_info(const struct kp_live *lv, struct kp_recinfo *info)
{
	memset(info, 0, sizeof(*info));
	info->uapi_version = KPMOD_UAPI_VERSION;
	info->nr_cpus = lv->st.cpus;
	info->buf_mode = lv->st.buf_mode;
	info->buf_size = lv->st.buf_size;
	snprintf(info->arch, sizeof(info->arch), "%s", lv->st.arch);
	snprintf(info->release, sizeof(info->release), "%s", lv->st.release);
	snprintf(info->module_version, sizeof(info->module_version), "%s",
		 lv->st.module_version);
}

void kp_live_summary(const struct kp_live *lv, uint64_t events)
{
	uint64_t lost = 0, before = 0, nested = 0;
	unsigned int i;

	for (i = 0; i < lv->nrings; i++) {
		lost += kp_ring_lost(&lv->rings[i]) - lv->at_attach[i].lost;
		before += lv->at_attach[i].lost;
		nested += kp_ring_nested(&lv->rings[i]) - lv->at_attach[i].nested;
	}
	kp_msg(lv->cmd, "%llu events, lost %llu (", (unsigned long long)events,
	       (unsigned long long)lost);
	for (i = 0; i < lv->nrings; i++)
		fprintf(stderr, "%scpu%u %llu", i ? ", " : "", lv->rings[i].cpu,
			(unsigned long long)(kp_ring_lost(&lv->rings[i]) - lv->at_attach[i].lost));
	fprintf(stderr, ")");
	if (before)
		fprintf(stderr, ", %llu lost before this reader started", (unsigned long long)before);
	if (lv->st.buf_mode == KPMOD_BUF_OVERWRITE) {
		uint64_t ow = 0;

		for (i = 0; i < lv->nrings; i++)
			ow += kp_ring_overwritten(&lv->rings[i]);
		fprintf(stderr, ", %llu overwritten", (unsigned long long)ow);
	}
	fprintf(stderr, ", nested %llu\n", (unsigned long long)nested);
}
