// SPDX-License-Identifier: GPL-2.0
/* Command table, help and usage errors of the CLI. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "exitcode.h"
#include "probe_def.h"
#include "recfile.h"
#include "suites.h"

int run_main(char *out, size_t outsz, char *err, size_t errsz,
	     int argc, char **argv)
{
	FILE *o = tmpfile(), *e = tmpfile();
	int so = dup(1), se = dup(2), ret;
	size_t n;

	ck_assert(o && e);
	fflush(stdout);
	fflush(stderr);
	dup2(fileno(o), 1);
	dup2(fileno(e), 2);
	ret = kp_main(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	rewind(o);
	rewind(e);
	n = fread(out, 1, outsz - 1, o);
	out[n] = '\0';
	n = fread(err, 1, errsz - 1, e);
	err[n] = '\0';
	fclose(o);
	fclose(e);
	return ret;
}

/*
 * add --dry-run: no module; every definition checked for the arch asked
 * (arm64 here, so no kallsyms of this machine takes part), every error
 * reported with FILE:LINE, the exit code the first one's.
 */
START_TEST(add_dry_run_checks_without_the_module)
{
	char out[512], err[4096], path[] = "/tmp/kpmod-dry-XXXXXX";
	char *ok[] = { "kpmod", "add", "--dry-run", "--arch", "arm64",
		       "p:a/b vfs_read %x0 s=+0($arg2):ustring", "r:a/c vfs_read $retval",
		       "-:a/d", NULL };
	char *bad[] = { "kpmod", "add", "--dry-run", "--arch=arm64", "p:a/b vfs_read %ax",
			"p:a/c vfs_read +0(%x0):u33", NULL };
	char *file[] = { "kpmod", "add", "--dry-run", "--arch", "x86_64", "-f", path, NULL };
	char *filt[] = { "kpmod", "add", "--dry-run", "--arch", "arm64", "--filter", "n >",
			 "p:a/b vfs_read n=$arg3", NULL };
	char *arch[] = { "kpmod", "add", "--dry-run", "--arch", "sparc", "p:a vfs_read", NULL };
	char *noarg[] = { "kpmod", "add", "--arch", "arm64", "p:a vfs_read", NULL };
	FILE *f;
	int fd;

	ck_assert_int_eq(run_main(out, sizeof(out), err, sizeof(err), 8, ok), 0);
	ck_assert_msg(strstr(err, "3 definitions valid for arm64; nothing sent"), "%s", err);
	ck_assert_int_eq(run_main(out, sizeof(out), err, sizeof(err), 6, bad), 16 + KP_E_OTHER_ARCH_REG);
	ck_assert_msg(strstr(err, "kpmod: error: %ax: x86_64 register, not valid on arm64\n"
				  "  Command: p:a/b vfs_read %ax\n"
				  "                          ^\n"), "%s", err);
	ck_assert_msg(strstr(err, "  Command: p:a/c vfs_read +0(%x0):u33\n"), "%s", err);
	ck_assert_msg(strstr(err, "2 of 2 definitions refused; nothing sent"), "%s", err);

	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert(f);
	fputs("p:a/b vfs_read\n\n# a comment\np:a/c vfs_read %bogus\n", f);
	fclose(f);
	ck_assert_int_eq(run_main(out, sizeof(out), err, sizeof(err), 7, file), 16 + KP_E_BAD_REG_NAME);
	ck_assert_msg(strstr(err, ":4: error: Invalid register name\n"), "%s", err);
	ck_assert_msg(strstr(err, path), "%s", err);
	unlink(path);

	ck_assert_int_eq(run_main(out, sizeof(out), err, sizeof(err), 8, filt), KP_EXIT_BADFILTER);
	ck_assert_int_eq(run_main(out, sizeof(out), err, sizeof(err), 6, arch), KP_EXIT_USAGE);
	ck_assert_int_eq(run_main(out, sizeof(out), err, sizeof(err), 5, noarg), KP_EXIT_USAGE);
}
END_TEST

/* kpmod --version and kpmod version: the CLI's, module or not (none here). */
START_TEST(version_needs_no_module)
{
	char out[512], err[512], want[64];
	char *dash[] = { "kpmod", "--version", NULL };
	char *cmd[] = { "kpmod", "version", NULL };
	char *module[] = { "kpmod", "version", "--module", NULL };
	char *extra[] = { "kpmod", "version", "now", NULL };

	snprintf(want, sizeof(want), "kpmod %s (uapi %u)\n", KPMOD_VERSION, KPMOD_UAPI_VERSION);
	ck_assert_int_eq(run_main(out, sizeof(out), err, sizeof(err), 2, dash), 0);
	ck_assert_str_eq(out, want);
	ck_assert_int_eq(run_main(out, sizeof(out), err, sizeof(err), 2, cmd), 0);
	ck_assert_str_eq(out, want);
	/* Asked for the module, which no kernel of this machine has loaded. */
	ck_assert_int_ne(run_main(out, sizeof(out), err, sizeof(err), 3, module), 0);
	ck_assert_str_eq(out, want);
	ck_assert_int_eq(run_main(out, sizeof(out), err, sizeof(err), 3, extra), KP_EXIT_USAGE);
}
END_TEST

