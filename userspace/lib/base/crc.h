/* SPDX-License-Identifier: GPL-2.0 */
/* Checksums of the record file. */
#ifndef KPMOD_CRC_H
#define KPMOD_CRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* CRC-32 (IEEE 802.3, as zlib's crc32()), continuing from @crc (0 to start). */
uint32_t kp_crc32(uint32_t crc, const void *buf, size_t len);

/*
 * CRC-32C (Castagnoli, as iSCSI's and ext4's), continuing from @crc (0 to
 * start): by the CPU's instruction where it has one (SSE4.2's crc32 on
 * x86_64, the CRC32 extension on arm64), else by tables.
 */
uint32_t kp_crc32c(uint32_t crc, const void *buf, size_t len);

/* The same by tables only (to check the instruction against). */
uint32_t kp_crc32c_sw(uint32_t crc, const void *buf, size_t len);

/* Whether kp_crc32c() runs on the CPU's instruction here. */
bool kp_crc32c_hw(void);

#endif
