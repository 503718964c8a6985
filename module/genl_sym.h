/* SPDX-License-Identifier: GPL-2.0 */
/* The family's request for kernel symbols (genl_sym.c). */
#ifndef _KPMOD_GENL_SYM_H
#define _KPMOD_GENL_SYM_H

#include <net/genetlink.h>

int kpmod_genl_sym_resolve(struct sk_buff *skb, struct genl_info *info);

#endif /* _KPMOD_GENL_SYM_H */
