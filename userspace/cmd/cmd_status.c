// SPDX-License-Identifier: GPL-2.0
/* kpmod version, kpmod status. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "oneshot.h"
#include "probe_json.h"
#include "probe_nl.h"
#include "session.h"

static int kp_no_args(const char *cmd, int argc)
{
	if (argc <= 1)
		return 0;
	kp_msg(cmd, "takes no arguments\n");
	return KP_EXIT_USAGE;
}

/*
 * The CLI's version always; the module's when it answers.  Only with
 * --module does a module that cannot be asked change the exit code.
 */
int kp_cmd_version(int argc, char **argv)
{
	bool need_module = argc == 2 && !strcmp(argv[1], "--module");
	struct kp_status st;
	struct kp_nl nl;
	int ret;

	if (!need_module) {
		ret = kp_no_args("version", argc);
		if (ret)
			return ret;
	}
	printf("kpmod %s (uapi %u)\n", KPMOD_VERSION, KPMOD_UAPI_VERSION);
	fflush(stdout);
	ret = kp_session_open("version", &nl, &st);
	if (ret && ret != KP_EXIT_MISMATCH)
		return need_module ? ret : KP_EXIT_OK;
	printf("module %s (uapi %u, %s)\n", st.module_version, st.uapi, st.arch);
	if (!ret)
		kp_nl_close(&nl);
	return need_module ? ret : KP_EXIT_OK;
}

int kp_cmd_status(int argc, char **argv)
{
	bool as_json = argc == 2 && !strcmp(argv[1], "--json");
	struct kp_probe_list l = { 0 };
	bool listed = false;
	struct kp_status st;
	struct kp_err e;
	struct kp_nl nl;
	int ret;

	if (argc > 1 && !as_json) {
		kp_msg("status", "takes no arguments but --json\n");
		return KP_EXIT_USAGE;
	}
	ret = kp_session_open("status", &nl, &st);
	if (ret && ret != KP_EXIT_MISMATCH)
		return ret;
	listed = !ret && !kp_probe_list_get(&nl, &l, &e);
	if (as_json) {
		kp_status_json(stdout, &st, listed ? &l : NULL);
	} else {
		printf("module:  %s (uapi %u)\n", st.module_version, st.uapi);
		printf("arch:    %s\n", st.arch);
		printf("kernel:  %s\n", st.release);
		printf("cpus:    %u possible, %u online\n", st.possible, st.online);
		printf("probes:  %u registered (max %u)\n", st.probes, st.max_probes);
		printf("buffer:  %llu KiB per CPU, %s (limit %llu MiB in all)\n",
		       (unsigned long long)st.buf_size >> 10,
		       kpmod_buf_mode_name(st.buf_mode),
		       (unsigned long long)st.buf_limit >> 20);
		printf("hists:   %llu KiB in tables, up to %llu MiB\n",
		       (unsigned long long)st.hist_mem >> 10,
		       (unsigned long long)st.hist_limit >> 20);
		printf("tracing: %s\n", st.tracing_on ? "on" : "off (kpmod tracing on)");
		printf("snapshots: %llu taken, %llu skipped (snapshot trigger)\n",
		       (unsigned long long)st.snapshots, (unsigned long long)st.snapshots_skipped);
	}
	if (listed && kp_oneshot_left_behind(&l, as_json ? NULL : stdout))
		kp_msg("status",
		       "a kpmod run was killed and left probes behind: kpmod clear removes them\n");
	if (listed)
		kp_probe_list_free(&l);
	if (!ret)
		kp_nl_close(&nl);
	return ret;
}
