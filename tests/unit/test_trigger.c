// SPDX-License-Identifier: GPL-2.0
/*
 * Triggers: the grammar and the kernel's messages and error positions,
 * the text the module keeps and the one `kpmod trigger` lists, and a hist
 * table printed and sorted as hist_trigger_show() prints it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist_print.h"
#include "suites.h"
#include "kver.h"
#include "trigger.h"

static struct kp_filter_fields *fields(uint32_t kind)
{
	/* The fields point into their probe's names: it outlives them. */
	static struct kp_probe_info probe;
	struct kp_probe_info *p = &probe;
	struct kp_filter_fields *ff = calloc(1, sizeof(*ff));

	ck_assert(ff);
	memset(p, 0, sizeof(*p));
	p->desc.kind = kind;
	p->desc.nargs = 3;
	snprintf(p->desc.args[0].name, sizeof(p->desc.args[0].name), "nr");
	p->desc.args[0].type = KPMOD_T_S32;
	p->desc.args[0].size = 4;
	snprintf(p->desc.args[1].name, sizeof(p->desc.args[1].name), "path");
	p->desc.args[1].type = KPMOD_T_STRING;
	p->desc.args[1].size = 4;
	snprintf(p->desc.args[2].name, sizeof(p->desc.args[2].name), "len");
	p->desc.args[2].type = KPMOD_T_U64;
	p->desc.args[2].size = 8;
	kp_filter_fields_of(p, ff);
	return ff;
}

static struct kp_trigger *parse_ok(const char *line)
{
	struct kp_filter_fields *ff = fields(KPMOD_PROBE_ENTRY);
	struct kp_trigger *t = malloc(sizeof(*t));
	struct kp_trigger_error err;

	ck_assert(t);
	ck_assert_msg(!kp_trigger_parse(line, ff, t, &err), "%s: %s", line, err.msg);
	free(ff);
	return t;
}

static void parse_bad(const char *line, const char *msg, int pos)
{
	struct kp_filter_fields *ff = fields(KPMOD_PROBE_ENTRY);
	struct kp_trigger *t = malloc(sizeof(*t));
	struct kp_trigger_error err;

	ck_assert(t);
	ck_assert_msg(kp_trigger_parse(line, ff, t, &err) == -EINVAL, "%s parsed", line);
	ck_assert_str_eq(err.msg, msg);
	ck_assert_msg(err.pos == pos, "%s: caret at %d, not %d", line, err.pos, pos);
	free(t);
	free(ff);
}

/* The line `kpmod trigger` lists for @line as added. */
static void listed(const char *line, const char *want)
{
	struct kp_filter_fields *ff = fields(KPMOD_PROBE_ENTRY);
	struct kp_trigger *t = parse_ok(line);
	struct kp_trigger_info info = { .type = t->type, .count = t->count,
					.text = t->text, .filter = t->filter };
	char buf[2048];

	kp_trigger_line(buf, sizeof(buf), &info, ff);
	ck_assert_str_eq(buf, want);
	free(t);
	free(ff);
}

