// SPDX-License-Identifier: GPL-2.0
/*
 * CRC-32 and CRC-32C.  `kpmod record` checksums every byte it writes: the
 * tables go eight bytes a step (slicing-by-8, several times a byte at a
 * time), and CRC-32C, the record file's from version 2, is one
 * instruction per eight bytes on CPUs that have it.
 */
#include <string.h>

#include "crc.h"

#if defined(__x86_64__)
#include <nmmintrin.h>
#define KP_CRC_TARGET __attribute__((target("sse4.2")))
#define KP_CRC32CD(crc, v) ((uint32_t)_mm_crc32_u64(crc, v))
#define KP_CRC32CB _mm_crc32_u8
#elif defined(__aarch64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#include <arm_acle.h>
#include <sys/auxv.h>
#ifndef HWCAP_CRC32
#define HWCAP_CRC32 (1 << 7)
#endif
#ifdef __clang__
/* clang 14's arm_acle.h declares __crc32c* only where +crc is the default. */
#define KP_CRC_TARGET __attribute__((target("crc")))
#define KP_CRC32CD __builtin_arm_crc32cd
#define KP_CRC32CB __builtin_arm_crc32cb
#else
#define KP_CRC_TARGET __attribute__((target("+crc")))
#define KP_CRC32CD __crc32cd
#define KP_CRC32CB __crc32cb
#endif
#endif

struct kp_crc_tables {
	uint32_t t[8][256];
	bool ready;
};

/* The eight tables of the reflected polynomial @poly, built once. */
static const struct kp_crc_tables *kp_crc_tables(struct kp_crc_tables *tb, uint32_t poly)
{
	uint32_t i, j, c;

	if (tb->ready)
		return tb;
	for (i = 0; i < 256; i++) {
		for (c = i, j = 0; j < 8; j++)
			c = c & 1 ? poly ^ (c >> 1) : c >> 1;
		tb->t[0][i] = c;
	}
	for (i = 0; i < 256; i++)
		for (j = 1; j < 8; j++)
			tb->t[j][i] = tb->t[0][tb->t[j - 1][i] & 0xff] ^ (tb->t[j - 1][i] >> 8);
	tb->ready = true;
	return tb;
}

static uint32_t kp_crc_sliced(const struct kp_crc_tables *tb, uint32_t crc,
			      const uint8_t *p, size_t len)
{
	const uint32_t (*t)[256] = tb->t;

	crc = ~crc;
	while (len >= 8) {
		uint32_t lo = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 |
				     (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
		uint32_t hi = (uint32_t)p[4] | (uint32_t)p[5] << 8 |
			      (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;

		crc = t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^
		      t[5][(lo >> 16) & 0xff] ^ t[4][lo >> 24] ^
		      t[3][hi & 0xff] ^ t[2][(hi >> 8) & 0xff] ^
		      t[1][(hi >> 16) & 0xff] ^ t[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = t[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

uint32_t kp_crc32(uint32_t crc, const void *buf, size_t len)
{
	static struct kp_crc_tables tb;

	return kp_crc_sliced(kp_crc_tables(&tb, 0xedb88320), crc, buf, len);
}

uint32_t kp_crc32c_sw(uint32_t crc, const void *buf, size_t len)
{
	static struct kp_crc_tables tb;

	return kp_crc_sliced(kp_crc_tables(&tb, 0x82f63b78), crc, buf, len);
}

#ifdef KP_CRC_TARGET
KP_CRC_TARGET static uint32_t kp_crc32c_insn(uint32_t crc, const uint8_t *p, size_t len)
{
	uint64_t v;

	crc = ~crc;
	while (len >= 8) {
		memcpy(&v, p, 8);
		crc = KP_CRC32CD(crc, v);
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = KP_CRC32CB(crc, *p++);
	return ~crc;
}

bool kp_crc32c_hw(void)
{
	static int hw = -1;

	if (hw < 0) {
#if defined(__x86_64__)
		__builtin_cpu_init();
		hw = __builtin_cpu_supports("sse4.2");
#else
		hw = !!(getauxval(AT_HWCAP) & HWCAP_CRC32);
#endif
	}
	return hw;
}
#else
bool kp_crc32c_hw(void)
{
	return false;
}
#endif

uint32_t kp_crc32c(uint32_t crc, const void *buf, size_t len)
{
#ifdef KP_CRC_TARGET
	if (kp_crc32c_hw())
		return kp_crc32c_insn(crc, buf, len);
#endif
	return kp_crc32c_sw(crc, buf, len);
}
