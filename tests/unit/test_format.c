// SPDX-License-Identifier: GPL-2.0
/* Records printed as ftrace prints kprobe events, and as JSON lines. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "format.h"
#include "suites.h"

static const char kallsyms[] =
	"ffffffff81001000 T do_sys_openat2\n"
	"ffffffff81001150 T __x64_sys_openat\n"
	"ffffffff81200000 T _etext\n"
	"ffffffffc0001000 t foo_init\t[foo]\n"
	"ffffffffc0001020 t foo_exit\t[foo]\n";

/* A record under construction: header, fault bitmap, slots, strings. */
struct rb {
	uint64_t w[1024];
	struct kpmod_record *rec;
	uint8_t *faults, *slots;
	uint32_t dyn;
};

static void add_arg(struct kp_probe_desc *p, const char *name, uint32_t type,
		    uint32_t count, uint32_t elem)
{
	struct kp_arg_desc *a = &p->args[p->nargs++];
	uint32_t off = p->args_size;

	off = (off + elem - 1) / elem * elem;	/* as the module lays slots */
	snprintf(a->name, sizeof(a->name), "%s", name);
	a->type = type;
	a->count = count;
	a->offset = off;
	a->size = elem * (count ? count : 1);
	p->args_size = off + a->size;
}

static void rb_init(struct rb *b, const struct kp_probe_desc *p)
{
	uint32_t bm = KPMOD_FAULT_BITMAP_SIZE(p->nargs);

	memset(b, 0, sizeof(*b));
	b->rec = (void *)b->w;
	b->faults = (uint8_t *)(b->rec + 1);
	b->slots = b->faults + bm;
	b->dyn = sizeof(*b->rec) + bm + ((p->args_size + 7) & ~7u);
	b->rec->len = b->dyn;
	b->rec->type = KPMOD_REC_EVENT;
	b->rec->probe_id = p->id;
	b->rec->cpu = 1;
	b->rec->pid = 1234;
	b->rec->tgid = 1200;
	b->rec->ts_ns = 12345678901234ULL;
	b->rec->ip = 0xffffffff81001000ULL;
	memcpy(b->rec->comm, "bash", 5);
}

static void rb_set(struct rb *b, const struct kp_arg_desc *a, uint32_t i,
		   const void *v, size_t n)
{
	memcpy(b->slots + a->offset + i * n, v, n);
}

/* Appends string data (@n bytes, NUL included by the caller) for element i. */
static void rb_str(struct rb *b, const struct kp_arg_desc *a, uint32_t i,
		   const char *s, uint32_t n)
{
	uint32_t loc = KPMOD_DATA_LOC(n, b->dyn);

	memcpy((uint8_t *)b->w + b->dyn, s, n);
	b->dyn += n;
	b->rec->len = (b->dyn + 7) & ~7u;
	rb_set(b, a, i, &loc, 4);
}

static char *run(int json, const struct rb *b, const struct kp_probe_desc *p,
		 const struct kp_ksyms *ks, int *ret)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	ck_assert_ptr_nonnull(f);
	*ret = json ? kp_format_json(f, b->rec, p, ks) : kp_format_text(f, b->rec, p, ks);
	fclose(f);
	return out;
}

static struct kp_probe_desc *all_types_probe(void)
{
	struct kp_probe_desc *p = calloc(1, sizeof(*p));

