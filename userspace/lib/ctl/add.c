// SPDX-License-Identifier: GPL-2.0
/*
 * Adding probes from definitions, all or none: parsed and checked before
 * anything is sent, added in order, and if the module refuses one, those
 * this call added are deleted again.  `kpmod add`, `apply` and the
 * one-shot runs share it.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/genl/genl.h>

#include "add.h"
#include "fetch_text.h"
#include "filter_probe.h"
#include "kbtf.h"
#include "ksyms.h"
#include "ksyms_dups.h"
#include "probe_nl.h"

/*
 * kallsyms, read on the first lookup that needs it: reading it costs the
 * kernel formatting every symbol, and a deletion, a definition refused
 * for its syntax, or a probe on SYM+OFFS needs none (ksyms_dups.h).
 */
struct kp_lazy_ksyms {
	struct kp_ksyms ks;
	int state;		/* 0: not read yet, 1: read, -1: unavailable */
	struct kp_ksyms_dups dups;
	int dups_state;		/* 0: not looked for, 1: loaded, -1: none for this kernel */
	bool keep;		/* writes the kept names when it reads kallsyms */
};

/* This kernel's kept names (ksyms_dups.h), looked for once: true if there. */
static bool kp_lazy_dups(struct kp_lazy_ksyms *lk)
{
	if (!lk->dups_state)
		lk->dups_state = kp_ksyms_dups_load(&lk->dups, NULL) ? -1 : 1;
	return lk->dups_state > 0;
}

/* Reads kallsyms, and keeps what later adds need of it for this kernel. */
static void kp_lazy_read(struct kp_lazy_ksyms *lk)
{
	/* Without kallsyms the module still checks the probed symbol. */
	lk->state = kp_ksyms_load_usable(&lk->ks) ? -1 : 1;
	/* Not kept (not root, /var and /run read-only): the next add reads kallsyms too. */
	if (lk->state > 0 && lk->keep && !kp_lazy_dups(lk))
		kp_ksyms_dups_save(&lk->ks, NULL);
}

/*
 * The parser's resolver: kallsyms, with the kernel's uniqueness check.
 * @addr NULL asks about a probe point only.
 */
static int kp_resolve(const char *sym, uint64_t *addr, void *ctx)
{
	struct kp_lazy_ksyms *lk = ctx;
	const struct kp_ksyms *k = &lk->ks;
	uint64_t unused;

	if (!addr)
		addr = &unused;
	if (!lk->state)
		kp_lazy_read(lk);
	if (lk->state < 0)
		return KP_RESOLVE_UNAVAIL;
	if (kp_ksyms_addr(k, sym, NULL, addr))
		return kp_ksyms_abs_addr(k, sym, addr) ? KP_RESOLVE_NONE : KP_RESOLVE_ABS;
	return kp_ksyms_count_core(k, sym) > 1 ? KP_RESOLVE_MULTI : KP_RESOLVE_OK;
}

/*
 * KP_SYMS_DEFERRED: a probe point is checked against this kernel's repeated
 * and absolute names when they were kept (ksyms_dups.h), its existence
 * left to the module (kp_add_apply() reads kallsyms if the module
 * refuses it).
 */
static int kp_resolve_deferred(const char *sym, uint64_t *addr, void *ctx)
{
	struct kp_lazy_ksyms *lk = ctx;

	if (!addr && lk->state <= 0 && kp_lazy_dups(lk)) {
		if (kp_ksyms_dups_multi(&lk->dups, sym))
			return KP_RESOLVE_MULTI;
		return kp_ksyms_dups_abs(&lk->dups, sym) ? KP_RESOLVE_ABS : KP_RESOLVE_UNAVAIL;
	}
	return kp_resolve(sym, addr, ctx);
}

/* In a dry run a symbol kallsyms cannot tell about is taken as it is. */
static int kp_resolve_dry(const char *sym, uint64_t *addr, void *ctx)
{
	int r = kp_resolve(sym, addr, ctx);

	if (r == KP_RESOLVE_UNAVAIL && addr)
		*addr = 0;
	return r == KP_RESOLVE_UNAVAIL ? KP_RESOLVE_OK : r;
}

