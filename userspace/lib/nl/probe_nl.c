// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/genl/genl.h>

#include "args.h"
#include "probe_nl.h"

static void kp_str(char *dst, size_t sz, struct nlattr *a)
{
	snprintf(dst, sz, "%s", a ? nla_get_string(a) : "");
}

static uint64_t kp_u64(struct nlattr *a)
{
	return a ? nla_get_u64(a) : 0;
}

static uint32_t kp_u32(struct nlattr *a)
{
	return a ? nla_get_u32(a) : 0;
}

static int kp_parse_args(struct kp_probe_info *p, struct nlattr *args)
{
	struct nlattr *nest, *tb[KPMOD_ARG_A_MAX + 1];
	int rem;

	p->desc.nargs = 0;
	if (!args)
		return 0;
	nla_for_each_nested(nest, args, rem) {
		struct kp_arg_desc *a;

		if (p->desc.nargs == KPMOD_MAX_ARGS ||
		    nla_parse_nested(tb, KPMOD_ARG_A_MAX, nest, NULL) < 0)
			return -EPROTO;
		a = &p->desc.args[p->desc.nargs++];
		kp_str(a->name, sizeof(a->name), tb[KPMOD_ARG_A_NAME]);
		a->type = kp_u32(tb[KPMOD_ARG_A_TYPE]);
		a->count = kp_u32(tb[KPMOD_ARG_A_COUNT]);
		a->offset = kp_u32(tb[KPMOD_ARG_A_OFFSET]);
		a->size = kp_u32(tb[KPMOD_ARG_A_SIZE]);
	}
	return 0;
}

static void kp_triggers_free(struct kp_probe_info *p)
{
	unsigned int i;

	for (i = 0; i < p->ntriggers; i++) {
		free(p->triggers[i].text);
		free(p->triggers[i].filter);
	}
	free(p->triggers);
	p->triggers = NULL;
	p->ntriggers = 0;
}

