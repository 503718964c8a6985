// SPDX-License-Identifier: GPL-2.0
/*
 * A reader's symbols: of the records read, each kernel address is asked
 * for once, whatever the order and repeats, the symbol arguments and a
 * stack's frames included, a uprobe's own addresses never; what the
 * kernel named makes trace's table.
 */
#include <stdlib.h>
#include <string.h>

#include "recsyms.h"
#include "suites.h"

static void event(uint64_t *w, uint32_t id, uint64_t ip, uint64_t ret_ip, uint32_t flags,
		  uint32_t nargs, const uint64_t *syms)
{
	struct kpmod_record *r = (void *)w;
	uint8_t *slots = (uint8_t *)(r + 1) + KPMOD_FAULT_BITMAP_SIZE(nargs);

	memset(w, 0, 512);
	r->type = KPMOD_REC_EVENT;
	r->probe_id = id;
	r->ip = ip;
	r->ret_ip = ret_ip;
	r->flags = flags;
	r->len = sizeof(*r) + KPMOD_FAULT_BITMAP_SIZE(nargs) + 8 * nargs;
	if (nargs)
		memcpy(slots, syms, 8 * nargs);
}

static int has(const struct kp_recsyms *rs, uint64_t a)
{
	size_t i, n = 0;

	for (i = 0; i < rs->npending; i++)
		n += rs->pending[i] == a;
	return (int)n;
}

START_TEST(each_address_is_asked_for_once)
{
	struct kp_probe_desc p[3] = {
		{ .id = 1, .kind = KPMOD_PROBE_ENTRY },
		{ .id = 2, .kind = KPMOD_PROBE_RETURN },
		{ .id = 3, .kind = KPMOD_PROBE_UPROBE },
	};
	const uint64_t fn = 0xffffffff81001000ULL, sym = 0xffffffff81300000ULL;
	uint64_t w[64], args[1] = { sym };
	struct kpmod_stack_rec *st = (void *)w;
	struct kp_recsyms rs;

	p[0].nargs = 1;
	p[0].args_size = 8;
	p[0].args[0].type = KPMOD_T_SYMBOL;
	p[0].args[0].size = 8;
	memset(&rs, 0, sizeof(rs));
	rs.on = true;
	rs.probes = p;
	rs.nprobes = 3;

	event(w, 1, fn, 0, 0, 1, args);
	kp_recsyms_add(&rs, (void *)w);
	kp_recsyms_add(&rs, (void *)w);
	/* A second symbol value from the same address: asked for too. */
	args[0] = sym + 0x40;
	event(w, 1, fn, 0, 0, 1, args);
	kp_recsyms_add(&rs, (void *)w);
	/* A return probe: its function and each of its callers, once. */
	event(w, 2, fn + 0x100, fn + 0x15, KPMOD_RECF_RETURN, 0, NULL);
	kp_recsyms_add(&rs, (void *)w);
	kp_recsyms_add(&rs, (void *)w);
	event(w, 2, fn + 0x100, fn + 0x25, KPMOD_RECF_RETURN, 0, NULL);
	kp_recsyms_add(&rs, (void *)w);
	/* A uprobe's addresses are the process': not the kernel's to name. */
	event(w, 3, 0x401000, 0, 0, 0, NULL);
	kp_recsyms_add(&rs, (void *)w);
	/* A stack: its frames, the zero one not. */
	memset(w, 0, sizeof(w));
	st->hdr.type = KPMOD_REC_STACK;
	st->hdr.probe_id = 1;
	st->nr = 3;
	st->frames[0] = fn + 5;
	st->frames[1] = 0;
	st->frames[2] = fn + 0x15;
	st->hdr.len = sizeof(*st) + 3 * 8;
	kp_recsyms_add(&rs, &st->hdr);

	ck_assert_int_eq(rs.npending, 7);
	ck_assert_int_eq(has(&rs, fn), 1);
	ck_assert_int_eq(has(&rs, sym), 1);
	ck_assert_int_eq(has(&rs, sym + 0x40), 1);
	ck_assert_int_eq(has(&rs, fn + 0x100), 1);
	ck_assert_int_eq(has(&rs, fn + 0x15), 1);
	ck_assert_int_eq(has(&rs, fn + 0x25), 1);
	ck_assert_int_eq(has(&rs, fn + 5), 1);
	ck_assert_int_eq(has(&rs, 0x401000), 0);
	ck_assert(!rs.oom);
	kp_recsyms_free(&rs);
}
END_TEST

