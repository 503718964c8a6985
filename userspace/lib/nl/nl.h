/* SPDX-License-Identifier: GPL-2.0 */
/* Talking to the module over generic netlink (libnl-genl-3). */
#ifndef KPMOD_NL_H
#define KPMOD_NL_H

#include <stdint.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "exitcode.h"
#include "uapi/kpmod.h"

struct kp_nl {
	struct nl_sock *sk;
	int family;
};

/*
 * The largest request the CLI builds: KPMOD_MAX_SELECTORS selectors of two
 * names of KPMOD_MAX_NAME_LEN, with their attribute headers (152 KiB, within
 * the socket's default send buffer).
 */
#define KP_NL_MSG_MAX	(4096 + KPMOD_MAX_SELECTORS * (3 * 4 + 2 * (KPMOD_MAX_NAME_LEN + 4)))
/* What a request is first given room for (kp_nl_request()). */
#define KP_NL_MSG_FIRST	4096

/* Adds a request's attributes; returns 0 or a negative libnl error. */
typedef int (*kp_nl_fill_fn)(struct nl_msg *msg, void *arg);
/* Handles one reply message's parsed attributes; returns 0 or -errno. */
typedef int (*kp_nl_reply_fn)(struct nlattr **attrs, void *arg);

/* Connects and resolves the family; on failure fills @e and returns its code. */
int kp_nl_open(struct kp_nl *nl, struct kp_err *e);
void kp_nl_close(struct kp_nl *nl);

/*
 * Sends @cmd (with NLM_F_DUMP when @dump), calls @reply for each reply and
 * waits for the ack.  Returns 0, or an exit code with @e filled in, including
 * the module's extended ack message.
 */
int kp_nl_call(struct kp_nl *nl, uint8_t cmd, int dump, kp_nl_fill_fn fill,
	       kp_nl_reply_fn reply, void *arg, struct kp_err *e);

/*
 * A dump (NLM_F_DUMP) of @cmd: as kp_nl_call(), but one that the module
 * flags as interrupted (NLM_F_DUMP_INTR: the state changed while it was
 * being sent) is read to its end, @reset(@arg) forgets what it delivered,
 * and it starts again, up to KP_NL_DUMP_TRIES times.
 */
#define KP_NL_DUMP_TRIES 100
int kp_nl_dump(struct kp_nl *nl, uint8_t cmd, kp_nl_reply_fn reply,
	       void (*reset)(void *arg), void *arg, struct kp_err *e);
/* The same for a dump whose request carries attributes, put by @fill. */
int kp_nl_dump_req(struct kp_nl *nl, uint8_t cmd, kp_nl_fill_fn fill, kp_nl_reply_fn reply,
		   void (*reset)(void *arg), void *arg, struct kp_err *e);

#endif
