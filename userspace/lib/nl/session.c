// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session.h"

static void kp_copy_str(char *dst, struct nlattr *a)
{
	snprintf(dst, KPMOD_STR_MAX, "%s", a ? nla_get_string(a) : "?");
}

static uint32_t kp_get_u32(struct nlattr *a)
{
	return a ? nla_get_u32(a) : 0;
}

static int kp_status_reply(struct nlattr **a, void *arg)
{
	struct kp_status *st = arg;

	kp_copy_str(st->module_version, a[KPMOD_A_MODULE_VERSION]);
	kp_copy_str(st->arch, a[KPMOD_A_ARCH]);
	kp_copy_str(st->release, a[KPMOD_A_KERNEL_RELEASE]);
	st->uapi = kp_get_u32(a[KPMOD_A_UAPI_VERSION]);
	st->cpus = kp_get_u32(a[KPMOD_A_NR_CPUS]);
	st->possible = kp_get_u32(a[KPMOD_A_NR_POSSIBLE_CPUS]);
	st->tracing_on = kp_get_u32(a[KPMOD_A_TRACING_ON]) != 0;
	st->buf_limit = a[KPMOD_A_BUF_LIMIT] ? nla_get_u64(a[KPMOD_A_BUF_LIMIT]) : 0;
	st->hist_mem = a[KPMOD_A_HIST_MEM] ? nla_get_u64(a[KPMOD_A_HIST_MEM]) : 0;
	st->hist_limit = a[KPMOD_A_HIST_LIMIT] ? nla_get_u64(a[KPMOD_A_HIST_LIMIT]) : 0;
	st->snapshots = a[KPMOD_A_SNAPSHOTS] ? nla_get_u64(a[KPMOD_A_SNAPSHOTS]) : 0;
	st->snapshots_skipped = a[KPMOD_A_SNAPSHOTS_SKIPPED] ?
				nla_get_u64(a[KPMOD_A_SNAPSHOTS_SKIPPED]) : 0;
	st->online = kp_get_u32(a[KPMOD_A_NR_ONLINE_CPUS]);
	st->probes = kp_get_u32(a[KPMOD_A_NR_PROBES]);
	st->max_probes = kp_get_u32(a[KPMOD_A_MAX_PROBES]);
	st->buf_mode = kp_get_u32(a[KPMOD_A_BUF_MODE]);
	st->buf_size = a[KPMOD_A_BUF_SIZE] ? nla_get_u64(a[KPMOD_A_BUF_SIZE]) : 0;
	return 0;
}

int kp_status_get(struct kp_nl *nl, struct kp_status *st, struct kp_err *e)
{
	memset(st, 0, sizeof(*st));
	return kp_nl_call(nl, KPMOD_CMD_STATUS, 0, NULL, kp_status_reply, st, e);
}

static int kp_rings_reply(struct nlattr **a, void *arg)
{
	struct kp_ring_stats *rs = arg;
	struct nlattr *tb[KPMOD_RING_A_MAX + 1], *one;
	struct kp_ring_stat *grown;
	int rem;

	if (!a[KPMOD_A_RINGS])
		return 0;
	nla_for_each_nested(one, a[KPMOD_A_RINGS], rem) {
		if (nla_parse_nested(tb, KPMOD_RING_A_MAX, one, NULL) || !tb[KPMOD_RING_A_CPU])
			return -EPROTO;
		grown = realloc(rs->rings, (rs->n + 1) * sizeof(*rs->rings));
		if (!grown)
			return -ENOMEM;
		rs->rings = grown;
		grown[rs->n++] = (struct kp_ring_stat){
			.cpu = nla_get_u32(tb[KPMOD_RING_A_CPU]),
			.events = tb[KPMOD_RING_A_EVENTS] ? nla_get_u64(tb[KPMOD_RING_A_EVENTS]) : 0,
			.lost = tb[KPMOD_RING_A_LOST] ? nla_get_u64(tb[KPMOD_RING_A_LOST]) : 0,
			.overwritten = tb[KPMOD_RING_A_OVERWRITTEN] ?
				       nla_get_u64(tb[KPMOD_RING_A_OVERWRITTEN]) : 0,
			.nested = tb[KPMOD_RING_A_NESTED] ? nla_get_u64(tb[KPMOD_RING_A_NESTED]) : 0,
		};
	}
	return 0;
}

int kp_ring_stats_get(struct kp_nl *nl, struct kp_ring_stats *rs, struct kp_err *e)
{
	int ret;

	memset(rs, 0, sizeof(*rs));
	ret = kp_nl_call(nl, KPMOD_CMD_STATUS, 0, NULL, kp_rings_reply, rs, e);
	if (ret)
		kp_ring_stats_free(rs);
	return ret;
}

void kp_ring_stats_free(struct kp_ring_stats *rs)
{
	free(rs->rings);
	memset(rs, 0, sizeof(*rs));
}

int kp_fail(const char *cmd, const struct kp_err *e)
{
	kp_err_print(stderr, cmd, e);
	return e->code;
}

int kp_session_open(const char *cmd, struct kp_nl *nl, struct kp_status *st)
{
	struct kp_err e;
	int ret;

	ret = kp_nl_open(nl, &e);
	if (!ret)
		ret = kp_status_get(nl, st, &e);
	if (ret) {
		kp_nl_close(nl);
		return kp_fail(cmd, &e);
	}
	if (st->uapi != KPMOD_UAPI_VERSION) {
		kp_msg(cmd, "version mismatch: module speaks uapi %u, this CLI uapi %u\n", st->uapi,
		       KPMOD_UAPI_VERSION);
		kp_nl_close(nl);
		return KP_EXIT_MISMATCH;
	}
	return 0;
}
