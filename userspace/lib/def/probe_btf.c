// SPDX-License-Identifier: GPL-2.0
/*
 * Names from BTF in kprobe definitions, as the kernel's trace_probe.c does
 * them with CONFIG_PROBE_EVENTS_BTF_ARGS (6.6 and later; the rules of 6.12
 * and 7.3): a parameter by name, ->member and .member through pointers
 * and embedded structures and unions, a bitfield member, a char * or
 * char[] as a string, a typed $retval, and $arg* and a bare $argN named
 * after the parameters; and 7.3's typecasts ((STRUCT[,FIELD])X->member),
 * $current->member and the %pd/%pD types.  A name compiles to what the module already runs
 * ($argN, dereferences at the offsets BTF gives, a store, a bitfield's
 * shifts): it is resolved here, on the machine, once; a hit costs what
 * the same definition written with offsets costs.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "probe_btf.h"
#include "uapi/kpmod.h"

/* The probed function's prototype, looked up once: 0 or -errno. */
static int query(struct pctx *pc)
{
	struct pbtf *b = &pc->btf;

	if (!b->queried) {
		b->queried = true;
		if (!b->func)
			b->qret = -EINVAL;
		else if (!b->kb)
			b->qret = -EOPNOTSUPP;
		else
			b->qret = kp_btf_func(b->kb, b->module, b->func, &b->f);
	}
	return b->qret;
}

/*
 * No prototype to look in: without BTF at all, why (kpmod's detail after
 * the kernel's NOSUP_BTFARG); with BTF that does not name the function,
 * the kernel's NO_BTF_ENTRY.
 */
static int no_entry(struct pctx *pc, int ret, int offs)
{
	if (ret == -EOPNOTSUPP)
		return kp_parse_set_err(pc->err, KP_E_NOSUP_BTFARG, pc->base + (size_t)offs,
					"%s (%s)", kp_parse_strerror(KP_E_NOSUP_BTFARG),
					pc->btf.kb ? kp_btf_why(pc->btf.kb) : "no BTF given");
	return ERR(pc, NO_BTF_ENTRY, offs);
}

/*
 * split_next_field(): cuts @var at its first "->" (returns 1) or "."
 * (returns 0), *@next after it; a '-' without '>' is BAD_HYPHEN.
 */
static int split_next(struct pctx *pc, char *var, char **next, int offs)
{
	char *f = strpbrk(var, ".-");

	if (!f)
		return 0;
	if (f[0] == '-' && f[1] == '>') {
		*f = '\0';
		*next = f + 2;
		return 1;
	}
	if (f[0] == '.') {
		*f = '\0';
		*next = f + 1;
		return 0;
	}
	return ERR(pc, BAD_HYPHEN, offs + (int)(f - var));
}

/*
 * get_bitoffset_of_field(): *@pname's members joined by dots (up to a
 * "->" or the end) in struct or union *@ptype; their bit offset, or -1
 * with the error set.  *@pname is left after the "->" (NULL at the end),
 * *@ptype the last member's type, *@offs where that is in the word.
 */
static int64_t bitoffset_of_field(struct pctx *pc, char **pname, const struct btf_type **ptype,
				  int *offs)
{
	struct pbtf *b = &pc->btf;
	const struct btf_type *type = *ptype;
	char *name = *pname;
	int64_t bitoffs = 0;
	uint32_t anon;
	int is_ptr;

	do {
		const struct btf_type *owner;
		const struct btf_member *m;
		char *next = NULL;
		bool not_struct;

		is_ptr = split_next(pc, name, &next, *offs);
		if (is_ptr < 0)
			return -1;
		b->last_offs = *offs;
		m = kp_btf_member(b->btf, type, name, &anon, &owner, &not_struct);
		if (not_struct)
			return ERR(pc, BAD_BTF_TID, *offs);
		if (!m)
			return ERR(pc, NO_BTF_FIELD, *offs);
		bitoffs += anon + btf_member_bit_offset(owner, (uint32_t)(m - btf_members(owner)));
		b->last_bitsize = btf_member_bitfield_size(owner, (uint32_t)(m - btf_members(owner)));
		type = kp_btf_skip_mods(b->btf, m->type, NULL);
		if (!type)
			return ERR(pc, BAD_BTF_TID, *offs);
		if (next)
			*offs += (int)(next - name);
		name = next;
	} while (!is_ptr && name);
	*pname = name;
	*ptype = type;
	return bitoffs;
}

