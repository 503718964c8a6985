// SPDX-License-Identifier: GPL-2.0
/*
 * What every file of the module shares: the control-plane lock and the
 * module parameters (checked by kpmod_init()).
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>

#include "kpmod.h"

/* Taken by control paths only (netlink, attach): never by a handler. */
DEFINE_MUTEX(kpmod_lock);
u32 kpmod_probes_gen;

unsigned int kpmod_max_probes = 1024;
module_param_named(max_probes, kpmod_max_probes, uint, 0444);
MODULE_PARM_DESC(max_probes,
		 "Most probes that may be registered at once (1..65536, default 1024)");

unsigned int kpmod_max_buffer_mb;
module_param_named(max_buffer_mb, kpmod_max_buffer_mb, uint, 0444);
MODULE_PARM_DESC(max_buffer_mb,
		 "Most MiB of ring data all CPUs together may hold (default 0: a quarter of RAM)");

unsigned int kpmod_max_hist_mb;
module_param_named(max_hist_mb, kpmod_max_hist_mb, uint, 0444);
MODULE_PARM_DESC(max_hist_mb,
		 "Most MiB all hist tables together may take (default 0: an eighth of RAM)");