	p->id = 7;
	p->kind = KPMOD_PROBE_ENTRY;
	strcpy(p->group, "kprobes");
	strcpy(p->event, "myprobe");
	add_arg(p, "u8", KPMOD_T_U8, 0, 1);
	add_arg(p, "u16", KPMOD_T_U16, 0, 2);
	add_arg(p, "u32", KPMOD_T_U32, 0, 4);
	add_arg(p, "u64", KPMOD_T_U64, 0, 8);
	add_arg(p, "s8", KPMOD_T_S8, 0, 1);
	add_arg(p, "s16", KPMOD_T_S16, 0, 2);
	add_arg(p, "s32", KPMOD_T_S32, 0, 4);
	add_arg(p, "s64", KPMOD_T_S64, 0, 8);
	add_arg(p, "x8", KPMOD_T_X8, 0, 1);
	add_arg(p, "x16", KPMOD_T_X16, 0, 2);
	add_arg(p, "x32", KPMOD_T_X32, 0, 4);
	add_arg(p, "x64", KPMOD_T_X64, 0, 8);
	add_arg(p, "c", KPMOD_T_CHAR, 0, 1);
	add_arg(p, "name", KPMOD_T_STRING, 0, 4);
	add_arg(p, "uname", KPMOD_T_USTRING, 0, 4);
	add_arg(p, "sym", KPMOD_T_SYMBOL, 0, 8);
	add_arg(p, "symstr", KPMOD_T_SYMSTR, 0, 8);
	add_arg(p, "bf", KPMOD_T_BITFIELD, 0, 4);
	add_arg(p, "arr", KPMOD_T_U32, 3, 4);
	add_arg(p, "bad", KPMOD_T_U64, 0, 8);
	add_arg(p, "nostr", KPMOD_T_STRING, 0, 4);
	add_arg(p, "chars", KPMOD_T_CHAR, 2, 1);
	add_arg(p, "strs", KPMOD_T_STRING, 2, 4);
	return p;
}

static void fill_all_types(struct rb *b, const struct kp_probe_desc *p)
{
	const struct kp_arg_desc *a = p->args;
	uint8_t u8 = 255, s8 = 0xff, x8 = 0xff;
	uint16_t u16 = 65535, s16 = (uint16_t)-2, x16 = 0xbeef;
	uint32_t u32 = 4294967295u, s32 = (uint32_t)-3, x32 = 0xdeadbeef, bf = 5;
	uint64_t u64 = 18446744073709551615ULL, s64 = 1ULL << 63, x64 = ~0ULL;
	uint64_t sym = 0xffffffffc0001010ULL, symstr = 0xffffffffc0001000ULL;
	uint32_t arr[3] = { 1, 2, 3 };

	rb_init(b, p);
	rb_set(b, &a[0], 0, &u8, 1);
	rb_set(b, &a[1], 0, &u16, 2);
	rb_set(b, &a[2], 0, &u32, 4);
	rb_set(b, &a[3], 0, &u64, 8);
	rb_set(b, &a[4], 0, &s8, 1);
	rb_set(b, &a[5], 0, &s16, 2);
	rb_set(b, &a[6], 0, &s32, 4);
	rb_set(b, &a[7], 0, &s64, 8);
	rb_set(b, &a[8], 0, &x8, 1);
	rb_set(b, &a[9], 0, &x16, 2);
	rb_set(b, &a[10], 0, &x32, 4);
	rb_set(b, &a[11], 0, &x64, 8);
	rb_set(b, &a[12], 0, "A", 1);
	rb_str(b, &a[13], 0, "/etc/passwd", 12);
	rb_str(b, &a[14], 0, "say \"hi\"\\\n\x01\xff\xc3\xa9", 15);
	rb_set(b, &a[15], 0, &sym, 8);
	/* symstr is stored as an address, as symbol, and printed quoted. */
	rb_set(b, &a[16], 0, &symstr, 8);
	rb_set(b, &a[17], 0, &bf, 4);
	rb_set(b, &a[18], 0, arr, 12);
	b->faults[19 / 8] |= 1 << (19 % 8);	/* "bad" faulted */
	/* "nostr": data location 0, a faulted string */
	rb_set(b, &a[21], 0, "x", 1);
	rb_set(b, &a[21], 1, "y", 1);
	rb_str(b, &a[22], 0, "a", 2);
	rb_str(b, &a[22], 1, "b", 2);
}

START_TEST(entry_line_prints_every_type_like_ftrace)
{
	struct kp_probe_desc *p = all_types_probe();
	struct kp_ksyms ks;
	struct rb b;
	char err[128], *out;
	int ret;

	ck_assert_int_eq(kp_probe_desc_check(p, err, sizeof(err)), 0);
	ck_assert_int_eq(kp_ksyms_load_buf(&ks, kallsyms, strlen(kallsyms)), 0);
	fill_all_types(&b, p);
	out = run(0, &b, p, &ks, &ret);
	ck_assert_int_eq(ret, 0);
	ck_assert_str_eq(out,
		"            bash-1234    [001] ..... 12345.678901: myprobe: "
		"(do_sys_openat2+0x0/0x150)"
		" u8=255 u16=65535 u32=4294967295 u64=18446744073709551615"
		" s8=-1 s16=-2 s32=-3 s64=-9223372036854775808"
		" x8=0xff x16=0xbeef x32=0xdeadbeef x64=0xffffffffffffffff"
		/* What could forge a line is escaped; UTF-8 passes. */
		" c='A' name=\"/etc/passwd\" uname=\"say \"hi\"\\\\x0a\\x01\\xff\xc3\xa9\""
		" sym=foo_init+0x10/0x20 [foo] symstr=\"foo_init+0x0/0x20 [foo]\""
		" bf=5 arr={1,2,3} bad=(fault) nostr=(fault) chars={'x','y'}"
		" strs={\"a\",\"b\"}\n");
	free(out);
	kp_ksyms_free(&ks);
	free(p);
}
END_TEST

