/* SPDX-License-Identifier: GPL-2.0 */
/* The probe and buffer commands of the netlink API, for the CLI. */
#ifndef KPMOD_PROBE_NL_H
#define KPMOD_PROBE_NL_H

#include <stdbool.h>
#include <stdint.h>

#include "nl.h"
#include "probe_desc.h"

/* One trigger as PROBE_GET reports it. */
struct kp_trigger_info {
	uint32_t id, type, count, entries, key_size;
	bool paused;
	uint64_t hits, drops;		/* a hist's */
	char *text;			/* malloc'd */
	char *filter;			/* malloc'd, "" when none */
};

/* One probe as PROBE_GET reports it. */
struct kp_probe_info {
	struct kp_probe_desc desc;	/* name, place, record layout */
	uint32_t maxactive;
	char definition[KPMOD_MAX_DEF_LEN];
	uint64_t hits, misses, dropped, filtered;
	bool enabled, gone, soft_disabled;
	uint32_t pid_tree;		/* records only this process' descendants, or 0 */
	uint32_t added_by, enabled_by;	/* the one-shot run's process id, or 0 */
	char filter[KPMOD_MAX_FILTER_TEXT];	/* "" when none */
	unsigned int ntriggers;
	struct kp_trigger_info *triggers;	/* malloc'd, in the module's order */
};

struct kp_probe_list {
	unsigned int n;
	struct kp_probe_info *probes;	/* malloc'd, in id order */
};

/* Every probe, in id order; the caller frees with kp_probe_list_free(). */
int kp_probe_list_get(struct kp_nl *nl, struct kp_probe_list *out, struct kp_err *e);
void kp_probe_list_free(struct kp_probe_list *l);
const struct kp_probe_info *kp_probe_list_find_id(const struct kp_probe_list *l, uint32_t id);
/* The probe GROUP/EVENT, exactly, or NULL. */
const struct kp_probe_info *kp_probe_list_find(const struct kp_probe_list *l, const char *group,
					       const char *event);
/* The probe @spec names ("EVENT" in one group only, or "GROUP/EVENT"), or NULL and *@why. */
const struct kp_probe_info *kp_probe_list_find_name(const struct kp_probe_list *l,
						    const char *spec, const char **why);

/* Names probes: a NULL group or event matches any. */
struct kp_select {
	const char *group;
	const char *event;
};

/*
 * One KPMOD_CMD_PROBE_DEL, _ENABLE or _DISABLE for every probe @sel names:
 * all of them change, or none.  On a refusal that the module pinned on one
 * selector, *@bad is its index (else -1).
 */
int kp_probe_select(struct kp_nl *nl, uint8_t cmd, const struct kp_select *sel,
		    size_t n, int *bad, struct kp_err *e);
/* The same for one probe; a NULL or "" part matches any. */
int kp_probe_select_one(struct kp_nl *nl, uint8_t cmd, const char *group, const char *event,
			struct kp_err *e);
/*
 * ENABLE for a one-shot run: the module records the caller as the run, and
 * with @pid_tree, the probes record only that process' descendants.
 */
int kp_probe_enable_run(struct kp_nl *nl, const struct kp_select *sel, size_t n,
			uint32_t pid_tree, int *bad, struct kp_err *e);
int kp_probe_clear(struct kp_nl *nl, struct kp_err *e);

/* A filter for GROUP/EVENT: its text and program, or all NULL to clear. */
struct kp_filter_req {
	const char *group, *event, *text;
	const struct kpmod_filter_pred *preds;
	size_t nr;
	const char *strs;
	size_t strs_len;
};

int kp_probe_filter_set(struct kp_nl *nl, const struct kp_filter_req *r, struct kp_err *e);
/* The attributes of @r, as PROBE_FILTER and a trigger's "if" send them. */
struct nl_msg;
int kp_filter_put(struct nl_msg *msg, const struct kp_filter_req *r);

/* A hist table as HIST_GET sends it: entries of entry_size bytes each. */
struct kp_hist_data {
	uint64_t hits, drops;
	uint32_t key_size;
	size_t n, cap, entry_size;	/* entries held, room for, bytes each */
	unsigned char *entries;		/* malloc'd */
};

/* How a hist table is read: as it stands, or taken and an empty one left in its place. */
enum kp_hist_read {
	KP_HIST_READ,
	KP_HIST_READ_CLEAR,	/* every hit in one read: hist --interval */
};

int kp_hist_get(struct kp_nl *nl, const char *group, const char *event, uint32_t id,
		enum kp_hist_read how, struct kp_hist_data *out, struct kp_err *e);
void kp_hist_data_free(struct kp_hist_data *d);

int kp_tracing_set(struct kp_nl *nl, bool on, struct kp_err *e);

/*
 * Names @n (1 to KPMOD_SYM_BATCH) kernel addresses as the kernel's %pS
 * names them: @fn(address, text, @arg) for each, in order.  Returns 0, or
 * an exit code with @e filled in.
 */
typedef int (*kp_sym_fn)(uint64_t addr, const char *text, void *arg);
int kp_sym_resolve(struct kp_nl *nl, const uint64_t *addrs, unsigned int n,
		   kp_sym_fn fn, void *arg, struct kp_err *e);

/* size 0 or mode < 0: leave that one as it is. */
int kp_buffer_set(struct kp_nl *nl, uint64_t size, int mode, struct kp_err *e);

#endif