static int kp_parse_triggers(struct kp_probe_info *p, struct nlattr *all)
{
	struct nlattr *nest, *tb[KPMOD_TRIG_A_MAX + 1];
	int rem;

	if (!all)
		return 0;
	nla_for_each_nested(nest, all, rem) {
		struct kp_trigger_info *t, *grown;

		if (nla_parse_nested(tb, KPMOD_TRIG_A_MAX, nest, NULL) < 0)
			return -EPROTO;
		grown = realloc(p->triggers, (p->ntriggers + 1) * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		p->triggers = grown;
		t = &grown[p->ntriggers];
		memset(t, 0, sizeof(*t));
		t->id = kp_u32(tb[KPMOD_TRIG_A_ID]);
		t->type = kp_u32(tb[KPMOD_TRIG_A_TYPE]);
		t->count = kp_u32(tb[KPMOD_TRIG_A_COUNT]);
		t->entries = kp_u32(tb[KPMOD_TRIG_A_ENTRIES]);
		t->key_size = kp_u32(tb[KPMOD_TRIG_A_KEY_SIZE]);
		t->paused = tb[KPMOD_TRIG_A_PAUSED] != NULL;
		t->hits = kp_u64(tb[KPMOD_TRIG_A_HITS]);
		t->drops = kp_u64(tb[KPMOD_TRIG_A_DROPS]);
		t->text = strdup(tb[KPMOD_TRIG_A_TEXT] ? nla_get_string(tb[KPMOD_TRIG_A_TEXT]) : "");
		t->filter = strdup(tb[KPMOD_TRIG_A_FILTER] ?
				   nla_get_string(tb[KPMOD_TRIG_A_FILTER]) : "");
		p->ntriggers++;
		if (!t->text || !t->filter)
			return -ENOMEM;
	}
	return 0;
}

static int kp_probe_reply(struct nlattr **a, void *arg)
{
	struct kp_probe_list *l = arg;
	struct kp_probe_info *p, *grown;

	grown = realloc(l->probes, (l->n + 1) * sizeof(*l->probes));
	if (!grown)
		return -ENOMEM;
	l->probes = grown;
	p = &l->probes[l->n];
	memset(p, 0, sizeof(*p));
	p->desc.id = kp_u32(a[KPMOD_A_PROBE_ID]);
	p->desc.kind = kp_u32(a[KPMOD_A_PROBE_KIND]);
	p->maxactive = kp_u32(a[KPMOD_A_PROBE_MAXACTIVE]);
	p->desc.args_size = kp_u32(a[KPMOD_A_PROBE_ARGS_SIZE]);
	kp_str(p->desc.group, sizeof(p->desc.group), a[KPMOD_A_PROBE_GROUP]);
	kp_str(p->desc.event, sizeof(p->desc.event), a[KPMOD_A_PROBE_EVENT]);
	kp_str(p->desc.symbol, sizeof(p->desc.symbol), a[KPMOD_A_PROBE_SYMBOL]);
	kp_str(p->desc.module, sizeof(p->desc.module), a[KPMOD_A_PROBE_MODULE]);
	kp_str(p->definition, sizeof(p->definition), a[KPMOD_A_PROBE_DEFINITION]);
	p->desc.offset = kp_u64(a[KPMOD_A_PROBE_OFFSET]);
	p->desc.addr = kp_u64(a[KPMOD_A_PROBE_ADDRESS]);
	p->hits = kp_u64(a[KPMOD_A_PROBE_HITS]);
	p->misses = kp_u64(a[KPMOD_A_PROBE_MISSES]);
	p->dropped = kp_u64(a[KPMOD_A_PROBE_DROPPED]);
	p->filtered = kp_u64(a[KPMOD_A_PROBE_FILTERED]);
	kp_str(p->filter, sizeof(p->filter), a[KPMOD_A_FILTER_TEXT]);
	p->enabled = a[KPMOD_A_PROBE_ENABLED] != NULL;
	p->gone = a[KPMOD_A_PROBE_GONE] != NULL;
	p->soft_disabled = a[KPMOD_A_PROBE_SOFT_DISABLED] != NULL;
	p->pid_tree = kp_u32(a[KPMOD_A_PROBE_PID_TREE]);
	p->added_by = kp_u32(a[KPMOD_A_PROBE_ADDED_BY]);
	p->enabled_by = kp_u32(a[KPMOD_A_PROBE_ENABLED_BY]);
	l->n++;
	if (kp_parse_args(p, a[KPMOD_A_PROBE_ARGS]))
		return -EPROTO;
	return kp_parse_triggers(p, a[KPMOD_A_TRIGGERS]);
}

static void kp_probe_list_reset(void *arg)
{
	kp_probe_list_free(arg);
}

int kp_probe_list_get(struct kp_nl *nl, struct kp_probe_list *out, struct kp_err *e)
{
	int ret;

	memset(out, 0, sizeof(*out));
	ret = kp_nl_dump(nl, KPMOD_CMD_PROBE_GET, kp_probe_reply, kp_probe_list_reset,
			 out, e);
	if (ret)
		kp_probe_list_free(out);
	return ret;
}

void kp_probe_list_free(struct kp_probe_list *l)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		kp_triggers_free(&l->probes[i]);
	free(l->probes);
	l->probes = NULL;
	l->n = 0;
}

const struct kp_probe_info *kp_probe_list_find_id(const struct kp_probe_list *l, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (l->probes[i].desc.id == id)
			return &l->probes[i];
	return NULL;
}

const struct kp_probe_info *kp_probe_list_find_name(const struct kp_probe_list *l,
						    const char *spec, const char **why)
{
	char group[KPMOD_MAX_NAME_LEN], event[KPMOD_MAX_NAME_LEN];
	const struct kp_probe_info *found = NULL;
	unsigned int i;

	if (kp_split_event_name(spec, group, sizeof(group), event, sizeof(event))) {
		*why = "bad event name";
		return NULL;
	}
	for (i = 0; i < l->n; i++) {
		const struct kp_probe_info *p = &l->probes[i];

		if (strcmp(p->desc.event, event) || (group[0] && strcmp(p->desc.group, group)))
			continue;
		if (found) {
			*why = "event exists in several groups: name it GROUP/EVENT";
			return NULL;
		}
		found = p;
	}
	if (!found)
		*why = "no such event";
	return found;
}

