// SPDX-License-Identifier: GPL-2.0
/*
 * kpmod usdt: the ELF reader, .note.stapsdt markers and their arguments
 * as uprobe_events FETCHARGs.  Hand-made images (hostile ones among them)
 * and kpmod-utarget built for x86_64 and arm64, checked against readelf.
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "exitcode.h"
#include "usdt.h"
#include "suites.h"

KP_SUITE(usdt_suite)

#ifndef KP_USDT_FIXTURES
#define KP_USDT_FIXTURES "fixtures"
#endif

/* ---- Pure conversions: an ELF of the machine only. */

static const char *conv(uint16_t machine, const char *spec, int *ret)
{
	static char out[256], err[256];
	struct kp_elf e;

	memset(&e, 0, sizeof(e));
	e.fd = -1;
	e.machine = machine;
	*ret = kp_usdt_arg_fetch(&e, 0, spec, out, sizeof(out), err, sizeof(err));
	return *ret ? err : out;
}

static void conv_ok(uint16_t machine, const char *spec, const char *want)
{
	int ret;
	const char *got = conv(machine, spec, &ret);

	ck_assert_msg(!ret && !strcmp(got, want), "%s: got '%s' (%d), want '%s'",
		      spec, got, ret, want);
}

static void conv_err(uint16_t machine, const char *spec, const char *want)
{
	int ret;
	const char *got = conv(machine, spec, &ret);

	ck_assert_msg(ret < 0 && strstr(got, want), "%s: got '%s' (%d), want error '%s'",
		      spec, got, ret, want);
}

START_TEST(x86_64_arguments)
{
	static const char *const ok[][2] = {
		{ "-4@%eax", "%ax:s32" }, { "8@%rax", "%ax:u64" }, { "-8@%rbx", "%bx:s64" },
		{ "1@%al", "%ax:u8" }, { "2@%si", "%si:u16" }, { "8@%r12", "%r12:u64" },
		{ "-4@%r9d", "%r9:s32" }, { "2@%r10w", "%r10:u16" }, { "-1@%r15b", "%r15:s8" },
		{ "1@%dil", "%di:u8" }, { "4@%ecx", "%cx:u32" }, { "8@%rdx", "%dx:u64" },
		{ "8@%rsp", "%sp:u64" }, { "8@%rbp", "%bp:u64" }, { "8@%rip", "%ip:u64" },
		{ "-4@-4(%rbp)", "-4(%bp):s32" }, { "8@(%rdi)", "+0(%di):u64" },
		{ "-4@8(%rsp)", "+8(%sp):s32" }, { "4@0x10(%r8)", "+16(%r8):u32" },
		{ "8@$5", "\\5:u64" }, { "-4@$-3", "\\-3:s32" }, { "4@$0x20", "\\32:u32" },
	};
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		conv_ok(EM_X86_64, ok[i][0], ok[i][1]);
	conv_err(EM_X86_64, "8@(%rax,%rbx,8)", "indexed addressing not supported");
	conv_err(EM_X86_64, "8@16(%rax,%rbx,8)", "indexed addressing not supported");
	conv_err(EM_X86_64, "1@%ah", "high-byte register %ah");
	conv_err(EM_X86_64, "8@%xmm0", "unknown x86_64 register");
	conv_err(EM_X86_64, "8@%fs:8", "segment");
	conv_err(EM_X86_64, "8@16(%rip)", "without a symbol");
	conv_err(EM_X86_64, "8@sym(%rax)", "not supported");
	conv_err(EM_X86_64, "3@%rax", "bad size");
	conv_err(EM_X86_64, "%rax", "no SIZE@");
	conv_err(EM_X86_64, "8@", "no location");
	conv_err(EM_X86_64, "8@x0", "arm64 syntax");
	conv_err(EM_X86_64, "-4@[sp, 12]", "arm64 syntax");
	conv_err(EM_X86_64, "-4@5", "arm64 syntax");
	/* A %rip-relative symbol needs the file's symbol table: none here. */
	conv_err(EM_X86_64, "-8@ut_counter(%rip)", "symbol ut_counter not in");
}
END_TEST

START_TEST(arm64_arguments)
{
	static const char *const ok[][2] = {
		{ "8@x0", "%x0:u64" }, { "-4@w1", "%x1:s32" }, { "8@x30", "%x30:u64" },
		{ "-4@[sp, 12]", "+12(%sp):s32" }, { "8@[x29, -8]", "-8(%x29):u64" },
		{ "8@[x1]", "+0(%x1):u64" }, { "-4@5", "\\5:s32" }, { "8@[sp]", "+0(%sp):u64" },
		{ "-4@[sp, #80]", "+80(%sp):s32" }, { "-8@-3", "\\-3:s64" }, { "4@#7", "\\7:u32" },
		{ "8@sp", "%sp:u64" }, { "-4@wzr", "\\0:s32" },
	};
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		conv_ok(EM_AARCH64, ok[i][0], ok[i][1]);
	conv_err(EM_AARCH64, "8@[x0, :lo12:sym]", "not supported");
	conv_err(EM_AARCH64, "-8@[x21, #:lo12:.LANCHOR1]", ":lo12:.LANCHOR1");
	conv_err(EM_AARCH64, "8@[x0, x1]", "indexed addressing not supported");
	conv_err(EM_AARCH64, "8@x31", "unrecognised arm64 operand");
	conv_err(EM_AARCH64, "8@[x0, 8", "bad memory operand");
	conv_err(EM_AARCH64, "-4@%eax", "x86_64 syntax");
	conv_err(EM_AARCH64, "-4@-4(%rbp)", "x86_64 syntax");
	conv_err(EM_AARCH64, "8@$5", "x86_64 syntax");
	conv_err(EM_386, "8@%eax", "unsupported machine 3");
}
END_TEST

