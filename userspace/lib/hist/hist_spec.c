// SPDX-License-Identifier: GPL-2.0
/*
 * The hist trigger's grammar, as kernel/trace/trace_events_hist.c
 * (event_hist_trigger_parse(), parse_hist_trigger_attrs(), parse_field(),
 * create_sort_keys(), event_hist_trigger_print()) reads and prints it.
 * Error positions are error_log's: where the offending text first occurs
 * in "hist:" followed by everything after the command.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grammar.h"
#include "hist_spec.h"
#include "kver.h"

/* The kernel's HIST_KEY_SIZE_MAX: one string key and a stack. */
#define KP_HIST_KEY_SIZE_MAX (KPMOD_HIST_STR_KEY + KPMOD_HIST_STACK_DEPTH * 8)

static const char *const kp_hist_show_names[] = {
	[KP_HIST_SHOW_HEX] = "hex",
	[KP_HIST_SHOW_SYM] = "sym",
	[KP_HIST_SHOW_SYM_OFFSET] = "sym-offset",
	[KP_HIST_SHOW_EXECNAME] = "execname",
	[KP_HIST_SHOW_LOG2] = "log2",
	[KP_HIST_SHOW_BUCKETS] = "buckets",
	[KP_HIST_SHOW_USECS] = "usecs",
	[KP_HIST_SHOW_PERCENT] = "percent",
	[KP_HIST_SHOW_GRAPH] = "graph",
	[KP_HIST_SHOW_MAX] = "max",
	[KP_HIST_SHOW_MIN] = "min",
	[KP_HIST_SHOW_AVG] = "avg",
};

struct kp_hist_ctx {
	const struct kp_filter_fields *ff;
	struct kp_trigger_error *err;
	bool readback;			/* a text as printed: sort fields carry modifiers */
	char cmd[KP_TRIGGER_TEXT_MAX];	/* error_log's last_cmd */
};

static int kp_field_lookup(const struct kp_filter_fields *ff, const char *name)
{
	unsigned int i;

	for (i = 0; i < ff->n; i++)
		if (!strcmp(ff->f[i].name, name))
			return (int)i;
	return -1;
}

/*
 * One key or value, "field[.modifier]" (parse_field()).  @is_key: a key.
 * Returns 0 or -EINVAL with the error set.
 */
static int kp_hist_field(struct kp_hist_ctx *c, char *str, bool is_key,
			 struct kp_hist_key_def *d)
{
	char *modifier = strchr(str, '.'), *bad = NULL;
	const char *name = str;
	const struct kp_filter_field *f;
	unsigned long long buckets = 0;
	int i;