const struct kp_probe_info *kp_probe_list_find(const struct kp_probe_list *l, const char *group,
					       const char *event)
{
	unsigned int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->probes[i].desc.group, group) && !strcmp(l->probes[i].desc.event, event))
			return &l->probes[i];
	return NULL;
}

struct kp_select_req {
	const struct kp_select *sel;
	size_t n;
	int *offsets;		/* each selector's offset in the message */
	bool one_shot;		/* ENABLE for a one-shot run */
	uint32_t pid_tree;	/* its process tree, or 0 */
	bool too_big;		/* the selectors passed a nest's 64 KiB */
};

static int kp_fill_select(struct nl_msg *msg, void *arg)
{
	struct kp_select_req *r = arg;
	struct nlattr *all, *one;
	size_t i;

	all = nla_nest_start(msg, KPMOD_A_PROBE_SELECT);
	if (!all)
		return -NLE_NOMEM;
	for (i = 0; i < r->n; i++) {
		one = nla_nest_start(msg, KPMOD_A_SELECTOR);
		if (!one)
			return -NLE_NOMEM;
		r->offsets[i] = (int)((char *)one - (char *)nlmsg_hdr(msg));
		if (r->sel[i].group && nla_put_string(msg, KPMOD_SEL_A_GROUP, r->sel[i].group))
			return -NLE_NOMEM;
		/* "" matches any: libnl drops an empty nest. */
		if (nla_put_string(msg, KPMOD_SEL_A_EVENT, r->sel[i].event ? r->sel[i].event : ""))
			return -NLE_NOMEM;
		if (nla_nest_end(msg, one) < 0)
			return -NLE_ATTRSIZE;
	}
	/* libnl drops a nest over 64 KiB (an attribute's length is 16 bits). */
	if (nla_nest_end(msg, all) < 0) {
		r->too_big = true;
		return -NLE_ATTRSIZE;
	}
	if ((r->one_shot && nla_put_flag(msg, KPMOD_A_PROBE_ONE_SHOT)) ||
	    (r->pid_tree && nla_put_u32(msg, KPMOD_A_PROBE_PID_TREE, r->pid_tree)))
		return -NLE_NOMEM;
	return 0;
}

static int kp_probe_select_req(struct kp_nl *nl, uint8_t cmd, struct kp_select_req r,
			       int *bad, struct kp_err *e)
{
	const size_t n = r.n;
	size_t i;
	int ret;

	*bad = -1;
	r.offsets = calloc(n ? n : 1, sizeof(*r.offsets));
	if (!r.offsets) {
		kp_err_set(e, ENOMEM, NULL);
		e->code = KP_EXIT_ERROR;
		return e->code;
	}
	ret = kp_nl_call(nl, cmd, 0, kp_fill_select, NULL, &r, e);
	if (ret && r.too_big) {
		kp_err_set(e, E2BIG,
			   "the names take over 64 KiB, more than one request holds: name fewer, or by a glob");
		e->code = KP_EXIT_USAGE;
		ret = e->code;
	}
	for (i = 0; ret && e->bad_attr >= 0 && i < n; i++)
		if (r.offsets[i] == e->bad_attr)
			*bad = (int)i;
	free(r.offsets);
	return ret;
}

int kp_probe_select(struct kp_nl *nl, uint8_t cmd, const struct kp_select *sel,
		    size_t n, int *bad, struct kp_err *e)
{
	return kp_probe_select_req(nl, cmd, (struct kp_select_req){ .sel = sel, .n = n }, bad, e);
}

int kp_probe_select_one(struct kp_nl *nl, uint8_t cmd, const char *group, const char *event,
			struct kp_err *e)
{
	struct kp_select sel = { group && *group ? group : NULL, event && *event ? event : NULL };
	int bad;