/* A stacktrace trigger's record: ftrace's "<stack trace>" entry; JSON's array. */
START_TEST(stack_record_prints_like_ftrace)
{
	struct kp_probe_desc *p = all_types_probe();
	struct kp_ksyms ks;
	uint64_t w[32] = { 0 };
	struct kpmod_stack_rec *st = (void *)w;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_int_eq(kp_ksyms_load_buf(&ks, kallsyms, strlen(kallsyms)), 0);
	st->hdr.type = KPMOD_REC_STACK;
	st->hdr.probe_id = p->id;
	st->hdr.cpu = 1;
	st->hdr.pid = 1234;
	st->hdr.tgid = 1200;
	st->hdr.ts_ns = 12345678901234ULL;
	memcpy(st->hdr.comm, "bash", 5);
	st->nr = 2;
	st->frames[0] = 0xffffffff81001005ULL;
	st->frames[1] = 0xffffffffc0001014ULL;
	st->hdr.len = sizeof(*st) + 2 * sizeof(uint64_t);
	f = open_memstream(&out, &len);
	ck_assert_int_eq(kp_format_stack_text(f, &st->hdr, &ks), 0);
	ck_assert_int_eq(kp_format_stack_json(f, &st->hdr, p, &ks), 0);
	fclose(f);
	ck_assert_str_eq(out,
		"            bash-1234    [001] ..... 12345.678901: <stack trace>\n"
		" => do_sys_openat2+0x5/0x150\n"
		" => foo_init+0x14/0x20 [foo]\n"
		"{\"ts\":12345.678901234,\"cpu\":1,\"task\":\"bash\",\"pid\":1234,\"tgid\":1200,"
		"\"group\":\"kprobes\",\"event\":\"myprobe\",\"probe_id\":7,\"kind\":\"stack\","
		"\"stack\":[{\"ip\":\"0xffffffff81001005\",\"sym\":\"do_sys_openat2+0x5/0x150\"},"
		"{\"ip\":\"0xffffffffc0001014\",\"sym\":\"foo_init+0x14/0x20 [foo]\"}]}\n");
	free(out);
	kp_ksyms_free(&ks);
	free(p);
}
END_TEST

START_TEST(json_line_has_typed_escaped_values)
{
	struct kp_probe_desc *p = all_types_probe();
	struct kp_ksyms ks;
	struct rb b;
	char *out;
	int ret;

	ck_assert_int_eq(kp_ksyms_load_buf(&ks, kallsyms, strlen(kallsyms)), 0);
	fill_all_types(&b, p);
	out = run(1, &b, p, &ks, &ret);
	ck_assert_int_eq(ret, 0);
	ck_assert_str_eq(out,
		"{\"ts\":12345.678901234,\"cpu\":1,\"task\":\"bash\",\"pid\":1234,"
		"\"tgid\":1200,\"group\":\"kprobes\",\"event\":\"myprobe\","
		"\"probe_id\":7,\"kind\":\"entry\",\"ip\":\"0xffffffff81001000\","
		"\"func\":\"do_sys_openat2+0x0/0x150\",\"args\":{"
		"\"u8\":255,\"u16\":65535,\"u32\":4294967295,"
		"\"u64\":18446744073709551615,\"s8\":-1,\"s16\":-2,\"s32\":-3,"
		"\"s64\":-9223372036854775808,\"x8\":\"0xff\",\"x16\":\"0xbeef\","
		"\"x32\":\"0xdeadbeef\",\"x64\":\"0xffffffffffffffff\",\"c\":\"A\","
		"\"name\":\"/etc/passwd\","
		"\"uname\":\"say \\\"hi\\\"\\\\\\n\\u0001\\u00ff\xc3\xa9\","
		"\"sym\":\"foo_init+0x10/0x20 [foo]\","
		"\"symstr\":\"foo_init+0x0/0x20 [foo]\",\"bf\":5,\"arr\":[1,2,3],"
		"\"bad\":null,\"nostr\":null,\"chars\":[\"x\",\"y\"],"
		"\"strs\":[\"a\",\"b\"]}}\n");
	free(out);
	kp_ksyms_free(&ks);
	free(p);
}
END_TEST

