// SPDX-License-Identifier: GPL-2.0
/*
 * A livepatch for kpmod's tests, after the kernel's
 * samples/livepatch/livepatch-sample.c: it replaces kpmod_target_shared()
 * of the kpmod_target module with a function that returns 2 instead of 1,
 * so that every caller can tell which ran.  Not part of kpmod.  On a
 * kernel without CONFIG_LIVEPATCH it builds, and refuses to load.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#ifdef CONFIG_LIVEPATCH
#include <linux/livepatch.h>

static int kpmod_livepatch_shared(int ctx)
{
	return READ_ONCE(ctx) >= 0 ? 2 : 0;
}

static struct klp_func kpmod_livepatch_funcs[] = {
	{
		.old_name = "kpmod_target_shared",
		.new_func = kpmod_livepatch_shared,
	},
	{ }
};

static struct klp_object kpmod_livepatch_objs[] = {
	{
		.name = "kpmod_target",
		.funcs = kpmod_livepatch_funcs,
	},
	{ }
};

static struct klp_patch kpmod_livepatch_patch = {
	.mod = THIS_MODULE,
	.objs = kpmod_livepatch_objs,
};

static int __init kpmod_livepatch_init(void)
{
	return klp_enable_patch(&kpmod_livepatch_patch);
}
#else
static int __init kpmod_livepatch_init(void)
{
	return -EOPNOTSUPP;
}
#endif

static void __exit kpmod_livepatch_exit(void)
{
}

module_init(kpmod_livepatch_init);
module_exit(kpmod_livepatch_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kpmod tests: a livepatch of kpmod_target_shared()");
MODULE_INFO(livepatch, "Y");
