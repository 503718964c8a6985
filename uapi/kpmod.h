/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * kpmod: the contract between the kpmod module and its userspace.
 *
 * Both module/ and userspace/ include this file; nothing else defines a
 * command, an attribute, a record or a ring layout.
 *
 * Control: generic netlink family KPMOD_GENL_NAME, version
 * KPMOD_GENL_VERSION, in the initial network namespace only.  Every command
 * needs both CAP_NET_ADMIN (the generic netlink core's GENL_ADMIN_PERM) and
 * CAP_SYS_ADMIN (the module's own check: a probe reads any kernel memory,
 * as kprobe_events needs), in the initial user namespace; in practice, root
 * outside any container.  Under kernel lockdown in confidentiality mode,
 * adding and enabling probes is refused (EPERM), as kprobe_events refuses.
 * Requests are validated against a strict policy; an invalid request is
 * refused with an errno and an extended ack message naming the bad
 * attribute (NLMSGERR_ATTR_OFFS points at it in the request).
 *
 * KPMOD_CMD_STATUS (request: no attributes)
 *   Reply:
 *     KPMOD_A_MODULE_VERSION  string  the module's version ("0.1.0")
 *     KPMOD_A_UAPI_VERSION    u32     KPMOD_UAPI_VERSION the module speaks
 *     KPMOD_A_ARCH            string  "x86_64" or "arm64"
 *     KPMOD_A_KERNEL_RELEASE  string  utsname release of the running kernel
 *     KPMOD_A_NR_CPUS         u32     ring indexes: CPUs 0..N-1 (nr_cpu_ids);
 *                                     every possible CPU among them has a
 *                                     ring, others ENXIO on attach
 *     KPMOD_A_NR_POSSIBLE_CPUS u32    possible CPUs (the rings there are)
 *     KPMOD_A_NR_ONLINE_CPUS  u32     CPUs online now
 *     KPMOD_A_NR_PROBES       u32     probes registered now
 *     KPMOD_A_MAX_PROBES      u32     the module's max_probes parameter
 *     KPMOD_A_BUF_SIZE        u64     bytes of data per CPU ring
 *     KPMOD_A_BUF_MODE        u32     enum kpmod_buf_mode
 *     KPMOD_A_BUF_LIMIT       u64     the most bytes of data all rings
 *                                     together may hold (max_buffer_mb)
 *     KPMOD_A_SNAPSHOTS       u64     snapshots a snapshot trigger took
 *                                     into the copies that are there now
 *     KPMOD_A_SNAPSHOTS_SKIPPED u64   snapshot triggers that took none:
 *                                     one was being copied or read
 *     KPMOD_A_HIST_MEM        u64     bytes all hist tables take now
 *     KPMOD_A_HIST_LIMIT      u64     the most they may take together
 *                                     (max_hist_mb); a trigger whose table
 *                                     would pass it is refused (E2BIG)
 *     KPMOD_A_RINGS           nest    one KPMOD_A_RING nest per ring (per
 *                                     possible CPU), with KPMOD_RING_A_CPU
 *                                     and the counters of its meta page:
 *                                     _EVENTS, _LOST, _OVERWRITTEN, _NESTED
 *                                     (readers or not: for monitoring)
 *
 * KPMOD_CMD_PROBE_ADD
 *   Request: KPMOD_A_PROBE_GROUP, KPMOD_A_PROBE_EVENT, KPMOD_A_PROBE_KIND,
 *   either KPMOD_A_PROBE_SYMBOL (+ optional KPMOD_A_PROBE_MODULE,
 *   KPMOD_A_PROBE_OFFSET) or KPMOD_A_PROBE_ADDR, optional
 *   KPMOD_A_PROBE_MAXACTIVE (return probes), KPMOD_A_PROBE_DEFINITION (the
 *   text `kpmod list` prints back), KPMOD_A_PROBE_ARGS (a nest of
 *   KPMOD_A_ARG nests, one per argument, in order), KPMOD_A_PROBE_ENABLED
 *   (flag: enable at once), and a filter (KPMOD_A_FILTER_TEXT, _PROG and
 *   _STRS, as for PROBE_FILTER) in force from the first hit.  Every fetch
 *   program, and the filter, is validated before the probe is
 *   registered; on any error, a failure to send the reply included,
 *   nothing is left registered.  A one-shot run (kpmod trace -- CMD) also
 *   sends KPMOD_A_PROBE_PID_TREE and KPMOD_A_PROBE_ONE_SHOT, see below.
 *   Reply: KPMOD_A_PROBE_ID.
 * KPMOD_CMD_PROBE_DEL, KPMOD_CMD_PROBE_ENABLE, KPMOD_CMD_PROBE_DISABLE
 *   Request: KPMOD_A_PROBE_SELECT, a nest of KPMOD_A_SELECTOR nests, each
 *   naming probes by KPMOD_SEL_A_GROUP and/or KPMOD_SEL_A_EVENT; an absent
 *   or empty one matches any (a selector with an empty event only matches
 *   every probe, as an empty nest is not sent; DEL needs one or the other:
 *   CLEAR deletes everything).  The request changes every probe a selector matches,
 *   or none: a selector that matches nothing (ENOENT), an event name given
 *   without a group that exists in several groups (EINVAL), a probe still
 *   enabled (DEL: EBUSY) or a probe the kernel will not change fails the
 *   whole request, with the extended ack pointing at that selector, and
 *   every probe is left as it was.
 *   ENABLE changes only the probes that are disabled, and may carry:
 *     KPMOD_A_PROBE_PID_TREE  u32  a process id of the caller's pid
 *                                  namespace (the caller's own, for kpmod
 *                                  trace -- CMD; ESRCH if there is none):
 *                                  the probes it enables see only the tasks
 *                                  that descend from that process, its own
 *                                  threads aside, following real_parent up
 *                                  to KPMOD_PID_TREE_DEPTH processes; the
 *                                  hits of any other task are ignored,
 *                                  triggers included, and not counted.
 *                                  Absent or 0: every task.  On PROBE_ADD
 *                                  it is in force from the first hit, and
 *                                  for the probe's life when ONE_SHOT is
 *                                  given too (enabling or disabling such a
 *                                  probe leaves its tree as it is).
 *     KPMOD_A_PROBE_ONE_SHOT  flag the caller enables (or, on PROBE_ADD,
 *                                  adds) these probes for one run and will
 *                                  undo it when the run ends; the module
 *                                  records the caller's process id, which
 *                                  PROBE_GET reports as KPMOD_A_PROBE_ADDED_BY
 *                                  and _ENABLED_BY, so that what a killed
 *                                  run leaves behind can be found.
 *   DISABLE clears both for the probes it disables (a run's own probe
 *   keeps its tree).  PROBE_GET reports these three process ids as the
 *   initial pid namespace numbers them to a caller in it, else in the
 *   caller's namespace (0 when it cannot see the process).
 * KPMOD_CMD_PROBE_GET      dump: one message per probe with every
 *                          KPMOD_A_PROBE_* attribute, the counters and, per
 *                          argument, its name, type, count, offset and size.
 *                          A dump that overlaps a change is flagged
 *                          NLM_F_DUMP_INTR: the reader starts it again.
 *                          Each message of a dump (PROBE_GET, HIST_GET)
 *                          may take up to KPMOD_DUMP_MSG_SIZE bytes: read
 *                          with a buffer that large (the limits keep one
 *                          probe, all it holds included, under 28 KiB).
 * KPMOD_CMD_CLEAR          deletes every probe; EBUSY if one is enabled.
 * KPMOD_CMD_PROBE_FILTER
 *   Request: KPMOD_A_PROBE_GROUP and KPMOD_A_PROBE_EVENT naming one probe;
 *   KPMOD_A_FILTER_TEXT (the expression, printed back by PROBE_GET),
 *   KPMOD_A_FILTER_PROG (struct kpmod_filter_pred[]) and
 *   KPMOD_A_FILTER_STRS (the string operands) set its filter; none of the
 *   three clears it.  The program is validated against the probe's
 *   arguments before it replaces the old one; a refused filter leaves the
 *   old one in force.  Events that do not match take no ring space and
 *   are counted in KPMOD_A_PROBE_FILTERED.
 * KPMOD_CMD_BUFFER_SET     KPMOD_A_BUF_SIZE and/or KPMOD_A_BUF_MODE; EBUSY
 *                          while a probe is enabled or a ring is attached;
 *                          E2BIG when size x possible CPUs would exceed
 *                          KPMOD_A_BUF_LIMIT.
 * KPMOD_CMD_SYM_RESOLVE    KPMOD_A_SYM_ADDRS (1 to KPMOD_SYM_BATCH u64
 *                          kernel addresses); the reply's KPMOD_A_SYMS
 *                          holds one KPMOD_A_SYM_TEXT per address, in
 *                          order: the kernel's %pS of it ("sym+0x1a/0x40"
 *                          or "sym+0x1a/0x40 [mod]"; "0x..." where no
 *                          symbol is), as ftrace prints it.  Values are
 *                          looked up, never read through.  Needs
 *                          CAP_SYSLOG too (as kptr_restrict=1 asks of a
 *                          reader of /proc/kallsyms; the CLI asks only
 *                          where /proc/kallsyms shows it addresses).
 *
 * The character device /dev/KPMOD_DEVICE_NAME (mode 0600) serves the
 * per-CPU rings to readers, see "Rings" below.
 */