static int kp_resolve_none(const char *sym, uint64_t *addr, void *ctx)
{
	(void)sym;
	(void)ctx;
	if (addr)
		*addr = 0;
	return KP_RESOLVE_OK;
}

int kp_defs_push(struct kp_defs *d, const char *line, const char *src,
			unsigned int lineno)
{
	struct kp_def_item *grown;
	const char *s = line;
	char *copy, *hash;
	size_t len;

	copy = strdup(line);
	if (!copy)
		return -ENOMEM;
	/* As kprobe_events: '#' starts a comment; blank lines are nothing. */
	hash = strchr(copy, '#');
	if (hash)
		*hash = '\0';
	len = strlen(copy);
	while (len && (copy[len - 1] == '\n' || copy[len - 1] == ' ' || copy[len - 1] == '\t'))
		copy[--len] = '\0';
	for (s = copy; *s == ' ' || *s == '\t'; s++)
		;
	if (!*s) {
		free(copy);
		return 0;
	}
	grown = realloc(d->items, (d->n + 1) * sizeof(*d->items));
	if (!grown) {
		free(copy);
		return -ENOMEM;
	}
	d->items = grown;
	/* Its def is the parser's to fill (kp_def_parser_parse()). */
	d->items[d->n].text = copy;
	d->items[d->n].src = src;
	d->items[d->n].line = lineno;
	d->items[d->n].op = KP_DEF_ADD;
	d->n++;
	return 0;
}

void kp_defs_free(struct kp_defs *d)
{
	unsigned int i;

	for (i = 0; i < d->n; i++)
		free(d->items[i].text);
	free(d->items);
}

/* Where the caret goes for an error the module reports. */
static unsigned int kp_pos_of_event(const char *text)
{
	const char *colon = strchr(text, ':'), *sp = strpbrk(text, " \t");
	const char *slash;

	if (!colon || (sp && colon > sp))
		return 0;
	slash = strchr(colon, '/');
	return (slash && (!sp || slash < sp) ? slash : colon) + 1 - text;
}

static unsigned int kp_pos_of_symbol(const char *text)
{
	const char *p = text + strspn(text, " \t");

	p = strpbrk(p, " \t");

	if (!p)
		return 0;
	while (*p == ' ' || *p == '\t')
		p++;
	return p - text;
}

/*
 * A definition that does not parse: error_log's three lines, "FILE:LINE:"
 * in front when it came from a file, and when the symbol is unknown and
 * kallsyms was read, the nearest names.
 */
static void kp_report_parse_err(const char *text, const char *src, unsigned int line,
				const struct kp_probe_def *def, const struct kp_parse_err *pe,
				const struct kp_lazy_ksyms *lk)
{
	static const char unknown[] = "Unknown symbol: ";
	char where[PATH_MAX + 16], near[512];
	const char *name = NULL, *types = NULL;

	if (src)
		snprintf(where, sizeof(where), "%s:%u", src, line);
	kp_format_parse_err_at(stderr, src ? where : NULL, text, pe);
	if (lk->state != 1)
		return;
	/* A probed function is text; @SYM may be any symbol. */
	if (pe->code == KP_E_BAD_PROBE_ADDR && def->symbol[0] && !def->module[0]) {
		name = def->symbol;
		types = "tT";
	} else if (pe->code == KP_E_UNKNOWN_SYMBOL &&
		   !strncmp(pe->msg, unknown, sizeof(unknown) - 1)) {
		name = pe->msg + sizeof(unknown) - 1;
	}
	if (name && kp_ksyms_near(&lk->ks, name, types, 3, near, sizeof(near)))
		fprintf(stderr, "  did you mean %s?\n", near);
}

