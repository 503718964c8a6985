// SPDX-License-Identifier: GPL-2.0
/*
 * Event filters.  Userspace compiles the expression (the kernel's grammar)
 * into a forward-only program; this file checks every entry of it against
 * the probe before it is used, and runs it on a record built in the CPU's
 * scratch buffer, before any ring space is taken.  Running it takes no
 * lock, allocates nothing and makes at most one step per predicate.
 */
#include <linux/bitops.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/netlink.h>

#include "field.h"
#include "filter.h"
#include "glob.h"
#include "layout.h"

static bool kpmod_filter_is_str_op(u8 op)
{
	return op >= KPMOD_FILTER_STR_FULL && op <= KPMOD_FILTER_STR_GLOB;
}

static int kpmod_filter_check(const struct kpmod_layout *lay, const struct kpmod_filter *f,
			      const struct nlattr *prog, struct netlink_ext_ack *extack)
{
	u32 i;

	for (i = 0; i < f->nr; i++) {
		const struct kpmod_filter_pred *pr = &f->preds[i];
		enum kpmod_field_kind kind = kpmod_field_kind(lay, pr->field);
		bool str_op = kpmod_filter_is_str_op(pr->op);
		bool str_field = kind == KPMOD_FK_STR;

		if (!pr->op || pr->op >= __KPMOD_FILTER_OP_MAX || pr->__reserved ||
		    (pr->flags & ~(KPMOD_FILTER_BRANCH | KPMOD_FILTER_INVERT))) {
			NL_SET_ERR_MSG_ATTR(extack, prog, "filter program: bad op or flags");
			return -EINVAL;
		}
		/* Forward only, and to a verdict at the latest. */
		if (pr->target <= i || pr->target > f->nr + 1) {
			NL_SET_ERR_MSG_ATTR(extack, prog, "filter program: bad target");
			return -EINVAL;
		}
		if (kind == KPMOD_FK_BAD) {
			NL_SET_ERR_MSG_ATTR(extack, prog, "filter program: no such field here");
			return -EINVAL;
		}
		if (str_op != str_field || (!str_op && (pr->flags & KPMOD_FILTER_INVERT))) {
			NL_SET_ERR_MSG_ATTR(extack, prog, "filter program: op unfit for the field");
			return -EINVAL;
		}
		if (!str_op) {
			if (pr->len || pr->str_off) {
				NL_SET_ERR_MSG_ATTR(extack, prog, "filter program: stray operand");
				return -EINVAL;
			}
			continue;
		}
		/* The operand, NUL-terminated where it ends, inside the strings. */
		if (pr->val || pr->len >= KPMOD_MAX_FILTER_STR ||
		    (u64)pr->str_off + pr->len >= f->strs_len ||
		    f->strs[pr->str_off + pr->len] ||
		    memchr(f->strs + pr->str_off, 0, pr->len)) {
			NL_SET_ERR_MSG_ATTR(extack, prog, "filter program: bad string operand");
			return -EINVAL;
		}
	}
	return 0;
}

struct kpmod_filter *kpmod_filter_build(const struct kpmod_layout *lay, const char *text,
					const struct nlattr *prog, const struct nlattr *strs,
					struct netlink_ext_ack *extack)
{
	struct kpmod_filter *f;
	u32 len = nla_len(prog);
	int ret = -ENOMEM;

	if (!len || len % sizeof(struct kpmod_filter_pred) ||
	    len / sizeof(struct kpmod_filter_pred) > KPMOD_MAX_FILTER_PREDS) {
		NL_SET_ERR_MSG_ATTR(extack, prog, "filter program of a bad size");
		return ERR_PTR(-EINVAL);
	}
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return ERR_PTR(-ENOMEM);
	f->nr = len / sizeof(struct kpmod_filter_pred);
	f->preds = kmemdup(nla_data(prog), len, GFP_KERNEL);
	f->text = kstrdup(text, GFP_KERNEL);
	if (strs) {
		f->strs_len = nla_len(strs);
		f->strs = kmemdup(nla_data(strs), f->strs_len, GFP_KERNEL);
	}
	if (!f->preds || !f->text || (strs && !f->strs))
		goto fail;
	ret = kpmod_filter_check(lay, f, prog, extack);
	if (ret)
		goto fail;
	return f;
fail:
	kpmod_filter_free(f);
	return ERR_PTR(ret);
}

void kpmod_filter_free(struct kpmod_filter *f)
{
	if (!f)
		return;
	kfree(f->preds);
	kfree(f->strs);
	kfree(f->text);
	kfree(f);
}

static void kpmod_filter_free_cb(struct rcu_head *rcu)
{
	kpmod_filter_free(container_of(rcu, struct kpmod_filter, rcu));
}

