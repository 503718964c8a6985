// SPDX-License-Identifier: GPL-2.0
/* A live session attaches to every CPU's ring, wherever the possible ones are. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "live.h"
#include "suites.h"

static unsigned int kp_test_mask;	/* CPUs that have a ring */
static int kp_test_busy_cpu = -1;
static struct kpmod_ring_meta kp_test_meta;

static int fake_open(struct kp_ring *r, const char *dev, unsigned int cpu)
{
	(void)dev;
	memset(r, 0, sizeof(*r));
	r->fd = -1;
	if (!(kp_test_mask & (1u << cpu)))
		return -ENXIO;
	if ((int)cpu == kp_test_busy_cpu) {
		strcpy(r->err, "busy");
		return -EBUSY;
	}
	r->meta = &kp_test_meta;
	r->cpu = cpu;
	return 0;
}

static void live_init(struct kp_live *lv, unsigned int nr_cpu_ids)
{
	memset(lv, 0, sizeof(*lv));
	lv->cmd = "trace";
	lv->st.cpus = nr_cpu_ids;
	lv->rings = calloc(nr_cpu_ids, sizeof(*lv->rings));
	lv->at_attach = calloc(nr_cpu_ids, sizeof(*lv->at_attach));
	lv->lost_seen = calloc(nr_cpu_ids, sizeof(*lv->lost_seen));
}

static void live_free(struct kp_live *lv)
{
	free(lv->rings);
	free(lv->at_attach);
	free(lv->lost_seen);
}

/*
 * Possible CPUs 0, 3 and 7 of nr_cpu_ids 8: the module reports 8 (not
 * num_possible_cpus(), 3), and the reader opens every ring up to it,
 * skipping the indexes without one.
 */
START_TEST(rings_of_a_sparse_possible_mask)
{
	struct kp_live lv;

	kp_test_mask = 1u << 0 | 1u << 3 | 1u << 7;
	kp_test_busy_cpu = -1;
	live_init(&lv, 8);
	ck_assert_int_eq(kp_live_attach(&lv, fake_open), 0);
	ck_assert_uint_eq(lv.nrings, 3);
	ck_assert_uint_eq(lv.rings[0].cpu, 0);
	ck_assert_uint_eq(lv.rings[1].cpu, 3);
	ck_assert_uint_eq(lv.rings[2].cpu, 7);
	live_free(&lv);

	/* Another reader on one of them: refused, exit code 5. */
	kp_test_busy_cpu = 7;
	live_init(&lv, 8);
	ck_assert_int_eq(kp_live_attach(&lv, fake_open), KP_EXIT_REFUSED);
	live_free(&lv);
}
END_TEST

KP_SUITE(live_suite)
static Suite *live_suite(void)
{
	Suite *s = suite_create("live");
	TCase *tc = tcase_create("attach");

	tcase_add_test(tc, rings_of_a_sparse_possible_mask);
	suite_add_tcase(s, tc);
	return s;
}
