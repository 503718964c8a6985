// SPDX-License-Identifier: GPL-2.0
/*
 * Kallsyms text: kp_ksyms_load_buf() on the input as it is (no NUL at its
 * end), then lookups by address and by name around the symbols it loaded.
 * Then each line as the kernel's %pS text of an address
 * (kp_ksyms_parse_ps(), what a recording's SYMS blocks come from), and
 * lookups in the sized table of what parsed.
 */
#include <inttypes.h>

#include "fuzz.h"
#include "ksyms.h"

static void probe_addr(const struct kp_ksyms *k, uint64_t addr)
{
	char small[8], buf[4096];
	const struct kp_sym *s;
	uint64_t off, size;

	s = kp_ksyms_lookup(k, addr, &off, &size);
	if (s) {
		FUZZ_ASSERT(s->addr <= addr && off == addr - s->addr,
			    "0x%" PRIx64 " in %s at 0x%" PRIx64 " + 0x%" PRIx64,
			    addr, s->name, s->addr, off);
		FUZZ_ASSERT(!size || off < size, "0x%" PRIx64 ": offset 0x%" PRIx64
			    " past the size 0x%" PRIx64, addr, off, size);
	}
	kp_ksyms_snprint(k, addr, true, buf, sizeof(buf));
	kp_ksyms_snprint(k, addr, false, buf, sizeof(buf));
	kp_ksyms_snprint(k, addr, true, small, sizeof(small));
}

#define PS_MAX 64

static void parse_lines(const uint8_t *data, size_t size)
{
	static char names[PS_MAX][KPMOD_MAX_SYMBOL_LEN], mods[PS_MAX][KPMOD_MAX_MODULE_LEN];
	struct kp_sym syms[PS_MAX];
	size_t n = 0, i = 0, j;
	struct kp_ksyms k;

	while (i < size && n < PS_MAX) {
		const uint8_t *nl = memchr(data + i, '\n', size - i);
		size_t len = nl ? (size_t)(nl - data - i) : size - i;
		uint64_t addr = 0xffffffff81000000ULL + 0x100 * n;
		char *line = fuzz_str(data + i, len);
		struct kp_sym *s = &syms[n];

		if (!kp_ksyms_parse_ps(line, addr, s, names[n], mods[n])) {
			FUZZ_ASSERT(s->name[0] && s->addr <= addr &&
				    (!s->size || addr - s->addr < s->size),
				    "\"%s\" of 0x%" PRIx64 ": %s at 0x%" PRIx64 " size 0x%" PRIx64,
				    line, addr, s->name, s->addr, s->size);
			n++;
		}
		free(line);
		i += len + 1;
	}
	if (kp_ksyms_load_sized(&k, syms, n))
		return;
	for (j = 0; j < n; j++) {
		probe_addr(&k, syms[j].addr);
		probe_addr(&k, syms[j].addr - 1);
		probe_addr(&k, syms[j].addr + syms[j].size);
	}
	kp_ksyms_free(&k);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kp_ksyms k;
	uint64_t addr;
	size_t i, step;
	char *text;

	parse_lines(data, size);
	/* Exactly @size bytes, no NUL after them. */
	text = malloc(size ? size : 1);
	if (!text)
		abort();
	if (size)
		memcpy(text, data, size);
	if (kp_ksyms_load_buf(&k, text, size)) {
		free(text);
		return 0;
	}
	free(text);
	probe_addr(&k, 0);
	probe_addr(&k, UINT64_MAX);
	step = k.nsyms > 64 ? k.nsyms / 64 : 1;
	for (i = 0; i < k.nsyms; i += step) {
		const struct kp_sym *s = &k.syms[i];

		probe_addr(&k, s->addr);
		probe_addr(&k, s->addr - 1);
		probe_addr(&k, s->addr + 1);
		if (kp_ksyms_zeroed(&k))
			continue;
		/* Every symbol loaded is found by its name (and module). */
		FUZZ_ASSERT(kp_ksyms_lookup(&k, s->addr, &addr, &addr),
			    "%s at 0x%" PRIx64 " not found by address", s->name, s->addr);
		FUZZ_ASSERT(!kp_ksyms_addr(&k, s->name, NULL, &addr),
			    "%s not found by name", s->name);
		FUZZ_ASSERT(!kp_ksyms_addr(&k, s->name, s->mod, &addr),
			    "%s [%s] not found by name", s->name, s->mod ? s->mod : "");
		FUZZ_ASSERT(addr <= s->addr, "%s [%s]: 0x%" PRIx64 ", not the lowest",
			    s->name, s->mod ? s->mod : "", addr);
	}
	kp_ksyms_addr(&k, "", NULL, &addr);
	kp_ksyms_addr(&k, "vfs_read", "nosuchmod", &addr);
	kp_ksyms_free(&k);
	return 0;
}
