/* SPDX-License-Identifier: GPL-2.0 */
/* The architectures a definition's registers belong to (probe_arch.c). */
#ifndef KPMOD_PROBE_ARCH_H
#define KPMOD_PROBE_ARCH_H

struct kp_reg {
	const char *name;	/* as written after '%' */
	unsigned int num;	/* KPMOD_REG_* */
};

struct kp_arch {
	const char *name;	/* "x86_64" or "arm64", as KPMOD_A_ARCH */
	unsigned int nregs;	/* KPMOD_REG_*_NR */
	unsigned int max_stack;	/* largest N of $stackN and $argN */
	const struct kp_reg *regs;
	unsigned int nnames;	/* entries in regs, aliases included */
};

/* "x86_64" (or "amd64"), "arm64" (or "aarch64"); NULL if unknown. */
const struct kp_arch *kp_arch_by_name(const char *name);
/* The architecture this program was built for; NULL if neither. */
const struct kp_arch *kp_arch_native(void);
/* Iterates the known architectures: start with NULL; NULL at the end. */
const struct kp_arch *kp_arch_next(const struct kp_arch *arch);
/* The KPMOD_REG_* number of register @name (no '%'), or -1. */
int kp_arch_reg(const struct kp_arch *arch, const char *name);
/* The kernel's name of register @num ("di", "x0"), or NULL. */
const char *kp_arch_reg_name(const struct kp_arch *arch, unsigned int num);

#endif
