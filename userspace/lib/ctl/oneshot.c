// SPDX-License-Identifier: GPL-2.0
/*
 * One-shot runs (see oneshot.h).  The module records this process as the
 * run on every probe it adds or enables (KPMOD_A_PROBE_ONE_SHOT), so that
 * what a run killed with SIGKILL leaves behind shows in kpmod status and
 * goes with kpmod clear.  With a command, the probes are given this
 * process as their pid tree: the command and everything it starts descend
 * from it, and this process is their subreaper, so that orphans stay in
 * the tree.
 */
#define _GNU_SOURCE	/* pipe2, asprintf */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "live.h"
#include "kbtf.h"
#include "oneshot.h"
#include "probe_nl.h"
#include "probe_ops.h"

static volatile pid_t kp_child;
static volatile int kp_child_status = -1;

/* Reaps every child (orphans come to the subreaper); the command's exit ends the run. */
static void kp_on_sigchld(int sig)
{
	int saved = errno, status;
	pid_t pid;

	(void)sig;
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		if (pid == kp_child) {
			kp_child_status = status;
			kp_stop = 1;
		}
	}
	errno = saved;
}

bool kp_oneshot_is_def(const char *spec)
{
	return strpbrk(spec, " \t") != NULL;
}

static bool kp_is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/*
 * A bare function name that names no event (kpmod trace vfs_read): its
 * entry with every parameter and its return with $retval, typed from
 * @kb (the BTF the definitions are then parsed with), as ksnoop.  Two
 * definitions into @defs (freed by the caller), *@n of them: none when
 * BTF does not know the function.  0, or the exit code of the error said
 * (no BTF at all, out of memory).
 */
static int kp_func_defs(const char *cmd, struct kp_btf *kb, const char *spec, char **defs,
			unsigned int *n)
{
	const char *colon = strchr(spec, ':');
	char mod[KPMOD_MAX_MODULE_LEN] = "";
	struct kp_btf_func f;

	*n = 0;
	if (colon && (size_t)(colon - spec) < sizeof(mod))
		snprintf(mod, sizeof(mod), "%.*s", (int)(colon - spec), spec);
	if (kp_btf_open(kb)) {
		kp_msg(cmd, "'%s' is not an event, and there is no BTF to trace it as a function (%s)\n",
		       spec, kp_btf_why(kb));
		return KP_EXIT_USAGE;
	}
	if (kp_btf_func(kb, mod, colon ? colon + 1 : spec, &f))
		return 0;
	if (asprintf(&defs[0], "p %s%s", spec, f.nparams ? " $arg*" : "") < 0)
		return KP_EXIT_ERROR;
	(*n)++;
	if (asprintf(&defs[1], "r %s%s", spec, f.proto->type ? " $retval" : "") < 0)
		return KP_EXIT_ERROR;
	(*n)++;
	return 0;
}

/* Whether @spec can name a function only: no event is called so in any group. */
static bool kp_names_no_event(const struct kp_probe_list *l, const char *spec)
{
	unsigned int i;

	if (strchr(spec, '/'))
		return false;
	for (i = 0; i < l->n; i++)
		if (!strcmp(l->probes[i].desc.event, spec))
			return false;
	return true;
}

/* Adds @p's name to @v unless there. */
static int kp_names_push(struct kp_event_name **v, unsigned int *n, const char *group,
			 const char *event)
{
	struct kp_event_name *grown;
	unsigned int i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*v)[i].group, group) && !strcmp((*v)[i].event, event))
			return 0;
	grown = realloc(*v, (*n + 1) * sizeof(**v));
	if (!grown)
		return -1;
	*v = grown;
	snprintf(grown[*n].group, sizeof(grown[*n].group), "%s", group);
	snprintf(grown[*n].event, sizeof(grown[*n].event), "%s", event);
	(*n)++;
	return 0;
}

/*
 * The events a name or glob matches: "GROUP/EVENT" patterns match both
 * parts, a bare one the event name in any group (one group only for a
 * name without glob characters, as elsewhere).
 */
