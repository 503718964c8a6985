// SPDX-License-Identifier: GPL-2.0
/* kpmod-utarget's marker with a semaphore (utarget.c's have none). */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

/* uprobe_register_refctr() counts it up while the marker is probed. */
unsigned short kpmod_tock_semaphore __attribute__((used, section(".probes")));

void ut_tock(long i, long value);

__attribute__((noinline)) void ut_tock(long i, long value)
{
	DTRACE_PROBE2(kpmod, tock, i, value);
}
