// SPDX-License-Identifier: GPL-2.0
/*
 * kpmod's definition of a probe on a USDT marker, which uprobe_events has
 * no syntax for:
 *
 *   u[:[GRP/]EVENT] PATH:PROVIDER:NAME [NAME=argN[:TYPE] | FETCHARG ...]
 *
 * is the uprobe_events definition that probes the marker:
 *
 *   p:GRP/EVENT PATH:0xOFFSET[(0xSEMAPHORE)] ARGS
 *
 * GRP is sdt_PROVIDER and EVENT is NAME unless given, as perf probe names
 * SDT events.  Without ARGS, every argument of the marker, named arg1,
 * arg2, ... as the note's specs convert (usdt.h).  In ARGS, argN stands
 * for argument N wherever it appears ("v=+8(arg3):s32"); NAME=argN alone
 * has the note's type unless given one, and a string type reads the
 * string the argument points to ("w=arg2:string").
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "elf_file.h"
#include "uprobe_file.h"
#include "usdt.h"
#include "usdt_def.h"
#include "uapi/kpmod.h"

#define KP_USDT_MAX_ARGS	12	/* sys/sdt.h's STAP_PROBE12 */

struct usdt_words {
	char *s[KPMOD_MAX_ARGS + 2];
	size_t pos[KPMOD_MAX_ARGS + 2];
	size_t n;
};

