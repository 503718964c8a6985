/* SPDX-License-Identifier: GPL-2.0 */
/* What the libFuzzer targets share. */
#ifndef KPMOD_FUZZ_H
#define KPMOD_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * @size bytes of @data and a NUL, in a block of exactly that size: a read
 * past the NUL is outside it, and AddressSanitizer reports it.
 */
static inline char *fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* Where the formatters print: nothing is kept, every byte is still written. */
static inline FILE *fuzz_devnull(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	if (!f)
		abort();
	return f;
}

/* A broken promise of the code under test: a crash, its input saved. */
#define FUZZ_ASSERT(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "fuzz: assertion '%s' failed: ", #cond); \
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			abort();					\
		}							\
	} while (0)

#endif
