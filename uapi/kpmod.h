/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * kpmod: the contract between the kpmod module and its userspace.
 *
 * Both module/ and userspace/ include this file; nothing else defines a
 * command, an attribute, a record or a ring layout.
 *
 * Control: generic netlink family KPMOD_GENL_NAME, version
 * KPMOD_GENL_VERSION.  Every command needs CAP_NET_ADMIN in the initial
 * network namespace (a kprobe engine affects the whole machine).  Requests
 * are validated against a strict policy; an invalid request is refused with
 * an errno and an extended ack message naming the bad attribute.
 *
 * KPMOD_CMD_STATUS (request: no attributes)
 *   Reply:
 *     KPMOD_A_MODULE_VERSION  string  the module's version ("0.1.0")
 *     KPMOD_A_UAPI_VERSION    u32     KPMOD_UAPI_VERSION the module speaks
 *     KPMOD_A_ARCH            string  "x86_64" or "arm64"
 *     KPMOD_A_KERNEL_RELEASE  string  utsname release of the running kernel
 *     KPMOD_A_NR_CPUS         u32     possible CPUs (one ring each)
 *     KPMOD_A_NR_ONLINE_CPUS  u32     CPUs online now
 *     KPMOD_A_NR_PROBES       u32     probes registered now
 *     KPMOD_A_MAX_PROBES      u32     the module's max_probes parameter
 *
 * The character device /dev/KPMOD_DEVICE_NAME (mode 0600) serves the
 * per-CPU rings to readers.
 */
#ifndef _UAPI_LINUX_KPMOD_H
#define _UAPI_LINUX_KPMOD_H

#include <linux/types.h>

#define KPMOD_GENL_NAME		"kpmod"
#define KPMOD_GENL_VERSION	1
#define KPMOD_DEVICE_NAME	"kpmod"

/*
 * Bumped whenever a command, attribute, record or ring layout changes in a
 * way an older peer cannot ignore.  The CLI refuses to drive a module whose
 * uapi version differs from its own.
 */
#define KPMOD_UAPI_VERSION	1

/* Longest string attribute the module ever sends or accepts, NUL included. */
#define KPMOD_STR_MAX		64

enum kpmod_cmd {
	KPMOD_CMD_UNSPEC,
	KPMOD_CMD_STATUS,
	__KPMOD_CMD_MAX,
};

#define KPMOD_CMD_MAX (__KPMOD_CMD_MAX - 1)

enum kpmod_attr {
	KPMOD_A_UNSPEC,
	KPMOD_A_MODULE_VERSION,
	KPMOD_A_UAPI_VERSION,
	KPMOD_A_ARCH,
	KPMOD_A_KERNEL_RELEASE,
	KPMOD_A_NR_CPUS,
	KPMOD_A_NR_ONLINE_CPUS,
	KPMOD_A_NR_PROBES,
	KPMOD_A_MAX_PROBES,
	__KPMOD_A_MAX,
};

#define KPMOD_A_MAX (__KPMOD_A_MAX - 1)

#endif /* _UAPI_LINUX_KPMOD_H */