	memset(d, 0, sizeof(*d));
	if (modifier)
		*modifier++ = '\0';
	if (modifier) {
		if (!strcmp(modifier, "hex")) {
			d->show = KP_HIST_SHOW_HEX;
		} else if (!strcmp(modifier, "sym")) {
			d->show = KP_HIST_SHOW_SYM;
		} else if (!strcmp(modifier, "symXoffset")) {
			d->show = KP_HIST_SHOW_SYM_OFFSET;
		} else if (!strcmp(modifier, "execname") && !strcmp(name, "common_pid")) {
			d->show = KP_HIST_SHOW_EXECNAME;
		} else if (!strcmp(modifier, "log2")) {
			d->show = KP_HIST_SHOW_LOG2;
		} else if (!strcmp(modifier, "usecs")) {
			d->show = KP_HIST_SHOW_USECS;
		} else if (!strncmp(modifier, "bucket", 6)) {
			/* The caret goes where the kernel's pointer stopped. */
			bad = modifier + 6;
			if (*bad == 's')
				bad++;
			if (*bad != '=')
				goto bad_modifier;
			bad++;
			if (kp_strtoul(bad, &buckets) || !buckets)
				goto bad_modifier;
			d->show = KP_HIST_SHOW_BUCKETS;
		} else if (!strncmp(modifier, "percent", 7) && !is_key) {
			d->show = KP_HIST_SHOW_PERCENT;
		} else if (!strncmp(modifier, "graph", 5) && !is_key) {
			d->show = KP_HIST_SHOW_GRAPH;
		} else if (!strcmp(modifier, "max") && !is_key) {
			d->show = KP_HIST_SHOW_MAX;
		} else if (!strcmp(modifier, "min") && !is_key) {
			d->show = KP_HIST_SHOW_MIN;
		} else if (!strcmp(modifier, "avg") && !is_key) {
			d->show = KP_HIST_SHOW_AVG;
		} else {
bad_modifier:
			kp_gram_err(c->err, c->cmd, bad ? bad : modifier, "Invalid field modifier");
			return -EINVAL;
		}
	}
	if (!strcmp(name, "common_timestamp")) {
		kp_gram_err(c->err, c->cmd, name, "kpmod: common_timestamp is not supported");
		return -EINVAL;
	}
	i = strcmp(name, "common_cpu") ? kp_field_lookup(c->ff, name) : -2;
	f = i >= 0 ? &c->ff->f[i] : NULL;
	/* The kernel's generic fields have no size: only cpu is taken, as common_cpu. */
	if (i == -2 || (f && f->type == KP_FILTER_FIELD_CPU)) {
		/* Its entries say "cpu" when so named; its trigger, common_cpu. */
		snprintf(d->name, sizeof(d->name), "%s", name);
		d->is_cpu = true;
		d->mod.field = KPMOD_FIELD_CPU;
		d->is_signed = true;
	} else if (!f || f->type == KP_FILTER_FIELD_COMM) {
		kp_gram_err(c->err, c->cmd, name, "Couldn't find field");
		return -EINVAL;
	} else if (c->ff->refused[i]) {
		kp_gram_err(c->err, c->cmd, name, c->ff->refused[i]);
		return -EINVAL;
	} else {
		snprintf(d->name, sizeof(d->name), "%s", name);
		d->mod.field = c->ff->id[i];
		d->is_string = f->type == KP_FILTER_FIELD_STRING;
		d->is_signed = f->is_signed;
	}
	if (d->is_string && (d->show != KP_HIST_SHOW_PLAIN || !is_key)) {
		kp_gram_err(c->err, c->cmd, name, is_key ? "kpmod: a string key takes no modifier" :
			"kpmod: a value must be a number");
		return -EINVAL;
	}
	/* A value takes none of these (the kernel's __create_val_field). */
	if (!is_key && (d->show == KP_HIST_SHOW_LOG2 || d->show == KP_HIST_SHOW_BUCKETS ||
			d->show == KP_HIST_SHOW_SYM || d->show == KP_HIST_SHOW_SYM_OFFSET)) {
		kp_gram_err(c->err, c->cmd, name, "Invalid field modifier");
		return -EINVAL;
	}
	switch (d->show) {
	case KP_HIST_SHOW_LOG2:
	case KP_HIST_SHOW_BUCKETS:
		d->mod.flags = d->show == KP_HIST_SHOW_LOG2 ? KPMOD_HIST_F_LOG2 :
							       KPMOD_HIST_F_BUCKETS;
		d->mod.buckets = buckets;
		break;
	case KP_HIST_SHOW_EXECNAME:
		/* A value's is the kernel's too: a sum of pids, printed as a number. */
		if (is_key)
			d->mod.flags = KPMOD_HIST_F_EXECNAME;
		break;
	case KP_HIST_SHOW_MAX:
		d->mod.flags = KPMOD_HIST_F_MAX;
		break;
	case KP_HIST_SHOW_MIN:
		d->mod.flags = KPMOD_HIST_F_MIN;
		break;
	default:
		break;
	}
	return 0;
}

const char *kp_hist_stack_name(void)
{
	return kp_kver() >= KP_KVER(6, 4) ? "common_stacktrace" : "stacktrace";
}