START_TEST(return_line_and_context)
{
	struct kp_probe_desc p = { .id = 9, .kind = KPMOD_PROBE_RETURN,
				   .group = "kprobes", .event = "myret" };
	struct kp_ksyms ks;
	struct rb b;
	uint64_t rv = 3;
	char *out;
	int ret;

	add_arg(&p, "ret", KPMOD_T_X64, 0, 8);
	ck_assert_int_eq(kp_ksyms_load_buf(&ks, kallsyms, strlen(kallsyms)), 0);
	rb_init(&b, &p);
	b.rec->flags = KPMOD_RECF_RETURN;
	b.rec->ret_ip = 0xffffffff81001165ULL;
	b.rec->pid = 0;		/* the idle task, as ftrace names it */
	b.rec->cpu = 12;
	b.rec->ts_ns = 1999999500;	/* rounds up to 2.000000 */
	rb_set(&b, &p.args[0], 0, &rv, 8);
	out = run(0, &b, &p, &ks, &ret);
	ck_assert_int_eq(ret, 0);
	ck_assert_str_eq(out,
		"          <idle>-0       [012] .....     2.000000: myret: "
		"(__x64_sys_openat+0x15/0x1feeb0 <- do_sys_openat2) ret=0x3\n");
	free(out);
	out = run(1, &b, &p, &ks, &ret);
	ck_assert_int_eq(ret, 0);
	ck_assert_ptr_nonnull(strstr(out, "\"kind\":\"return\",\"ip\":\"0xffffffff81001000\","
				     "\"func\":\"do_sys_openat2\","
				     "\"caller_ip\":\"0xffffffff81001165\","
				     "\"caller\":\"__x64_sys_openat+0x15/0x1feeb0\","
				     "\"args\":{\"ret\":\"0x3\"}}\n"));
	ck_assert_ptr_nonnull(strstr(out, "{\"ts\":1.999999500,\"cpu\":12,"));
	free(out);
	/* Without symbols, and a zero address prints "0" as in ftrace. */
	b.rec->ret_ip = 0;
	out = run(0, &b, &p, NULL, &ret);
	ck_assert_ptr_nonnull(strstr(out, ": myret: (0 <- 0xffffffff81001000) ret=0x3\n"));
	free(out);
	kp_ksyms_free(&ks);
}
END_TEST

START_TEST(unknown_probe_and_bad_records)
{
	struct kp_probe_desc p = { .id = 9, .kind = KPMOD_PROBE_ENTRY,
				   .group = "g", .event = "e" };
	struct rb b;
	uint32_t loc;
	char *out;
	int ret;

	add_arg(&p, "s", KPMOD_T_STRING, 0, 4);
	rb_init(&b, &p);
	rb_str(&b, &p.args[0], 0, "abc", 4);
	out = run(0, &b, NULL, NULL, &ret);
	ck_assert_int_eq(ret, 0);
	ck_assert_str_eq(out, "            bash-1234    [001] ..... 12345.678901: "
			      "probe_9: (0xffffffff81001000)\n");
	free(out);
	/* A data location past the record: nothing printed. */
	loc = KPMOD_DATA_LOC(8, b.rec->len - 4);
	rb_set(&b, &p.args[0], 0, &loc, 4);
	out = run(0, &b, &p, NULL, &ret);
	ck_assert_int_eq(ret, -EBADMSG);
	ck_assert_str_eq(out, "");
	free(out);
	out = run(1, &b, &p, NULL, &ret);
	ck_assert_int_eq(ret, -EBADMSG);
	ck_assert_str_eq(out, "");
	free(out);
	/* Shorter than the probe's argument area. */
	rb_init(&b, &p);
	b.rec->len = sizeof(*b.rec);
	out = run(0, &b, &p, NULL, &ret);
	ck_assert_int_eq(ret, -EBADMSG);
	free(out);
}
END_TEST