static int kp_match_names(struct kp_oneshot *os, const struct kp_probe_list *l,
			  const char *spec, struct kp_event_name **v, unsigned int *n)
{
	const char *slash = strchr(spec, '/');
	unsigned int i, matched = 0;
	const char *why;

	if (!kp_is_glob(spec)) {
		const struct kp_probe_info *p = kp_probe_list_find_name(l, spec, &why);

		if (!p) {
			kp_msg(os->cmd, "'%s': %s\n", spec, why);
			return KP_EXIT_USAGE;
		}
		return kp_names_push(v, n, p->desc.group, p->desc.event) ? KP_EXIT_ERROR : 0;
	}
	for (i = 0; i < l->n; i++) {
		const struct kp_probe_info *p = &l->probes[i];
		char full[2 * KPMOD_MAX_NAME_LEN];

		snprintf(full, sizeof(full), "%s/%s", p->desc.group, p->desc.event);
		if (fnmatch(spec, slash ? full : p->desc.event, 0))
			continue;
		if (kp_names_push(v, n, p->desc.group, p->desc.event))
			return KP_EXIT_ERROR;
		matched++;
	}
	if (!matched) {
		kp_msg(os->cmd, "'%s' matches no event (kpmod list shows them)\n", spec);
		return KP_EXIT_USAGE;
	}
	return 0;
}

/*
 * One request for every name (all change or none); if the module refuses
 * it, one per name, so that a probe someone else removed meanwhile does
 * not keep the others as they are.  Returns how many could not change.
 */
static unsigned int kp_select_each(struct kp_oneshot *os, uint8_t nlcmd,
				   const struct kp_event_name *v, unsigned int n)
{
	struct kp_select *sel = calloc(n ? n : 1, sizeof(*sel));
	unsigned int i, failed = 0;
	struct kp_err e;
	int bad;

	if (!sel)
		return n;
	for (i = 0; i < n; i++)
		sel[i] = (struct kp_select){ v[i].group, v[i].event };
	if (n && kp_probe_select(&os->nl, nlcmd, sel, n, &bad, &e)) {
		for (i = 0; i < n; i++) {
			if (!kp_probe_select(&os->nl, nlcmd, &sel[i], 1, &bad, &e) ||
			    e.errnum == ENOENT)
				continue;
			kp_msg(os->cmd, "could not %s %s/%s: %s\n",
			       nlcmd == KPMOD_CMD_PROBE_DEL ? "delete" : "disable",
			       v[i].group, v[i].event,
			       e.msg[0] ? e.msg : strerror(e.errnum));
			failed++;
		}
	}
	free(sel);
	return failed;
}

static unsigned int kp_enabled_count(const struct kp_probe_list *l)
{
	unsigned int i, n = 0;

	for (i = 0; i < l->n; i++)
		n += l->probes[i].enabled;
	return n;
}

