// SPDX-License-Identifier: GPL-2.0
/* Records to text (ftrace's trace format) and to JSON lines. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "format.h"

/* A line being built: printed whole, or not at all. */
struct sb {
	char *buf;
	size_t len, cap;
	bool oom;
	char local[1024];
};

static void sb_init(struct sb *b)
{
	b->buf = b->local;
	b->len = 0;
	b->cap = sizeof(b->local);
	b->oom = false;
}

static void sb_free(struct sb *b)
{
	if (b->buf != b->local)
		free(b->buf);
}

/* sb_room()'s slow path: the line outgrew its buffer. */
static __attribute__((noinline)) bool sb_grow(struct sb *b, size_t n)
{
	char *m;
	size_t cap = b->cap;

	while (cap <= b->len + n)
		cap *= 2;
	m = b->buf == b->local ? malloc(cap) : realloc(b->buf, cap);
	if (!m) {
		b->oom = true;
		return false;
	}
	if (b->buf == b->local)
		memcpy(m, b->local, b->len);
	b->buf = m;
	b->cap = cap;
	return true;
}

/* Room for @n more bytes: inline, as it runs for every piece of every line. */
static inline bool sb_room(struct sb *b, size_t n)
{
	return b->len + n < b->cap || sb_grow(b, n);
}

static void sb_put(struct sb *b, const char *s, size_t n)
{
	if (!sb_room(b, n))
		return;
	memcpy(b->buf + b->len, s, n);
	b->len += n;
}

static void sb_putc(struct sb *b, char c)
{
	sb_put(b, &c, 1);
}

