// SPDX-License-Identifier: GPL-2.0
/*
 * kpmod apply [--check] [--state FILE] [--btf FILE|DIR] DIR|FILE...: makes the module hold
 * what probe files say (the .conf files of /etc/kpmod/probes.d at boot), and nothing
 * else of what apply put there before.  Idempotent: a second run changes
 * nothing; a changed file changes only the difference.
 *
 * A file holds, one per line ('#' starts a comment line):
 *   p:... | r:...            a definition, in kprobe_events syntax
 *   filter EVENT EXPR        that probe's filter
 *   trigger EVENT TRIGGER    one of its triggers (several lines: several)
 *   enable EVENT             it is enabled
 *   buffer [size=SIZE] [mode=discard|overwrite]
 * EVENT names a probe the files define (GROUP/EVENT, or EVENT when one
 * group has it).  Every line is checked before anything changes.
 *
 * The probes apply added are listed in the state file (default
 * /run/kpmod/applied): a probe of that list that the files no longer
 * define is removed; a probe of the same name that apply did not add is
 * never touched unless its definition is the same (then apply takes it).
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "args.h"
#include "add.h"
#include "exitcode.h"
#include "live.h"
#include "commands.h"
#include "filter_probe.h"
#include "probe_ops.h"
#include "trigger.h"

#define KP_APPLY_STATE "/run/kpmod/applied"

struct kp_want {
	struct kp_event_name name;
	char *text;			/* the definition as written */
	char *definition;		/* as the module will print it back */
	char *filter;			/* or NULL */
	struct kp_probe_def *def;	/* parsed; @ff points into it */
	char **triggers;
	unsigned int ntriggers;
	bool enable;
	bool fresh;			/* to be added (or redefined) by this run */
	struct kp_filter_fields *ff;	/* its fields, for checking */
};

struct kp_apply {
	bool check;
	const struct kp_arch *arch;	/* the module's: what --check names compile for */
	const char *state;
	struct kp_want *want;
	unsigned int nwant;
	uint64_t buf_size;		/* 0: not set */
	int buf_mode;			/* -1: not set */
	unsigned int changes;
	struct kp_nl nl;
	struct kp_status st;
	/* --check: the triggers step 0 would have removed (probe id, trigger id). */
	struct kp_gone_trigger {
		uint32_t probe, trigger;
	} *gone;
	unsigned int ngone;
};

static void kp_say(struct kp_apply *a, const char *what, const char *group, const char *event)
{
	a->changes++;
	printf("%s%s %s/%s\n", a->check ? "would " : "", what, group, event);
}

static struct kp_want *kp_want_find(struct kp_apply *a, const char *group, const char *event)
{
	unsigned int i;

	for (i = 0; i < a->nwant; i++)
		if (!strcmp(a->want[i].name.group, group) && !strcmp(a->want[i].name.event, event))
			return &a->want[i];
	return NULL;
}

/* The probe a directive names: one the files define. */
static struct kp_want *kp_want_named(struct kp_apply *a, const char *spec, const char *where)
{
	char group[KPMOD_MAX_NAME_LEN], event[KPMOD_MAX_NAME_LEN];
	struct kp_want *found = NULL;
	unsigned int i;

	if (kp_split_event_name(spec, group, sizeof(group), event, sizeof(event))) {
		kp_msg_at(where, "bad event name '%s'\n", spec);
		return NULL;
	}
	for (i = 0; i < a->nwant; i++) {
		if (strcmp(a->want[i].name.event, event) ||
		    (group[0] && strcmp(a->want[i].name.group, group)))
			continue;
		if (found) {
			kp_msg_at(where, "'%s' is in several groups: name it GROUP/EVENT\n",
				spec);
			return NULL;
		}
		found = &a->want[i];
	}
	if (!found)
		kp_msg_at(where, "'%s' is not defined in these files\n", spec);
	return found;
}