/* How parse_field() takes its first member. */
enum field_base {
	FIELD_OF_POINTER,	/* of what the value points to */
	FIELD_OF_STRUCT,	/* of the struct the value is (a typecast, $current) */
};

/*
 * parse_btf_field(): @name (member[.member...][->member...]) of what
 * @type points to, or (FIELD_OF_STRUCT) of @type itself less @prefix
 * bytes (a typecast's field option, as container_of()); each "->" reads
 * the pointer at the offset reached.
 */
static int parse_field(struct pctx *pc, char *name, const struct btf_type *type,
		       struct kinsn **pcode, struct kinsn *end, int offs,
		       enum field_base base, int64_t prefix)
{
	struct pbtf *b = &pc->btf;
	struct kinsn *code = *pcode;
	int64_t bitoffs;

	do {
		if (base != FIELD_OF_STRUCT) {
			if (!btf_is_ptr(type))
				return ERR(pc, NO_PTR_STRCT, offs);
			type = kp_btf_skip_mods(b->btf, type->type, NULL);
			if (!type)
				return ERR(pc, BAD_BTF_TID, offs);
		}
		bitoffs = bitoffset_of_field(pc, &name, &type, &offs);
		if (bitoffs < 0)
			return -1;
		if (++code == end)
			return ERR(pc, TOO_MANY_OPS, offs);
		code->op = I_DEREF;
		code->imm = bitoffs / 8 - (base == FIELD_OF_STRUCT ? prefix : 0);
		*pcode = code;
		b->last_bitoffs = (unsigned int)(bitoffs % 8);
		b->last_type = type;
		base = FIELD_OF_POINTER;
	} while (name);
	return 0;
}

/*
 * The struct @name (a typecast's, $current's task_struct), as the
 * kernel's query_btf_struct(): 0 with *@type and the BTF it is in set, or
 * -1 with the error set: @code if BTF has no such struct, NOSUP_BTFARG
 * and why if there is no BTF.
 */
static int find_struct(struct pctx *pc, const char *name, const struct btf_type **type,
		       int code, int offs)
{
	struct pbtf *b = &pc->btf;
	const struct btf *btf = NULL;
	uint32_t id = 0;
	int ret = b->kb ? kp_btf_struct(b->kb, name, &btf, &id) : -EOPNOTSUPP;

	if (ret == -EOPNOTSUPP)
		return no_entry(pc, ret, offs);
	if (ret)
		return kp_parse_set_err(pc->err, code, pc->base + (size_t)offs, NULL);
	b->btf = btf;
	*type = kp_btf_skip_mods(btf, id, NULL);
	if (!*type)
		return ERR(pc, BAD_BTF_TID, offs);
	b->used = true;
	return 0;
}

int kp_btf_cast(struct pctx *pc, char *cast, char *field, struct kinsn **pcode,
		struct kinsn *end, int cast_offs, int field_offs)
{
	const struct btf_type *type, *opt;
	char *option = strchr(cast, ',');
	int64_t prefix = 0;

	/* parse_btf_casttype(): the field option is looked at after the struct. */
	if (option)
		*option++ = '\0';
	if (find_struct(pc, cast, &type, KP_E_NO_PTR_STRCT, cast_offs))
		return -1;
	if (option) {
		int offs = cast_offs + (int)(option - cast);

		opt = type;
		prefix = bitoffset_of_field(pc, &option, &opt, &offs);
		if (prefix < 0)
			return -1;
		if (prefix % 8)
			return ERR(pc, TYPECAST_NOT_ALIGNED, offs);
		/* Stopped at a "->": the option names one structure's members only. */
		if (option)
			return ERR(pc, TYPECAST_BAD_ARROW, offs - 2);
		prefix /= 8;
	}
	return parse_field(pc, field, type, pcode, end, field_offs, FIELD_OF_STRUCT, prefix);
}

/* @n-th parameter's name, "" if it has none. */
static const char *param_name(const struct pbtf *b, unsigned int n)
{
	const char *name = btf__name_by_offset(b->f.btf, b->f.params[n].name_off);

	return name ? name : "";
}