#ifndef _UAPI_LINUX_KPMOD_H
#define _UAPI_LINUX_KPMOD_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define KPMOD_GENL_NAME		"kpmod"
#define KPMOD_GENL_VERSION	1
#define KPMOD_DEVICE_NAME	"kpmod"

/*
 * Bumped whenever a command, attribute, record or ring layout changes in a
 * way an older peer cannot ignore.  The CLI refuses to drive a module whose
 * uapi version differs from its own.
 */
#define KPMOD_UAPI_VERSION	11

/* Longest string attribute the module sends in STATUS, NUL included. */
#define KPMOD_STR_MAX		64

/* Limits, equal to the kernel's kprobe_events where it has one. */
#define KPMOD_MAX_ARGS		128	/* MAX_TRACE_ARGS */
#define KPMOD_MAX_NAME_LEN	64	/* MAX_EVENT_NAME_LEN, NUL included */
#define KPMOD_MAX_ARG_NAME_LEN	32	/* MAX_ARG_NAME_LEN, NUL included */
#define KPMOD_MAX_SYMBOL_LEN	512	/* KSYM_NAME_LEN, NUL included */
#define KPMOD_MAX_MODULE_LEN	56	/* MODULE_NAME_LEN, NUL included */
#define KPMOD_MAX_PATH_LEN	4096	/* PATH_MAX, NUL included: a uprobe's file */
#define KPMOD_MAX_DEF_LEN	4096	/* a definition as `kpmod list` prints it */
#define KPMOD_MAX_INSNS		16	/* FETCH_INSN_MAX */
#define KPMOD_MAX_ARRAY_LEN	64	/* MAX_ARRAY_LEN */
#define KPMOD_MAX_IMM_STR	64	/* immediate string, NUL included */
#define KPMOD_MAX_STRING	4096	/* MAX_STRING_SIZE: longest string fetched */
#define KPMOD_MAX_FIXED_ARGS	3072	/* MAX_PROBE_EVENT_SIZE: fixed arg area */
#define KPMOD_MAX_RECORD	16384	/* whole record; strings are cut to fit */
#define KPMOD_MAX_MAXACTIVE	4096	/* KRETPROBE_MAXACTIVE_MAX */
#define KPMOD_MAX_OFFSET	0xffffffffULL	/* struct kprobe's offset is 32 bits */
#define KPMOD_MAX_SELECTORS	1024	/* in one DEL, ENABLE or DISABLE */
#define KPMOD_MAX_FILTER_TEXT	4096	/* a filter file write: under PAGE_SIZE */
#define KPMOD_MAX_FILTER_PREDS	256	/* predicates in one filter */
#define KPMOD_MAX_FILTER_STR	256	/* MAX_FILTER_STR_VAL: an operand is shorter */
#define KPMOD_MAX_FILTER_STRS	4096	/* all operands, NULs included: within the text */
#define KPMOD_MAX_TRIGGERS	16	/* triggers on one probe */
#define KPMOD_MAX_TRIGGER_TEXT	4096	/* a trigger file write: under PAGE_SIZE */
#define KPMOD_MAX_TRIGGERS_TEXT	8192	/* one probe's trigger texts and filters, NULs in */
#define KPMOD_DUMP_MSG_SIZE	32768	/* the largest message of a dump */
#define KPMOD_HIST_MAX_KEYS	3	/* TRACING_MAP_KEYS_MAX */
#define KPMOD_HIST_MAX_VALS	2	/* TRACING_MAP_VALS_MAX, hitcount aside */
#define KPMOD_HIST_STR_KEY	256	/* MAX_FILTER_STR_VAL: a string key's bytes */
#define KPMOD_HIST_STACK_DEPTH	16	/* HIST_STACKTRACE_DEPTH */
#define KPMOD_HIST_MAX_KEY_SIZE	(KPMOD_HIST_MAX_KEYS * KPMOD_HIST_STR_KEY)
#define KPMOD_HIST_SIZE_MIN	128	/* 1 << TRACING_MAP_BITS_MIN entries */
#define KPMOD_HIST_SIZE_MAX	131072	/* 1 << TRACING_MAP_BITS_MAX */
#define KPMOD_HIST_SIZE_DEFAULT	2048
#define KPMOD_HIST_NAME_MAX	64	/* a hist's name=, NUL included */
#define KPMOD_TRIGGER_UNLIMITED	0xffffffffU	/* a trigger's count: no limit */
#define KPMOD_PID_TREE_DEPTH	64	/* ancestors a pid tree check follows */
#define KPMOD_PID_MAX		4194304	/* PID_MAX_LIMIT: the largest process id */
#define KPMOD_SYM_BATCH		32	/* addresses in one SYM_RESOLVE */