/* "WORD REST": splits off the first word; NULL if there is no rest. */
static char *kp_rest(char *s)
{
	char *sp = strpbrk(s, " \t");

	if (!sp)
		return NULL;
	*sp++ = '\0';
	while (*sp == ' ' || *sp == '\t')
		sp++;
	return *sp ? sp : NULL;
}

static int kp_buffer_line(struct kp_apply *a, char *args, const char *where)
{
	char *w;
	int mode;

	for (w = strtok(args, " \t"); w; w = strtok(NULL, " \t")) {
		if (!strncmp(w, "size=", 5)) {
			if (kp_parse_size(w + 5, &a->buf_size) || !kpmod_buf_size_valid(a->buf_size)) {
				kp_msg_at(where, "buffer size '%s': " KP_BUF_SIZE_RULE "\n",
					w + 5);
				return KP_EXIT_USAGE;
			}
		} else if (!strncmp(w, "mode=", 5) && (mode = kp_parse_buf_mode(w + 5)) >= 0) {
			a->buf_mode = mode;
		} else {
			kp_msg_at(where, "buffer takes size=SIZE and mode=discard|overwrite, not '%s'\n",
				w);
			return KP_EXIT_USAGE;
		}
	}
	return 0;
}

/* One line of a file; definitions first pass, directives second. */
static int kp_apply_line(struct kp_apply *a, struct kp_def_parser *dp, char *line,
			 const char *src, unsigned int lineno, bool defs)
{
	char where[PATH_MAX + 16], *rest;
	bool is_def = (line[0] == 'p' || line[0] == 'r') &&
		      line[strspn(line + 1, "0123456789") + 1] == ':';
	struct kp_probe_def *def;
	enum kp_def_op op;
	struct kp_want *w;
	int ret;

	snprintf(where, sizeof(where), "kpmod: %s:%u", src, lineno);
	if (is_def != defs)
		return 0;
	if (is_def) {
		def = malloc(sizeof(*def));
		if (!def)
			return KP_EXIT_ERROR;
		ret = kp_def_parser_parse(dp, line, src, lineno, &op, def);
		if (!ret && a->check)
			kp_def_say_compiled(stdout, src, lineno, def, a->arch);
		if (!ret && kp_want_find(a, def->group, def->event)) {
			kp_msg_at(where, "%s/%s is defined twice\n", def->group, def->event);
			ret = KP_EXIT_USAGE;
		}
		if (!ret) {
			w = realloc(a->want, (a->nwant + 1) * sizeof(*a->want));
			if (!w) {
				free(def);
				return KP_EXIT_ERROR;
			}
			a->want = w;
			w = &a->want[a->nwant++];
			memset(w, 0, sizeof(*w));
			snprintf(w->name.group, sizeof(w->name.group), "%s", def->group);
			snprintf(w->name.event, sizeof(w->name.event), "%s", def->event);
			w->text = strdup(line);
			w->definition = strdup(def->definition);
			w->ff = malloc(sizeof(*w->ff));
			w->def = def;
			if (!w->text || !w->definition || !w->ff)
				return KP_EXIT_ERROR;
			kp_filter_fields_of_def(def, w->ff);
			return 0;
		}
		free(def);
		return ret;
	}
	rest = kp_rest(line);
	if (!strcmp(line, "buffer"))
		return rest ? kp_buffer_line(a, rest, where) : 0;
	if (strcmp(line, "filter") && strcmp(line, "trigger") && strcmp(line, "enable")) {
		kp_msg_at(where, "'%s': a line is a definition (p:, r:), filter, trigger, enable or buffer\n",
			line);
		return KP_EXIT_USAGE;
	}
	if (!rest) {
		kp_msg_at(where, "%s needs an EVENT\n", line);
		return KP_EXIT_USAGE;
	}
	if (!strcmp(line, "enable")) {
		for (rest = strtok(rest, " \t"); rest; rest = strtok(NULL, " \t")) {
			w = kp_want_named(a, rest, where);
			if (!w)
				return KP_EXIT_USAGE;
			w->enable = true;
		}
		return 0;
	}
	{
		char *what = kp_rest(rest);

		w = kp_want_named(a, rest, where);
		if (!w)
			return KP_EXIT_USAGE;
		if (!what) {
			kp_msg_at(where, "%s %s needs an expression\n", line, rest);
			return KP_EXIT_USAGE;
		}
		if (!strcmp(line, "filter")) {
			struct kp_filter_code code = { 0 };
			struct kp_filter_error ferr;
			char out[KPMOD_MAX_FILTER_TEXT * 2 + 128];
			const char *why;

			ret = kp_filter_build(what, w->ff, &code, &ferr, &why);
			kp_filter_code_free(&code);
			if (ret == -EINVAL) {
				kp_filter_error_format(out, sizeof(out), what, &ferr);
				kp_msg_at(where, "the filter does not parse:\n%s", out);
			} else if (ret) {
				kp_msg_at(where, "%s\n", ret == -EPERM ? why : "out of memory");
			}
			if (ret)
				return ret == -ENOMEM ? KP_EXIT_ERROR : KP_EXIT_BADFILTER;
			free(w->filter);
			w->filter = strdup(what);
			return w->filter ? 0 : KP_EXIT_ERROR;
		} else {
			struct kp_trigger *t = malloc(sizeof(*t));
			struct kp_trigger_error terr;
			char **grown;

			if (!t)
				return KP_EXIT_ERROR;
			ret = kp_trigger_parse(what, w->ff, t, &terr);
			if (!ret && t->remove) {
				kp_msg_at(where, "a file lists the triggers to have: drop the line instead of '!'\n");
				ret = -EINVAL;
				terr.msg[0] = '\0';
			}
			free(t);
			if (ret && terr.msg[0]) {
				kp_msg_at(where, "the trigger does not parse: %s\n", terr.msg);
				return KP_EXIT_BADTRIGGER;
			}
			if (ret)
				return KP_EXIT_USAGE;
			grown = realloc(w->triggers, (w->ntriggers + 1) * sizeof(*grown));
			if (!grown)
				return KP_EXIT_ERROR;
			w->triggers = grown;
			grown[w->ntriggers] = strdup(what);
			return grown[w->ntriggers++] ? 0 : KP_EXIT_ERROR;
		}
	}
}