START_TEST(every_command_is_found_and_documented)
{
	unsigned int i;

	ck_assert_uint_ge(kp_ncmds, 2);
	for (i = 0; i < kp_ncmds; i++) {
		const struct kp_cmd *c = kp_cmd_find(kp_cmds[i].name);

		ck_assert_ptr_eq(c, &kp_cmds[i]);
		ck_assert_ptr_nonnull(c->run);
		ck_assert_int_gt(strlen(c->summary), 10);
		/* The usage text starts with the exact synopsis. */
		ck_assert_msg(!strncmp(c->usage, "usage: kpmod ", 13) &&
			      strstr(c->usage, c->name),
			      "bad usage text for %s", c->name);
	}
	ck_assert_ptr_null(kp_cmd_find("sta"));
	ck_assert_ptr_null(kp_cmd_find(""));
	ck_assert_ptr_null(kp_cmd_find("STATUS"));
}
END_TEST

START_TEST(wants_help_stops_at_double_dash)
{
	char *a[] = { "status", "--help" };
	char *b[] = { "status", "--", "-h" };
	char *c[] = { "status", "x", "-h" };
	char *d[] = { "status" };

	ck_assert(kp_wants_help(2, a));
	ck_assert(!kp_wants_help(3, b));
	ck_assert(kp_wants_help(3, c));
	ck_assert(!kp_wants_help(1, d));
}
END_TEST

START_TEST(no_arguments_is_a_usage_error)
{
	char out[4096], err[4096];
	char *argv[] = { "kpmod", NULL };

	ck_assert_int_eq(run_main(out, sizeof(out), err, sizeof(err), 1, argv),
			 KP_EXIT_USAGE);
	ck_assert_str_eq(out, "");
	ck_assert_ptr_nonnull(strstr(err, "usage: kpmod COMMAND"));
}
END_TEST

START_TEST(unknown_command_names_it)
{
	char out[4096], err[4096];
	char *argv[] = { "kpmod", "frobnicate", NULL };

	ck_assert_int_eq(run_main(out, sizeof(out), err, sizeof(err), 2, argv),
			 KP_EXIT_USAGE);
	ck_assert_str_eq(err, "kpmod: unknown command 'frobnicate' (try 'kpmod --help')\n");
}
END_TEST

START_TEST(help_lists_every_command_and_exit_code)
{
	char out[4096], err[4096];
	char *argv[] = { "kpmod", "--help", NULL };
	unsigned int i;

	ck_assert_int_eq(run_main(out, sizeof(out), err, sizeof(err), 2, argv),
			 KP_EXIT_OK);
	for (i = 0; i < kp_ncmds; i++)
		ck_assert_ptr_nonnull(strstr(out, kp_cmds[i].name));
	ck_assert_ptr_nonnull(strstr(out, "3 module not loaded"));
	ck_assert_ptr_nonnull(strstr(out, "4 permission denied"));
}
END_TEST

START_TEST(command_help_prints_its_usage_without_running)
{
	char out[4096], err[4096];
	char *a[] = { "kpmod", "status", "--help", NULL };
	char *b[] = { "kpmod", "help", "version", NULL };
	char *c[] = { "kpmod", "help", "nope", NULL };

	/* Would need the module if it ran: exit 0 proves it did not. */
	ck_assert_int_eq(run_main(out, sizeof(out), err, sizeof(err), 3, a), 0);
	ck_assert_str_eq(out, kp_cmd_find("status")->usage);
	ck_assert_int_eq(run_main(out, sizeof(out), err, sizeof(err), 3, b), 0);
	ck_assert_str_eq(out, kp_cmd_find("version")->usage);
	ck_assert_int_eq(run_main(out, sizeof(out), err, sizeof(err), 3, c),
			 KP_EXIT_USAGE);
	ck_assert_str_eq(err, "kpmod: unknown command 'nope'\n");
}
END_TEST

