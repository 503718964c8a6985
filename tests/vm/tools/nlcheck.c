// SPDX-License-Identifier: GPL-2.0
/*
 * kpmod-nlcheck: what the module's netlink answers look like where the CLI
 * hides it.
 *
 *   kpmod-nlcheck dumpintr CMD
 *	Dumps the probes (KPMOD_CMD_PROBE_GET) one part at a time: reads the
 *	first part, runs the shell command CMD (which may change probes from
 *	its own socket), reads the rest.  Prints "probes N parts P intr I":
 *	the probe messages, the dump's parts, and how many messages carried
 *	NLM_F_DUMP_INTR.
 *   kpmod-nlcheck histkeys GROUP EVENT TRIGGER-ID
 *	Prints the first 8 bytes of each key of a hist table, as a number,
 *	one per line, in the order the module's dump sends them: the order
 *	of its hash table.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include "uapi/kpmod.h"

static struct nl_sock *kp_sock(int *family)
{
	struct nl_sock *sk = nl_socket_alloc();

	if (!sk || genl_connect(sk)) {
		fprintf(stderr, "kpmod-nlcheck: no generic netlink socket\n");
		exit(2);
	}
	*family = genl_ctrl_resolve(sk, KPMOD_GENL_NAME);
	if (*family < 0) {
		fprintf(stderr, "kpmod-nlcheck: no kpmod family (module not loaded?)\n");
		exit(2);
	}
	/* A dump's part may be as large as KPMOD_DUMP_MSG_SIZE. */
	nl_socket_set_msg_buf_size(sk, 2 * KPMOD_DUMP_MSG_SIZE);
	return sk;
}

static int kp_dumpintr(const char *cmd)
{
	unsigned int probes = 0, parts = 0, intr = 0;
	struct sockaddr_nl peer;
	struct nl_sock *sk;
	struct nl_msg *msg;
	int family, done = 0;

	sk = kp_sock(&family);
	msg = nlmsg_alloc();
	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, NLM_F_DUMP,
				 KPMOD_CMD_PROBE_GET, KPMOD_GENL_VERSION) ||
	    nl_send_auto(sk, msg) < 0) {
		fprintf(stderr, "kpmod-nlcheck: could not send the dump request\n");
		return 2;
	}
	nlmsg_free(msg);
	while (!done) {
		unsigned char *buf = NULL;
		struct nlmsghdr *h;
		int len = nl_recv(sk, &peer, &buf, NULL);

		if (len <= 0) {
			fprintf(stderr, "kpmod-nlcheck: recv: %s\n", nl_geterror(len));
			return 2;
		}
		parts++;
		for (h = (struct nlmsghdr *)buf; nlmsg_ok(h, len); h = nlmsg_next(h, &len)) {
			if (h->nlmsg_flags & NLM_F_DUMP_INTR)
				intr++;
			if (h->nlmsg_type == NLMSG_DONE) {
				done = 1;
				break;
			}
			if (h->nlmsg_type == NLMSG_ERROR) {
				fprintf(stderr, "kpmod-nlcheck: the dump failed: %s\n",
					strerror(-((struct nlmsgerr *)nlmsg_data(h))->error));
				return 2;
			}
			probes++;
		}
		free(buf);
		/* Between the first part and the rest: the module's next parts follow. */
		if (parts == 1 && !done && system(cmd) != 0) {
			fprintf(stderr, "kpmod-nlcheck: '%s' failed\n", cmd);
			return 2;
		}
	}
	printf("probes %u parts %u intr %u\n", probes, parts, intr);
	nl_socket_free(sk);
	return 0;
}

static int kp_on_hist(struct nl_msg *msg, void *arg)
{
	struct nlattr *a[KPMOD_A_MAX + 1], *e;
	uint32_t key_size;
	int rem;

	(void)arg;
	if (genlmsg_parse(nlmsg_hdr(msg), 0, a, KPMOD_A_MAX, NULL) ||
	    !a[KPMOD_A_HIST_KEY_SIZE] || !a[KPMOD_A_HIST_ENTRIES])
		return NL_SKIP;
	key_size = nla_get_u32(a[KPMOD_A_HIST_KEY_SIZE]);
	nla_for_each_nested(e, a[KPMOD_A_HIST_ENTRIES], rem) {
		const struct kpmod_hist_entry *ent = nla_data(e);
		uint64_t key = 0;

		if ((size_t)nla_len(e) < sizeof(*ent) + key_size)
			continue;
		memcpy(&key, ent->key, key_size < sizeof(key) ? key_size : sizeof(key));
		printf("%llu\n", (unsigned long long)key);
	}
	return NL_OK;
}

static int kp_histkeys(const char *group, const char *event, const char *id)
{
	struct nl_sock *sk;
	struct nl_msg *msg;
	int family, ret;

	sk = kp_sock(&family);
	msg = nlmsg_alloc();
	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, NLM_F_DUMP,
				 KPMOD_CMD_HIST_GET, KPMOD_GENL_VERSION) ||
	    nla_put_string(msg, KPMOD_A_PROBE_GROUP, group) ||
	    nla_put_string(msg, KPMOD_A_PROBE_EVENT, event) ||
	    nla_put_u32(msg, KPMOD_A_TRIGGER_ID, (uint32_t)strtoul(id, NULL, 0)) ||
	    nl_send_auto(sk, msg) < 0) {
		fprintf(stderr, "kpmod-nlcheck: could not send the hist request\n");
		return 2;
	}
	nlmsg_free(msg);
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, kp_on_hist, NULL);
	ret = nl_recvmsgs_default(sk);
	nl_socket_free(sk);
	if (ret < 0) {
		fprintf(stderr, "kpmod-nlcheck: the hist dump failed: %s\n", nl_geterror(ret));
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "dumpintr"))
		return kp_dumpintr(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "histkeys"))
		return kp_histkeys(argv[2], argv[3], argv[4]);
	fprintf(stderr, "usage: kpmod-nlcheck dumpintr CMD | histkeys GROUP EVENT TRIGGER-ID\n");
	return 2;
}
