// SPDX-License-Identifier: GPL-2.0
/*
 * kpmod add [--enable] DEF... | -f FILE | -   (and -:EVENT deletes)
 *
 * Every definition is parsed and checked before anything is sent; then
 * they are added in order, and if the module refuses one, those this call
 * added are deleted again: a call adds all its probes or none.
 *
 * kpmod add --dry-run [--arch ARCH] [--btf FILE|DIR] ... parses and checks
 * them without the module (on a build host, in a fleet's CI), reports
 * every error and says what each name from BTF became.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "add.h"
#include "commands.h"
#include "session.h"

static int kp_defs_read(struct kp_defs *d, const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	const char *src = strcmp(path, "-") ? path : "<stdin>";
	unsigned int lineno = 0;
	char *line = NULL;
	size_t cap = 0;
	int ret = 0;

	if (!f) {
		kp_msg("add", "%s: %s\n", path, strerror(errno));
		return KP_EXIT_ERROR;
	}
	while (getline(&line, &cap, f) > 0)
		if (kp_defs_push(d, line, src, ++lineno))
			ret = KP_EXIT_ERROR;
	free(line);
	if (f != stdin)
		fclose(f);
	return ret;
}

/*
 * --dry-run: every definition parsed for @arch_name (default: this
 * machine's), symbols checked against this machine's kallsyms when it is
 * readable and of that arch, the --filter compiled for each; every error
 * reported, the exit code the first one's.  Nothing reaches the module.
 */
static int kp_add_dry_run(struct kp_defs *d, const char *arch_name, const char *filter,
			  const char *btf)
{
	const struct kp_arch *arch = arch_name ? kp_arch_by_name(arch_name) : kp_arch_native();
	struct kp_def_parser *dp;
	unsigned int i, bad = 0;
	int ret = 0, r;

	if (!arch) {
		kp_msg("add", "--arch '%s': x86_64 or arm64\n",
		       arch_name ? arch_name : "(this machine's)");
		return KP_EXIT_USAGE;
	}
	dp = kp_def_parser_new(arch, arch == kp_arch_native() ? KP_SYMS_IF_READABLE : KP_SYMS_NONE,
			       btf);
	if (!dp) {
		kp_msg("add", "out of memory\n");
		return KP_EXIT_ERROR;
	}
	for (i = 0; i < d->n; i++) {
		struct kp_def_item *it = &d->items[i];
		struct kp_filter_code code = { 0 };

		r = kp_def_parser_parse(dp, it->text, it->src, it->line, &it->op, &it->def);
		if (!r && it->op == KP_DEF_ADD)
			kp_def_say_compiled(stdout, it->src, it->line, &it->def, arch);
		if (!r && filter && it->op == KP_DEF_ADD) {
			r = kp_add_filter(it, filter, &code);
			kp_filter_code_free(&code);
		}
		bad += !!r;
		if (!ret)
			ret = r;
	}
	kp_def_parser_free(dp);
	if (bad)
		kp_msg("add", "dry run: %u of %u definitions refused; nothing sent\n", bad, d->n);
	else
		kp_msg("add", "dry run: %u definition%s valid for %s; nothing sent\n", d->n,
		       d->n == 1 ? "" : "s", arch->name);
	return ret;
}

int kp_cmd_add(int argc, char **argv)
{
	struct kp_def_parser *dp = NULL;
	struct kp_defs d = { 0 };
	struct kp_status st;
	struct kp_nl nl;
	bool enable = false, opts_done = false, dry_run = false;
	const char *filter = NULL, *arch_name = NULL, *btf = NULL;
	unsigned int i;
	int ret = 0;

	/*
	 * By hand, not getopt: a definition may start with '-' ("-:EVENT"
	 * deletes, as in kprobe_events); "--" ends the options.
	 */
	for (i = 1; i < (unsigned int)argc; i++) {
		const char *a = argv[i];

		if (!opts_done && (!strcmp(a, "-e") || !strcmp(a, "--enable"))) {
			enable = true;
		} else if (!opts_done && !strcmp(a, "--filter")) {
			if (++i == (unsigned int)argc) {
				kp_msg("add", "--filter needs an EXPR\n");
				ret = KP_EXIT_USAGE;
				goto out;
			}
			filter = argv[i];
		} else if (!opts_done && !strncmp(a, "--filter=", 9)) {
			filter = a + 9;
		} else if (!opts_done && !strcmp(a, "--dry-run")) {
			dry_run = true;
		} else if (!opts_done && !strcmp(a, "--arch")) {
			if (++i == (unsigned int)argc) {
				kp_msg("add", "--arch needs x86_64 or arm64\n");
				ret = KP_EXIT_USAGE;
				goto out;
			}
			arch_name = argv[i];
		} else if (!opts_done && !strncmp(a, "--arch=", 7)) {
			arch_name = a + 7;
		} else if (!opts_done && !strcmp(a, "--btf")) {
			if (++i == (unsigned int)argc) {
				kp_msg("add", "--btf needs a FILE, a DIR or none\n");
				ret = KP_EXIT_USAGE;
				goto out;
			}
			btf = argv[i];
		} else if (!opts_done && !strncmp(a, "--btf=", 6)) {
			btf = a + 6;
		} else if (!opts_done && (!strcmp(a, "-f") || !strcmp(a, "--file"))) {
			if (++i == (unsigned int)argc) {
				kp_msg("add", "%s needs a FILE\n", a);
				ret = KP_EXIT_USAGE;
				goto out;
			}
			ret = kp_defs_read(&d, argv[i]);
		} else if (!opts_done && !strncmp(a, "--file=", 7)) {
			ret = kp_defs_read(&d, a + 7);
		} else if (!opts_done && !strcmp(a, "--")) {
			opts_done = true;
		} else if (!strcmp(a, "-")) {
			ret = kp_defs_read(&d, "-");
		} else if (!opts_done && a[0] == '-' && a[1] != ':') {
			kp_msg("add",
			       "unknown option '%s' (definitions that start with '-' go after --)\n",
			       a);
			ret = KP_EXIT_USAGE;
		} else if (kp_defs_push(&d, a, NULL, 0)) {
			ret = KP_EXIT_ERROR;
		}
		if (ret)
			goto out;
	}
	if (!d.n) {
		kp_msg("add", "no definition given (see kpmod add --help)\n");
		ret = KP_EXIT_USAGE;
		goto out;
	}

	if (arch_name && !dry_run) {
		kp_msg("add", "--arch is for --dry-run (the module's arch is used)\n");
		ret = KP_EXIT_USAGE;
		goto out;
	}
	if (dry_run) {
		ret = kp_add_dry_run(&d, arch_name, filter, btf);
		goto out;
	}
	ret = kp_session_open("add", &nl, &st);
	if (ret)
		goto out;
	ret = kp_def_parser_for_module("add", &st, btf, KP_SYMS_DEFERRED, &dp);
	if (ret)
		goto close;
	for (i = 0; i < d.n; i++) {
		struct kp_def_item *it = &d.items[i];

		ret = kp_def_parser_parse(dp, it->text, it->src, it->line, &it->op, &it->def);
		if (ret)
			goto close;
	}
	ret = kp_add_apply(&nl, dp, &d, &(struct kp_add_how){ .enable = enable, .filter = filter });
close:
	kp_def_parser_free(dp);
	kp_nl_close(&nl);
out:
	kp_defs_free(&d);
	return ret;
}

