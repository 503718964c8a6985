// SPDX-License-Identifier: GPL-2.0
/*
 * The event filter compiler: the kernel's grammar, positions and messages
 * (kernel/trace/trace_events_filter.c: calc_stack(), parse_pred(),
 * predicate_parse()), run in userspace; the module validates the program
 * it produces before using it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"

static const char *const kp_filter_op_texts[KP_FILTER_OP_COUNT] = {
	[KP_FILTER_OP_GLOB] = "~",  [KP_FILTER_OP_NE] = "!=",
	[KP_FILTER_OP_EQ] = "==",   [KP_FILTER_OP_LE] = "<=",
	[KP_FILTER_OP_LT] = "<",    [KP_FILTER_OP_GE] = ">=",
	[KP_FILTER_OP_GT] = ">",    [KP_FILTER_OP_BAND] = "&",
};

const struct kp_filter_field kp_filter_common_fields[] = {
	{ .name = "CPU", .type = KP_FILTER_FIELD_CPU, .size = 4, .is_signed = true },
	{ .name = "cpu", .type = KP_FILTER_FIELD_CPU, .size = 4, .is_signed = true },
	{ .name = "common_cpu", .type = KP_FILTER_FIELD_CPU, .size = 4, .is_signed = true },
	{ .name = "COMM", .type = KP_FILTER_FIELD_COMM },
	{ .name = "comm", .type = KP_FILTER_FIELD_COMM },
	{ .name = "common_pid", .type = KP_FILTER_FIELD_NUM, .size = 4, .is_signed = true },
};
const unsigned int kp_filter_nr_common_fields =
	sizeof(kp_filter_common_fields) / sizeof(kp_filter_common_fields[0]);

const char *kp_filter_op_text(enum kp_filter_op op)
{
	return op < KP_FILTER_OP_COUNT ? kp_filter_op_texts[op] : "?";
}

/* The kernel's messages (err_text[]), those a filter can meet. */
#define KP_FERR_INVALID_OP	"Invalid operator"
#define KP_FERR_TOO_MANY_OPEN	"Too many '('"
#define KP_FERR_TOO_MANY_CLOSE	"Too few '('"
#define KP_FERR_MISSING_QUOTE	"Missing matching quote"
#define KP_FERR_OPERAND_TOO_LONG "Operand too long"
#define KP_FERR_EXPECT_STRING	"Expecting string field"
#define KP_FERR_EXPECT_DIGIT	"Expecting numeric field"
#define KP_FERR_ILLEGAL_FIELD_OP "Illegal operation for field type"
#define KP_FERR_FIELD_NOT_FOUND	"Field not found"
#define KP_FERR_ILLEGAL_INTVAL	"Illegal integer value"
#define KP_FERR_TOO_MANY_PREDS	"Too many terms in predicate expression"
#define KP_FERR_INVALID_FILTER	"Meaningless filter expression"
#define KP_FERR_INVALID_VALUE	"Invalid value (did you forget quotes)?"
#define KP_FERR_NO_FILTER	"No filter found"
/* Refused before parsing, where the kernel's write fails with EINVAL. */
#define KP_FERR_TEXT_TOO_LONG	"Filter string too long"

static int kp_filter_fail(struct kp_filter_error *err, const char *msg, int pos)
{
	err->msg = msg;
	err->pos = pos;
	return -EINVAL;
}

/*
 * Parentheses and quotes first, as calc_stack() does: the deepest nesting
 * (the whole expression counts as one level), an upper bound on the number
 * of predicates, or the error at the byte it names.
 */
static int kp_filter_scan(const char *s, int *max_open, int *max_preds,
			  struct kp_filter_error *err)
{
	int open = 1, deepest = 1, preds = 0, last_quote = 0, i;
	bool in_pred = false;
	char quote = 0;

	for (i = 0; s[i]; i++) {
		if (isspace((unsigned char)s[i]))
			continue;
		if (quote) {
			if (s[i] == quote)
				quote = 0;
			continue;
		}
		switch (s[i]) {
		case '\'':
		case '"':
			quote = s[i];
			last_quote = i;
			break;
		case '&':
		case '|':
			if (s[i + 1] != s[i])
				break;
			in_pred = false;
			continue;
		case '(':
			in_pred = false;
			if (++open > deepest)
				deepest = open;
			continue;
		case ')':
			in_pred = false;
			if (open == 1)
				return kp_filter_fail(err, KP_FERR_TOO_MANY_CLOSE, i);
			open--;
			continue;
		}
		if (!in_pred) {
			preds++;
			in_pred = true;
		}
	}
	if (quote)
		return kp_filter_fail(err, KP_FERR_MISSING_QUOTE, last_quote);
	if (open != 1) {
		/* Point at the '(' left open: walk back to it. */
		int level = open;

		for (i--; i; i--) {
			if (quote) {
				if (s[i] == quote)
					quote = 0;
				continue;
			}
			if (s[i] == '(') {
				if (level == open)
					return kp_filter_fail(err, KP_FERR_TOO_MANY_OPEN, i);
				level--;
			} else if (s[i] == ')') {
				level++;
			} else if (s[i] == '\'' || s[i] == '"') {
				quote = s[i];
			}
		}
		return kp_filter_fail(err, KP_FERR_TOO_MANY_OPEN, 0);
	}
	*max_open = deepest;
	*max_preds = preds;
	return 0;
}

