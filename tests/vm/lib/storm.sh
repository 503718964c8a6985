# The storm's workers, shared by scenarios/70-storm.sh and
# campaign/storm-counts.sh: `. "$KPMOD_STORM"` after setting
#   out  the directory each worker writes "ROUNDS FAILED" into, as $out/NAME
#   end  the uptime second at which every worker stops
#   last the CPU the hotplug worker takes offline and online
# Workers that must pause while something else works call `park NAME` at
# the top of each round: define park (the default does nothing) and, for
# workers that take turns on the rings, lock and unlock.
now() { cut -d. -f1 /proc/uptime; }
park() { :; }
lock() { :; }
unlock() { :; }

# on_cpu CPU CMD...: CMD pinned to CPU, or anywhere if it is offline.
on_cpu() {
	_c=$1
	shift
	taskset -c "$_c" "$@" 2>/dev/null || "$@"
}

# churn N GROUP: what the bug report ran, in a loop: add an entry and a
# return probe on vfs_read, enable them, one read, disable, delete.
churn() {
	n=$1 g=$2 i=0 bad=0
	while [ "$(now)" -lt "$end" ]; do
		park churn$n
		kpmod add "p:$g/a$n vfs_read" "r:$g/b$n vfs_read \$retval" || bad=$((bad + 1))
		kpmod enable $g/a$n $g/b$n || bad=$((bad + 1))
		head -c 1 /proc/version >/dev/null
		kpmod disable $g/a$n $g/b$n || bad=$((bad + 1))
		kpmod del $g/a$n $g/b$n || bad=$((bad + 1))
		i=$((i + 1))
	done
	echo "$i $bad" >"$out/churn$n"
}

# Readers attach to every ring, read for a while, and die by SIGKILL.
readers() {
	i=0 bad=0
	while [ "$(now)" -lt "$end" ]; do
		park readers
		lock
		kpmod trace >/dev/null 2>"$out/reader.err" &
		pid=$!
		sleep 0.$((3 + i % 7))
		kill -9 $pid 2>/dev/null
		wait $pid
		# 137: killed, as meant.  Anything else: it failed by itself.
		rc=$?
		unlock
		[ $rc -eq 137 ] || { bad=$((bad + 1)); cat "$out/reader.err"; }
		i=$((i + 1))
	done
	echo "$i $bad" >"$out/readers"
}

# The last CPU goes offline and online.
hotplug() {
	i=0 bad=0
	while [ "$(now)" -lt "$end" ]; do
		echo 0 >/sys/devices/system/cpu/cpu$last/online || bad=$((bad + 1))
		sleep 0.3
		echo 1 >/sys/devices/system/cpu/cpu$last/online || bad=$((bad + 1))
		sleep 0.3
		i=$((i + 1))
	done
	echo "$i $bad" >"$out/hotplug"
}

# Dumps while probes come and go: an interrupted dump is retried, never failed.
lister() {
	i=0 bad=0
	while [ "$(now)" -lt "$end" ]; do
		kpmod list >/dev/null 2>"$out/list.err" || { bad=$((bad + 1)); cat "$out/list.err"; }
		i=$((i + 1))
	done
	echo "$i $bad" >"$out/lister"
}

# can_hotplug: the last CPU can go offline here (and is not the only one).
can_hotplug() {
	[ "$last" -ge 1 ] && [ -w /sys/devices/system/cpu/cpu$last/online ]
}

# storm_results WHAT JOB...: once every worker has ended, each must have
# written its line, run at least one round and failed none.
storm_results() {
	note "$1 of $secs s on $ncpu CPUs survived"
	shift
	for j in "$@"; do
		[ -s "$out/$j" ] || fail "$j did not finish"
		read -r rounds bad <"$out/$j"
		note "$j: $rounds rounds, $bad failed"
		[ "$rounds" -gt 0 ] || fail "$j never ran"
		[ "$bad" -eq 0 ] || fail "$j: $bad failed"
	done
}