enum kpmod_cmd {
	KPMOD_CMD_UNSPEC,
	KPMOD_CMD_STATUS,
	KPMOD_CMD_PROBE_ADD,
	KPMOD_CMD_PROBE_DEL,
	KPMOD_CMD_PROBE_GET,
	KPMOD_CMD_PROBE_ENABLE,
	KPMOD_CMD_PROBE_DISABLE,
	KPMOD_CMD_CLEAR,
	KPMOD_CMD_BUFFER_SET,
	KPMOD_CMD_PROBE_FILTER,
	KPMOD_CMD_TRIGGER,
	KPMOD_CMD_HIST_GET,
	KPMOD_CMD_TRACING,
	KPMOD_CMD_SYM_RESOLVE,
	__KPMOD_CMD_MAX,
};

#define KPMOD_CMD_MAX (__KPMOD_CMD_MAX - 1)

enum kpmod_attr {
	KPMOD_A_UNSPEC,
	KPMOD_A_MODULE_VERSION,		/* string */
	KPMOD_A_UAPI_VERSION,		/* u32 */
	KPMOD_A_ARCH,			/* string */
	KPMOD_A_KERNEL_RELEASE,		/* string */
	KPMOD_A_NR_CPUS,		/* u32 */
	KPMOD_A_NR_ONLINE_CPUS,		/* u32 */
	KPMOD_A_NR_PROBES,		/* u32 */
	KPMOD_A_MAX_PROBES,		/* u32 */
	KPMOD_A_BUF_SIZE,		/* u64, power of two */
	KPMOD_A_BUF_MODE,		/* u32, enum kpmod_buf_mode */
	KPMOD_A_PROBE_ID,		/* u32, the id records carry */
	KPMOD_A_PROBE_GROUP,		/* string */
	KPMOD_A_PROBE_EVENT,		/* string */
	KPMOD_A_PROBE_KIND,		/* u32, enum kpmod_probe_kind */
	KPMOD_A_PROBE_SYMBOL,		/* string */
	KPMOD_A_PROBE_MODULE,		/* string, for MOD:SYM */
	KPMOD_A_PROBE_OFFSET,		/* u64, added to the symbol */
	KPMOD_A_PROBE_ADDR,		/* u64, an absolute address */
	KPMOD_A_PROBE_MAXACTIVE,	/* u32, 0 = the kernel's default; replies: in force */
	KPMOD_A_PROBE_DEFINITION,	/* string */
	KPMOD_A_PROBE_ARGS,		/* nest of KPMOD_A_ARG */
	KPMOD_A_PROBE_ENABLED,		/* flag */
	KPMOD_A_PROBE_HITS,		/* u64 */
	KPMOD_A_PROBE_MISSES,		/* u64: kprobe nmissed + kretprobe nmissed */
	KPMOD_A_PROBE_DROPPED,		/* u64: events lost for lack of ring space */
	KPMOD_A_PROBE_GONE,		/* flag: its module was unloaded */
	KPMOD_A_PROBE_ADDRESS,		/* u64: where the probe sits (replies) */
	KPMOD_A_PROBE_ARGS_SIZE,	/* u32: fixed argument area bytes (replies) */
	KPMOD_A_ARG,			/* nest of KPMOD_ARG_A_*, inside ARGS */
	KPMOD_A_NR_POSSIBLE_CPUS,	/* u32 */
	KPMOD_A_NR_SITES,		/* unused: the module no longer sends it */
	KPMOD_A_BUF_LIMIT,		/* u64 */
	KPMOD_A_SITE_TRAPS,		/* unused: the module no longer sends it */
	KPMOD_A_PROBE_SELECT,		/* nest of KPMOD_A_SELECTOR */
	KPMOD_A_SELECTOR,		/* nest of KPMOD_SEL_A_*, inside SELECT */
	KPMOD_A_FILTER_TEXT,		/* string, < KPMOD_MAX_FILTER_TEXT */
	KPMOD_A_FILTER_PROG,		/* binary: struct kpmod_filter_pred[] */
	KPMOD_A_FILTER_STRS,		/* binary: string operands, each NUL-terminated */
	KPMOD_A_PROBE_FILTERED,		/* u64: events its filter did not match */
	KPMOD_A_TRIGGER_TYPE,		/* u32, enum kpmod_trigger_type */
	KPMOD_A_TRIGGER_TEXT,		/* string: the trigger, "if" part aside */
	KPMOD_A_TRIGGER_COUNT,		/* u32: times left, or KPMOD_TRIGGER_UNLIMITED */
	KPMOD_A_TRIGGER_REMOVE,		/* flag: remove the trigger of this text */
	KPMOD_A_TRIGGER_ID,		/* u32 */
	KPMOD_A_TRIGGERS,		/* nest of KPMOD_A_TRIGGER (replies) */
	KPMOD_A_TRIGGER,		/* nest of KPMOD_TRIG_A_*, inside TRIGGERS */
	KPMOD_A_HIST_KEYS,		/* binary: struct kpmod_hist_field[] */
	KPMOD_A_HIST_VALS,		/* binary: struct kpmod_hist_field[] */
	KPMOD_A_HIST_SIZE,		/* u32: entries, a power of two */
	KPMOD_A_HIST_ACTION,		/* u32, enum kpmod_hist_action */
	KPMOD_A_HIST_ENTRY,		/* binary: struct kpmod_hist_entry + key, in ENTRIES */
	KPMOD_A_HIST_HITS,		/* u64 */
	KPMOD_A_HIST_DROPS,		/* u64 */
	KPMOD_A_HIST_KEY_SIZE,		/* u32: key bytes of each entry */
	KPMOD_A_TRACING_ON,		/* u32: 1 when events reach the rings */
	KPMOD_A_TRIGGER_TARGET_GROUP,	/* string: enable_event's probe */
	KPMOD_A_TRIGGER_TARGET_EVENT,	/* string */
	KPMOD_A_PROBE_SOFT_DISABLED,	/* flag: enable_event's target, now off */
	KPMOD_A_HIST_ENTRIES,		/* nest of KPMOD_A_HIST_ENTRY */
	KPMOD_A_HIST_NAME,		/* string, < KPMOD_HIST_NAME_MAX: name= */
	KPMOD_A_SNAPSHOTS,		/* u64 (STATUS) */
	KPMOD_A_SNAPSHOTS_SKIPPED,	/* u64 (STATUS) */
	KPMOD_A_PROBE_PID_TREE,		/* u32: record only this process' descendants */
	KPMOD_A_PROBE_ONE_SHOT,		/* flag: for one run of the caller's */
	KPMOD_A_PROBE_ADDED_BY,		/* u32 (replies): that run's process id */
	KPMOD_A_PROBE_ENABLED_BY,	/* u32 (replies): that run's process id */
	KPMOD_A_RINGS,			/* nest of KPMOD_A_RING (STATUS) */
	KPMOD_A_RING,			/* nest of KPMOD_RING_A_*, inside RINGS */
	KPMOD_A_PROBE_PATH,		/* string, < KPMOD_MAX_PATH_LEN: a uprobe's file */
	KPMOD_A_PROBE_REF_CTR_OFFSET,	/* u64: a uprobe's semaphore, a file offset */
	KPMOD_A_HIST_MEM,		/* u64 (STATUS) */
	KPMOD_A_HIST_LIMIT,		/* u64 (STATUS) */
	KPMOD_A_SYM_ADDRS,		/* binary: u64[], at most KPMOD_SYM_BATCH */
	KPMOD_A_SYMS,			/* nest of KPMOD_A_SYM_TEXT, one per address (replies) */
	KPMOD_A_SYM_TEXT,		/* string: the address as the kernel's %pS prints it */
	__KPMOD_A_MAX,
};