/* A record file of one CPU: chunks of (lost counter, timestamps or none). */
static void write_recfile(const char *path, bool baseline)
{
	struct kp_recinfo info = { .uapi_version = KPMOD_UAPI_VERSION, .nr_cpus = 1,
				   .arch = "x86_64", .release = "6.1.0-test" };
	struct kp_probe_desc p = { .id = 1, .kind = KPMOD_PROBE_ENTRY,
				   .group = "kprobes", .event = "ev", .symbol = "f" };
	uint64_t w[16] = { 0 };
	struct kpmod_record *r = (void *)w;
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	r->len = sizeof(*r);
	r->type = KPMOD_REC_EVENT;
	r->probe_id = 1;
	r->ts_ns = 1000;
	r->cpu = 3;
	ck_assert_int_eq(kp_recfile_write_header(f, &info, &p, 1, NULL, 0), 0);
	if (baseline)	/* 5 lost before the recording: none of its own */
		ck_assert_int_eq(kp_recfile_write_chunk(f, 3, 5, 0, 0, NULL, 0), 0);
	ck_assert_int_eq(kp_recfile_write_chunk(f, 3, 7, 0, 0, w, r->len), 0);
	/* 4 lost after the CPU's last record, seen by the closing counters. */
	ck_assert_int_eq(kp_recfile_write_chunk(f, 3, 11, 0, 0, NULL, 0), 0);
	ck_assert_int_eq(kp_recfile_write_end(f, 2 + baseline), 0);
	ck_assert_int_eq(fclose(f), 0);
}

/*
 * report's LOST lines count what was lost while recording: from the
 * baseline chunk record writes first, to the counters it writes last.
 */
START_TEST(report_counts_lost_from_the_baseline_to_the_end)
{
	char path[] = "/tmp/kpmod-unit-XXXXXX", out[1024], err[256];
	char *argv[] = { "kpmod", "report", path, NULL };
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	write_recfile(path, true);
	ck_assert_int_eq(run_main(out, sizeof(out), err, sizeof(err), 3, argv), 0);
	ck_assert_msg(!strncmp(out, "CPU:3 [LOST 2 EVENTS]\n", 22), "%s", out);
	ck_assert_msg(strstr(out, " ev: (0)\nCPU:3 [LOST 4 EVENTS]\n"), "%s", out);
	ck_assert_ptr_null(strstr(out + 22, "LOST 2"));
	/* A file without a baseline (an older recorder's): all of it counts. */
	write_recfile(path, false);
	ck_assert_int_eq(run_main(out, sizeof(out), err, sizeof(err), 3, argv), 0);
	ck_assert_msg(!strncmp(out, "CPU:3 [LOST 7 EVENTS]\n", 22), "%s", out);
	ck_assert_msg(strstr(out, "CPU:3 [LOST 4 EVENTS]\n"), "%s", out);
	unlink(path);
}
END_TEST

/* Output that cannot be written exits 1 and says so. */
START_TEST(write_errors_exit_non_zero)
{
	char path[] = "/tmp/kpmod-unit-XXXXXX", err[512];
	char *argv[] = { "kpmod", "report", path, NULL };
	int fd = mkstemp(path), full = open("/dev/full", O_WRONLY), so = dup(1), se = dup(2);
	FILE *e = tmpfile();
	size_t n;
	int ret;

	ck_assert_int_ge(fd, 0);
	close(fd);
	if (full < 0) {
		unlink(path);
		return;		/* no /dev/full in this sandbox */
	}
	write_recfile(path, true);
	fflush(stdout);
	fflush(stderr);
	dup2(full, 1);
	dup2(fileno(e), 2);
	ret = kp_main(3, argv);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	clearerr(stdout);
	close(so);
	close(se);
	close(full);
	rewind(e);
	n = fread(err, 1, sizeof(err) - 1, e);
	err[n] = '\0';
	fclose(e);
	unlink(path);
	ck_assert_int_eq(ret, KP_EXIT_ERROR);
	ck_assert_msg(strstr(err, "kpmod: report: write error: No space left on device"), "%s", err);
}
END_TEST

