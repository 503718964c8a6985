/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The version of the kernel kpmod runs on, where the output must follow
 * what that kernel's own tracing prints (hist's stacktrace name, the
 * order of entries its sort leaves).
 */
#ifndef KP_KVER_H
#define KP_KVER_H

#define KP_KVER(major, minor) ((major) << 16 | (minor))

/* The running kernel's KP_KVER(), from uname(), unless kp_kver_set() said. */
unsigned int kp_kver(void);

/* Takes @release ("6.12.57+deb13-amd64") as the running kernel's. */
void kp_kver_set(const char *release);

#endif