START_TEST(test_simple_triggers)
{
	struct kp_trigger *t = parse_ok("  traceoff:5 if nr == 3  ");

	ck_assert_uint_eq(t->type, KPMOD_TRIGGER_TRACEOFF);
	ck_assert_uint_eq(t->count, 5);
	ck_assert_str_eq(t->text, "traceoff");
	ck_assert_str_eq(t->filter, "nr == 3");
	free(t);
	t = parse_ok("!traceon");
	ck_assert(t->remove);
	ck_assert_uint_eq(t->count, KPMOD_TRIGGER_UNLIMITED);
	free(t);
	t = parse_ok("enable_event:kph:other:2 if len > 10");
	ck_assert_uint_eq(t->type, KPMOD_TRIGGER_ENABLE_EVENT);
	ck_assert_str_eq(t->target_group, "kph");
	ck_assert_str_eq(t->target_event, "other");
	ck_assert_uint_eq(t->count, 2);
	ck_assert_str_eq(t->text, "enable_event:kph:other");
	ck_assert_str_eq(t->filter, "len > 10");
	free(t);
	t = parse_ok("stacktrace:3 if nr == 1");
	ck_assert_uint_eq(t->type, KPMOD_TRIGGER_STACKTRACE);
	ck_assert_uint_eq(t->count, 3);
	ck_assert_str_eq(t->text, "stacktrace");
	free(t);
	t = parse_ok("snapshot:1 if nr == 7");
	ck_assert_uint_eq(t->type, KPMOD_TRIGGER_SNAPSHOT);
	ck_assert_uint_eq(t->count, 1);
	ck_assert_str_eq(t->text, "snapshot");
	ck_assert_str_eq(t->filter, "nr == 7");
	free(t);
	listed("snapshot", "snapshot:unlimited\n");
	listed("snapshot:3 if nr > 1", "snapshot:count=3 if nr > 1\n");
	listed("stacktrace", "stacktrace:unlimited\n");
	listed("stacktrace:2 if nr > 1", "stacktrace:count=2 if nr > 1\n");
	listed("traceon", "traceon:unlimited\n");
	listed("traceoff:0x10 if nr < 2", "traceoff:count=16 if nr < 2\n");
	listed("disable_event:a:b", "disable_event:a:b:unlimited\n");
	/* As the kernel: what is not a count is a filter, which needs its 'if'. */
	parse_bad("traceon:x", "kpmod: a filter starts with 'if'", 0);
	parse_bad("traceon:5x", "kpmod: the count is not a number", 0);
	listed("traceon 5", "traceon:count=5\n");
	parse_bad("traceon iff nr == 1", "kpmod: a filter starts with 'if'", 0);
	parse_bad("enable_event:kph", "kpmod: name the event to switch as GROUP:EVENT", 0);
	parse_bad("bogus", "kpmod: no such trigger command", 0);
	parse_bad("enable_hist:kprobes:x", "kpmod: this trigger is not supported yet", 0);
}
END_TEST

