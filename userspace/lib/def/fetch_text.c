// SPDX-License-Identifier: GPL-2.0
/* A compiled argument as a FETCHARG with offsets only (fetch_text.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fetch_text.h"

/* "+0x68" or "-0x8", and "u" after the sign for user memory. */
static void wrap(char *cur, size_t size, int64_t off, bool user)
{
	char inner[KP_ARG_TEXT_LEN * 2];

	snprintf(inner, sizeof(inner), "%s", cur);
	/* Cut short only past any FETCHARG the kernel takes (63 characters). */
	if (snprintf(cur, size, "%c%s0x%" PRIx64 "(%s)", off < 0 ? '-' : '+', user ? "u" : "",
		     off < 0 ? (uint64_t)0 - (uint64_t)off : (uint64_t)off, inner) >= (int)size)
		cur[size - 1] = '\0';
}

static void load_text(const struct kp_arg_def *a, const struct kp_arch *arch,
		      char *cur, size_t size)
{
	const struct kpmod_fetch_insn *in = &a->insns[0];
	const char *reg;

	switch (in->op) {
	case KPMOD_FOP_REG:
		reg = arch ? kp_arch_reg_name(arch, in->param) : NULL;
		if (reg)
			snprintf(cur, size, "%%%s", reg);
		else
			snprintf(cur, size, "%%reg%u", in->param);
		break;
	case KPMOD_FOP_STACK:
		snprintf(cur, size, "$stack%u", in->param);
		break;
	case KPMOD_FOP_STACKP:
		snprintf(cur, size, "$stack");
		break;
	case KPMOD_FOP_RETVAL:
		snprintf(cur, size, "$retval");
		break;
	case KPMOD_FOP_IMM:
		snprintf(cur, size, "\\0x%" PRIx64, (uint64_t)in->imm);
		break;
	case KPMOD_FOP_COMM:
		snprintf(cur, size, "$comm");
		break;
	case KPMOD_FOP_ARG:
		snprintf(cur, size, "$arg%u", in->param);
		break;
	case KPMOD_FOP_DATA:
		snprintf(cur, size, "\\\"%s\"", (const char *)a->data);
		break;
	case KPMOD_FOP_DURATION:
		snprintf(cur, size, "$duration");
		break;
	case KPMOD_FOP_FILE_OFFSET:
		snprintf(cur, size, "@+0x%" PRIx64, (uint64_t)in->imm);
		break;
	case KPMOD_FOP_CURRENT:
		snprintf(cur, size, "$current");
		break;
	default:
		snprintf(cur, size, "?");
		break;
	}
}

int kp_fetch_text(const struct kp_arg_def *a, const struct kp_arch *arch, char *buf,
		  size_t size)
{
	char cur[KP_ARG_TEXT_LEN * 2], type[48];
	const struct kpmod_fetch_insn *in;
	unsigned int i = 1;
	bool own = a->insns[0].op == KPMOD_FOP_COMM || a->insns[0].op == KPMOD_FOP_DATA;

	load_text(a, arch, cur, sizeof(cur));
	for (; i < a->ninsns; i++) {
		char inner[KP_ARG_TEXT_LEN * 2];

		in = &a->insns[i];
		if (in->op == KPMOD_FOP_CPU_PTR) {
			snprintf(inner, sizeof(inner), "%s", cur);
			if (snprintf(cur, sizeof(cur), "this_cpu_ptr(%s)", inner) >= (int)sizeof(cur))
				cur[sizeof(cur) - 1] = '\0';
			continue;
		}
		if (in->op != KPMOD_FOP_DEREF && in->op != KPMOD_FOP_UDEREF)
			break;
		wrap(cur, sizeof(cur), in->imm, in->op == KPMOD_FOP_UDEREF);
	}
	in = &a->insns[i < a->ninsns ? i : 0];
	switch (in->op) {
	case KPMOD_FOP_ST_MEM:
	case KPMOD_FOP_ST_UMEM:
		wrap(cur, sizeof(cur), in->imm, in->op == KPMOD_FOP_ST_UMEM);
		break;
	case KPMOD_FOP_ST_STRING:
	case KPMOD_FOP_ST_USTRING:
		/*
		 * A string array's store follows the dereference it repeats;
		 * $comm, \"str" and a bare \IMM:string are the string's address.
		 */
		if (!a->count && !own &&
		    !(a->insns[0].op == KPMOD_FOP_IMM && i == 1 && !in->imm))
			wrap(cur, sizeof(cur), in->imm, in->op == KPMOD_FOP_ST_USTRING &&
			     a->type != KPMOD_T_USTRING);
		break;
	}
	snprintf(type, sizeof(type), "%s", kp_type_name(a->type));
	for (i++; i < a->ninsns; i++) {
		in = &a->insns[i];
		if (in->op == KPMOD_FOP_MOD_BF)
			snprintf(type, sizeof(type), "b%u@%u/%u", in->size * 8u - in->rshift,
				 (unsigned int)in->rshift - in->lshift, in->size * 8u);
	}
	if (a->count)
		return snprintf(buf, size, "%s:%s[%u]", cur, type, a->count);
	return snprintf(buf, size, "%s:%s", cur, type);
}
