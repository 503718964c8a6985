// SPDX-License-Identifier: GPL-2.0
/*
 * Reading one field of a record built by a handler: an argument from its
 * slot (checked against the record's length for strings), or one of the
 * fields every event has, from the header.
 */
#include <linux/bitops.h>
#include <linux/string.h>

#include "field.h"
#include "layout.h"

enum kpmod_field_kind kpmod_field_kind(const struct kpmod_layout *lay, u16 field)
{
	bool is_return = lay->is_return;

	if (field < lay->nargs) {
		const struct kpmod_arg *a = &lay->args[field];

		if (a->count)
			return KPMOD_FK_BAD;	/* arrays are not compared */
		switch (a->type) {
		case KPMOD_T_STRING:
		case KPMOD_T_USTRING:
			return KPMOD_FK_STR;
		case KPMOD_T_SYMSTR:
			return KPMOD_FK_BAD;	/* an address here, a string there */
		default:
			return KPMOD_FK_NUM;
		}
	}
	switch (field) {
	case KPMOD_FIELD_COMM:
		return KPMOD_FK_STR;
	case KPMOD_FIELD_CPU:
	case KPMOD_FIELD_PID:
		return KPMOD_FK_NUM;
	case KPMOD_FIELD_PROBE_IP:
		return is_return ? KPMOD_FK_BAD : KPMOD_FK_NUM;
	case KPMOD_FIELD_PROBE_FUNC:
	case KPMOD_FIELD_PROBE_RET_IP:
		return is_return ? KPMOD_FK_NUM : KPMOD_FK_BAD;
	default:
		return KPMOD_FK_BAD;
	}
}

bool kpmod_field_signed(const struct kpmod_layout *lay, u16 field)
{
	if (field < lay->nargs)
		return kpmod_type_signed(lay->args[field].type);
	return field == KPMOD_FIELD_CPU || field == KPMOD_FIELD_PID;
}

u64 kpmod_slot_value(const u8 *slot, u32 size)
{
	switch (size) {
	case 1:
		return *slot;
	case 2:
		return *(const u16 *)slot;
	case 4:
		return *(const u32 *)slot;
	default:
		return *(const u64 *)slot;
	}
}

static const u8 *kpmod_field_slot(const struct kpmod_layout *lay, const struct kpmod_record *rec,
				  u16 field)
{
	const u8 *faults = (const u8 *)(rec + 1);

	if (kpmod_fault_test(faults, field))
		return NULL;
	return faults + lay->bitmap_size + lay->args[field].offset;
}

bool kpmod_field_num(const struct kpmod_layout *lay, const struct kpmod_record *rec,
		     u16 field, u64 *val)
{
	*val = 0;
	if (field < lay->nargs) {
		const struct kpmod_arg *a = &lay->args[field];
		const u8 *slot = kpmod_field_slot(lay, rec, field);

		if (!slot)
			return false;
		*val = kpmod_slot_value(slot, a->size);
		if (kpmod_type_signed(a->type) && a->size < sizeof(u64))
			*val = sign_extend64(*val, a->size * BITS_PER_BYTE - 1);
		return true;
	}
	switch (field) {
	case KPMOD_FIELD_CPU:
		*val = (s64)(s32)rec->cpu;
		break;
	case KPMOD_FIELD_PID:
		*val = (s64)(s32)rec->pid;
		break;
	case KPMOD_FIELD_PROBE_IP:
	case KPMOD_FIELD_PROBE_FUNC:
		*val = rec->ip;
		break;
	default:
		*val = rec->ret_ip;
		break;
	}
	return true;
}

bool kpmod_field_str(const struct kpmod_layout *lay, const struct kpmod_record *rec,
		     u16 field, const char **str, u32 *len)
{
	const u8 *slot;
	u32 loc;

	if (field >= lay->nargs) {
		*str = rec->comm;
		*len = strnlen(rec->comm, sizeof(rec->comm));
		return true;
	}
	slot = kpmod_field_slot(lay, rec, field);
	if (!slot)
		return false;
	loc = *(const u32 *)slot;
	*len = KPMOD_DATA_LOC_LEN(loc);
	if (!*len || KPMOD_DATA_LOC_OFF(loc) + *len > rec->len)
		return false;
	*str = (const char *)rec + KPMOD_DATA_LOC_OFF(loc);
	(*len)--;		/* the length counts the NUL */
	return true;
}