START_TEST(test_hist_text)
{
	struct kp_trigger *t;

	/* Defaults filled in, names and modifiers as the kernel prints them. */
	listed("hist:keys=nr", "hist:keys=nr:vals=hitcount:sort=hitcount:size=2048 [active]\n");
	listed("hist:key=nr.log2,common_pid.execname:values=len,hitcount:sort=len.descending,nr:size=1000 if nr > 1",
	       "hist:keys=nr.log2,common_pid.execname:vals=hitcount,len:sort=len.descending,nr.log2:size=1024 if nr > 1 [active]\n");
	listed("hist:keys=nr.buckets=10,path:vals=len.hex,len.percent",
	       "hist:keys=nr.buckets=10,path:vals=hitcount,len.hex,len.percent:sort=hitcount:size=2048 [active]\n");
	listed("hist:keys=len.sym-offset,__probe_ip.sym:vals=len.max,len.min",
	       "hist:keys=len.sym-offset,__probe_ip.sym:vals=hitcount,len.max,len.min:sort=hitcount:size=2048 [active]\n");
	listed("hist:keys=nr:vals=len.avg", "hist:keys=nr:vals=hitcount,len.avg:sort=hitcount:size=2048 [active]\n");
	/* name= first, as the kernel prints it, wherever it was written. */
	/* A hist keeps the blanks after its "if", as the kernel lists them. */
	listed("hist:keys=nr if   nr == 1 \t",
	       "hist:keys=nr:vals=hitcount:sort=hitcount:size=2048 if   nr == 1 [active]\n");
	listed("hist:keys=nr if\tnr == 1", "hist:keys=nr:vals=hitcount:sort=hitcount:size=2048 if nr == 1 [active]\n");
	listed("hist:keys=nr:size=256:name=sz if nr > 1",
	       "hist:name=sz:keys=nr:vals=hitcount:sort=hitcount:size=256 if nr > 1 [active]\n");
	t = parse_ok("hist:keys=nr:name=sz");
	ck_assert_str_eq(t->hist.name, "sz");
	ck_assert_str_eq(t->text, "hist:name=sz:keys=nr:vals=hitcount:sort=hitcount:size=2048");
	free(t);
	/* cpu: by its name in entries and sort, common_cpu in the trigger. */
	listed("hist:keys=cpu:sort=cpu", "hist:keys=common_cpu:vals=hitcount:sort=common_cpu:size=2048 [active]\n");
	/* A stacktrace key by the name the running kernel's hist gives it. */
	kp_kver_set("6.1.0-56-amd64");
	t = parse_ok("hist:keys=cpu,stacktrace:sort=cpu");
	ck_assert_str_eq(t->text, "hist:keys=cpu,stacktrace:vals=hitcount:sort=cpu:size=2048");
	ck_assert_uint_eq(t->hist.key_size, 8 + 128);
	ck_assert_uint_eq(t->hist.keys[1].mod.field, KPMOD_FIELD_STACKTRACE);
	free(t);
	kp_kver_set("6.3.13");
	t = parse_ok("hist:keys=stacktrace");
	ck_assert_str_eq(t->text, "hist:keys=stacktrace:vals=hitcount:sort=hitcount:size=2048");
	free(t);
	kp_kver_set("6.4.0");
	t = parse_ok("hist:keys=STACKTRACE");
	ck_assert_str_eq(t->text, "hist:keys=common_stacktrace:vals=hitcount:sort=hitcount:size=2048");
	free(t);
	kp_kver_set("6.12.57+deb13-arm64");
	t = parse_ok("hist:keys=stacktrace");
	ck_assert_str_eq(t->text, "hist:keys=common_stacktrace:vals=hitcount:sort=hitcount:size=2048");
	free(t);
	kp_kver_set("5.10.0-35-amd64");
	t = parse_ok("hist:keys=common_stacktrace");
	ck_assert_str_eq(t->text, "hist:keys=stacktrace:vals=hitcount:sort=hitcount:size=2048");
	free(t);
	kp_kver_set("6.1.0");
	/* What the module is sent. */
	t = parse_ok("hist:keys=nr.buckets=0x10,common_pid.execname,path:vals=len.max:pause");
	ck_assert_uint_eq(t->hist.nkeys, 3);
	ck_assert_uint_eq(t->hist.keys[0].mod.field, 0);
	ck_assert_uint_eq(t->hist.keys[0].mod.flags, KPMOD_HIST_F_BUCKETS);
	ck_assert_uint_eq(t->hist.keys[0].mod.buckets, 16);
	ck_assert_uint_eq(t->hist.keys[1].mod.field, KPMOD_FIELD_PID);
	ck_assert_uint_eq(t->hist.keys[1].mod.flags, KPMOD_HIST_F_EXECNAME);
	ck_assert_uint_eq(t->hist.keys[2].off, 16);
	ck_assert_uint_eq(t->hist.key_size, 16 + KPMOD_HIST_STR_KEY);
	ck_assert_uint_eq(t->hist.vals[0].mod.flags, KPMOD_HIST_F_MAX);
	ck_assert_uint_eq(t->hist.action, KPMOD_HIST_PAUSE);
	free(t);
	/*
	 * A value's .execname, as the kernel's: a sum of pids, printed as a
	 * number; the module takes no EXECNAME flag on a value (it refused it).
	 */
	t = parse_ok("hist:keys=nr:vals=common_pid.execname");
	ck_assert_uint_eq(t->hist.vals[0].mod.field, KPMOD_FIELD_PID);
	ck_assert_uint_eq(t->hist.vals[0].mod.flags, 0);
	free(t);
	listed("hist:keys=nr:vals=common_pid.execname",
	       "hist:keys=nr:vals=hitcount,common_pid.execname:sort=hitcount:size=2048 [active]\n");
}
END_TEST

START_TEST(test_hist_named_mismatch)
{
	struct kp_trigger *t = parse_ok(" hist:keys=nr:name=sz if nr > 1");
	struct kp_err e = { .errnum = EINVAL };
	struct kp_trigger_error err;

	snprintf(e.msg, sizeof(e.msg), "%s",
		 "Named hist trigger doesn't match existing named trigger (includes variables)");
	ck_assert(kp_trigger_named_mismatch(" hist:keys=nr:name=sz if nr > 1", t, &e, &err));
	ck_assert_str_eq(err.cmd, "hist:keys=nr:name=sz if nr > 1");
	ck_assert_int_eq(err.pos, 13);
	e.errnum = EEXIST;
	ck_assert(!kp_trigger_named_mismatch("hist:keys=nr:name=sz", t, &e, &err));
	free(t);
}
END_TEST