int kp_btf_parse_arg(struct pctx *pc, char *var, struct kinsn **pcode, struct kinsn *end,
		     int offs)
{
	struct pbtf *b = &pc->btf;
	struct kinsn *code = *pcode;
	const struct btf_type *type;
	char *field = NULL;
	uint32_t tid = 0;
	unsigned int i;
	int is_ptr, ret;

	is_ptr = split_next(pc, var, &field, offs);
	if (is_ptr < 0)
		return -1;
	/* A dot on the argument itself: structures are passed by pointer. */
	if (!is_ptr && field)
		return ERR(pc, NOSUP_DAT_ARG, offs + (int)(field - var));

	b->last_offs = offs;
	/* $current->member: a task_struct, without a typecast. */
	if (!strcmp(var, "$current")) {
		code->op = I_CURRENT;
		if (!field)
			return 0;
		if (find_struct(pc, "task_struct", &type, KP_E_NO_BTF_ENTRY, offs))
			return -1;
		b->last_type = type;
		b->last_bitoffs = 0;
		b->last_bitsize = 0;
		return parse_field(pc, field, type, pcode, end, offs + (int)(field - var),
				   FIELD_OF_STRUCT, 0);
	}
	if (pc->is_return && !strcmp(var, "$retval")) {
		code->op = I_RETVAL;
		ret = query(pc);
		if (ret) {
			/* Without BTF a plain $retval is as it always was. */
			if (field)
				return no_entry(pc, ret, offs + (int)(field - var));
			return 0;
		}
		if (!b->f.proto->type)
			return ERR(pc, NO_RETVAL, offs);
		tid = b->f.proto->type;
		goto found;
	}

	ret = query(pc);
	if (ret || !b->f.nparams)
		return no_entry(pc, ret ? ret : -ENOENT, offs);
	for (i = 0; i < b->f.nparams; i++) {
		if (!strcmp(param_name(b, i), var)) {
			/* In a return probe too: kpmod takes $argN at the entry. */
			code->op = I_ARG;
			code->param = i + 1;
			tid = b->f.params[i].type;
			goto found;
		}
	}
	return ERR(pc, NO_BTFARG, offs);

found:
	b->used = true;
	b->btf = b->f.btf;
	type = kp_btf_skip_mods(b->btf, tid, &tid);
	if (!type)
		return ERR(pc, BAD_BTF_TID, offs);
	b->last_type = type;
	b->last_bitoffs = 0;
	b->last_bitsize = 0;
	if (field)
		return parse_field(pc, field, type, pcode, end, offs + (int)(field - var),
				   FIELD_OF_POINTER, 0);
	return 0;
}

/* An 8-bit integer, whatever its sign (see kp_btf_fix_type()). */
static bool is_char(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = kp_btf_skip_mods(btf, id, NULL);

	return t && btf_is_int(t) && btf_int_bits(t) == 8;
}

/*
 * fetch_type_from_btf_type(): the type a value of BTF type @t is stored
 * as; NULL for the default (x64).  An unsigned integer of another width
 * is a bitfield, read from 64 bits.
 */
static const char *type_from_btf(struct pbtf *b, const struct btf_type *t)
{
	static const char *const s[] = { "s8", "s16", "s32", "s64" };
	static const char *const u[] = { "u8", "u16", "u32", "u64" };
	unsigned int bits;
	int i;

	switch (btf_kind(t)) {
	case BTF_KIND_ENUM:
		return "s32";
	case BTF_KIND_ENUM64:
		return "s64";
	case BTF_KIND_PTR:
		return "x64";
	case BTF_KIND_INT:
		bits = btf_int_bits(t);
		i = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : bits == 64 ? 3 : -1;
		if (btf_int_encoding(t) & BTF_INT_SIGNED)
			return i < 0 ? NULL : s[i];
		if (i >= 0)
			return u[i];
		b->last_bitsize = bits;
		b->last_bitoffs += btf_int_offset(t);
		return "u64";
	}
	return NULL;
}

