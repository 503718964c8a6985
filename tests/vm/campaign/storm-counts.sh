# The counting storm (4 CPUs; make check runs it after 70-storm in the same
# boot): while probes are added, enabled, disabled and deleted, readers
# attach and die by SIGKILL, a CPU goes offline and online, `kpmod clear`,
# a resize and rmmod are attempted (refused: a probe stays enabled and a
# file holds the module), `kpmod list` and `kpmod hist` read throughout:
#   - every event of sc/acct is accounted for: its hits = the events the
#     readers read + dropped + filtered (discard mode).  Its filter passes
#     only the accountant's calls, made while its reader holds the rings
#     (the SIGKILLed readers, taking turns with it, never see one);
#   - a hist table, :clear'ed before each round of known calls, then read,
#     counts exactly those calls: Hits, Entries, the sum of hitcount;
# then rmmod while probes fire and a hist table is full: clean.
#   KPMOD_STORM_SECS (default 60) sets the length.
. "$KPMOD_LIB"
secs=${KPMOD_STORM_SECS:-60}
ncpu=$(grep -c ^processor /proc/cpuinfo)
last=$((ncpu - 1))
now() { cut -d. -f1 /proc/uptime; }
out=/tmp/sc
rm -rf $out
mkdir -p $out
load_kpmod
# Held open, the device holds the module: every rmmod below is refused.
exec 9</dev/kpmod || fail "cannot open /dev/kpmod"
# Small rings: the accountant's rounds overflow them, drops are counted too.
expect_rc 0 kpmod buffer --size 64K
expect_rc 0 kpmod add --enable 'p:sc/acct find_task_by_vpid nr=$arg1:s32'
expect_rc 0 kpmod filter sc/acct 'nr >= 8000000'
hspec='hist:keys=nr:vals=hitcount:sort=nr if nr >= 7000000 && nr < 8000000'
expect_rc 0 kpmod add 'p:sc/h find_task_by_vpid nr=$arg1:s32'
expect_rc 0 kpmod trigger sc/h "$hspec"
end=$(($(now) + secs))

# The rings have one reader at a time: a lock (mkdir is atomic) taken in turn.
lock() { until mkdir $out/rings.lock 2>/dev/null; do sleep 0.05; done; }
unlock() { rmdir $out/rings.lock; }

# on_cpu CPU CMD...: CMD pinned to CPU, or anywhere if it is offline.
on_cpu() {
	c=$1
	shift
	taskset -c "$c" "$@" 2>/dev/null || "$@"
}

churn() {
	n=$1 i=0 bad=0
	while [ "$(now)" -lt $end ]; do
		kpmod add "p:sc/a$n vfs_read" "r:sc/b$n vfs_read \$retval" || bad=$((bad + 1))
		kpmod enable sc/a$n sc/b$n || bad=$((bad + 1))
		head -c 1 /proc/version >/dev/null
		kpmod disable sc/a$n sc/b$n || bad=$((bad + 1))
		kpmod del sc/a$n sc/b$n || bad=$((bad + 1))
		i=$((i + 1))
	done
	echo "$i $bad" >$out/churn$n
}

# Rounds of known calls read by a reader that is never killed.
accountant() {
	i=0 bad=0 nread=0 calls=0
	while [ "$(now)" -lt $end ]; do
		lock
		kpmod trace >$out/acct.txt 2>$out/acct.err &
		tpid=$!
		while [ "$(grep -c /dev/kpmod /proc/$tpid/maps 2>/dev/null)" -lt $((2 * ncpu)) ]; do
			kill -0 $tpid 2>/dev/null || break
			sleep 0.05
		done
		base=$((8000000 + i * ncpu * 1000))
		cpu=0 workers=
		while [ $cpu -lt "$ncpu" ]; do
			on_cpu $cpu kpmod-work getpgid 1000 $((base + cpu * 1000)) &
			workers="$workers $!"
			cpu=$((cpu + 1))
		done
		for w in $workers; do wait "$w"; done
		calls=$((calls + ncpu * 1000))
		kill -INT $tpid
		wait $tpid || { bad=$((bad + 1)); cat $out/acct.err; }
		unlock
		sleep 0.2	# the readers' turn
		n=$(grep -c ' acct: .* nr=[0-9]*$' $out/acct.txt)
		nread=$((nread + n))
		i=$((i + 1))
	done
	echo "$i $bad" >$out/accountant
	echo "$nread $calls" >$out/acct.read
}

# Readers attach to every ring, read for a while, and die by SIGKILL.
readers() {
	i=0 bad=0
	while [ "$(now)" -lt $end ]; do
		lock
		kpmod trace >/dev/null 2>$out/reader.err &
		pid=$!
		sleep 0.$((3 + i % 7))
		kill -9 $pid 2>/dev/null
		wait $pid
		rc=$?
		unlock
		sleep 0.2	# the accountant's turn
		[ $rc -eq 137 ] || { bad=$((bad + 1)); cat $out/reader.err; }
		i=$((i + 1))
	done
	echo "$i $bad" >$out/readers
}

