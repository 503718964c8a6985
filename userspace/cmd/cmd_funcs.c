// SPDX-License-Identifier: GPL-2.0
/*
 * kpmod funcs [--json] [-v [--btf FILE|DIR]] [GLOB]: the functions a probe
 * can go on, with -v each one's prototype from BTF.
 */
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
		{ "verbose", no_argument, NULL, 'v' },
		{ "btf", required_argument, NULL, 'b' },
		{ NULL, 0, NULL, 0 },
	};
	enum kp_funcs_format format = KP_FUNCS_TEXT;
	const char *btf_spec = NULL;
	struct kp_btf *btf = NULL;
	bool verbose = false;
	struct kp_blacklist bl;
	struct kp_ksyms ks;
	const char *glob;
	size_t n;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":jv", opts, NULL)) != -1) {
		if (c == 'j')
			format = KP_FUNCS_JSON;
		else if (c == 'v')
			verbose = true;
		else if (c == 'b')
			btf_spec = optarg;
		else
			return kp_opt_error("funcs", c, argv);
	}
	if (btf_spec && !verbose) {
		kp_msg("funcs", "--btf is for -v (the prototypes)\n");
		return KP_EXIT_USAGE;
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
	if (verbose) {
		btf = kp_btf_new(btf_spec);
		if (!btf) {
			kp_blacklist_free(&bl);
			kp_ksyms_free(&ks);
			kp_msg("funcs", "out of memory\n");
			return KP_EXIT_ERROR;
		}
		/* Names only when there is no BTF: say so once. */
		if (kp_btf_open(btf))
			kp_msg("funcs", "no prototypes: %s\n", kp_btf_why(btf));
	}
	n = kp_funcs_print(stdout, &ks, ret ? NULL : &bl, glob, format, btf);
	kp_btf_free(btf);
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