START_TEST(descriptions_are_checked)
{
	struct kp_probe_desc p = { .id = 1, .kind = KPMOD_PROBE_ENTRY };
	char err[160];

	add_arg(&p, "a", KPMOD_T_U32, 0, 4);
	ck_assert_int_eq(kp_probe_desc_check(&p, err, sizeof(err)), 0);
	p.args[0].size = 8;
	ck_assert_int_eq(kp_probe_desc_check(&p, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "bad slot"));
	p.args[0].size = 4;
	p.args[0].offset = 4;	/* past the area */
	ck_assert_int_eq(kp_probe_desc_check(&p, err, sizeof(err)), -EINVAL);
	p.args[0].offset = 0;
	p.args[0].type = 99;
	ck_assert_int_eq(kp_probe_desc_check(&p, err, sizeof(err)), -EINVAL);
	p.args[0].type = KPMOD_T_BITFIELD;	/* any container size */
	ck_assert_int_eq(kp_probe_desc_check(&p, err, sizeof(err)), 0);
	p.kind = KPMOD_PROBE_URETPROBE + 1;
	ck_assert_int_eq(kp_probe_desc_check(&p, err, sizeof(err)), -EINVAL);
	ck_assert_uint_eq(kp_format_type_size(KPMOD_T_X16), 2);
	ck_assert_uint_eq(kp_format_type_size(KPMOD_T_SYMBOL), 8);
	ck_assert_uint_eq(kp_format_type_size(99), 0);
}
END_TEST

START_TEST(lost_lines)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	kp_format_lost(f, 3, 42);
	kp_format_lost_json(f, 3, 42);
	kp_json_string(f, "a\"b\x7f", 4);
	fclose(f);
	ck_assert_str_eq(out, "CPU:3 [LOST 42 EVENTS]\n{\"cpu\":3,\"lost\":42}\n"
			      "\"a\\\"b\\u007f\"");
	free(out);
}
END_TEST

/* A JSON line is valid whatever bytes the kernel gave: no raw control
 * character, valid UTF-8 throughout, every escape well formed. */
static void assert_valid_json_line(const char *out)
{
	const unsigned char *u = (const unsigned char *)out;
	size_t i, n = strlen(out);
	int in_string = 0;

	ck_assert_uint_gt(n, 2);
	ck_assert_int_eq(out[n - 1], '\n');
	for (i = 0; i < n - 1; i++) {
		ck_assert_msg(u[i] >= 0x20, "raw control byte 0x%02x at %zu", u[i], i);
		if (u[i] >= 0x80) {
			size_t len = kp_utf8_len(u + i, n - 1 - i);

			ck_assert_msg(len, "invalid UTF-8 at %zu", i);
			i += len - 1;
			continue;
		}
		if (!in_string) {
			in_string = u[i] == '"';
			continue;
		}
		if (u[i] == '"') {
			in_string = 0;
		} else if (u[i] == '\\') {
			i++;
			ck_assert_msg(strchr("\"\\/bfnrtu", out[i]), "bad escape at %zu", i);
			if (out[i] == 'u') {
				ck_assert_msg(strspn(out + i + 1, "0123456789abcdef") >= 4,
					      "short \\u escape at %zu", i);
				i += 4;
			}
		}
	}
	ck_assert_int_eq(in_string, 0);
}

