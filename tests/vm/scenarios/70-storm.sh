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
secs=${KPMOD_STORM_SECS:-60}
ncpu=$(grep -c ^processor /proc/cpuinfo)
last=$((ncpu - 1))
load_kpmod
now() { cut -d. -f1 /proc/uptime; }
end=$(($(now) + secs))
out=/tmp/storm
rm -rf $out
mkdir -p $out

# What the bug report ran: add, enable, one read, disable, delete.
churn() {
	n=$1 i=0 bad=0
	while [ "$(now)" -lt $end ]; do
		kpmod add "p:st/a$n vfs_read" "r:st/b$n vfs_read \$retval" || bad=$((bad + 1))
		kpmod enable st/a$n st/b$n || bad=$((bad + 1))
		head -c 1 /proc/version >/dev/null
		kpmod disable st/a$n st/b$n || bad=$((bad + 1))
		kpmod del st/a$n st/b$n || bad=$((bad + 1))
		i=$((i + 1))
	done
	echo "$i $bad" >$out/churn$n
}

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

# Readers attach to every ring, read for a while, and die by SIGKILL.
readers() {
	i=0 bad=0
	while [ "$(now)" -lt $end ]; do
		kpmod trace >/dev/null 2>$out/reader.err &
		pid=$!
		sleep 0.$((3 + i % 7))
		kill -9 $pid 2>/dev/null
		wait $pid
		# 137: killed, as meant.  Anything else: it failed by itself.
		rc=$?
		[ $rc -eq 137 ] || { bad=$((bad + 1)); cat $out/reader.err; }
		i=$((i + 1))
	done
	echo "$i $bad" >$out/readers
}

# The last CPU goes offline and online.
hotplug() {
	i=0 bad=0
	while [ "$(now)" -lt $end ]; do
		echo 0 >/sys/devices/system/cpu/cpu$last/online || bad=$((bad + 1))
		sleep 0.3
		echo 1 >/sys/devices/system/cpu/cpu$last/online || bad=$((bad + 1))
		sleep 0.3
		i=$((i + 1))
	done
	echo "$i $bad" >$out/hotplug
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

# Dumps while probes come and go: an interrupted dump is retried, never failed.
lister() {
	i=0 bad=0
	while [ "$(now)" -lt $end ]; do
		kpmod list >/dev/null 2>$out/list.err || { bad=$((bad + 1)); cat $out/list.err; }
		i=$((i + 1))
	done
	echo "$i $bad" >$out/lister
}

expect_rc 0 kpmod add 'p:st/tp vfs_read' 'r:st/tr vfs_read $retval'
churn 1 &
churn 2 &
churn 3 &
toggle &
kallsyms &
readers &
bulk &
lister &
sitechurn &
jobs="churn1 churn2 churn3 toggle kallsyms readers bulk lister sitechurn"
if [ "$ncpu" -ge 2 ] && [ -w /sys/devices/system/cpu/cpu$last/online ]; then
	hotplug &
	jobs="$jobs hotplug"
fi
wait
note "storm of $secs s on $ncpu CPUs survived"
for j in $jobs; do
	[ -s $out/$j ] || fail "$j did not finish"
	read -r rounds bad <$out/$j
	note "$j: $rounds rounds, $bad failed"
	[ "$rounds" -gt 0 ] || fail "$j never ran"
	[ "$bad" -eq 0 ] || fail "$j: $bad commands failed"
done

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
