// SPDX-License-Identifier: GPL-2.0
/* kpmod usdt [--json] [-v] PATH [PROVIDER[:NAME]]: a file's USDT markers. */
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "escape.h"
#include "exitcode.h"
#include "format.h"
#include "usdt.h"

#define KP_USDT_SPEC_MAX 256
#define KP_USDT_FETCH_MAX 320

struct usdt_list {
	const char *path;
	const struct kp_elf *e;
	const struct kp_usdt *m;
	size_t n;
	const char *provider;	/* fnmatch globs */
	const char *name;
	bool verbose;
};

static bool matches(const struct usdt_list *l, const struct kp_usdt *m)
{
	return !fnmatch(l->provider, m->provider, 0) && !fnmatch(l->name, m->name, 0);
}

static bool same_marker(const struct kp_usdt *a, const struct kp_usdt *b)
{
	return !strcmp(a->provider, b->provider) && !strcmp(a->name, b->name);
}

/* Text from the file, escaped as kpmod escapes traced bytes: no forged lines. */
static void put(const char *s)
{
	size_t n = strlen(s);
	char *buf = malloc(KP_ESCAPED_MAX(n) + 1);

	if (!buf) {
		fputs(s, stdout);
		return;
	}
	fwrite(buf, 1, kp_escape_text(buf, s, n), stdout);
	free(buf);
}

/* "unsupported: X", not "unsupported: X not supported". */
static const char *reason(char *why)
{
	static const char tail[] = " not supported";
	size_t n = strlen(why), t = sizeof(tail) - 1;

	if (n > t && !strcmp(why + n - t, tail))
		why[n - t] = '\0';
	return why;
}

/* "-> FETCHARG" or "-> (unsupported: why)" for each argument. */
static void print_args(const struct usdt_list *l, const struct kp_usdt *m)
{
	char spec[KP_USDT_SPEC_MAX], fetch[KP_USDT_FETCH_MAX], why[256];
	const char *pos = m->args;
	int i = 1, ret;

	printf("    args: ");
	put(*m->args ? m->args : "none");
	putchar('\n');
	while ((ret = kp_usdt_arg_next(&pos, spec, sizeof(spec)))) {
		printf("    arg%d: ", i++);
		if (ret < 0) {
			printf("(too long)\n");
			continue;
		}
		put(spec);
		if (kp_usdt_arg_fetch(l->e, m->pc, spec, fetch, sizeof(fetch), why, sizeof(why))) {
			printf(" -> (unsupported: ");
			put(reason(why));
			printf(")\n");
		} else {
			printf(" -> ");
			put(fetch);
			putchar('\n');
		}
	}
}

static void print_location(const struct usdt_list *l, const struct kp_usdt *m)
{
	printf("    offset 0x%llx semaphore ", (unsigned long long)m->offset);
	if (m->sema)
		printf("0x%llx\n", (unsigned long long)m->sema_offset);
	else
		printf("none\n");
	print_args(l, m);
}

/* One line per marker, as bpftrace -l; -v adds each of its locations. */
static size_t print_text(const struct usdt_list *l)
{
	size_t i, j, shown = 0;

	for (i = 0; i < l->n; i++) {
		if (!matches(l, &l->m[i]))
			continue;
		for (j = 0; j < i && !same_marker(&l->m[j], &l->m[i]); j++)
			;
		if (j < i)
			continue;	/* listed with its first location */
		printf("usdt:");
		put(l->path);
		putchar(':');
		put(l->m[i].provider);
		putchar(':');
		put(l->m[i].name);
		putchar('\n');
		shown++;
		for (j = i; l->verbose && j < l->n; j++)
			if (same_marker(&l->m[j], &l->m[i]))
				print_location(l, &l->m[j]);
	}
	return shown;
}

static void json_str(const char *s)
{
	kp_json_string(stdout, s, strlen(s));
}

