/* SPDX-License-Identifier: GPL-2.0 */
/* A uprobe's file, checked as uprobe_events checks it (uprobe_file.c). */
#ifndef KPMOD_UPROBE_FILE_H
#define KPMOD_UPROBE_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "probe_arch.h"

/*
 * The checks of a uprobe's file that the kernel's uprobe_events makes
 * (FILE_NOT_FOUND, NO_REGULAR_FILE) and kpmod's own (NOT_ELF,
 * ELF_OTHER_ARCH, OFFS_NOT_EXEC): 0, or an error code with @msg filled.
 * In uprobe_file.c; kp_parse_def() calls it.
 */
int kp_uprobe_check_file(const char *path, uint64_t offset, const struct kp_arch *arch,
			 char *msg, size_t msglen);

#endif
