// SPDX-License-Identifier: GPL-2.0
/* A reader's symbols, named by the module as it goes (recsyms.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "ksyms.h"
#include "probe_nl.h"
#include "recfile.h"
#include "recsyms.h"

static size_t addr_hash(uint64_t a, size_t cap)
{
	a ^= a >> 33;
	a *= 0xff51afd7ed558ccdULL;
	a ^= a >> 33;
	return (size_t)a & (cap - 1);
}

/* Adds @a (never 0): 1 if new, 0 if there, -ENOMEM. */
static int addrset_add(struct kp_addrset *s, uint64_t a)
{
	size_t i;

	if (2 * (s->n + 1) > s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 1024, j;
		uint64_t *m = calloc(cap, sizeof(*m));

		if (!m)
			return -ENOMEM;
		for (j = 0; j < s->cap; j++) {
			if (!s->slot[j])
				continue;
			for (i = addr_hash(s->slot[j], cap); m[i]; i = (i + 1) & (cap - 1))
				;
			m[i] = s->slot[j];
		}
		free(s->slot);
		s->slot = m;
		s->cap = cap;
	}
	for (i = addr_hash(a, s->cap); s->slot[i]; i = (i + 1) & (s->cap - 1))
		if (s->slot[i] == a)
			return 0;
	s->slot[i] = a;
	s->n++;
	return 1;
}

void kp_recsyms_init(struct kp_recsyms *rs, const char *cmd,
		     const struct kp_probe_desc *probes, size_t n)
{
	memset(rs, 0, sizeof(*rs));
	rs->cmd = cmd;
	rs->probes = probes;
	rs->nprobes = n;
	rs->on = kp_ksyms_shown();
}

static void keep(uint64_t addr, void *arg)
{
	struct kp_recsyms *rs = arg;
	int ret = addrset_add(&rs->seen, addr);

	if (ret <= 0) {
		rs->oom |= ret < 0;
		return;
	}
	if (rs->npending == rs->pending_cap) {
		size_t cap = rs->pending_cap ? 2 * rs->pending_cap : 256;
		uint64_t *m = realloc(rs->pending, cap * sizeof(*m));

		if (!m) {
			rs->oom = true;
			return;
		}
		rs->pending = m;
		rs->pending_cap = cap;
	}
	rs->pending[rs->npending++] = addr;
}

/* Whether @p's records hold no address but their ip and return address. */
static bool plain(const struct kp_probe_desc *p)
{
	uint32_t i;

	for (i = 0; p && i < p->nargs; i++)
		if (p->args[i].type == KPMOD_T_SYMBOL || p->args[i].type == KPMOD_T_SYMSTR)
			return false;
	return p != NULL;
}

void kp_recsyms_add(struct kp_recsyms *rs, const struct kpmod_record *rec)
{
	if (!rs->on)
		return;
	if (rec->type == KPMOD_REC_EVENT) {
		/*
		 * A probe's events come in runs, mostly from one address: its
		 * description is looked up once a run, and an event with the
		 * last one's addresses has nothing new to ask for.
		 */
		if (!rs->last || rs->last->id != rec->probe_id) {
			rs->last = kp_probe_find(rs->probes, rs->nprobes, rec->probe_id);
			rs->last_plain = plain(rs->last);
			rs->last_ip = 0;
		} else if (rs->last_plain && rec->ip == rs->last_ip &&
			   rec->ret_ip == rs->last_ret_ip) {
			return;
		}
		rs->last_ip = rec->ip;
		rs->last_ret_ip = rec->ret_ip;
	}
	kp_format_addrs(rec, rec->type == KPMOD_REC_EVENT ? rs->last : NULL, keep, rs);
}

