// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "exitcode.h"

const struct kp_cmd kp_cmds[] = {
	{ "version", kp_cmd_version, "print the CLI's and the module's versions",
	  "usage: kpmod version [--module]   (also: kpmod --version)\n"
	  "Prints the version of this CLI and the uapi version it speaks, then\n"
	  "the loaded module's, if it can be asked (root). Without the module it\n"
	  "says why on stderr and exits 0; with --module it exits as other\n"
	  "commands do: 3 when the module is not loaded, 4 without the\n"
	  "privileges, 6 when the two uapi versions differ.\n" },
	{ "status", kp_cmd_status, "show the module's state",
	  "usage: kpmod status [--json]\n"
	  "Shows the loaded module's version, architecture, kernel, CPUs,\n"
	  "the number of probes registered and the buffer settings, then what\n"
	  "one-shot runs killed with SIGKILL left behind. --json prints one\n"
	  "object (see doc/usage.md).\n" },
	{ "add", kp_cmd_add, "add probes (kprobe_events syntax)",
	  "usage: kpmod add [--enable] [--filter EXPR] [--dry-run [--arch ARCH]] [--btf FILE|DIR|none]\n"
	  "                 [-f FILE] [--] DEF... | -\n"
	  "Adds probes defined as for kprobe_events:\n"
	  "  p[:[GRP/]EVENT] [MOD:]SYM[+OFFS]|MEMADDR [FETCHARGS]\n"
	  "  r[MAXACTIVE][:[GRP/]EVENT] [MOD:]SYM[+0] [FETCHARGS]\n"
	  "  -:[GRP/]EVENT                  (deletes)\n"
	  "FETCHARGS: [NAME=]FETCHARG[:TYPE], FETCHARG one of %REG @ADDR\n"
	  "@SYM[+|-OFFS] $stackN $stack $argN $retval $comm \\IMM\n"
	  "+|-[u]OFFS(FETCHARG); TYPE u8..u64 s8..s64 x8..x64 char string\n"
	  "ustring symbol symstr b<width>@<offset>/<container> TYPE[N].\n"
	  "From the kernel's BTF, at a function's entry or return: PARAM (a\n"
	  "parameter by name), PARAM->MEMBER[.MEMBER][->...], $retval[->...],\n"
	  "$arg* (every parameter), a bare $argN (named and typed as its\n"
	  "parameter), typed unless :TYPE says; a char * or char[] is :string.\n"
	  "BTF is /sys/kernel/btf, or --btf FILE|DIR ($KPMOD_BTF): a detached\n"
	  "file (pahole --btf_encode_detached) or a copy of that directory;\n"
	  "none turns it off.\n"
	  "-f FILE and - read one definition per line; '#' starts a comment.\n"
	  "A definition starting with -: deletes; any other that starts with -\n"
	  "goes after --.\n"
	  "--filter EXPR gives every probe added the filter EXPR (see kpmod\n"
	  "filter --help) from its first hit.\n"
	  "New probes start disabled unless --enable. A call adds every probe\n"
	  "or none. An invalid definition is shown with a caret under the\n"
	  "offending token (after FILE:LINE: for -f) and exits with 16 + the\n"
	  "error's number.\n"
	  "--dry-run checks every definition (and --filter) without the module\n"
	  "and sends nothing: for ARCH (x86_64 or arm64; default this machine's),\n"
	  "symbols against this machine's /proc/kallsyms when it is readable and\n"
	  "of that arch, naming near matches of an unknown one. Every error is\n"
	  "reported; the exit code is the first one's. Each name from BTF is\n"
	  "printed with what it compiled to (NAME=TEXT is +0x68($arg1):s64).\n" },
	{ "apply", kp_cmd_apply, "make the module hold what probe files say (boot-time probes)",
	  "usage: kpmod apply [--check] [--state FILE] [--btf FILE|DIR|none] DIR|FILE...\n"
	  "Makes the module hold the probes, filters, triggers, enabled events and\n"
	  "buffer that the files say (a DIR: its *.conf, in name order), and\n"
	  "removes the probes an earlier apply added that they no longer define.\n"
	  "Idempotent: a second run changes nothing; a changed file changes only\n"
	  "the difference. A file holds one item per line ('#' starts a comment):\n"
	  "  p:... | r:...             a definition (kpmod add's syntax)\n"
	  "  filter EVENT EXPR         its filter\n"
	  "  trigger EVENT TRIGGER     one of its triggers\n"
	  "  enable EVENT...           enabled\n"
	  "  buffer [size=SIZE] [mode=discard|overwrite]\n"
	  "Every line is checked before anything changes; errors name FILE:LINE.\n"
	  "--check prints what would change and changes nothing: exit 0 when\n"
	  "nothing would, 1 when something would. --state FILE (default\n"
	  "/run/kpmod/applied) lists the probes apply added; a probe apply did\n"
	  "not add is never changed, unless its definition is the same.\n"
	  "Names from BTF resolve on each machine (--btf as for kpmod add);\n"
	  "--check prints what each became.\n" },
	{ "del", kp_cmd_del, "delete probes",
	  "usage: kpmod del EVENT|GROUP/EVENT|-:EVENT ...\n"
	  "Deletes probes. An enabled probe must be disabled first, as in\n"
	  "kprobe_events. A bare EVENT names that event in any group.\n" },
	{ "clear", kp_cmd_clear, "delete every probe",
	  "usage: kpmod clear\n"
	  "Deletes every probe; refused while any probe is enabled.\n" },
	{ "list", kp_cmd_list, "print the probe definitions",
	  "usage: kpmod list [--json]\n"
	  "Prints every probe's definition as kprobe_events prints it. --json\n"
	  "prints one array of objects, with each probe's state (see doc/usage.md).\n" },
	{ "enable", kp_cmd_enable, "enable probes",
	  "usage: kpmod enable EVENT|GROUP/EVENT|GROUP/*|all ...\n"
	  "Enables probes. All of a request's probes change, or none does.\n" },
	{ "disable", kp_cmd_disable, "disable probes",
	  "usage: kpmod disable EVENT|GROUP/EVENT|GROUP/*|all ...\n"
	  "Disables probes.\n" },
	{ "stat", kp_cmd_stat, "print per-probe hit, miss, drop and filter counts",
	  "usage: kpmod stat [--json | --prometheus]\n"
	  "Prints, per probe, as kprobe_profile does: the event name, hits and\n"
	  "misses; then the events dropped for lack of ring space, and those its\n"
	  "filter did not match. --json prints one array of objects.\n"
	  "--prometheus prints the probes' counters and each CPU's ring counters\n"
	  "(events, lost, overwritten, nested) in Prometheus' text format, for\n"
	  "node_exporter's textfile collector.\n" },
	{ "format", kp_cmd_format, "print an event's fields, as tracefs' format file",
	  "usage: kpmod format [--json] EVENT|GROUP/EVENT\n"
	  "Prints the event's fields as tracefs' events/GROUP/EVENT/format does:\n"
	  "name, ID (the probe's id), every field with its type, offset, size and\n"
	  "signedness, and the print format. Offsets and sizes are those of\n"
	  "kpmod's records (a 64-byte header, a fault bitmap, then the\n"
	  "arguments); types and the print format are the kernel's for the same\n"
	  "definition. --json prints one object (see doc/usage.md).\n" },
	{ "filter", kp_cmd_filter, "show, set or clear a probe's event filter",
	  "usage: kpmod filter EVENT|GROUP/EVENT [EXPR | 0]\n"
	  "Without EXPR, prints the probe's filter (or none). EXPR is written as\n"
	  "for tracefs' events/GROUP/EVENT/filter: FIELD OP VALUE joined by &&\n"
	  "and ||, grouped by ( ), negated by !; == != < <= > >= & on numbers,\n"
	  "== != ~ (a glob) on \"strings\". FIELDs: the probe's arguments,\n"
	  "common_pid, comm, cpu, __probe_ip (return probes: __probe_func,\n"
	  "__probe_ret_ip). 0 clears. The module runs it on every hit: events\n"
	  "that do not match take no ring space and are counted. An expression\n"
	  "that does not parse is shown as the kernel shows it, exits 7, and\n"
	  "leaves the filter in force as it was.\n" },
	{ "trigger", kp_cmd_trigger, "list, add or remove a probe's triggers (hist, traceon...)",
	  "usage: kpmod trigger EVENT|GROUP/EVENT ['[!]TRIGGER [if FILTER]']\n"
	  "Without TRIGGER, lists the probe's triggers as tracefs' trigger file\n"
	  "does. TRIGGER is written as for events/GROUP/EVENT/trigger:\n"
	  "  traceon[:N] traceoff[:N]     turn recording into the rings on/off\n"
	  "  enable_event:GROUP:EVENT[:N] disable_event:GROUP:EVENT[:N]\n"
	  "                               switch another probe's recording\n"
	  "  hist:keys=K[,K,K][:vals=V[,V]][:sort=S[,S]][:size=N][:pause|:cont|:clear]\n"
	  "                               count per key in the module (kpmod hist)\n"
	  "Keys take .hex .sym .sym-offset .execname .log2 .buckets=N; values\n"
	  "take .hex .percent .graph and kpmod's .max and .min. A '!' in front\n"
	  "removes the trigger. A trigger arms its probe: it runs on every hit,\n"
	  "and only an enabled probe records its events. A trigger that does\n"
	  "not parse is shown as the kernel's error_log shows it and exits 8.\n" },
	{ "hist", kp_cmd_hist, "print a probe's hist tables",
	  "usage: kpmod hist [--graph | --json | --prometheus] [--interval SECONDS] EVENT|GROUP/EVENT\n"
	  "       kpmod hist [--graph | --json] [--interval SECONDS] [--duration SECONDS]\n"
	  "                  DEF TRIGGER... [-- COMMAND [ARGS...]]\n"
	  "Prints every hist trigger's table of the probe as tracefs'\n"
	  "events/GROUP/EVENT/hist does: the trigger, one line per key, the\n"
	  "totals (Hits, Entries, Dropped: updates lost to a full table).\n"
	  "--graph prints as bpftrace prints: a .log2 or .buckets=N key as\n"
	  "hist()/lhist() rows with bars, other keys as a map by count. --json\n"
	  "prints one JSON object per table (see doc/usage.md). --prometheus prints\n"
	  "them in Prometheus' text format: kpmod_hist_hitcount and\n"
	  "kpmod_hist_value (value=NAME), labelled by the keys.\n"
	  "--interval prints and clears the tables every SECONDS until Ctrl-C.\n"
	  "A one-shot run: kpmod hist [OPTIONS] [--duration SECONDS] DEF TRIGGER...\n"
	  "[-- COMMAND [ARGS...]] adds the probe DEF (kpmod add's syntax) and its\n"
	  "TRIGGERs ('hist:keys=...'), with COMMAND's process tree only; runs\n"
	  "COMMAND (or waits for Ctrl-C or --duration), prints the tables, and\n"
	  "removes the probe, as kpmod trace's runs do.\n" },
	{ "tracing", kp_cmd_tracing, "show or set whether events reach the rings",
	  "usage: kpmod tracing [on|off]\n"
	  "As tracefs' tracing_on: off stops every probe's events from reaching\n"
	  "the rings (triggers still run); traceon/traceoff triggers set it.\n" },
	{ "buffer", kp_cmd_buffer, "show or set the per-CPU ring size and mode",
	  "usage: kpmod buffer [--size SIZE] [--mode discard|overwrite]\n"
	  "Without options, shows the settings. SIZE is per CPU, a power of two\n"
	  "from 64K to 256M (default 1M). discard (default) drops new events\n"
	  "when a ring is full and counts them; overwrite keeps the newest.\n"
	  "Refused while a probe is enabled or a reader has a ring open.\n" },
	{ "funcs", kp_cmd_funcs, "list the functions a probe can go on",
	  "usage: kpmod funcs [--json] [-v [--btf FILE|DIR]] [GLOB]\n"
	  "Lists, sorted, the kernel's functions a probe can go on (as perf\n"
	  "probe --funcs does), from /proc/kallsyms: text symbols whose name\n"
	  "nothing else in the kernel (or in their module) has, minus the kprobes\n"
	  "blacklist (debugfs), compiler-made copies (names with '.'), the\n"
	  "padding symbols (__pfx_, __cfi_) and __init code gone after boot. A\n"
	  "module's function prints as MOD:NAME. GLOB (fnmatch) selects by name\n"
	  "or MOD:NAME; when it matches nothing, exits 1. Needs no module. Run\n"
	  "as root: kallsyms' addresses and the blacklist are root's. --json\n"
	  "prints one JSON array of the names. -v (--verbose) adds each one's\n"
	  "prototype from BTF, as bpftrace -lv: a line per parameter, then the\n"
	  "return type as retval (JSON: objects with name, args and retval).\n" },
	{ "usdt", kp_cmd_usdt, "list a program's USDT markers (.note.stapsdt)",
	  "usage: kpmod usdt [--json] [-v] PATH [PROVIDER[:NAME]]\n"
	  "Lists the USDT markers (<sys/sdt.h>'s DTRACE_PROBE, STAP_PROBE) of the\n"
	  "ELF file PATH (x86_64 or arm64), from its .note.stapsdt notes, one\n"
	  "line each as bpftrace -l 'usdt:PATH:*' prints: usdt:PATH:PROVIDER:NAME.\n"
	  "PROVIDER and NAME (fnmatch globs) select; when nothing matches, exits\n"
	  "1. -v (--verbose) adds, for each place the marker is at, the file\n"
	  "offset a uprobe goes on, its semaphore's file offset (the reference\n"
	  "counter to pass with it) or none, the argument specs and each one as\n"
	  "a uprobe_events FETCHARG, or why it cannot be one. --json prints one\n"
	  "array of objects, one per place (see doc/usage.md). Needs no module.\n" },
	{ "trace", kp_cmd_trace, "stream events as ftrace's trace text or JSON",
	  "usage: kpmod trace [--json] [-o FILE] [--duration SECONDS] [--count N]\n"
	  "                   [DEF|EVENT|GLOB|FUNC ...] [-- COMMAND [ARGS...]]\n"
	  "Prints events from every CPU, merged in timestamp order, one line each\n"
	  "in ftrace's trace format (or one JSON object per line). Stops at\n"
	  "--count events, after --duration, or on Ctrl-C; then prints the\n"
	  "events and the lost counts per CPU on stderr. Lost events show inline\n"
	  "as CPU:N [LOST M EVENTS], as ftrace prints them.\n"
	  "A one-shot run: definitions (as for kpmod add) are added and enabled,\n"
	  "and named events (EVENT, GROUP/EVENT, globs like 'kprobes/*' or\n"
	  "'vfs_*') that are disabled are enabled, for this run only; it reads\n"
	  "only its own events. A FUNC, a function BTF knows that names no\n"
	  "event, is traced at its entry with $arg* and at its return with\n"
	  "$retval, each value printed by its type (as ksnoop).\n"
	  "With -- COMMAND, kpmod starts it, records only\n"
	  "its process tree (children, and orphans, which kpmod reaps), and\n"
	  "stops when it exits. However the run ends (the command's exit, Ctrl-C,\n"
	  "SIGTERM, --duration, an error), the command is sent SIGTERM if still\n"
	  "running, what the run added is deleted and what it enabled disabled.\n"
	  "After kill -9 of kpmod, kpmod status shows what was left behind and\n"
	  "kpmod clear removes it. A write error (a full disk) exits 1.\n" },
	{ "record", kp_cmd_record, "write raw records to a file",
	  "usage: kpmod record -o FILE [--duration SECONDS] [--count N]\n"
	  "                    [DEF|EVENT|GLOB ...] [-- COMMAND [ARGS...]]\n"
	  "Writes the raw records with the probes' layouts and the symbols of\n"
	  "the kernel addresses they hold, so that kpmod report can print them\n"
	  "later, anywhere.\n"
	  "Shows progress on stderr when stderr is a terminal. Definitions,\n"
	  "events and a COMMAND make a one-shot run, as for kpmod trace.\n" },
	{ "report", kp_cmd_report, "print a record file",
	  "usage: kpmod report [--json] FILE\n"
	  "Prints a file written by kpmod record as kpmod trace would have.\n"
	  "A damaged file prints everything valid before the damage, then a\n"
	  "clear error, and exits 1.\n" },
	{ "snapshot", kp_cmd_snapshot, "print a snapshot trigger's snapshot, or an overwrite-mode buffer",
	  "usage: kpmod snapshot [--json] [--live] [-o FILE]\n"
	  "Prints the rings as the last snapshot trigger to fire kept them,\n"
	  "if one has; else (or with --live) the newest events kept by rings\n"
	  "in overwrite mode (kpmod buffer --mode overwrite): a flight\n"
	  "recorder read after the fact.\n" },
};
const unsigned int kp_ncmds = sizeof(kp_cmds) / sizeof(kp_cmds[0]);

