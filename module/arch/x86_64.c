// SPDX-License-Identifier: GPL-2.0
/* x86_64 specifics: the only file of the module that knows this arch. */
#include "../kpmod.h"

const char *kpmod_arch_name(void)
{
	return "x86_64";
}