int kp_btf_fix_type(struct pctx *pc, const char *t, struct kinsn **pcode, const char **type)
{
	struct pbtf *b = &pc->btf;
	const struct btf_type *lt = b->last_type;
	struct kinsn *code;

	if (!lt)
		return 0;
	if (!t) {
		*type = type_from_btf(b, lt);
		return 0;
	}
	if (!strstr(t, "string"))
		return 0;
	/*
	 * check_prepare_btf_string_fetch(): a char[] is read where it is, a
	 * char * is dereferenced first.  The kernel takes only an unsigned
	 * char, which char is from 6.2 on (-funsigned-char); kpmod takes a
	 * signed one too, so that the same name is a string on older kernels.
	 */
	if (btf_is_array(lt) && is_char(b->btf, btf_array(lt)->type))
		return 0;
	if (btf_is_ptr(lt) && is_char(b->btf, lt->type)) {
		code = *pcode + 1;
		if (code->op == I_END)
			return ERR(pc, TOO_MANY_OPS, b->last_offs);
		code->op = t[0] == 'u' ? I_UDEREF : I_DEREF;
		code->imm = 0;
		*pcode = code;
		return 0;
	}
	return ERR(pc, BAD_TYPE4STR, b->last_offs);
}

int kp_btf_bitfield(struct pctx *pc, unsigned int size, struct kinsn **pcode)
{
	struct pbtf *b = &pc->btf;
	unsigned int bits = size * 8;
	struct kinsn *code = *pcode;

	if (!b->last_type || (b->last_bitsize % 8 == 0 && b->last_bitoffs == 0))
		return 0;
	/*
	 * The kernel shifts in 64 bits whatever the store; the same bits come
	 * out of the store's own width, which the module checks the shifts
	 * against (a C bitfield never crosses a unit of its type).
	 */
	if (!b->last_bitsize || b->last_bitsize + b->last_bitoffs > bits)
		return ERR(pc, BAD_BTF_TID, b->last_offs);
	code++;
	if (code->op != I_NOP)
		return ERR(pc, TOO_MANY_OPS, b->last_offs);
	*pcode = code;
	code->op = I_MOD_BF;
	code->lshift = bits - (b->last_bitsize + b->last_bitoffs);
	code->rshift = bits - b->last_bitsize;
	code->size = size;
	return 0;
}

/* Appends @s1 @s2 to @buf as a new word for @from. */
static int push_word(struct pctx *pc, struct word *out, size_t *n, const struct word *from,
		     char *buf, size_t size, size_t *used, const char *s1, const char *s2)
{
	int len = snprintf(buf + *used, size - *used, "%s%s", s1, s2);

	if (*n >= KPMOD_MAX_ARGS)
		return ERR(pc, TOO_MANY_ARGS, (int)(from->pos - pc->base));
	if (len < 0 || (size_t)len >= size - *used)
		return ERR(pc, ARG_TOO_LONG, (int)(from->pos - pc->base));
	out[*n].s = buf + *used;
	out[*n].pos = from->pos;
	out[(*n)++].expanded = true;
	*used += (size_t)len + 1;
	return 0;
}

