// SPDX-License-Identifier: GPL-2.0
/*
 * The checks of a uprobe's file before anything reaches the module: the
 * kernel's (the file exists and is a regular file) and kpmod's own (an
 * ELF file of the module's architecture, the offset in an executable
 * segment), which uprobe_events leaves to the first hit.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "elf_file.h"
#include "parse_err.h"
#include "uprobe_file.h"

int kp_uprobe_check_file(const char *path, uint64_t offset, const struct kp_arch *arch,
			 char *msg, size_t msglen)
{
	const char *machine;
	char err[256];
	struct kp_elf e;
	struct stat st;
	int code = 0;

	if (stat(path, &st)) {
		snprintf(msg, msglen, "%s: %s: %s", kp_parse_strerror(KP_E_FILE_NOT_FOUND), path,
			 strerror(errno));
		return KP_E_FILE_NOT_FOUND;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(msg, msglen, "%s: %s", kp_parse_strerror(KP_E_NO_REGULAR_FILE), path);
		return KP_E_NO_REGULAR_FILE;
	}
	if (kp_elf_open(&e, path, err, sizeof(err))) {
		snprintf(msg, msglen, "%s: %s: %s", kp_parse_strerror(KP_E_NOT_ELF), path, err);
		return KP_E_NOT_ELF;
	}
	machine = kp_elf_machine_name(e.machine);
	if (arch && (!machine || strcmp(machine, arch->name))) {
		snprintf(msg, msglen, "%s: %s is for %s, the module for %s",
			 kp_parse_strerror(KP_E_ELF_OTHER_ARCH), path,
			 machine ? machine : "another machine", arch->name);
		code = KP_E_ELF_OTHER_ARCH;
	} else if (offset != UINT64_MAX && !kp_elf_offset_exec(&e, offset)) {
		snprintf(msg, msglen, "%s: 0x%llx in %s", kp_parse_strerror(KP_E_OFFS_NOT_EXEC),
			 (unsigned long long)offset, path);
		code = KP_E_OFFS_NOT_EXEC;
	}
	kp_elf_close(&e);
	return code;
}