int kp_recsyms_named(uint64_t addr, const char *text, void *arg)
{
	char name[KPMOD_MAX_SYMBOL_LEN], mod[KPMOD_MAX_MODULE_LEN];
	struct kp_recsyms *rs = arg;
	struct kp_sym s, *d;
	int ret;

	if (kp_ksyms_parse_ps(text, addr, &s, name, mod))
		return 0;	/* no symbol there: it prints as hex */
	ret = addrset_add(&rs->starts, s.addr);
	if (ret <= 0)
		goto out;
	if (rs->nout == rs->out_cap) {
		size_t cap = rs->out_cap ? 2 * rs->out_cap : 64;
		struct kp_sym *m = realloc(rs->out, cap * sizeof(*m));

		ret = -ENOMEM;
		if (!m)
			goto out;
		rs->out = m;
		rs->out_cap = cap;
	}
	d = &rs->out[rs->nout];
	*d = s;
	d->name = strdup(name);
	d->mod = s.mod ? strdup(mod) : NULL;
	ret = 0;
	if (!d->name || (s.mod && !d->mod)) {
		free((char *)d->name);
		free((char *)d->mod);
		ret = -ENOMEM;
	} else {
		rs->nout++;
	}
out:
	/* Out of memory here is the recorder's, not the module's refusal. */
	rs->oom |= ret < 0;
	return ret < 0 ? ret : 0;
}

static void out_clear(struct kp_recsyms *rs)
{
	size_t i;

	for (i = 0; i < rs->nout; i++) {
		free((char *)rs->out[i].name);
		free((char *)rs->out[i].mod);
	}
	rs->nout = 0;
}

/* Has the module name what was kept, into rs->out: 0 or -ENOMEM. */
static int name_pending(struct kp_recsyms *rs, struct kp_nl *nl)
{
	char what[64];
	struct kp_err e;
	size_t i;

	for (i = 0; !rs->oom && rs->on && i < rs->npending; i += KPMOD_SYM_BATCH) {
		size_t n = rs->npending - i < KPMOD_SYM_BATCH ? rs->npending - i : KPMOD_SYM_BATCH;

		if (kp_sym_resolve(nl, rs->pending + i, n, kp_recsyms_named, rs, &e)) {
			if (rs->oom)
				break;
			/*
			 * The module's refusal, whatever it is, costs the
			 * reader its names, never its events: the addresses
			 * named so far still are.
			 */
			snprintf(what, sizeof(what), "%s: naming kernel addresses", rs->cmd);
			kp_err_print(stderr, what, &e);
			rs->on = false;
		}
	}
	rs->npending = 0;
	return rs->oom ? -ENOMEM : 0;
}

int kp_recsyms_flush(struct kp_recsyms *rs, struct kp_nl *nl, FILE *f)
{
	int ret = name_pending(rs, nl);

	if (!ret && rs->nout && kp_recfile_write_syms(f, rs->out, rs->nout))
		ret = -EIO;
	out_clear(rs);
	return ret;
}

int kp_recsyms_merge(struct kp_recsyms *rs, struct kp_ksyms *ks)
{
	size_t i;

	if (!rs->nout)
		return 0;
	if (rs->nall + rs->nout > rs->all_cap) {
		size_t cap = rs->all_cap ? 2 * rs->all_cap : 64;
		struct kp_sym *m;

		while (cap < rs->nall + rs->nout)
			cap *= 2;
		m = realloc(rs->all, cap * sizeof(*m));
		if (!m) {
			out_clear(rs);
			return -ENOMEM;
		}
		rs->all = m;
		rs->all_cap = cap;
	}
	/* The names move: rs->all owns them from here. */
	for (i = 0; i < rs->nout; i++)
		rs->all[rs->nall++] = rs->out[i];
	rs->nout = 0;
	kp_ksyms_free(ks);
	return kp_ksyms_load_sized(ks, rs->all, rs->nall);
}

int kp_recsyms_table(struct kp_recsyms *rs, struct kp_nl *nl, struct kp_ksyms *ks)
{
	int ret;

	/* Out of memory keeping an address is said even with none pending. */
	if (!rs->npending && !rs->oom)
		return 0;
	ret = name_pending(rs, nl);
	if (ret) {
		out_clear(rs);
		return ret;
	}
	return kp_recsyms_merge(rs, ks);
}

void kp_recsyms_free(struct kp_recsyms *rs)
{
	size_t i;

	out_clear(rs);
	for (i = 0; i < rs->nall; i++) {
		free((char *)rs->all[i].name);
		free((char *)rs->all[i].mod);
	}
	free(rs->all);
	free(rs->out);
	free(rs->pending);
	free(rs->seen.slot);
	free(rs->starts.slot);
	memset(rs, 0, sizeof(*rs));
}
