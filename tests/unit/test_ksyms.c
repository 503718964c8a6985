// SPDX-License-Identifier: GPL-2.0
/* Symbolizing addresses the way the kernel's %pS does, and @SYM lookups. */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include "ksyms.h"
#include "ksyms_dups.h"
#include "suites.h"

static const char kallsyms[] =
	"0000000000000000 A fixed_percpu_data\n"
	"000000000001f0a8 A cpu_number\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T startup_64\n"
	"ffffffff81000040 t secondary_startup_64\n"
	"garbage line\n"
	"\n"
	"ffffffff81001000 T do_sys_openat2\n"
	"ffffffff81001150 T __x64_sys_openat\n"
	"ffffffff81300000 t dup\n"
	"ffffffff81300100 t twice\n"
	"ffffffff81300200 t twice\n"
	"FFFFFFFF81300300 t upper_hex\n"
	"ffffffff8130040g t bad_hex\n"
	"11ffffffff81300400 t too_long\n"
	"ffffffff81200000 T _etext\n"
	"ffffffffc0001000 t foo_init\t[foo]\n"
	"ffffffffc0001020 t foo_exit\t[foo]\n"
	"ffffffffc0001080 t dup\t[foo]";	/* no final newline */

static const char *sym(const struct kp_ksyms *k, unsigned long long addr, int off)
{
	static char buf[256];

	kp_ksyms_snprint(k, addr, off, buf, sizeof(buf));
	return buf;
}

START_TEST(addresses_print_like_percent_ps)
{
	struct kp_ksyms k;

	ck_assert_int_eq(kp_ksyms_load_buf(&k, kallsyms, strlen(kallsyms)), 0);
	ck_assert(!kp_ksyms_zeroed(&k));
	/* Aliases: the first in file order; offset 0 prints as 0x0. */
	ck_assert_str_eq(sym(&k, 0xffffffff81000000ULL, 1), "_stext+0x0/0x40");
	ck_assert_str_eq(sym(&k, 0xffffffff8100003fULL, 1), "_stext+0x3f/0x40");
	ck_assert_str_eq(sym(&k, 0xffffffff81001010ULL, 1),
			 "do_sys_openat2+0x10/0x150");
	ck_assert_str_eq(sym(&k, 0xffffffff81001010ULL, 0), "do_sys_openat2");
	/* Unsorted input is fine. */
	ck_assert_str_eq(sym(&k, 0xffffffff81200004ULL, 1), "_etext+0x4/0x100000");
	ck_assert_str_eq(sym(&k, 0xffffffffc0001010ULL, 1),
			 "foo_init+0x10/0x20 [foo]");
	ck_assert_str_eq(sym(&k, 0xffffffffc0001010ULL, 0), "foo_init");
	/* The last symbol has no known end: only its start resolves. */
	ck_assert_str_eq(sym(&k, 0xffffffffc0001080ULL, 1), "dup+0x0/0x0 [foo]");
	ck_assert_str_eq(sym(&k, 0xffffffffc0001088ULL, 1), "0xffffffffc0001088");
	/* Below everything, and absolute symbols never match. */
	ck_assert_str_eq(sym(&k, 0x1000, 1), "0x1000");
	ck_assert_str_eq(sym(&k, 0x1000, 0), "0x00001000");
	ck_assert_str_eq(sym(NULL, 0xffffffff81001010ULL, 1), "0xffffffff81001010");
	kp_ksyms_free(&k);
}
END_TEST