START_TEST(argument_lists_split_outside_brackets)
{
	const char *pos = "  -4@[sp, 12] 8@x0\t-8@-4(%rbp) ", *empty = "";
	char spec[16], tiny[4];

	ck_assert_int_eq(kp_usdt_arg_next(&pos, spec, sizeof(spec)), 1);
	ck_assert_str_eq(spec, "-4@[sp, 12]");
	ck_assert_int_eq(kp_usdt_arg_next(&pos, spec, sizeof(spec)), 1);
	ck_assert_str_eq(spec, "8@x0");
	ck_assert_int_eq(kp_usdt_arg_next(&pos, tiny, sizeof(tiny)), -E2BIG);
	ck_assert_int_eq(kp_usdt_arg_next(&pos, spec, sizeof(spec)), 0);
	ck_assert_int_eq(kp_usdt_arg_next(&empty, spec, sizeof(spec)), 0);
}
END_TEST

/* ---- Hand-made images. */

#define IMG_SIZE 0x1000
#define TEXT_VADDR 0x400000ULL		/* offset 0, whole file, R X */
#define DATA_OFF 0xc00ULL		/* R W, 0x402000 from its offset */
#define DATA_VADDR (0x402000ULL + DATA_OFF)
#define NOTE_OFF 0x200
#define SHSTR_OFF 0x400
#define STR_OFF 0x480
#define SYM_OFF 0x500
#define SH_OFF 0x600
#define BASE_ADDR 0x400f00ULL		/* .stapsdt.base */
#define COUNTER_VADDR (DATA_VADDR + 0x10)

enum { S_NULL, S_NOTE, S_BASE, S_SHSTR, S_SYMTAB, S_STRTAB, S_N };

struct img {
	unsigned char b[IMG_SIZE];
	size_t notes;		/* bytes of notes */
	char path[64];
};

static void put16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

static void put64(unsigned char *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static unsigned char *shdr(struct img *m, int i)
{
	return m->b + SH_OFF + i * sizeof(Elf64_Shdr);
}

#define SET(p, type, field, bits, v) put##bits((p) + offsetof(type, field), (v))

static void add_note(struct img *m, const char *provider, const char *name,
		     const char *args, uint64_t pc, uint64_t base, uint64_t sema)
{
	unsigned char *p = m->b + NOTE_OFF + m->notes;
	size_t lp = strlen(provider) + 1, ln = strlen(name) + 1, la = strlen(args) + 1;
	uint32_t descsz = (uint32_t)(24 + lp + ln + la);

	put32(p, 8);
	put32(p + 4, descsz);
	put32(p + 8, 3);
	memcpy(p + 12, "stapsdt", 8);
	put64(p + 20, pc);
	put64(p + 28, base);
	put64(p + 36, sema);
	memcpy(p + 44, provider, lp);
	memcpy(p + 44 + lp, name, ln);
	memcpy(p + 44 + lp + ln, args, la);
	m->notes += (20 + descsz + 3) & ~3U;
	SET(shdr(m, S_NOTE), Elf64_Shdr, sh_size, 64, m->notes);
}

static void set_sec(struct img *m, int i, uint32_t name, uint32_t type, uint64_t addr,
		    uint64_t off, uint64_t size)
{
	unsigned char *s = shdr(m, i);

	SET(s, Elf64_Shdr, sh_name, 32, name);
	SET(s, Elf64_Shdr, sh_type, 32, type);
	SET(s, Elf64_Shdr, sh_addr, 64, addr);
	SET(s, Elf64_Shdr, sh_offset, 64, off);
	SET(s, Elf64_Shdr, sh_size, 64, size);
	SET(s, Elf64_Shdr, sh_addralign, 64, 4);
}

static void set_phdr(struct img *m, int i, uint64_t off, uint64_t vaddr, uint64_t size,
		     uint32_t flags)
{
	unsigned char *p = m->b + sizeof(Elf64_Ehdr) + i * sizeof(Elf64_Phdr);

	SET(p, Elf64_Phdr, p_type, 32, PT_LOAD);
	SET(p, Elf64_Phdr, p_flags, 32, flags);
	SET(p, Elf64_Phdr, p_offset, 64, off);
	SET(p, Elf64_Phdr, p_vaddr, 64, vaddr);
	SET(p, Elf64_Phdr, p_filesz, 64, size);
	SET(p, Elf64_Phdr, p_memsz, 64, size + 0x100);
}

static void headers(struct img *m, uint16_t machine)
{
	unsigned char *h = m->b;

	memcpy(h, ELFMAG, SELFMAG);
	h[EI_CLASS] = ELFCLASS64;
	h[EI_DATA] = ELFDATA2LSB;
	h[EI_VERSION] = EV_CURRENT;
	SET(h, Elf64_Ehdr, e_type, 16, ET_EXEC);
	SET(h, Elf64_Ehdr, e_machine, 16, machine);
	SET(h, Elf64_Ehdr, e_phoff, 64, sizeof(Elf64_Ehdr));
	SET(h, Elf64_Ehdr, e_shoff, 64, SH_OFF);
	SET(h, Elf64_Ehdr, e_ehsize, 16, sizeof(Elf64_Ehdr));
	SET(h, Elf64_Ehdr, e_phentsize, 16, sizeof(Elf64_Phdr));
	SET(h, Elf64_Ehdr, e_phnum, 16, 2);
	SET(h, Elf64_Ehdr, e_shentsize, 16, sizeof(Elf64_Shdr));
	SET(h, Elf64_Ehdr, e_shnum, 16, S_N);
	SET(h, Elf64_Ehdr, e_shstrndx, 16, S_SHSTR);
	set_phdr(m, 0, 0, TEXT_VADDR, DATA_OFF, PF_R | PF_X);
	set_phdr(m, 1, DATA_OFF, DATA_VADDR, IMG_SIZE - DATA_OFF, PF_R | PF_W);
}

static const char shstr[] = "\0.note.stapsdt\0.stapsdt.base\0.shstrtab\0.symtab\0.strtab";
static const char strs[] = "\0ut_counter\0sema";

static void symbols(struct img *m)
{
	unsigned char *s = m->b + SYM_OFF + sizeof(Elf64_Sym);

	memcpy(m->b + STR_OFF, strs, sizeof(strs));
	SET(s, Elf64_Sym, st_name, 32, 1);
	s[offsetof(Elf64_Sym, st_info)] = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT);
	SET(s, Elf64_Sym, st_shndx, 16, 1);
	SET(s, Elf64_Sym, st_value, 64, COUNTER_VADDR);
	s += sizeof(Elf64_Sym);
	SET(s, Elf64_Sym, st_name, 32, 12);
	s[offsetof(Elf64_Sym, st_info)] = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT);
	SET(s, Elf64_Sym, st_shndx, 16, 1);
	SET(s, Elf64_Sym, st_value, 64, DATA_VADDR + 0x20);
}