	return kp_probe_select(nl, cmd, &sel, 1, &bad, e);
}

int kp_probe_enable_run(struct kp_nl *nl, const struct kp_select *sel, size_t n,
			uint32_t pid_tree, int *bad, struct kp_err *e)
{
	struct kp_select_req r = { .sel = sel, .n = n, .one_shot = true, .pid_tree = pid_tree };

	return kp_probe_select_req(nl, KPMOD_CMD_PROBE_ENABLE, r, bad, e);
}

int kp_probe_clear(struct kp_nl *nl, struct kp_err *e)
{
	return kp_nl_call(nl, KPMOD_CMD_CLEAR, 0, NULL, NULL, NULL, e);
}

int kp_filter_put(struct nl_msg *msg, const struct kp_filter_req *r)
{

	if (nla_put_string(msg, KPMOD_A_PROBE_GROUP, r->group) ||
	    nla_put_string(msg, KPMOD_A_PROBE_EVENT, r->event))
		return -NLE_NOMEM;
	if (!r->text)
		return 0;
	if (nla_put_string(msg, KPMOD_A_FILTER_TEXT, r->text) ||
	    nla_put(msg, KPMOD_A_FILTER_PROG, r->nr * sizeof(*r->preds), r->preds) ||
	    (r->strs_len && nla_put(msg, KPMOD_A_FILTER_STRS, r->strs_len, r->strs)))
		return -NLE_NOMEM;
	return 0;
}

static int kp_fill_filter(struct nl_msg *msg, void *arg)
{
	return kp_filter_put(msg, arg);
}

int kp_probe_filter_set(struct kp_nl *nl, const struct kp_filter_req *r, struct kp_err *e)
{
	return kp_nl_call(nl, KPMOD_CMD_PROBE_FILTER, 0, kp_fill_filter, NULL, (void *)r, e);
}

struct kp_hist_req {
	const char *group, *event;
	uint32_t id;
	enum kp_hist_read how;
	struct kp_hist_data *d;
};

static int kp_fill_hist(struct nl_msg *msg, void *arg)
{
	const struct kp_hist_req *r = arg;

	if (nla_put_string(msg, KPMOD_A_PROBE_GROUP, r->group) ||
	    nla_put_string(msg, KPMOD_A_PROBE_EVENT, r->event) ||
	    nla_put_u32(msg, KPMOD_A_TRIGGER_ID, r->id) ||
	    (r->how == KP_HIST_READ_CLEAR &&
	     nla_put_u32(msg, KPMOD_A_HIST_ACTION, KPMOD_HIST_CLEAR)))
		return -NLE_NOMEM;
	return 0;
}

static int kp_hist_reply(struct nlattr **a, void *arg)
{
	struct kp_hist_data *d = ((struct kp_hist_req *)arg)->d;
	struct nlattr *nla;
	int rem;

	d->hits = kp_u64(a[KPMOD_A_HIST_HITS]);
	d->drops = kp_u64(a[KPMOD_A_HIST_DROPS]);
	d->key_size = kp_u32(a[KPMOD_A_HIST_KEY_SIZE]);
	d->entry_size = sizeof(struct kpmod_hist_entry) + d->key_size;
	if (!a[KPMOD_A_HIST_ENTRIES])
		return 0;
	nla_for_each_nested(nla, a[KPMOD_A_HIST_ENTRIES], rem) {
		unsigned char *grown;

		if ((size_t)nla_len(nla) != d->entry_size)
			return -EPROTO;
		/* Doubling: a table of 131072 entries is read in 18 steps. */
		if (d->n == d->cap) {
			d->cap = d->cap ? 2 * d->cap : 256;
			grown = realloc(d->entries, d->cap * d->entry_size);
			if (!grown)
				return -ENOMEM;
			d->entries = grown;
		}
		memcpy(d->entries + d->n++ * d->entry_size, nla_data(nla), d->entry_size);
	}
	return 0;
}

