// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include "nl.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

struct kp_call {
	kp_nl_reply_fn reply;
	void *arg;
	int done;
	int interrupted;	/* a dump message came with NLM_F_DUMP_INTR */
	int errnum;		/* positive errno from the kernel or a reply handler */
	int bad_attr;		/* NLMSGERR_ATTR_OFFS, or -1 */
	char extack[256];
};

int kp_nl_open(struct kp_nl *nl, struct kp_err *e)
{
	int one = 1;
	int ret;

	memset(e, 0, sizeof(*e));
	nl->sk = nl_socket_alloc();
	if (!nl->sk) {
		kp_err_set(e, ENOMEM, "cannot allocate a netlink socket");
		e->code = KP_EXIT_ERROR;
		return e->code;
	}
	ret = genl_connect(nl->sk);
	if (ret < 0) {
		kp_err_set(e, 0, nl_geterror(ret));
		e->code = KP_EXIT_ERROR;
		goto fail;
	}
	/*
	 * A dump message holds one whole probe: up to ~16 KiB; STATUS grows
	 * with the CPUs (KPMOD_A_RINGS).  Peeking sizes the buffer to the
	 * message when one is larger still.
	 */
	nl_socket_set_msg_buf_size(nl->sk, 65536);
	nl_socket_enable_msg_peek(nl->sk);
	/* Not inherited by a one-shot run's command. */
	fcntl(nl_socket_get_fd(nl->sk), F_SETFD, FD_CLOEXEC);
	/* Ask for the module's error text, and do not echo our request back. */
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_CAP_ACK,
		   &one, sizeof(one));
	nl->family = genl_ctrl_resolve(nl->sk, KPMOD_GENL_NAME);
	if (nl->family < 0) {
		kp_err_set(e, 0, NULL);
		e->code = nl->family == -NLE_OBJ_NOTFOUND ? KP_EXIT_NOMODULE :
							    KP_EXIT_ERROR;
		if (e->code == KP_EXIT_ERROR)
			snprintf(e->msg, sizeof(e->msg), "%s",
				 nl_geterror(nl->family));
		goto fail;
	}
	return 0;
fail:
	nl_socket_free(nl->sk);
	nl->sk = NULL;
	return e->code;
}

void kp_nl_close(struct kp_nl *nl)
{
	if (nl->sk)
		nl_socket_free(nl->sk);
	nl->sk = NULL;
}

static int kp_on_valid(struct nl_msg *msg, void *arg)
{
	struct kp_call *call = arg;
	struct nlattr *attrs[KPMOD_A_MAX + 1];
	int ret;

	ret = genlmsg_parse(nlmsg_hdr(msg), 0, attrs, KPMOD_A_MAX, NULL);
	if (ret < 0) {
		call->errnum = EPROTO;
		snprintf(call->extack, sizeof(call->extack),
			 "malformed reply from the module");
		return NL_STOP;
	}
	if (call->reply) {
		ret = call->reply(attrs, call->arg);
		if (ret < 0) {
			call->errnum = -ret;
			return NL_STOP;
		}
	}
	return NL_OK;
}

/* NLMSGERR_ATTR_MSG and _OFFS of an extended ack's @len bytes of attributes. */
static void kp_extack_attrs(struct nlattr *attrs, int len, struct kp_call *call)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];

	if (len <= 0 || nla_parse(tb, NLMSGERR_ATTR_MAX, attrs, len, NULL) < 0)
		return;
	if (tb[NLMSGERR_ATTR_MSG])
		snprintf(call->extack, sizeof(call->extack), "%.*s",
			 nla_len(tb[NLMSGERR_ATTR_MSG]),
			 (char *)nla_data(tb[NLMSGERR_ATTR_MSG]));
	if (tb[NLMSGERR_ATTR_OFFS] && nla_len(tb[NLMSGERR_ATTR_OFFS]) == 4)
		call->bad_attr = (int)nla_get_u32(tb[NLMSGERR_ATTR_OFFS]);
}

/* Pulls the extended ack out of an error message, if the kernel sent one. */
static void kp_parse_extack(struct nlmsgerr *err, struct kp_call *call)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)err - NLMSG_HDRLEN);
	size_t off = sizeof(*err);

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += err->msg.nlmsg_len - sizeof(struct nlmsghdr);
	kp_extack_attrs((struct nlattr *)((char *)err + off),
			(int)nlh->nlmsg_len - NLMSG_HDRLEN - (int)off, call);
}

static int kp_on_error(struct sockaddr_nl *who, struct nlmsgerr *err,
		       void *arg)
{
	struct kp_call *call = arg;

	(void)who;
	call->errnum = -err->error;
	kp_parse_extack(err, call);
	call->done = 1;
	return NL_STOP;
}

/* Go on reading to the end of the dump; the caller starts it again. */
static int kp_on_dump_intr(struct nl_msg *msg, void *arg)
{
	struct kp_call *call = arg;

	(void)msg;
	call->interrupted = 1;
	return NL_OK;
}