const struct kp_cmd *kp_cmd_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < kp_ncmds; i++)
		if (!strcmp(kp_cmds[i].name, name))
			return &kp_cmds[i];
	return NULL;
}

bool kp_wants_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return false;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return true;
	}
	return false;
}

void kp_print_usage(FILE *out)
{
	unsigned int i;

	fprintf(out, "usage: kpmod COMMAND [ARGS]\n"
		"kprobe-based event tracing for kernels without kprobe_events.\n\n"
		"Commands:\n");
	for (i = 0; i < kp_ncmds; i++)
		fprintf(out, "  %-10s %s\n", kp_cmds[i].name, kp_cmds[i].summary);
	fprintf(out, "\n'kpmod COMMAND --help' tells more about one command.\n"
		"Exit codes: 0 ok, 1 error, 2 usage, 3 module not loaded,\n"
		"4 permission denied, 5 refused by the module, 6 version mismatch,\n"
		"7 invalid filter, 16 and up invalid definition.\n");
}

void kp_print_cmd_usage(FILE *out, const struct kp_cmd *cmd)
{
	fputs(cmd->usage, out);
}

static int kp_dispatch(int argc, char **argv)
{
	const struct kp_cmd *cmd;

	/* kp_opt_error() says it, with the kpmod: prefix. */
	opterr = 0;
	if (argc < 2) {
		kp_print_usage(stderr);
		return KP_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		if (argc > 2 && (cmd = kp_cmd_find(argv[2]))) {
			kp_print_cmd_usage(stdout, cmd);
			return KP_EXIT_OK;
		}
		if (argc > 2) {
			kp_msg(NULL, "unknown command '%s'\n", argv[2]);
			return KP_EXIT_USAGE;
		}
		kp_print_usage(stdout);
		return KP_EXIT_OK;
	}
	/* kpmod --version: kpmod version. */
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))
		return kp_cmd_find("version")->run(argc - 1, argv + 1);
	cmd = kp_cmd_find(argv[1]);
	if (!cmd) {
		kp_msg(NULL, "unknown command '%s' (try 'kpmod --help')\n", argv[1]);
		return KP_EXIT_USAGE;
	}
	if (kp_wants_help(argc - 1, argv + 1)) {
		kp_print_cmd_usage(stdout, cmd);
		return KP_EXIT_OK;
	}
	return cmd->run(argc - 1, argv + 1);
}

int kp_main(int argc, char **argv)
{
	int ret = kp_dispatch(argc, argv), err;

	/* Output that could not be written (kpmod report ... >/dev/full) is an error. */
	err = errno;	/* a failed write's, if one failed and nothing since set it */
	if (fflush(stdout))
		err = errno;
	if (ferror(stdout) && !ret && err != EPIPE) {
		kp_msg(argc > 1 ? argv[1] : "help", "write error: %s\n", strerror(err ? err : EIO));
		ret = KP_EXIT_ERROR;
	}
	return ret;
}
