// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "exitcode.h"

enum kp_exit kp_exit_for_errno(int errnum)
{
	switch (errnum) {
	case 0:
		return KP_EXIT_OK;
	case EPERM:
	case EACCES:
		return KP_EXIT_PERM;
	case ENOENT:
	case EEXIST:
	case EINVAL:
	case ERANGE:
	case E2BIG:
	case EBUSY:
	case ENOSPC:
	case EOPNOTSUPP:
	case EMSGSIZE:
		return KP_EXIT_REFUSED;
	default:
		return KP_EXIT_ERROR;
	}
}

void kp_err_set(struct kp_err *e, int errnum, const char *extack)
{
	e->code = kp_exit_for_errno(errnum);
	e->errnum = errnum;
	e->bad_attr = -1;
	e->msg[0] = '\0';
	if (extack)
		snprintf(e->msg, sizeof(e->msg), "%s", extack);
}

void kp_err_about(struct kp_err *e, const char *what)
{
	char msg[sizeof(e->msg) + 1024];
	size_t len;

	snprintf(msg, sizeof(msg), "'%.512s'%s%s", what, e->msg[0] ? ": " : "", e->msg);
	/* Cut to fit, on purpose. */
	len = strnlen(msg, sizeof(e->msg) - 1);
	memcpy(e->msg, msg, len);
	e->msg[len] = '\0';
}

void kp_err_print(FILE *out, const char *cmd, const struct kp_err *e)
{
	const char *what, *msg = e->msg;

	switch (e->code) {
	case KP_EXIT_NOMODULE:
		fprintf(out, "kpmod: %s: the kpmod module is not loaded (insmod kpmod.ko, or modprobe kpmod)\n",
			cmd);
		return;
	case KP_EXIT_PERM:
		what = "permission denied";
		/* The genl core refuses before the module can explain. */
		if (!msg[0])
			msg = "kpmod requires CAP_NET_ADMIN and CAP_SYS_ADMIN";
		break;
	case KP_EXIT_REFUSED:
		what = "refused by the module";
		break;
	case KP_EXIT_MISMATCH:
		what = "version mismatch";
		break;
	default:
		what = "error";
		break;
	}
	fprintf(out, "kpmod: %s: %s", cmd, what);
	if (msg[0])
		fprintf(out, ": %s", msg);
	if (e->errnum)
		fprintf(out, " (%s)", strerror(e->errnum));
	/* Root can be refused too: under kernel lockdown. */
	if (e->code == KP_EXIT_PERM && geteuid() != 0)
		fprintf(out, "; run as root");
	fputc('\n', out);
}

int kp_opt_error(const char *cmd, int c, char **argv)
{
	char shown[3] = { '-', (char)optopt, '\0' };
	const char *last = argv[optind - 1];
	const char *arg = optopt && strncmp(last, "--", 2) ? shown : last;

	if (c == ':')
		kp_msg(cmd, "option '%s' needs a value (see kpmod %s --help)\n", arg, cmd);
	else
		kp_msg(cmd, "unknown option '%s' (see kpmod %s --help)\n", arg, cmd);
	return KP_EXIT_USAGE;
}

void kp_msg(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "kpmod: %s%s", cmd ? cmd : "", cmd ? ": " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

void kp_msg_at(const char *where, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", where);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}