/* A valid image: a text and a data segment, markers, symbols. */
static void img_init(struct img *m, uint16_t machine)
{
	memset(m, 0, sizeof(*m));
	headers(m, machine);
	memcpy(m->b + SHSTR_OFF, shstr, sizeof(shstr));
	set_sec(m, S_NOTE, 1, SHT_NOTE, 0, NOTE_OFF, 0);
	set_sec(m, S_BASE, 15, SHT_PROGBITS, BASE_ADDR, 0xf00, 1);
	set_sec(m, S_SHSTR, 29, SHT_STRTAB, 0, SHSTR_OFF, sizeof(shstr));
	set_sec(m, S_SYMTAB, 39, SHT_SYMTAB, 0, SYM_OFF, 3 * sizeof(Elf64_Sym));
	SET(shdr(m, S_SYMTAB), Elf64_Shdr, sh_link, 32, S_STRTAB);
	SET(shdr(m, S_SYMTAB), Elf64_Shdr, sh_entsize, 64, sizeof(Elf64_Sym));
	set_sec(m, S_STRTAB, 47, SHT_STRTAB, 0, STR_OFF, sizeof(strs));
	symbols(m);
	add_note(m, "prov", "one", "-4@%edi 8@ut_counter+8(%rip)", TEXT_VADDR + 0x100,
		 BASE_ADDR, 0);
	add_note(m, "prov", "two", "", TEXT_VADDR + 0x104, BASE_ADDR, DATA_VADDR + 0x20);
}

/* Writes @len bytes of @m to a new file; returns its path. */
static const char *img_write(struct img *m, size_t len)
{
	FILE *f;

	snprintf(m->path, sizeof(m->path), "/tmp/kpmod-usdt-XXXXXX");
	close(mkstemp(m->path));
	f = fopen(m->path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(m->b, 1, len, f), len);
	fclose(f);
	return m->path;
}

/* kp_elf_open, then kp_usdt_read: the first error's message, or NULL. */
static const char *img_read(struct img *m, size_t len, struct kp_usdt **mk, size_t *n)
{
	static char err[256];
	struct kp_elf e;
	int ret;

	*mk = NULL;
	*n = 0;
	ret = kp_elf_open(&e, img_write(m, len), err, sizeof(err));
	if (!ret) {
		ret = kp_usdt_read(&e, mk, n, err, sizeof(err));
		kp_elf_close(&e);
	}
	unlink(m->path);
	return ret ? err : NULL;
}

static void img_fails(struct img *m, size_t len, const char *want)
{
	struct kp_usdt *mk;
	size_t n;
	const char *err = img_read(m, len, &mk, &n);

	ck_assert_msg(err && strstr(err, want), "got '%s', want '%s'", err ? err : "no error",
		      want);
	ck_assert_ptr_null(mk);
	ck_assert_uint_eq(n, 0);
}

