/* SPDX-License-Identifier: GPL-2.0 */
/* kpmod-nlfuzz: what nlfuzz.c shares with the generator, nlgen.c. */
#ifndef KPMOD_NLFUZZ_H
#define KPMOD_NLFUZZ_H

#include <stdint.h>
#include <netlink/msg.h>

extern int family;
/* A request for @cmd, NLM_F_ACK set. */
struct nl_msg *new_msg(uint8_t cmd);
/* Sends @msg (consumed); the kernel's errno, 0 on success. */
int send_msg(struct nl_msg *msg);
/* Counts a failed check, with @why. */
void gen_fail(const char *why);
/* kpmod-nlfuzz gen N SEED. */
void run_gen(int n, unsigned int seed);

#endif
