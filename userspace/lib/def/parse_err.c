// SPDX-License-Identifier: GPL-2.0
/* A refused definition's message, and its error_log form. */
#include <ctype.h>
#include <stdarg.h>
#include <string.h>

#include "parse_err.h"

#define E(code, msg) [KP_E_##code] = msg,
static const char *const kp_err_text[] = { KP_PARSE_ERRORS };
#undef E

int kp_parse_set_err(struct kp_parse_err *err, int code, size_t pos, const char *fmt, ...)
{
	va_list ap;

	err->code = code;
	err->pos = (unsigned int)pos;
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	} else {
		snprintf(err->msg, sizeof(err->msg), "%s", kp_parse_strerror(code));
	}
	return -1;
}

const char *kp_parse_strerror(int code)
{
	if (code < 0 || code >= KP_E__COUNT)
		return "Unknown error";
	return kp_err_text[code];
}

void kp_format_parse_err(FILE *f, const char *text,
			 const struct kp_parse_err *err)
{
	kp_format_parse_err_at(f, NULL, text, err);
}

void kp_format_parse_err_at(FILE *f, const char *where, const char *text,
			    const struct kp_parse_err *err)
{
	const char *prefix = "  Command: ";
	const char *p;
	unsigned int i;

	fprintf(f, "kpmod: %s%serror: %s\n%s", where ? where : "", where ? ": " : "",
		err->msg, prefix);
	/* Blanks as spaces, so that the caret stays under its byte. */
	for (p = text; *p; p++)
		fputc(isspace((unsigned char)*p) ? ' ' : *p, f);
	fputc('\n', f);
	fprintf(f, "%*s", (int)strlen(prefix), "");
	for (i = 0; i < err->pos; i++)
		fputc(' ', f);
	fputs("^\n", f);
}
