// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel stack of a hit, as bpftrace's kstack gives it: from the probed
 * function down, the frames of kpmod and of the kprobe machinery above it
 * cut.  A frame in the probed function is the return address of its ftrace
 * call or the breakpoint's address: a few bytes past the probe's address.
 * Without one (a return probe runs after the function), only kpmod's own
 * frames are cut.
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/stacktrace.h>
#include <uapi/kpmod.h>

#include "stack.h"

/* Frames captured before the handler's own are cut from the top. */
#define KPMOD_STACK_SCAN	(KPMOD_STACK_MAX_FRAMES + 16)
/* A frame this close past the probe's address is in the probed function. */
#define KPMOD_STACK_NEAR_PROBE	16

/* One handler per CPU at a time uses it: the one that holds the CPU's ring. */
static DEFINE_PER_CPU(unsigned long [KPMOD_STACK_SCAN], kpmod_stack_scanbuf);

unsigned int kpmod_stack_save(u64 *out, unsigned int max, unsigned long at)
{
	unsigned long *frames = this_cpu_ptr(kpmod_stack_scanbuf);
	unsigned int n, i = 0, j;

	n = stack_trace_save(frames, KPMOD_STACK_SCAN, 0);
	for (j = 0; j < n; j++) {
		if (frames[j] - at < KPMOD_STACK_NEAR_PROBE) {
			i = j;
			break;
		}
	}
	while (i < n && within_module(frames[i], THIS_MODULE))
		i++;
	for (j = 0; j < max && i < n; j++, i++)
		out[j] = frames[i];
	return j;
}

NOKPROBE_SYMBOL(kpmod_stack_save);
