/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One-shot runs: kpmod trace|record|hist [DEF|EVENT|GLOB ...] [-- COMMAND].
 * What a run adds or enables is undone when it ends; with a COMMAND, its
 * probes record the command's process tree only.
 */
#ifndef KPMOD_ONESHOT_H
#define KPMOD_ONESHOT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "add.h"
#include "session.h"

struct kp_oneshot {
	const char *cmd;		/* "trace", "record", "hist" */
	struct kp_nl nl;
	struct kp_status st;
	bool connected;
	bool enable;			/* the run enables what it adds */
	struct kp_event_name *added;	/* added by this run */
	unsigned int nadded;
	struct kp_event_name *enabled;	/* there before, enabled by this run */
	unsigned int nenabled;
	unsigned int nalready;		/* named, but enabled already: left alone */
	pid_t child;			/* the command, 0 if none */
};

/* What a command line names: specs before "--", the command after. */
struct kp_oneshot_args {
	char **specs;
	int nspecs;
	char **command;			/* NULL-terminated, or NULL */
};

/* Whether @spec is a definition ("p:EV SYM ...") rather than an event name. */
bool kp_oneshot_is_def(const char *spec);

/* How a run sets its probes up. */
enum kp_oneshot_flags {
	KP_ONESHOT_ENABLE = 1 << 0,	/* enable what it adds and names (trace, record) */
	KP_ONESHOT_COMMAND = 1 << 1,	/* a command follows: record its tree only */
};

/*
 * Connects, adds the definitions and enables the named events (globs
 * allowed) that are disabled, all of it or nothing, and says on stderr
 * what the run attaches.  Returns 0 or an exit code, the error said.
 */
int kp_oneshot_begin(struct kp_oneshot *os, const char *cmd, const struct kp_oneshot_args *a,
		     unsigned int flags);

/*
 * Starts the command (its processes descend from this one, which becomes
 * their subreaper), and makes kp_stop set when it exits.  0 or an exit code.
 */
int kp_oneshot_spawn(struct kp_oneshot *os, char **command);

/*
 * Ends the run: the command, if still running, is sent SIGTERM; what the
 * run enabled is disabled and what it added deleted.  Returns 0, or an
 * exit code if some of it could not be undone (said on stderr).
 */
int kp_oneshot_end(struct kp_oneshot *os);

/* Says on stderr when no event is enabled: there is nothing to read. */
void kp_oneshot_warn_idle(const char *cmd, unsigned int nenabled);

/* Whether a one-shot run's process @pid is gone: what it set is left behind. */
bool kp_oneshot_run_gone(uint32_t pid);

struct kp_probe_list;
struct kp_probe_info;
/* Whether a run that is gone added (*@added) or enabled (*@enabled) @p. */
bool kp_oneshot_left(const struct kp_probe_info *p, bool *added, bool *enabled);
/* Prints (if @out) one line per probe a gone run left behind; how many. */
unsigned int kp_oneshot_left_behind(const struct kp_probe_list *l, FILE *out);

/*
 * Undoes what runs that are gone (killed with SIGKILL) left behind: says
 * so on stderr, disables what they enabled, deletes what they added.
 * *@reclaimed: how many probes.  0 or an exit code.
 */
int kp_oneshot_reclaim(const char *cmd, struct kp_nl *nl, unsigned int *reclaimed);

#endif