static int kp_report_kernel_error(const char *text, const struct kp_err *e)
{
	struct kp_parse_err pe = { 0 };

	switch (e->errnum) {
	case EEXIST:
		pe.code = KP_E_EVENT_EXIST;
		pe.pos = kp_pos_of_event(text);
		break;
	case ENOENT:
		pe.code = KP_E_UNKNOWN_SYMBOL;
		pe.pos = kp_pos_of_symbol(text);
		break;
	case EILSEQ:
		pe.code = KP_E_BAD_INSN_BNDRY;
		pe.pos = kp_pos_of_symbol(text);
		break;
	case EPERM:
	case EACCES:
		return kp_fail("add", e);
	default:
		pe.code = KP_E_FAIL_REG_PROBE;
		pe.pos = kp_pos_of_symbol(text);
		break;
	}
	snprintf(pe.msg, sizeof(pe.msg), "%s: %.200s", kp_parse_strerror(pe.code),
		 e->msg[0] ? e->msg : strerror(e->errnum));
	kp_format_parse_err(stderr, text, &pe);
	return KP_EXIT_DEF_BASE + pe.code;
}

/* One PROBE_ADD: the definition, how, and a filter compiled for it, if any. */
struct kp_add_req {
	const struct kp_probe_def *def;
	const struct kp_add_how *how;
	const struct kp_filter_code *code;
};

static int kp_fill_probe(struct nl_msg *msg, void *arg)
{
	const struct kp_add_req *r = arg;
	const struct kp_probe_def *d = r->def;
	const struct kp_add_how *how = r->how;
	struct nlattr *args, *a;
	unsigned int i;

	if (nla_put_string(msg, KPMOD_A_PROBE_GROUP, d->group) ||
	    nla_put_string(msg, KPMOD_A_PROBE_EVENT, d->event) ||
	    nla_put_u32(msg, KPMOD_A_PROBE_KIND, d->kind) ||
	    nla_put_string(msg, KPMOD_A_PROBE_DEFINITION, d->definition))
		return -NLE_NOMEM;
	if (kp_def_is_uprobe(d)) {
		if (nla_put_string(msg, KPMOD_A_PROBE_PATH, d->path) ||
		    nla_put_u64(msg, KPMOD_A_PROBE_OFFSET, d->offset) ||
		    (d->ref_ctr_offset &&
		     nla_put_u64(msg, KPMOD_A_PROBE_REF_CTR_OFFSET, d->ref_ctr_offset)))
			return -NLE_NOMEM;
	} else if (d->has_addr) {
		if (nla_put_u64(msg, KPMOD_A_PROBE_ADDR, d->addr))
			return -NLE_NOMEM;
	} else if (nla_put_string(msg, KPMOD_A_PROBE_SYMBOL, d->symbol) ||
		   (d->module[0] && nla_put_string(msg, KPMOD_A_PROBE_MODULE, d->module)) ||
		   (d->offset && nla_put_u64(msg, KPMOD_A_PROBE_OFFSET, d->offset))) {
		return -NLE_NOMEM;
	}
	if (d->maxactive && nla_put_u32(msg, KPMOD_A_PROBE_MAXACTIVE, d->maxactive))
		return -NLE_NOMEM;
	if ((how->enable && nla_put_flag(msg, KPMOD_A_PROBE_ENABLED)) ||
	    (how->one_shot && nla_put_flag(msg, KPMOD_A_PROBE_ONE_SHOT)) ||
	    (how->pid_tree && nla_put_u32(msg, KPMOD_A_PROBE_PID_TREE, how->pid_tree)))
		return -NLE_NOMEM;
	if (how->filter &&
	    (nla_put_string(msg, KPMOD_A_FILTER_TEXT, how->filter) ||
	     nla_put(msg, KPMOD_A_FILTER_PROG, r->code->nr * sizeof(*r->code->preds),
		     r->code->preds) ||
	     (r->code->strs_len &&
	      nla_put(msg, KPMOD_A_FILTER_STRS, r->code->strs_len, r->code->strs))))
		return -NLE_NOMEM;
	args = nla_nest_start(msg, KPMOD_A_PROBE_ARGS);
	if (!args)
		return -NLE_NOMEM;
	for (i = 0; i < d->nargs; i++) {
		const struct kp_arg_def *ad = &d->args[i];

		a = nla_nest_start(msg, KPMOD_A_ARG);
		if (!a || nla_put_string(msg, KPMOD_ARG_A_NAME, ad->name) ||
		    nla_put_u32(msg, KPMOD_ARG_A_TYPE, ad->type) ||
		    (ad->count && nla_put_u32(msg, KPMOD_ARG_A_COUNT, ad->count)) ||
		    nla_put(msg, KPMOD_ARG_A_PROG, ad->ninsns * sizeof(ad->insns[0]), ad->insns) ||
		    (ad->datalen && nla_put(msg, KPMOD_ARG_A_DATA, ad->datalen, ad->data)))
			return -NLE_NOMEM;
		nla_nest_end(msg, a);
	}
	nla_nest_end(msg, args);
	return 0;
}