/* Reads @path (a file, or a directory's *.conf in name order) in one pass. */
static int kp_apply_read(struct kp_apply *a, struct kp_def_parser *dp, const char *path,
			 bool defs)
{
	struct dirent **names;
	char *line = NULL, sub[PATH_MAX];
	unsigned int lineno = 0;
	struct stat sb;
	size_t cap = 0;
	int n, i, ret = 0;
	FILE *f;

	if (stat(path, &sb)) {
		kp_msg("apply", "%s: %s\n", path, strerror(errno));
		return KP_EXIT_USAGE;
	}
	if (S_ISDIR(sb.st_mode)) {
		n = scandir(path, &names, NULL, alphasort);
		if (n < 0) {
			kp_msg("apply", "%s: %s\n", path, strerror(errno));
			return KP_EXIT_ERROR;
		}
		for (i = 0; i < n; i++) {
			size_t len = strlen(names[i]->d_name);

			if (!ret && len > 5 && !strcmp(names[i]->d_name + len - 5, ".conf")) {
				snprintf(sub, sizeof(sub), "%s/%s", path, names[i]->d_name);
				ret = kp_apply_read(a, dp, sub, defs);
			}
			free(names[i]);
		}
		free(names);
		return ret;
	}
	f = fopen(path, "r");
	if (!f) {
		kp_msg("apply", "%s: %s\n", path, strerror(errno));
		return KP_EXIT_USAGE;
	}
	while (!ret && getline(&line, &cap, f) > 0) {
		char *s = line, *end;

		lineno++;
		while (*s == ' ' || *s == '\t')
			s++;
		end = s + strlen(s);
		while (end > s && (end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\t'))
			*--end = '\0';
		if (*s && *s != '#')
			ret = kp_apply_line(a, dp, s, path, lineno, defs);
	}
	free(line);
	fclose(f);
	return ret;
}

/* The state file: one GROUP/EVENT per line. */
static bool kp_state_has(const char *state, const char *group, const char *event)
{
	char name[2 * KPMOD_MAX_NAME_LEN + 2];
	const char *p;
	size_t len;

	len = snprintf(name, sizeof(name), "%s/%s", group, event);
	for (p = state; p && (p = strstr(p, name)); p += len)
		if ((p == state || p[-1] == '\n') && (p[len] == '\n' || !p[len]))
			return true;
	return false;
}

/* The state file: @a's probes, and (while changing) those of @also. */
static int kp_state_write(struct kp_apply *a, const char *also)
{
	char tmp[PATH_MAX], dir[PATH_MAX], *slash;
	unsigned int i;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", a->state);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		mkdir(dir, 0755);
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", a->state);
	f = fopen(tmp, "w");
	if (!f)
		goto fail;
	for (i = 0; i < a->nwant; i++)
		fprintf(f, "%s/%s\n", a->want[i].name.group, a->want[i].name.event);
	if (also && *also)
		fprintf(f, "%s\n", also);
	if (fclose(f) || rename(tmp, a->state))
		goto fail;
	return 0;
fail:
	kp_msg("apply", "%s: %s\n", a->state, strerror(errno));
	return KP_EXIT_ERROR;
}

static int kp_select_one_name(struct kp_apply *a, uint8_t cmd, const char *group,
			      const char *event)
{
	struct kp_err e;

	if (!kp_probe_select_one(&a->nl, cmd, group, event, &e))
		return 0;
	kp_err_about(&e, event);
	return kp_fail("apply", &e);
}

/* Disables @p if it is enabled, removes its triggers, deletes it. */
static int kp_apply_remove(struct kp_apply *a, const struct kp_probe_info *p)
{
	struct kp_err e;
	unsigned int j;
	int ret = 0;

	if (a->check)
		return 0;
	if (p->enabled)
		ret = kp_select_one_name(a, KPMOD_CMD_PROBE_DISABLE, p->desc.group, p->desc.event);
	for (j = p->ntriggers; !ret && j-- > 0;)
		if (kp_trigger_remove_info(&a->nl, p, &p->triggers[j], &e))
			ret = kp_fail("apply", &e);
	return ret ? ret : kp_select_one_name(a, KPMOD_CMD_PROBE_DEL, p->desc.group, p->desc.event);
}

/* The definition as `kpmod list` shows it: kprobe_events' r<maxactive>: aside. */
static bool kp_same_definition(const struct kp_probe_info *p, const struct kp_want *w)
{
	return !strcmp(p->definition, w->definition);
}

/* Whether step 1 deletes @p: apply's and no longer in the files, or redefined. */
static bool kp_apply_deletes(struct kp_apply *a, const struct kp_probe_info *p, const char *state)
{
	struct kp_want *w = kp_want_find(a, p->desc.group, p->desc.event);

	return w ? !kp_same_definition(p, w) : kp_state_has(state, p->desc.group, p->desc.event);
}

/*
 * The probe of @l that @ti, an enable_event/disable_event trigger of @p,
 * aims at, if step 1 deletes it; else NULL.  The trigger's text is parsed
 * as `kpmod trigger` parses it, once.
 */
static const struct kp_probe_info *kp_deleted_target(struct kp_apply *a,
						     const struct kp_probe_list *l,
						     const struct kp_probe_info *p,
						     const struct kp_trigger_info *ti,
						     const char *state)
{
	const struct kp_probe_info *target = NULL;
	struct kp_filter_fields *ff;
	struct kp_trigger_error terr;
	struct kp_trigger *t;

	if (ti->type != KPMOD_TRIGGER_ENABLE_EVENT && ti->type != KPMOD_TRIGGER_DISABLE_EVENT)
		return NULL;
	ff = malloc(sizeof(*ff));
	t = malloc(sizeof(*t));
	if (ff && t) {
		kp_filter_fields_of(p, ff);
		if (!kp_trigger_parse(ti->text, ff, t, &terr))
			target = kp_probe_list_find(l, t->target_group, t->target_event);
	}
	free(ff);
	free(t);
	return target && kp_apply_deletes(a, target, state) ? target : NULL;
}

static int kp_gone_add(struct kp_apply *a, const struct kp_probe_info *p,
		       const struct kp_trigger_info *ti)
{
	struct kp_gone_trigger *g = realloc(a->gone, (a->ngone + 1) * sizeof(*g));

	if (!g)
		return KP_EXIT_ERROR;
	a->gone = g;
	a->gone[a->ngone++] = (struct kp_gone_trigger){ p->desc.id, ti->id };
	return 0;
}

/* --check: whether step 0 would have removed @ti, a trigger of @p. */
static bool kp_gone(const struct kp_apply *a, const struct kp_probe_info *p,
		    const struct kp_trigger_info *ti)
{
	unsigned int i;

	for (i = 0; i < a->ngone; i++)
		if (a->gone[i].probe == p->desc.id && a->gone[i].trigger == ti->id)
			return true;
	return false;
}

/*
 * Step 0: the enable_event/disable_event triggers of the files' probes that
 * aim at a probe step 1 deletes go first, or the module refuses the delete
 * (EBUSY).  Those the files still give come back at step 4.  Sets
 * @*changed when the module's list changed.
 */
static int kp_apply_untarget(struct kp_apply *a, const struct kp_probe_list *l, const char *state,
			     bool *changed)
{
	unsigned int j, k;
	struct kp_err e;
	int ret = 0;

	for (j = 0; j < l->n && !ret; j++) {
		const struct kp_probe_info *p = &l->probes[j];

		if (!kp_want_find(a, p->desc.group, p->desc.event) &&
		    !kp_state_has(state, p->desc.group, p->desc.event))
			continue;	/* not apply's: refused by the precheck */
		for (k = p->ntriggers; !ret && k-- > 0;) {
			if (!kp_deleted_target(a, l, p, &p->triggers[k], state))
				continue;
			/* A probe deleted too loses its triggers with it. */
			if (!kp_apply_deletes(a, p, state))
				kp_say(a, "remove a trigger of", p->desc.group, p->desc.event);
			if (a->check) {
				ret = kp_gone_add(a, p, &p->triggers[k]);
				continue;
			}
			if (kp_trigger_remove_info(&a->nl, p, &p->triggers[k], &e))
				ret = kp_fail("apply", &e);
			*changed = true;
		}
	}
	return ret;
}

/* Step 1: what apply added that the files no longer hold, or hold otherwise. */
static int kp_apply_removals(struct kp_apply *a, const struct kp_probe_list *l, const char *state,
			     char **texts, unsigned int *ntexts)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < l->n && !ret; i++) {
		const struct kp_probe_info *p = &l->probes[i];
		struct kp_want *w = kp_want_find(a, p->desc.group, p->desc.event);

		if (!kp_apply_deletes(a, p, state))
			continue;
		kp_say(a, w ? "redefine" : "remove", p->desc.group, p->desc.event);
		ret = kp_apply_remove(a, p);
		if (w) {
			w->fresh = true;
			texts[(*ntexts)++] = w->text;
		}
	}
	for (i = 0; i < a->nwant; i++)
		if (!kp_probe_list_find(l, a->want[i].name.group, a->want[i].name.event)) {
			kp_say(a, "add", a->want[i].name.group, a->want[i].name.event);
			a->want[i].fresh = true;
			texts[(*ntexts)++] = a->want[i].text;
		}
	return ret;
}

