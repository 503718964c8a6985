// SPDX-License-Identifier: GPL-2.0
/*
 * A recording's symbols: of the records written, each kernel address is
 * asked for once, whatever the order and repeats, the symbol arguments
 * and a stack's frames included, a uprobe's own addresses never.
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

KP_SUITE(recsyms_suite)
static Suite *recsyms_suite(void)
{
	Suite *s = suite_create("recsyms");
	TCase *tc = tcase_create("recsyms");

	tcase_add_test(tc, each_address_is_asked_for_once);
	tcase_add_test(tc, off_asks_for_nothing);
	suite_add_tcase(s, tc);
	return s;
}