/* Deletes "-:[GRP/]EVENT": in any group if none is named. */
static int kp_apply_delete(struct kp_nl *nl, const struct kp_def_item *it)
{
	struct kp_err e;

	if (!kp_probe_select_one(nl, KPMOD_CMD_PROBE_DEL, it->def.group, it->def.event, &e))
		return 0;
	kp_err_about(&e, it->text);
	return kp_fail("add", &e);
}

int kp_add_filter(const struct kp_def_item *it, const char *filter,
			 struct kp_filter_code *code)
{
	struct kp_filter_fields *ff = malloc(sizeof(*ff));
	struct kp_filter_error ferr;
	char out[KPMOD_MAX_FILTER_TEXT * 2 + 128];
	const char *why;
	int ret;

	if (!ff) {
		kp_msg("add", "out of memory\n");
		return KP_EXIT_ERROR;
	}
	kp_filter_fields_of_def(&it->def, ff);
	ret = kp_filter_build(filter, ff, code, &ferr, &why);
	free(ff);
	if (ret == -EINVAL) {
		kp_filter_error_format(out, sizeof(out), filter, &ferr);
		kp_msg("add", "the filter does not parse for '%s':\n%s", it->text, out);
		return KP_EXIT_BADFILTER;
	}
	if (ret == -EPERM) {
		kp_msg("add", "'%s': %s\n", it->text, why);
		return KP_EXIT_BADFILTER;
	}
	if (ret) {
		kp_msg("add", "out of memory\n");
		return KP_EXIT_ERROR;
	}
	return 0;
}

struct kp_def_parser {
	const struct kp_arch *arch;
	enum kp_sym_check check;
	kp_resolve_fn resolve;
	struct kp_lazy_ksyms lk;
	struct kp_btf *btf;	/* read on the first name that needs it */
};

/*
 * The module found no symbol for @it, whose name was not looked up before
 * it was sent (kp_resolve_deferred()): the error the parser gives with kallsyms
 * read, as kprobe_events' (BAD_PROBE_ADDR and the nearest names); 0 if
 * kallsyms cannot tell (the module's error stands).
 */
static int kp_recheck_symbol(struct kp_def_parser *dp, const struct kp_def_item *it)
{
	struct kp_parse_err pe = { 0 };
	int r;

	if (dp->check != KP_SYMS_DEFERRED || dp->lk.state < 0 || kp_def_is_uprobe(&it->def) ||
	    it->def.has_addr || it->def.module[0])
		return 0;
	r = kp_resolve(it->def.symbol, NULL, &dp->lk);
	if (r == KP_RESOLVE_OK || r == KP_RESOLVE_UNAVAIL)
		return 0;
	kp_parse_set_err(&pe, r == KP_RESOLVE_MULTI ? KP_E_NON_UNIQ_SYMBOL : KP_E_BAD_PROBE_ADDR,
			 kp_pos_of_symbol(it->text), NULL);
	kp_report_parse_err(it->text, it->src, it->line, &it->def, &pe, &dp->lk);
	return KP_EXIT_DEF_BASE + pe.code;
}

