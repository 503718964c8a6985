// SPDX-License-Identifier: GPL-2.0
/*
 * kpmod: kprobe-based event tracing for kernels without kprobe_events.
 *
 * Module entry and exit (the parameters are in state.c).
 */
#include <linux/module.h>
#include <linux/rcupdate.h>

#include "fsite.h"
#include "kpmod.h"
#include "probe.h"
#include "registry.h"
#include "ring.h"
#include "snapshot.h"

#define KPMOD_MAX_PROBES_LIMIT 65536

static int __init kpmod_init(void)
{
	int ret;

	if (kpmod_max_probes < 1 || kpmod_max_probes > KPMOD_MAX_PROBES_LIMIT) {
		pr_err("max_probes=%u out of range 1..%u\n",
		       kpmod_max_probes, KPMOD_MAX_PROBES_LIMIT);
		return -EINVAL;
	}

	ret = kpmod_rings_init();
	if (ret)
		return ret;
	ret = kpmod_dev_init();
	if (ret)
		goto rings;
	ret = kpmod_fsite_init();
	if (ret)
		goto dev;
	/* Last: once the family exists, userspace may call in. */
	ret = kpmod_genl_init();
	if (ret)
		goto fsite;

	pr_info("version %s loaded (%s, uapi %u)\n", KPMOD_VERSION,
		kpmod_arch_name(), KPMOD_UAPI_VERSION);
	return 0;
fsite:
	kpmod_fsite_exit();
dev:
	kpmod_dev_exit();
rings:
	kpmod_rings_exit();
	return ret;
}

static void __exit kpmod_exit(void)
{
	/* First: no new requests can arrive once the family is gone. */
	kpmod_genl_exit();
	/* The ftrace sites first: they run probes that kpmod_probes_exit() frees. */
	kpmod_fsite_exit();
	/* Waits for every running handler; no reader can hold a ring here. */
	kpmod_probes_exit();
	kpmod_dev_exit();
	mutex_lock(&kpmod_lock);
	kpmod_snapshot_free();
	mutex_unlock(&kpmod_lock);
	kpmod_rings_exit();
	/* Filters freed after a grace period (call_rcu) are freed before the code goes. */
	rcu_barrier();
	pr_info("unloaded\n");
}

module_init(kpmod_init);
module_exit(kpmod_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kprobe-based event tracing over generic netlink and mmap'd per-CPU rings");
MODULE_VERSION(KPMOD_VERSION);
MODULE_AUTHOR("The kpmod authors");