static int usdt_err(struct kp_parse_err *err, int code, size_t pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int usdt_err(struct kp_parse_err *err, int code, size_t pos, const char *fmt, ...)
{
	va_list ap;

	err->code = code;
	err->pos = (unsigned int)pos;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

/* Words between blanks, with their offsets in @copy (changed in place). */
static int split_words(char *copy, struct usdt_words *w, struct kp_parse_err *err)
{
	size_t i, start, end, len = strlen(copy);

	w->n = 0;
	for (i = 0; kp_next_word(copy, len, &i, &start, &end); i++) {
		if (w->n == sizeof(w->s) / sizeof(w->s[0]))
			return usdt_err(err, KP_E_TOO_MANY_ARGS, start, "%s",
					kp_parse_strerror(KP_E_TOO_MANY_ARGS));
		w->s[w->n] = copy + start;
		w->pos[w->n++] = start;
		copy[end] = '\0';
	}
	return 0;
}

/* The one marker PROVIDER:NAME of @e; a marker at several places is refused. */
static int find_marker(const struct kp_elf *e, const char *provider, const char *name,
		       struct kp_usdt *out, size_t pos, struct kp_parse_err *err)
{
	struct kp_usdt *m = NULL;
	size_t n = 0, i, found = 0;
	char msg[256];
	int ret;

	ret = kp_usdt_read(e, &m, &n, msg, sizeof(msg));
	if (ret)
		return usdt_err(err, KP_E_NOT_ELF, pos, "%s: %s", kp_parse_strerror(KP_E_NOT_ELF),
				msg);
	for (i = 0; i < n; i++) {
		if (strcmp(m[i].provider, provider) || strcmp(m[i].name, name))
			continue;
		if (!found++) {
			*out = m[i];
			out->provider = strdup(m[i].provider);
			out->name = strdup(m[i].name);
			out->args = strdup(m[i].args);
		}
	}
	kp_usdt_free(m, n);
	if (!found)
		return usdt_err(err, KP_E_UNKNOWN_MARKER, pos, "%s: %s:%s (kpmod usdt lists them)",
				kp_parse_strerror(KP_E_UNKNOWN_MARKER), provider, name);
	if (!out->provider || !out->name || !out->args) {
		free(out->provider);
		free(out->name);
		free(out->args);
		return usdt_err(err, KP_E_EMPTY, pos, "Out of memory");
	}
	if (found > 1) {
		free(out->provider);
		free(out->name);
		free(out->args);
		return usdt_err(err, KP_E_UNKNOWN_MARKER, pos,
				"The marker is at %zu places: probe each with p: and its offset (kpmod usdt -v)",
				found);
	}
	return 0;
}

/* A marker's arguments: each as FETCHARG:TYPE, or why it cannot be. */
struct usdt_args {
	unsigned int n;
	char fetch[KP_USDT_MAX_ARGS][KP_MAX_ARGSTR_LEN + 1];
	char why[KP_USDT_MAX_ARGS][160];	/* "" when converted */
	char spec[KP_USDT_MAX_ARGS][128];
};

/* Converted now, refused only where used: a marker may have one odd argument. */
static void convert_args(const struct kp_elf *e, const struct kp_usdt *m, struct usdt_args *a)
{
	const char *p = m->args;
	char spec[128];
	int r;

	a->n = 0;
	while (a->n < KP_USDT_MAX_ARGS && (r = kp_usdt_arg_next(&p, spec, sizeof(spec))) != 0) {
		snprintf(a->spec[a->n], sizeof(a->spec[0]), "%s", r < 0 ? "(too long)" : spec);
		a->why[a->n][0] = '\0';
		if (r < 0)
			snprintf(a->why[a->n], sizeof(a->why[0]), "a spec too long");
		else if (kp_usdt_arg_fetch(e, m->pc, spec, a->fetch[a->n], sizeof(a->fetch[0]),
					   a->why[a->n], sizeof(a->why[0])) && !a->why[a->n][0])
			snprintf(a->why[a->n], sizeof(a->why[0]), "not understood");
		a->n++;
	}
}

/* Argument @n (from 1) of the marker, or an error at @pos. */
static const char *usdt_arg(const struct usdt_args *a, unsigned int n, size_t pos,
			    struct kp_parse_err *err)
{
	if (n < 1 || n > a->n) {
		usdt_err(err, KP_E_BAD_USDT_ARG, pos, "The marker has %u argument%s, not %u",
			 a->n, a->n == 1 ? "" : "s", n);
		return NULL;
	}
	if (a->why[n - 1][0]) {
		usdt_err(err, KP_E_BAD_USDT_ARG, pos, "%s: arg%u, %s: %s",
			 kp_parse_strerror(KP_E_BAD_USDT_ARG), n, a->spec[n - 1], a->why[n - 1]);
		return NULL;
	}
	return a->fetch[n - 1];
}

/* Appends @fmt to @out at *@len; -1 when it does not fit. */
static int put(char *out, size_t size, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int put(char *out, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out + *len, size - *len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size - *len)
		return -1;
	*len += (size_t)n;
	return 0;
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '$';
}

/*
 * One word of ARGS, with each "argN" in it (not part of a longer name,
 * not $argN) replaced by argument N's FETCHARG without its type.  When
 * the body is argN alone, its type is the note's unless one is given; a
 * string type then reads the string the argument points to.
 */
static int put_arg(char *out, size_t size, size_t *len, const char *word,
		   const struct usdt_args *a, size_t pos, struct kp_parse_err *err)
{
	const char *eq = strchr(word, '='), *body = eq ? eq + 1 : word, *s, *f, *colon;
	char *end;
	unsigned long n;
	int flen;

	if (put(out, size, len, " %.*s", (int)(body - word), word))
		return -1;
	/* argN alone, with or without a type */
	if (!strncmp(body, "arg", 3) && isdigit((unsigned char)body[3])) {
		n = strtoul(body + 3, &end, 10);
		if (!*end || *end == ':') {
			f = usdt_arg(a, (unsigned int)(n > 99 ? 99 : n), pos + (size_t)(body - word), err);
			if (!f)
				return -1;
			colon = strrchr(f, ':');
			flen = (int)(colon - f);
			if (!*end)
				return put(out, size, len, "%s", f);
			if (!strcmp(end + 1, "string") || !strcmp(end + 1, "ustring"))
				return put(out, size, len, "+0(%.*s)%s", flen, f, end);
			return put(out, size, len, "%.*s%s", flen, f, end);
		}
	}
	for (s = body; *s;) {
		if (!strncmp(s, "arg", 3) && isdigit((unsigned char)s[3]) &&
		    (s == body || !ident_char(s[-1]))) {
			n = strtoul(s + 3, &end, 10);
			if (!ident_char(*end)) {
				f = usdt_arg(a, (unsigned int)(n > 99 ? 99 : n), pos + (size_t)(s - word), err);
				if (!f)
					return -1;
				colon = strrchr(f, ':');
				if (put(out, size, len, "%.*s", (int)(colon - f), f))
					return -1;
				s = end;
				continue;
			}
		}
		if (put(out, size, len, "%c", *s))
			return -1;
		s++;
	}
	return 0;
}

int kp_usdt_expand(const char *text, const struct kp_arch *arch, char *out, size_t size,
		   struct kp_parse_err *err)
{
	char msg[256], *copy, *path, *provider, *name, *event;
	struct usdt_args *args = NULL;
	const char *f;
	struct kp_usdt m = { 0 };
	struct usdt_words w = { 0 };
	unsigned int i;
	struct kp_elf e;
	size_t len = 0;
	int code, ret = -1;

	copy = strdup(text);
	if (!copy)
		return usdt_err(err, KP_E_EMPTY, 0, "Out of memory");
	if (split_words(copy, &w, err))
		goto out;
	if (w.s[0][1] != '\0' && w.s[0][1] != ':') {
		usdt_err(err, KP_E_BAD_COMMAND, w.pos[0] + 1, "%s", kp_parse_strerror(KP_E_BAD_COMMAND));
		goto out;
	}
	if (w.n < 2) {
		usdt_err(err, KP_E_NO_PROBE_POINT, strlen(text), "%s",
			 kp_parse_strerror(KP_E_NO_PROBE_POINT));
		goto out;
	}
	/* PATH:PROVIDER:NAME, split at its last two colons. */
	path = w.s[1];
	name = strrchr(path, ':');
	if (name)
		*name = '\0';
	provider = name ? strrchr(path, ':') : NULL;
	if (!provider || !name[1] || !provider[1]) {
		usdt_err(err, KP_E_UNKNOWN_MARKER, w.pos[1], "%s: PATH:PROVIDER:NAME expected",
			 kp_parse_strerror(KP_E_UNKNOWN_MARKER));
		goto out;
	}
	*provider++ = '\0';
	name++;
	code = kp_uprobe_check_file(path, UINT64_MAX, arch, msg, sizeof(msg));
	if (code) {
		usdt_err(err, code, w.pos[1], "%s", msg);
		goto out;
	}
	if (kp_elf_open(&e, path, msg, sizeof(msg))) {
		usdt_err(err, KP_E_NOT_ELF, w.pos[1], "%s: %s", kp_parse_strerror(KP_E_NOT_ELF), msg);
		goto out;
	}
	ret = find_marker(&e, provider, name, &m, w.pos[1] + (size_t)(provider - path), err);
	if (!ret) {
		args = calloc(1, sizeof(*args));
		if (args)
			convert_args(&e, &m, args);
		else
			ret = usdt_err(err, KP_E_EMPTY, 0, "Out of memory");
	}
	kp_elf_close(&e);
	if (ret)
		goto out;
	ret = -1;

	/* p:GRP/EVENT PATH:0xOFFSET[(0xSEMAPHORE)] */
	event = strchr(w.s[0], ':');
	if (event && strchr(event + 1, '/') && strchr(event + 1, '/')[1])
		ret = put(out, size, &len, "p%s", event);
	else if (event && strchr(event + 1, '/'))
		ret = put(out, size, &len, "p%s%s", event, m.name);
	else if (event && event[1])
		ret = put(out, size, &len, "p:sdt_%s/%s", m.provider, event + 1);
	else
		ret = put(out, size, &len, "p:sdt_%s/%s", m.provider, m.name);
	/* uprobe_events wants a '/' in the path: a bare name is ./NAME. */
	if (!ret)
		ret = put(out, size, &len, " %s%s:0x%llx", strchr(path, '/') ? "" : "./", path,
			  (unsigned long long)m.offset);
	if (!ret && m.sema_offset)
		ret = put(out, size, &len, "(0x%llx)", (unsigned long long)m.sema_offset);
	for (i = 0; !ret && w.n == 2 && i < args->n; i++) {
		f = usdt_arg(args, i + 1, w.pos[1] + (size_t)(provider - path), err);
		ret = f ? put(out, size, &len, " arg%u=%s", i + 1, f) : -1;
	}
	for (i = 2; !ret && i < w.n; i++)
		ret = put_arg(out, size, &len, w.s[i], args, w.pos[i], err);
	if (ret && !err->code)
		usdt_err(err, KP_E_DEF_TOO_LONG, 0, "%s", kp_parse_strerror(KP_E_DEF_TOO_LONG));
out:
	free(args);
	free(m.provider);
	free(m.name);
	free(m.args);
	free(copy);
	return ret;
}