/*
 * Whether the probe points a deferred parser left to the module are
 * checked against kallsyms before anything is sent: when the request
 * deletes (a deletion is not undone), or enables probes on more than one
 * symbol (a reader could see events of one a later refusal takes away).
 * A request that only adds, or enables the probes of one function, is
 * undone whole if the module refuses a name.
 */
static bool kp_add_names_first(const struct kp_defs *d, const struct kp_add_how *how)
{
	const struct kp_probe_def *first = NULL;
	unsigned int i;

	for (i = 0; i < d->n; i++) {
		const struct kp_probe_def *def = &d->items[i].def;

		if (d->items[i].op == KP_DEF_DEL)
			return true;
		if (!how->enable)
			continue;
		if (!first)
			first = def;
		else if (strcmp(first->symbol, def->symbol) || strcmp(first->module, def->module) ||
			 strcmp(first->path, def->path))
			return true;
	}
	return false;
}

int kp_add_apply(struct kp_nl *nl, struct kp_def_parser *dp, struct kp_defs *d,
		 const struct kp_add_how *how)
{
	unsigned int i, j;
	struct kp_err e;
	int ret = 0;

	if (dp->check == KP_SYMS_DEFERRED && kp_add_names_first(d, how))
		for (i = 0; i < d->n && !ret; i++)
			if (d->items[i].op == KP_DEF_ADD)
				ret = kp_recheck_symbol(dp, &d->items[i]);
	if (ret)
		return ret;
	for (i = 0; i < d->n && !ret; i++) {
		struct kp_def_item *it = &d->items[i];
		struct kp_filter_code code = { 0 };
		struct kp_add_req req = { &it->def, how, &code };

		if (it->op == KP_DEF_DEL) {
			ret = kp_apply_delete(nl, it);
			continue;
		}
		if (how->filter) {
			ret = kp_add_filter(it, how->filter, &code);
			if (ret)
				continue;
		}
		if (kp_nl_call(nl, KPMOD_CMD_PROBE_ADD, 0, kp_fill_probe, NULL, &req, &e)) {
			ret = e.errnum == ENOENT ? kp_recheck_symbol(dp, it) : 0;
			if (!ret)
				ret = kp_report_kernel_error(it->text, &e);
		}
		kp_filter_code_free(&code);
	}
	if (!ret)
		return 0;
	/* Take back what this call added before the failure (i - 1). */
	for (j = 0; j + 1 < i; j++) {
		struct kp_def_item *it = &d->items[j];

		if (it->op != KP_DEF_ADD)
			continue;
		if (how->enable)
			kp_probe_select_one(nl, KPMOD_CMD_PROBE_DISABLE, it->def.group,
					    it->def.event, &e);
		kp_probe_select_one(nl, KPMOD_CMD_PROBE_DEL, it->def.group, it->def.event, &e);
	}
	return ret;
}

int kp_add_defs(struct kp_nl *nl, struct kp_def_parser *dp, char *const *texts,
		unsigned int n, const struct kp_add_how *how, struct kp_event_name *names,
		unsigned int *nnames)
{
	struct kp_defs d = { 0 };
	unsigned int i;
	int ret = 0;

	for (i = 0; i < n && !ret; i++)
		if (kp_defs_push(&d, texts[i], NULL, 0))
			ret = KP_EXIT_ERROR;
	for (i = 0; i < d.n && !ret; i++) {
		struct kp_def_item *it = &d.items[i];

		ret = kp_def_parser_parse(dp, it->text, NULL, 0, &it->op, &it->def);
		if (!ret && it->op != KP_DEF_ADD) {
			kp_msg(NULL, "'%s' deletes: a run adds probes only\n", it->text);
			ret = KP_EXIT_USAGE;
		}
	}
	if (!ret)
		ret = kp_add_apply(nl, dp, &d, how);
	*nnames = ret ? 0 : d.n;
	for (i = 0; i < d.n && !ret; i++) {
		snprintf(names[i].group, sizeof(names[i].group), "%s", d.items[i].def.group);
		snprintf(names[i].event, sizeof(names[i].event), "%s", d.items[i].def.event);
	}
	kp_defs_free(&d);
	return ret;
}

