// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark floor: a kprobe with an empty handler on sym=, so that a
 * benchmark can subtract what the kprobe mechanism itself costs from what
 * a tracer's handler adds.  Not part of kpmod; used by bench/ only.
 */
#include <linux/kprobes.h>
#include <linux/module.h>

static char *sym = "__x64_sys_getppid";
module_param(sym, charp, 0444);
MODULE_PARM_DESC(sym, "symbol to probe");

static int kpmod_floor_handler(struct kprobe *kp, struct pt_regs *regs)
{
	return 0;
}

static struct kprobe kpmod_floor_kp = {
	.pre_handler = kpmod_floor_handler,
};

static int __init kpmod_floor_init(void)
{
	kpmod_floor_kp.symbol_name = sym;
	return register_kprobe(&kpmod_floor_kp);
}

static void __exit kpmod_floor_exit(void)
{
	unregister_kprobe(&kpmod_floor_kp);
}

module_init(kpmod_floor_init);
module_exit(kpmod_floor_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kpmod benchmark: a kprobe with an empty handler");
