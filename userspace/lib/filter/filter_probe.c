// SPDX-License-Identifier: GPL-2.0
/* A filter for one probe: its fields, and the program in the module's form. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "filter_probe.h"

static void kp_field_add(struct kp_filter_fields *ff, const char *name,
			 enum kp_filter_field_type type, unsigned int size,
			 bool is_signed, uint16_t id, const char *refused)
{
	unsigned int i = ff->n++;

	ff->f[i] = (struct kp_filter_field){ .name = name, .type = type,
					     .size = size, .is_signed = is_signed };
	ff->id[i] = id;
	ff->refused[i] = refused;
}

/* The probe's own fields (trace_kprobe.c's DEFINE_FIELDs), before its arguments. */
static void kp_filter_fields_start(struct kp_filter_fields *ff, uint32_t kind)
{
	memset(ff, 0, sizeof(*ff));
	if (kp_kind_is_return(kind)) {
		kp_field_add(ff, "__probe_func", KP_FILTER_FIELD_NUM, sizeof(long), false,
			     KPMOD_FIELD_PROBE_FUNC, NULL);
		kp_field_add(ff, "__probe_ret_ip", KP_FILTER_FIELD_NUM, sizeof(long), false,
			     KPMOD_FIELD_PROBE_RET_IP, NULL);
	} else {
		kp_field_add(ff, "__probe_ip", KP_FILTER_FIELD_NUM, sizeof(long), false,
			     KPMOD_FIELD_PROBE_IP, NULL);
	}
}

/* Argument @i: @size is its slot's bytes (a whole array's). */
static void kp_filter_field_arg(struct kp_filter_fields *ff, unsigned int i, const char *name,
				uint32_t type, uint32_t count, uint32_t size)
{
	if (type == KPMOD_T_STRING || type == KPMOD_T_USTRING)
		kp_field_add(ff, name, KP_FILTER_FIELD_STRING, 0, false, i, NULL);
	else if (type == KPMOD_T_SYMSTR)
		kp_field_add(ff, name, KP_FILTER_FIELD_STRING, 0, false, i,
			     "a symstr argument cannot be filtered on");
	else
		/* The kernel compares an array as one number of its whole size. */
		kp_field_add(ff, name, KP_FILTER_FIELD_NUM, size, kpmod_type_signed(type), i,
			     count ? "an array argument cannot be filtered on" : NULL);
}

/* Then those every event has. */
static void kp_filter_fields_end(struct kp_filter_fields *ff)
{
	unsigned int i;

	for (i = 0; i < kp_filter_nr_common_fields; i++) {
		const struct kp_filter_field *c = &kp_filter_common_fields[i];
		uint16_t id = c->type == KP_FILTER_FIELD_CPU ? KPMOD_FIELD_CPU :
			      c->type == KP_FILTER_FIELD_COMM ? KPMOD_FIELD_COMM :
			      KPMOD_FIELD_PID;

		kp_field_add(ff, c->name, c->type, c->size, c->is_signed, id, NULL);
	}
}

void kp_filter_fields_of(const struct kp_probe_info *p, struct kp_filter_fields *ff)
{
	unsigned int i;

	kp_filter_fields_start(ff, p->desc.kind);
	for (i = 0; i < p->desc.nargs; i++)
		kp_filter_field_arg(ff, i, p->desc.args[i].name, p->desc.args[i].type, p->desc.args[i].count,
				    p->desc.args[i].size);
	kp_filter_fields_end(ff);
}

/* The bytes an argument's store (or bitfield container) writes per element. */
static uint32_t kp_def_elem_size(const struct kp_arg_def *a)
{
	uint32_t size = 0;
	unsigned int i;

	for (i = 0; i < a->ninsns; i++) {
		switch (a->insns[i].op) {
		case KPMOD_FOP_ST_RAW:
		case KPMOD_FOP_ST_MEM:
		case KPMOD_FOP_ST_UMEM:
		case KPMOD_FOP_MOD_BF:
			size = a->insns[i].size;
			break;
		}
	}
	return size;
}

void kp_filter_fields_of_def(const struct kp_probe_def *d, struct kp_filter_fields *ff)
{
	unsigned int i;

	kp_filter_fields_start(ff, d->kind);
	for (i = 0; i < d->nargs; i++) {
		const struct kp_arg_def *a = &d->args[i];
		uint32_t count = a->count ? a->count : 1;

		kp_filter_field_arg(ff, i, a->name, a->type, a->count,
				    kp_def_elem_size(a) * count);
	}
	kp_filter_fields_end(ff);
}

