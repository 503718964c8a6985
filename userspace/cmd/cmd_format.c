// SPDX-License-Identifier: GPL-2.0
/*
 * kpmod format [--json] EVENT: an event's fields, as tracefs'
 * events/GRP/EVENT/format shows them, with the offsets and sizes of
 * kpmod's records (uapi struct kpmod_record, the fault bitmap, then each
 * argument's slot where the module put it).  Field types and the print
 * format are the kernel's for the same definition (trace_probe.c): x and
 * symbol types show as the unsigned type, strings as __data_loc char[].
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "format.h"
#include "kver.h"
#include "probe_nl.h"
#include "session.h"

struct kp_field {
	char type[48];
	const char *name;
	unsigned int offset, size;
	bool is_signed;
	bool common;
};

#define KP_HDR(t, n, m, s) \
	{ t, n, offsetof(struct kpmod_record, m), sizeof(((struct kpmod_record *)0)->m), s, true }

/* struct kpmod_record, every event's header. */
static const struct kp_field kp_common[] = {
	KP_HDR("u32", "common_len", len, false),
	KP_HDR("u16", "common_type", type, false),
	KP_HDR("u16", "common_flags", flags, false),
	KP_HDR("u32", "common_probe_id", probe_id, false),
	KP_HDR("u32", "common_cpu", cpu, false),
	KP_HDR("int", "common_pid", pid, true),
	KP_HDR("int", "common_tgid", tgid, true),
	KP_HDR("u64", "common_ts", ts_ns, false),
	KP_HDR("char[16]", "common_comm", comm, false),
};

/* The kernel's fmttype and print format of an argument's type. */
static void kp_type_of(const struct kp_arg_desc *a, char *type, size_t len, const char **fmt,
		       bool *is_signed, bool *is_string)
{
	static const char *const names[] = {
		[KPMOD_T_U8] = "u8", [KPMOD_T_U16] = "u16", [KPMOD_T_U32] = "u32",
		[KPMOD_T_U64] = "u64", [KPMOD_T_S8] = "s8", [KPMOD_T_S16] = "s16",
		[KPMOD_T_S32] = "s32", [KPMOD_T_S64] = "s64", [KPMOD_T_X8] = "u8",
		[KPMOD_T_X16] = "u16", [KPMOD_T_X32] = "u32", [KPMOD_T_X64] = "u64",
		[KPMOD_T_CHAR] = "u8", [KPMOD_T_SYMBOL] = "u64",
	};
	static const char *const fmts[] = {
		[KPMOD_T_U8] = "%u", [KPMOD_T_U16] = "%u", [KPMOD_T_U32] = "%u",
		[KPMOD_T_U64] = "%Lu", [KPMOD_T_S8] = "%d", [KPMOD_T_S16] = "%d",
		[KPMOD_T_S32] = "%d", [KPMOD_T_S64] = "%Ld", [KPMOD_T_X8] = "0x%x",
		[KPMOD_T_X16] = "0x%x", [KPMOD_T_X32] = "0x%x", [KPMOD_T_X64] = "0x%Lx",
		[KPMOD_T_CHAR] = "'%c'", [KPMOD_T_SYMBOL] = "%pS",
		[KPMOD_T_STRING] = "\\\"%s\\\"", [KPMOD_T_USTRING] = "\\\"%s\\\"",
		[KPMOD_T_SYMSTR] = "\\\"%s\\\"",
	};
	unsigned int n = a->count ? a->count : 1;
	const char *base;

	*is_string = a->type == KPMOD_T_STRING || a->type == KPMOD_T_USTRING ||
		     a->type == KPMOD_T_SYMSTR;
	*is_signed = *is_string || kpmod_type_signed(a->type);
	if (*is_string) {
		base = "__data_loc char[]";
	} else if (a->type == KPMOD_T_BITFIELD) {
		/* The container's type, as the kernel's bitfield fetch type. */
		base = a->size / n == 1 ? "u8" : a->size / n == 2 ? "u16" :
		       a->size / n == 4 ? "u32" : "u64";
	} else {
		base = a->type < sizeof(names) / sizeof(names[0]) && names[a->type] ?
		       names[a->type] : "u64";
	}
	/* A bitfield prints as its container: %Lu for a u64's. */
	if (a->type == KPMOD_T_BITFIELD)
		*fmt = a->size / n == 8 ? "%Lu" : "%u";
	else
		*fmt = a->type < sizeof(fmts) / sizeof(fmts[0]) && fmts[a->type] ? fmts[a->type] :
		       "%Lu";
	/* Strings too: "__data_loc char[][N]", as the kernel's parg->fmt. */
	if (a->count)
		snprintf(type, len, "%s[%u]", base, a->count);
	else
		snprintf(type, len, "%s", base);
}