int kp_oneshot_begin(struct kp_oneshot *os, const char *cmd, const struct kp_oneshot_args *a,
		     unsigned int flags)
{
	struct kp_add_how how = {
		.enable = flags & KP_ONESHOT_ENABLE,
		.one_shot = true,
		.pid_tree = (flags & KP_ONESHOT_COMMAND) ? (uint32_t)getpid() : 0,
	};
	struct kp_event_name *named = NULL;
	struct kp_def_parser *dp = NULL;
	unsigned int nnamed = 0, ndefs = 0, i, j, attached, before, nmade, nmades = 0;
	struct kp_probe_list l = { 0 };
	struct kp_select *sel = NULL;
	char **defs = NULL, **made = NULL;
	struct kp_err e;
	int ret, bad;

	memset(os, 0, sizeof(*os));
	os->cmd = cmd;
	os->enable = how.enable;
	ret = kp_session_open(cmd, &os->nl, &os->st);
	if (ret)
		return ret;
	os->connected = true;
	ret = kp_def_parser_for_module(cmd, &os->st, NULL, KP_SYMS_DEFERRED, &dp);
	if (ret)
		goto out;
	/* A function name makes two definitions. */
	defs = calloc(a->nspecs ? 2 * a->nspecs : 1, sizeof(*defs));
	made = calloc(a->nspecs ? 2 * a->nspecs : 1, sizeof(*made));
	os->added = calloc(a->nspecs ? 2 * a->nspecs : 1, sizeof(*os->added));
	if (!defs || !made || !os->added) {
		ret = KP_EXIT_ERROR;
		goto out;
	}
	if (kp_probe_list_get(&os->nl, &l, &e)) {
		ret = kp_fail(cmd, &e);
		goto out;
	}
	/* Names first: a glob must not match the probes this run adds. */
	for (i = 0; i < (unsigned int)a->nspecs && !ret; i++) {
		const char *why;

		nmade = 0;
		if (kp_oneshot_is_def(a->specs[i])) {
			defs[ndefs++] = a->specs[i];
			continue;
		}
		if (how.enable && !kp_is_glob(a->specs[i]) &&
		    !kp_probe_list_find_name(&l, a->specs[i], &why) &&
		    kp_names_no_event(&l, a->specs[i]))
			ret = kp_func_defs(cmd, kp_def_parser_btf(dp), a->specs[i], made + nmades,
					   &nmade);
		for (j = 0; j < nmade; j++)
			defs[ndefs++] = made[nmades++];
		if (!ret && !nmade)
			ret = kp_match_names(os, &l, a->specs[i], &named, &nnamed);
	}
	if (ret)
		goto out;
	if (nnamed && !how.enable) {
		kp_msg(cmd, "a run adds its probes: give definitions, not events\n");
		ret = KP_EXIT_USAGE;
		goto out;
	}
	if (ndefs) {
		ret = kp_add_defs(&os->nl, dp, defs, ndefs, &how, os->added, &os->nadded);
		if (ret)
			goto out;
	}
	/* The named events that are disabled; those enabled already are left as they are. */
	sel = calloc(nnamed ? nnamed : 1, sizeof(*sel));
	if (!sel) {
		ret = KP_EXIT_ERROR;
		goto out;
	}
	for (i = 0; i < nnamed; i++) {
		const struct kp_probe_info *p = kp_probe_list_find(&l, named[i].group, named[i].event);

		if (p && p->enabled)
			os->nalready++;
		else
			named[os->nenabled++] = named[i];
	}
	/* After the compaction: the selectors point into named[]. */
	for (i = 0; i < os->nenabled; i++)
		sel[i] = (struct kp_select){ named[i].group, named[i].event };
	if (os->nenabled &&
	    kp_probe_enable_run(&os->nl, sel, os->nenabled, how.pid_tree, &bad, &e)) {
		if (bad >= 0)
			kp_err_about(&e, sel[bad].event);
		ret = kp_fail(cmd, &e);
		os->nenabled = 0;
		goto out;
	}
	os->enabled = named;
	named = NULL;
	attached = os->nadded + os->nenabled;
	if (attached)
		fprintf(stderr, "Attaching %u probe%s...\n", attached, attached == 1 ? "" : "s");
	/* Events enabled before the run record every process: say so. */
	before = kp_enabled_count(&l);
	if (before && (flags & KP_ONESHOT_COMMAND))
		kp_msg(cmd, "%u event%s enabled before this run %s read for every process\n",
		       before, before == 1 ? "" : "s", before == 1 ? "is" : "are");
out:
	if (ret && os->connected)
		kp_oneshot_end(os);
	kp_probe_list_free(&l);
	kp_def_parser_free(dp);
	free(named);
	free(defs);
	for (i = 0; i < nmades; i++)
		free(made[i]);
	free(made);
	free(sel);
	return ret;
}

void kp_oneshot_warn_idle(const char *cmd, unsigned int nenabled)
{
	if (!nenabled)
		kp_msg(cmd,
		       "no event is enabled: nothing to read (name one: kpmod %s 'p:EVENT SYMBOL' or EVENT)\n",
		       cmd);
}