int kp_btf_expand_args(struct pctx *pc, struct word *w, size_t *nw, char *buf, size_t size)
{
	struct word out[KPMOD_MAX_ARGS];
	size_t i, n = 0, used = 0, last = 0;
	int args_idx = -1, ret;
	bool found = false;
	unsigned int p;

	/* argv_has_var_arg() */
	for (i = 0; i < *nw; i++) {
		if (strncmp(w[i].s, "$arg", 4))
			continue;
		last = i;
		pc->base = w[i].pos;
		if (isdigit((unsigned char)w[i].s[4])) {
			found = true;
			continue;
		}
		if (w[i].s[4] != '*')
			return ERR(pc, BAD_VAR, 0);
		if (!pc->fentry)
			return ERR(pc, NOFENTRY_ARGS, 0);
		if (args_idx >= 0)
			return ERR(pc, DOUBLE_ARGS, 0);
		found = true;
		args_idx = (int)i;
	}
	/* A $argN away from a function entry says so later, as it always did. */
	if (!found || !pc->fentry)
		return 0;
	ret = query(pc);
	if (ret || !pc->btf.f.nparams) {
		if (args_idx < 0)
			return 0;
		pc->base = w[last].pos;
		if (ret == -EOPNOTSUPP)
			return no_entry(pc, ret, 0);
		return kp_parse_set_err(pc->err, KP_E_NOSUP_BTFARG, pc->base, "%s (%s %s)",
					kp_parse_strerror(KP_E_NOSUP_BTFARG), pc->btf.func,
					ret ? "has no prototype in BTF" : "has no parameters");
	}

	/* traceprobe_expand_meta_args() */
	for (i = 0; i < *nw; i++) {
		pc->base = w[i].pos;
		if ((int)i == args_idx) {
			for (p = 0; p < pc->btf.f.nparams; p++)
				if (push_word(pc, out, &n, &w[i], buf, size, &used,
					      param_name(&pc->btf, p), ""))
					return -1;
			continue;
		}
		if (!strncmp(w[i].s, "$arg", 4)) {
			char *type;
			unsigned long an = strtoul(w[i].s + 4, &type, 10);

			if (*type != ':' && *type != '\0')
				return ERR(pc, BAD_VAR, 0);
			/* $arg0 is refused as without BTF (BAD_ARG_NUM). */
			if (an) {
				if (an > pc->btf.f.nparams)
					return ERR(pc, NO_BTFARG, 0);
				if (!*param_name(&pc->btf, (unsigned int)an - 1))
					return ERR(pc, NO_BTF_ENTRY, 0);
				if (push_word(pc, out, &n, &w[i], buf, size, &used,
					      param_name(&pc->btf, (unsigned int)an - 1), type))
					return -1;
				continue;
			}
		}
		if (n >= KPMOD_MAX_ARGS)
			return ERR(pc, TOO_MANY_ARGS, 0);
		out[n++] = w[i];
	}
	memcpy(w, out, n * sizeof(*w));
	*nw = n;
	return 0;
}

/* The byte offset of @path (members joined by dots) in struct @sname: 0 or -1. */
static int member_offset(struct pctx *pc, const char *sname, const char *path, int64_t *off)
{
	const struct btf_type *type;
	char buf[64];
	char *name = buf;
	int offs = 0;

	snprintf(buf, sizeof(buf), "%s", path);
	if (find_struct(pc, sname, &type, KP_E_NO_BTF_ENTRY, 0))
		return -1;
	*off = bitoffset_of_field(pc, &name, &type, &offs);
	if (*off < 0)
		return -1;
	*off /= 8;
	return 0;
}

int kp_btf_expand_dentry(struct pctx *pc, struct word *w, size_t nw, char *buf, size_t size)
{
	int64_t dname = -1, fdentry = -1;
	size_t i, used = 0;

	for (i = 0; i < nw; i++) {
		size_t len = strlen(w[i].s);
		const char *s = w[i].s, *eq, *var;
		int n, vlen;
		bool pd;

		if (len < 4 || (strcmp(s + len - 4, ":%pd") && strcmp(s + len - 4, ":%pD")))
			continue;
		pd = s[len - 1] == 'd';
		pc->base = w[i].pos;
		/* The kernel's offsetof()s, from this kernel's BTF. */
		if (dname < 0 && member_offset(pc, "dentry", "d_name.name", &dname))
			return -1;
		if (!pd && fdentry < 0 && member_offset(pc, "file", "f_path.dentry", &fdentry))
			return -1;
		eq = strchr(s, '=');
		var = eq ? eq + 1 : s;
		vlen = (int)(s + len - 4 - var);
		if (vlen < 0)
			return ERR(pc, NO_ARG_BODY, 0);
		if (pd)
			n = snprintf(buf + used, size - used, "%.*s+0x0(+0x%llx(%.*s)):string",
				     eq ? (int)(eq - s + 1) : 0, s, (unsigned long long)dname,
				     vlen, var);
		else
			n = snprintf(buf + used, size - used,
				     "%.*s+0x0(+0x%llx(+0x%llx(%.*s))):string",
				     eq ? (int)(eq - s + 1) : 0, s, (unsigned long long)dname,
				     (unsigned long long)fdentry, vlen, var);
		if (n < 0 || (size_t)n >= size - used)
			return ERR(pc, ARG_TOO_LONG, 0);
		w[i].s = buf + used;
		w[i].expanded = true;
		used += (size_t)n + 1;
	}
	return 0;
}