#define KPMOD_A_MAX (__KPMOD_A_MAX - 1)

/* One ring's counters in STATUS, as its struct kpmod_ring_meta holds them. */
enum kpmod_ring_attr {
	KPMOD_RING_A_UNSPEC,
	KPMOD_RING_A_CPU,		/* u32 */
	KPMOD_RING_A_EVENTS,		/* u64 */
	KPMOD_RING_A_LOST,		/* u64 */
	KPMOD_RING_A_OVERWRITTEN,	/* u64 */
	KPMOD_RING_A_NESTED,		/* u64 */
	__KPMOD_RING_A_MAX,
};

#define KPMOD_RING_A_MAX (__KPMOD_RING_A_MAX - 1)

enum kpmod_arg_attr {
	KPMOD_ARG_A_UNSPEC,
	KPMOD_ARG_A_NAME,	/* string, < KPMOD_MAX_ARG_NAME_LEN */
	KPMOD_ARG_A_TYPE,	/* u32, enum kpmod_type */
	KPMOD_ARG_A_COUNT,	/* u32, array length; 0 or absent: a scalar */
	KPMOD_ARG_A_PROG,	/* binary: struct kpmod_fetch_insn[], END included */
	KPMOD_ARG_A_DATA,	/* binary: an immediate string, NUL included */
	KPMOD_ARG_A_OFFSET,	/* u32 (replies): slot offset in the arg area */
	KPMOD_ARG_A_SIZE,	/* u32 (replies): slot size */
	__KPMOD_ARG_A_MAX,
};

#define KPMOD_ARG_A_MAX (__KPMOD_ARG_A_MAX - 1)

enum kpmod_sel_attr {
	KPMOD_SEL_A_UNSPEC,
	KPMOD_SEL_A_GROUP,	/* string, < KPMOD_MAX_NAME_LEN */
	KPMOD_SEL_A_EVENT,	/* string, < KPMOD_MAX_NAME_LEN */
	__KPMOD_SEL_A_MAX,
};

#define KPMOD_SEL_A_MAX (__KPMOD_SEL_A_MAX - 1)

/* One trigger in a PROBE_GET reply. */
enum kpmod_trig_attr {
	KPMOD_TRIG_A_UNSPEC,
	KPMOD_TRIG_A_ID,	/* u32 */
	KPMOD_TRIG_A_TYPE,	/* u32, enum kpmod_trigger_type */
	KPMOD_TRIG_A_TEXT,	/* string, as added */
	KPMOD_TRIG_A_COUNT,	/* u32: times left, or KPMOD_TRIGGER_UNLIMITED */
	KPMOD_TRIG_A_FILTER,	/* string: its "if" expression */
	KPMOD_TRIG_A_PAUSED,	/* flag: a hist that counts nothing now */
	KPMOD_TRIG_A_HITS,	/* u64: hist updates made */
	KPMOD_TRIG_A_DROPS,	/* u64: hist updates dropped, table full */
	KPMOD_TRIG_A_ENTRIES,	/* u32: hist entries in use */
	KPMOD_TRIG_A_KEY_SIZE,	/* u32: hist key bytes */
	__KPMOD_TRIG_A_MAX,
};

#define KPMOD_TRIG_A_MAX (__KPMOD_TRIG_A_MAX - 1)

