/* SPDX-License-Identifier: GPL-2.0 */
/* The table of kpmod commands and the help that goes with it. */
#ifndef KPMOD_CLI_H
#define KPMOD_CLI_H

#include <stdbool.h>
#include <stdio.h>

struct kp_cmd {
	const char *name;
	int (*run)(int argc, char **argv);	/* argv[0] is the command name */
	const char *summary;			/* one line for `kpmod --help` */
	const char *usage;			/* full text for `kpmod CMD --help` */
};

extern const struct kp_cmd kp_cmds[];
extern const unsigned int kp_ncmds;

const struct kp_cmd *kp_cmd_find(const char *name);

/* True when argv[1..] asks for help (-h or --help anywhere). */
bool kp_wants_help(int argc, char **argv);

void kp_print_usage(FILE *out);
void kp_print_cmd_usage(FILE *out, const struct kp_cmd *cmd);

/* The whole command line dispatch; returns the exit code. */
int kp_main(int argc, char **argv);

#endif
