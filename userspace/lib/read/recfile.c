// SPDX-License-Identifier: GPL-2.0
/* The record file: writer and validating reader (layout in recfile.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "crc.h"
#include "recfile.h"
#include "ring.h"

#define HDR_LEN		16
#define BLK_LEN		24
#define CHUNK_HDR_LEN	32
#define MAX_PAYLOAD	(1ULL << 30)	/* more is damage, not data */
#define READ_STEP	(64 * 1024)	/* a payload's first read; then doubled */

/* ---- encoding ---- */

struct enc {
	uint8_t *b;
	size_t len, cap;
	bool oom;
};

static void enc_put(struct enc *e, const void *p, size_t n)
{
	if (e->len + n > e->cap) {
		size_t cap = e->cap ? e->cap : 256;
		uint8_t *m;

		while (cap < e->len + n)
			cap *= 2;
		m = realloc(e->b, cap);
		if (!m) {
			e->oom = true;
			return;
		}
		e->b = m;
		e->cap = cap;
	}
	memcpy(e->b + e->len, p, n);
	e->len += n;
}

static void enc_le(struct enc *e, uint64_t v, unsigned int bytes)
{
	uint8_t b[8];
	unsigned int i;

	for (i = 0; i < bytes; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	enc_put(e, b, bytes);
}

static void enc_str(struct enc *e, const char *s)
{
	size_t n = strnlen(s, 0xffff);

	enc_le(e, n, 2);
	enc_put(e, s, n);
}

static void le_put(uint8_t *b, uint64_t v, unsigned int bytes)
{
	unsigned int i;

	for (i = 0; i < bytes; i++)
		b[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t le_get(const uint8_t *b, unsigned int bytes)
{
	uint64_t v = 0;

	while (bytes--)
		v = v << 8 | b[bytes];
	return v;
}

/* Writes one block: header, @n payload parts, padding. */
static int write_block(FILE *f, uint32_t type, const void *a, size_t alen,
		       const void *b, size_t blen)
{
	static const uint8_t zero[8];
	uint8_t h[BLK_LEN];
	uint64_t len = alen + blen;

	le_put(h, type, 4);
	le_put(h + 4, 0, 4);
	le_put(h + 8, len, 8);
	le_put(h + 16, kp_crc32c(kp_crc32c(0, a, alen), b, blen), 4);
	le_put(h + 20, kp_crc32c(0, h, 20), 4);
	if (fwrite(h, 1, BLK_LEN, f) != BLK_LEN ||
	    (alen && fwrite(a, 1, alen, f) != alen) ||
	    (blen && fwrite(b, 1, blen, f) != blen) ||
	    (len % 8 && fwrite(zero, 1, 8 - len % 8, f) != 8 - len % 8))
		return -EIO;
	return 0;
}

int kp_recfile_write_header(FILE *f, const struct kp_recinfo *info,
			    const struct kp_probe_desc *probes, size_t nprobes,
			    const char *ksyms, size_t ksyms_len)
{
	uint8_t h[HDR_LEN];
	struct enc e = { 0 };
	size_t i, j;
	int ret;

	memcpy(h, KP_RECFILE_MAGIC, 8);
	le_put(h + 8, KP_RECFILE_VERSION, 4);
	le_put(h + 12, 0, 4);
	if (fwrite(h, 1, HDR_LEN, f) != HDR_LEN)
		return -EIO;

	enc_le(&e, info->uapi_version, 4);
	enc_le(&e, info->nr_cpus, 4);
	enc_le(&e, info->buf_mode, 4);
	enc_le(&e, nprobes, 4);
	enc_le(&e, info->buf_size, 8);
	enc_le(&e, (ksyms ? 1 : 0) | (info->syms ? 2 : 0), 4);
	enc_le(&e, 0, 4);
	enc_str(&e, info->arch);
	enc_str(&e, info->release);
	enc_str(&e, info->module_version);
	ret = e.oom ? -ENOMEM : write_block(f, KP_BLK_INFO, e.b, e.len, NULL, 0);

	for (i = 0; !ret && i < nprobes; i++) {
		const struct kp_probe_desc *p = &probes[i];

		e.len = 0;
		enc_le(&e, p->id, 4);
		enc_le(&e, p->kind, 4);
		enc_le(&e, p->offset, 8);
		enc_le(&e, p->addr, 8);
		enc_le(&e, p->args_size, 4);
		enc_le(&e, p->nargs, 4);
		enc_str(&e, p->group);
		enc_str(&e, p->event);
		enc_str(&e, p->symbol);
		enc_str(&e, p->module);
		for (j = 0; j < p->nargs && j < KPMOD_MAX_ARGS; j++) {
			const struct kp_arg_desc *a = &p->args[j];

			enc_le(&e, a->type, 4);
			enc_le(&e, a->count, 4);
			enc_le(&e, a->offset, 4);
			enc_le(&e, a->size, 4);
			enc_str(&e, a->name);
		}
		ret = e.oom ? -ENOMEM : write_block(f, KP_BLK_PROBE, e.b, e.len, NULL, 0);
	}
	free(e.b);
	if (!ret && ksyms)
		ret = write_block(f, KP_BLK_KSYMS, ksyms, ksyms_len, NULL, 0);
	return ret;
}

int kp_recfile_write_syms(FILE *f, const struct kp_sym *syms, size_t n)
{
	struct enc e = { 0 };
	size_t i;
	int ret;

	enc_le(&e, n, 4);
	enc_le(&e, 0, 4);
	for (i = 0; i < n; i++) {
		enc_le(&e, syms[i].addr, 8);
		enc_le(&e, syms[i].size, 8);
		enc_str(&e, syms[i].name);
		enc_str(&e, syms[i].mod ? syms[i].mod : "");
	}
	ret = e.oom ? -ENOMEM : write_block(f, KP_BLK_SYMS, e.b, e.len, NULL, 0);
	free(e.b);
	return ret;
}

int kp_recfile_write_chunk(FILE *f, uint32_t cpu, uint64_t lost,
			   uint64_t overwritten, uint64_t nested,
			   const void *recs, size_t len)
{
	uint8_t h[CHUNK_HDR_LEN];

	le_put(h, cpu, 4);
	le_put(h + 4, 0, 4);
	le_put(h + 8, lost, 8);
	le_put(h + 16, overwritten, 8);
	le_put(h + 24, nested, 8);
	return write_block(f, KP_BLK_CHUNK, h, sizeof(h), recs, len);
}

int kp_recfile_write_end(FILE *f, uint64_t nchunks)
{
	uint8_t p[8];

	le_put(p, nchunks, 8);
	if (write_block(f, KP_BLK_END, p, sizeof(p), NULL, 0) || fflush(f))
		return -EIO;
	return 0;
}

/* ---- decoding ---- */

struct dec {
	const uint8_t *p;
	size_t len, pos;
	bool bad;
};

static uint64_t dec_le(struct dec *d, unsigned int bytes)
{
	uint64_t v;

	if (d->bad || d->len - d->pos < bytes) {
		d->bad = true;
		return 0;
	}
	v = le_get(d->p + d->pos, bytes);
	d->pos += bytes;
	return v;
}

static void dec_str(struct dec *d, char *dst, size_t size)
{
	size_t n = dec_le(d, 2);

	dst[0] = '\0';
	if (d->bad || d->len - d->pos < n || n >= size) {
		d->bad = true;
		return;
	}
	memcpy(dst, d->p + d->pos, n);
	dst[n] = '\0';
	d->pos += n;
}

static int kp_rf_fail(struct kp_recfile *r, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int kp_rf_fail(struct kp_recfile *r, int err, const char *fmt, ...)
{
	int n = snprintf(r->err, sizeof(r->err), "%s: ", r->name);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err + n, sizeof(r->err) - n, fmt, ap);
	va_end(ap);
	return err;
}

static const char *block_name(uint32_t type)
{
	switch (type) {
	case KP_BLK_INFO: return "info block";
	case KP_BLK_PROBE: return "probe block";
	case KP_BLK_KSYMS: return "symbol block";
	case KP_BLK_SYMS: return "symbols block";
	case KP_BLK_CHUNK: return "chunk";
	default: return "block";
	}
}

/* Reads exactly @n bytes; a short read is a truncation. */
static int read_exact(struct kp_recfile *r, void *buf, size_t n, uint64_t start,
		      const char *what)
{
	size_t got = fread(buf, 1, n, r->f);

	r->off += got;
	if (got == n)
		return 0;
	if (ferror(r->f))
		return kp_rf_fail(r, -EIO, "read error at byte %llu",
				  (unsigned long long)r->off);
	return kp_rf_fail(r, -EBADMSG, "truncated at byte %llu (in the %s at byte %llu)",
			  (unsigned long long)r->off, what,
			  (unsigned long long)start);
}

/*
 * Reads @len payload bytes into a malloc'd *payload (with room for a NUL
 * after them), the buffer growing as the bytes arrive: a damaged length
 * costs no more memory than the file holds, and reads as a truncation.
 */
static int read_payload(struct kp_recfile *r, uint8_t **payload, uint64_t len,
			uint64_t start, const char *what)
{
	uint8_t *b = NULL, *m;
	size_t have = 0, want;
	int ret;

	for (;;) {
		want = have ? 2 * have : READ_STEP;
		if (want > len)
			want = len;
		m = realloc(b, want + 1);
		if (!m) {
			free(b);
			return kp_rf_fail(r, -ENOMEM, "out of memory");
		}
		b = m;
		ret = read_exact(r, b + have, want - have, start, what);
		if (ret) {
			free(b);
			return ret;
		}
		have = want;
		if (have == len)
			break;
	}
	*payload = b;
	return 0;
}

/*
 * Reads one block into a malloc'd *payload.  Returns 1, 0 at a clean end
 * of file, or < 0 with r->err set.
 */
static int read_block(struct kp_recfile *r, uint32_t *type, uint8_t **payload,
		      uint64_t *len, uint64_t *start)
{
	uint8_t h[BLK_LEN], pad[8];
	size_t got;
	int ret;

	*start = r->off;
	*payload = NULL;
	got = fread(h, 1, BLK_LEN, r->f);
	r->off += got;
	if (!got && feof(r->f))
		return 0;
	if (got < BLK_LEN) {
		if (ferror(r->f))
			return kp_rf_fail(r, -EIO, "read error at byte %llu",
					  (unsigned long long)r->off);
		return kp_rf_fail(r, -EBADMSG,
				  "truncated at byte %llu (in a block header at byte %llu)",
				  (unsigned long long)r->off,
				  (unsigned long long)*start);
	}
	*type = (uint32_t)le_get(h, 4);
	*len = le_get(h + 8, 8);
	if (le_get(h + 20, 4) != r->csum(0, h, 20) || le_get(h + 4, 4))
		return kp_rf_fail(r, -EBADMSG, "corrupt block header at byte %llu",
				  (unsigned long long)*start);
	if (*len > MAX_PAYLOAD)
		return kp_rf_fail(r, -EBADMSG, "corrupt %s at byte %llu: %llu bytes long",
				  block_name(*type), (unsigned long long)*start,
				  (unsigned long long)*len);
	ret = read_payload(r, payload, *len, *start, block_name(*type));
	if (ret)
		return ret;
	if (*len % 8)
		ret = read_exact(r, pad, 8 - *len % 8, *start, block_name(*type));
	if (!ret && le_get(h + 16, 4) != r->csum(0, *payload, *len))
		ret = kp_rf_fail(r, -EBADMSG, "corrupt %s at byte %llu: checksum mismatch",
				 block_name(*type), (unsigned long long)*start);
	if (ret) {
		free(*payload);
		*payload = NULL;
		return ret;
	}
	return 1;
}

static int parse_info(struct kp_recfile *r, const uint8_t *p, uint64_t len,
		      uint64_t start)
{
	struct dec d = { p, len, 0, false };
	struct kp_recinfo *in = &r->info;
	uint32_t flags;

	in->uapi_version = (uint32_t)dec_le(&d, 4);
	in->nr_cpus = (uint32_t)dec_le(&d, 4);
	in->buf_mode = (uint32_t)dec_le(&d, 4);
	r->want_probes = (uint32_t)dec_le(&d, 4);
	in->buf_size = dec_le(&d, 8);
	flags = (uint32_t)dec_le(&d, 4);
	r->want_ksyms = flags & 1;
	in->syms = flags & 2;
	dec_le(&d, 4);
	dec_str(&d, in->arch, sizeof(in->arch));
	dec_str(&d, in->release, sizeof(in->release));
	dec_str(&d, in->module_version, sizeof(in->module_version));
	if (d.bad)
		return kp_rf_fail(r, -EBADMSG, "corrupt info block at byte %llu",
				  (unsigned long long)start);
	return 0;
}

static int parse_probe(struct kp_recfile *r, const uint8_t *p, uint64_t len,
		       uint64_t start)
{
	struct dec d = { p, len, 0, false };
	struct kp_probe_desc *pd, *m;
	char why[200];
	uint32_t i;

	m = realloc(r->probes, (r->nprobes + 1) * sizeof(*m));
	if (!m)
		return kp_rf_fail(r, -ENOMEM, "out of memory");
	r->probes = m;
	pd = &m[r->nprobes];
	memset(pd, 0, sizeof(*pd));
	pd->id = (uint32_t)dec_le(&d, 4);
	pd->kind = (uint32_t)dec_le(&d, 4);
	pd->offset = dec_le(&d, 8);
	pd->addr = dec_le(&d, 8);
	pd->args_size = (uint32_t)dec_le(&d, 4);
	pd->nargs = (uint32_t)dec_le(&d, 4);
	dec_str(&d, pd->group, sizeof(pd->group));
	dec_str(&d, pd->event, sizeof(pd->event));
	dec_str(&d, pd->symbol, sizeof(pd->symbol));
	dec_str(&d, pd->module, sizeof(pd->module));
	if (pd->nargs > KPMOD_MAX_ARGS)
		d.bad = true;
	for (i = 0; !d.bad && i < pd->nargs; i++) {
		struct kp_arg_desc *a = &pd->args[i];

		a->type = (uint32_t)dec_le(&d, 4);
		a->count = (uint32_t)dec_le(&d, 4);
		a->offset = (uint32_t)dec_le(&d, 4);
		a->size = (uint32_t)dec_le(&d, 4);
		dec_str(&d, a->name, sizeof(a->name));
	}
	if (d.bad || d.pos != d.len)
		return kp_rf_fail(r, -EBADMSG, "corrupt probe block at byte %llu",
				  (unsigned long long)start);
	if (kp_probe_desc_check(pd, why, sizeof(why)))
		return kp_rf_fail(r, -EBADMSG, "corrupt probe block at byte %llu: %s",
				  (unsigned long long)start, why);
	if (kp_probe_find(r->probes, r->nprobes, pd->id))
		return kp_rf_fail(r, -EBADMSG, "corrupt probe block at byte %llu: probe id %u twice",
				  (unsigned long long)start, pd->id);
	r->nprobes++;
	return 0;
}

/* A SYMS block: its symbols join r->syms. */
static int parse_syms(struct kp_recfile *r, const uint8_t *p, uint64_t len,
		      uint64_t start)
{
	struct dec d = { p, len, 0, false };
	char name[KPMOD_MAX_SYMBOL_LEN], mod[KPMOD_MAX_MODULE_LEN];
	uint32_t n = (uint32_t)dec_le(&d, 4), i;

	if (dec_le(&d, 4) || n > len / 20)	/* each takes 20 bytes at least */
		d.bad = true;
	for (i = 0; !d.bad && i < n; i++) {
		struct kp_sym *s;

		if (r->nsyms == r->syms_cap) {
			size_t cap = r->syms_cap ? 2 * r->syms_cap : 256;
			struct kp_sym *m = realloc(r->syms, cap * sizeof(*m));

			if (!m)
				return kp_rf_fail(r, -ENOMEM, "out of memory");
			r->syms = m;
			r->syms_cap = cap;
		}
		s = &r->syms[r->nsyms];
		memset(s, 0, sizeof(*s));
		s->type = 't';
		s->addr = dec_le(&d, 8);
		s->size = dec_le(&d, 8);
		dec_str(&d, name, sizeof(name));
		dec_str(&d, mod, sizeof(mod));
		if (d.bad || !name[0])
			break;
		s->name = strdup(name);
		s->mod = mod[0] ? strdup(mod) : NULL;
		if (!s->name || (mod[0] && !s->mod)) {
			free((char *)s->name);
			free((char *)s->mod);
			return kp_rf_fail(r, -ENOMEM, "out of memory");
		}
		r->nsyms++;
	}
	if (d.bad || i < n || d.pos != d.len)
		return kp_rf_fail(r, -EBADMSG, "corrupt symbols block at byte %llu",
				  (unsigned long long)start);
	return 0;
}

/* Takes @p: a chunk's payload becomes c->recs' buffer. */
static int parse_chunk(struct kp_recfile *r, uint8_t *p, uint64_t len,
		       uint64_t start, struct kp_chunk *c)
{
	const uint8_t *recs = p + CHUNK_HDR_LEN;
	size_t pos = 0, n = len - CHUNK_HDR_LEN;
	char why[96];

	if (len < CHUNK_HDR_LEN || le_get(p + 4, 4)) {
		free(p);
		return kp_rf_fail(r, -EBADMSG, "corrupt chunk at byte %llu: bad chunk header",
				  (unsigned long long)start);
	}
	while (pos < n) {
		int type;

		why[0] = '\0';
		type = kp_record_check(recs + pos, n - pos, why, sizeof(why));
		if (type != KPMOD_REC_EVENT && type != KPMOD_REC_STACK) {
			free(p);
			return kp_rf_fail(r, -EBADMSG, "corrupt chunk at byte %llu: record at byte %llu: %s",
					  (unsigned long long)start,
					  (unsigned long long)(start + BLK_LEN + CHUNK_HDR_LEN + pos),
					  why[0] ? why : "not an event");
		}
		pos += ((const struct kpmod_record *)(recs + pos))->len;
	}
	c->cpu = (uint32_t)le_get(p, 4);
	c->lost = le_get(p + 8, 8);
	c->overwritten = le_get(p + 16, 8);
	c->nested = le_get(p + 24, 8);
	/* Records stay 8-aligned: move them to the front of the buffer. */
	memmove(p, recs, n);
	c->recs = p;
	c->len = n;
	c->file_off = start;
	return 1;
}

/* The end block: it counts the chunks before it. */
static int parse_end(struct kp_recfile *r, const uint8_t *p, uint64_t len,
		     uint64_t start)
{
	if (len != 8 || le_get(p, 8) != r->nchunks)
		return kp_rf_fail(r, -EBADMSG, "corrupt end block at byte %llu",
				  (unsigned long long)start);
	r->ended = 1;
	return 0;
}

static int kp_recfile_open_blocks(struct kp_recfile *r, FILE *f, const char *name)
{
	uint8_t h[HDR_LEN], *p;
	uint64_t len, start;
	uint32_t type;
	bool info = false;
	int ret;

	memset(r, 0, sizeof(*r));
	r->f = f;
	r->name = name;
	ret = read_exact(r, h, HDR_LEN, 0, "file header");
	if (ret)
		return ret;
	if (memcmp(h, KP_RECFILE_MAGIC, 8))
		return kp_rf_fail(r, -EBADMSG, "not a kpmod record file");
	/* Version 1 is version 2 checksummed with CRC-32. */
	if (le_get(h + 8, 4) == 1)
		r->csum = kp_crc32;
	else if (le_get(h + 8, 4) == 2 || le_get(h + 8, 4) == KP_RECFILE_VERSION)
		r->csum = kp_crc32c;
	else
		return kp_rf_fail(r, -EBADMSG, "record file version %u, this kpmod reads versions 1 to %u",
				  (unsigned int)le_get(h + 8, 4), KP_RECFILE_VERSION);
	for (;;) {
		ret = read_block(r, &type, &p, &len, &start);
		if (ret < 0)
			return ret;
		if (!ret)
			break;
		ret = 0;
		if (!info && type != KP_BLK_INFO) {
			free(p);
			return kp_rf_fail(r, -EBADMSG, "corrupt file: no info block at byte %llu",
					  (unsigned long long)start);
		}
		switch (type) {
		case KP_BLK_INFO:
			ret = info ? kp_rf_fail(r, -EBADMSG, "corrupt file: second info block at byte %llu",
						(unsigned long long)start)
				   : parse_info(r, p, len, start);
			info = true;
			break;
		case KP_BLK_PROBE:
			ret = parse_probe(r, p, len, start);
			break;
		case KP_BLK_KSYMS:
			if (r->ksyms) {
				ret = kp_rf_fail(r, -EBADMSG, "corrupt file: second symbol block at byte %llu",
						 (unsigned long long)start);
				break;
			}
			p[len] = '\0';
			r->ksyms = (char *)p;
			r->ksyms_len = len;
			p = NULL;
			break;
		case KP_BLK_SYMS:
			ret = parse_syms(r, p, len, start);
			break;
		case KP_BLK_CHUNK:
		case KP_BLK_END:
			if (r->nprobes != r->want_probes ||
			    (r->want_ksyms && !r->ksyms)) {
				free(p);
				return kp_rf_fail(r, -EBADMSG,
						  "corrupt file: %zu of %u probes%s before byte %llu",
						  r->nprobes, r->want_probes,
						  r->want_ksyms && !r->ksyms ? ", no symbols" : "",
						  (unsigned long long)start);
			}
			if (type == KP_BLK_END) {
				ret = parse_end(r, p, len, start);
				free(p);
				return ret;
			}
			ret = parse_chunk(r, p, len, start, &r->chunk);
			if (ret < 0)
				return ret;
			r->have_chunk = 1;
			return 0;
		default:
			break;	/* a newer writer's block: skip it */
		}
		free(p);
		if (ret)
			return ret;
	}
	return kp_rf_fail(r, -EBADMSG, "truncated at byte %llu (%s)",
			  (unsigned long long)r->off,
			  info ? "in the header blocks" : "no info block");
}

int kp_recfile_open(struct kp_recfile *r, FILE *f, const char *name)
{
	int ret = kp_recfile_open_blocks(r, f, name);

	/* What the blocks before the bad one allocated goes; r->err stays. */
	if (ret)
		kp_recfile_close(r);
	return ret;
}

int kp_recfile_next(struct kp_recfile *r, struct kp_chunk *c)
{
	uint64_t len, start;
	uint32_t type;
	uint8_t *p;
	int ret;

	if (r->have_chunk) {
		*c = r->chunk;
		r->have_chunk = 0;
		r->nchunks++;
		return 1;
	}
	if (r->ended)
		return 0;
	for (;;) {
		ret = read_block(r, &type, &p, &len, &start);
		if (ret < 0)
			return ret;
		if (!ret)
			return kp_rf_fail(r, -EBADMSG,
					  "truncated at byte %llu (no end block: the recording was cut short)",
					  (unsigned long long)r->off);
		if (type == KP_BLK_CHUNK) {
			ret = parse_chunk(r, p, len, start, c);
			if (ret > 0)
				r->nchunks++;
			return ret;
		}
		if (type == KP_BLK_END) {
			ret = parse_end(r, p, len, start);
			free(p);
			return ret;
		}
		ret = type == KP_BLK_SYMS ? parse_syms(r, p, len, start) : 0;
		free(p);
		if (ret)
			return ret;
		if (type == KP_BLK_INFO || type == KP_BLK_PROBE || type == KP_BLK_KSYMS)
			return kp_rf_fail(r, -EBADMSG, "corrupt file: %s at byte %llu after the first chunk",
					  block_name(type), (unsigned long long)start);
	}
}

int kp_recfile_chunk_at(struct kp_recfile *r, uint64_t off, struct kp_chunk *c)
{
	uint64_t len, start;
	uint32_t type;
	uint8_t *p;
	int ret;

	clearerr(r->f);
	if (fseeko(r->f, (off_t)off, SEEK_SET))
		return kp_rf_fail(r, -errno, "cannot seek to byte %llu: %s",
				  (unsigned long long)off, strerror(errno));
	r->off = off;
	ret = read_block(r, &type, &p, &len, &start);
	if (!ret)
		ret = kp_rf_fail(r, -EBADMSG, "truncated at byte %llu (the file changed while read)",
				 (unsigned long long)r->off);
	if (ret < 0)
		return ret;
	if (type != KP_BLK_CHUNK) {
		free(p);
		return kp_rf_fail(r, -EBADMSG, "no chunk at byte %llu (the file changed while read)",
				  (unsigned long long)off);
	}
	return parse_chunk(r, p, len, start, c);
}

int kp_chunk_record(const struct kp_chunk *c, size_t *pos,
		    const struct kpmod_record **rec)
{
	if (*pos >= c->len)
		return 0;
	*rec = (const struct kpmod_record *)(c->recs + *pos);
	*pos += (*rec)->len;
	return 1;
}

void kp_chunk_free(struct kp_chunk *c)
{
	free(c->recs);
	c->recs = NULL;
	c->len = 0;
}

void kp_recfile_close(struct kp_recfile *r)
{
	size_t i;

	if (r->have_chunk)
		kp_chunk_free(&r->chunk);
	free(r->probes);
	free(r->ksyms);
	for (i = 0; i < r->nsyms; i++) {
		free((char *)r->syms[i].name);
		free((char *)r->syms[i].mod);
	}
	free(r->syms);
	r->syms = NULL;
	r->nsyms = r->syms_cap = 0;
	r->probes = NULL;
	r->ksyms = NULL;
	r->have_chunk = 0;
}