START_TEST(test_hist_errors)
{
	/* error_log's positions: where the text first occurs in "hist:...". */
	parse_bad("hist:keys=nosuch", "Couldn't find field", 10);
	parse_bad("hist:keys=nr.foo", "Invalid field modifier", 13);
	parse_bad("hist:keys=nr,nr.bucket=x", "Invalid field modifier", 23);
	parse_bad("hist:keys=nr,nr.bucketsx", "Invalid field modifier", 23);
	parse_bad("hist:keys=nr.execname", "Invalid field modifier", 13);
	/* An "if" with nothing after it. */
	parse_bad("hist:keys=nr if   ", "kpmod: a misplaced 'if'", 0);
	/* A value takes no .log2, .buckets, .sym or .sym-offset: caret at its name. */
	parse_bad("hist:keys=nr:vals=len.log2", "Invalid field modifier", 18);
	parse_bad("hist:keys=nr:vals=hitcount,len.buckets=10", "Invalid field modifier", 27);
	parse_bad("hist:keys=nr:vals=len.sym", "Invalid field modifier", 18);
	parse_bad("hist:keys=nr:vals=len.sym-offset", "Invalid field modifier", 18);
	parse_bad("hist:keys=nr:sort=nosuch", "Sort field must be a key or a val", 18);
	parse_bad("hist:keys=nr:sort=nr.up", "Invalid sort modifier", 21);
	parse_bad("hist:keys=nr:sort=", "Empty assignment", 13);
	parse_bad("hist:keys=nr:sort=,nr", "Empty sort field", 13);
	parse_bad("hist:keys=nr:sort=nr,hitcount,nr", "Too many sort fields (Max = 2)", 13);
	parse_bad("hist:keys=comm", "Couldn't find field", 10);
	/* What the kernel refuses without an error_log entry. */
	parse_bad("hist:vals=nr", "kpmod: a hist needs keys=", 0);
	parse_bad("hist:keys=nr:size=64", "kpmod: size must be 128 to 131072 (a power of two)", 0);
	parse_bad("hist:keys=nr,len,nr,len", "kpmod: a hist takes at most 3 keys", 0);
	parse_bad("hist:keys=nr:vals=len,len,nr", "kpmod: a hist takes at most 2 values besides hitcount", 0);
	parse_bad("hist:keys=path,stacktrace,path", "kpmod: keys too large (the kernel's limit: one string and a stacktrace)", 0);
	parse_bad("hist:keys=nr:name=0123456789012345678901234567890123456789012345678901234567890123",
		  "kpmod: a hist's name is at most 63 bytes", 0);
	parse_bad("hist:keys=nr:name=", "Empty assignment", 13);
	parse_bad("hist:keys=nr:onmax(len).save(nr)", "kpmod: actions are not supported", 0);
	parse_bad("hist:keys=path.hex", "kpmod: a string key takes no modifier", 10);
	parse_bad("hist:keys=nr:vals=path", "kpmod: a value must be a number", 18);
}
END_TEST

/* A table of @n entries of the spec @text: key @keys[i] (a number), hitcount @hits[i]. */
static char *show(const char *text, size_t n, const uint64_t *keys, const uint64_t *hits,
		  const uint64_t *vals)
{
	struct kp_filter_fields *ff = fields(KPMOD_PROBE_ENTRY);
	struct kp_trigger *t = parse_ok(text);
	struct kp_hist_data d = { .hits = 0, .drops = 1, .key_size = t->hist.key_size, .n = n };
	struct kp_trigger_info info = { .type = t->type, .count = t->count,
					.text = t->text, .filter = t->filter };
	char line[1024], *buf = NULL;
	size_t i, len = 0;
	FILE *out;

	d.entry_size = sizeof(struct kpmod_hist_entry) + d.key_size;
	d.entries = calloc(n, d.entry_size);
	ck_assert(d.entries);
	for (i = 0; i < n; i++) {
		struct kpmod_hist_entry *e = (void *)(d.entries + i * d.entry_size);

		e->vals[0] = hits[i];
		e->vals[1] = vals ? vals[i] : 0;
		e->vals[2] = e->vals[1];
		snprintf(e->comm, sizeof(e->comm), "work");
		memcpy(e->key, &keys[i], 8);
		d.hits += hits[i];
	}
	kp_trigger_line(line, sizeof(line), &info, ff);
	out = open_memstream(&buf, &len);
	ck_assert(out);
	kp_hist_show(out, &t->hist, line, &d, NULL);
	fclose(out);
	free(d.entries);
	free(t);
	free(ff);
	return buf;
}