/* Handlers run with preemption off: RCU readers (module exit: rcu_barrier()). */
void kpmod_filter_free_rcu(struct kpmod_filter *f)
{
	if (f)
		call_rcu(&f->rcu, kpmod_filter_free_cb);
}

static bool kpmod_filter_str(const struct kpmod_filter_pred *pr, const char *pat,
			     const char *str, u32 len)
{
	bool match;

	switch (pr->op) {
	case KPMOD_FILTER_STR_FULL:
		match = len == pr->len && !memcmp(str, pat, len);
		break;
	case KPMOD_FILTER_STR_FRONT:
		match = len >= pr->len && !memcmp(str, pat, pr->len);
		break;
	case KPMOD_FILTER_STR_MIDDLE:
		match = strnstr(str, pat, len);
		break;
	case KPMOD_FILTER_STR_END:
		match = len >= pr->len && !memcmp(str + len - pr->len, pat, pr->len);
		break;
	default:
		match = kpmod_glob(pat, str, len);
		break;
	}
	return match ^ !!(pr->flags & KPMOD_FILTER_INVERT);
}

/* Compares at the field's width and sign, as the kernel's filter_pred_*. */
static bool kpmod_filter_num(const struct kpmod_filter_pred *pr, u64 v, u32 size,
			     bool is_signed)
{
	u32 bits = size * BITS_PER_BYTE;
	u64 val = pr->val;
	s64 sv = 0, sval = 0;

	if (bits < 64) {
		v &= BIT_ULL(bits) - 1;
		val &= BIT_ULL(bits) - 1;
	}
	if (is_signed) {
		sv = sign_extend64(v, bits - 1);
		sval = sign_extend64(val, bits - 1);
	}
	switch (pr->op) {
	case KPMOD_FILTER_EQ:
		return v == val;
	case KPMOD_FILTER_NE:
		return v != val;
	case KPMOD_FILTER_LT:
		return is_signed ? sv < sval : v < val;
	case KPMOD_FILTER_LE:
		return is_signed ? sv <= sval : v <= val;
	case KPMOD_FILTER_GT:
		return is_signed ? sv > sval : v > val;
	case KPMOD_FILTER_GE:
		return is_signed ? sv >= sval : v >= val;
	default:
		return v & val;
	}
}

static bool kpmod_filter_pred_match(const struct kpmod_filter *f,
				    const struct kpmod_filter_pred *pr,
				    const struct kpmod_layout *lay,
				    const struct kpmod_record *rec)
{
	const char *pat = f->strs + pr->str_off;
	const char *str;
	u32 len;
	u64 v;

	if (pr->field < lay->nargs) {
		const struct kpmod_arg *a = &lay->args[pr->field];

		/* A fetch that faulted matches nothing. */
		if (!kpmod_filter_is_str_op(pr->op))
			return kpmod_field_num(lay, rec, pr->field, &v) &&
			       kpmod_filter_num(pr, v, a->size, kpmod_type_signed(a->type));
		return kpmod_field_str(lay, rec, pr->field, &str, &len) &&
		       kpmod_filter_str(pr, pat, str, len);
	}
	switch (pr->field) {
	case KPMOD_FIELD_COMM:
		return kpmod_filter_str(pr, pat, rec->comm, strnlen(rec->comm, sizeof(rec->comm)));
	case KPMOD_FIELD_CPU:
		/* The kernel's filter_pred_cpu() has no '&': never true. */
		if (pr->op == KPMOD_FILTER_BAND)
			return false;
		return kpmod_filter_num(pr, rec->cpu, sizeof(s32), true);
	case KPMOD_FIELD_PID:
		return kpmod_filter_num(pr, rec->pid, sizeof(s32), true);
	case KPMOD_FIELD_PROBE_IP:
	case KPMOD_FIELD_PROBE_FUNC:
		return kpmod_filter_num(pr, rec->ip, sizeof(long), false);
	default:
		return kpmod_filter_num(pr, rec->ret_ip, sizeof(long), false);
	}
}

bool kpmod_filter_match(const struct kpmod_filter *f, const struct kpmod_layout *lay,
			const struct kpmod_record *rec)
{
	u32 i = 0;

	/* Checked when set: every target is ahead, at most nr + 1. */
	while (i < f->nr) {
		const struct kpmod_filter_pred *pr = &f->preds[i];
		bool branch = pr->flags & KPMOD_FILTER_BRANCH;

		if (kpmod_filter_pred_match(f, pr, lay, rec) == branch)
			i = pr->target;
		else
			i++;
	}
	return i == f->nr;
}