/* prctl(PR_SET_NAME) lets a task call itself anything: no forged lines. */
START_TEST(task_names_and_strings_cannot_forge_lines)
{
	struct kp_probe_desc *p = calloc(1, sizeof(*p));
	static const char forged[16] = "x\n  fake-1\r\x1b[";
	struct rb b;
	char *out, raw[256];
	int ret, i;

	p->id = 9;
	p->kind = KPMOD_PROBE_ENTRY;
	strcpy(p->group, "g");
	strcpy(p->event, "e");
	add_arg(p, "s", KPMOD_T_STRING, 0, 4);
	rb_init(&b, p);
	memcpy(b.rec->comm, forged, sizeof(forged));
	rb_str(&b, &p->args[0], 0, "a\nb\tc\x7f\xc2\x85\xe2\x82\xac\xc3", 13);
	out = run(0, &b, p, NULL, &ret);
	ck_assert_int_eq(ret, 0);
	ck_assert_str_eq(out, "x\\x0a  fake-1\\x0d\\x1b[-1234    [001] ..... 12345.678901: e: "
			      "(0xffffffff81001000) s=\"a\\x0ab\\x09c\\x7f\\xc2\\x85\xe2\x82\xac\\xc3\"\n");
	free(out);

	/* Text that would reorder the line on a terminal (U+202E) is escaped too. */
	rb_init(&b, p);
	memcpy(b.rec->comm, "ok", 3);
	rb_str(&b, &p->args[0], 0, "a\xe2\x80\xae" "b\xe2\x80\xa8" "c", 10);
	out = run(0, &b, p, NULL, &ret);
	ck_assert_int_eq(ret, 0);
	ck_assert_ptr_nonnull(strstr(out, " s=\"a\\xe2\\x80\\xaeb\\xe2\\x80\\xa8c\"\n"));
	free(out);

	/* Every byte value, in the name and in a string: one valid JSON line. */
	for (i = 0; i < 255; i++)
		raw[i] = (char)(i + 1);
	raw[255] = '\0';
	rb_init(&b, p);
	memcpy(b.rec->comm, raw + 240, 15);
	rb_str(&b, &p->args[0], 0, raw, 256);
	out = run(1, &b, p, NULL, &ret);
	ck_assert_int_eq(ret, 0);
	assert_valid_json_line(out);
	free(out);
	out = run(0, &b, p, NULL, &ret);
	ck_assert_int_eq(ret, 0);
	ck_assert_ptr_eq(strchr(out, '\n'), out + strlen(out) - 1);
	ck_assert_ptr_null(strchr(out, '\r'));
	free(out);
	free(p);
}
END_TEST

/* uapi/kpmod.h is the only definition of the record's encodings. */
START_TEST(record_layout_helpers)
{
	ck_assert_uint_eq(KPMOD_FAULT_BITMAP_SIZE(0), 0);
	ck_assert_uint_eq(KPMOD_FAULT_BITMAP_SIZE(1), 8);
	ck_assert_uint_eq(KPMOD_FAULT_BITMAP_SIZE(64), 8);
	ck_assert_uint_eq(KPMOD_FAULT_BITMAP_SIZE(65), 16);
	ck_assert_uint_eq(KPMOD_FAULT_BITMAP_SIZE(KPMOD_MAX_ARGS), 16);
	ck_assert_uint_eq(KPMOD_ARGS_OFFSET(3), sizeof(struct kpmod_record) + 8);
	ck_assert_uint_eq(KPMOD_DATA_LOC(12, 80), 0x000c0050);
	ck_assert_uint_eq(KPMOD_DATA_LOC_LEN(0x000c0050), 12);
	ck_assert_uint_eq(KPMOD_DATA_LOC_OFF(0x000c0050), 80);
	ck_assert_uint_eq(KPMOD_DATA_LOC_LEN(KPMOD_DATA_LOC(KPMOD_MAX_STRING, 0xfff8)),
			  KPMOD_MAX_STRING);
	{
		uint8_t bm[16] = { 0x81, 0, 0, 0, 0, 0, 0, 0, 0x01 };

		ck_assert(kpmod_fault_test(bm, 0) && kpmod_fault_test(bm, 7));
		ck_assert(!kpmod_fault_test(bm, 1) && kpmod_fault_test(bm, 64));
	}
}
END_TEST


/*
 * What a recording embeds: the symbols of the addresses kp_format_addrs()
 * names, as the kernel's %pS gives them (here the full table's own %pS).
 * A table of those alone must print every record exactly as the full
 * table does: an address the formatters look up and the walk missed would
 * print as hex.
 */
struct named {
	const struct kp_ksyms *full;
	struct kp_sym syms[64];
	char names[64][KPMOD_MAX_SYMBOL_LEN];
	char mods[64][KPMOD_MAX_MODULE_LEN];
	size_t n, asked;
};