/* Numbers that are not counts or durations, and unknown options: usage errors, said. */
START_TEST(bad_numbers_and_options_are_refused)
{
	static const char *const cases[][4] = {
		{ "trace", "--count", "-1", "bad --count '-1'" },
		{ "trace", "--count", "0", "bad --count '0'" },
		{ "trace", "--count", "1e3", "bad --count '1e3'" },
		{ "trace", "--duration", "nan", "bad --duration 'nan'" },
		{ "trace", "--duration", "inf", "bad --duration 'inf'" },
		{ "record", "--duration", "-2", "bad --duration '-2'" },
		{ "trace", "--bogus", NULL, "kpmod: trace: unknown option '--bogus' (see kpmod trace --help)" },
		{ "buffer", "--size", NULL, "kpmod: buffer: option '--size' needs a value" },
		{ "report", "-x", NULL, "kpmod: report: unknown option '-x'" },
		{ "trace", "--", NULL, "kpmod: trace: '--' is followed by no command" },
	};
	char out[512], err[512];
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[] = { "kpmod", (char *)cases[i][0], (char *)cases[i][1],
				 (char *)cases[i][2], NULL };
		int argc = cases[i][2] ? 4 : 3;

		ck_assert_int_eq(run_main(out, sizeof(out), err, sizeof(err), argc, argv),
				 KP_EXIT_USAGE);
		ck_assert_msg(strstr(err, cases[i][3]), "%s %s: %s", cases[i][0], cases[i][1], err);
	}
}
END_TEST

/*
 * A definition error exits 16 + its number, which scripts and the man page
 * rely on: a code may be added at the end, never moved.
 */
START_TEST(definition_error_codes_never_move)
{
	static const struct { int code, pinned; } pins[] = {
		{ KP_E_MAXACT_NO_KPROBE, 1 },
		{ KP_E_BAD_MAXACT, 2 },
		{ KP_E_MAXACT_TOO_BIG, 3 },
		{ KP_E_BAD_PROBE_ADDR, 4 },
		{ KP_E_NON_UNIQ_SYMBOL, 5 },
		{ KP_E_BAD_RETPROBE, 6 },
		{ KP_E_BAD_ADDR_SUFFIX, 7 },
		{ KP_E_NO_GROUP_NAME, 8 },
		{ KP_E_GROUP_TOO_LONG, 9 },
		{ KP_E_BAD_GROUP_NAME, 10 },
		{ KP_E_NO_EVENT_NAME, 11 },
		{ KP_E_EVENT_TOO_LONG, 12 },
		{ KP_E_BAD_EVENT_NAME, 13 },
		{ KP_E_EVENT_EXIST, 14 },
		{ KP_E_RETVAL_ON_PROBE, 15 },
		{ KP_E_BAD_STACK_NUM, 16 },
		{ KP_E_BAD_ARG_NUM, 17 },
		{ KP_E_BAD_VAR, 18 },
		{ KP_E_BAD_REG_NAME, 19 },
		{ KP_E_BAD_MEM_ADDR, 20 },
		{ KP_E_BAD_IMM, 21 },
		{ KP_E_IMMSTR_NO_CLOSE, 22 },
		{ KP_E_FILE_ON_KPROBE, 23 },
		{ KP_E_TOO_MANY_OPS, 24 },
		{ KP_E_DEREF_NEED_BRACE, 25 },
		{ KP_E_BAD_DEREF_OFFS, 26 },
		{ KP_E_DEREF_OPEN_BRACE, 27 },
		{ KP_E_COMM_CANT_DEREF, 28 },
		{ KP_E_BAD_FETCH_ARG, 29 },
		{ KP_E_ARRAY_NO_CLOSE, 30 },
		{ KP_E_BAD_ARRAY_SUFFIX, 31 },
		{ KP_E_BAD_ARRAY_NUM, 32 },
		{ KP_E_ARRAY_TOO_BIG, 33 },
		{ KP_E_BAD_TYPE, 34 },
		{ KP_E_BAD_STRING, 35 },
		{ KP_E_BAD_SYMSTRING, 36 },
		{ KP_E_BAD_BITFIELD, 37 },
		{ KP_E_ARG_NAME_TOO_LONG, 38 },
		{ KP_E_NO_ARG_NAME, 39 },
		{ KP_E_BAD_ARG_NAME, 40 },
		{ KP_E_USED_ARG_NAME, 41 },
		{ KP_E_ARG_TOO_LONG, 42 },
		{ KP_E_NO_ARG_BODY, 43 },
		{ KP_E_BAD_INSN_BNDRY, 44 },
		{ KP_E_FAIL_REG_PROBE, 45 },
		{ KP_E_EVENT_TOO_BIG, 46 },
		{ KP_E_EMPTY, 47 },
		{ KP_E_BAD_COMMAND, 48 },
		{ KP_E_NO_PROBE_POINT, 49 },
		{ KP_E_UPROBE, 50 },
		{ KP_E_SYMBOL_TOO_LONG, 51 },
		{ KP_E_MODULE_TOO_LONG, 52 },
		{ KP_E_OTHER_ARCH_REG, 53 },
		{ KP_E_NO_ARCH, 54 },
		{ KP_E_UNKNOWN_SYMBOL, 55 },
		{ KP_E_BAD_SYM_OFFS, 56 },
		{ KP_E_ARG_NOT_AT_ENTRY, 57 },
		{ KP_E_STRING_ONLY, 58 },
		{ KP_E_DEREF_SUFFIX, 59 },
		{ KP_E_TOO_MANY_ARGS, 60 },
		{ KP_E_DEF_TOO_LONG, 61 },
		{ KP_E_DEL_EXTRA_ARGS, 62 },
		{ KP_E_DURATION_ON_PROBE, 63 },
		{ KP_E_FILE_NOT_FOUND, 64 },
		{ KP_E_NO_REGULAR_FILE, 65 },
		{ KP_E_BAD_REFCNT, 66 },
		{ KP_E_REFCNT_OPEN_BRACE, 67 },
		{ KP_E_BAD_REFCNT_SUFFIX, 68 },
		{ KP_E_BAD_UPROBE_OFFS, 69 },
		{ KP_E_BAD_FILE_OFFS, 70 },
		{ KP_E_SYM_ON_UPROBE, 71 },
		{ KP_E_NOT_ELF, 72 },
		{ KP_E_ELF_OTHER_ARCH, 73 },
		{ KP_E_OFFS_NOT_EXEC, 74 },
		{ KP_E_UPROBE_VAR, 75 },
		{ KP_E_MAXACT_ON_UPROBE, 76 },
		{ KP_E_UNKNOWN_MARKER, 77 },
		{ KP_E_BAD_USDT_ARG, 78 },
		{ KP_E_NOSUP_BTFARG, 79 },
		{ KP_E_NO_BTFARG, 80 },
		{ KP_E_NO_BTF_ENTRY, 81 },
		{ KP_E_NO_RETVAL, 82 },
		{ KP_E_NOFENTRY_ARGS, 83 },
		{ KP_E_DOUBLE_ARGS, 84 },
		{ KP_E_NO_PTR_STRCT, 85 },
		{ KP_E_NOSUP_DAT_ARG, 86 },
		{ KP_E_BAD_HYPHEN, 87 },
		{ KP_E_NO_BTF_FIELD, 88 },
		{ KP_E_BAD_BTF_TID, 89 },
		{ KP_E_BAD_TYPE4STR, 90 },
		{ KP_E_TOO_MANY_NESTED, 91 },
		{ KP_E_TYPECAST_REQ_FIELD, 92 },
		{ KP_E_TYPECAST_SYM_OFFSET, 93 },
		{ KP_E_TYPECAST_NOT_ALIGNED, 94 },
		{ KP_E_TYPECAST_BAD_ARROW, 95 },
		{ KP_E_NOSUP_PERCPU, 96 },
	};
	unsigned int i;

	ck_assert_int_eq(KP_E__COUNT, sizeof(pins) / sizeof(pins[0]) + 1);
	for (i = 0; i < sizeof(pins) / sizeof(pins[0]); i++)
		ck_assert_int_eq(pins[i].code, pins[i].pinned);
}
END_TEST

