# The soak: kpmod record at the highest rate the guest gives while a second
# process toggles probes, cycle after cycle for KPMOD_SOAK_SECS (default
# 30; `make stress`: 600), then report checked event by event:
#   - every probe's events in the file = its hits - filtered - dropped
#     (kpmod stat before and after: no probe is enabled outside a cycle);
#   - soak/seq, never toggled, sees every call of every worker: its events
#     plus its drops are exactly the calls made, each worker's pid
#     arguments strictly increasing (in order), none out of its range;
#   - the file's LOST lines add up to the probes' drops, no more, no less
#     (less the events lost to a nested handler, which are no ring's);
#   - timestamps never go back.
# A worker per CPU makes KPMOD_SOAK_CALLS getpgid calls (default 100,000)
# as fast as it can: the record file, in the guest's memory, stays bounded
# (a new one each cycle) while the rings overflow.  The ring size changes
# between cycles (64K, 256K, 1M): resizing while nothing is enabled.
. "$KPMOD_LIB"
secs=${KPMOD_SOAK_SECS:-30}
calls=${KPMOD_SOAK_CALLS:-100000}
ncpu=$(grep -c ^processor /proc/cpuinfo)
now() { cut -d. -f1 /proc/uptime; }
first=9000000

load_kpmod
expect_rc 0 kpmod add 'p:soak/seq find_task_by_vpid nr=$arg1:s32' \
	'p:soak/t1 find_task_by_vpid nr=$arg1:s32 c=$comm' \
	'r:soak/t2 find_task_by_vpid ret=$retval'
# Only the workers pass: other callers ask for pids that exist.
expect_rc 0 kpmod filter soak/seq "nr >= $first"
expect_rc 0 kpmod filter soak/t1 "nr >= $first"

# stats FILE: "event hits dropped filtered misses" per probe, once they
# stay the same (a handler still running elsewhere as its probe was
# disabled may still count).
stats() {
	i=0
	: >/tmp/soak.prev
	while :; do
		kpmod stat >/tmp/soak.stat || fail "kpmod stat failed"
		awk '$1 ~ /^(seq|t1|t2)$/ { print $1, $2, $4, $5, $3 }' /tmp/soak.stat >"$1"
		[ "$(wc -l <"$1")" -eq 3 ] || { cat /tmp/soak.stat; fail "stat lacks a probe"; }
		cmp -s "$1" /tmp/soak.prev && return
		cp "$1" /tmp/soak.prev
		i=$((i + 1))
		[ $i -lt 10 ] || fail "the counters kept changing with every probe disabled"
		sleep 0.3
	done
}

# wait_rings PID: the recorder has mapped every CPU's ring (two maps each)
# and taken its baseline, before anything is enabled.
wait_rings() {
	i=0
	while [ "$(grep -c /dev/kpmod /proc/"$1"/maps 2>/dev/null)" -lt $((2 * ncpu)) ]; do
		kill -0 "$1" 2>/dev/null || fail "record exited before attaching"
		i=$((i + 1))
		[ $i -lt 600 ] || fail "record did not map the rings within 60 s"
		sleep 0.1
	done
	sleep 1
}

toggler() {
	while [ ! -e /tmp/soak.stop ]; do
		kpmod enable soak/t1 soak/t2 >/dev/null 2>&1 || echo enable >>/tmp/soak.bad
		kpmod disable soak/t1 soak/t2 >/dev/null 2>&1 || echo disable >>/tmp/soak.bad
		echo >>/tmp/soak.toggles
	done
}