static void json_args(const struct usdt_list *l, const struct kp_usdt *m)
{
	char spec[KP_USDT_SPEC_MAX], fetch[KP_USDT_FETCH_MAX], why[256];
	const char *pos = m->args;
	bool first = true;
	int ret;

	printf("\"args\":[");
	while ((ret = kp_usdt_arg_next(&pos, spec, sizeof(spec)))) {
		printf("%s{\"spec\":", first ? "" : ",");
		first = false;
		json_str(ret < 0 ? "" : spec);
		if (ret > 0 && !kp_usdt_arg_fetch(l->e, m->pc, spec, fetch, sizeof(fetch),
						  why, sizeof(why))) {
			printf(",\"fetch\":");
			json_str(fetch);
		} else {
			printf(",\"fetch\":null,\"error\":");
			json_str(ret < 0 ? "too long" : why);
		}
		printf("}");
	}
	printf("]");
}

/* One object per location. */
static size_t print_json(const struct usdt_list *l)
{
	size_t i, shown = 0;

	printf("[");
	for (i = 0; i < l->n; i++) {
		const struct kp_usdt *m = &l->m[i];

		if (!matches(l, m))
			continue;
		printf("%s{\"provider\":", shown++ ? "," : "");
		json_str(m->provider);
		printf(",\"name\":");
		json_str(m->name);
		printf(",\"path\":");
		json_str(l->path);
		printf(",\"offset\":\"0x%llx\",\"semaphore\":", (unsigned long long)m->offset);
		if (m->sema)
			printf("\"0x%llx\",", (unsigned long long)m->sema_offset);
		else
			printf("null,");
		json_args(l, m);
		printf("}");
	}
	printf("]\n");
	return shown;
}

/* PROVIDER[:NAME] into @l's globs; @buf keeps the copy. */
static void set_globs(struct usdt_list *l, const char *sel, char *buf, size_t len)
{
	char *colon;

	l->provider = "*";
	l->name = "*";
	if (!sel)
		return;
	snprintf(buf, len, "%s", sel);
	l->provider = buf;
	colon = strchr(buf, ':');
	if (colon) {
		*colon = '\0';
		l->name = colon + 1;
	}
}

static int list_markers(struct usdt_list *l, bool json, const char *sel)
{
	size_t shown = json ? print_json(l) : print_text(l);

	/* A write error: kp_main() says it and exits 1. */
	if (fflush(stdout) || ferror(stdout))
		return KP_EXIT_OK;
	if (shown)
		return KP_EXIT_OK;
	if (sel)
		kp_msg("usdt", "%s: no USDT marker matches '%s'\n", l->path, sel);
	else
		kp_msg("usdt", "%s: no USDT markers\n", l->path);
	return KP_EXIT_ERROR;
}

int kp_cmd_usdt(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	struct usdt_list l = { 0 };
	struct kp_usdt *m;
	struct kp_elf e;
	char err[256], sel[512];
	const char *selarg;
	bool json = false;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":jv", opts, NULL)) != -1) {
		if (c == 'j')
			json = true;
		else if (c == 'v')
			l.verbose = true;
		else
			return kp_opt_error("usdt", c, argv);
	}
	if (argc - optind < 1 || argc - optind > 2) {
		kp_msg("usdt",
		       "needs PATH and at most one PROVIDER[:NAME] (see kpmod usdt --help)\n");
		return KP_EXIT_USAGE;
	}
	l.path = argv[optind];
	selarg = argc - optind > 1 ? argv[optind + 1] : NULL;
	set_globs(&l, selarg, sel, sizeof(sel));
	if (kp_elf_open(&e, l.path, err, sizeof(err))) {
		kp_msg("usdt", "%s: %s\n", l.path, err);
		return KP_EXIT_ERROR;
	}
	if (kp_usdt_read(&e, &m, &l.n, err, sizeof(err))) {
		kp_msg("usdt", "%s: %s\n", l.path, err);
		kp_elf_close(&e);
		return KP_EXIT_ERROR;
	}
	l.e = &e;
	l.m = m;
	ret = list_markers(&l, json, selarg);
	kp_usdt_free(m, l.n);
	kp_elf_close(&e);
	return ret;
}
