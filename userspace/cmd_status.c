// SPDX-License-Identifier: GPL-2.0
/* kpmod version, kpmod status. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "nl.h"

struct kp_status {
	char module_version[KPMOD_STR_MAX];
	char arch[KPMOD_STR_MAX];
	char release[KPMOD_STR_MAX];
	uint32_t uapi, cpus, online, probes, max_probes;
};

static void kp_copy_str(char *dst, struct nlattr *a)
{
	snprintf(dst, KPMOD_STR_MAX, "%s", a ? nla_get_string(a) : "?");
}

static uint32_t kp_get_u32(struct nlattr *a)
{
	return a ? nla_get_u32(a) : 0;
}

static int kp_status_reply(struct nlattr **a, void *arg)
{
	struct kp_status *st = arg;

	kp_copy_str(st->module_version, a[KPMOD_A_MODULE_VERSION]);
	kp_copy_str(st->arch, a[KPMOD_A_ARCH]);
	kp_copy_str(st->release, a[KPMOD_A_KERNEL_RELEASE]);
	st->uapi = kp_get_u32(a[KPMOD_A_UAPI_VERSION]);
	st->cpus = kp_get_u32(a[KPMOD_A_NR_CPUS]);
	st->online = kp_get_u32(a[KPMOD_A_NR_ONLINE_CPUS]);
	st->probes = kp_get_u32(a[KPMOD_A_NR_PROBES]);
	st->max_probes = kp_get_u32(a[KPMOD_A_MAX_PROBES]);
	return 0;
}

/* Fetches the status; on failure prints the error line and returns its code. */
static int kp_get_status(const char *cmd, struct kp_status *st)
{
	struct kp_nl nl;
	struct kp_err e;
	int ret;

	memset(st, 0, sizeof(*st));
	ret = kp_nl_open(&nl, &e);
	if (!ret)
		ret = kp_nl_call(&nl, KPMOD_CMD_STATUS, 0, NULL,
				 kp_status_reply, st, &e);
	kp_nl_close(&nl);
	if (ret)
		kp_err_print(stderr, cmd, &e);
	return ret;
}

static int kp_check_uapi(const char *cmd, const struct kp_status *st)
{
	if (st->uapi == KPMOD_UAPI_VERSION)
		return 0;
	fprintf(stderr, "kpmod: %s: version mismatch: module speaks uapi %u, this CLI uapi %u\n",
		cmd, st->uapi, KPMOD_UAPI_VERSION);
	return KP_EXIT_MISMATCH;
}

int kp_cmd_version(int argc, char **argv)
{
	struct kp_status st;
	int ret;

	if (argc > 1) {
		fprintf(stderr, "kpmod: version: takes no arguments\n");
		return KP_EXIT_USAGE;
	}
	(void)argv;
	printf("kpmod %s (uapi %u)\n", KPMOD_VERSION, KPMOD_UAPI_VERSION);
	fflush(stdout);
	ret = kp_get_status("version", &st);
	if (ret)
		return ret;
	printf("module %s (uapi %u, %s)\n", st.module_version, st.uapi, st.arch);
	return kp_check_uapi("version", &st);
}

int kp_cmd_status(int argc, char **argv)
{
	struct kp_status st;
	int ret;

	if (argc > 1) {
		fprintf(stderr, "kpmod: status: takes no arguments\n");
		return KP_EXIT_USAGE;
	}
	(void)argv;
	ret = kp_get_status("status", &st);
	if (ret)
		return ret;
	printf("module:  %s (uapi %u)\n", st.module_version, st.uapi);
	printf("arch:    %s\n", st.arch);
	printf("kernel:  %s\n", st.release);
	printf("cpus:    %u possible, %u online\n", st.cpus, st.online);
	printf("probes:  %u registered (max %u)\n", st.probes, st.max_probes);
	return kp_check_uapi("status", &st);
}
