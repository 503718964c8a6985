/* SPDX-License-Identifier: GPL-2.0 */
/* One function per kpmod command; each returns an exit code. */
#ifndef KPMOD_COMMANDS_H
#define KPMOD_COMMANDS_H

int kp_cmd_version(int argc, char **argv);
int kp_cmd_status(int argc, char **argv);

#endif
