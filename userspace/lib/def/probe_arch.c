// SPDX-License-Identifier: GPL-2.0
/*
 * Per-architecture tables for the probe definition parser: the register
 * names %REG accepts (the pt_regs names of the kernel's
 * regs_query_register_offset, plus a few aliases) and their
 * KPMOD_REG_* numbers.
 */
#include <string.h>

#include "probe_arch.h"
#include "uapi/kpmod.h"

static const struct kp_reg x86_64_regs[] = {
	/* The kernel's names, first: kp_arch_reg_name() returns these. */
	{ "r15", KPMOD_REG_X86_R15 },	{ "r14", KPMOD_REG_X86_R14 },
	{ "r13", KPMOD_REG_X86_R13 },	{ "r12", KPMOD_REG_X86_R12 },
	{ "bp", KPMOD_REG_X86_BP },	{ "bx", KPMOD_REG_X86_BX },
	{ "r11", KPMOD_REG_X86_R11 },	{ "r10", KPMOD_REG_X86_R10 },
	{ "r9", KPMOD_REG_X86_R9 },	{ "r8", KPMOD_REG_X86_R8 },
	{ "ax", KPMOD_REG_X86_AX },	{ "cx", KPMOD_REG_X86_CX },
	{ "dx", KPMOD_REG_X86_DX },	{ "si", KPMOD_REG_X86_SI },
	{ "di", KPMOD_REG_X86_DI },	{ "orig_ax", KPMOD_REG_X86_ORIG_AX },
	{ "ip", KPMOD_REG_X86_IP },	{ "cs", KPMOD_REG_X86_CS },
	{ "flags", KPMOD_REG_X86_FLAGS }, { "sp", KPMOD_REG_X86_SP },
	{ "ss", KPMOD_REG_X86_SS },
	/* Aliases: the 64-bit register names. */
	{ "rbp", KPMOD_REG_X86_BP },	{ "rbx", KPMOD_REG_X86_BX },
	{ "rax", KPMOD_REG_X86_AX },	{ "rcx", KPMOD_REG_X86_CX },
	{ "rdx", KPMOD_REG_X86_DX },	{ "rsi", KPMOD_REG_X86_SI },
	{ "rdi", KPMOD_REG_X86_DI },	{ "rip", KPMOD_REG_X86_IP },
	{ "rsp", KPMOD_REG_X86_SP },
};

static const struct kp_reg arm64_regs[] = {
	{ "x0", 0 },   { "x1", 1 },   { "x2", 2 },   { "x3", 3 },
	{ "x4", 4 },   { "x5", 5 },   { "x6", 6 },   { "x7", 7 },
	{ "x8", 8 },   { "x9", 9 },   { "x10", 10 }, { "x11", 11 },
	{ "x12", 12 }, { "x13", 13 }, { "x14", 14 }, { "x15", 15 },
	{ "x16", 16 }, { "x17", 17 }, { "x18", 18 }, { "x19", 19 },
	{ "x20", 20 }, { "x21", 21 }, { "x22", 22 }, { "x23", 23 },
	{ "x24", 24 }, { "x25", 25 }, { "x26", 26 }, { "x27", 27 },
	{ "x28", 28 }, { "x29", 29 }, { "x30", 30 },
	{ "sp", KPMOD_REG_ARM64_SP },
	{ "pc", KPMOD_REG_ARM64_PC },
	{ "pstate", KPMOD_REG_ARM64_PSTATE },
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/*
 * max_stack: THREAD_SIZE / sizeof(long), the kernel's PARAM_MAX_STACK
 * (16 KiB stacks on both, without KASAN).
 */
static const struct kp_arch kp_arches[] = {
	{ "x86_64", KPMOD_REG_X86_NR, 2048, x86_64_regs, ARRAY_LEN(x86_64_regs) },
	{ "arm64", KPMOD_REG_ARM64_NR, 2048, arm64_regs, ARRAY_LEN(arm64_regs) },
};

const struct kp_arch *kp_arch_by_name(const char *name)
{
	if (!name)
		return NULL;
	if (!strcmp(name, "x86_64") || !strcmp(name, "amd64"))
		return &kp_arches[0];
	if (!strcmp(name, "arm64") || !strcmp(name, "aarch64"))
		return &kp_arches[1];
	return NULL;
}

const struct kp_arch *kp_arch_native(void)
{
#if defined(__x86_64__)
	return &kp_arches[0];
#elif defined(__aarch64__)
	return &kp_arches[1];
#else
	return NULL;
#endif
}

const struct kp_arch *kp_arch_next(const struct kp_arch *arch)
{
	if (!arch)
		return &kp_arches[0];
	if (arch >= kp_arches && arch < kp_arches + ARRAY_LEN(kp_arches) - 1)
		return arch + 1;
	return NULL;
}

int kp_arch_reg(const struct kp_arch *arch, const char *name)
{
	unsigned int i;

	if (!arch || !name)
		return -1;
	for (i = 0; i < arch->nnames; i++)
		if (!strcmp(arch->regs[i].name, name))
			return (int)arch->regs[i].num;
	return -1;
}

const char *kp_arch_reg_name(const struct kp_arch *arch, unsigned int num)
{
	unsigned int i;

	if (!arch)
		return NULL;
	for (i = 0; i < arch->nnames; i++)
		if (arch->regs[i].num == num)
			return arch->regs[i].name;
	return NULL;
}