/* A hist's .sym key: %ps, the module named, an unknown address as 0x<hex>. */
START_TEST(names_print_like_percent_ps_no_offset)
{
	struct kp_ksyms k;
	char buf[256];

	ck_assert_int_eq(kp_ksyms_load_buf(&k, kallsyms, strlen(kallsyms)), 0);
	kp_ksyms_snprint_name(&k, 0xffffffff81001010ULL, buf, sizeof(buf));
	ck_assert_str_eq(buf, "do_sys_openat2");
	kp_ksyms_snprint_name(&k, 0xffffffffc0001010ULL, buf, sizeof(buf));
	ck_assert_str_eq(buf, "foo_init [foo]");
	kp_ksyms_snprint_name(&k, 0x1b, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0x1b");
	kp_ksyms_snprint_name(NULL, 0xffffffff81001010ULL, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0xffffffff81001010");
	kp_ksyms_free(&k);
}
END_TEST

/* "did you mean": the nearest core symbols of the letters asked, each once. */
START_TEST(near_names_for_hints)
{
	struct kp_ksyms k;
	char buf[256];

	ck_assert_int_eq(kp_ksyms_load_buf(&k, kallsyms, strlen(kallsyms)), 0);
	ck_assert_uint_eq(kp_ksyms_near(&k, "do_sys_opnat2", "tT", 3, buf, sizeof(buf)), 1);
	ck_assert_str_eq(buf, "do_sys_openat2");
	/* foo_init is a module's: never offered. */
	ck_assert_uint_eq(kp_ksyms_near(&k, "foo_int", NULL, 3, buf, sizeof(buf)), 0);
	/* "dup" twice (core and module) counts once; _stext one edit away too. */
	ck_assert_uint_eq(kp_ksyms_near(&k, "dupe", "tT", 3, buf, sizeof(buf)), 1);
	ck_assert_str_eq(buf, "dup");
	ck_assert_uint_eq(kp_ksyms_near(&k, "_etxt", "tT", 3, buf, sizeof(buf)), 2);
	ck_assert_str_eq(buf, "_etext or _stext");
	/* secondary_startup_64 is a 't': not offered for "T" alone. */
	ck_assert_uint_eq(kp_ksyms_near(&k, "secondary_startup_6", "T", 3, buf, sizeof(buf)), 0);
	ck_assert_uint_eq(kp_ksyms_near(&k, "secondary_startup_6", NULL, 3, buf, sizeof(buf)), 1);
	ck_assert_uint_eq(kp_ksyms_near(&k, "completely_else", NULL, 3, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "");
	kp_ksyms_free(&k);
}
END_TEST

/*
 * kp_ksyms_addr() and kp_ksyms_count_core() by a pass over the table (a
 * few lookups) and by the name index (many): the same answers.
 */
static void lookup_by(struct kp_ksyms *k, bool by_pass)
{
	k->names->scans = by_pass ? 0 : KP_KSYMS_SCANS;
}

static void names_resolve(bool by_pass)
{
	struct kp_ksyms k;
	uint64_t a = 0;

#define BY(call) (lookup_by(&k, by_pass), (call))
	ck_assert_int_eq(kp_ksyms_load_buf(&k, kallsyms, strlen(kallsyms)), 0);
	ck_assert_int_eq(BY(kp_ksyms_addr(&k, "dup", NULL, &a)), 0);
	ck_assert_uint_eq(a, 0xffffffff81300000ULL);
	ck_assert_int_eq(BY(kp_ksyms_addr(&k, "dup", "foo", &a)), 0);
	ck_assert_uint_eq(a, 0xffffffffc0001080ULL);
	ck_assert_int_eq(BY(kp_ksyms_addr(&k, "foo_exit", NULL, &a)), 0);
	ck_assert_uint_eq(a, 0xffffffffc0001020ULL);
	ck_assert_int_eq(BY(kp_ksyms_addr(&k, "foo_exit", "bar", &a)), -ENOENT);
	ck_assert_int_eq(BY(kp_ksyms_addr(&k, "nope", NULL, &a)), -ENOENT);
	ck_assert_int_eq(BY(kp_ksyms_addr(&k, "a", NULL, &a)), -ENOENT);
	ck_assert_int_eq(BY(kp_ksyms_addr(&k, "zzz", NULL, &a)), -ENOENT);
	ck_assert_int_eq(BY(kp_ksyms_addr(&k, "startup_64", NULL, &a)), 0);
	ck_assert_uint_eq(a, 0xffffffff81000000ULL);
	/* The kernel's uniqueness check counts the core kernel's only. */
	ck_assert_uint_eq(BY(kp_ksyms_count_core(&k, "twice")), 2);
	ck_assert_uint_eq(BY(kp_ksyms_count_core(&k, "dup")), 1);
	ck_assert_uint_eq(BY(kp_ksyms_count_core(&k, "foo_exit")), 0);
	ck_assert_uint_eq(BY(kp_ksyms_count_core(&k, "nope")), 0);
	/* Addresses: hexadecimal of either case, 16 digits at most. */
	ck_assert_int_eq(BY(kp_ksyms_addr(&k, "upper_hex", NULL, &a)), 0);
	ck_assert_uint_eq(a, 0xffffffff81300300ULL);
	ck_assert_int_eq(BY(kp_ksyms_addr(&k, "bad_hex", NULL, &a)), -ENOENT);
	ck_assert_int_eq(BY(kp_ksyms_addr(&k, "too_long", NULL, &a)), -ENOENT);
	/* An absolute symbol (a per-CPU variable) by name, never by address */
	ck_assert_int_eq(BY(kp_ksyms_addr(&k, "cpu_number", NULL, &a)), -ENOENT);
	ck_assert_int_eq(kp_ksyms_abs_addr(&k, "cpu_number", &a), 0);
	ck_assert_uint_eq(a, 0x1f0a8);
	ck_assert_int_eq(kp_ksyms_abs_addr(&k, "dup", &a), -ENOENT);
	ck_assert_uint_eq(BY(kp_ksyms_count_core(&k, "cpu_number")), 0);
#undef BY
	/* A pass never sorts the names; past a few lookups they are sorted. */
	if (by_pass)
		ck_assert_ptr_null(k.names->by_name);
	else
		ck_assert_ptr_nonnull(k.names->by_name);
	kp_ksyms_free(&k);
}

START_TEST(names_resolve_core_first)
{
	names_resolve(true);
	names_resolve(false);
}
END_TEST

/*
 * A sorted start (the core kernel) and a tail in any order (modules, some
 * below the core, some at its addresses): every symbol once, by address,
 * aliases in file order.
 */
START_TEST(load_sorts_by_address)
{
	const size_t core = 1500, mods = 500, n = core + mods;
	char *text = malloc(n * 64), *p = text;
	unsigned long long seen = 0, want = 0;
	struct kp_ksyms k;
	size_t i;

	srand(7);
	for (i = 0; i < n; i++) {
		unsigned long long addr = i < core ? 0xffffffff81000000ULL + i * 16 :
			0xffffffff81000000ULL + (unsigned long long)(rand() % 40000) * 8;

		p += sprintf(p, "%llx t s%zu%s\n", addr, i, i < core ? "" : "\t[m]");
		want += i;
	}
	ck_assert_int_eq(kp_ksyms_load_buf(&k, text, (size_t)(p - text)), 0);
	ck_assert_uint_eq(k.nsyms, n);
	for (i = 0; i < n; i++) {
		seen += strtoull(k.syms[i].name + 1, NULL, 10);
		if (i)
			ck_assert(k.syms[i - 1].addr < k.syms[i].addr ||
				  (k.syms[i - 1].addr == k.syms[i].addr &&
				   k.syms[i - 1].name < k.syms[i].name));
	}
	ck_assert_uint_eq(seen, want);
	kp_ksyms_free(&k);
	free(text);
}
END_TEST

START_TEST(many_lookups_build_the_index)
{
	struct kp_ksyms k;
	uint64_t a;
	unsigned int i;

	ck_assert_int_eq(kp_ksyms_load_buf(&k, kallsyms, strlen(kallsyms)), 0);
	for (i = 0; i < KP_KSYMS_SCANS; i++)
		ck_assert_int_eq(kp_ksyms_addr(&k, "startup_64", NULL, &a), 0);
	ck_assert_ptr_null(k.names->by_name);
	ck_assert_int_eq(kp_ksyms_addr(&k, "startup_64", NULL, &a), 0);
	ck_assert_ptr_nonnull(k.names->by_name);
	ck_assert_uint_eq(a, 0xffffffff81000000ULL);
	kp_ksyms_free(&k);
}
END_TEST

START_TEST(zeroed_kallsyms_degrade_to_hex)
{
	static const char z[] =
		"0000000000000000 T _stext\n"
		"0000000000000000 T do_sys_openat2\n"
		"0000000000000000 t foo\t[foo]\n";
	struct kp_ksyms k;
	uint64_t a;

	ck_assert_int_eq(kp_ksyms_load_buf(&k, z, strlen(z)), 0);
	ck_assert(kp_ksyms_zeroed(&k));
	ck_assert_str_eq(sym(&k, 0xffffffff81001010ULL, 1), "0xffffffff81001010");
	ck_assert_int_eq(kp_ksyms_addr(&k, "do_sys_openat2", NULL, &a), -EPERM);
	kp_ksyms_free(&k);
	ck_assert_int_eq(kp_ksyms_load_buf(&k, "", 0), 0);
	ck_assert(kp_ksyms_zeroed(&k));
	ck_assert_str_eq(sym(&k, 0x10, 1), "0x10");
	kp_ksyms_free(&k);
}
END_TEST

START_TEST(proc_kallsyms_round_trips)
{
	struct kp_ksyms k;
	uint64_t off, size;
	size_t i;

	ck_assert_int_eq(kp_ksyms_load_file(&k, "/nonexistent"), -ENOENT);
	if (kp_ksyms_load_file(&k, NULL))
		return;	/* no /proc/kallsyms here */
	if (!kp_ksyms_zeroed(&k)) {
		/* Every symbol maps back to a symbol at its own address. */
		for (i = 0; i < k.nsyms; i += 97) {
			const struct kp_sym *s = kp_ksyms_lookup(&k, k.syms[i].addr,
								 &off, &size);

			ck_assert_ptr_nonnull(s);
			ck_assert_uint_eq(off, 0);
			ck_assert_uint_eq(s->addr, k.syms[i].addr);
		}
	}
	kp_ksyms_free(&k);
}
END_TEST

/* Writes @len bytes of @head, then @tail, to @path (mode 644). */
static void rewrite(const char *path, const char *head, size_t len, const char *tail)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fwrite(head, 1, len, f);
	fputs(tail, f);
	fclose(f);
	ck_assert_int_eq(chmod(path, 0644), 0);
}

/* note: appends one ELF note (name, type, descriptor) to @buf at @off; returns the new end. */
static size_t note(unsigned char *buf, size_t off, const char *name, unsigned int type,
		   const unsigned char *desc, unsigned int descsz)
{
	Elf64_Nhdr h = { .n_namesz = strlen(name) + 1, .n_descsz = descsz, .n_type = type };

	memcpy(buf + off, &h, sizeof(h));
	off += sizeof(h);
	memcpy(buf + off, name, h.n_namesz);
	off += (h.n_namesz + 3) & ~3u;
	memcpy(buf + off, desc, descsz);
	return off + ((descsz + 3) & ~3u);
}

/* The kernel image's build id, from /sys/kernel/notes' layout: after other notes, bounded. */
START_TEST(dups_build_id)
{
	static const unsigned char xen[6] = { 1, 2, 3, 4, 5, 6 };
	static const unsigned char id[20] = { 0xde, 0xad, 0xbe, 0xef, 0, 1, 2, 3, 4, 5,
					      6, 7, 8, 9, 10, 11, 12, 13, 14, 0xff };
	unsigned char buf[256] = { 0 };
	char hex[64];
	size_t n;

	n = note(buf, 0, "Xen", 5, xen, sizeof(xen));
	n = note(buf, n, "Linux", NT_GNU_BUILD_ID, xen, 4);	/* not GNU's */
	ck_assert_int_eq(kp_ksyms_dups_build_id(buf, n, hex, sizeof(hex)), -ENOENT);
	n = note(buf, n, "GNU", NT_GNU_BUILD_ID, id, sizeof(id));
	ck_assert_int_eq(kp_ksyms_dups_build_id(buf, n, hex, sizeof(hex)), 0);
	ck_assert_str_eq(hex, "deadbeef000102030405060708090a0b0c0d0eff");
	ck_assert_int_eq(kp_ksyms_dups_build_id(buf, n, hex, 40), -ENAMETOOLONG);
	/* Cut inside the id: its descriptor runs past the end. */
	ck_assert_int_eq(kp_ksyms_dups_build_id(buf, n - 4, hex, sizeof(hex)), -EINVAL);
	ck_assert_int_eq(kp_ksyms_dups_build_id(buf, 0, hex, sizeof(hex)), -ENOENT);
}
END_TEST

/* What an add needs of kallsyms, kept per kernel: written, read back, refused when not to be trusted. */
START_TEST(dups_kept_per_kernel)
{
	char dir[] = "/tmp/kpmod-dups-XXXXXX", path[64], text[512];
	struct kp_ksyms_dups d;
	struct kp_ksyms k;
	FILE *f;
	size_t n;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(chmod(dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/sub/ksyms-dups", dir);
	ck_assert_int_eq(kp_ksyms_dups_load(&d, path), -ENOENT);
	ck_assert_int_eq(kp_ksyms_load_buf(&k, kallsyms, strlen(kallsyms)), 0);
	ck_assert_int_eq(kp_ksyms_dups_save(&k, path), 0);
	kp_ksyms_free(&k);
	ck_assert_int_eq(kp_ksyms_dups_load(&d, path), 0);
	/* Twice in the core kernel; once there and once in a module is one. */
	ck_assert(kp_ksyms_dups_multi(&d, "twice"));
	ck_assert(!kp_ksyms_dups_multi(&d, "dup"));
	ck_assert(!kp_ksyms_dups_multi(&d, "do_sys_openat2"));
	ck_assert(!kp_ksyms_dups_multi(&d, "no_such_symbol"));
	ck_assert(kp_ksyms_dups_abs(&d, "cpu_number"));
	ck_assert(kp_ksyms_dups_abs(&d, "fixed_percpu_data"));
	ck_assert(!kp_ksyms_dups_abs(&d, "twice"));
	ck_assert_uint_eq(d.nmulti, 1);
	ck_assert_uint_eq(d.nabs, 2);
	kp_ksyms_dups_free(&d);

	/* Another kernel's: its first line names that kernel (or boot). */
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	text[strlen("kpmod-ksyms-dups 2 ")] ^= 1;
	rewrite(path, text, strlen(text), "");
	ck_assert_int_eq(kp_ksyms_dups_load(&d, path), -ESTALE);
	text[strlen("kpmod-ksyms-dups 2 ")] ^= 1;
	/* A line of neither kind; lines out of order (bsearch() would miss). */
	rewrite(path, text, strchr(text, '\n') + 1 - text, "X twice\n");
	ck_assert_int_eq(kp_ksyms_dups_load(&d, path), -EINVAL);
	rewrite(path, text, strchr(text, '\n') + 1 - text, "M twice\nM alpha\n");
	ck_assert_int_eq(kp_ksyms_dups_load(&d, path), -EINVAL);
	/* Cut short, or zeros where a crash left the rest: not used either. */
	rewrite(path, text, strlen(text) - 1, "");
	ck_assert_int_eq(kp_ksyms_dups_load(&d, path), -EINVAL);
	memset(text + strlen(text), 0, 4);
	rewrite(path, text, strlen(text) + 4, "");
	ck_assert_int_eq(kp_ksyms_dups_load(&d, path), -EINVAL);

	/* Anyone may write it, or the folder it is in: not trusted. */
	rewrite(path, text, strlen(text), "");
	ck_assert_int_eq(kp_ksyms_dups_load(&d, path), 0);
	kp_ksyms_dups_free(&d);
	ck_assert_int_eq(chmod(path, 0666), 0);
	ck_assert_int_eq(kp_ksyms_dups_load(&d, path), -EPERM);
	ck_assert_int_eq(chmod(path, 0644), 0);
	snprintf(text, sizeof(text), "%s/sub", dir);
	ck_assert_int_eq(chmod(text, 0777), 0);
	ck_assert_int_eq(kp_ksyms_dups_load(&d, path), -EPERM);

	unlink(path);
	rmdir(text);
	rmdir(dir);
}
END_TEST

KP_SUITE(ksyms_suite)
static Suite *ksyms_suite(void)
{
	Suite *s = suite_create("ksyms");
	TCase *tc = tcase_create("ksyms");

	tcase_add_test(tc, addresses_print_like_percent_ps);
	tcase_add_test(tc, names_print_like_percent_ps_no_offset);
	tcase_add_test(tc, names_resolve_core_first);
	tcase_add_test(tc, many_lookups_build_the_index);
	tcase_add_test(tc, load_sorts_by_address);
	tcase_add_test(tc, near_names_for_hints);
	tcase_add_test(tc, zeroed_kallsyms_degrade_to_hex);
	tcase_add_test(tc, proc_kallsyms_round_trips);
	tcase_add_test(tc, dups_kept_per_kernel);
	tcase_add_test(tc, dups_build_id);
	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);
	return s;
}