START_TEST(extra_arguments_are_refused)
{
	char out[4096], err[4096];
	char *a[] = { "kpmod", "status", "now", NULL };
	char *b[] = { "kpmod", "version", "x", NULL };

	ck_assert_int_eq(run_main(out, sizeof(out), err, sizeof(err), 3, a),
			 KP_EXIT_USAGE);
	ck_assert_str_eq(err, "kpmod: status: takes no arguments but --json\n");
	ck_assert_int_eq(run_main(out, sizeof(out), err, sizeof(err), 3, b),
			 KP_EXIT_USAGE);
	ck_assert_str_eq(err, "kpmod: version: takes no arguments\n");
}
END_TEST

KP_SUITE(cli_suite)
static Suite *cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("commands");

	tcase_add_test(tc, every_command_is_found_and_documented);
	tcase_add_test(tc, version_needs_no_module);
	tcase_add_test(tc, write_errors_exit_non_zero);
	tcase_add_test(tc, definition_error_codes_never_move);
	tcase_add_test(tc, bad_numbers_and_options_are_refused);
	tcase_add_test(tc, add_dry_run_checks_without_the_module);
	tcase_add_test(tc, wants_help_stops_at_double_dash);
	tcase_add_test(tc, no_arguments_is_a_usage_error);
	tcase_add_test(tc, unknown_command_names_it);
	tcase_add_test(tc, help_lists_every_command_and_exit_code);
	tcase_add_test(tc, command_help_prints_its_usage_without_running);
	tcase_add_test(tc, extra_arguments_are_refused);
	tcase_add_test(tc, report_counts_lost_from_the_baseline_to_the_end);
	suite_add_tcase(s, tc);
	return s;
}
