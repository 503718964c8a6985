// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <sys/utsname.h>

#include "kver.h"

static unsigned int kp_kver_cached;
static int kp_kver_known;

void kp_kver_set(const char *release)
{
	unsigned int major = 0, minor = 0;

	sscanf(release, "%u.%u", &major, &minor);
	kp_kver_cached = KP_KVER(major, minor);
	kp_kver_known = 1;
}

unsigned int kp_kver(void)
{
	struct utsname u;

	if (!kp_kver_known)
		kp_kver_set(uname(&u) ? "0.0" : u.release);
	return kp_kver_cached;
}
