// SPDX-License-Identifier: GPL-2.0
/* ELF64 little-endian files read with pread, every read bounds-checked. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_file.h"

/* Fields are read from bytes: the file's order, whatever the host's. */
static uint16_t le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)le16(p) | (uint32_t)le16(p + 2) << 16;
}

static uint64_t le64(const unsigned char *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

#define F16(buf, type, field) le16((buf) + offsetof(type, field))
#define F32(buf, type, field) le32((buf) + offsetof(type, field))
#define F64(buf, type, field) le64((buf) + offsetof(type, field))

int kp_elf_err(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return ret;
}

/* Whether [off, off + len) lies in a file of @size bytes. */
static bool in_file(uint64_t size, uint64_t off, uint64_t len)
{
	return off <= size && len <= size - off;
}

int kp_elf_read(const struct kp_elf *e, uint64_t off, void *buf, size_t len)
{
	size_t done = 0;
	ssize_t n;

	if (!in_file(e->size, off, len) || e->fd < 0)
		return -ENOEXEC;
	while (done < len) {
		n = pread(e->fd, (char *)buf + done, len - done, (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return -ENOEXEC;	/* shrank under us */
		done += (size_t)n;
	}
	return 0;
}

const char *kp_elf_machine_name(uint16_t machine)
{
	if (machine == EM_X86_64)
		return "x86_64";
	if (machine == EM_AARCH64)
		return "arm64";
	return NULL;
}

static int check_ident(struct kp_elf *e, const unsigned char *h, char *err, size_t errlen)
{
	if (e->size < EI_NIDENT || memcmp(h, ELFMAG, SELFMAG))
		return kp_elf_err(err, errlen, -ENOEXEC, "not an ELF file");
	if (h[EI_CLASS] != ELFCLASS64 || h[EI_DATA] != ELFDATA2LSB)
		return kp_elf_err(err, errlen, -ENOEXEC, "not a 64-bit little-endian ELF file");
	if (e->size < sizeof(Elf64_Ehdr))
		return kp_elf_err(err, errlen, -ENOEXEC, "truncated ELF header");
	e->type = F16(h, Elf64_Ehdr, e_type);
	e->machine = F16(h, Elf64_Ehdr, e_machine);
	if (!kp_elf_machine_name(e->machine))
		return kp_elf_err(err, errlen, -ENOEXEC, "unsupported machine %u", e->machine);
	return 0;
}

/* Reads @n entries of @entsize bytes at @off, checked, into a new buffer. */
static int read_table(struct kp_elf *e, uint64_t off, uint64_t n, uint64_t entsize,
		      unsigned char **buf)
{
	int ret;

	*buf = NULL;
	if (!n)
		return 0;
	if (n > e->size / entsize || !in_file(e->size, off, n * entsize))
		return -ENOEXEC;
	*buf = malloc(n * entsize);
	if (!*buf)
		return -ENOMEM;
	ret = kp_elf_read(e, off, *buf, n * entsize);
	if (ret) {
		free(*buf);
		*buf = NULL;
	}
	return ret;
}

static int read_segs(struct kp_elf *e, const unsigned char *h, char *err, size_t errlen)
{
	uint64_t off = F64(h, Elf64_Ehdr, e_phoff), i, n = F16(h, Elf64_Ehdr, e_phnum);
	unsigned char *tab, *p;
	int ret;

	if (n && F16(h, Elf64_Ehdr, e_phentsize) != sizeof(Elf64_Phdr))
		return kp_elf_err(err, errlen, -ENOEXEC, "bad program header size");
	ret = read_table(e, off, n, sizeof(Elf64_Phdr), &tab);
	if (ret)
		return kp_elf_err(err, errlen, ret, "program headers past the end of the file");
	e->segs = calloc(n ? n : 1, sizeof(*e->segs));
	if (!e->segs) {
		free(tab);
		return kp_elf_err(err, errlen, -ENOMEM, "%s", strerror(ENOMEM));
	}
	for (i = 0; i < n; i++) {
		struct kp_elf_seg *s = &e->segs[e->nsegs];

		p = tab + i * sizeof(Elf64_Phdr);
		if (F32(p, Elf64_Phdr, p_type) != PT_LOAD)
			continue;
		s->offset = F64(p, Elf64_Phdr, p_offset);
		s->vaddr = F64(p, Elf64_Phdr, p_vaddr);
		s->filesz = F64(p, Elf64_Phdr, p_filesz);
		s->memsz = F64(p, Elf64_Phdr, p_memsz);
		s->flags = F32(p, Elf64_Phdr, p_flags);
		e->nsegs++;
	}
	free(tab);
	return 0;
}

/* The section count and name table index, through section 0 past 0xff00. */
static int sec_counts(struct kp_elf *e, const unsigned char *h, uint64_t *n, uint32_t *strndx)
{
	unsigned char s0[sizeof(Elf64_Shdr)];
	uint64_t off = F64(h, Elf64_Ehdr, e_shoff);
	int ret;

	*n = F16(h, Elf64_Ehdr, e_shnum);
	*strndx = F16(h, Elf64_Ehdr, e_shstrndx);
	if (!off)
		return 0;
	if (F16(h, Elf64_Ehdr, e_shentsize) != sizeof(Elf64_Shdr))
		return -EINVAL;
	if (*n && *strndx != SHN_XINDEX)
		return 0;
	ret = kp_elf_read(e, off, s0, sizeof(s0));
	if (ret)
		return ret;
	if (!*n)
		*n = F64(s0, Elf64_Shdr, sh_size);
	if (*strndx == SHN_XINDEX)
		*strndx = F32(s0, Elf64_Shdr, sh_link);
	return 0;
}

static void fill_sec(struct kp_elf_sec *s, const unsigned char *p)
{
	s->name = "";
	s->type = F32(p, Elf64_Shdr, sh_type);
	s->link = F32(p, Elf64_Shdr, sh_link);
	s->flags = F64(p, Elf64_Shdr, sh_flags);
	s->addr = F64(p, Elf64_Shdr, sh_addr);
	s->offset = F64(p, Elf64_Shdr, sh_offset);
	s->size = F64(p, Elf64_Shdr, sh_size);
	s->addralign = F64(p, Elf64_Shdr, sh_addralign);
	s->entsize = F64(p, Elf64_Shdr, sh_entsize);
}

/* Reads the section name table, then points each section at its name. */
static int name_secs(struct kp_elf *e, const unsigned char *tab, uint32_t strndx,
		     char *err, size_t errlen)
{
	uint32_t off;
	size_t i;
	int ret;

	if (strndx == SHN_UNDEF || !e->nsecs)
		return 0;
	if (strndx >= e->nsecs)
		return kp_elf_err(err, errlen, -ENOEXEC, "section name table index %u out of range",
			    strndx);
	ret = kp_elf_section_data(e, &e->secs[strndx], &e->shstr);
	if (ret)
		return kp_elf_err(err, errlen, ret, "section name table past the end of the file");
	e->shstr_len = e->secs[strndx].size;
	for (i = 0; i < e->nsecs; i++) {
		off = F32(tab + i * sizeof(Elf64_Shdr), Elf64_Shdr, sh_name);
		e->secs[i].name = off < e->shstr_len ? e->shstr + off : "";
	}
	return 0;
}

static int read_secs(struct kp_elf *e, const unsigned char *h, char *err, size_t errlen)
{
	uint64_t n, i;
	uint32_t strndx;
	unsigned char *tab;
	int ret;

	ret = sec_counts(e, h, &n, &strndx);
	if (ret)
		return kp_elf_err(err, errlen, -ENOEXEC, "bad section headers");
	ret = read_table(e, F64(h, Elf64_Ehdr, e_shoff), n, sizeof(Elf64_Shdr), &tab);
	if (ret)
		return kp_elf_err(err, errlen, ret, "section headers past the end of the file");
	e->secs = calloc(n ? n : 1, sizeof(*e->secs));
	if (!e->secs) {
		free(tab);
		return kp_elf_err(err, errlen, -ENOMEM, "%s", strerror(ENOMEM));
	}
	e->nsecs = n;
	for (i = 0; i < n; i++)
		fill_sec(&e->secs[i], tab + i * sizeof(Elf64_Shdr));
	ret = name_secs(e, tab, strndx, err, errlen);
	free(tab);
	return ret;
}

static int open_file(struct kp_elf *e, const char *path, char *err, size_t errlen)
{
	struct stat st;

	e->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (e->fd < 0)
		return kp_elf_err(err, errlen, -errno, "%s", strerror(errno));
	if (fstat(e->fd, &st))
		return kp_elf_err(err, errlen, -errno, "%s", strerror(errno));
	if (S_ISDIR(st.st_mode))
		return kp_elf_err(err, errlen, -EISDIR, "%s", strerror(EISDIR));
	if (!S_ISREG(st.st_mode))
		return kp_elf_err(err, errlen, -ENOEXEC, "not a regular file");
	e->size = (uint64_t)st.st_size;
	return 0;
}

int kp_elf_open(struct kp_elf *e, const char *path, char *err, size_t errlen)
{
	unsigned char h[sizeof(Elf64_Ehdr)] = { 0 };
	int ret;

	memset(e, 0, sizeof(*e));
	ret = open_file(e, path, err, errlen);
	if (!ret) {
		ret = kp_elf_read(e, 0, h, e->size < sizeof(h) ? e->size : sizeof(h));
		if (ret)
			kp_elf_err(err, errlen, ret, "%s", strerror(-ret));
	}
	if (!ret)
		ret = check_ident(e, h, err, errlen);
	if (!ret)
		ret = read_segs(e, h, err, errlen);
	if (!ret)
		ret = read_secs(e, h, err, errlen);
	if (ret)
		kp_elf_close(e);
	return ret;
}

void kp_elf_close(struct kp_elf *e)
{
	if (e->fd >= 0)
		close(e->fd);
	free(e->segs);
	free(e->secs);
	free(e->shstr);
	memset(e, 0, sizeof(*e));
	e->fd = -1;
}

const struct kp_elf_sec *kp_elf_section(const struct kp_elf *e, const char *name)
{
	size_t i;

	for (i = 0; i < e->nsecs; i++)
		if (!strcmp(e->secs[i].name, name))
			return &e->secs[i];
	return NULL;
}

int kp_elf_section_data(const struct kp_elf *e, const struct kp_elf_sec *s, char **data)
{
	int ret;

	*data = NULL;
	if (s->type == SHT_NOBITS || !in_file(e->size, s->offset, s->size))
		return -ENOEXEC;
	*data = malloc(s->size + 1);
	if (!*data)
		return -ENOMEM;
	ret = kp_elf_read(e, s->offset, *data, s->size);
	if (ret) {
		free(*data);
		*data = NULL;
		return ret;
	}
	(*data)[s->size] = '\0';
	return 0;
}

bool kp_elf_offset_exec(const struct kp_elf *e, uint64_t off)
{
	size_t i;

	for (i = 0; i < e->nsegs; i++) {
		const struct kp_elf_seg *s = &e->segs[i];

		if ((s->flags & PF_X) && off >= s->offset && off - s->offset < s->filesz)
			return true;
	}
	return false;
}

const struct kp_elf_seg *kp_elf_seg_of(const struct kp_elf *e, uint64_t vaddr)
{
	size_t i;

	for (i = 0; i < e->nsegs; i++) {
		const struct kp_elf_seg *s = &e->segs[i];

		if (vaddr >= s->vaddr && vaddr - s->vaddr < s->memsz)
			return s;
	}
	return NULL;
}

int kp_elf_vaddr_to_offset(const struct kp_elf *e, uint64_t vaddr, uint64_t *off)
{
	const struct kp_elf_seg *s = kp_elf_seg_of(e, vaddr);

	if (!s)
		return -ENOENT;
	*off = vaddr - s->vaddr + s->offset;
	return 0;
}

/* Looks @name up in the symbol table @symtab (SHT_SYMTAB or SHT_DYNSYM). */
static int find_sym(const struct kp_elf *e, const struct kp_elf_sec *symtab,
		    const char *name, uint64_t *vaddr)
{
	const struct kp_elf_sec *strtab;
	char *syms = NULL, *strs = NULL;
	const unsigned char *p;
	uint64_t i, n;
	uint32_t off;
	int ret;

	if (symtab->link >= e->nsecs || (symtab->entsize && symtab->entsize != sizeof(Elf64_Sym)))
		return -ENOEXEC;
	strtab = &e->secs[symtab->link];
	ret = kp_elf_section_data(e, symtab, &syms);
	if (!ret)
		ret = kp_elf_section_data(e, strtab, &strs);
	n = symtab->size / sizeof(Elf64_Sym);
	for (i = 0; !ret && i < n; i++) {
		p = (const unsigned char *)syms + i * sizeof(Elf64_Sym);
		off = F32(p, Elf64_Sym, st_name);
		if (off >= strtab->size || strcmp(strs + off, name) ||
		    F16(p, Elf64_Sym, st_shndx) == SHN_UNDEF ||
		    ELF64_ST_TYPE(p[offsetof(Elf64_Sym, st_info)]) == STT_SECTION)
			continue;
		*vaddr = F64(p, Elf64_Sym, st_value);
		break;
	}
	if (!ret && i == n)
		ret = -ENOENT;
	free(syms);
	free(strs);
	return ret;
}

int kp_elf_symbol(const struct kp_elf *e, const char *name, uint64_t *vaddr)
{
	static const uint32_t types[] = { SHT_SYMTAB, SHT_DYNSYM };
	size_t t, i;
	int ret;

	for (t = 0; t < 2; t++) {
		for (i = 0; i < e->nsecs; i++) {
			if (e->secs[i].type != types[t])
				continue;
			ret = find_sym(e, &e->secs[i], name, vaddr);
			if (ret != -ENOENT)
				return ret;
		}
	}
	return -ENOENT;
}
