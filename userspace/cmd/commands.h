/* SPDX-License-Identifier: GPL-2.0 */
/* One function per kpmod command; each returns an exit code. */
#ifndef KPMOD_COMMANDS_H
#define KPMOD_COMMANDS_H

int kp_cmd_version(int argc, char **argv);
int kp_cmd_status(int argc, char **argv);
int kp_cmd_add(int argc, char **argv);
int kp_cmd_del(int argc, char **argv);
int kp_cmd_clear(int argc, char **argv);
int kp_cmd_list(int argc, char **argv);
int kp_cmd_stat(int argc, char **argv);
int kp_cmd_enable(int argc, char **argv);
int kp_cmd_disable(int argc, char **argv);
int kp_cmd_buffer(int argc, char **argv);
int kp_cmd_filter(int argc, char **argv);
int kp_cmd_trigger(int argc, char **argv);
int kp_cmd_hist(int argc, char **argv);
int kp_cmd_tracing(int argc, char **argv);
int kp_cmd_trace(int argc, char **argv);
int kp_cmd_record(int argc, char **argv);
int kp_cmd_report(int argc, char **argv);
int kp_cmd_snapshot(int argc, char **argv);
int kp_cmd_funcs(int argc, char **argv);
int kp_cmd_usdt(int argc, char **argv);
int kp_cmd_format(int argc, char **argv);
int kp_cmd_apply(int argc, char **argv);

#endif