static int kp_hist_keys(struct kp_hist_ctx *c, char *str, struct kp_hist_spec *h)
{
	char *field;
	unsigned int off = 0;

	while ((field = strsep(&str, ","))) {
		struct kp_hist_key_def *d;

		if (h->nkeys == KPMOD_HIST_MAX_KEYS) {
			kp_gram_err(c->err, NULL, NULL, "kpmod: a hist takes at most 3 keys");
			return -EINVAL;
		}
		d = &h->keys[h->nkeys];
		if (!strcmp(field, "stacktrace") || !strcmp(field, "common_stacktrace") ||
		    !strcmp(field, "STACKTRACE")) {
			memset(d, 0, sizeof(*d));
			snprintf(d->name, sizeof(d->name), "%s", kp_hist_stack_name());
			d->mod.field = KPMOD_FIELD_STACKTRACE;
			d->is_stack = true;
		} else if (kp_hist_field(c, field, true, d)) {
			return -EINVAL;
		}
		d->off = off;
		off += d->is_stack ? KPMOD_HIST_STACK_DEPTH * 8 :
		       d->is_string ? KPMOD_HIST_STR_KEY : 8;
		h->nkeys++;
	}
	if (off > KP_HIST_KEY_SIZE_MAX) {
		kp_gram_err(c->err, NULL, NULL,
		       "kpmod: keys too large (the kernel's limit: one string and a stacktrace)");
		return -EINVAL;
	}
	h->key_size = off;
	return 0;
}

/* create_val_fields(): "hitcount" anywhere is implied, up to 2 others. */
static int kp_hist_vals(struct kp_hist_ctx *c, char *str, struct kp_hist_spec *h)
{
	char *field;

	while ((field = strsep(&str, ","))) {
		if (!strcmp(field, "hitcount"))
			continue;
		if (h->nvals == KPMOD_HIST_MAX_VALS) {
			kp_gram_err(c->err, NULL, NULL,
			       "kpmod: a hist takes at most 2 values besides hitcount");
			return -EINVAL;
		}
		if (kp_hist_field(c, field, false, &h->vals[h->nvals]))
			return -EINVAL;
		h->nvals++;
	}
	return 0;
}

static int kp_hist_descending(struct kp_hist_ctx *c, const char *mod, bool *out)
{
	*out = false;
	if (!mod || !strcmp(mod, "ascending"))
		return 0;
	if (!strcmp(mod, "descending")) {
		*out = true;
		return 0;
	}
	kp_gram_err(c->err, c->cmd, mod, "Invalid sort modifier");
	return -EINVAL;
}

/* create_sort_keys(): names as hist_field_name() gives them. */
static int kp_hist_sort(struct kp_hist_ctx *c, char *str, struct kp_hist_spec *h)
{
	unsigned int i, j;

	for (i = 0; i < 2; i++) {
		char *field = strsep(&str, ","), *name, *mod;
		struct kp_hist_sort *s = &h->sort[i];
		bool found = false;

		if (!field)
			break;
		if (!*field) {
			kp_gram_err(c->err, c->cmd, "sort=", "Empty sort field");
			return -EINVAL;
		}
		if (i == 1 && str) {
			kp_gram_err(c->err, c->cmd, "sort=", "Too many sort fields (Max = 2)");
			return -EINVAL;
		}
		mod = field;
		name = strsep(&mod, ".");
		/* Printed back, a sort field has its key's modifier: skip it. */
		if (c->readback && mod && strcmp(mod, "descending") && strcmp(mod, "ascending")) {
			mod = strchr(mod, '.');
			if (mod)
				mod++;
		}
		if (!*name) {
			kp_gram_err(c->err, c->cmd, "sort=", "Empty sort field");
			return -EINVAL;
		}
		if (!strcmp(name, "hitcount")) {
			s->field = 0;
			found = true;
		}
		for (j = 0; !found && j < h->nvals; j++) {
			if (!strcmp(name, h->vals[j].name)) {
				s->field = (int)j + 1;
				found = true;
			}
		}
		for (j = 0; !found && j < h->nkeys; j++) {
			if (!strcmp(name, h->keys[j].name)) {
				s->field = -(int)j - 1;
				found = true;
			}
		}
		if (!found) {
			kp_gram_err(c->err, c->cmd, name, "Sort field must be a key or a val");
			return -EINVAL;
		}
		if (kp_hist_descending(c, mod, &s->descending))
			return -EINVAL;
	}
	h->nsort = i ? i : 1;
	return 0;
}

