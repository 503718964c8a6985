# The storm: probes added, enabled, disabled and deleted in loops on one
# function while it is called everywhere, readers attaching and dying by
# SIGKILL, a CPU going offline and online, `kpmod list` dumping throughout.
# Survival is the test; then every command must have succeeded and
# nothing may be left registered.  The harness runs it on one TCG thread:
# multi-threaded TCG runs stale code after the kernel rewrites a call site,
# which no x86_64 kernel survives, with or without kpmod (doc/design.md,
# "Kernel crashes under an emulator").
#   KPMOD_STORM_SECS (default 60) sets the length.
. "$KPMOD_LIB"
. "$KPMOD_STORM"
secs=${KPMOD_STORM_SECS:-60}
ncpu=$(grep -c ^processor /proc/cpuinfo)
last=$((ncpu - 1))
load_kpmod
end=$(($(now) + secs))
out=/tmp/storm
rm -rf $out
mkdir -p $out

# The fastest crasher: enable and disable only, probes registered throughout.
toggle() {
	i=0 bad=0
	while [ "$(now)" -lt $end ]; do
		kpmod enable st/tp st/tr || bad=$((bad + 1))
		kpmod disable st/tp st/tr || bad=$((bad + 1))
		i=$((i + 1))
	done
	echo "$i $bad" >$out/toggle
}

# A function called without pause on every CPU while kpmod arms and
# disarms its ftrace hook: the rewrites of its call site race with the
# calls.
case $KPMOD_ARCH in
x86_64) hot=__x64_sys_getppid ;;
arm64) hot=__arm64_sys_getppid ;;
esac
sitechurn() {
	i=0 bad=0
	while [ "$(($(now) + 3))" -lt $end ]; do
		cpu=0
		while [ $cpu -lt "$ncpu" ]; do
			# A CPU the hotplug job has taken offline: run anywhere.
			{ taskset -c $cpu kpmod-work spin 1 2>/dev/null || kpmod-work spin 1; } >/dev/null &
			cpu=$((cpu + 1))
		done
		sleep 0.3
		kpmod add --enable "p:st/hot $hot" "r:st/hotret $hot" || bad=$((bad + 1))
		wait	# for this subshell's spinners
		kpmod disable st/hot st/hotret || bad=$((bad + 1))
		kpmod del st/hot st/hotret || bad=$((bad + 1))
		sleep 1.5
		i=$((i + 1))
	done
	echo "$i $bad" >$out/sitechurn
}
# Many long vfs_read calls in flight (return probes pending) all the time.
kallsyms() {
	i=0
	while [ "$(now)" -lt $end ]; do
		cat /proc/kallsyms >/dev/null
		i=$((i + 1))
	done
	echo "$i 0" >$out/kallsyms
}

# A hundred probes added and deleted in one command each, so that a dump
# spans several messages while they change: NLM_F_DUMP_INTR.
bulk() {
	i=0 bad=0 n=0 names=
	while [ $n -lt 100 ]; do
		echo "p:bulk/b$n vfs_fsync" >>$out/bulk.defs
		names="$names bulk/b$n"
		n=$((n + 1))
	done
	while [ "$(now)" -lt $end ]; do
		kpmod add -f $out/bulk.defs || bad=$((bad + 1))
		# shellcheck disable=SC2086
		kpmod del $names || bad=$((bad + 1))
		i=$((i + 1))
	done
	echo "$i $bad" >$out/bulk
}

expect_rc 0 kpmod add 'p:st/tp vfs_read' 'r:st/tr vfs_read $retval'
churn 1 st &
churn 2 st &
churn 3 st &
toggle &
kallsyms &
readers &
bulk &
lister &
sitechurn &
jobs="churn1 churn2 churn3 toggle kallsyms readers bulk lister sitechurn"
if can_hotplug; then
	hotplug &
	jobs="$jobs hotplug"
fi
wait
# shellcheck disable=SC2086
storm_results storm $jobs

# Nothing left but the toggled pair; then nothing at all.
expect_rc 0 kpmod list
[ "$(wc -l </tmp/.out)" -eq 2 ] || fail "probes left behind by the storm"
expect_rc 0 kpmod disable all
expect_rc 0 kpmod clear
if [ -r /sys/kernel/debug/kprobes/list ]; then
	[ -s /sys/kernel/debug/kprobes/list ] &&
		{ cat /sys/kernel/debug/kprobes/list; fail "kprobes left registered"; }
fi
unload_kpmod
exit 0