/*
 * Whether a trigger of @p, a probe that is not apply's, aims at a probe
 * apply would delete: the module would refuse the delete (EBUSY), so it
 * is said before anything changes.
 */
static bool kp_aims_at_deleted(struct kp_apply *a, const struct kp_probe_list *l,
			       const struct kp_probe_info *p, const char *state)
{
	const struct kp_probe_info *target;
	unsigned int k;

	for (k = 0; k < p->ntriggers; k++) {
		target = kp_deleted_target(a, l, p, &p->triggers[k], state);
		if (!target)
			continue;
		kp_msg("apply",
		       "%s/%s cannot be deleted or redefined: the trigger '%s' of %s/%s, which apply did not add, aims at it\n",
		       target->desc.group, target->desc.event, p->triggers[k].text,
		       p->desc.group, p->desc.event);
		return true;
	}
	return false;
}

/*
 * Before any change, the refusals that do not depend on the kernel: a
 * probe of the files' name that apply did not add, defined otherwise; a
 * buffer change while a probe the files do not define is enabled.
 */
static int kp_apply_precheck(struct kp_apply *a, const struct kp_probe_list *l,
			     const char *state)
{
	bool buffer = (a->buf_size && a->buf_size != a->st.buf_size) ||
		      (a->buf_mode >= 0 && (uint32_t)a->buf_mode != a->st.buf_mode);
	unsigned int i;

	for (i = 0; i < l->n; i++) {
		const struct kp_probe_info *p = &l->probes[i];
		struct kp_want *w = kp_want_find(a, p->desc.group, p->desc.event);
		bool owned = kp_state_has(state, p->desc.group, p->desc.event);

		if (w && !owned && !kp_same_definition(p, w)) {
			kp_msg("apply",
			       "%s/%s exists, defined otherwise, and apply did not add it: delete or rename it\n",
			       p->desc.group, p->desc.event);
			return KP_EXIT_REFUSED;
		}
		if (buffer && p->enabled && !w && !owned) {
			kp_msg("apply",
			       "the buffer cannot change while %s/%s, which these files do not define, is enabled\n",
			       p->desc.group, p->desc.event);
			return KP_EXIT_REFUSED;
		}
		if (!w && !owned && kp_aims_at_deleted(a, l, p, state))
			return KP_EXIT_REFUSED;
	}
	return 0;
}

