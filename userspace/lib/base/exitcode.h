/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Exit codes of the kpmod CLI (documented in doc/usage.md) and error
 * reporting.
 */
#ifndef KPMOD_EXITCODE_H
#define KPMOD_EXITCODE_H

#include <stdio.h>

enum kp_exit {
	KP_EXIT_OK = 0,
	KP_EXIT_ERROR = 1,	/* anything not listed below */
	KP_EXIT_USAGE = 2,	/* bad command line */
	KP_EXIT_NOMODULE = 3,	/* the module is not loaded */
	KP_EXIT_PERM = 4,	/* the caller lacks the right */
	KP_EXIT_REFUSED = 5,	/* the module refused the request */
	KP_EXIT_MISMATCH = 6,	/* module and CLI speak different uapi versions */
	KP_EXIT_BADFILTER = 7,	/* a filter that does not parse, or names a field it cannot use */
	KP_EXIT_BADTRIGGER = 8,	/* a trigger that does not parse, or asks what kpmod cannot do */
};

/* What went wrong talking to the module, enough to say it in one line. */
struct kp_err {
	enum kp_exit code;
	int errnum;		/* positive errno from the kernel, or 0 */
	char msg[256];		/* extended ack text from the module, or "" */
	int bad_attr;		/* NLMSGERR_ATTR_OFFS: offset of the attribute
				 * the module named in the request, or -1 */
};

/* Classify a positive kernel errno (from a netlink ack) into an exit code. */
enum kp_exit kp_exit_for_errno(int errnum);

/* Fill @e for a kernel errno and its optional extended ack message. */
void kp_err_set(struct kp_err *e, int errnum, const char *extack);

/* Says the error is about @what (a name from the command line): "'WHAT': msg". */
void kp_err_about(struct kp_err *e, const char *what);

/*
 * Every message of the CLI on stderr: "kpmod: CMD: " (@cmd NULL: "kpmod: ")
 * and the message, its newline included.
 */
void kp_msg(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A message about a place in a file: "FILE:LINE: " (@where) and the message. */
void kp_msg_at(const char *where, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Print "kpmod: CMD: what happened" as one line on @out. */
void kp_err_print(FILE *out, const char *cmd, const struct kp_err *e);

/*
 * getopt_long() returned '?' or ':' (optstrings start with ':'): says
 * "kpmod: CMD: unknown option 'X' (see kpmod CMD --help)"; returns 2.
 */
int kp_opt_error(const char *cmd, int c, char **argv);

#endif
