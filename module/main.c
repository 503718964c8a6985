// SPDX-License-Identifier: GPL-2.0
/*
 * kpmod: kprobe-based event tracing for kernels without kprobe_events.
 *
 * Module entry and exit, and the module parameters.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "kpmod.h"

unsigned int kpmod_max_probes = 1024;
module_param_named(max_probes, kpmod_max_probes, uint, 0444);
MODULE_PARM_DESC(max_probes,
		 "Most probes that may be registered at once (1..65536, default 1024)");

#define KPMOD_MAX_PROBES_LIMIT 65536

static atomic_t kpmod_probes_registered = ATOMIC_INIT(0);

unsigned int kpmod_nr_probes(void)
{
	return atomic_read(&kpmod_probes_registered);
}

static int __init kpmod_init(void)
{
	int ret;

	if (kpmod_max_probes < 1 || kpmod_max_probes > KPMOD_MAX_PROBES_LIMIT) {
		pr_err("max_probes=%u out of range 1..%u\n",
		       kpmod_max_probes, KPMOD_MAX_PROBES_LIMIT);
		return -EINVAL;
	}

	ret = kpmod_dev_init();
	if (ret)
		return ret;

	/* Last: once the family exists, userspace may call in. */
	ret = kpmod_genl_init();
	if (ret) {
		kpmod_dev_exit();
		return ret;
	}

	pr_info("version %s loaded (%s, uapi %u)\n", KPMOD_VERSION,
		kpmod_arch_name(), KPMOD_UAPI_VERSION);
	return 0;
}

static void __exit kpmod_exit(void)
{
	/* First: no new requests can arrive once the family is gone. */
	kpmod_genl_exit();
	kpmod_dev_exit();
	pr_info("unloaded\n");
}

module_init(kpmod_init);
module_exit(kpmod_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kprobe-based event tracing over generic netlink and mmap'd per-CPU rings");
MODULE_VERSION(KPMOD_VERSION);
MODULE_AUTHOR("The kpmod authors");