/* Step 2: the buffer, which only changes while no probe is enabled. */
static int kp_apply_buffer(struct kp_apply *a, const struct kp_probe_list *l)
{
	bool size = a->buf_size && a->buf_size != a->st.buf_size;
	bool mode = a->buf_mode >= 0 && (uint32_t)a->buf_mode != a->st.buf_mode;
	unsigned int i;
	struct kp_err e;
	int ret = 0;

	if (!size && !mode)
		return 0;
	a->changes++;
	printf("%sset the buffer to %llu KiB per CPU, %s\n", a->check ? "would " : "",
	       (unsigned long long)(size ? a->buf_size : a->st.buf_size) >> 10,
	       kpmod_buf_mode_name(mode ? (uint32_t)a->buf_mode : a->st.buf_mode));
	if (a->check)
		return 0;
	/* The enabled probes that are the files': disabled now, enabled again at step 4. */
	for (i = 0; i < l->n && !ret; i++) {
		const struct kp_probe_info *p = &l->probes[i];

		if (!p->enabled)
			continue;
		if (!kp_want_find(a, p->desc.group, p->desc.event)) {
			kp_msg("apply",
			       "the buffer cannot change while %s/%s, which these files do not define, is enabled\n",
			       p->desc.group, p->desc.event);
			return KP_EXIT_REFUSED;
		}
		ret = kp_select_one_name(a, KPMOD_CMD_PROBE_DISABLE, p->desc.group, p->desc.event);
	}
	if (!ret && kp_buffer_set(&a->nl, size ? a->buf_size : 0, mode ? a->buf_mode : -1, &e))
		ret = kp_fail("apply", &e);
	return ret;
}