# :clear, known calls, then the table must hold exactly them.
histround() {
	i=0 bad=0
	while [ "$(now)" -lt $end ]; do
		kpmod trigger sc/h "${hspec%% if *}:clear if ${hspec#* if }" || bad=$((bad + 1))
		on_cpu $((i % ncpu)) kpmod-work getpgid 500 7000000
		kpmod hist sc/h >$out/h.txt || bad=$((bad + 1))
		# shellcheck disable=SC2046
		set -- $(awk '/^\{ .* hitcount: / { n++; s += $NF } /^    Hits:/ { h = $2 }
			/^    Entries:/ { e = $2 } /^    Dropped:/ { d = $2 }
			END { print n + 0, s + 0, h, e, d }' $out/h.txt)
		[ "$*" = "500 500 500 500 0" ] || { bad=$((bad + 1)); echo "hist round $i: $*"; cat $out/h.txt; }
		i=$((i + 1))
	done
	echo "$i $bad" >$out/histround
}

# Reads the table while it is updated and cleared.
histreader() {
	i=0 bad=0
	while [ "$(now)" -lt $end ]; do
		kpmod hist sc/h >$out/hr.txt 2>&1 && grep -q '^Totals:' $out/hr.txt ||
			{ bad=$((bad + 1)); cat $out/hr.txt; }
		i=$((i + 1))
	done
	echo "$i $bad" >$out/histreader
}

# refused RC PATTERN CMD...: CMD must be refused so (nothing changed).
refused() {
	want=$1 pat=$2
	shift 2
	"$@" >$out/ref.txt 2>&1
	rc=$?
	[ $rc -eq "$want" ] && grep -qE "$pat" $out/ref.txt && return 0
	echo "'$*' exited $rc:"
	cat $out/ref.txt
	return 1
}

# Clear, resize, rmmod: each refused while sc/acct is enabled and the
# device is held, every time, with the reason.
refusals() {
	i=0 bad=0
	while [ "$(now)" -lt $end ]; do
		refused 5 'probe is enabled|probe has triggers' kpmod clear || bad=$((bad + 1))
		refused 5 'probes are enabled' kpmod buffer --size $((64 << (i % 4)))K || bad=$((bad + 1))
		rmmod kpmod 2>/dev/null && { bad=$((bad + 1)); echo "rmmod succeeded"; }
		grep -q '^kpmod ' /proc/modules || { echo "module gone"; echo "$i 1" >$out/refusals; return; }
		sleep 0.2
		i=$((i + 1))
	done
	echo "$i $bad" >$out/refusals
}

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

lister() {
	i=0 bad=0
	while [ "$(now)" -lt $end ]; do
		kpmod list >/dev/null 2>$out/list.err || { bad=$((bad + 1)); cat $out/list.err; }
		i=$((i + 1))
	done
	echo "$i $bad" >$out/lister
}

churn 1 &
churn 2 &
accountant &
readers &
histround &
histreader &
refusals &
lister &
jobs="churn1 churn2 accountant readers histround histreader refusals lister"
if [ "$ncpu" -ge 2 ] && [ -w /sys/devices/system/cpu/cpu$last/online ]; then
	hotplug &
	jobs="$jobs hotplug"
fi
wait
note "counting storm of $secs s on $ncpu CPUs survived"
for j in $jobs; do
	[ -s $out/$j ] || fail "$j did not finish"
	read -r rounds bad <$out/$j
	note "$j: $rounds rounds, $bad failed"
	[ "$rounds" -gt 0 ] || fail "$j never ran"
	[ "$bad" -eq 0 ] || fail "$j: $bad failed"
done

# Every hit of sc/acct: read, dropped or filtered; every call: read or
# dropped (or a kprobe miss, a hit kprobes itself did not deliver).
# Counters of a handler still running elsewhere: read until they stay.
read -r nread calls <$out/acct.read
expect_rc 0 kpmod disable sc/acct
i=0
while :; do
	sleep 0.3
	kpmod stat >$out/stat1 || fail "stat failed"
	sleep 0.3
	kpmod stat >$out/stat2 || fail "stat failed"
	cmp -s $out/stat1 $out/stat2 && break
	i=$((i + 1))
	[ $i -lt 10 ] || fail "the counters kept changing with the probe disabled"
done
set -- $(grep '^  acct ' $out/stat1)
hits=$2 misses=$3 dropped=$4 filtered=$5
[ "$hits" -eq $((nread + dropped + filtered)) ] ||
	fail "sc/acct: hits $hits, read $nread + dropped $dropped + filtered $filtered"
[ "$calls" -ge $((nread + dropped)) ] && [ "$calls" -le $((nread + dropped + misses)) ] ||
	fail "sc/acct: $calls calls, read $nread + dropped $dropped ($misses misses)"
note "sc/acct: $hits hits = $nread read + $dropped dropped + $filtered filtered; $calls calls, $misses misses"
expect_rc 0 kpmod enable sc/acct

# rmmod with probes firing and a hist table filling: clean.
exec 9<&-
kpmod-work getpgid 100000000 7000000 &
wpid=$!
sleep 1
rmmod kpmod || fail "rmmod with probes firing"
kill $wpid
wait $wpid 2>/dev/null
grep -q '^kpmod ' /proc/modules && fail "still loaded"
if [ -r /sys/kernel/debug/kprobes/list ]; then
	[ -s /sys/kernel/debug/kprobes/list ] &&
		{ cat /sys/kernel/debug/kprobes/list; fail "kprobes left registered"; }
fi
exit 0