end=$(($(now) + secs))
cycle=0 all_events=0 all_lost=0 all_calls=0
rm -f /tmp/soak.toggles /tmp/soak.bad
while [ $cycle -eq 0 ] || [ "$(now)" -lt $end ]; do
	size=$((64 << (2 * (cycle % 3))))K
	expect_rc 0 kpmod buffer --size $size
	kpmod record -o /tmp/soak.kpm 2>/tmp/soak.rec &
	rpid=$!
	wait_rings $rpid
	stats /tmp/soak.s0
	expect_rc 0 kpmod enable soak/seq
	rm -f /tmp/soak.stop
	toggler &
	tpid=$!
	cpu=0 workers=
	while [ $cpu -lt "$ncpu" ]; do
		taskset -c $cpu kpmod-work getpgid "$calls" $((first + cpu * calls)) &
		workers="$workers $!"
		cpu=$((cpu + 1))
	done
	# The workers, then the toggler (it stops after its round).
	for j in $workers; do
		wait "$j" || fail "worker $j exited $?"
	done
	touch /tmp/soak.stop
	wait $tpid
	expect_rc 0 kpmod disable all
	stats /tmp/soak.s1
	kill -INT $rpid
	wait $rpid
	rc=$?
	[ $rc -eq 0 ] || { cat /tmp/soak.rec; fail "cycle $cycle: record exited $rc"; }
	# Its rings' events lost to a nested handler, since it attached.
	nested=$(sed -n 's/.*, nested \([0-9]*\)$/\1/p' /tmp/soak.rec)
	[ -n "$nested" ] || { cat /tmp/soak.rec; fail "record printed no summary"; }

	kpmod report /tmp/soak.kpm 2>/tmp/soak.rep.err | awk -v first=$first -v calls=$calls \
		-v ncpu="$ncpu" -v cycle=$cycle '
	function fail(m) { print "FAIL: cycle " cycle ": " m; bad = 1; exit 1 }
	/^CPU:[0-9]+ \[LOST [0-9]+ EVENTS\]$/ { sub(/.*LOST /, ""); lost += $1; next }
	{
		if (!match($0, / [0-9]+\.[0-9]+: /)) fail("not an event: " $0)
		ts = substr($0, RSTART + 1, RLENGTH - 3) + 0
		if (ts < last) fail("time goes back: " $0)
		last = ts
		rest = substr($0, RSTART + RLENGTH)
		ev = substr(rest, 1, index(rest, ":") - 1)
		n[ev]++
		if (ev != "seq") next
		task = substr($0, 1, RSTART)
		sub(/^ */, "", task); sub(/ .*/, "", task)
		if (!match(rest, / nr=[0-9]+$/)) fail("no nr: " $0)
		nr = substr(rest, RSTART + 4) + 0
		w = int((nr - first) / calls)
		if (w < 0 || w >= ncpu) fail("nr " nr " is no worker of this cycle")
		if (task in prev && nr <= prev[task]) fail(task ": nr " nr " after " prev[task])
		if (task in worker && worker[task] != w) fail(task ": nr of two workers")
		prev[task] = nr; worker[task] = w
	}
	END {
		if (bad) exit 1
		printf "%d %d %d %d\n", n["seq"], n["t1"], n["t2"], lost
	}' >/tmp/soak.got || { tail -3 /tmp/soak.got; fail "cycle $cycle: the report is wrong"; }
	[ -s /tmp/soak.rep.err ] && { cat /tmp/soak.rep.err; fail "cycle $cycle: report complained"; }
	read -r got_seq got_t1 got_t2 got_lost </tmp/soak.got

	# Counters: after minus before.
	# shellcheck disable=SC2046
	set -- $(awk 'NR == FNR { h[$1] = $2; d[$1] = $3; f[$1] = $4; m[$1] = $5; next }
		{ print $1, $2 - h[$1], $3 - d[$1], $4 - f[$1], $5 - m[$1] }' /tmp/soak.s0 /tmp/soak.s1 | sort)
	dropped_all=0
	for ev in seq t1 t2; do
		[ "$1" = $ev ] || fail "stat order: $1"
		hits=$2 dropped=$3 filtered=$4 misses=$5
		shift 5
		case $ev in
		seq) got=$got_seq ;;
		t1) got=$got_t1 ;;
		*) got=$got_t2 ;;
		esac
		[ "$got" -eq $((hits - filtered - dropped)) ] ||
			fail "cycle $cycle: $ev: $got events in the file, hits $hits - filtered $filtered - dropped $dropped"
		dropped_all=$((dropped_all + dropped))
		[ $ev = seq ] && seq_dropped=$dropped seq_misses=$misses
	done
	# Exact unless kprobes missed a call (counted as a miss) or a nested
	# handler's hit from elsewhere was dropped before its filter ran.
	made=$((ncpu * calls))
	[ $((got_seq + seq_dropped)) -le $((made + nested)) ] &&
		[ $((got_seq + seq_dropped + seq_misses)) -ge $made ] ||
		fail "cycle $cycle: seq: $got_seq events + $seq_dropped dropped, $made calls made ($seq_misses misses, $nested nested)"
	[ "$got_lost" -eq $((dropped_all - nested)) ] ||
		fail "cycle $cycle: LOST lines say $got_lost, the probes dropped $dropped_all ($nested nested)"
	note "cycle $cycle ($size rings): $got_seq + $got_t1 + $got_t2 events, $got_lost lost, $made calls"
	all_events=$((all_events + got_seq + got_t1 + got_t2))
	all_lost=$((all_lost + got_lost))
	all_calls=$((all_calls + made))
	rm -f /tmp/soak.kpm
	cycle=$((cycle + 1))
done
[ -s /tmp/soak.bad ] && { sort /tmp/soak.bad | uniq -c; fail "the toggler's commands failed"; }
toggles=$(wc -l </tmp/soak.toggles)
[ "$toggles" -gt 0 ] || fail "the toggler never toggled"
note "soak of $secs s: $cycle cycles, $all_calls calls, $all_events events checked, $all_lost lost, $toggles toggles"
unload_kpmod
exit 0
