// SPDX-License-Identifier: GPL-2.0
/* kpmod buffer [--size SIZE] [--mode discard|overwrite] */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "exitcode.h"
#include "probe_nl.h"
#include "session.h"

int kp_cmd_buffer(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "mode", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	struct kp_status st;
	uint64_t size = 0;
	struct kp_nl nl;
	struct kp_err e;
	int c, mode = -1, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":s:m:", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (kp_parse_size(optarg, &size) || !size) {
				kp_msg("buffer", "bad size '%s' (e.g. 64K, 1M, 256M)\n", optarg);
				return KP_EXIT_USAGE;
			}
			break;
		case 'm':
			mode = kp_parse_buf_mode(optarg);
			if (mode < 0) {
				kp_msg("buffer", "mode is discard or overwrite, not '%s'\n", optarg);
				return KP_EXIT_USAGE;
			}
			break;
		default:
			return kp_opt_error("buffer", c, argv);
		}
	}
	if (optind < argc) {
		kp_msg("buffer", "unexpected argument '%s'\n", argv[optind]);
		return KP_EXIT_USAGE;
	}
	if (size && !kpmod_buf_size_valid(size)) {
		kp_msg("buffer", "size must be " KP_BUF_SIZE_RULE "\n");
		return KP_EXIT_USAGE;
	}
	ret = kp_session_open("buffer", &nl, &st);
	if (ret)
		return ret;
	if (size && size * st.possible > st.buf_limit) {
		kp_msg("buffer",
		       "%llu MiB per CPU x %u CPUs = %llu MiB exceeds the module's limit of %llu MiB (module parameter max_buffer_mb; default a quarter of RAM)\n",
		       (unsigned long long)size >> 20, st.possible,
		       (unsigned long long)(size * st.possible) >> 20,
		       (unsigned long long)st.buf_limit >> 20);
		kp_nl_close(&nl);
		return KP_EXIT_REFUSED;
	}
	if (size || mode >= 0) {
		if (kp_buffer_set(&nl, size, mode, &e))
			ret = kp_fail("buffer", &e);
		else
			ret = kp_status_get(&nl, &st, &e) ? kp_fail("buffer", &e) : 0;
	}
	if (!ret)
		printf("%llu KiB per CPU, %s, %u CPUs\n", (unsigned long long)st.buf_size >> 10,
		       kpmod_buf_mode_name(st.buf_mode), st.possible);
	kp_nl_close(&nl);
	return ret;
}
