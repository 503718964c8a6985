// SPDX-License-Identifier: GPL-2.0
/* kpmod funcs [--json] [GLOB]: the functions a probe can go on. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "exitcode.h"
#include "funcs.h"

int kp_cmd_funcs(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	enum kp_funcs_format format = KP_FUNCS_TEXT;
	struct kp_blacklist bl;
	struct kp_ksyms ks;
	const char *glob;
	size_t n;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":j", opts, NULL)) != -1) {
		if (c != 'j')
			return kp_opt_error("funcs", c, argv);
		format = KP_FUNCS_JSON;
	}
	if (argc - optind > 1) {
		kp_msg("funcs", "at most one GLOB\n");
		return KP_EXIT_USAGE;
	}
	glob = optind < argc ? argv[optind] : NULL;
	ret = kp_ksyms_load_file(&ks, NULL);
	if (ret) {
		kp_msg("funcs", "/proc/kallsyms: %s\n", strerror(-ret));
		return KP_EXIT_ERROR;
	}
	if (kp_ksyms_zeroed(&ks))
		kp_msg("funcs",
		       "/proc/kallsyms shows no addresses (run as root): " "the kernel's __init functions, gone after boot, and symbols outside its text " "typed as text are listed too\n");
	ret = kp_blacklist_load(&bl, NULL);
	if (ret)
		kp_msg("funcs",
		       "the kprobes blacklist (debugfs kprobes/blacklist): %s: " "functions the kernel refuses to probe are listed too\n",
		       strerror(-ret));
	n = kp_funcs_print(stdout, &ks, ret ? NULL : &bl, glob, format);
	kp_blacklist_free(&bl);
	kp_ksyms_free(&ks);
	/* A write error: kp_main() says it and exits 1. */
	if (fflush(stdout) || ferror(stdout))
		return KP_EXIT_OK;
	if (!n && glob) {
		kp_msg("funcs", "no probeable function matches '%s'\n", glob);
		return KP_EXIT_ERROR;
	}
	return KP_EXIT_OK;
}