START_TEST(test_hist_show)
{
	const uint64_t keys[] = { 5, 3, 9 }, hits[] = { 2, 7, 1 }, vals[] = { 10, 21, 9 };
	char *s;

	s = show("hist:keys=nr:vals=len", 3, keys, hits, vals);
	ck_assert_str_eq(s,
		"# event histogram\n#\n"
		"# trigger info: hist:keys=nr:vals=hitcount,len:sort=hitcount:size=2048 [active]\n"
		"#\n\n"
		"{ nr:          9 } hitcount:          1  len:          9\n"
		"{ nr:          5 } hitcount:          2  len:         10\n"
		"{ nr:          3 } hitcount:          7  len:         21\n"
		"\nTotals:\n    Hits: 10\n    Entries: 3\n    Dropped: 1\n");
	free(s);
	s = show("hist:keys=nr.log2:vals=len.percent,len.graph:sort=nr.descending", 3, keys, hits, vals);
	ck_assert_msg(strstr(s, "\n{ nr: ~ 2^9  } hitcount:          1  len (%):  22.50  len: ########            \n"
			     "{ nr: ~ 2^5  } hitcount:          2  len (%):  25.00  len: #########           \n"), "%s", s);
	free(s);
	s = show("hist:keys=nr:vals=len.avg:sort=nr", 3, keys, hits, vals);
	ck_assert_msg(strstr(s, "\n{ nr:          3 } hitcount:          7  len.avg:          3\n"), "%s", s);
	free(s);
	s = show("hist:keys=common_pid.execname,nr.hex:sort=nr", 3, keys, hits, NULL);
	ck_assert_msg(strstr(s, "\n{ common_pid: work            [         3], nr: 0 } hitcount:          7\n"), "%s", s);
	free(s);
	s = show("hist:keys=nr.buckets=4:sort=hitcount.descending", 3, keys, hits, NULL);
	ck_assert_msg(strstr(s, "\n{ nr: ~ 3-6 } hitcount:          7\n{ nr: ~ 5-8 } hitcount:          2\n"), "%s", s);
	free(s);
}
END_TEST

/*
 * Ties in the kernel's order: ten keys of 3 hits, sorted by hitcount.  The
 * orders are what 6.1's and 6.12's tracing_map_sort_entries() leave (their
 * lib/sort.c run on the same entries).
 */
START_TEST(test_hist_ties)
{
	const uint64_t keys[] = { 7000004, 7000000, 7000009, 7000001, 7000008,
				  7000002, 7000007, 7000003, 7000006, 7000005 };
	const uint64_t hits[] = { 3, 3, 3, 3, 3, 3, 3, 3, 3, 3 };
	const char *v61 = "7000001 7000002 7000003 7000004 7000005 7000006 7000007 7000008 7000009 7000000 ";
	const char *v612 = "7000001 7000003 7000004 7000005 7000006 7000007 7000008 7000009 7000002 7000000 ";
	const char *rel[] = { "6.1.0-56-amd64", "6.12.57+deb13-amd64" };
	char got[128], *s, *p;
	size_t len;
	int i;

	for (i = 0; i < 2; i++) {
		kp_kver_set(rel[i]);
		s = show("hist:keys=nr", 10, keys, hits, NULL);
		len = 0;
		for (p = s; (p = strstr(p, "{ nr:    700")); p += 12)
			len += snprintf(got + len, sizeof(got) - len, "%.7s ", p + 9);
		ck_assert_str_eq(got, i ? v612 : v61);
		free(s);
	}
	kp_kver_set("6.1.0");
}
END_TEST

/* kp_hist_graph() on the table show() builds. */
static char *graph(const char *text, size_t n, const uint64_t *keys, const uint64_t *hits)
{
	struct kp_filter_fields *ff = fields(KPMOD_PROBE_ENTRY);
	struct kp_trigger *t = parse_ok(text);
	struct kp_hist_data d = { .key_size = t->hist.key_size, .n = n };
	char *buf = NULL;
	size_t i, len = 0;
	FILE *out;

	d.entry_size = sizeof(struct kpmod_hist_entry) + d.key_size;
	d.entries = calloc(n, d.entry_size);
	ck_assert(d.entries);
	for (i = 0; i < n; i++) {
		struct kpmod_hist_entry *e = (void *)(d.entries + i * d.entry_size);

		e->vals[0] = hits[i];
		memcpy(e->key, &keys[i], 8);
	}
	out = open_memstream(&buf, &len);
	ck_assert(out);
	kp_hist_graph(out, &t->hist, &d, NULL);
	fclose(out);
	free(d.entries);
	free(t);
	free(ff);
	return buf;
}

