/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small reader of 64-bit little-endian ELF files (x86_64 and arm64), for
 * what uprobes need: segments, sections, symbols.  It reads with pread and
 * checks every read against the file's size: a truncated or hostile file
 * gets an error, never a crash.
 */
#ifndef KPMOD_ELF_FILE_H
#define KPMOD_ELF_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A PT_LOAD program header. */
struct kp_elf_seg {
	uint64_t offset;
	uint64_t vaddr;
	uint64_t filesz;
	uint64_t memsz;
	uint32_t flags;		/* PF_X, PF_W, PF_R */
};

/* A section header. */
struct kp_elf_sec {
	const char *name;	/* "" when it has none */
	uint32_t type;
	uint32_t link;
	uint64_t flags;
	uint64_t addr;
	uint64_t offset;
	uint64_t size;
	uint64_t addralign;
	uint64_t entsize;
};

struct kp_elf {
	int fd;
	uint64_t size;		/* of the file */
	uint16_t type;		/* ET_EXEC, ET_DYN... */
	uint16_t machine;	/* EM_X86_64 or EM_AARCH64 */
	struct kp_elf_seg *segs;
	size_t nsegs;
	struct kp_elf_sec *secs;
	size_t nsecs;
	char *shstr;		/* the section names, NUL-terminated */
	size_t shstr_len;
};

/*
 * Opens and checks @path.  Returns 0, or a negative errno with a one-line
 * message in @err: -ENOENT and other open() errors (strerror's words),
 * -ENOEXEC "not an ELF file", "not a 64-bit little-endian ELF file",
 * "unsupported machine N", or what is truncated or out of bounds.
 */
int kp_elf_open(struct kp_elf *e, const char *path, char *err, size_t errlen);

/* Formats @fmt into @err (@errlen bytes) and returns @ret: errors' one line. */
int kp_elf_err(char *err, size_t errlen, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void kp_elf_close(struct kp_elf *e);

/* "x86_64", "arm64", or NULL for any other machine. */
const char *kp_elf_machine_name(uint16_t machine);

/* Reads @len bytes at @off; -ENOEXEC when they are not all in the file. */
int kp_elf_read(const struct kp_elf *e, uint64_t off, void *buf, size_t len);

/* The first section called @name, or NULL. */
const struct kp_elf_sec *kp_elf_section(const struct kp_elf *e, const char *name);

/*
 * A section's bytes, malloc'ed, with a NUL after them (string tables).
 * -ENOEXEC for SHT_NOBITS or a section past the end of the file.
 */
int kp_elf_section_data(const struct kp_elf *e, const struct kp_elf_sec *s, char **data);

/* Whether file offset @off lies in the file range of an executable PT_LOAD. */
bool kp_elf_offset_exec(const struct kp_elf *e, uint64_t off);

/* The PT_LOAD whose memory holds @vaddr, or NULL. */
const struct kp_elf_seg *kp_elf_seg_of(const struct kp_elf *e, uint64_t vaddr);

/* @vaddr's file offset through the PT_LOAD that holds it; -ENOENT if none. */
int kp_elf_vaddr_to_offset(const struct kp_elf *e, uint64_t vaddr, uint64_t *off);

/*
 * The value of the defined symbol @name, from .symtab, else .dynsym.
 * -ENOENT when neither has it, -ENOEXEC for a damaged table.
 */
int kp_elf_symbol(const struct kp_elf *e, const char *name, uint64_t *vaddr);

#endif