static void name_one(uint64_t addr, void *arg)
{
	struct named *nm = arg;
	char text[256];

	nm->asked++;
	ck_assert_uint_ne(addr, 0);
	ck_assert_uint_lt(nm->n, 64);
	kp_ksyms_snprint(nm->full, addr, true, text, sizeof(text));
	if (!kp_ksyms_parse_ps(text, addr, &nm->syms[nm->n], nm->names[nm->n], nm->mods[nm->n]))
		nm->n++;
}

static void same_with_named(const struct rb *b, const struct kp_probe_desc *p,
			    const struct kp_ksyms *full, size_t want_asked)
{
	static struct named nm;
	struct kp_ksyms sized;
	char *a, *c;
	int json, ra, rc;

	memset(&nm, 0, sizeof(nm));
	nm.full = full;
	ck_assert_int_eq(kp_format_addrs(b->rec, p, name_one, &nm), 0);
	ck_assert_uint_eq(nm.asked, want_asked);
	ck_assert_int_eq(kp_ksyms_load_sized(&sized, nm.syms, nm.n), 0);
	for (json = 0; json < 2; json++) {
		if (b->rec->type == KPMOD_REC_STACK) {
			char *x = NULL, *y = NULL;
			size_t xl = 0, yl = 0;
			FILE *f = open_memstream(&x, &xl), *g = open_memstream(&y, &yl);

			ck_assert_int_eq(json ? kp_format_stack_json(f, b->rec, p, full) :
					 kp_format_stack_text(f, b->rec, full), 0);
			ck_assert_int_eq(json ? kp_format_stack_json(g, b->rec, p, &sized) :
					 kp_format_stack_text(g, b->rec, &sized), 0);
			fclose(f);
			fclose(g);
			ck_assert_str_eq(y, x);
			free(x);
			free(y);
			continue;
		}
		a = run(json, b, p, full, &ra);
		c = run(json, b, p, &sized, &rc);
		ck_assert_int_eq(ra, rc);
		ck_assert_str_eq(c, a);
		free(a);
		free(c);
	}
	kp_ksyms_free(&sized);
}

START_TEST(a_recordings_symbols_print_as_the_full_table)
{
	struct kp_probe_desc *p = all_types_probe();
	struct kp_probe_desc rp = { .id = 9, .kind = KPMOD_PROBE_RETURN,
				    .group = "kprobes", .event = "myret" };
	uint64_t syms[3] = { 0xffffffff81001150ULL, 0, 0xffffffffc0001021ULL };
	struct kp_ksyms ks;
	struct kpmod_stack_rec *st;
	struct rb b;

	ck_assert_int_eq(kp_ksyms_load_buf(&ks, kallsyms, strlen(kallsyms)), 0);
	/* ip, sym, symstr */
	fill_all_types(&b, p);
	same_with_named(&b, p, &ks, 3);
	/* A faulted symbol is not asked for. */
	b.faults[15 / 8] |= 1 << (15 % 8);
	same_with_named(&b, p, &ks, 2);
	free(p);

	/* A return probe's both addresses, an array of symbols, its zero skipped. */
	add_arg(&rp, "fns", KPMOD_T_SYMBOL, 3, 8);
	rb_init(&b, &rp);
	b.rec->flags = KPMOD_RECF_RETURN;
	b.rec->ret_ip = 0xffffffff81001165ULL;
	rb_set(&b, &rp.args[0], 0, syms, 24);
	same_with_named(&b, &rp, &ks, 4);

	/* A stack's frames, one outside every symbol. */
	memset(b.w, 0, sizeof(b.w));
	st = (void *)b.w;
	st->hdr.type = KPMOD_REC_STACK;
	st->hdr.probe_id = rp.id;
	st->nr = 3;
	st->frames[0] = 0xffffffff81001005ULL;
	st->frames[1] = 0xffffffffc0001014ULL;
	st->frames[2] = 0xffffffff80000000ULL;
	st->hdr.len = sizeof(*st) + 3 * sizeof(uint64_t);
	b.rec = &st->hdr;
	same_with_named(&b, &rp, &ks, 3);
	kp_ksyms_free(&ks);
}
END_TEST

