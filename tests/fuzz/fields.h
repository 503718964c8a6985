/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fields of a probe for the filter and trigger targets: one argument
 * of each kind a filter or a hist treats apart (signed, unsigned, string,
 * char, bitfield, and the array and symstr they refuse).
 */
#ifndef KPMOD_FUZZ_FIELDS_H
#define KPMOD_FUZZ_FIELDS_H

#include "filter_probe.h"

static inline void fuzz_fields(uint32_t kind, struct kp_filter_fields *ff)
{
	/* The fields point into their probe's names: it outlives them. */
	static struct kp_probe_info probe;
	static const struct {
		const char *name;
		uint32_t type, count, size;
	} args[] = {
		{ "nr", KPMOD_T_S32, 0, 4 },
		{ "path", KPMOD_T_STRING, 0, 4 },
		{ "len", KPMOD_T_U64, 0, 8 },
		{ "flags", KPMOD_T_X16, 0, 2 },
		{ "c", KPMOD_T_CHAR, 0, 1 },
		{ "bf", KPMOD_T_BITFIELD, 0, 4 },
		{ "buf", KPMOD_T_U8, 4, 4 },
		{ "sym", KPMOD_T_SYMSTR, 0, 8 },
		{ "name", KPMOD_T_USTRING, 0, 4 },
	};
	unsigned int i;

	memset(&probe, 0, sizeof(probe));
	probe.kind = kind;
	probe.nargs = sizeof(args) / sizeof(args[0]);
	for (i = 0; i < probe.nargs; i++) {
		snprintf(probe.args[i].name, sizeof(probe.args[i].name), "%s", args[i].name);
		probe.args[i].type = args[i].type;
		probe.args[i].count = args[i].count;
		probe.args[i].size = args[i].size;
	}
	kp_filter_fields_of(&probe, ff);
}

#endif