/*
 * kstrtoll()/kstrtoull() with base 0: "0x" and a hex digit make hex, a
 * leading 0 octal, else decimal; every byte must be a digit, and the value
 * must fit.
 */
static bool kp_filter_parse_int(const char *s, bool is_signed, uint64_t *val)
{
	bool negative = false;
	unsigned int base = 10;
	uint64_t v = 0;
	int digits = 0;

	if (is_signed && *s == '-') {
		negative = true;
		s++;
	}
	if (s[0] == '0') {
		if (tolower((unsigned char)s[1]) == 'x' &&
		    isxdigit((unsigned char)s[2])) {
			base = 16;
			s += 2;
		} else {
			base = 8;
		}
	}
	for (; *s; s++, digits++) {
		unsigned int d;

		if (isdigit((unsigned char)*s))
			d = *s - '0';
		else if (isalpha((unsigned char)*s))
			d = tolower((unsigned char)*s) - 'a' + 10;
		else
			return false;
		if (d >= base)
			return false;
		if (v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	if (!digits)
		return false;
	if (is_signed) {
		if (negative ? v > (uint64_t)INT64_MAX + 1 : v > INT64_MAX)
			return false;
		if (negative)
			v = -v;
	}
	*val = v;
	return true;
}

/*
 * A ~ pattern, as filter_parse_regex() reads it: a leading '!' inverts; a
 * '*' only at the start, the end or both makes a suffix, prefix or
 * substring match; any other '*', '?', '[' or '\' makes a glob.
 */
static void kp_filter_regex(struct kp_filter_pred *p)
{
	char *buf = p->pattern, *search;
	unsigned int len = p->len, i;

	p->match = KP_FILTER_MATCH_FULL;
	p->invert = false;
	if (buf[0] == '!') {
		p->invert = true;
		buf++;
		len--;
	}
	search = buf;
	if (isdigit((unsigned char)buf[0]))
		goto done;	/* the kernel's MATCH_INDEX: a full match */
	for (i = 0; i < len; i++) {
		if (buf[i] == '*') {
			if (!i) {
				p->match = KP_FILTER_MATCH_END;
			} else if (i == len - 1) {
				p->match = p->match == KP_FILTER_MATCH_END ?
					   KP_FILTER_MATCH_MIDDLE :
					   KP_FILTER_MATCH_FRONT;
				buf[i] = '\0';
				break;
			} else {
				p->match = KP_FILTER_MATCH_GLOB;
				goto done;
			}
		} else if (strchr("[?\\", buf[i])) {
			p->match = KP_FILTER_MATCH_GLOB;
			goto done;
		}
	}
	if (buf[0] == '*')
		search = buf + 1;
done:
	p->len = strlen(search);
	memmove(p->pattern, search, p->len + 1);
}

static bool kp_filter_is_string(const struct kp_filter_field *f)
{
	return f->type == KP_FILTER_FIELD_STRING || f->type == KP_FILTER_FIELD_COMM;
}

/*
 * One predicate at @s, which starts at byte @pos - 1 of the expression
 * (the kernel passes that off-by-one position and adds offsets to it).
 * Returns the bytes it took, or -EINVAL.
 */
static int kp_filter_pred(const char *s, int pos, const struct kp_filter_field *fields,
			  unsigned int nr_fields, struct kp_filter_pred *p,
			  struct kp_filter_error *err)
{
	const struct kp_filter_field *f = NULL;
	int i = 0, start, len, op;
	unsigned int n;

	while (isspace((unsigned char)s[i]))
		i++;
	start = i;
	while (isalnum((unsigned char)s[i]) || s[i] == '_')
		i++;
	len = i - start;
	for (n = 0; len && n < nr_fields; n++) {
		if (strlen(fields[n].name) == (size_t)len &&
		    !memcmp(fields[n].name, s + start, len)) {
			f = &fields[n];
			break;
		}
	}
	/* (No name at all: the kernel fails without a message.) */
	if (!f)
		return kp_filter_fail(err, KP_FERR_FIELD_NOT_FOUND, pos + i);
	memset(p, 0, sizeof(*p));
	p->field = n;
	/* Accepted and ignored for fetched strings, as the kernel does. */
	if (!strncmp(s + i, ".ustring", 8))
		i += 8;
	while (isspace((unsigned char)s[i]))
		i++;
	for (op = 0; op < KP_FILTER_OP_COUNT; op++) {
		const char *t = kp_filter_op_texts[op];

		if (!strncmp(s + i, t, strlen(t)))
			break;
	}
	if (op == KP_FILTER_OP_COUNT)
		return kp_filter_fail(err, KP_FERR_INVALID_OP, pos + i);
	p->op = op;
	i += strlen(kp_filter_op_texts[op]);
	while (isspace((unsigned char)s[i]))
		i++;
	start = i;

	if (s[i] == '\'' || s[i] == '"') {
		char q = s[i];

		if (op != KP_FILTER_OP_EQ && op != KP_FILTER_OP_NE &&
		    op != KP_FILTER_OP_GLOB)
			return kp_filter_fail(err, KP_FERR_ILLEGAL_FIELD_OP, pos + i);
		if (!kp_filter_is_string(f))
			return kp_filter_fail(err, KP_FERR_EXPECT_DIGIT, pos + i);
		for (i++; s[i] && s[i] != q; i++)
			;
		if (!s[i])
			return kp_filter_fail(err, KP_FERR_MISSING_QUOTE, pos + i);
		len = i - start - 1;
		if (len >= KP_FILTER_STR_MAX)
			return kp_filter_fail(err, KP_FERR_OPERAND_TOO_LONG, pos + i);
		memcpy(p->pattern, s + start + 1, len);
		p->pattern[len] = '\0';
		p->len = len;
		if (op == KP_FILTER_OP_GLOB)
			kp_filter_regex(p);
		else
			p->invert = op == KP_FILTER_OP_NE;
		return i + 1;	/* past the closing quote */
	}
	if (isdigit((unsigned char)s[i]) || s[i] == '-') {
		/* "0xfeedfacedeadbeef" and its sign fit, with room. */
		char num[24];

		if (kp_filter_is_string(f))
			return kp_filter_fail(err, KP_FERR_EXPECT_STRING, pos + i);
		if (op == KP_FILTER_OP_GLOB)
			return kp_filter_fail(err, KP_FERR_ILLEGAL_FIELD_OP, pos + i);
		if (s[i] == '-')
			i++;
		while (isalnum((unsigned char)s[i]))
			i++;
		len = i - start;
		if (len >= (int)sizeof(num))
			return kp_filter_fail(err, KP_FERR_OPERAND_TOO_LONG, pos + i);
		memcpy(num, s + start, len);
		num[len] = '\0';
		if (!kp_filter_parse_int(num, f->is_signed, &p->val))
			return kp_filter_fail(err, KP_FERR_ILLEGAL_INTVAL, pos + start);
		return i;
	}
	return kp_filter_fail(err, KP_FERR_INVALID_VALUE, pos + i);
}

/* Bits of a nesting level's state (the kernel's op_stack entries). */
#define KP_FILTER_INVERT	1u
#define KP_FILTER_PROCESS_AND	2u
#define KP_FILTER_PROCESS_OR	4u

/*
 * Entry @n's target names the entry waiting for a label; that entry gets
 * @branch and jumps past @n, and @n takes over what it waited for.
 */
static void kp_filter_label(struct kp_filter_insn *insn, int n, bool branch)
{
	unsigned int waiting = insn[n].target, next = insn[waiting].target;

	insn[waiting].when_to_branch = branch;
	insn[waiting].target = n;
	insn[n].target = next;
}

/* A '!' that is not the start of "!=" or "!~" negates. */
static bool kp_filter_is_not(const char *s)
{
	return s[1] != '=' && s[1] != '~';
}

int kp_filter_compile(const char *expr, const struct kp_filter_field *fields,
		      unsigned int nr_fields, struct kp_filter_prog *prog,
		      struct kp_filter_error *err)
{
	struct kp_filter_insn *insn = NULL;
	struct kp_filter_pred *preds = NULL;
	unsigned int *stack = NULL, *top;
	bool *inverts = NULL, invert = false;
	int max_open, max_preds, n = 0, i, ret;
	const char *ptr = expr;

	memset(prog, 0, sizeof(*prog));
	if (strlen(expr) >= KP_FILTER_TEXT_MAX)
		return kp_filter_fail(err, KP_FERR_TEXT_TOO_LONG, 0);
	ret = kp_filter_scan(expr, &max_open, &max_preds, err);
	if (ret)
		return ret;
	if (!max_preds)
		return kp_filter_fail(err, KP_FERR_NO_FILTER, 0);

	max_preds += 2;	/* the two verdicts */
	stack = calloc(max_open + 1, sizeof(*stack));
	insn = calloc(max_preds, sizeof(*insn));
	preds = calloc(max_preds, sizeof(*preds));
	inverts = calloc(max_preds, sizeof(*inverts));
	ret = -ENOMEM;
	if (!stack || !insn || !preds || !inverts)
		goto out;
	top = stack;

	/*
	 * First pass: each predicate provisionally points back at the entry
	 * before it; an && or || closes the entries waiting for a label.
	 */
	while (*ptr) {
		const char *next = ptr++;
		int len;

		if (isspace((unsigned char)*next))
			continue;
		if (*next == '(') {
			if (top - stack >= max_open) {
				ret = kp_filter_fail(err, KP_FERR_TOO_MANY_OPEN, next - expr);
				goto out;
			}
			*++top = invert ? KP_FILTER_INVERT : 0;
			continue;
		}
		if (*next == '!' && kp_filter_is_not(next)) {
			invert = !invert;
			continue;
		}
		if (n >= max_preds - 2) {
			ret = kp_filter_fail(err, KP_FERR_TOO_MANY_PREDS, next - expr);
			goto out;
		}
		inverts[n] = invert;
		insn[n].pred = n;
		insn[n].target = n - 1;
		len = kp_filter_pred(next, ptr - expr, fields, nr_fields, &preds[n], err);
		if (len < 0) {
			ret = len;
			goto out;
		}
		ptr = next + len;
		n++;

		for (;;) {
			next = ptr++;
			if (isspace((unsigned char)*next))
				continue;
			if ((*next == '&' || *next == '|') && next[1] == *next) {
				ptr++;
			} else if (*next != ')' && *next != '\0') {
				ret = kp_filter_fail(err, KP_FERR_TOO_MANY_PREDS, next - expr);
				goto out;
			}
			invert = *top & KP_FILTER_INVERT;
			if (*top & KP_FILTER_PROCESS_AND) {
				kp_filter_label(insn, n - 1, invert);
				*top &= ~KP_FILTER_PROCESS_AND;
			}
			if (*next == '&') {
				*top |= KP_FILTER_PROCESS_AND;
				break;
			}
			if (*top & KP_FILTER_PROCESS_OR) {
				kp_filter_label(insn, n - 1, !invert);
				*top &= ~KP_FILTER_PROCESS_OR;
			}
			if (*next == '|') {
				*top |= KP_FILTER_PROCESS_OR;
				break;
			}
			if (!*next)
				goto parsed;
			if (top == stack) {
				ret = kp_filter_fail(err, KP_FERR_TOO_MANY_CLOSE, ptr - expr);
				goto out;
			}
			top--;
		}
	}
	/* Only the loop above ends a complete expression. */
	ret = kp_filter_fail(err, n ? KP_FERR_INVALID_FILTER : KP_FERR_NO_FILTER,
			     ptr - expr);
	goto out;
parsed:
	if (top != stack) {
		ret = kp_filter_fail(err, KP_FERR_TOO_MANY_OPEN, ptr - expr);
		goto out;
	}
	/* The verdicts, and the last predicate falls through to "false". */
	insn[n].pred = KP_FILTER_END;
	insn[n].target = 1;
	insn[n + 1].pred = KP_FILTER_END;
	insn[n + 1].target = 0;
	insn[n - 1].target = n;
	insn[n - 1].when_to_branch = false;

	/*
	 * Second pass: a jump to an entry that would branch the same way
	 * goes straight to that entry's target.
	 */
	for (i = n - 1; i--; ) {
		unsigned int t = insn[i].target;

		if (insn[i].when_to_branch == insn[t].when_to_branch)
			insn[i].target = insn[t].target;
	}
	/*
	 * Third pass: fold the negations in; every jump must go forward.
	 * The kernel's loop continues after the entry a branch names; here
	 * a target is the entry it continues at.
	 */
	for (i = 0; i < n; i++) {
		insn[i].when_to_branch ^= inverts[i];
		if (insn[i].target <= (unsigned int)i) {
			ret = kp_filter_fail(err, KP_FERR_INVALID_FILTER, 0);
			goto out;
		}
		insn[i].target++;
	}
	prog->nr_preds = n;
	prog->preds = preds;
	prog->insns = insn;
	preds = NULL;
	insn = NULL;
	ret = 0;
out:
	free(stack);
	free(inverts);
	free(insn);
	free(preds);
	return ret;
}

void kp_filter_prog_free(struct kp_filter_prog *prog)
{
	free(prog->preds);
	free(prog->insns);
	memset(prog, 0, sizeof(*prog));
}

int kp_filter_error_format(char *buf, size_t size, const char *expr,
			   const struct kp_filter_error *err)
{
	int len = strlen(expr), pos = err->pos;

	if (pos > len)
		pos = len;
	/* The caret goes under byte pos (append_filter_err()). */
	return snprintf(buf, size, "%s\n%*s\nparse_error: %s\n", expr,
			pos ? pos + 1 : 0, "^", err->msg);
}