static void kp_hist_reset(void *arg)
{
	struct kp_hist_data *d = ((struct kp_hist_req *)arg)->d;

	kp_hist_data_free(d);
}

int kp_hist_get(struct kp_nl *nl, const char *group, const char *event, uint32_t id,
		enum kp_hist_read how, struct kp_hist_data *out, struct kp_err *e)
{
	struct kp_hist_req r = { group, event, id, how, out };
	int ret;


	memset(out, 0, sizeof(*out));
	/*
	 * Read again when cleared while read (another user's :clear).  A read
	 * that clears reads the table it took, which no clear touches.
	 */
	ret = kp_nl_dump_req(nl, KPMOD_CMD_HIST_GET, kp_fill_hist, kp_hist_reply, kp_hist_reset,
			     &r, e);
	if (ret)
		kp_hist_data_free(out);
	return ret;
}

void kp_hist_data_free(struct kp_hist_data *d)
{
	free(d->entries);
	memset(d, 0, sizeof(*d));
}

static int kp_fill_tracing(struct nl_msg *msg, void *arg)
{
	return nla_put_u32(msg, KPMOD_A_TRACING_ON, *(bool *)arg) ? -NLE_NOMEM : 0;
}

int kp_tracing_set(struct kp_nl *nl, bool on, struct kp_err *e)
{
	return kp_nl_call(nl, KPMOD_CMD_TRACING, 0, kp_fill_tracing, NULL, &on, e);
}

struct kp_sym_req {
	const uint64_t *addrs;
	unsigned int n, got;
	kp_sym_fn fn;
	void *arg;
};

static int kp_fill_sym(struct nl_msg *msg, void *arg)
{
	const struct kp_sym_req *q = arg;

	return nla_put(msg, KPMOD_A_SYM_ADDRS, q->n * sizeof(*q->addrs), q->addrs) ?
	       -NLE_NOMEM : 0;
}

/* One text an address, in the request's order; anything else is refused. */
static int kp_sym_reply(struct nlattr **attrs, void *arg)
{
	struct kp_sym_req *q = arg;
	struct nlattr *a;
	int rem, ret;

	if (!attrs[KPMOD_A_SYMS])
		return -EBADMSG;
	nla_for_each_nested(a, attrs[KPMOD_A_SYMS], rem) {
		const char *t = nla_data(a);

		if (nla_type(a) != KPMOD_A_SYM_TEXT || q->got >= q->n || !nla_len(a) ||
		    t[nla_len(a) - 1])
			return -EBADMSG;
		ret = q->fn(q->addrs[q->got], t, q->arg);
		if (ret)
			return ret;
		q->got++;
	}
	return 0;
}

int kp_sym_resolve(struct kp_nl *nl, const uint64_t *addrs, unsigned int n,
		   kp_sym_fn fn, void *arg, struct kp_err *e)
{
	struct kp_sym_req q = { addrs, n, 0, fn, arg };
	int ret = kp_nl_call(nl, KPMOD_CMD_SYM_RESOLVE, 0, kp_fill_sym, kp_sym_reply, &q, e);

	if (!ret && q.got != n) {
		kp_err_set(e, EPROTO, "the module named fewer addresses than asked");
		return e->code;
	}
	return ret;
}

struct kp_buffer_req {
	uint64_t size;
	int mode;
};

static int kp_fill_buffer(struct nl_msg *msg, void *arg)
{
	const struct kp_buffer_req *n = arg;

	if (n->size && nla_put_u64(msg, KPMOD_A_BUF_SIZE, n->size))
		return -NLE_NOMEM;
	if (n->mode >= 0 && nla_put_u32(msg, KPMOD_A_BUF_MODE, n->mode))
		return -NLE_NOMEM;
	return 0;
}

int kp_buffer_set(struct kp_nl *nl, uint64_t size, int mode, struct kp_err *e)
{
	struct kp_buffer_req n = { size, mode };

	return kp_nl_call(nl, KPMOD_CMD_BUFFER_SET, 0, kp_fill_buffer, NULL, &n, e);
}
