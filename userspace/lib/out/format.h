/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Printing records: ftrace's `trace` line format, or one JSON object per
 * line.  A probe's description (struct kp_probe_desc) comes from the
 * module's PROBE_GET reply or from a record file.
 *
 * Text, as ftrace prints a kprobe event (flags always "....."):
 *   "            bash-1234    [001] .....  5678.901234: myprobe: (do_sys_openat2+0x0/0x150) dfd=-100 name=\"/etc\""
 *   "            bash-1234    [001] .....  5678.901240: myret: (__x64_sys_openat+0x55/0xa0 <- do_sys_openat2) ret=0x3"
 * JSON:
 *   {"ts":5678.901234567,"cpu":1,"task":"bash","pid":1234,"tgid":1234,
 *    "group":"kprobes","event":"myprobe","kind":"entry","ip":"0xffff...",
 *    "func":"do_sys_openat2+0x0/0x150","args":{"dfd":-100,"name":"/etc"}}
 *   Return probes add "caller" and "caller_ip" and "func" is the function.
 *   Values: Un/Sn/bitfield numbers; Xn "0x.." strings; char, string,
 *   symbol, symstr strings; arrays JSON arrays; a fault null.
 */
#ifndef KPMOD_FORMAT_H
#define KPMOD_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ksyms.h"
#include "probe_desc.h"
#include "uapi/kpmod.h"

/* Byte size of one element of @type (bitfields: 0, the slot says). */
uint32_t kp_format_type_size(uint32_t type);

/*
 * Checks a description is self-consistent (types known, slots inside
 * args_size, sizes matching types).  Returns 0, or -EINVAL with @err set.
 */
int kp_probe_desc_check(const struct kp_probe_desc *p, char *err, size_t len);

/* The probe with @id among @n, or NULL. */
const struct kp_probe_desc *kp_probe_find(const struct kp_probe_desc *probes,
					  size_t n, uint32_t id);

/*
 * Prints @rec as one line of ftrace's trace format (with the newline).
 * @p may be NULL (an unknown probe id: "probe_ID" and no arguments); @ks
 * may be NULL (addresses print as hex).  Returns 0, or -EBADMSG when the
 * record does not fit the probe's layout; then nothing is printed.
 */
int kp_format_text(FILE *out, const struct kpmod_record *rec,
		   const struct kp_probe_desc *p, const struct kp_ksyms *ks);

/* Same, as one JSON object and a newline. */
int kp_format_json(FILE *out, const struct kpmod_record *rec,
		   const struct kp_probe_desc *p, const struct kp_ksyms *ks);

/*
 * A KPMOD_REC_STACK record: ftrace's "<stack trace>" entry, one " => "
 * line per frame (as with the sym-offset option); in JSON, an object of
 * kind "stack" whose "stack" is an array of {"ip", "sym"}.
 */
int kp_format_stack_text(FILE *out, const struct kpmod_record *rec, const struct kp_ksyms *ks);
int kp_format_stack_json(FILE *out, const struct kpmod_record *rec,
			 const struct kp_probe_desc *p, const struct kp_ksyms *ks);

/*
 * Every kernel address whose symbol printing @rec (an event or a stack
 * record) looks up: @fn(address, @arg) for each, zero excepted, in no
 * given order, repeats included.  The symbols these name are all that
 * the formatters above need of @ks.  Returns 0, or -EBADMSG as they would.
 */
typedef void (*kp_addr_fn)(uint64_t addr, void *arg);
int kp_format_addrs(const struct kpmod_record *rec, const struct kp_probe_desc *p,
		    kp_addr_fn fn, void *arg);

/* ftrace's "CPU:%d [LOST %lu EVENTS]" line. */
void kp_format_lost(FILE *out, unsigned int cpu, uint64_t lost);

/* {"cpu":N,"lost":N} */
void kp_format_lost_json(FILE *out, unsigned int cpu, uint64_t lost);

/* Writes @len bytes of @s as a JSON string, quotes included. */
void kp_json_string(FILE *out, const char *s, size_t len);

#endif