/*
 * tracefs' f_show(): an array's brackets go after the name, empty for a
 * probe's array on kernels from 6.1 (which print field->len, 0 for
 * probe arguments), with the length before.
 */
static void kp_field_text(FILE *out, const struct kp_field *f)
{
	const char *br = strncmp(f->type, "__data_loc", 10) ? strchr(f->type, '[') : NULL;

	if (br)
		fprintf(out, "\tfield:%.*s %s%s;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
			(int)(br - f->type), f->type, f->name,
			f->common || kp_kver() < KP_KVER(6, 1) ? br : "[]",
			f->offset, f->size, f->is_signed);
	else
		fprintf(out, "\tfield:%s %s;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
			f->type, f->name, f->offset, f->size, f->is_signed);
}

static void kp_field_json(FILE *out, const struct kp_field *f, bool first)
{
	fprintf(out, "%s{\"name\":", first ? "" : ",");
	kp_json_string(out, f->name, strlen(f->name));
	fprintf(out, ",\"type\":");
	kp_json_string(out, f->type, strlen(f->type));
	fprintf(out, ",\"offset\":%u,\"size\":%u,\"signed\":%s,\"common\":%s}", f->offset,
		f->size, f->is_signed ? "true" : "false", f->common ? "true" : "false");
}

/* The kernel's __set_print_fmt(). */
static void kp_print_fmt(char *buf, size_t len, const struct kp_probe_info *p)
{
	bool ret_probe = kp_kind_is_return(p->desc.kind);
	size_t pos = 0;
	uint32_t i, j;

#define KP_PUT(...) (pos += snprintf(buf + pos, pos < len ? len - pos : 0, __VA_ARGS__))
	/* uprobes' too (trace_uprobe.c prints 0x only in the trace text). */
	KP_PUT("\"%s", ret_probe ? "(%lx <- %lx)" : "(%lx)");
	for (i = 0; i < p->desc.nargs; i++) {
		const struct kp_arg_desc *a = &p->desc.args[i];
		bool is_signed, is_string;
		const char *fmt;
		char type[48];

		kp_type_of(a, type, sizeof(type), &fmt, &is_signed, &is_string);
		KP_PUT(" %s=", a->name);
		if (a->count) {
			KP_PUT("{%s", fmt);
			for (j = 1; j < a->count; j++)
				KP_PUT(",%s", fmt);
			KP_PUT("}");
		} else {
			KP_PUT("%s", fmt);
		}
	}
	KP_PUT("\"%s", ret_probe ? ", REC->__probe_func, REC->__probe_ret_ip" : ", REC->__probe_ip");
	for (i = 0; i < p->desc.nargs; i++) {
		const struct kp_arg_desc *a = &p->desc.args[i];
		bool is_string = a->type == KPMOD_T_STRING || a->type == KPMOD_T_USTRING ||
				 a->type == KPMOD_T_SYMSTR;

		if (!a->count)
			KP_PUT(is_string ? ", __get_str(%s)" : ", REC->%s", a->name);
		for (j = 0; j < a->count; j++)
			KP_PUT(is_string ? ", __get_str(%s[%u])" : ", REC->%s[%u]", a->name, j);
	}
#undef KP_PUT
}

