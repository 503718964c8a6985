// SPDX-License-Identifier: GPL-2.0
/* kpmod funcs: which functions a probe can go on, from kallsyms and the blacklist. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "funcs.h"
#include "suites.h"

KP_SUITE(funcs_suite)

static const char kallsyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81001000 T vfs_read\n"
	"ffffffff81001100 t vfs_readv\n"
	"ffffffff81001200 t dup_name\n"
	"ffffffff81001300 t dup_name\n"			/* twice: not unique */
	"ffffffff81001400 t clash\n"
	"ffffffff81401400 d clash\n"			/* a data symbol of its name */
	"ffffffff81001500 t helper.isra.0\n"		/* a compiler's copy */
	"ffffffff81001600 t __pfx_vfs_read\n"		/* padding */
	"ffffffff81001700 T do_blacklisted\n"
	"ffffffff81001700 T do_blacklisted_alias\n"	/* refused by its address */
	"ffffffff81001800 T vfs_write\n"
	"ffffffff81002000 T _etext\n"
	"ffffffff81100000 T _sinittext\n"
	"ffffffff81100010 t start_kernel_helper\n"	/* __init, gone */
	"ffffffff81200000 T _einittext\n"
	"ffffffff81400000 D some_data\n"
	"ffffffff81400100 T data_typed_text\n"	/* 7.3 x86_64 types .data so */
	"ffffffffc0001000 t foo_read\t[foo]\n"
	"ffffffffc0001100 t dup_name\t[foo]\n"		/* unique in its module */
	"ffffffffc0002000 t foo_read\t[bar]\n";

static const char blacklist[] =
	"0xffffffff81001700-0xffffffff81001780\tdo_blacklisted\n"
	"0xffffffffc0002000-0xffffffffc0002010\tfoo_read [bar]\n"
	"0xffffffff81000000-0xffffffff81000010\t_stext\n";

/* kpmod funcs on @syms and @black. */
static char *list_of(const char *syms, const char *black, const char *glob,
		     enum kp_funcs_format format, size_t *n)
{
	struct kp_ksyms k;
	struct kp_blacklist bl;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	ck_assert_int_eq(kp_ksyms_load_buf(&k, syms, strlen(syms)), 0);
	ck_assert_int_eq(kp_blacklist_load_buf(&bl, black, strlen(black)), 0);
	ck_assert_uint_eq(bl.n, 3);
	out = open_memstream(&buf, &len);
	ck_assert(out);
	*n = kp_funcs_print(out, &k, &bl, glob, format, NULL);
	fclose(out);
	kp_blacklist_free(&bl);
	kp_ksyms_free(&k);
	return buf;
}

static char *list(const char *glob, enum kp_funcs_format format, size_t *n)
{
	return list_of(kallsyms, blacklist, glob, format, n);
}

/* The same tables as a user sees them: every address 0. */
static char *zeroed(const char *text)
{
	char *z = strdup(text), *p;

	ck_assert(z);
	for (p = z; (p = strstr(p, "ffff")); )
		while (*p && *p != '-' && *p != ' ' && *p != '\t')
			*p++ = '0';
	return z;
}

START_TEST(probeable_functions_by_kprobe_events_rules)
{
	size_t n;
	char *s = list(NULL, KP_FUNCS_TEXT, &n);

	/*
	 * By name; bar's foo_read is blacklisted ("foo_read [bar]"), foo's is
	 * not.  Nothing of the kernel's outside _stext.._etext, whatever its type.
	 */
	ck_assert_str_eq(s, "foo:dup_name\nfoo:foo_read\nvfs_read\nvfs_readv\nvfs_write\n");
	ck_assert_uint_eq(n, 5);
	free(s);
	s = list("vfs_read*", KP_FUNCS_TEXT, &n);
	ck_assert_str_eq(s, "vfs_read\nvfs_readv\n");
	free(s);
	/* A glob with the module's name selects by MOD:NAME. */
	s = list("foo:*", KP_FUNCS_JSON, &n);
	ck_assert_str_eq(s, "[\"foo:dup_name\",\"foo:foo_read\"]\n");
	ck_assert_uint_eq(n, 2);
	free(s);
	s = list("nothing*", KP_FUNCS_JSON, &n);
	ck_assert_str_eq(s, "[]\n");
	ck_assert_uint_eq(n, 0);
	free(s);
}
END_TEST

/*
 * Without addresses (a user's view) the blacklist goes by name: the alias
 * of a blacklisted function is listed, and the __init code too.
 */
START_TEST(hidden_addresses_fall_back_to_names)
{
	char *syms = zeroed(kallsyms), *black = zeroed(blacklist);
	size_t n;
	char *s = list_of(syms, black, "do_*", KP_FUNCS_TEXT, &n);

	ck_assert_str_eq(s, "do_blacklisted_alias\n");
	free(s);
	s = list_of(syms, black, "start_kernel_helper", KP_FUNCS_TEXT, &n);
	ck_assert_str_eq(s, "start_kernel_helper\n");
	free(s);
	free(syms);
	free(black);
}
END_TEST

static Suite *funcs_suite(void)
{
	Suite *s = suite_create("funcs");
	TCase *tc = tcase_create("funcs");

	tcase_add_test(tc, probeable_functions_by_kprobe_events_rules);
	tcase_add_test(tc, hidden_addresses_fall_back_to_names);
	suite_add_tcase(s, tc);
	return s;
}
