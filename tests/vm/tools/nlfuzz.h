/* SPDX-License-Identifier: GPL-2.0 */
/* kpmod-nlfuzz: what nlfuzz.c shares with the generator, nlgen.c. */
#ifndef KPMOD_NLFUZZ_H
#define KPMOD_NLFUZZ_H

#include <stdint.h>
#include <netlink/msg.h>

extern int family;
/* A request for @cmd, NLM_F_ACK set. */
struct nl_msg *new_msg(uint8_t cmd);
/* Sends @msg (consumed); the kernel's errno, 0 on success; exits if lost. */
int send_msg(struct nl_msg *msg);
/* The same, <0 (a libnl error) when the request or its answer was lost. */
int send_msg_raw(struct nl_msg *msg);
/* send_msg_raw(), with the replies to @on_reply. */
int send_msg_cb(struct nl_msg *msg, int (*on_reply)(struct nl_msg *, void *));
/* The extended ack message of the last request, or "". */
const char *last_msg_text(void);
/* Counts a failed check, with @why. */
void gen_fail(const char *why);
/* kpmod-nlfuzz gen N SEED. */
void run_gen(int n, unsigned int seed);
/* kpmod-nlfuzz failnth OP MAX [STEP [KO]]. */
void run_failnth(const char *op, unsigned int max, unsigned int step, const char *ko);
/* Every trigger removed, every probe disabled (nlgen.c): ready for a clear. */
void clear_all(void);
/* A new netlink socket in place of the old. */
void reconnect(void);

#endif