static void sb_printf(struct sb *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void sb_printf(struct sb *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->buf + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= b->cap - b->len) {
		if (!sb_room(b, n + 1))
			return;
		va_start(ap, fmt);
		vsnprintf(b->buf + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
	}
	b->len += n;
}

/* Bytes from the kernel, as text: see escape.h. */
static void sb_put_text(struct sb *b, const char *s, size_t n)
{
	if (!sb_room(b, KP_ESCAPED_MAX(n)))
		return;
	b->len += kp_escape_text(b->buf + b->len, s, n);
}

/*
 * Numbers without printf: a reader formats every event, and printf's
 * parsing of the format was half of that time.
 */
static void sb_puts(struct sb *b, const char *s)
{
	sb_put(b, s, strlen(s));
}

/* @v's decimal digits, written backwards to end at @e: their start. */
static char *u64_digits(char *e, uint64_t v)
{
	do {
		*--e = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return e;
}

/* @v in decimal, at least @width digits (zeros in front). */
static void sb_put_u64(struct sb *b, uint64_t v, unsigned int width)
{
	char t[24], *e = t + sizeof(t), *d = u64_digits(e, v);

	while ((unsigned int)(e - d) < width && d > t)
		*--d = '0';
	sb_put(b, d, e - d);
}

static void sb_put_s64(struct sb *b, int64_t v)
{
	if (v < 0) {
		sb_putc(b, '-');
		sb_put_u64(b, -(uint64_t)v, 0);
	} else {
		sb_put_u64(b, v, 0);
	}
}

/* "0x" and @v in lower-case hex, as "%#llx" for a non-zero value. */
static void sb_put_hex(struct sb *b, uint64_t v)
{
	char t[18], *e = t + sizeof(t), *d = e;

	do {
		*--d = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	*--d = 'x';
	*--d = '0';
	sb_put(b, d, e - d);
}

static void sb_pad(struct sb *b, size_t n)
{
	static const char blanks[] = "                ";

	while (n) {
		size_t k = n < sizeof(blanks) - 1 ? n : sizeof(blanks) - 1;

		sb_put(b, blanks, k);
		n -= k;
	}
}

/* @s right-aligned in @width columns, as "%*s". */
static void sb_put_right(struct sb *b, const char *s, size_t len, size_t width)
{
	if (len < width)
		sb_pad(b, width - len);
	sb_put(b, s, len);
}

static int sb_flush(struct sb *b, FILE *out, int ret)
{
	if (!ret && b->oom)
		ret = -ENOMEM;
	if (!ret)
		fwrite(b->buf, 1, b->len, out);
	sb_free(b);
	return ret;
}

/* ---- types ---- */

static const struct {
	const char *name;
	uint32_t size;
} kp_types[__KPMOD_T_MAX] = {
	[KPMOD_T_U8] = { "u8", 1 },	[KPMOD_T_U16] = { "u16", 2 },
	[KPMOD_T_U32] = { "u32", 4 },	[KPMOD_T_U64] = { "u64", 8 },
	[KPMOD_T_S8] = { "s8", 1 },	[KPMOD_T_S16] = { "s16", 2 },
	[KPMOD_T_S32] = { "s32", 4 },	[KPMOD_T_S64] = { "s64", 8 },
	[KPMOD_T_X8] = { "x8", 1 },	[KPMOD_T_X16] = { "x16", 2 },
	[KPMOD_T_X32] = { "x32", 4 },	[KPMOD_T_X64] = { "x64", 8 },
	[KPMOD_T_CHAR] = { "char", 1 },
	[KPMOD_T_STRING] = { "string", 4 },
	[KPMOD_T_USTRING] = { "ustring", 4 },
	[KPMOD_T_SYMBOL] = { "symbol", 8 },
	[KPMOD_T_SYMSTR] = { "symstr", 8 },	/* an address, symbolized here */
	[KPMOD_T_BITFIELD] = { "bitfield", 0 },
};

uint32_t kp_format_type_size(uint32_t type)
{
	return type && type < __KPMOD_T_MAX ? kp_types[type].size : 0;
}

/* Element size of @a, from its type or (bitfields) its slot. */
static uint32_t kp_elem_size(const struct kp_arg_desc *a)
{
	uint32_t n = a->count ? a->count : 1;

	if (a->type == KPMOD_T_BITFIELD)
		return a->size % n ? 0 : a->size / n;
	return kp_format_type_size(a->type);
}

int kp_probe_desc_check(const struct kp_probe_desc *p, char *err, size_t len)
{
	uint32_t i;

	if (p->kind < KPMOD_PROBE_ENTRY || p->kind > KPMOD_PROBE_URETPROBE) {
		snprintf(err, len, "probe %u: unknown kind %u", p->id, p->kind);
		return -EINVAL;
	}
	if (p->nargs > KPMOD_MAX_ARGS || p->args_size > KPMOD_MAX_FIXED_ARGS) {
		snprintf(err, len, "probe %u: %u arguments in %u bytes", p->id,
			 p->nargs, p->args_size);
		return -EINVAL;
	}
	for (i = 0; i < p->nargs; i++) {
		const struct kp_arg_desc *a = &p->args[i];
		uint32_t es = kp_elem_size(a), n = a->count ? a->count : 1;

		if (!a->type || a->type >= __KPMOD_T_MAX) {
			snprintf(err, len, "probe %u argument %u: unknown type %u",
				 p->id, i, a->type);
			return -EINVAL;
		}
		if (a->count > KPMOD_MAX_ARRAY_LEN || !es ||
		    (es != 1 && es != 2 && es != 4 && es != 8) ||
		    a->size != es * n || a->offset % es ||
		    a->offset > p->args_size || a->size > p->args_size - a->offset) {
			snprintf(err, len,
				 "probe %u argument %u: bad slot (%s, count %u, offset %u, size %u, area %u)",
				 p->id, i, kp_types[a->type].name, a->count,
				 a->offset, a->size, p->args_size);
			return -EINVAL;
		}
	}
	return 0;
}

const struct kp_probe_desc *kp_probe_find(const struct kp_probe_desc *probes,
					  size_t n, uint32_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (probes[i].id == id)
			return &probes[i];
	return NULL;
}

/* ---- reading a record ---- */

struct kp_view {
	const struct kpmod_record *rec;
	const uint8_t *faults;	/* fault bitmap */
	const uint8_t *slots;	/* argument area */
};

/* Checks the record is long enough for @p's fixed layout. */
static int kp_view_init(struct kp_view *v, const struct kpmod_record *rec,
			const struct kp_probe_desc *p)
{
	uint64_t need = sizeof(*rec);

	v->rec = rec;
	v->faults = (const uint8_t *)(rec + 1);
	if (p) {
		need += KPMOD_FAULT_BITMAP_SIZE(p->nargs) + ((p->args_size + 7) & ~7u);
		v->slots = v->faults + KPMOD_FAULT_BITMAP_SIZE(p->nargs);
	}
	return rec->len < need ? -EBADMSG : 0;
}

static uint64_t get_uint(const uint8_t *p, uint32_t size)
{
	uint8_t v8;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (size) {
	case 1: memcpy(&v8, p, 1); return v8;
	case 2: memcpy(&v16, p, 2); return v16;
	case 4: memcpy(&v32, p, 4); return v32;
	default: memcpy(&v64, p, 8); return v64;
	}
}

static int64_t get_int(const uint8_t *p, uint32_t size)
{
	uint64_t v = get_uint(p, size);
	unsigned int shift = 64 - size * 8;

	return (int64_t)(v << shift) >> shift;
}

/* A string's bytes from its data location; 0 with *len 0 for a fault. */
static int get_string(const struct kp_view *v, const uint8_t *slot,
		      const char **s, size_t *len)
{
	uint32_t loc = (uint32_t)get_uint(slot, 4);
	uint32_t n = KPMOD_DATA_LOC_LEN(loc), off = KPMOD_DATA_LOC_OFF(loc);
	const char *nul;

	*len = 0;
	*s = NULL;
	if (!n)
		return 0;
	if (off < sizeof(*v->rec) || off > v->rec->len || n > v->rec->len - off)
		return -EBADMSG;
	*s = (const char *)v->rec + off;
	/* Printed as %s: up to the NUL. */
	nul = memchr(*s, '\0', n);
	*len = nul ? (size_t)(nul - *s) : n;
	return 0;
}

static bool arg_faulted(const struct kp_view *v, uint32_t i)
{
	return kpmod_fault_test(v->faults, i);
}

/* ---- text ---- */

static int text_value(struct sb *b, const struct kp_view *v,
		      const struct kp_arg_desc *a, const uint8_t *p,
		      const struct kp_ksyms *ks)
{
	uint32_t es = kp_elem_size(a);
	const char *s;
	size_t n;
	char sym[KPMOD_MAX_SYMBOL_LEN + KPMOD_MAX_MODULE_LEN + 48];

	switch (a->type) {
	case KPMOD_T_U8: case KPMOD_T_U16: case KPMOD_T_U32: case KPMOD_T_U64:
	case KPMOD_T_BITFIELD:
		sb_put_u64(b, get_uint(p, es), 0);
		return 0;
	case KPMOD_T_S8: case KPMOD_T_S16: case KPMOD_T_S32: case KPMOD_T_S64:
		sb_put_s64(b, get_int(p, es));
		return 0;
	case KPMOD_T_X8: case KPMOD_T_X16: case KPMOD_T_X32: case KPMOD_T_X64:
		sb_put_hex(b, get_uint(p, es));
		return 0;
	case KPMOD_T_CHAR:
		sb_putc(b, '\'');
		sb_put_text(b, (const char *)p, 1);
		sb_putc(b, '\'');
		return 0;
	case KPMOD_T_SYMBOL:
		kp_ksyms_snprint(ks, get_uint(p, 8), true, sym, sizeof(sym));
		sb_printf(b, "%s", sym);
		return 0;
	case KPMOD_T_SYMSTR:
		/* The kernel makes it a string at the hit; the text is the same. */
		kp_ksyms_snprint(ks, get_uint(p, 8), true, sym, sizeof(sym));
		sb_printf(b, "\"%s\"", sym);
		return 0;
	default:	/* strings */
		if (get_string(v, p, &s, &n))
			return -EBADMSG;
		if (!s) {
			sb_printf(b, "(fault)");
			return 0;
		}
		/* As ftrace, but what could forge a line is escaped. */
		sb_putc(b, '"');
		sb_put_text(b, s, n);
		sb_putc(b, '"');
		return 0;
	}
}

/* The arguments as ftrace prints them (walk_args(), below with JSON's). */
static int text_args(struct sb *b, const struct kp_view *v,
		     const struct kp_probe_desc *p, const struct kp_ksyms *ks);

/* seq_print_ip_sym(): "0" for a zero address. */
/*
 * A return address that is a kretprobe trampoline (another return probe
 * on the same function got there first) prints as ftrace prints it.
 */
static bool is_kretprobe_trampoline(const struct kp_ksyms *ks, uint64_t ip)
{
	static const char *const names[] = {
		"__kretprobe_trampoline", "kretprobe_trampoline",
		"arch_rethook_trampoline",
	};
	const struct kp_sym *s;
	uint64_t off, size;
	size_t i;

	s = kp_ksyms_lookup(ks, ip, &off, &size);
	if (!s || off)
		return false;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s->name, names[i]))
			return true;
	return false;
}

/*
 * The text of the addresses met last, by address: a probe's events share
 * one address (a return probe's, a few), and finding and printing its
 * symbol was a fifth of a reader's time.
 */
#define IP_CACHE_SIZE 64

struct ip_text {
	unsigned long gen;	/* the symbols' (kp_ksyms.gen); 0: empty */
	uint64_t ip;
	bool with_offset;
	size_t len;
	char text[KPMOD_MAX_SYMBOL_LEN + KPMOD_MAX_MODULE_LEN + 48];
};

static __thread struct ip_text ip_cache[IP_CACHE_SIZE];

static void ip_text_make(struct ip_text *t, const struct kp_ksyms *ks, uint64_t ip,
			 bool with_offset)
{
	int n;

	t->gen = ks ? ks->gen : 0;
	t->ip = ip;
	t->with_offset = with_offset;
	if (!ip) {
		n = snprintf(t->text, sizeof(t->text), "0");
	} else if (is_kretprobe_trampoline(ks, ip)) {
		n = snprintf(t->text, sizeof(t->text), "[unknown/kretprobe'd]");
	} else {
		n = kp_ksyms_snprint(ks, ip, with_offset, t->text, sizeof(t->text));
	}
	t->len = n < 0 ? 0 : (size_t)n < sizeof(t->text) ? (size_t)n : sizeof(t->text) - 1;
}

static void text_ip(struct sb *b, const struct kp_ksyms *ks, uint64_t ip,
		    bool with_offset)
{
	struct ip_text *t = &ip_cache[((ip >> 4) ^ (ip >> 12) ^ with_offset) % IP_CACHE_SIZE];
	struct ip_text one;

	if (!ks || !ks->gen) {
		t = &one;
		ip_text_make(t, ks, ip, with_offset);
	} else if (t->gen != ks->gen || t->ip != ip || t->with_offset != with_offset) {
		ip_text_make(t, ks, ip, with_offset);
	}
	sb_put(b, t->text, t->len);
}

/* The task's name as text: escaped, then padded as ftrace pads it. */
static void rec_comm(const struct kpmod_record *rec, char comm[KP_ESCAPED_MAX(16) + 1])
{
	if (!rec->pid) {
		strcpy(comm, "<idle>");	/* as trace_find_cmdline() */
		return;
	}
	comm[kp_escape_text(comm, rec->comm, strnlen(rec->comm, 16))] = '\0';
}

static bool rec_is_return(const struct kpmod_record *rec,
			  const struct kp_probe_desc *p)
{
	return p ? kp_kind_is_return(p->kind) : rec->flags & KPMOD_RECF_RETURN;
}

/* The context ftrace prints before every entry: task-pid [cpu] flags time: */
static void text_context(struct sb *b, const struct kpmod_record *rec)
{
	/* ftrace rounds to microseconds: ns2usecs() adds 500 first. */
	unsigned long long us = (rec->ts_ns + 500) / 1000;
	char comm[KP_ESCAPED_MAX(16) + 1], num[24], *e = num + sizeof(num), *d;

	/* "%16s-%-7u [%03u] ..... %5llu.%06llu: " */
	rec_comm(rec, comm);
	sb_put_right(b, comm, strlen(comm), 16);
	sb_putc(b, '-');
	d = u64_digits(e, rec->pid);
	sb_put(b, d, e - d);
	if (e - d < 7)
		sb_pad(b, 7 - (e - d));
	sb_puts(b, " [");
	sb_put_u64(b, rec->cpu, 3);
	sb_puts(b, "] ..... ");
	d = u64_digits(e, us / 1000000);
	sb_put_right(b, d, e - d, 5);
	sb_putc(b, '.');
	sb_put_u64(b, us % 1000000, 6);
	sb_puts(b, ": ");
}

int kp_format_text(FILE *out, const struct kpmod_record *rec,
		   const struct kp_probe_desc *p, const struct kp_ksyms *ks)
{
	struct kp_view v;
	struct sb b;
	int ret;

	if (kp_view_init(&v, rec, p))
		return -EBADMSG;
	sb_init(&b);
	text_context(&b, rec);
	if (p) {
		sb_puts(&b, p->event);
	} else {
		sb_puts(&b, "probe_");
		sb_put_u64(&b, rec->probe_id, 0);
	}
	sb_puts(&b, ": (");
	if (p && kp_kind_is_uprobe(p->kind)) {
		/* As trace_uprobe.c prints: addresses in the process, in hex. */
		sb_put_hex(&b, rec_is_return(rec, p) ? rec->ret_ip : rec->ip);
		if (rec_is_return(rec, p)) {
			sb_puts(&b, " <- ");
			sb_put_hex(&b, rec->ip);
		}
	} else if (rec_is_return(rec, p)) {
		text_ip(&b, ks, rec->ret_ip, true);
		sb_puts(&b, " <- ");
		text_ip(&b, ks, rec->ip, false);
	} else {
		text_ip(&b, ks, rec->ip, true);
	}
	sb_putc(&b, ')');
	ret = p ? text_args(&b, &v, p, ks) : 0;
	sb_putc(&b, '\n');
	return sb_flush(&b, out, ret);
}

void kp_format_lost(FILE *out, unsigned int cpu, uint64_t lost)
{
	fprintf(out, "CPU:%u [LOST %llu EVENTS]\n", cpu, (unsigned long long)lost);
}

void kp_format_lost_json(FILE *out, unsigned int cpu, uint64_t lost)
{
	fprintf(out, "{\"cpu\":%u,\"lost\":%llu}\n", cpu, (unsigned long long)lost);
}

/* ---- JSON ---- */

/*
 * Kernel strings are bytes: valid UTF-8 passes through, and any other byte
 * (like a control character) becomes \u00XX, so the output is always JSON.
 */
static void sb_json_string(struct sb *b, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, n;

	sb_putc(b, '"');
	while (i < len) {
		unsigned char c = u[i];

		if (c >= 0x80 && (n = kp_utf8_len(u + i, len - i))) {
			sb_put(b, s + i, n);
			i += n;
			continue;
		}
		switch (c) {
		case '"': sb_put(b, "\\\"", 2); break;
		case '\\': sb_put(b, "\\\\", 2); break;
		case '\n': sb_put(b, "\\n", 2); break;
		case '\t': sb_put(b, "\\t", 2); break;
		case '\r': sb_put(b, "\\r", 2); break;
		default:
			if (c < 0x20 || c >= 0x7f)
				sb_printf(b, "\\u%04x", c);
			else
				sb_putc(b, (char)c);
		}
		i++;
	}
	sb_putc(b, '"');
}

void kp_json_string(FILE *out, const char *s, size_t len)
{
	struct sb b;

	sb_init(&b);
	sb_json_string(&b, s, len);
	sb_flush(&b, out, 0);
}

static int json_value(struct sb *b, const struct kp_view *v,
		      const struct kp_arg_desc *a, const uint8_t *p,
		      const struct kp_ksyms *ks)
{
	uint32_t es = kp_elem_size(a);
	char sym[KPMOD_MAX_SYMBOL_LEN + KPMOD_MAX_MODULE_LEN + 48];
	const char *s;
	size_t n;

	switch (a->type) {
	case KPMOD_T_CHAR:
		sb_json_string(b, (const char *)p, 1);
		return 0;
	case KPMOD_T_SYMBOL: case KPMOD_T_SYMSTR:
		kp_ksyms_snprint(ks, get_uint(p, 8), true, sym, sizeof(sym));
		sb_json_string(b, sym, strlen(sym));
		return 0;
	case KPMOD_T_X8: case KPMOD_T_X16: case KPMOD_T_X32: case KPMOD_T_X64:
		sb_printf(b, "\"0x%llx\"", (unsigned long long)get_uint(p, es));
		return 0;
	case KPMOD_T_STRING: case KPMOD_T_USTRING:
		if (get_string(v, p, &s, &n))
			return -EBADMSG;
		if (!s)
			sb_printf(b, "null");
		else
			sb_json_string(b, s, n);
		return 0;
	default:	/* numbers: the text form is valid JSON */
		return text_value(b, v, a, p, ks);
	}
}

/* ---- the argument walk, one for both forms ---- */

typedef int (*kp_value_fn)(struct sb *b, const struct kp_view *v, const struct kp_arg_desc *a,
			   const uint8_t *p, const struct kp_ksyms *ks);

/* How a form writes a record's arguments around their values. */
struct kp_arg_form {
	const char *open, *close;	/* around the list */
	char lead;			/* before every argument */
	char sep;			/* between two arguments */
	bool quote_name;		/* the name as a JSON string */
	char assign;			/* between the name and the value */
	const char *fault;		/* a value the probe could not read */
	char arr_open, arr_sep, arr_close;	/* around and between elements */
	kp_value_fn value;
};

/* ftrace's " name=value" and "{a,b}" */
static const struct kp_arg_form kp_text_form = {
	.open = "", .close = "", .lead = ' ', .assign = '=', .fault = "(fault)",
	.arr_open = '{', .arr_sep = ',', .arr_close = '}', .value = text_value,
};

/* ,"args":{"name":value,...} and [a,b] */
static const struct kp_arg_form kp_json_form = {
	.open = ",\"args\":{", .close = "}", .sep = ',', .quote_name = true, .assign = ':',
	.fault = "null", .arr_open = '[', .arr_sep = ',', .arr_close = ']', .value = json_value,
};

/*
 * Every argument of @p in the record @v, as @f says.  Inlined with the
 * form a constant: each caller gets its own walk, no call through @f.
 */
static inline __attribute__((always_inline)) int
walk_args(struct sb *b, const struct kp_view *v, const struct kp_probe_desc *p,
	  const struct kp_ksyms *ks, const struct kp_arg_form *f)
{
	uint32_t i, j;

	if (*f->open)
		sb_puts(b, f->open);
	for (i = 0; i < p->nargs; i++) {
		const struct kp_arg_desc *a = &p->args[i];
		const uint8_t *slot = v->slots + a->offset;
		uint32_t es = kp_elem_size(a);

		if (f->lead)
			sb_putc(b, f->lead);
		if (f->sep && i)
			sb_putc(b, f->sep);
		if (f->quote_name)
			sb_json_string(b, a->name, strlen(a->name));
		else
			sb_puts(b, a->name);
		sb_putc(b, f->assign);
		if (arg_faulted(v, i)) {
			sb_puts(b, f->fault);
			continue;
		}
		if (!a->count) {
			if (f->value(b, v, a, slot, ks))
				return -EBADMSG;
			continue;
		}
		sb_putc(b, f->arr_open);
		for (j = 0; j < a->count; j++) {
			if (j)
				sb_putc(b, f->arr_sep);
			if (f->value(b, v, a, slot + j * es, ks))
				return -EBADMSG;
		}
		sb_putc(b, f->arr_close);
	}
	if (*f->close)
		sb_puts(b, f->close);
	return 0;
}

static int text_args(struct sb *b, const struct kp_view *v,
		     const struct kp_probe_desc *p, const struct kp_ksyms *ks)
{
	return walk_args(b, v, p, ks, &kp_text_form);
}

static int json_args(struct sb *b, const struct kp_view *v,
		     const struct kp_probe_desc *p, const struct kp_ksyms *ks)
{
	return walk_args(b, v, p, ks, &kp_json_form);
}

/* "group" and "event" of a record's probe, or its id when unknown. */
static void json_probe(struct sb *b, const struct kpmod_record *rec, const struct kp_probe_desc *p)
{
	if (p) {
		sb_printf(b, ",\"group\":");
		sb_json_string(b, p->group, strlen(p->group));
		sb_printf(b, ",\"event\":");
		sb_json_string(b, p->event, strlen(p->event));
	} else {
		sb_printf(b, ",\"group\":null,\"event\":\"probe_%u\"", rec->probe_id);
	}
}

/* What every JSON record starts with: time, CPU, task, its probe and id. */
static void json_context(struct sb *b, const struct kpmod_record *rec,
			 const struct kp_probe_desc *p)
{
	char comm[17];

	memcpy(comm, rec->comm, 16);
	comm[16] = '\0';
	sb_printf(b, "{\"ts\":%llu.%09llu,\"cpu\":%u,\"task\":",
		  (unsigned long long)(rec->ts_ns / 1000000000),
		  (unsigned long long)(rec->ts_ns % 1000000000), rec->cpu);
	sb_json_string(b, comm, strlen(comm));
	sb_printf(b, ",\"pid\":%u,\"tgid\":%u", rec->pid, rec->tgid);
	json_probe(b, rec, p);
	sb_printf(b, ",\"probe_id\":%u", rec->probe_id);
}

static void json_sym(struct sb *b, const char *key, const struct kp_ksyms *ks,
		     uint64_t addr, bool with_offset)
{
	char sym[KPMOD_MAX_SYMBOL_LEN + KPMOD_MAX_MODULE_LEN + 48];

	kp_ksyms_snprint(ks, addr, with_offset, sym, sizeof(sym));
	sb_printf(b, ",\"%s\":", key);
	sb_json_string(b, sym, strlen(sym));
}

int kp_format_json(FILE *out, const struct kpmod_record *rec,
		   const struct kp_probe_desc *p, const struct kp_ksyms *ks)
{
	bool ret_probe = rec_is_return(rec, p), user = p && kp_kind_is_uprobe(p->kind);
	struct kp_view v;
	struct sb b;
	int ret = 0;

	if (kp_view_init(&v, rec, p))
		return -EBADMSG;
	sb_init(&b);
	json_context(&b, rec, p);
	sb_printf(&b, ",\"kind\":\"%s\",\"ip\":\"0x%llx\"",
		  ret_probe ? "return" : "entry", (unsigned long long)rec->ip);
	/* A uprobe's addresses are the process': no kernel symbol names them. */
	json_sym(&b, "func", user ? NULL : ks, rec->ip, !ret_probe);
	if (ret_probe) {
		sb_printf(&b, ",\"caller_ip\":\"0x%llx\"",
			  (unsigned long long)rec->ret_ip);
		json_sym(&b, "caller", user ? NULL : ks, rec->ret_ip, true);
	}
	if (p)
		ret = json_args(&b, &v, p, ks);
	sb_printf(&b, "}\n");
	return sb_flush(&b, out, ret);
}

int kp_format_stack_text(FILE *out, const struct kpmod_record *rec, const struct kp_ksyms *ks)
{
	const struct kpmod_stack_rec *st = (const void *)rec;
	char sym[KPMOD_MAX_SYMBOL_LEN + KPMOD_MAX_MODULE_LEN + 48];
	struct sb b;
	uint32_t i;

	sb_init(&b);
	text_context(&b, rec);
	sb_printf(&b, "<stack trace>\n");
	/* As trace_stack_print() with the sym-offset option: one frame a line. */
	for (i = 0; i < st->nr; i++) {
		kp_ksyms_snprint(ks, st->frames[i], true, sym, sizeof(sym));
		sb_printf(&b, " => %s\n", sym);
	}
	return sb_flush(&b, out, 0);
}

int kp_format_stack_json(FILE *out, const struct kpmod_record *rec,
			 const struct kp_probe_desc *p, const struct kp_ksyms *ks)
{
	const struct kpmod_stack_rec *st = (const void *)rec;
	char sym[KPMOD_MAX_SYMBOL_LEN + KPMOD_MAX_MODULE_LEN + 48];
	struct sb b;
	uint32_t i;

	sb_init(&b);
	json_context(&b, rec, p);
	sb_printf(&b, ",\"kind\":\"stack\",\"stack\":[");
	for (i = 0; i < st->nr; i++) {
		kp_ksyms_snprint(ks, st->frames[i], true, sym, sizeof(sym));
		sb_printf(&b, "%s{\"ip\":\"0x%llx\",\"sym\":", i ? "," : "",
			  (unsigned long long)st->frames[i]);
		sb_json_string(&b, sym, strlen(sym));
		sb_putc(&b, '}');
	}
	sb_printf(&b, "]}\n");
	return sb_flush(&b, out, 0);
}

int kp_format_addrs(const struct kpmod_record *rec, const struct kp_probe_desc *p,
		    kp_addr_fn fn, void *arg)
{
	struct kp_view v;
	uint32_t i, j;

	if (rec->type == KPMOD_REC_STACK) {
		const struct kpmod_stack_rec *st = (const void *)rec;

		for (i = 0; i < st->nr; i++)
			if (st->frames[i])
				fn(st->frames[i], arg);
		return 0;
	}
	if (kp_view_init(&v, rec, p))
		return -EBADMSG;
	/* A uprobe's addresses are the process': no kernel symbol names them. */
	if (!p || !kp_kind_is_uprobe(p->kind)) {
		if (rec->ip)
			fn(rec->ip, arg);
		if (rec_is_return(rec, p) && rec->ret_ip)
			fn(rec->ret_ip, arg);
	}
	for (i = 0; p && i < p->nargs; i++) {
		const struct kp_arg_desc *a = &p->args[i];
		uint32_t es = kp_elem_size(a);

		if ((a->type != KPMOD_T_SYMBOL && a->type != KPMOD_T_SYMSTR) ||
		    arg_faulted(&v, i))
			continue;
		for (j = 0; j < (a->count ? a->count : 1); j++) {
			uint64_t addr = get_uint(v.slots + a->offset + j * es, 8);

			if (addr)
				fn(addr, arg);
		}
	}
	return 0;
}