/* Off (kallsyms hides its addresses): nothing is asked for. */
START_TEST(off_asks_for_nothing)
{
	struct kp_probe_desc p = { .id = 1, .kind = KPMOD_PROBE_ENTRY };
	uint64_t w[64];
	struct kp_recsyms rs;

	memset(&rs, 0, sizeof(rs));
	rs.probes = &p;
	rs.nprobes = 1;
	event(w, 1, 0xffffffff81001000ULL, 0, 0, 0, NULL);
	kp_recsyms_add(&rs, (void *)w);
	ck_assert_int_eq(rs.npending, 0);
	kp_recsyms_free(&rs);
}
END_TEST

/*
 * trace's table: every symbol named so far, one entry a symbol however
 * many of its addresses were named, looked up as kallsyms' would be; a
 * round that names nothing new leaves the table as it was.
 */
START_TEST(a_live_table_holds_every_symbol_named)
{
	const uint64_t fn = 0xffffffff81001000ULL, mfn = 0xffffffffc0002000ULL;
	struct kp_recsyms rs;
	struct kp_ksyms ks = { 0 };
	const struct kp_sym *s;
	uint64_t off, size;
	unsigned long gen;

	memset(&rs, 0, sizeof(rs));
	rs.on = true;
	ck_assert_int_eq(kp_recsyms_merge(&rs, &ks), 0);
	ck_assert_int_eq(ks.gen, 0);
	ck_assert_int_eq(kp_recsyms_named(fn + 0x15, "find_task_by_vpid+0x15/0x50", &rs), 0);
	ck_assert_int_eq(kp_recsyms_named(fn + 0x20, "find_task_by_vpid+0x20/0x50", &rs), 0);
	/* No symbol there: nothing kept, the address prints as hex. */
	ck_assert_int_eq(kp_recsyms_named(0x1234, "0x1234", &rs), 0);
	ck_assert_int_eq(kp_recsyms_merge(&rs, &ks), 0);
	ck_assert_int_eq(ks.nsyms, 1);
	gen = ks.gen;
	ck_assert(gen != 0);
	ck_assert_int_eq(kp_recsyms_merge(&rs, &ks), 0);
	ck_assert_int_eq(ks.gen, gen);

	ck_assert_int_eq(kp_recsyms_named(mfn + 8, "ext4_sync_fs+0x8/0x200 [ext4]", &rs), 0);
	ck_assert_int_eq(kp_recsyms_merge(&rs, &ks), 0);
	ck_assert(ks.gen != gen);
	ck_assert_int_eq(ks.nsyms, 2);
	s = kp_ksyms_lookup(&ks, fn + 0x4f, &off, &size);
	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s->name, "find_task_by_vpid");
	ck_assert_int_eq(off, 0x4f);
	ck_assert_int_eq(size, 0x50);
	ck_assert_ptr_null(kp_ksyms_lookup(&ks, fn + 0x50, &off, &size));
	s = kp_ksyms_lookup(&ks, mfn + 0x100, &off, &size);
	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s->name, "ext4_sync_fs");
	ck_assert_str_eq(s->mod, "ext4");
	ck_assert_int_eq(off, 0x100);
	ck_assert(!rs.oom);
	kp_ksyms_free(&ks);
	kp_recsyms_free(&rs);
}
END_TEST

KP_SUITE(recsyms_suite)
static Suite *recsyms_suite(void)
{
	Suite *s = suite_create("recsyms");
	TCase *tc = tcase_create("recsyms");

	tcase_add_test(tc, each_address_is_asked_for_once);
	tcase_add_test(tc, off_asks_for_nothing);
	tcase_add_test(tc, a_live_table_holds_every_symbol_named);
	suite_add_tcase(s, tc);
	return s;
}