/* --check: the settings of a probe this run would add, all changes. */
static void kp_apply_say_fresh(struct kp_apply *a, const struct kp_want *w)
{
	unsigned int j;

	if (w->filter)
		kp_say(a, "set the filter of", w->name.group, w->name.event);
	for (j = 0; j < w->ntriggers; j++)
		kp_say(a, "add a trigger to", w->name.group, w->name.event);
	if (w->enable)
		kp_say(a, "enable", w->name.group, w->name.event);
}

/* Step 4: filters, triggers and enabling, probe by probe. */
static int kp_apply_settings(struct kp_apply *a, const struct kp_probe_list *l)
{
	struct kp_trigger *t = malloc(sizeof(*t));
	struct kp_trigger_error terr;
	unsigned int i, j, k;
	struct kp_err e;
	int ret = 0;

	if (!t)
		return KP_EXIT_ERROR;
	for (i = 0; i < a->nwant && !ret; i++) {
		const struct kp_want *w = &a->want[i];
		const struct kp_probe_info *p = kp_probe_list_find(l, w->name.group, w->name.event);
		bool keep[KPMOD_MAX_TRIGGERS] = { false };

		if (a->check && w->fresh) {
			kp_apply_say_fresh(a, w);
			continue;
		}
		if (!p)
			continue;
		if (w->filter ? strcmp(p->filter, w->filter) : !!p->filter[0]) {
			kp_say(a, w->filter ? "set the filter of" : "clear the filter of",
			       p->desc.group, p->desc.event);
			if (!a->check)
				ret = kp_filter_apply(&a->nl, p, w->filter);
		}
		/* Triggers: those the files give stay, others go, missing ones come. */
		for (j = 0; j < w->ntriggers && !ret; j++) {
			bool there = false;

			if (kp_trigger_parse(w->triggers[j], w->ff, t, &terr))
				continue;	/* checked when read */
			for (k = 0; k < p->ntriggers && k < KPMOD_MAX_TRIGGERS; k++) {
				if (kp_gone(a, p, &p->triggers[k]))
					continue;
				if (!strcmp(p->triggers[k].text, t->text) &&
				    !strcmp(p->triggers[k].filter, t->filter))
					there = keep[k] = true;
			}
			if (!there) {
				kp_say(a, "add a trigger to", p->desc.group, p->desc.event);
				if (!a->check)
					ret = kp_trigger_apply(&a->nl, p, w->triggers[j]);
			}
		}
		for (k = p->ntriggers; !ret && k-- > 0;) {
			if ((k < KPMOD_MAX_TRIGGERS && keep[k]) || kp_gone(a, p, &p->triggers[k]))
				continue;
			kp_say(a, "remove a trigger of", p->desc.group, p->desc.event);
			if (!a->check && kp_trigger_remove_info(&a->nl, p, &p->triggers[k], &e))
				ret = kp_fail("apply", &e);
		}
		if (!ret && w->enable != p->enabled) {
			kp_say(a, w->enable ? "enable" : "disable", p->desc.group, p->desc.event);
			if (!a->check)
				ret = kp_select_one_name(a, w->enable ? KPMOD_CMD_PROBE_ENABLE :
							 KPMOD_CMD_PROBE_DISABLE, p->desc.group, p->desc.event);
		}
	}
	free(t);
	return ret;
}