static uint8_t kp_filter_uapi_op(const struct kp_filter_pred *p, bool is_string)
{
	static const uint8_t num[KP_FILTER_OP_COUNT] = {
		[KP_FILTER_OP_NE] = KPMOD_FILTER_NE, [KP_FILTER_OP_EQ] = KPMOD_FILTER_EQ,
		[KP_FILTER_OP_LE] = KPMOD_FILTER_LE, [KP_FILTER_OP_LT] = KPMOD_FILTER_LT,
		[KP_FILTER_OP_GE] = KPMOD_FILTER_GE, [KP_FILTER_OP_GT] = KPMOD_FILTER_GT,
		[KP_FILTER_OP_BAND] = KPMOD_FILTER_BAND,
	};
	static const uint8_t str[] = {
		[KP_FILTER_MATCH_FULL] = KPMOD_FILTER_STR_FULL,
		[KP_FILTER_MATCH_FRONT] = KPMOD_FILTER_STR_FRONT,
		[KP_FILTER_MATCH_MIDDLE] = KPMOD_FILTER_STR_MIDDLE,
		[KP_FILTER_MATCH_END] = KPMOD_FILTER_STR_END,
		[KP_FILTER_MATCH_GLOB] = KPMOD_FILTER_STR_GLOB,
	};

	return is_string ? str[p->match] : num[p->op];
}

int kp_filter_build(const char *expr, const struct kp_filter_fields *ff,
		    struct kp_filter_code *code, struct kp_filter_error *err,
		    const char **why)
{
	struct kp_filter_prog prog;
	unsigned int i;
	size_t off = 0;
	int ret;

	memset(code, 0, sizeof(*code));
	*why = NULL;
	ret = kp_filter_compile(expr, ff->f, ff->n, &prog, err);
	if (ret)
		return ret;
	if (prog.nr_preds > KPMOD_MAX_FILTER_PREDS) {
		/* The module's bound; the kernel's only is the page. */
		kp_filter_prog_free(&prog);
		err->msg = "Too many terms in predicate expression";
		err->pos = 0;
		return -EINVAL;
	}
	ret = -ENOMEM;
	code->nr = prog.nr_preds;
	code->preds = calloc(prog.nr_preds, sizeof(*code->preds));
	/* Room for every operand; only the string ones are kept. */
	for (i = 0; i < prog.nr_preds; i++)
		off += prog.preds[i].len + 1;
	code->strs = malloc(off);
	off = 0;
	if (!code->preds || !code->strs)
		goto out;
	for (i = 0; i < prog.nr_preds; i++) {
		const struct kp_filter_pred *p = &prog.preds[i];
		const struct kp_filter_insn *in = &prog.insns[i];
		const struct kp_filter_field *f = &ff->f[p->field];
		bool is_string = f->type == KP_FILTER_FIELD_STRING ||
				 f->type == KP_FILTER_FIELD_COMM;
		struct kpmod_filter_pred *u = &code->preds[i];

		if (ff->refused[p->field]) {
			*why = ff->refused[p->field];
			ret = -EPERM;
			goto out;
		}
		u->op = kp_filter_uapi_op(p, is_string);
		u->field = ff->id[p->field];
		u->target = in->target;
		if (in->when_to_branch)
			u->flags |= KPMOD_FILTER_BRANCH;
		if (is_string) {
			if (p->invert)
				u->flags |= KPMOD_FILTER_INVERT;
			u->len = p->len;
			u->str_off = off;
			memcpy(code->strs + off, p->pattern, p->len + 1);
			off += p->len + 1;
		} else {
			u->val = p->val;
		}
	}
	code->strs_len = off;
	/* No string operand: send none. */
	if (!off) {
		free(code->strs);
		code->strs = NULL;
	}
	ret = 0;
out:
	if (ret)
		kp_filter_code_free(code);
	kp_filter_prog_free(&prog);
	return ret;
}

void kp_filter_code_free(struct kp_filter_code *code)
{
	free(code->preds);
	free(code->strs);
	memset(code, 0, sizeof(*code));
}
