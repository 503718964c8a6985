// SPDX-License-Identifier: GPL-2.0
/*
 * USDT markers from .note.stapsdt.  Each note (owner "stapsdt", type 3)
 * describes one marker: its pc, the link-time address of .stapsdt.base
 * and the semaphore's address (each as wide as the file's addresses),
 * then three NUL-terminated strings: provider, name, argument specs.
 */
#include <elf.h>
#include <endian.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "usdt.h"

#define KP_NT_STAPSDT 3
#define KP_STAPSDT_ADDRS 3

static uint32_t get32(const char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static uint64_t get64(const char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

struct note {
	uint32_t namesz;
	uint32_t descsz;
	uint32_t type;
	const char *name;
	const char *desc;
};

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* The note at *@off of @d (@size bytes); moves *@off past it. */
static int next_note(const char *d, uint64_t size, uint64_t align, uint64_t *off,
		     struct note *n)
{
	uint64_t p = *off, desc;

	if (size - p < 12)
		return -ENOEXEC;
	n->namesz = get32(d + p);
	n->descsz = get32(d + p + 4);
	n->type = get32(d + p + 8);
	p += 12;
	if (n->namesz > size - p)
		return -ENOEXEC;
	n->name = d + p;
	desc = align_up(p + n->namesz, align);
	if (desc > size || n->descsz > size - desc)
		return -ENOEXEC;
	n->desc = d + desc;
	p = align_up(desc + n->descsz, align);
	*off = p < size ? p : size;
	return 0;
}

/* The next NUL-terminated string of [*@p, @end), or NULL. */
static const char *take_str(const char **p, const char *end)
{
	const char *s = *p, *nul = memchr(s, '\0', (size_t)(end - s));

	if (!nul)
		return NULL;
	*p = nul + 1;
	return s;
}

static int parse_desc(const struct note *n, struct kp_usdt *m, uint64_t *base)
{
	const char *p = n->desc + KP_STAPSDT_ADDRS * 8, *end = n->desc + n->descsz;
	const char *provider, *name, *args = "";

	if (n->descsz < KP_STAPSDT_ADDRS * 8)
		return -ENOEXEC;
	m->pc = get64(n->desc);
	*base = get64(n->desc + 8);
	m->sema = get64(n->desc + 16);
	provider = take_str(&p, end);
	name = provider ? take_str(&p, end) : NULL;
	if (!name)
		return -ENOEXEC;
	/* An old note may stop after the name: a marker without arguments. */
	if (p < end) {
		args = take_str(&p, end);
		if (!args)
			return -ENOEXEC;
	}
	m->provider = strdup(provider);
	m->name = strdup(name);
	m->args = strdup(args);
	if (!m->provider || !m->name || !m->args)
		return -ENOMEM;
	return 0;
}

/* Applies the prelink adjustment and finds the file offsets. */
static int place(const struct kp_elf *e, struct kp_usdt *m, uint64_t note_base,
		 char *err, size_t errlen)
{
	const struct kp_elf_sec *base = kp_elf_section(e, ".stapsdt.base");

	if (base && note_base) {
		m->pc += base->addr - note_base;
		if (m->sema)
			m->sema += base->addr - note_base;
	}
	if (kp_elf_vaddr_to_offset(e, m->pc, &m->offset) ||
	    !kp_elf_offset_exec(e, m->offset))
		return kp_elf_err(err, errlen, -ENOEXEC,
			    "marker %s:%s at 0x%llx: offset outside any executable segment",
			    m->provider, m->name, (unsigned long long)m->pc);
	if (m->sema && kp_elf_vaddr_to_offset(e, m->sema, &m->sema_offset))
		return kp_elf_err(err, errlen, -ENOEXEC,
			    "marker %s:%s: semaphore at 0x%llx outside any segment",
			    m->provider, m->name, (unsigned long long)m->sema);
	return 0;
}

static bool is_stapsdt(const struct note *n)
{
	return n->type == KP_NT_STAPSDT && n->namesz == sizeof("stapsdt") &&
	       !memcmp(n->name, "stapsdt", sizeof("stapsdt"));
}

/* Appends the marker of note @n to *@markers. */
static int add_marker(const struct kp_elf *e, const struct note *n,
		      struct kp_usdt **markers, size_t *count, char *err, size_t errlen)
{
	struct kp_usdt *m, *grown;
	uint64_t base;
	int ret;

	grown = realloc(*markers, (*count + 1) * sizeof(**markers));
	if (!grown)
		return kp_elf_err(err, errlen, -ENOMEM, "%s", strerror(ENOMEM));
	*markers = grown;
	m = &grown[*count];
	memset(m, 0, sizeof(*m));
	(*count)++;
	ret = parse_desc(n, m, &base);
	if (ret == -ENOMEM)
		return kp_elf_err(err, errlen, ret, "%s", strerror(ENOMEM));
	if (ret)
		return kp_elf_err(err, errlen, ret, ".note.stapsdt: a malformed marker note");
	return place(e, m, base, err, errlen);
}

static int read_notes(const struct kp_elf *e, const struct kp_elf_sec *sec, const char *d,
		      struct kp_usdt **markers, size_t *n, char *err, size_t errlen)
{
	uint64_t off = 0, align = sec->addralign == 8 ? 8 : 4;
	struct note note;
	int ret;

	while (off < sec->size) {
		if (next_note(d, sec->size, align, &off, &note))
			return kp_elf_err(err, errlen, -ENOEXEC,
				    ".note.stapsdt: a note runs past the end of the section");
		if (!is_stapsdt(&note))
			continue;
		ret = add_marker(e, &note, markers, n, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}

int kp_usdt_read(const struct kp_elf *e, struct kp_usdt **markers, size_t *n,
		 char *err, size_t errlen)
{
	const struct kp_elf_sec *sec = kp_elf_section(e, ".note.stapsdt");
	char *d;
	int ret;

	*markers = NULL;
	*n = 0;
	if (!sec)
		return 0;
	if (sec->type != SHT_NOTE)
		return kp_elf_err(err, errlen, -ENOEXEC, ".note.stapsdt is not a note section");
	ret = kp_elf_section_data(e, sec, &d);
	if (ret)
		return kp_elf_err(err, errlen, ret, ".note.stapsdt past the end of the file");
	ret = read_notes(e, sec, d, markers, n, err, errlen);
	free(d);
	if (ret) {
		kp_usdt_free(*markers, *n);
		*markers = NULL;
		*n = 0;
	}
	return ret;
}

void kp_usdt_free(struct kp_usdt *markers, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(markers[i].provider);
		free(markers[i].name);
		free(markers[i].args);
	}
	free(markers);
}

int kp_usdt_arg_next(const char **pos, char *spec, size_t len)
{
	const char *s = *pos, *start;
	int depth = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return 0;
	/* "[sp, 12]": a space inside brackets does not end the spec. */
	for (start = s; *s && (depth || (*s != ' ' && *s != '\t')); s++) {
		if (*s == '[' || *s == '(')
			depth++;
		else if ((*s == ']' || *s == ')') && depth)
			depth--;
	}
	*pos = s;
	if ((size_t)(s - start) >= len)
		return -E2BIG;
	memcpy(spec, start, (size_t)(s - start));
	spec[s - start] = '\0';
	return 1;
}