/* @written: a cpu field by the name it was given, else as the kernel prints it. */
static void kp_hist_field_text(char *buf, size_t len, const struct kp_hist_key_def *d,
			       bool written)
{
	int n;

	if (d->is_stack) {
		snprintf(buf, len, "%s", kp_hist_stack_name());
		return;
	}
	n = snprintf(buf, len, "%s", d->is_cpu && !written ? "common_cpu" : d->name);
	if (d->show != KP_HIST_SHOW_PLAIN && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - n, ".%s", kp_hist_show_names[d->show]);
	if (d->show == KP_HIST_SHOW_BUCKETS && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, "=%llu", (unsigned long long)d->mod.buckets);
}

/*
 * event_hist_trigger_print() up to the size.  @written: with cpu fields
 * by the names they were given, the text the module keeps (so that it
 * reads back into the same spec).
 */
void kp_hist_text(char *buf, size_t len, const struct kp_hist_spec *h, bool written)
{
	char f[128];
	size_t n = 0;
	unsigned int i;

#define KP_PUT(...) (n += (size_t)snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__))
	KP_PUT("hist:");
	if (h->name[0])
		KP_PUT("name=%s:", h->name);
	KP_PUT("keys=");
	for (i = 0; i < h->nkeys; i++) {
		kp_hist_field_text(f, sizeof(f), &h->keys[i], written);
		KP_PUT("%s%s", i ? "," : "", f);
	}
	KP_PUT(":vals=hitcount");
	for (i = 0; i < h->nvals; i++) {
		kp_hist_field_text(f, sizeof(f), &h->vals[i], written);
		KP_PUT(",%s", f);
	}
	KP_PUT(":sort=");
	for (i = 0; i < h->nsort; i++) {
		const struct kp_hist_sort *s = &h->sort[i];

		if (s->field == 0)
			snprintf(f, sizeof(f), "hitcount");
		else if (s->field > 0)
			kp_hist_field_text(f, sizeof(f), &h->vals[s->field - 1], written);
		else
			kp_hist_field_text(f, sizeof(f), &h->keys[-s->field - 1], written);
		KP_PUT("%s%s%s", i ? "," : "", f, s->descending ? ".descending" : "");
	}
	KP_PUT(":size=%u", h->size);
#undef KP_PUT
}

/* parse_hist_trigger_attrs() and what follows it, on @trigger. */
static int kp_hist_parse(struct kp_hist_ctx *c, char *trigger, struct kp_hist_spec *h)
{
	char *keys = NULL, *vals = NULL, *sort = NULL, *str, *p;
	unsigned long long size;
	unsigned int bits;

	memset(h, 0, sizeof(*h));
	h->size = KPMOD_HIST_SIZE_DEFAULT;
	/* As the kernel: '.sym-offset' is read as one word. */
	for (p = strstr(trigger, ".sym-offset"); p; p = strstr(p + 11, ".sym-offset"))
		p[4] = 'X';
	while ((str = strsep(&trigger, ":"))) {
		char *rhs = strchr(str, '=');

		if (rhs) {
			if (!*++rhs) {
				kp_gram_err(c->err, c->cmd, str, "Empty assignment");
				return -EINVAL;
			}
			if (!strncmp(str, "key=", 4) || !strncmp(str, "keys=", 5)) {
				keys = rhs;
			} else if (!strncmp(str, "val=", 4) || !strncmp(str, "vals=", 5) ||
				   !strncmp(str, "values=", 7)) {
				vals = rhs;
			} else if (!strncmp(str, "sort=", 5)) {
				sort = rhs;
			} else if (!strncmp(str, "size=", 5)) {
				/* parse_map_size(): rounded up to a power of two. */
				if (kp_strtoul(rhs, &size)) {
					kp_gram_err(c->err, NULL, NULL, "kpmod: size is not a number");
					return -EINVAL;
				}
				for (bits = 0; bits < 64 && (1ULL << bits) < size; bits++)
					;
				if (bits < 7 || bits > 17) {
					kp_gram_err(c->err, NULL, NULL,
					       "kpmod: size must be 128 to 131072 (a power of two)");
					return -EINVAL;
				}
				h->size = 1U << bits;
			} else if (!strncmp(str, "clock=", 6)) {
				continue;	/* only for timestamps, which kpmod has not */
			} else if (!strncmp(str, "name=", 5)) {
				if (strlen(rhs) >= sizeof(h->name)) {
					kp_gram_err(c->err, NULL, NULL,
					       "kpmod: a hist's name is at most 63 bytes");
					return -EINVAL;
				}
				snprintf(h->name, sizeof(h->name), "%s", rhs);
			} else {
				kp_gram_err(c->err, NULL, NULL, "kpmod: variables are not supported");
				return -EINVAL;
			}
		} else if (!strcmp(str, "pause")) {
			h->action = KPMOD_HIST_PAUSE;
		} else if (!strcmp(str, "cont") || !strcmp(str, "continue")) {
			h->action = KPMOD_HIST_CONT;
		} else if (!strcmp(str, "clear")) {
			h->action = KPMOD_HIST_CLEAR;
		} else {
			kp_gram_err(c->err, NULL, NULL, !strncmp(str, "onmatch(", 8) ||
				!strncmp(str, "onmax(", 6) || !strncmp(str, "onchange(", 9) ?
				"kpmod: actions are not supported" : "kpmod: unknown hist attribute");
			return -EINVAL;
		}
	}
	if (!keys) {
		kp_gram_err(c->err, NULL, NULL, "kpmod: a hist needs keys=");
		return -EINVAL;
	}
	if ((vals && kp_hist_vals(c, vals, h)) || kp_hist_keys(c, keys, h) ||
	    kp_hist_sort(c, sort, h))
		return -EINVAL;
	return 0;
}