static void kp_apply_free(struct kp_apply *a)
{
	unsigned int i, j;

	for (i = 0; i < a->nwant; i++) {
		struct kp_want *w = &a->want[i];

		for (j = 0; j < w->ntriggers; j++)
			free(w->triggers[j]);
		free(w->triggers);
		free(w->text);
		free(w->definition);
		free(w->filter);
		free(w->ff);
		free(w->def);
	}
	free(a->want);
	free(a->gone);
}

int kp_cmd_apply(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "check", no_argument, NULL, 'c' },
		{ "state", required_argument, NULL, 's' },
		{ "btf", required_argument, NULL, 'b' },
		{ NULL, 0, NULL, 0 },
	};
	const char *btf = NULL;
	struct kp_apply a = { .state = KP_APPLY_STATE, .buf_mode = -1 };
	struct kp_probe_list l = { 0 };
	struct kp_def_parser *dp = NULL;
	unsigned int ntexts = 0;
	bool untargeted = false;
	char **texts = NULL, *state;
	size_t state_len;
	struct kp_err e;
	int c, i, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":cs:", opts, NULL)) != -1) {
		/* --btf: names from that BTF, not this machine's (kbtf.h). */
		if (c == 'c')
			a.check = true;
		else if (c == 's')
			a.state = optarg;
		else if (c == 'b')
			btf = optarg;
		else
			return kp_opt_error("apply", c, argv);
	}
	if (optind == argc) {
		kp_msg("apply", "name a DIR (e.g. /etc/kpmod/probes.d) or FILEs\n");
		return KP_EXIT_USAGE;
	}
	ret = kp_session_open("apply", &a.nl, &a.st);
	if (ret)
		return ret;
	/* Every name checked before anything changes: apply removes and redefines first. */
	ret = kp_def_parser_for_module("apply", &a.st, btf, KP_SYMS_KALLSYMS, &dp);
	if (ret)
		goto out;
	a.arch = kp_def_parser_arch(dp);
	/* Every definition, then every directive: all checked before any change. */
	for (i = optind; i < argc && !ret; i++)
		ret = kp_apply_read(&a, dp, argv[i], true);
	for (i = optind; i < argc && !ret; i++)
		ret = kp_apply_read(&a, dp, argv[i], false);
	if (ret)
		goto out;
	if (kp_probe_list_get(&a.nl, &l, &e)) {
		ret = kp_fail("apply", &e);
		goto out;
	}
	/* kp_read_file() leaves room after the bytes it read. */
	state = kp_read_file(a.state, &state_len);
	if (state)
		state[state_len] = '\0';
	texts = calloc(a.nwant + 1, sizeof(*texts));
	ret = texts ? kp_apply_precheck(&a, &l, state) : KP_EXIT_ERROR;
	if (!ret)
		ret = kp_apply_untarget(&a, &l, state, &untargeted);
	if (!ret && untargeted) {
		kp_probe_list_free(&l);
		if (kp_probe_list_get(&a.nl, &l, &e))
			ret = kp_fail("apply", &e);
	}
	if (!ret)
		ret = kp_apply_removals(&a, &l, state, texts, &ntexts);
	/* What step 1 removed is gone from the list the buffer step reads. */
	kp_probe_list_free(&l);
	if (!ret && kp_probe_list_get(&a.nl, &l, &e))
		ret = kp_fail("apply", &e);
	if (!ret)
		ret = kp_apply_buffer(&a, &l);
	/* Recorded before they are added: a failure later leaves them apply's. */
	if (!ret && ntexts && !a.check)
		ret = kp_state_write(&a, state);
	free(state);
	if (!ret && ntexts && !a.check) {
		struct kp_add_how how = { 0 };
		struct kp_event_name *names = calloc(ntexts, sizeof(*names));
		unsigned int n;

		ret = names ? kp_add_defs(&a.nl, dp, texts, ntexts, &how, names, &n) :
		      KP_EXIT_ERROR;
		free(names);
	}
	kp_probe_list_free(&l);
	if (!ret && kp_probe_list_get(&a.nl, &l, &e))
		ret = kp_fail("apply", &e);
	if (!ret)
		ret = kp_apply_settings(&a, &l);
	if (!ret && !a.check)
		ret = kp_state_write(&a, NULL);
	if (!ret)
		kp_msg("apply", "%u probe%s, %s%u change%s\n", a.nwant, a.nwant == 1 ? "" : "s",
		       a.check ? "would make " : "", a.changes,
		       a.changes == 1 ? "" : "s");
	if (!ret && a.check && a.changes)
		ret = KP_EXIT_ERROR;
out:
	kp_probe_list_free(&l);
	free(texts);
	kp_def_parser_free(dp);
	kp_apply_free(&a);
	kp_nl_close(&a.nl);
	return ret;
}
