/* SPDX-License-Identifier: GPL-2.0 */
/* The fields of a record: what filters compare and hist tables count. */
#ifndef _KPMOD_FIELD_H
#define _KPMOD_FIELD_H

#include <linux/types.h>
#include <uapi/kpmod.h>

struct kpmod_layout;

/* What a field holds: a string, a number of some width, or nothing usable. */
enum kpmod_field_kind { KPMOD_FK_BAD, KPMOD_FK_NUM, KPMOD_FK_STR };

enum kpmod_field_kind kpmod_field_kind(const struct kpmod_layout *lay, u16 field);

/* A numeric field whose values are signed (an sN argument, pid, cpu). */
bool kpmod_field_signed(const struct kpmod_layout *lay, u16 field);

/* A slot's value, zero-extended from its @size bytes. */
u64 kpmod_slot_value(const u8 *slot, u32 size);

/*
 * A numeric field of @rec widened to 64 bits as its type says (signed ones
 * sign-extended).  False when its fetch faulted (*@val is then 0).
 */
bool kpmod_field_num(const struct kpmod_layout *lay, const struct kpmod_record *rec,
		     u16 field, u64 *val);

/* A string field of @rec: its bytes, NUL excluded.  False when it faulted. */
bool kpmod_field_str(const struct kpmod_layout *lay, const struct kpmod_record *rec,
		     u16 field, const char **str, u32 *len);

#endif /* _KPMOD_FIELD_H */