static int kp_on_done(struct nl_msg *msg, void *arg)
{
	struct kp_call *call = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	int err;

	call->done = 1;
	/*
	 * A dump that failed (in its first message, or later) says so in its
	 * NLMSG_DONE: an errno, then the extended ack's attributes.
	 */
	if (nlh->nlmsg_type != NLMSG_DONE || nlmsg_datalen(nlh) < (int)sizeof(err))
		return NL_STOP;
	memcpy(&err, nlmsg_data(nlh), sizeof(err));
	if (err < 0) {
		call->errnum = -err;
		if (nlh->nlmsg_flags & NLM_F_ACK_TLVS)
			kp_extack_attrs((struct nlattr *)((char *)nlmsg_data(nlh) + sizeof(err)),
					nlmsg_datalen(nlh) - (int)sizeof(err), call);
	}
	return NL_STOP;
}

static int kp_nl_request(struct kp_nl *nl, uint8_t cmd, int dump, kp_nl_fill_fn fill,
			 kp_nl_reply_fn reply, void *arg, struct kp_err *e,
			 int *interrupted)
{
	struct kp_call call = { .reply = reply, .arg = arg, .bad_attr = -1 };
	struct nl_msg *msg;
	struct nl_cb *cb;
	int ret;

	memset(e, 0, sizeof(*e));
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	/*
	 * A page first; a request that does not fit is filled again with
	 * room for the largest (1024 selectors of the longest names, 152
	 * KiB).  Not that room every time: calloc() zeroes it, and for a
	 * thousand adds, a request each, that was 5 % of adding them.
	 */
	msg = nlmsg_alloc_size(KP_NL_MSG_FIRST);
	if (!msg || !cb) {
		ret = -NLE_NOMEM;
		goto out;
	}
	for (;;) {
		if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0,
				 NLM_F_REQUEST | NLM_F_ACK | (dump ? NLM_F_DUMP : 0),
				 cmd, KPMOD_GENL_VERSION)) {
			ret = -NLE_NOMEM;
			goto out;
		}
		ret = fill ? fill(msg, arg) : 0;
		if (ret != -NLE_NOMEM || nlmsg_get_max_size(msg) >= KP_NL_MSG_MAX)
			break;
		nlmsg_free(msg);
		msg = nlmsg_alloc_size(KP_NL_MSG_MAX);
		if (!msg) {
			ret = -NLE_NOMEM;
			goto out;
		}
	}
	if (ret < 0)
		goto out;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, kp_on_valid, &call);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, kp_on_done, &call);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, kp_on_done, &call);
	nl_cb_err(cb, NL_CB_CUSTOM, kp_on_error, &call);
	nl_cb_set(cb, NL_CB_DUMP_INTR, NL_CB_CUSTOM, kp_on_dump_intr, &call);

	ret = nl_send_auto(nl->sk, msg);
	if (ret < 0)
		goto out;
	ret = 0;
	while (!call.done && !call.errnum) {
		ret = nl_recvmsgs(nl->sk, cb);
		if (ret < 0)
			break;
	}
out:
	nl_cb_put(cb);
	nlmsg_free(msg);
	*interrupted = call.interrupted;
	if (call.errnum) {
		kp_err_set(e, call.errnum, call.extack);
		e->bad_attr = call.bad_attr;
		return e->code;
	}
	if (ret < 0) {
		kp_err_set(e, 0, nl_geterror(ret));
		e->code = KP_EXIT_ERROR;
		return e->code;
	}
	return 0;
}

int kp_nl_call(struct kp_nl *nl, uint8_t cmd, int dump, kp_nl_fill_fn fill,
	       kp_nl_reply_fn reply, void *arg, struct kp_err *e)
{
	int interrupted;

	return kp_nl_request(nl, cmd, dump, fill, reply, arg, e, &interrupted);
}

int kp_nl_dump_req(struct kp_nl *nl, uint8_t cmd, kp_nl_fill_fn fill, kp_nl_reply_fn reply,
		   void (*reset)(void *arg), void *arg, struct kp_err *e)
{
	int tries, interrupted, ret;

	for (tries = 0; tries < KP_NL_DUMP_TRIES; tries++) {
		ret = kp_nl_request(nl, cmd, 1, fill, reply, arg, e, &interrupted);
		if (ret || !interrupted)
			return ret;
		reset(arg);
	}
	kp_err_set(e, 0, "the module's state kept changing during every dump");
	e->code = KP_EXIT_ERROR;
	return e->code;
}

int kp_nl_dump(struct kp_nl *nl, uint8_t cmd, kp_nl_reply_fn reply,
	       void (*reset)(void *arg), void *arg, struct kp_err *e)
{
	return kp_nl_dump_req(nl, cmd, NULL, reply, reset, arg, e);
}