/* The kernel's %pS text, parsed: a symbol, its module, or nothing. */
START_TEST(ps_text_parses_as_the_kernel_prints_it)
{
	char name[KPMOD_MAX_SYMBOL_LEN], mod[KPMOD_MAX_MODULE_LEN], long_name[600];
	struct kp_sym s;

	ck_assert_int_eq(kp_ksyms_parse_ps("vfs_write+0x9/0x2a0", 0xffffffff81200009ULL, &s,
					   name, mod), 0);
	ck_assert_str_eq(s.name, "vfs_write");
	ck_assert_ptr_null(s.mod);
	ck_assert_uint_eq(s.addr, 0xffffffff81200000ULL);
	ck_assert_uint_eq(s.size, 0x2a0);
	ck_assert_int_eq(kp_ksyms_parse_ps("ext4_sync_fs+0x0/0x40 [ext4]", 0xffffffffc0001000ULL,
					   &s, name, mod), 0);
	ck_assert_str_eq(s.name, "ext4_sync_fs");
	ck_assert_str_eq(s.mod, "ext4");
	ck_assert_uint_eq(s.addr, 0xffffffffc0001000ULL);
	/* Unknown, malformed, or not adding up to the address: no symbol. */
	ck_assert_int_eq(kp_ksyms_parse_ps("0xffffffff80000000", 1, &s, name, mod), -ENOENT);
	ck_assert_int_eq(kp_ksyms_parse_ps("f+0x10/0x8", 0x100, &s, name, mod), -ENOENT);
	ck_assert_int_eq(kp_ksyms_parse_ps("f+0x10/0x80", 0x8, &s, name, mod), -ENOENT);
	ck_assert_int_eq(kp_ksyms_parse_ps("f+0x8/0x80", 0x8, &s, name, mod), -ENOENT);
	ck_assert_int_eq(kp_ksyms_parse_ps("f+0x8/0x0", 0x18, &s, name, mod), -ENOENT);
	ck_assert_int_eq(kp_ksyms_parse_ps("+0x0/0x8", 0x8, &s, name, mod), -ENOENT);
	ck_assert_int_eq(kp_ksyms_parse_ps("f+0x0/0x8 []", 0x8, &s, name, mod), -ENOENT);
	ck_assert_int_eq(kp_ksyms_parse_ps("f+0xg/0x8", 0x8, &s, name, mod), -ENOENT);
	/* Past the kernel's bounds: refused, not cut. */
	memset(long_name, 'a', sizeof(long_name));
	strcpy(long_name + KPMOD_MAX_SYMBOL_LEN, "+0x0/0x8");
	ck_assert_int_eq(kp_ksyms_parse_ps(long_name, 0x8, &s, name, mod), -ENOENT);
	strcpy(long_name, "f+0x0/0x8 [");
	memset(long_name + 11, 'm', KPMOD_MAX_MODULE_LEN);
	strcpy(long_name + 11 + KPMOD_MAX_MODULE_LEN, "]");
	ck_assert_int_eq(kp_ksyms_parse_ps(long_name, 0x8, &s, name, mod), -ENOENT);
	long_name[11 + KPMOD_MAX_MODULE_LEN - 1] = ']';
	long_name[11 + KPMOD_MAX_MODULE_LEN] = '\0';
	ck_assert_int_eq(kp_ksyms_parse_ps(long_name, 0x8, &s, name, mod), 0);
	ck_assert_uint_eq(strlen(s.mod), KPMOD_MAX_MODULE_LEN - 1);
}
END_TEST

KP_SUITE(format_suite)
static Suite *format_suite(void)
{
	Suite *s = suite_create("format");
	TCase *tc = tcase_create("format");

	tcase_add_test(tc, entry_line_prints_every_type_like_ftrace);
	tcase_add_test(tc, json_line_has_typed_escaped_values);
	tcase_add_test(tc, return_line_and_context);
	tcase_add_test(tc, unknown_probe_and_bad_records);
	tcase_add_test(tc, descriptions_are_checked);
	tcase_add_test(tc, lost_lines);
	tcase_add_test(tc, stack_record_prints_like_ftrace);
	tcase_add_test(tc, task_names_and_strings_cannot_forge_lines);
	tcase_add_test(tc, record_layout_helpers);
	tcase_add_test(tc, a_recordings_symbols_print_as_the_full_table);
	tcase_add_test(tc, ps_text_parses_as_the_kernel_prints_it);
	suite_add_tcase(s, tc);
	return s;
}