/* event_hist_trigger_parse(): "KEYS... [if FILTER]", the "if" between blanks. */
int kp_hist_trigger_parse(const char *param, const struct kp_filter_fields *ff,
			  struct kp_hist_spec *h, char *filter_out, size_t filter_len,
			  char *text, size_t text_len, struct kp_trigger_error *err)
{
	struct kp_hist_ctx c = { .ff = ff, .err = err };
	char *copy, *trigger, *p;
	int ret = -EINVAL;

	snprintf(c.cmd, sizeof(c.cmd), "hist:%s", param ? param : "");
	if (filter_len)
		filter_out[0] = '\0';
	if (!param) {
		kp_gram_err(err, NULL, NULL, "kpmod: a hist needs keys=");
		return -EINVAL;
	}
	copy = strdup(param);
	if (!copy)
		return -ENOMEM;
	trigger = copy;
	for (p = copy; (p = strstr(p, "if")); p++) {
		if (p == copy)
			goto bad_if;
		if (p[-1] != ' ' && p[-1] != '\t')
			continue;
		if (p >= copy + strlen(copy) - 2 - 1)
			goto bad_if;
		if (p[2] != ' ' && p[2] != '\t')
			continue;
		break;
	}
	if (p) {
		/*
		 * The kernel strips the ends of "if FILTER" and splits the
		 * "if" off at its first blank: blanks after that stay in the
		 * filter as listed (and as matched on removal).
		 */
		char *filter = p + 3, *end = filter + strlen(filter);

		while (end > filter && isspace((unsigned char)end[-1]))
			*--end = '\0';
		/* "if" and blanks alone: the kernel's set_trigger_filter() refuses it. */
		if (!*filter)
			goto bad_if;
		p[-1] = '\0';
		snprintf(filter_out, filter_len, "%s", filter);
		trigger = kp_strim(trigger);
	}
	ret = kp_hist_parse(&c, trigger, h);
	if (!ret)
		kp_hist_text(text, text_len, h, true);
	free(copy);
	return ret;
bad_if:
	kp_gram_err(err, NULL, NULL, "kpmod: a misplaced 'if'");
	free(copy);
	return -EINVAL;
}

int kp_hist_spec_of(const char *text, const struct kp_filter_fields *ff,
		    struct kp_hist_spec *out)
{
	struct kp_trigger_error err;
	struct kp_hist_ctx c = { .ff = ff, .err = &err, .readback = true };
	char *copy;
	int ret;

	if (strncmp(text, "hist:", 5))
		return -EINVAL;
	copy = strdup(text + 5);
	if (!copy)
		return -ENOMEM;
	ret = kp_hist_parse(&c, copy, out);
	free(copy);
	return ret;
}