static void kp_format_print(FILE *out, const struct kp_probe_info *p, bool json)
{
	unsigned int base = KPMOD_ARGS_OFFSET(p->desc.nargs), i, nf = 0;
	static struct kp_field fields[KPMOD_MAX_ARGS + 3];
	static char print_fmt[KPMOD_MAX_DEF_LEN * 4];
	const char *fmt;
	bool is_string;

	if (kp_kind_is_return(p->desc.kind)) {
		fields[nf++] = (struct kp_field){ "unsigned long", "__probe_func",
			offsetof(struct kpmod_record, ip), 8, false, false };
		fields[nf++] = (struct kp_field){ "unsigned long", "__probe_ret_ip",
			offsetof(struct kpmod_record, ret_ip), 8, false, false };
	} else {
		fields[nf++] = (struct kp_field){ "unsigned long", "__probe_ip",
			offsetof(struct kpmod_record, ip), 8, false, false };
	}
	/* kpmod's own: bit N is set when argument N's fetch faulted. */
	if (p->desc.nargs) {
		fields[nf] = (struct kp_field){ "", "__faults", sizeof(struct kpmod_record),
			KPMOD_FAULT_BITMAP_SIZE(p->desc.nargs), false, false };
		snprintf(fields[nf++].type, sizeof(fields[0].type), "u8[%u]",
			 KPMOD_FAULT_BITMAP_SIZE(p->desc.nargs));
	}
	for (i = 0; i < p->desc.nargs; i++) {
		struct kp_field *f = &fields[nf++];

		memset(f, 0, sizeof(*f));
		kp_type_of(&p->desc.args[i], f->type, sizeof(f->type), &fmt, &f->is_signed, &is_string);
		f->name = p->desc.args[i].name;
		f->offset = base + p->desc.args[i].offset;
		f->size = p->desc.args[i].size;
	}
	kp_print_fmt(print_fmt, sizeof(print_fmt), p);
	if (json) {
		fputs("{\"name\":", out);
		kp_json_string(out, p->desc.event, strlen(p->desc.event));
		fputs(",\"group\":", out);
		kp_json_string(out, p->desc.group, strlen(p->desc.group));
		fprintf(out, ",\"id\":%u,\"fields\":[", p->desc.id);
		for (i = 0; i < sizeof(kp_common) / sizeof(kp_common[0]); i++)
			kp_field_json(out, &kp_common[i], !i);
		for (i = 0; i < nf; i++)
			kp_field_json(out, &fields[i], false);
		fputs("],\"print_fmt\":", out);
		kp_json_string(out, print_fmt, strlen(print_fmt));
		fputs("}\n", out);
		return;
	}
	fprintf(out, "name: %s\nID: %u\nformat:\n", p->desc.event, p->desc.id);
	for (i = 0; i < sizeof(kp_common) / sizeof(kp_common[0]); i++)
		kp_field_text(out, &kp_common[i]);
	fputc('\n', out);
	for (i = 0; i < nf; i++)
		kp_field_text(out, &fields[i]);
	fprintf(out, "\nprint fmt: %s\n", print_fmt);
}

int kp_cmd_format(int argc, char **argv)
{
	const struct kp_probe_info *p;
	struct kp_probe_list l;
	const char *name = NULL, *why;
	struct kp_status st;
	bool json = false;
	struct kp_nl nl;
	struct kp_err e;
	int i, ret;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (argv[i][0] != '-' && !name) {
			name = argv[i];
		} else {
			kp_msg("format", "usage: kpmod format [--json] EVENT|GROUP/EVENT\n");
			return KP_EXIT_USAGE;
		}
	}
	if (!name) {
		kp_msg("format", "name one event (kpmod list shows them)\n");
		return KP_EXIT_USAGE;
	}
	ret = kp_session_open("format", &nl, &st);
	if (ret)
		return ret;
	if (kp_probe_list_get(&nl, &l, &e)) {
		ret = kp_fail("format", &e);
		goto close;
	}
	p = kp_probe_list_find_name(&l, name, &why);
	if (p) {
		kp_format_print(stdout, p, json);
	} else {
		kp_msg("format", "'%s': %s\n", name, why);
		ret = KP_EXIT_USAGE;
	}
	kp_probe_list_free(&l);
close:
	kp_nl_close(&nl);
	return ret;
}