enum kpmod_probe_kind {
	KPMOD_PROBE_ENTRY = 1,		/* p: a kprobe */
	KPMOD_PROBE_RETURN = 2,		/* r: or %return: a kretprobe */
	/*
	 * uprobe_events' p: and r: on PATH:OFFSET (KPMOD_A_PROBE_PATH,
	 * KPMOD_A_PROBE_OFFSET a file offset, optional
	 * KPMOD_A_PROBE_REF_CTR_OFFSET).  Registered with the kernel while
	 * armed (enabled, or needed by triggers), as uprobe_events does;
	 * their fetch programs read user memory only (UDEREF, ST_UMEM,
	 * ST_USTRING), $stackN from the user stack, and take no $argN.
	 */
	KPMOD_PROBE_UPROBE = 3,
	KPMOD_PROBE_URETPROBE = 4,
};

enum kpmod_buf_mode {
	KPMOD_BUF_DISCARD = 0,		/* full ring: new events dropped, counted */
	KPMOD_BUF_OVERWRITE = 1,	/* full ring: oldest events overwritten */
};

#define KPMOD_BUF_SIZE_MIN	65536ULL	/* 64 KiB per CPU */
#define KPMOD_BUF_SIZE_MAX	268435456ULL	/* 256 MiB per CPU */
#define KPMOD_BUF_SIZE_DEFAULT	1048576ULL	/* 1 MiB per CPU */

/* A ring size both sides accept: a power of two from 64 KiB to 256 MiB. */
static inline int kpmod_buf_size_valid(__u64 size)
{
	return size >= KPMOD_BUF_SIZE_MIN && size <= KPMOD_BUF_SIZE_MAX &&
	       !(size & (size - 1));
}

/* The name a user gives and is shown for @mode (kpmod buffer --mode). */
static inline const char *kpmod_buf_mode_name(__u32 mode)
{
	return mode == KPMOD_BUF_OVERWRITE ? "overwrite" : "discard";
}

/*
 * Argument types.  The store op of a fetch program fixes what is written;
 * the type says how it is printed:
 *   Un/Sn  decimal, unsigned/signed    Xn  hex, 0x-prefixed
 *   CHAR   'c'                         STRING, USTRING, COMM: "quoted"
 *   SYMBOL sym+off/size                SYMSTR: "sym+off/size" (quoted)
 *   BITFIELD: unsigned decimal of the extracted bits
 */
enum kpmod_type {
	KPMOD_T_U8 = 1, KPMOD_T_U16, KPMOD_T_U32, KPMOD_T_U64,
	KPMOD_T_S8, KPMOD_T_S16, KPMOD_T_S32, KPMOD_T_S64,
	KPMOD_T_X8, KPMOD_T_X16, KPMOD_T_X32, KPMOD_T_X64,
	KPMOD_T_CHAR,
	KPMOD_T_STRING, KPMOD_T_USTRING,
	KPMOD_T_SYMBOL, KPMOD_T_SYMSTR,
	KPMOD_T_BITFIELD,
	__KPMOD_T_MAX,
};

/* Sn: compared, widened and keyed as signed. */
static inline int kpmod_type_signed(__u32 type)
{
	return type >= KPMOD_T_S8 && type <= KPMOD_T_S64;
}

/*
 * Fetch programs.  Each argument is a short program, as in the kernel's
 * trace_probe: exactly one load (stage 1), then zero or more dereferences
 * (stage 2), exactly one store (stage 3), then optionally a bitfield
 * (stage 4) and an array loop (stage 5), then END.  The module validates
 * every program (ops, order, sizes, indexes, length) before registering a
 * probe, and a fault in any dereference is recorded, never taken.
 */
enum kpmod_fetch_op {
	KPMOD_FOP_END = 0,
	/* stage 1: load */
	KPMOD_FOP_REG,		/* .param: register number, enum kpmod_reg_* */
	KPMOD_FOP_STACK,	/* .param: N of $stackN */
	KPMOD_FOP_STACKP,	/* $stack: the stack pointer */
	KPMOD_FOP_RETVAL,	/* $retval: return probes only */
	KPMOD_FOP_IMM,		/* .imm: an immediate or an address (@ADDR, @SYM) */
	KPMOD_FOP_COMM,		/* $comm: store must be ST_STRING */
	KPMOD_FOP_ARG,		/* .param: N >= 1 of $argN (return probes: at entry) */
	KPMOD_FOP_DATA,		/* an immediate string (KPMOD_ARG_A_DATA) */
	/* stage 2: dereference the value + .imm */
	KPMOD_FOP_DEREF,	/* kernel memory */
	KPMOD_FOP_UDEREF,	/* user memory */
	/* stage 3: store */
	KPMOD_FOP_ST_RAW,	/* the value itself, .size bytes */
	KPMOD_FOP_ST_MEM,	/* .size bytes of kernel memory at value + .imm */
	KPMOD_FOP_ST_UMEM,	/* .size bytes of user memory at value + .imm */
	KPMOD_FOP_ST_STRING,	/* kernel string at value + .imm */
	KPMOD_FOP_ST_USTRING,	/* user string at value + .imm */
	/* stage 4: modify */
	KPMOD_FOP_MOD_BF,	/* value = (value << .lshift) >> .rshift, .size: container */
	/* stage 5: loop */
	KPMOD_FOP_LP_ARRAY,	/* .param: element count; repeat stage 2..4 per element */
	/* stage 1, kpmod's: return probes only, ns from the function's entry */
	KPMOD_FOP_DURATION,
	/*
	 * stage 1, uprobes only: uprobe_events' @+OFFSET, the address where
	 * .imm, a file offset of the probed file, is mapped in the process
	 * hit (the probe's address less its own offset, plus .imm)
	 */
	KPMOD_FOP_FILE_OFFSET,
	/* stage 1: $current, the address of the task hit's task_struct */
	KPMOD_FOP_CURRENT,
	/*
	 * stage 2, kernel probes only: this_cpu_ptr() of the value, the
	 * address of this CPU's copy of a per-CPU variable (a handler runs
	 * with preemption off)
	 */
	KPMOD_FOP_CPU_PTR,
	__KPMOD_FOP_MAX,
};

struct kpmod_fetch_insn {
	__u8 op;		/* enum kpmod_fetch_op */
	__u8 size;		/* ST_RAW/MEM/UMEM: 1, 2, 4 or 8; MOD_BF: container bytes */
	__u8 lshift;		/* MOD_BF */
	__u8 rshift;		/* MOD_BF */
	__u32 param;		/* REG, STACK, ARG, LP_ARRAY */
	__s64 imm;		/* IMM: value; DEREF, UDEREF, ST_*: offset */
};