int kp_oneshot_spawn(struct kp_oneshot *os, char **command)
{
	sigset_t chld, old_mask;
	struct sigaction sa;
	int pipefd[2], err = 0;
	ssize_t got;
	pid_t pid;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = kp_on_sigchld;
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	/* Orphans of the command's tree come here, and stay in the tree. */
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	if (pipe2(pipefd, O_CLOEXEC)) {
		kp_msg(os->cmd, "pipe: %s\n", strerror(errno));
		return KP_EXIT_ERROR;
	}
	/* A Ctrl-C while the probes were set up: the command never starts. */
	if (kp_stop) {
		close(pipefd[0]);
		close(pipefd[1]);
		return 0;
	}
	/* The handler must know the command's pid before it can exit. */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old_mask);
	pid = fork();
	if (pid < 0) {
		kp_msg(os->cmd, "fork: %s\n", strerror(errno));
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
		close(pipefd[0]);
		close(pipefd[1]);
		return KP_EXIT_ERROR;
	}
	if (!pid) {
		/* The command gets the signals as the shell would have left them. */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
		close(pipefd[0]);
		execvp(command[0], command);
		err = errno;
		if (write(pipefd[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	kp_child = pid;
	os->child = pid;
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	close(pipefd[1]);
	do {
		got = read(pipefd[0], &err, sizeof(err));
	} while (got < 0 && errno == EINTR);
	close(pipefd[0]);
	if (got == sizeof(err)) {
		/* It exits 127 at once: nothing more to say about it. */
		os->child = 0;
		kp_msg(os->cmd, "%s: %s\n", command[0], strerror(err));
		return err == ENOENT ? KP_EXIT_USAGE : KP_EXIT_ERROR;
	}
	return 0;
}

/* Waits up to @ms for the command to have exited; whether it has. */
static bool kp_child_wait(int ms)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	while (kp_child_status < 0 && ms > 0) {
		nanosleep(&ts, NULL);
		ms -= 10;
	}
	return kp_child_status >= 0;
}

/* The triggers of the probes this run added: a probe with triggers cannot go. */
static unsigned int kp_oneshot_remove_triggers(struct kp_oneshot *os)
{
	struct kp_probe_list l = { 0 };
	unsigned int i, j, failed = 0;
	struct kp_err e;

	if (!os->nadded || kp_probe_list_get(&os->nl, &l, &e))
		return 0;
	for (i = 0; i < os->nadded; i++) {
		const struct kp_probe_info *p = kp_probe_list_find(&l, os->added[i].group, os->added[i].event);

		/* Removed in reverse: an enable_event's target after its switch. */
		for (j = p ? p->ntriggers : 0; j-- > 0;) {
			const struct kp_trigger_info *ti = &p->triggers[j];

			if (kp_trigger_remove_info(&os->nl, p, ti, &e) && e.errnum != ENOENT) {
				kp_msg(os->cmd, "could not remove %s/%s's trigger '%s': %s\n",
				       p->desc.group, p->desc.event,
				       ti->text,
				       e.msg[0] ? e.msg : strerror(e.errnum));
				failed++;
			}
		}
	}
	kp_probe_list_free(&l);
	return failed;
}

/* Disables what the run enabled, deletes what it added; how many could not be. */
static unsigned int kp_oneshot_undo(struct kp_oneshot *os)
{
	unsigned int failed = 0;

	if (os->enable)
		failed += kp_select_each(os, KPMOD_CMD_PROBE_DISABLE, os->added, os->nadded);
	failed += kp_select_each(os, KPMOD_CMD_PROBE_DISABLE, os->enabled, os->nenabled);
	failed += kp_oneshot_remove_triggers(os);
	failed += kp_select_each(os, KPMOD_CMD_PROBE_DEL, os->added, os->nadded);
	return failed;
}

bool kp_oneshot_left(const struct kp_probe_info *p, bool *added, bool *enabled)
{
	*added = p->added_by && kp_oneshot_run_gone(p->added_by);
	*enabled = p->enabled_by && kp_oneshot_run_gone(p->enabled_by);
	return *added || *enabled;
}

unsigned int kp_oneshot_left_behind(const struct kp_probe_list *l, FILE *out)
{
	unsigned int i, n = 0;

	for (i = 0; i < l->n; i++) {
		const struct kp_probe_info *p = &l->probes[i];
		bool added, enabled;

		if (!kp_oneshot_left(p, &added, &enabled))
			continue;
		n++;
		if (out)
			fprintf(out, "left behind: %s/%s, %s by a kpmod run that is gone (pid %u)\n",
				p->desc.group, p->desc.event,
				added && enabled ? "added and enabled" : added ? "added" : "enabled",
				added ? p->added_by : p->enabled_by);
	}
	return n;
}

int kp_oneshot_reclaim(const char *cmd, struct kp_nl *nl, unsigned int *reclaimed)
{
	struct kp_oneshot os = { .cmd = cmd, .nl = *nl };
	struct kp_probe_list l = { 0 };
	unsigned int i, failed;
	struct kp_err e;
	int ret = 0;

	*reclaimed = 0;
	if (kp_probe_list_get(nl, &l, &e))
		return kp_fail(cmd, &e);
	for (i = 0; i < l.n && !ret; i++) {
		const struct kp_probe_info *p = &l.probes[i];
		bool added, enabled;

		kp_oneshot_left(p, &added, &enabled);
		if (enabled && kp_names_push(&os.enabled, &os.nenabled, p->desc.group, p->desc.event))
			ret = KP_EXIT_ERROR;
		if (added && kp_names_push(&os.added, &os.nadded, p->desc.group, p->desc.event))
			ret = KP_EXIT_ERROR;
	}
	if (!ret && (os.nadded || os.nenabled)) {
		kp_oneshot_left_behind(&l, stderr);
		failed = kp_oneshot_undo(&os);
		*reclaimed = os.nadded + os.nenabled;
		if (failed)
			ret = KP_EXIT_ERROR;
	}
	free(os.added);
	free(os.enabled);
	kp_probe_list_free(&l);
	return ret;
}

int kp_oneshot_end(struct kp_oneshot *os)
{
	unsigned int failed = 0;
	int ret = 0;

	if (os->child && !kp_child_wait(0)) {
		/* Ended by Ctrl-C, SIGTERM or --duration: the command goes too. */
		kill(os->child, SIGTERM);
		if (!kp_child_wait(2000))
			kp_msg(os->cmd,
			       "the command (pid %d) did not exit on SIGTERM; left running, untraced\n",
			       (int)os->child);
	}
	if (os->child && kp_child_status >= 0) {
		int s = kp_child_status;

		if (WIFSIGNALED(s) && WTERMSIG(s) != SIGTERM && WTERMSIG(s) != SIGINT)
			kp_msg(os->cmd, "the command was killed by signal %d\n", WTERMSIG(s));
		else if (WIFEXITED(s) && WEXITSTATUS(s))
			kp_msg(os->cmd, "the command exited with %d\n", WEXITSTATUS(s));
	}
	if (os->connected) {
		failed = kp_oneshot_undo(os);
		kp_nl_close(&os->nl);
		os->connected = false;
	}
	if (failed) {
		kp_msg(os->cmd, "%u probe%s could not be put back: see kpmod status\n", failed,
		       failed == 1 ? "" : "s");
		ret = KP_EXIT_ERROR;
	}
	free(os->added);
	free(os->enabled);
	os->added = os->enabled = NULL;
	os->nadded = os->nenabled = 0;
	return ret;
}

bool kp_oneshot_run_gone(uint32_t pid)
{
	char path[64], comm[32] = "";
	FILE *f;

	/* Gone, or the number taken by another program since. */
	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	f = fopen(path, "r");
	if (!f)
		return true;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	return strcmp(comm, "kpmod\n") != 0;
}