START_TEST(markers_of_a_hand_made_image)
{
	struct img m;
	struct kp_usdt *mk;
	size_t n;

	img_init(&m, EM_X86_64);
	ck_assert_ptr_null(img_read(&m, IMG_SIZE, &mk, &n));
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(mk[0].provider, "prov");
	ck_assert_str_eq(mk[0].name, "one");
	ck_assert_str_eq(mk[0].args, "-4@%edi 8@ut_counter+8(%rip)");
	ck_assert_uint_eq(mk[0].pc, TEXT_VADDR + 0x100);
	ck_assert_uint_eq(mk[0].offset, 0x100);
	ck_assert_uint_eq(mk[0].sema, 0);
	ck_assert_str_eq(mk[1].args, "");
	ck_assert_uint_eq(mk[1].sema, DATA_VADDR + 0x20);
	/* Through the data segment: not the text's distance to its offset. */
	ck_assert_uint_eq(mk[1].sema_offset, DATA_OFF + 0x20);
	kp_usdt_free(mk, n);
}
END_TEST

/* prelink moved the file by 0x1000 and left the notes as they were. */
START_TEST(prelink_adjustment_through_stapsdt_base)
{
	struct img m;
	struct kp_usdt *mk;
	size_t n;

	img_init(&m, EM_X86_64);
	SET(shdr(&m, S_BASE), Elf64_Shdr, sh_addr, 64, BASE_ADDR + 0x10);
	ck_assert_ptr_null(img_read(&m, IMG_SIZE, &mk, &n));
	ck_assert_uint_eq(mk[0].pc, TEXT_VADDR + 0x110);
	ck_assert_uint_eq(mk[0].offset, 0x110);
	ck_assert_uint_eq(mk[1].sema, DATA_VADDR + 0x30);
	ck_assert_uint_eq(mk[1].sema_offset, DATA_OFF + 0x30);
	kp_usdt_free(mk, n);
	/* Without .stapsdt.base, the notes' addresses as they are. */
	SET(shdr(&m, S_BASE), Elf64_Shdr, sh_name, 32, 0);
	ck_assert_ptr_null(img_read(&m, IMG_SIZE, &mk, &n));
	ck_assert_uint_eq(mk[0].pc, TEXT_VADDR + 0x100);
	kp_usdt_free(mk, n);
}
END_TEST

