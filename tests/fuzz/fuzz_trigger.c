// SPDX-License-Identifier: GPL-2.0
/*
 * Triggers: kp_trigger_parse() as `kpmod trigger` and `kpmod hist` call
 * it; a refusal printed as error_log shows it; an accepted trigger's
 * filter compiled, its line listed as `kpmod trigger` lists it, a hist's
 * keys and values checked as the module checks them, its text (what the
 * module keeps) read back as `kpmod hist` reads it, and a named hist's
 * refusal by the module printed.
 *
 * The first byte chooses the probe (bit 0: an entry or a return probe),
 * the rest is the trigger.  Seeds start with '0' or '1'.
 */
#include <errno.h>

#include "fields.h"
#include "fuzz.h"
#include "trigger.h"

/* What the module's kpmod_hist_check_key() and _val() take. */
static void check_hist(const struct kp_hist_spec *h, uint32_t kind, const char *line)
{
	const uint16_t key_flags = KPMOD_HIST_F_LOG2 | KPMOD_HIST_F_BUCKETS |
				   KPMOD_HIST_F_EXECNAME;
	const uint16_t val_flags = KPMOD_HIST_F_MAX | KPMOD_HIST_F_MIN;
	unsigned int i;

	FUZZ_ASSERT(h->nkeys >= 1 && h->nkeys <= KPMOD_HIST_MAX_KEYS &&
		    h->nvals <= KPMOD_HIST_MAX_VALS, "%u keys, %u values: %s", h->nkeys,
		    h->nvals, line);
	FUZZ_ASSERT(h->size >= KPMOD_HIST_SIZE_MIN && h->size <= KPMOD_HIST_SIZE_MAX &&
		    !(h->size & (h->size - 1)), "size %u: %s", h->size, line);
	for (i = 0; i < h->nkeys; i++) {
		const struct kpmod_hist_field *k = &h->keys[i].mod;
		enum fuzz_field_kind fk = fuzz_field_kind(kind, k->field);

		FUZZ_ASSERT(!k->__reserved && !(k->flags & ~key_flags) &&
			    !(k->flags & (k->flags - 1)) &&
			    !(k->flags & KPMOD_HIST_F_BUCKETS) == !k->buckets,
			    "key %u: flags %#x, buckets %llu: %s", i, k->flags,
			    (unsigned long long)k->buckets, line);
		if (k->field == KPMOD_FIELD_STACKTRACE)
			fk = k->flags ? FUZZ_FK_BAD : FUZZ_FK_NUM;
		else if (fk == FUZZ_FK_STR && k->flags)
			fk = FUZZ_FK_BAD;
		else if ((k->flags & KPMOD_HIST_F_EXECNAME) && k->field != KPMOD_FIELD_PID)
			fk = FUZZ_FK_BAD;
		FUZZ_ASSERT(fk != FUZZ_FK_BAD, "key %u: field %#x, flags %#x: %s", i, k->field,
			    k->flags, line);
	}
	for (i = 0; i < h->nvals; i++) {
		const struct kpmod_hist_field *v = &h->vals[i].mod;

		FUZZ_ASSERT(!v->__reserved && !v->buckets && !(v->flags & ~val_flags) &&
			    !(v->flags & (v->flags - 1)), "value %u: flags %#x: %s", i,
			    v->flags, line);
		FUZZ_ASSERT(fuzz_field_kind(kind, v->field) == FUZZ_FK_NUM,
			    "value %u: field %#x: %s", i, v->field, line);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct kp_filter_fields ff;
	static struct kp_trigger t;
	static struct kp_hist_spec h;
	static char out[4 * KP_TRIGGER_TEXT_MAX + KPMOD_MAX_FILTER_TEXT];
	struct kp_trigger_error terr;
	struct kp_filter_error ferr;
	struct kp_filter_code code;
	struct kp_trigger_info info;
	const char *why;
	char *line;
	int ret;

	if (!size)
		return 0;
	fuzz_fields(data[0] & 1 ? KPMOD_PROBE_RETURN : KPMOD_PROBE_ENTRY, &ff);
	line = fuzz_str(data + 1, size - 1);
	ret = kp_trigger_parse(line, &ff, &t, &terr);
	FUZZ_ASSERT(!ret || ret == -EINVAL, "%d: %s", ret, line);
	if (ret) {
		FUZZ_ASSERT(terr.msg[0], "no message: %s", line);
		if (terr.cmd[0]) {
			FUZZ_ASSERT(terr.pos >= 0 && (size_t)terr.pos <= strlen(terr.cmd),
				    "caret at %d of %zu: %s", terr.pos, strlen(terr.cmd), line);
			kp_trigger_error_format(out, sizeof(out), "hist:kprobes:ev", &terr);
		}
		goto out;
	}
	if (t.filter[0]) {
		ret = kp_filter_build(t.filter, &ff, &code, &ferr, &why);
		if (!ret)
			kp_filter_code_free(&code);
		else if (ret == -EINVAL)
			kp_filter_error_format(out, sizeof(out), t.filter, &ferr);
	}
	if (t.type == KPMOD_TRIGGER_HIST) {
		check_hist(&t.hist, data[0] & 1 ? KPMOD_PROBE_RETURN : KPMOD_PROBE_ENTRY, line);
		/* What the module keeps, `kpmod hist` must read back. */
		FUZZ_ASSERT(!kp_hist_spec_of(t.text, &ff, &h), "'%s' does not read back: %s",
			    t.text, line);
		FUZZ_ASSERT(h.nkeys == t.hist.nkeys && h.nvals == t.hist.nvals &&
			    h.nsort == t.hist.nsort && h.key_size == t.hist.key_size &&
			    h.size == t.hist.size,
			    "'%s' reads back as another hist: %s", t.text, line);
	}
	if (t.type == KPMOD_TRIGGER_HIST && t.hist.name[0]) {
		/* The module refused it as unlike the hist of its name. */
		struct kp_err e = { .errnum = EINVAL };

		snprintf(e.msg, sizeof(e.msg), "Named hist trigger doesn't match");
		FUZZ_ASSERT(kp_trigger_named_mismatch(line, &t, &e, &terr),
			    "not a named mismatch: %s", line);
		FUZZ_ASSERT(terr.pos >= 0 && (size_t)terr.pos <= strlen(terr.cmd),
			    "caret at %d of %zu: %s", terr.pos, strlen(terr.cmd), line);
		kp_trigger_error_format(out, sizeof(out), "hist:kprobes:ev", &terr);
	}
	info = (struct kp_trigger_info){ .type = t.type, .count = t.count,
					 .text = t.text, .filter = t.filter };
	kp_trigger_line(out, sizeof(out), &info, &ff);
out:
	free(line);
	return 0;
}