static void same(const char *got, const char *want)
{
	if (strcmp(got, want))
		fprintf(stderr, "got:\n%s\nwant:\n%s\n", got, want);
	ck_assert(!strcmp(got, want));
}

START_TEST(test_hist_graph)
{
	const uint64_t pow[] = { 14, 12, 0 }, hits[] = { 10, 5, 1 };
	const uint64_t lin[] = { 20, 0 }, lhits[] = { 3, 6 };
	const uint64_t two[] = { 7, 9 };
	char *s;

	/* bpftrace's rows: label in 16, count in 8, a bar of 52; empty buckets too. */
	s = graph("hist:keys=len.log2", 3, pow, hits);
	same(s,
		"@len:\n"
		"[0, 1]                 1 |@@@@@                                               |\n"
		"(1, 2]                 0 |                                                    |\n"
		"(2, 4]                 0 |                                                    |\n"
		"(4, 8]                 0 |                                                    |\n"
		"(8, 16]                0 |                                                    |\n"
		"(16, 32]               0 |                                                    |\n"
		"(32, 64]               0 |                                                    |\n"
		"(64, 128]              0 |                                                    |\n"
		"(128, 256]             0 |                                                    |\n"
		"(256, 512]             0 |                                                    |\n"
		"(512, 1K]              0 |                                                    |\n"
		"(1K, 2K]               0 |                                                    |\n"
		"(2K, 4K]               5 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		"(4K, 8K]               0 |                                                    |\n"
		"(8K, 16K]             10 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"\n");
	free(s);
	s = graph("hist:keys=len.buckets=10", 2, lin, lhits);
	same(s,
		"@len:\n"
		"[0, 10)                6 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"[10, 20)               0 |                                                    |\n"
		"[20, 30)               3 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		"\n");
	free(s);
	/* Any other key: a map, ascending by count. */
	s = graph("hist:keys=len", 2, two, lhits + 0);
	same(s, "@[7]: 3\n@[9]: 6\n\n");
	free(s);
}
END_TEST

START_TEST(test_hist_json)
{
	struct kp_filter_fields *ff = fields(KPMOD_PROBE_ENTRY);
	struct kp_trigger *t = parse_ok("hist:keys=common_pid.execname,nr.log2:vals=len,len.avg:sort=nr");
	struct kp_hist_data d = { .hits = 3, .drops = 0, .key_size = t->hist.key_size, .n = 1 };
	struct kpmod_hist_entry *e;
	uint64_t pid = 42, k = 5;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	d.entry_size = sizeof(*e) + d.key_size;
	d.entries = calloc(1, d.entry_size);
	ck_assert(d.entries);
	e = (void *)d.entries;
	e->vals[0] = 3;
	e->vals[1] = 30;
	e->vals[2] = 30;
	snprintf(e->comm, sizeof(e->comm), "a\"b");
	memcpy(e->key, &pid, 8);
	memcpy(e->key + 8, &k, 8);
	out = open_memstream(&buf, &len);
	ck_assert(out);
	kp_hist_json(out, "g/e", &t->hist, "hist:x [active]\n", &d, NULL);
	fclose(out);
	same(buf, "{\"event\":\"g/e\",\"trigger\":\"hist:x [active]\",\"hits\":3,\"dropped\":0,"
		  "\"entries\":[{\"keys\":{\"common_pid\":{\"pid\":42,\"comm\":\"a\\\"b\"},"
		  "\"nr\":{\"log2\":5,\"from\":17,\"to\":32}},\"hitcount\":3,"
		  "\"vals\":{\"len\":30,\"len.avg\":10}}]}\n");
	free(buf);
	free(d.entries);
	free(t);
	free(ff);
}
END_TEST

static Suite *trigger_suite(void)
{
	Suite *s = suite_create("trigger");
	TCase *tc = tcase_create("trigger");

	tcase_add_test(tc, test_simple_triggers);
	tcase_add_test(tc, test_hist_text);
	tcase_add_test(tc, test_hist_errors);
	tcase_add_test(tc, test_hist_named_mismatch);
	tcase_add_test(tc, test_hist_show);
	tcase_add_test(tc, test_hist_ties);
	tcase_add_test(tc, test_hist_graph);
	tcase_add_test(tc, test_hist_json);
	suite_add_tcase(s, tc);
	return s;
}

KP_SUITE(trigger_suite)
