/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fields of a probe for the filter and trigger targets: one argument
 * of each kind a filter or a hist treats apart (signed, unsigned, string,
 * char, bitfield, and the array and symstr they refuse), and what the
 * module makes of each (module/field.c).
 */
#ifndef KPMOD_FUZZ_FIELDS_H
#define KPMOD_FUZZ_FIELDS_H

#include "filter_probe.h"

static const struct {
	const char *name;
	uint32_t type, count, size;
} fuzz_args[] = {
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
#define FUZZ_NARGS (sizeof(fuzz_args) / sizeof(fuzz_args[0]))

static inline void fuzz_fields(uint32_t kind, struct kp_filter_fields *ff)
{
	/* The fields point into their probe's names: it outlives them. */
	static struct kp_probe_info probe;
	unsigned int i;

	memset(&probe, 0, sizeof(probe));
	probe.desc.kind = kind;
	probe.desc.nargs = FUZZ_NARGS;
	for (i = 0; i < probe.desc.nargs; i++) {
		snprintf(probe.desc.args[i].name, sizeof(probe.desc.args[i].name), "%s",
			 fuzz_args[i].name);
		probe.desc.args[i].type = fuzz_args[i].type;
		probe.desc.args[i].count = fuzz_args[i].count;
		probe.desc.args[i].size = fuzz_args[i].size;
	}
	kp_filter_fields_of(&probe, ff);
}

/* What the module's kpmod_field_kind() makes of field @id of this probe. */
enum fuzz_field_kind { FUZZ_FK_BAD, FUZZ_FK_NUM, FUZZ_FK_STR };

static inline enum fuzz_field_kind fuzz_field_kind(uint32_t kind, unsigned int id)
{
	bool is_return = kind == KPMOD_PROBE_RETURN;

	if (id < FUZZ_NARGS) {
		if (fuzz_args[id].count || fuzz_args[id].type == KPMOD_T_SYMSTR)
			return FUZZ_FK_BAD;
		return fuzz_args[id].type == KPMOD_T_STRING ||
		       fuzz_args[id].type == KPMOD_T_USTRING ? FUZZ_FK_STR : FUZZ_FK_NUM;
	}
	switch (id) {
	case KPMOD_FIELD_COMM:
		return FUZZ_FK_STR;
	case KPMOD_FIELD_CPU:
	case KPMOD_FIELD_PID:
		return FUZZ_FK_NUM;
	case KPMOD_FIELD_PROBE_IP:
		return is_return ? FUZZ_FK_BAD : FUZZ_FK_NUM;
	case KPMOD_FIELD_PROBE_FUNC:
	case KPMOD_FIELD_PROBE_RET_IP:
		return is_return ? FUZZ_FK_NUM : FUZZ_FK_BAD;
	default:
		return FUZZ_FK_BAD;
	}
}

#endif