/* Register numbers for KPMOD_FOP_REG: the pt_regs slot, in words. */
enum kpmod_reg_x86_64 {
	KPMOD_REG_X86_R15, KPMOD_REG_X86_R14, KPMOD_REG_X86_R13,
	KPMOD_REG_X86_R12, KPMOD_REG_X86_BP, KPMOD_REG_X86_BX,
	KPMOD_REG_X86_R11, KPMOD_REG_X86_R10, KPMOD_REG_X86_R9,
	KPMOD_REG_X86_R8, KPMOD_REG_X86_AX, KPMOD_REG_X86_CX,
	KPMOD_REG_X86_DX, KPMOD_REG_X86_SI, KPMOD_REG_X86_DI,
	KPMOD_REG_X86_ORIG_AX, KPMOD_REG_X86_IP, KPMOD_REG_X86_CS,
	KPMOD_REG_X86_FLAGS, KPMOD_REG_X86_SP, KPMOD_REG_X86_SS,
	KPMOD_REG_X86_NR,
};

enum kpmod_reg_arm64 {
	KPMOD_REG_ARM64_X0 = 0,		/* x0..x30 are 0..30 */
	KPMOD_REG_ARM64_SP = 31,
	KPMOD_REG_ARM64_PC = 32,
	KPMOD_REG_ARM64_PSTATE = 33,
	KPMOD_REG_ARM64_NR,
};

/*
 * Filters, in the grammar of tracefs' events/GRP/EVENT/filter, compiled by
 * userspace to a program that only moves forward (the kernel's
 * filter_match_preds()): start at entry 0; entry i evaluates its
 * predicate; when the result equals (flags & KPMOD_FILTER_BRANCH) != 0,
 * go on at entry .target, else at i + 1.  Reaching entry nr (one past the
 * last) means the event matches; reaching nr + 1, that it does not.  So
 * i < target <= nr + 1, and at most nr predicates run.
 *
 * A predicate compares one field: an argument (0 .. nargs - 1: numbers
 * with the width and sign of the argument's type, strings by content) or
 * one of KPMOD_FIELD_*.  Numeric ops take .val, cut to the field's width;
 * string ops take .len bytes at .str_off in KPMOD_A_FILTER_STRS, followed
 * there by a NUL.  An argument whose fetch faulted matches nothing (the
 * predicate is false, KPMOD_FILTER_INVERT or not).  Arrays cannot be
 * compared.
 */
enum kpmod_filter_op {
	KPMOD_FILTER_EQ = 1,	/* numbers */
	KPMOD_FILTER_NE,
	KPMOD_FILTER_LT,
	KPMOD_FILTER_LE,
	KPMOD_FILTER_GT,
	KPMOD_FILTER_GE,
	KPMOD_FILTER_BAND,	/* field & val is not 0 */
	KPMOD_FILTER_STR_FULL,	/* strings: the whole string */
	KPMOD_FILTER_STR_FRONT,	/* begins with the operand */
	KPMOD_FILTER_STR_MIDDLE,	/* contains it */
	KPMOD_FILTER_STR_END,	/* ends with it */
	KPMOD_FILTER_STR_GLOB,	/* glob: * ? [set] [!set], backslash quotes */
	__KPMOD_FILTER_OP_MAX,
};

/* Fields every event has, after its arguments' indexes. */
enum kpmod_filter_field {
	KPMOD_FIELD_COMM = 0x8000,	/* string: the task's name */
	KPMOD_FIELD_CPU,		/* s32: the CPU */
	KPMOD_FIELD_PID,		/* s32: common_pid, the thread id */
	KPMOD_FIELD_PROBE_IP,		/* unsigned long: __probe_ip */
	KPMOD_FIELD_PROBE_FUNC,		/* __probe_func (return probes) */
	KPMOD_FIELD_PROBE_RET_IP,	/* __probe_ret_ip (return probes) */
	__KPMOD_FIELD_MAX,
};

#define KPMOD_FILTER_BRANCH	0x01	/* branch when the predicate is true */
#define KPMOD_FILTER_INVERT	0x02	/* string ops: invert the match */

struct kpmod_filter_pred {
	__u8 op;		/* enum kpmod_filter_op */
	__u8 flags;		/* KPMOD_FILTER_* */
	__u16 field;		/* argument index or enum kpmod_filter_field */
	__u16 target;		/* see above */
	__u16 len;		/* string ops: operand bytes */
	__u32 str_off;		/* string ops: operand offset in FILTER_STRS */
	__u32 __reserved;	/* 0 */
	__u64 val;		/* numeric ops: the operand */
};