struct kp_def_parser *kp_def_parser_new(const struct kp_arch *arch, enum kp_sym_check check,
				       const char *btf)
{
	static const kp_resolve_fn resolvers[] = {
		[KP_SYMS_KALLSYMS] = kp_resolve,
		[KP_SYMS_IF_READABLE] = kp_resolve_dry,
		[KP_SYMS_NONE] = kp_resolve_none,
		[KP_SYMS_DEFERRED] = kp_resolve_deferred,
	};
	struct kp_def_parser *dp = calloc(1, sizeof(*dp));
	const char *env = getenv(KP_BTF_ENV);

	if (!dp)
		return NULL;
	dp->arch = arch;
	dp->check = check;
	dp->resolve = resolvers[check];
	/* What kallsyms tells adds is kept where adds are made, not on a build host. */
	dp->lk.keep = check == KP_SYMS_KALLSYMS || check == KP_SYMS_DEFERRED;
	/* This machine's BTF describes this machine's arch only. */
	if (!btf && arch != kp_arch_native())
		btf = env && *env ? env : KP_BTF_NONE;
	dp->btf = kp_btf_new(btf);
	if (!dp->btf) {
		free(dp);
		return NULL;
	}
	return dp;
}

void kp_def_say_compiled(FILE *out, const char *src, unsigned int line,
			 const struct kp_probe_def *def, const struct kp_arch *arch)
{
	char text[KP_ARG_TEXT_LEN * 2];
	unsigned int j;

	for (j = 0; j < def->nargs; j++) {
		const struct kp_arg_def *a = &def->args[j];

		if (!a->btf)
			continue;
		kp_fetch_text(a, arch, text, sizeof(text));
		if (src)
			fprintf(out, "%s:%u: ", src, line);
		fprintf(out, "%s/%s: %s is %s\n", def->group, def->event, a->text, text);
	}
}

const struct kp_arch *kp_def_parser_arch(const struct kp_def_parser *dp)
{
	return dp->arch;
}

struct kp_btf *kp_def_parser_btf(struct kp_def_parser *dp)
{
	return dp->btf;
}

int kp_def_parser_for_module(const char *cmd, const struct kp_status *st, const char *btf,
			     enum kp_sym_check check, struct kp_def_parser **dp)
{
	const struct kp_arch *arch = kp_arch_by_name(st->arch);

	*dp = NULL;
	if (!arch) {
		kp_msg(cmd, "the module runs on '%s', which this CLI does not know\n", st->arch);
		return KP_EXIT_MISMATCH;
	}
	*dp = kp_def_parser_new(arch, check, btf);
	if (!*dp) {
		kp_msg(cmd, "out of memory\n");
		return KP_EXIT_ERROR;
	}
	return 0;
}

int kp_def_parser_parse(struct kp_def_parser *dp, const char *text, const char *src,
			unsigned int line, enum kp_def_op *op, struct kp_probe_def *def)
{
	struct kp_parse_err pe;

	if (!kp_parse_def_btf(text, dp->arch, dp->resolve, &dp->lk, dp->btf, op, def, &pe))
		return 0;
	kp_report_parse_err(text, src, line, def, &pe, &dp->lk);
	return KP_EXIT_DEF_BASE + pe.code;
}

int kp_def_parser_compile(struct kp_def_parser *dp, const char *text, struct kp_probe_def *def)
{
	struct kp_parse_err pe;
	enum kp_def_op op;

	return kp_parse_def_btf(text, dp->arch, dp->resolve, &dp->lk, dp->btf, &op, def, &pe);
}

void kp_def_parser_free(struct kp_def_parser *dp)
{
	if (!dp)
		return;
	kp_ksyms_free(&dp->lk.ks);
	kp_ksyms_dups_free(&dp->lk.dups);
	kp_btf_free(dp->btf);
	free(dp);
}