START_TEST(segments_symbols_and_rip_relative_arguments)
{
	struct img m;
	struct kp_elf e;
	char err[256], out[128];
	uint64_t v;

	img_init(&m, EM_X86_64);
	ck_assert_int_eq(kp_elf_open(&e, img_write(&m, IMG_SIZE), err, sizeof(err)), 0);
	unlink(m.path);
	ck_assert_uint_eq(e.machine, EM_X86_64);
	ck_assert_uint_eq(e.nsegs, 2);
	ck_assert(kp_elf_offset_exec(&e, 0x100));
	ck_assert(!kp_elf_offset_exec(&e, DATA_OFF));
	ck_assert(!kp_elf_offset_exec(&e, IMG_SIZE));
	ck_assert_int_eq(kp_elf_vaddr_to_offset(&e, COUNTER_VADDR, &v), 0);
	ck_assert_uint_eq(v, DATA_OFF + 0x10);
	ck_assert_int_eq(kp_elf_vaddr_to_offset(&e, 0x10, &v), -ENOENT);
	ck_assert_int_eq(kp_elf_symbol(&e, "ut_counter", &v), 0);
	ck_assert_uint_eq(v, COUNTER_VADDR);
	ck_assert_int_eq(kp_elf_symbol(&e, "nope", &v), -ENOENT);
	ck_assert_ptr_nonnull(kp_elf_section(&e, ".stapsdt.base"));
	/*
	 * uprobe_events adds @+OFFSET to where the probed (text) segment's
	 * offset 0 is loaded: the data segment is 0x2000 further from it.
	 */
	ck_assert_int_eq(kp_usdt_arg_fetch(&e, TEXT_VADDR + 0x100, "-8@ut_counter(%rip)",
					   out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_str_eq(out, "@+0x2c10:s64");
	ck_assert_int_eq(kp_usdt_arg_fetch(&e, TEXT_VADDR + 0x100, "-8@ut_counter+8(%rip)",
					   out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_str_eq(out, "@+0x2c18:s64");
	ck_assert_int_eq(kp_usdt_arg_fetch(&e, TEXT_VADDR + 0x100, "4@ut_counter-0x10(%rip)",
					   out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_str_eq(out, "@+0x2c00:u32");
	ck_assert_int_eq(kp_usdt_arg_fetch(&e, TEXT_VADDR + 0x100, "8@nope(%rip)",
					   out, sizeof(out), err, sizeof(err)), -ENOENT);
	ck_assert_str_eq(err, "symbol nope not in the file's symbol tables");
	kp_elf_close(&e);
}
END_TEST

START_TEST(no_note_section_is_no_marker)
{
	struct img m;
	struct kp_usdt *mk;
	size_t n;

	img_init(&m, EM_AARCH64);
	SET(shdr(&m, S_NOTE), Elf64_Shdr, sh_name, 32, 0);
	ck_assert_ptr_null(img_read(&m, IMG_SIZE, &mk, &n));
	ck_assert_uint_eq(n, 0);
	/* Other notes in the section are passed over. */
	img_init(&m, EM_AARCH64);
	put32(m.b + NOTE_OFF + 8, 1);
	ck_assert_ptr_null(img_read(&m, IMG_SIZE, &mk, &n));
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(mk[0].name, "two");
	kp_usdt_free(mk, n);
}
END_TEST

START_TEST(files_that_are_not_elf64_le_of_a_known_machine)
{
	struct img m;
	struct kp_elf e;
	char err[256];

	ck_assert_int_eq(kp_elf_open(&e, "/nonexistent/kpmod", err, sizeof(err)), -ENOENT);
	ck_assert_str_eq(err, "No such file or directory");
	ck_assert_int_eq(kp_elf_open(&e, "/tmp", err, sizeof(err)), -EISDIR);
	img_init(&m, EM_X86_64);
	img_fails(&m, 0, "not an ELF file");
	img_fails(&m, 10, "not an ELF file");
	img_fails(&m, 40, "truncated ELF header");
	m.b[EI_CLASS] = ELFCLASS32;
	img_fails(&m, IMG_SIZE, "not a 64-bit little-endian ELF file");
	img_init(&m, EM_X86_64);
	m.b[EI_DATA] = ELFDATA2MSB;
	img_fails(&m, IMG_SIZE, "not a 64-bit little-endian ELF file");
	img_init(&m, EM_ARM);
	img_fails(&m, IMG_SIZE, "unsupported machine 40");
	img_init(&m, EM_X86_64);
	m.b[0] = 0;
	img_fails(&m, IMG_SIZE, "not an ELF file");
}
END_TEST

/* Headers, sections and notes past the end: errors, no crash, no huge malloc. */
START_TEST(hostile_headers_and_sections)
{
	struct img m;

	img_init(&m, EM_X86_64);
	img_fails(&m, 0x80, "program headers past the end");
	img_fails(&m, SH_OFF + 100, "section headers past the end");
	SET(m.b, Elf64_Ehdr, e_phnum, 16, 0xffff);
	img_fails(&m, IMG_SIZE, "program headers past the end");
	img_init(&m, EM_X86_64);
	SET(m.b, Elf64_Ehdr, e_phoff, 64, ~0ULL - 8);
	img_fails(&m, IMG_SIZE, "program headers past the end");
	img_init(&m, EM_X86_64);
	SET(m.b, Elf64_Ehdr, e_phentsize, 16, 32);
	img_fails(&m, IMG_SIZE, "bad program header size");
	img_init(&m, EM_X86_64);
	SET(m.b, Elf64_Ehdr, e_shoff, 64, IMG_SIZE + 64);
	img_fails(&m, IMG_SIZE, "section headers past the end");
	SET(m.b, Elf64_Ehdr, e_shnum, 16, 0);
	img_fails(&m, IMG_SIZE, "bad section headers");
	img_init(&m, EM_X86_64);
	SET(m.b, Elf64_Ehdr, e_shentsize, 16, 40);
	img_fails(&m, IMG_SIZE, "bad section headers");
	/* A section count past 0xff00, from section 0: huge. */
	img_init(&m, EM_X86_64);
	SET(m.b, Elf64_Ehdr, e_shnum, 16, 0);
	SET(shdr(&m, S_NULL), Elf64_Shdr, sh_size, 64, 1ULL << 40);
	img_fails(&m, IMG_SIZE, "section headers past the end");
	img_init(&m, EM_X86_64);
	SET(m.b, Elf64_Ehdr, e_shstrndx, 16, 40);
	img_fails(&m, IMG_SIZE, "section name table index 40 out of range");
	img_init(&m, EM_X86_64);
	SET(shdr(&m, S_SHSTR), Elf64_Shdr, sh_offset, 64, ~0ULL - 4);
	img_fails(&m, IMG_SIZE, "section name table past the end");
	img_init(&m, EM_X86_64);
	SET(shdr(&m, S_NOTE), Elf64_Shdr, sh_size, 64, 1ULL << 62);
	img_fails(&m, IMG_SIZE, ".note.stapsdt past the end of the file");
	img_init(&m, EM_X86_64);
	SET(shdr(&m, S_NOTE), Elf64_Shdr, sh_type, 32, SHT_NOBITS);
	img_fails(&m, IMG_SIZE, "not a note section");
}
END_TEST

START_TEST(hostile_notes)
{
	struct img m;

	img_init(&m, EM_X86_64);
	put32(m.b + NOTE_OFF, 0x7fffffff);			/* namesz */
	img_fails(&m, IMG_SIZE, "runs past the end of the section");
	img_init(&m, EM_X86_64);
	put32(m.b + NOTE_OFF + 4, 0xfffffff0);			/* descsz */
	img_fails(&m, IMG_SIZE, "runs past the end of the section");
	img_init(&m, EM_X86_64);
	SET(shdr(&m, S_NOTE), Elf64_Shdr, sh_size, 64, m.notes - 3);
	img_fails(&m, IMG_SIZE, "runs past the end of the section");
	img_init(&m, EM_X86_64);
	put32(m.b + NOTE_OFF + 4, 20);				/* no room for the addresses */
	img_fails(&m, IMG_SIZE, "malformed marker note");
	img_init(&m, EM_X86_64);
	put32(m.b + NOTE_OFF + 4, 26);				/* provider unterminated */
	img_fails(&m, IMG_SIZE, "malformed marker note");
	img_init(&m, EM_X86_64);
	put64(m.b + NOTE_OFF + 20, DATA_VADDR);			/* pc in data */
	img_fails(&m, IMG_SIZE, "offset outside any executable segment");
	img_init(&m, EM_X86_64);
	put64(m.b + NOTE_OFF + 20, 0x10);			/* pc in no segment */
	img_fails(&m, IMG_SIZE, "offset outside any executable segment");
	img_init(&m, EM_X86_64);
	put64(m.b + NOTE_OFF + 36, 0x10);			/* semaphore nowhere */
	img_fails(&m, IMG_SIZE, "semaphore at 0x10 outside any segment");
}
END_TEST

START_TEST(hostile_symbol_tables)
{
	struct img m;
	struct kp_elf e;
	char err[256];
	uint64_t v;

	img_init(&m, EM_X86_64);
	SET(shdr(&m, S_SYMTAB), Elf64_Shdr, sh_link, 32, 99);
	ck_assert_int_eq(kp_elf_open(&e, img_write(&m, IMG_SIZE), err, sizeof(err)), 0);
	unlink(m.path);
	ck_assert_int_eq(kp_elf_symbol(&e, "ut_counter", &v), -ENOEXEC);
	kp_elf_close(&e);
	img_init(&m, EM_X86_64);
	SET(shdr(&m, S_SYMTAB), Elf64_Shdr, sh_size, 64, ~0ULL);
	ck_assert_int_eq(kp_elf_open(&e, img_write(&m, IMG_SIZE), err, sizeof(err)), 0);
	unlink(m.path);
	ck_assert_int_eq(kp_elf_symbol(&e, "ut_counter", &v), -ENOEXEC);
	kp_elf_close(&e);
	/* A name offset past the string table: no such symbol. */
	img_init(&m, EM_X86_64);
	put32(m.b + SYM_OFF + sizeof(Elf64_Sym), 0xffff);
	ck_assert_int_eq(kp_elf_open(&e, img_write(&m, IMG_SIZE), err, sizeof(err)), 0);
	unlink(m.path);
	ck_assert_int_eq(kp_elf_symbol(&e, "ut_counter", &v), -ENOENT);
	kp_elf_close(&e);
}
END_TEST

/* Every marker's every argument of one image. */
static void read_everything(const char *path)
{
	char err[256], spec[64], out[128];
	struct kp_usdt *mk;
	struct kp_elf e;
	const char *pos;
	size_t n, i;

	if (kp_elf_open(&e, path, err, sizeof(err)))
		return;
	if (!kp_usdt_read(&e, &mk, &n, err, sizeof(err))) {
		for (i = 0; i < n; i++)
			for (pos = mk[i].args; kp_usdt_arg_next(&pos, spec, sizeof(spec)); )
				kp_usdt_arg_fetch(&e, mk[i].pc, spec, out, sizeof(out),
						  err, sizeof(err));
		kp_usdt_free(mk, n);
	}
	kp_elf_close(&e);
}

/* Random bytes over the headers, tables and notes: errors, never a crash. */
START_TEST(damaged_images_never_crash)
{
	unsigned int seed = 20240601, i, k;
	struct img m;

	for (i = 0; i < 3000; i++) {
		img_init(&m, i & 1 ? EM_X86_64 : EM_AARCH64);
		for (k = 0; k < 1 + i % 8; k++) {
			size_t at = (size_t)rand_r(&seed) % (SH_OFF + S_N * sizeof(Elf64_Shdr));

			m.b[at] = (unsigned char)rand_r(&seed);
		}
		read_everything(img_write(&m, i % 5 ? IMG_SIZE : (size_t)rand_r(&seed) % IMG_SIZE));
		unlink(m.path);
	}
}
END_TEST

/* ---- kpmod-utarget, built for each arch by the Makefile. */

struct rd_marker {
	char provider[32], name[32], args[128];
	unsigned long long pc, base, sema;
};

/* What follows @key in @line, or NULL. */
static const char *after(const char *line, const char *key)
{
	const char *s = strstr(line, key);

	return s ? s + strlen(key) : NULL;
}

/* One line of readelf -n: a marker's first, or more of the last one. */
static void readelf_line(const char *line, struct rd_marker *r, size_t *n, size_t max)
{
	struct rd_marker *last = *n ? &r[*n - 1] : NULL;
	const char *s = after(line, "Provider: ");

	if (s) {
		ck_assert_uint_lt(*n, max);
		snprintf(r[(*n)++].provider, sizeof(r->provider), "%s", s);
		return;
	}
	if (!last)
		return;
	s = after(line, "Name: ");
	if (s)
		snprintf(last->name, sizeof(last->name), "%s", s);
	s = after(line, "Location: ");
	if (s)
		ck_assert_int_eq(sscanf(s, "%llx, Base: %llx, Semaphore: %llx",
					&last->pc, &last->base, &last->sema), 3);
	s = after(line, "Arguments: ");
	if (s)
		snprintf(last->args, sizeof(last->args), "%s", s);
}

/* The markers as readelf -n prints them. */
static size_t readelf_markers(const char *path, struct rd_marker *r, size_t max)
{
	char cmd[512], line[512];
	size_t n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "LC_ALL=C readelf -n --wide '%s'", path);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	while (fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\n")] = '\0';
		readelf_line(line, r, &n, max);
	}
	ck_assert_int_eq(pclose(p), 0);
	return n;
}

static const struct kp_usdt *find(const struct kp_usdt *mk, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(mk[i].provider, "kpmod") && !strcmp(mk[i].name, name))
			return &mk[i];
	ck_abort_msg("no marker kpmod:%s", name);
	return NULL;
}

static uint64_t read_le(const struct kp_elf *e, uint64_t off, size_t len)
{
	unsigned char b[8] = { 0 };
	uint64_t v = 0;
	size_t i;

	ck_assert_int_eq(kp_elf_read(e, off, b, len), 0);
	for (i = len; i--; )
		v = v << 8 | b[i];
	return v;
}

/* A marker is a nop: 0x90 on x86_64, 0xd503201f on arm64. */
static void check_nop(const struct kp_elf *e, const struct kp_usdt *m)
{
	ck_assert(kp_elf_offset_exec(e, m->offset));
	if (e->machine == EM_X86_64)
		ck_assert_uint_eq(read_le(e, m->offset, 1), 0x90);
	else
		ck_assert_uint_eq(read_le(e, m->offset, 4), 0xd503201f);
}

static void check_against_readelf(const struct kp_elf *e, const char *path,
				  const struct kp_usdt *mk, size_t n)
{
	struct rd_marker r[8];
	size_t i, nr = readelf_markers(path, r, 8);

	ck_assert_uint_eq(nr, n);
	for (i = 0; i < n; i++) {
		ck_assert_str_eq(mk[i].provider, r[i].provider);
		ck_assert_str_eq(mk[i].name, r[i].name);
		ck_assert_str_eq(mk[i].args, r[i].args);
		/* Not prelinked: .stapsdt.base is where the notes say. */
		ck_assert_uint_eq(kp_elf_section(e, ".stapsdt.base")->addr, r[i].base);
		ck_assert_uint_eq(mk[i].pc, r[i].pc);
		ck_assert_uint_eq(mk[i].sema, r[i].sema);
		check_nop(e, &mk[i]);
	}
}

/* The markers of utarget.c and utarget_sem.c, as their comment says. */
static void check_utarget(const char *path, uint16_t machine)
{
	char err[256], out[128], spec[64];
	const struct kp_usdt *tick, *tock, *mem;
	struct kp_usdt *mk;
	struct kp_elf e;
	uint64_t v, off;
	const char *pos;
	size_t n;

	ck_assert_msg(!kp_elf_open(&e, path, err, sizeof(err)), "%s: %s", path, err);
	ck_assert_uint_eq(e.machine, machine);
	ck_assert_msg(!kp_usdt_read(&e, &mk, &n, err, sizeof(err)), "%s: %s", path, err);
	ck_assert_uint_eq(n, 3);
	check_against_readelf(&e, path, mk, n);
	tick = find(mk, n, "tick");
	tock = find(mk, n, "tock");
	mem = find(mk, n, "mem");
	ck_assert_uint_eq(tick->sema, 0);
	ck_assert_uint_eq(mem->sema, 0);
	/* The semaphore is the variable, and its file offset maps back to it. */
	ck_assert_int_eq(kp_elf_symbol(&e, "kpmod_tock_semaphore", &v), 0);
	ck_assert_uint_eq(tock->sema, v);
	ck_assert(!kp_elf_offset_exec(&e, tock->sema_offset));
	ck_assert_int_eq(kp_elf_vaddr_to_offset(&e, v, &off), 0);
	ck_assert_uint_eq(tock->sema_offset, off);
	ck_assert_uint_eq(read_le(&e, off, 2), 0);
	/* Every argument converts but arm64's PC-relative global. */
	pos = mem->args;
	ck_assert_int_eq(kp_usdt_arg_next(&pos, spec, sizeof(spec)), 1);
	if (machine == EM_X86_64) {
		ck_assert_str_eq(spec, "-8@ut_counter(%rip)");
		ck_assert_int_eq(kp_usdt_arg_fetch(&e, mem->pc, spec, out, sizeof(out),
						   err, sizeof(err)), 0);
		/* @+OFFSET reaches ut_counter, initialised to 1 in the file. */
		ck_assert_int_eq(sscanf(out, "@+%" SCNx64 ":s64", &off), 1);
		ck_assert_uint_eq(read_le(&e, off, 8), 1);
		ck_assert_int_eq(kp_elf_symbol(&e, "ut_counter", &v), 0);
		ck_assert_int_eq(kp_elf_vaddr_to_offset(&e, v, &v), 0);
		ck_assert_uint_eq(off, v);
	} else {
		ck_assert_int_eq(kp_usdt_arg_fetch(&e, mem->pc, spec, out, sizeof(out),
						   err, sizeof(err)), -ENOTSUP);
	}
	ck_assert_int_eq(kp_usdt_arg_next(&pos, spec, sizeof(spec)), 1);
	ck_assert_int_eq(kp_usdt_arg_fetch(&e, mem->pc, spec, out, sizeof(out),
					   err, sizeof(err)), 0);
	ck_assert_str_eq(out + strlen(out) - 4, ":s32");	/* rec.small, an int */
	for (pos = tick->args; kp_usdt_arg_next(&pos, spec, sizeof(spec)) > 0; )
		ck_assert_msg(!kp_usdt_arg_fetch(&e, tick->pc, spec, out, sizeof(out),
						 err, sizeof(err)), "%s: %s", spec, err);
	kp_usdt_free(mk, n);
	kp_elf_close(&e);
}

START_TEST(utarget_x86_64)
{
	check_utarget(KP_USDT_FIXTURES "/utarget-x86_64", EM_X86_64);
}
END_TEST

START_TEST(utarget_arm64)
{
	if (access(KP_USDT_FIXTURES "/utarget-arm64", R_OK))
		return;		/* no cross compiler to build it */
	check_utarget(KP_USDT_FIXTURES "/utarget-arm64", EM_AARCH64);
}
END_TEST

/* ---- The command. */

static int run_usdt(char *out, size_t outsz, char *err, size_t errsz, char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	return run_main(out, outsz, err, errsz, argc, argv);
}

#define UT KP_USDT_FIXTURES "/utarget-x86_64"

START_TEST(usdt_command)
{
	char out[8192], err[1024];
	char *list[] = { "kpmod", "usdt", UT, NULL };
	char *glob[] = { "kpmod", "usdt", "-v", UT, "kp*:to?k", NULL };
	char *json[] = { "kpmod", "usdt", "--json", UT, "kpmod", NULL };
	char *none[] = { "kpmod", "usdt", UT, "other", NULL };
	char *notelf[] = { "kpmod", "usdt", KP_USDT_FIXTURES "/../Makefile", NULL };
	char *usage[] = { "kpmod", "usdt", NULL };

	ck_assert_int_eq(run_usdt(out, sizeof(out), err, sizeof(err), list), KP_EXIT_OK);
	ck_assert_ptr_nonnull(strstr(out, "usdt:" UT ":kpmod:tick\n"));
	ck_assert_ptr_nonnull(strstr(out, "usdt:" UT ":kpmod:tock\n"));
	ck_assert_ptr_nonnull(strstr(out, "usdt:" UT ":kpmod:mem\n"));
	ck_assert_uint_eq(strlen(out), 3 * strlen("usdt:" UT ":kpmod:tick\n") - 1);
	ck_assert_int_eq(run_usdt(out, sizeof(out), err, sizeof(err), glob), KP_EXIT_OK);
	ck_assert_msg(!strncmp(out, "usdt:" UT ":kpmod:tock\n    offset 0x", strlen(UT) + 30) &&
		      strstr(out, "\n    args: -8@%rdi -8@%rsi\n"
			     "    arg1: -8@%rdi -> %di:s64\n    arg2: -8@%rsi -> %si:s64\n"),
		      "got '%s'", out);
	ck_assert_ptr_null(strstr(out, "semaphore none"));
	ck_assert_int_eq(run_usdt(out, sizeof(out), err, sizeof(err), json), KP_EXIT_OK);
	ck_assert_msg(out[0] == '[' && strstr(out, "{\"spec\":\"-8@%rdi\",\"fetch\":\"%di:s64\"}") &&
		      strstr(out, "\"semaphore\":null") && strstr(out, "\"path\":\"" UT "\"") &&
		      !strcmp(out + strlen(out) - 3, "}]\n"), "got '%s'", out);
	ck_assert_int_eq(run_usdt(out, sizeof(out), err, sizeof(err), none), KP_EXIT_ERROR);
	ck_assert_str_eq(err, "kpmod: usdt: " UT ": no USDT marker matches 'other'\n");
	ck_assert_int_eq(run_usdt(out, sizeof(out), err, sizeof(err), notelf), KP_EXIT_ERROR);
	ck_assert_ptr_nonnull(strstr(err, "/Makefile: not an ELF file\n"));
	ck_assert_int_eq(run_usdt(out, sizeof(out), err, sizeof(err), usage), KP_EXIT_USAGE);
}
END_TEST

static Suite *usdt_suite(void)
{
	Suite *s = suite_create("usdt");
	TCase *tc = tcase_create("usdt");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, x86_64_arguments);
	tcase_add_test(tc, arm64_arguments);
	tcase_add_test(tc, argument_lists_split_outside_brackets);
	tcase_add_test(tc, markers_of_a_hand_made_image);
	tcase_add_test(tc, prelink_adjustment_through_stapsdt_base);
	tcase_add_test(tc, segments_symbols_and_rip_relative_arguments);
	tcase_add_test(tc, no_note_section_is_no_marker);
	tcase_add_test(tc, files_that_are_not_elf64_le_of_a_known_machine);
	tcase_add_test(tc, hostile_headers_and_sections);
	tcase_add_test(tc, hostile_notes);
	tcase_add_test(tc, hostile_symbol_tables);
	tcase_add_test(tc, damaged_images_never_crash);
	tcase_add_test(tc, utarget_x86_64);
	tcase_add_test(tc, utarget_arm64);
	tcase_add_test(tc, usdt_command);
	suite_add_tcase(s, tc);
	return s;
}
