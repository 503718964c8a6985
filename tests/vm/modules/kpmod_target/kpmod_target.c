// SPDX-License-Identifier: GPL-2.0
/*
 * A module for kpmod's tests to probe (MOD:SYM): writing N to
 * /sys/module/kpmod_target/parameters/poke calls kpmod_target_poke(N, ...).
 * Not part of kpmod.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

static const char kpmod_target_tag[] = "kpmod-target";

/* Global, not static, so it keeps its name and signature for the probe. */
int kpmod_target_poke(unsigned int n, const char *tag);

noinline int kpmod_target_poke(unsigned int n, const char *tag)
{
	/* Something the compiler cannot drop, so the call stays a call. */
	return READ_ONCE(n) + (tag[0] == 'k');
}

static int kpmod_target_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int ret = kstrtouint(val, 0, &n);

	if (ret)
		return ret;
	kpmod_target_poke(n, kpmod_target_tag);
	return 0;
}

static const struct kernel_param_ops kpmod_target_ops = {
	.set = kpmod_target_set,
};
module_param_cb(poke, &kpmod_target_ops, NULL, 0200);
MODULE_PARM_DESC(poke, "write N to call kpmod_target_poke(N, \"kpmod-target\")");

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kpmod tests: a module symbol to probe");
