// SPDX-License-Identifier: GPL-2.0
/*
 * Probe definitions: kp_parse_def() as `kpmod add` calls it, then the
 * fields `kpmod add --filter` gives a filter on the new probe.
 *
 * The first byte chooses the setting, the rest is the definition:
 *   bit 0           the architecture: 0 x86_64, 1 arm64;
 *   (byte >> 1) % 4 the symbol table: 0 a few known symbols (the rest
 *                   unknown), 1 none available, 2 no resolver at all;
 *                   3 known symbols and BTF (tests/unit/btf_fixture.c's,
 *                   made by pahole: fx_vfs_read, fx_state_of, ...).
 * So the seeds start with '0' (x86_64, known symbols), '1' (arm64), '2',
 * '3' (no table), '4', '5' (no resolver), '6', '7' (BTF).
 */
#include "filter_probe.h"
#include "fuzz.h"
#include "kbtf.h"
#include "probe_def.h"

static int fuzz_resolve(const char *sym, uint64_t *addr, void *ctx)
{
	static const struct {
		const char *name;
		uint64_t addr;
		int ret;
	} syms[] = {
		{ "vfs_read", 0xffffffff81400000ULL, KP_RESOLVE_OK },
		{ "do_sys_open", 0xffffffff81410000ULL, KP_RESOLVE_OK },
		{ "do_sys_openat2", 0xffffffff81420000ULL, KP_RESOLVE_OK },
		{ "kernel_clone", 0xffffffff81080000ULL, KP_RESOLVE_OK },
		{ "_sdata", 0xffffffff82000000ULL, KP_RESOLVE_OK },
		{ "linux_proc_banner", 0xffffffff82a00100ULL, KP_RESOLVE_OK },
		{ "dup_sym", 0xffffffff81800000ULL, KP_RESOLVE_MULTI },
	};
	int mode = *(const int *)ctx;
	uint64_t unused;
	size_t i;

	if (!addr)	/* a probe point: only whether it is one symbol */
		addr = &unused;
	if (!strncmp(sym, "fx_", 3)) {
		*addr = 0xffffffff81500000ULL;
		return KP_RESOLVE_OK;
	}
	if (mode == 1)
		return KP_RESOLVE_UNAVAIL;
	for (i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		if (!strcmp(sym, syms[i].name)) {
			*addr = syms[i].addr;
			return syms[i].ret;
		}
	}
	return KP_RESOLVE_NONE;
}

/* As `kpmod add --filter`: the new probe's fields, one of them compared. */
static void filter_on(const struct kp_probe_def *d)
{
	static struct kp_filter_fields ff;
	struct kp_filter_error err;
	struct kp_filter_code code;
	const char *why;
	char expr[64];

	kp_filter_fields_of_def(d, &ff);
	if (d->nargs)
		snprintf(expr, sizeof(expr), "%s %s", d->args[d->nargs - 1].name,
			 d->args[d->nargs - 1].type == KPMOD_T_STRING ? "~ \"a*\"" : "> 1");
	else
		snprintf(expr, sizeof(expr), "common_pid == 1");
	if (!kp_filter_build(expr, &ff, &code, &err, &why))
		kp_filter_code_free(&code);
}

/* What the module's kpmod_fetch_prepare() relies on. */
static void check_def(const struct kp_probe_def *d, const char *text)
{
	unsigned int i, j;

	FUZZ_ASSERT(d->nargs <= KPMOD_MAX_ARGS, "%u arguments: %s", d->nargs, text);
	FUZZ_ASSERT(strnlen(d->definition, sizeof(d->definition)) < sizeof(d->definition),
		    "printback not terminated: %s", text);
	for (i = 0; i < d->nargs; i++) {
		const struct kp_arg_def *a = &d->args[i];

		FUZZ_ASSERT(a->ninsns >= 2 && a->ninsns <= KPMOD_MAX_INSNS,
			    "argument %u: %u insns: %s", i, a->ninsns, text);
		FUZZ_ASSERT(a->insns[a->ninsns - 1].op == KPMOD_FOP_END,
			    "argument %u: no END: %s", i, text);
		FUZZ_ASSERT(a->datalen <= sizeof(a->data), "argument %u: datalen %u: %s",
			    i, a->datalen, text);
		for (j = 1; j < a->ninsns; j++) {
			const struct kpmod_fetch_insn *bf = &a->insns[j], *st = bf - 1;

			if (bf->op != KPMOD_FOP_MOD_BF)
				continue;
			/* A bitfield stays inside its container. */
			FUZZ_ASSERT(bf->size == st->size && bf->lshift <= bf->rshift &&
				    bf->rshift < 8u * st->size,
				    "argument %u: b@/%u: shifts %u, %u: %s", i, 8 * st->size,
				    bf->lshift, bf->rshift, text);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct kp_probe_def def;
	static struct kp_btf *btf;
	struct kp_parse_err err;
	const struct kp_arch *arch;
	enum kp_def_op op;
	char *text;
	int mode;

	if (!size)
		return 0;
	arch = kp_arch_by_name(data[0] & 1 ? "arm64" : "x86_64");
	mode = (data[0] >> 1) % 4;
	/* Read once: every input of mode 3 looks its names up in it. */
	if (mode == 3 && !btf)
		btf = kp_btf_new(KP_BTF_FIXTURE);
	text = fuzz_str(data + 1, size - 1);
	if (kp_parse_def_btf(text, arch, mode == 2 ? NULL : fuzz_resolve, &mode,
			     mode == 3 ? btf : NULL, &op, &def, &err)) {
		FUZZ_ASSERT(err.code > KP_E_NONE && err.code < KP_E__COUNT,
			    "error code %d: %s", err.code, text);
		FUZZ_ASSERT(err.msg[0], "no message: %s", text);
		/* The caret goes under a byte of the line, or just past it. */
		FUZZ_ASSERT(err.pos <= strlen(text), "caret at %u of %zu: %s: %s",
			    err.pos, strlen(text), err.msg, text);
		kp_format_parse_err(fuzz_devnull(), text, &err);
	} else if (op == KP_DEF_ADD) {
		check_def(&def, text);
		filter_on(&def);
	}
	free(text);
	return 0;
}
