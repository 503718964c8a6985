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
#   - every few seconds the others pause between two of their rounds (the
#     CPU hotplug and the lister go on) and a resetter disables what is
#     enabled, removes the hist trigger, clears and resizes, each of which
#     must then succeed, and sets sc/acct and sc/h up again (their counts
#     before the clear are carried over);
# then rmmod while probes fire and a hist table is full: clean.
#   KPMOD_STORM_SECS (default 60) sets the length.
. "$KPMOD_LIB"
. "$KPMOD_STORM"
secs=${KPMOD_STORM_SECS:-60}
ncpu=$(grep -c ^processor /proc/cpuinfo)
last=$((ncpu - 1))
out=/tmp/sc
rm -rf $out
mkdir -p $out
load_kpmod
# Held open, the device holds the module: every rmmod below is refused.
exec 9</dev/kpmod || fail "cannot open /dev/kpmod"
# Small rings: the accountant's rounds overflow them, drops are counted too.
expect_rc 0 kpmod buffer --size 64K
hspec='hist:keys=nr:vals=hitcount:sort=nr if nr >= 7000000 && nr < 8000000'
# The accountant's probe and the hist table, as at the start and after each reset.
setup() {
	kpmod add --enable 'p:sc/acct find_task_by_vpid nr=$arg1:s32' &&
		kpmod filter sc/acct 'nr >= 8000000' &&
		kpmod add 'p:sc/h find_task_by_vpid nr=$arg1:s32' &&
		kpmod trigger sc/h "$hspec"
}
setup || fail "the storm's probes could not be set up"
# sc/acct's counters from before each clear: hits misses dropped filtered.
echo "0 0 0 0" >$out/acct.carried
end=$(($(now) + secs))

# Jobs that add, enable or read pause between rounds while the resetter
# works: park NAME at the top of each round.
parkers="churn1 churn2 accountant readers histround histreader refusals"
park() {
	[ -d $out/pause ] || return 0
	: >$out/parked.$1
	while [ -d $out/pause ]; do sleep 0.05; done
}

# The rings have one reader at a time: a lock (mkdir is atomic) taken in turn.
lock() { until mkdir $out/rings.lock 2>/dev/null; do sleep 0.05; done; }
unlock() {
	rmdir $out/rings.lock
	sleep 0.2	# the other's turn
}

# Rounds of known calls read by a reader that is never killed.
accountant() {
	i=0 bad=0 nread=0 calls=0
	while [ "$(now)" -lt $end ]; do
		park accountant
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
		n=$(grep -c ' acct: .* nr=[0-9]*$' $out/acct.txt)
		nread=$((nread + n))
		i=$((i + 1))
	done
	echo "$i $bad" >$out/accountant
	echo "$nread $calls" >$out/acct.read
}

# :clear, known calls, then the table must hold exactly them.
histround() {
	i=0 bad=0
	while [ "$(now)" -lt $end ]; do
		park histround
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
		park histreader
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
		park refusals
		refused 5 'probe is enabled|probe has triggers' kpmod clear || bad=$((bad + 1))
		refused 5 'probes are enabled' kpmod buffer --size $((64 << (i % 4)))K || bad=$((bad + 1))
		rmmod kpmod 2>/dev/null && { bad=$((bad + 1)); echo "rmmod succeeded"; }
		grep -q '^kpmod ' /proc/modules || { echo "module gone"; echo "$i 1" >$out/refusals; return; }
		sleep 0.2
		i=$((i + 1))
	done
	echo "$i $bad" >$out/refusals
}

# stable_stat FILE: `kpmod stat` into FILE once two readings agree (a
# handler still running elsewhere may bump a counter just after a disable).
stable_stat() {
	j=0
	while :; do
		sleep 0.3
		kpmod stat >$1.a || return 1
		sleep 0.3
		kpmod stat >$1 || return 1
		cmp -s $1.a $1 && return 0
		j=$((j + 1))
		[ $j -lt 10 ] || { echo "the counters kept changing with the probe disabled"; return 1; }
	done
}

# Every 5 s, once the others are parked: disable, remove the trigger, clear
# and resize (each must succeed now), then set the probes up again.
resetter() {
	i=0 bad=0
	while [ "$(($(now) + 8))" -lt $end ]; do
		sleep 5
		mkdir $out/pause
		waited=0
		for j in $parkers; do
			until [ -e $out/parked.$j ] || [ -s $out/$j ]; do
				sleep 0.05
				waited=$((waited + 1))
				[ $waited -lt 1200 ] || {
					# Let the parked ones go, or they would wait for ever.
					echo "reset $i: $j never paused"
					rm -f $out/parked.*
					rmdir $out/pause
					echo "$i 1" >$out/resetter
					return
				}
			done
		done
		size=$((64 << (i % 4)))
		{ kpmod disable sc/acct &&
			stable_stat $out/rs.stat &&
			set -- $(grep '^  acct ' $out/rs.stat) &&
			read -r h m d f <$out/acct.carried &&
			echo "$((h + $2)) $((m + $3)) $((d + $4)) $((f + $5))" >$out/acct.carried &&
			kpmod trigger sc/h "!$hspec" &&
			kpmod clear &&
			kpmod list >$out/rs.list && ! [ -s $out/rs.list ] &&
			kpmod buffer --size ${size}K &&
			kpmod status >$out/rs.status &&
			grep -q "^buffer:  $size KiB per CPU" $out/rs.status &&
			setup; } >$out/rs.log 2>&1 || { bad=$((bad + 1)); echo "reset $i failed:"; cat $out/rs.log; }
		rm -f $out/parked.*
		rmdir $out/pause
		i=$((i + 1))
	done
	echo "$i $bad" >$out/resetter
}

churn 1 sc &
churn 2 sc &
accountant &
readers &
histround &
histreader &
refusals &
lister &
resetter &
jobs="$parkers lister resetter"
if can_hotplug; then
	hotplug &
	jobs="$jobs hotplug"
fi
wait
# shellcheck disable=SC2086
storm_results "counting storm" $jobs

# Every hit of sc/acct: read, dropped or filtered; every call: read or
# dropped (or a kprobe miss, a hit kprobes itself did not deliver).
# Counters of a handler still running elsewhere: read until they stay.
read -r nread calls <$out/acct.read
expect_rc 0 kpmod disable sc/acct
stable_stat $out/stat1 || fail "no stable counters"
set -- $(grep '^  acct ' $out/stat1)
read -r h m d f <$out/acct.carried
hits=$(($2 + h)) misses=$(($3 + m)) dropped=$(($4 + d)) filtered=$(($5 + f))
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