/*
 * Triggers, in the grammar of tracefs' events/GRP/EVENT/trigger, parsed by
 * userspace.  KPMOD_CMD_TRIGGER names one probe (KPMOD_A_PROBE_GROUP and
 * KPMOD_A_PROBE_EVENT) and carries KPMOD_A_TRIGGER_TYPE and
 * KPMOD_A_TRIGGER_TEXT, the trigger as `cat trigger` lists it without its
 * count and "if" part: two triggers of one probe have different texts.
 *   Adding: optional KPMOD_A_TRIGGER_COUNT (not for HIST), an "if" filter
 *   (KPMOD_A_FILTER_TEXT, _PROG, _STRS as for PROBE_FILTER), and per type:
 *     HIST  KPMOD_A_HIST_KEYS (1..3 fields), KPMOD_A_HIST_VALS (0..2),
 *           KPMOD_A_HIST_SIZE (a power of two, KPMOD_HIST_SIZE_MIN..MAX),
 *           optional KPMOD_A_HIST_ACTION PAUSE (created paused), optional
 *           KPMOD_A_HIST_NAME: hists of one name share one table (the
 *           kernel's named triggers), on any probes, when their texts are
 *           alike but for size= and their keys' and values' types and
 *           modifiers are (EINVAL if not); the table is the first's, with
 *           its size, and each such hist keeps the first's text.  Hist texts
 *           that differ only in size= are the same hist.  With
 *           KPMOD_A_HIST_ACTION PAUSE, CONT or CLEAR and the text of an
 *           existing hist, that hist is paused, continued or emptied
 *           instead (ENOENT if there is none).
 *     STACKTRACE  nothing more: on each run it puts a KPMOD_REC_STACK
 *           record, the kernel stack of the hit, in the ring after the
 *           event's (whether or not the event itself is recorded), while
 *           tracing is on.
 *     SNAPSHOT  nothing more: on each run it keeps every CPU's ring as it
 *           is at that moment (without a filter, before the event is
 *           recorded; with one, after it, as the kernel's) in a second
 *           set of rings, the copies, that readers attach to with
 *           KPMOD_IOC_ATTACH_SNAPSHOT.  The live rings go on recording,
 *           but until the copy is made (a worker, soon after) each keeps
 *           the bytes before its mark: a record that would evict or
 *           overwrite them is dropped and counted in meta->lost.  One
 *           snapshot at a time: a run while one is being copied, or while
 *           a reader holds a copy, takes none (STATUS'
 *           KPMOD_A_SNAPSHOTS_SKIPPED).  The first snapshot trigger
 *           allocates the copies (E2BIG if the rings and the copies
 *           together exceed the module's limit); they stay until the
 *           buffer is resized or the module unloaded.
 *     ENABLE_EVENT, DISABLE_EVENT  KPMOD_A_TRIGGER_TARGET_GROUP and _EVENT:
 *           the probe they switch, armed from now on but recording nothing
 *           until an ENABLE_EVENT fires ("soft disabled"), unless enabled
 *           with PROBE_ENABLE.
 *   A trigger arms its probe: it runs on every hit, enabled or not; only
 *   an enabled probe records its events.  EEXIST if the probe has a
 *   trigger of this text, ENOSPC past KPMOD_MAX_TRIGGERS.
 *   Removing: KPMOD_A_TRIGGER_REMOVE; ENOENT if no trigger has this text.
 *   A probe with triggers, or the target of one, cannot be deleted (EBUSY).
 *
 * A trigger with a count runs that many times, then no more (traceon and
 * traceoff only count when they change the state, enable_event and
 * disable_event when they change their target's).  Its filter, if any,
 * is run on the event first: the trigger runs only on a match.
 *
 * KPMOD_CMD_HIST_GET (dump) names the probe and KPMOD_A_TRIGGER_ID; each
 * reply has KPMOD_A_HIST_HITS, _DROPS, _KEY_SIZE and a KPMOD_A_HIST_ENTRIES
 * nest of KPMOD_A_HIST_ENTRY, one per entry of the table, in no order.
 * With KPMOD_A_HIST_ACTION CLEAR, the dump reads the table it takes out of
 * use at its start, an empty one taking its place at once: a reader that
 * reads so every interval sees each hit once, none lost between a read
 * and a clear.  It needs room for the second table under max_hist_mb.
 * KPMOD_CMD_TRACING with KPMOD_A_TRACING_ON sets whether events reach the
 * rings at all (traceon/traceoff); STATUS reports it.
 */
enum kpmod_trigger_type {
	KPMOD_TRIGGER_TRACEON = 1,
	KPMOD_TRIGGER_TRACEOFF,
	KPMOD_TRIGGER_HIST,
	KPMOD_TRIGGER_ENABLE_EVENT,
	KPMOD_TRIGGER_DISABLE_EVENT,
	KPMOD_TRIGGER_STACKTRACE,
	KPMOD_TRIGGER_SNAPSHOT,
	__KPMOD_TRIGGER_MAX,
};

enum kpmod_hist_action {
	KPMOD_HIST_NONE = 0,
	KPMOD_HIST_PAUSE,
	KPMOD_HIST_CONT,
	KPMOD_HIST_CLEAR,
};

/* A stack as a key: KPMOD_HIST_STACK_DEPTH addresses, 0 after the last. */
#define KPMOD_FIELD_STACKTRACE	0x8010

/*
 * A hist key or value: a field (an argument, KPMOD_FIELD_CPU, _PID,
 * _PROBE_*, for keys also KPMOD_FIELD_COMM and KPMOD_FIELD_STACKTRACE) and
 * what is done to it.  A number is widened to 64 bits as its type says
 * (signed ones sign-extended); a string key keeps its first
 * KPMOD_HIST_STR_KEY - 1 bytes.  A faulted argument counts as 0, or as the
 * string "(fault)".
 */
#define KPMOD_HIST_F_LOG2	0x0001	/* key: ilog2(roundup_pow_of_two(v)) */
#define KPMOD_HIST_F_BUCKETS	0x0002	/* key: v / buckets * buckets */
#define KPMOD_HIST_F_EXECNAME	0x0004	/* key (PID): keep the task's name */
#define KPMOD_HIST_F_MAX	0x0100	/* value: the largest, not the sum */
#define KPMOD_HIST_F_MIN	0x0200	/* value: the smallest, not the sum */

struct kpmod_hist_field {
	__u16 field;
	__u16 flags;		/* KPMOD_HIST_F_* */
	__u32 __reserved;	/* 0 */
	__u64 buckets;		/* KPMOD_HIST_F_BUCKETS: the width, not 0 */
};

/*
 * One entry of a hist table: hitcount, then each value (a .max or .min of
 * a signed field compares signed; a .min is U64_MAX, or S64_MAX when
 * signed, and a signed .max S64_MIN, until the first update), the task
 * name kept for an EXECNAME key, then the key: each key field in order, 8
 * bytes for a number (u64), KPMOD_HIST_STR_KEY bytes for a string
 * (NUL-padded), KPMOD_HIST_STACK_DEPTH x 8 for a stack.  A netlink
 * attribute's data is only 4-byte aligned: copy an entry out to read it.
 */
struct kpmod_hist_entry {
	__u64 vals[1 + KPMOD_HIST_MAX_VALS];
	char comm[16];
	__u8 key[];
};

/*
 * Records.  Every record starts with this header and is a multiple of 8
 * bytes long.  An EVENT record's argument area follows the header:
 *
 *   [fault bitmap: one bit per argument, (nargs + 7) / 8 bytes, padded to 8]
 *   [argument slots at the offsets PROBE_GET reports, KPMOD_A_PROBE_ARGS_SIZE
 *    bytes in all, rounded up to 8]
 *   [string data]
 *
 * A slot holds the stored value (little or native endian, as the CPU), an
 * array's elements back to back, or for a string a __u32 data location:
 * (length << 16) | offset, the offset counted from the start of the record
 * and the length including the NUL.  A set fault bit, or a string length of
 * 0, means that argument's fetch faulted: print "(fault)".  The helpers
 * below are the only definition of these encodings.
 *
 * Every byte of a record is written by the module: nothing but the
 * record's own bytes (zeros where it pads) ever reaches a mapped ring.
 */
#define KPMOD_FAULT_BITMAP_SIZE(nargs)	((((__u32)(nargs) + 63) / 64) * 8)
#define KPMOD_ARGS_OFFSET(nargs)	(sizeof(struct kpmod_record) + \
					 KPMOD_FAULT_BITMAP_SIZE(nargs))
#define KPMOD_DATA_LOC(len, off)	(((__u32)(len) << 16) | ((__u32)(off) & 0xffff))
#define KPMOD_DATA_LOC_LEN(loc)		((__u32)(loc) >> 16)
#define KPMOD_DATA_LOC_OFF(loc)		((__u32)(loc) & 0xffff)

/* Whether argument @i's fetch faulted, from the record's fault bitmap. */
static inline int kpmod_fault_test(const void *bitmap, __u32 i)
{
	return (((const __u8 *)bitmap)[i / 8] >> (i % 8)) & 1;
}

enum kpmod_record_type {
	KPMOD_REC_PAD = 1,	/* filler up to the end of the ring: skip it */
	KPMOD_REC_EVENT = 2,
	KPMOD_REC_STACK = 3,	/* a stacktrace trigger's: struct kpmod_stack_rec */
};

#define KPMOD_RECF_RETURN	0x0001	/* from a return probe */

struct kpmod_record {
	__u32 len;		/* whole record, header included, multiple of 8 */
	__u16 type;		/* enum kpmod_record_type */
	__u16 flags;		/* KPMOD_RECF_* */
	__u32 probe_id;
	__u32 cpu;
	__u32 pid;		/* thread id */
	__u32 tgid;		/* process id */
	__u64 ts_ns;		/* CLOCK_MONOTONIC nanoseconds, all CPUs alike */
	__u64 ip;		/* entry: the probed address; return: the function */
	__u64 ret_ip;		/* return: the address returned to; entry: 0 */
	char comm[16];
};

/*
 * A KPMOD_REC_STACK record: the header of the event it follows (probe,
 * CPU, pid, time, comm alike; ip and ret_ip 0), then the kernel stack of
 * that hit, innermost first, from the probed function down (the frames of
 * kpmod and of the kprobe machinery above it cut), as return addresses.
 */
#define KPMOD_STACK_MAX_FRAMES	64
struct kpmod_stack_rec {
	struct kpmod_record hdr;
	__u32 nr;		/* frames that follow */
	__u32 __reserved;	/* 0 */
	__u64 frames[];
};

/*
 * Rings.  Each possible CPU has one ring.  A reader opens /dev/kpmod, binds
 * the file to one CPU with KPMOD_IOC_ATTACH (EBUSY if another file holds
 * that CPU), then maps, with offsets in bytes of the page size:
 *
 *   offset 0, 1 page, PROT_READ|PROT_WRITE:  struct kpmod_ring_consumer
 *   offset 1 page, PROT_READ only:           struct kpmod_ring_meta (1 page)
 *                                            then data_size bytes of data
 *
 * Positions are free-running byte counts; a record at position P sits at
 * data[P & (data_size - 1)] and never wraps: when one would, the producer
 * writes a KPMOD_REC_PAD record to the end of the data area first.
 *
 * Ordering, as perf_event_mmap_page:
 *   reader: head = smp_load_acquire(&meta->data_head);
 *           read records in [tail, head);
 *           smp_store_release(&consumer->data_tail, new_tail);
 *   kernel: reads data_tail, writes a record, then
 *           smp_store_release(&meta->data_head, new_head).
 * The kernel keeps its own copy of every position and never trusts
 * data_tail beyond [head - data_size, head].
 *
 * DISCARD mode: a record that does not fit is dropped and counted in
 * meta->lost.  OVERWRITE mode: the kernel ignores data_tail, overwrites the
 * oldest records (counted in meta->overwritten) and publishes the position
 * of the oldest intact record in meta->data_oldest (store-release before
 * overwriting).  A snapshot reader copies [max(oldest, tail), head), then
 * re-reads data_oldest and discards what was overwritten while it copied.
 *
 * poll(): the file is readable while the unread bytes, data_head minus the
 * reader's data_tail (bounded to data_size), are at least a quarter of
 * data_size.  In both modes the kernel wakes pollers whenever a record
 * takes the unread bytes from below that mark to it or above, counting
 * from the data_head before any pad record, so a reader that polls with
 * no timeout after publishing its tail is always woken.
 *
 * KPMOD_IOC_ATTACH_SNAPSHOT binds the file to one CPU's copy of the last
 * snapshot a snapshot trigger took instead (ENOENT: none taken), mapped
 * the same way: its meta says OVERWRITE, [data_oldest, data_head) is what
 * the ring held at the trigger's moment, the counters are the ring's at
 * the copy.  Any number of files may hold a copy; none consumes it.
 *
 * The open, KPMOD_IOC_ATTACH and mmap each need CAP_SYS_ADMIN in the
 * initial user namespace: a file opened by root and passed to another
 * process gives it nothing.
 */
#define KPMOD_RING_VERSION	1

struct kpmod_ring_consumer {
	__u64 data_tail;
};

struct kpmod_ring_meta {
	__u32 version;		/* KPMOD_RING_VERSION */
	__u32 cpu;
	__u32 mode;		/* enum kpmod_buf_mode */
	__u32 page_size;
	__u64 data_size;	/* bytes, a power of two */
	__u64 data_offset;	/* data area offset within the read-only map */
	__u64 __reserved0[4];
	/* Written by the kernel only; on their own cache line. */
	__u64 data_head;	/* end of the newest record */
	__u64 data_oldest;	/* OVERWRITE: start of the oldest intact record */
	__u64 events;		/* records written */
	__u64 lost;		/* dropped: ring full (DISCARD), a snapshot's copy */
	__u64 overwritten;	/* OVERWRITE: events overwritten */
	__u64 nested;		/* events dropped: a handler nested on this CPU */
	__u64 __reserved1[2];
};

#define KPMOD_IOC_MAGIC		0xb7
#define KPMOD_IOC_ATTACH	_IOW(KPMOD_IOC_MAGIC, 1, __u32)	/* CPU number */
#define KPMOD_IOC_ATTACH_SNAPSHOT _IOW(KPMOD_IOC_MAGIC, 2, __u32) /* CPU number */

#endif /* _UAPI_LINUX_KPMOD_H */
