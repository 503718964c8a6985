# The snapshot trigger: `kpmod snapshot` prints the rings as they were when
# it fired (the event that fired it included with an "if", not without,
# as the kernel's), while recording goes on into the live rings; in
# discard mode and in overwrite mode; a resize frees it.  Then, where the
# kernel has snapshot triggers, the same definitions, filter and triggers
# in kprobe_events over the same workload keep the same events.
. "$KPMOD_LIB"
TKO=/kpmod/extra/kpmod_target.ko
[ -f $TKO ] || skip "no kpmod_target.ko (tests/vm/run --module-src tests/vm/modules/kpmod_target)"
POKE=/sys/module/kpmod_target/parameters/poke
insmod $TKO || fail "insmod kpmod_target"
load_kpmod
W='kpmod-work name kph-snap'
PG='p:kph/pg find_task_by_vpid nr=$arg1:s32'
PK='p:kph/poke kpmod_target:kpmod_target_poke n=$arg1:u32'

# wait_snapshots N: the worker copies soon after the trigger; wait for it.
wait_snapshots() {
	i=0
	while [ $i -lt 100 ]; do
		kpmod status | grep -q "^snapshots: $1 taken" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	kpmod status
	fail "no snapshot number $1 within 10 s"
}

# nrs FILE: the nr= values of FILE's pg events, in the order printed.
nrs() { sed -n 's/.* pg: .* nr=\([0-9-]*\)$/\1/p' "$1"; }

expect_rc 0 kpmod status
expect_grep '^snapshots: 0 taken, 0 skipped'
expect_rc 0 kpmod add "$PG" "$PK"
expect_rc 0 kpmod filter kph/pg 'comm == "kph-snap"'
expect_rc 0 kpmod trigger kph/pg 'snapshot:1 if nr == 7000300'
expect_rc 0 kpmod trigger kph/pg
expect_grep '^snapshot:count=1 if nr == 7000300$'
expect_rc 0 kpmod trigger kph/poke 'snapshot:1'

# Discard mode, no reader: the snapshot holds 7000000..7000300, the rings
# go on to 7000499.
expect_rc 0 kpmod enable kph/pg
$W getpgid 500 7000000
wait_snapshots 1
expect_rc 0 kpmod trigger kph/pg
expect_grep '^snapshot:count=0 if nr == 7000300$'
kpmod snapshot >/tmp/snap1 2>/tmp/snap1.err || fail "snapshot failed"
grep -q "the snapshot trigger's last snapshot (1 taken" /tmp/snap1.err || fail "snapshot did not say what it read"
nrs /tmp/snap1 >/tmp/got
seq 7000000 7000300 >/tmp/want
diff /tmp/want /tmp/got >/dev/null || { head -3 /tmp/got; tail -3 /tmp/got; fail "the snapshot is not 7000000..7000300 in order"; }
# Read again: a snapshot is not consumed.
kpmod snapshot 2>/dev/null | grep -c ' pg: ' | grep -qx 301 || fail "a second read of the snapshot differs"
kpmod snapshot --live >/tmp/live1 2>/dev/null || fail "snapshot --live failed"
nrs /tmp/live1 >/tmp/got
seq 7000000 7000499 >/tmp/want
diff /tmp/want /tmp/got >/dev/null || fail "the live rings did not go on recording past the snapshot"

# Without an "if", before the event: poke 1 fires it and is not in it.
expect_rc 0 kpmod enable kph/poke
echo 1 >$POKE
echo 2 >$POKE
wait_snapshots 2
kpmod snapshot >/tmp/snap2 2>/dev/null || fail "snapshot failed"
grep -q ' poke: ' /tmp/snap2 && fail "the snapshot holds the event that fired it (no if)"
kpmod snapshot --live >/tmp/live2 2>/dev/null
grep -q ' poke: .* n=1$' /tmp/live2 || fail "the live rings lack poke 1"
grep -q ' poke: .* n=2$' /tmp/live2 || fail "the live rings lack poke 2"
expect_rc 0 kpmod status
expect_grep '^snapshots: 2 taken, 0 skipped'

# A resize frees it; then overwrite mode, a ring too small for every event.
expect_rc 0 kpmod trigger kph/pg '!snapshot if nr == 7000300'
expect_rc 0 kpmod trigger kph/poke '!snapshot'
expect_rc 0 kpmod disable all
expect_rc 0 kpmod buffer --size 64K --mode overwrite
expect_rc 0 kpmod status
expect_grep '^snapshots: 0 taken'
kpmod snapshot 2>/tmp/s.err >/dev/null
grep -q "snapshot trigger" /tmp/s.err && fail "a freed snapshot was read"
expect_rc 0 kpmod trigger kph/pg 'snapshot:1 if nr == 7004000'
expect_rc 0 kpmod enable kph/pg
# On one CPU: each CPU's ring keeps its own newest, merged they would not
# be one run of numbers.
taskset -c 0 $W getpgid 5000 7000000
wait_snapshots 1
kpmod snapshot >/tmp/snap3 2>/dev/null || fail "snapshot failed"
nrs /tmp/snap3 >/tmp/got
n=$(wc -l </tmp/got)
[ "$n" -gt 100 ] && [ "$n" -lt 4001 ] || fail "an overwrite-mode snapshot kept $n events"
seq $((7004001 - n)) 7004000 >/tmp/want
diff /tmp/want /tmp/got >/dev/null || fail "the overwrite-mode snapshot is not the newest $n up to 7004000"
# The live rings went on; with the ring full, what came while the copy
# was made is dropped and counted: kept + lost + overwritten = 5010.
$W getpgid 10 7005000
kpmod snapshot --live >/tmp/live3 2>/tmp/live3.err
nrs /tmp/live3 | tail -1 | grep -qx 7005009 || { tail -3 /tmp/live3; fail "the overwrite-mode rings did not go on"; }
cat /tmp/live3.err
kept=$(sed -n 's/.*: \([0-9]*\) events, lost .*/\1/p' /tmp/live3.err)
lost=$(sed -n 's/.*, \([0-9]*\) lost before this reader started.*/\1/p' /tmp/live3.err)
over=$(sed -n 's/.*, \([0-9]*\) overwritten.*/\1/p' /tmp/live3.err)
[ -n "$kept" ] && [ -n "$over" ] || fail "no summary from snapshot --live"
set -- "$kept" "${lost:-0}" "$over"
[ $(($1 + $2 + $3)) -eq 5010 ] || fail "kept $1 + lost $2 + overwritten $3 is not 5010"
expect_rc 0 kpmod trigger kph/pg '!snapshot if nr == 7004000'
expect_rc 0 kpmod disable all
expect_rc 0 kpmod clear
expect_rc 0 kpmod buffer --size 1M --mode discard
unload_kpmod

if [ ! -e /sys/kernel/tracing/kprobe_events ] || [ ! -e /sys/kernel/tracing/snapshot ]; then
	note "no kprobe_events or snapshot here: the comparison with them is not run"
	rmmod kpmod_target
	exit 0
fi
# The oracle: both at once, on one workload; the kernel's buffer and
# kpmod's (discard, 1 MiB a CPU) both hold every event.
T=/sys/kernel/tracing
KPG='p:kpho/pg find_task_by_vpid nr=$arg1:s32'
KPK='p:kpho/poke kpmod_target:kpmod_target_poke n=$arg1:u32'
echo "$KPG" >>$T/kprobe_events || fail "kprobe_events refused $KPG"
echo "$KPK" >>$T/kprobe_events || fail "kprobe_events refused $KPK"
echo 'comm == "kph-snap"' >$T/events/kpho/pg/filter
echo 'snapshot:1 if nr == 7000300' >$T/events/kpho/pg/trigger || fail "the kernel refused the snapshot trigger"
load_kpmod
expect_rc 0 kpmod add "$PG" "$PK"
expect_rc 0 kpmod filter kph/pg 'comm == "kph-snap"'
expect_rc 0 kpmod trigger kph/pg 'snapshot:1 if nr == 7000300'
echo >$T/trace
echo 1 >$T/events/kpho/pg/enable
expect_rc 0 kpmod enable kph/pg
$W getpgid 500 7000000
echo 0 >$T/events/kpho/pg/enable
wait_snapshots 1
sed -n 's/.* pg: .* nr=\([0-9-]*\)$/\1/p' $T/snapshot >/tmp/want
kpmod snapshot >/tmp/snap4 2>/dev/null || fail "snapshot failed"
nrs /tmp/snap4 >/tmp/got
[ -s /tmp/want ] || fail "the kernel's snapshot is empty"
diff /tmp/want /tmp/got || fail "kpmod's snapshot differs from the kernel's"
# The pid of each event too, keyed by nr (unique per event).
sed -n 's/^ *kph-snap-\([0-9]*\) .* pg: .* nr=\([0-9-]*\)$/\2 \1/p' $T/snapshot | sort >/tmp/want
sed -n 's/^ *kph-snap-\([0-9]*\) .* pg: .* nr=\([0-9-]*\)$/\2 \1/p' /tmp/snap4 | sort >/tmp/got
diff /tmp/want /tmp/got >/dev/null || fail "kpmod's snapshot differs from the kernel's in pids"

# Without an "if": neither holds the event that fired it.
echo 'snapshot:1' >$T/events/kpho/poke/trigger || fail "the kernel refused snapshot:1"
expect_rc 0 kpmod trigger kph/poke 'snapshot:1'
echo 1 >$T/events/kpho/poke/enable
expect_rc 0 kpmod enable kph/poke
echo 1 >$POKE
echo 0 >$T/events/kpho/poke/enable
wait_snapshots 2
kpmod snapshot >/tmp/snap5 2>/dev/null || fail "snapshot failed"
grep -c ' poke: ' $T/snapshot | grep -qx 0 || fail "the kernel's snapshot holds the poke that fired it"
grep -c ' poke: ' /tmp/snap5 | grep -qx 0 || fail "kpmod's snapshot holds the poke that fired it"
# The kernel swaps buffers: its live buffer restarted empty at the first
# snapshot.  kpmod copies: its rings kept everything
# (doc/filters-triggers-hist.md says so).
sed -n 's/.* pg: .* nr=\([0-9-]*\)$/\1/p' $T/snapshot >/tmp/want
nrs /tmp/snap5 | awk '$1 > 7000300' >/tmp/got
[ -s /tmp/want ] || fail "the kernel's second snapshot has no pg events"
diff /tmp/want /tmp/got || fail "the second snapshots differ in the pg events after the first"
nrs /tmp/snap5 | head -1 | grep -qx 7000000 || fail "kpmod's rings lost what its first snapshot copied"

expect_rc 0 kpmod trigger kph/poke '!snapshot'
expect_rc 0 kpmod trigger kph/pg '!snapshot if nr == 7000300'
expect_rc 0 kpmod disable all
expect_rc 0 kpmod clear
unload_kpmod
echo '!snapshot:1' >$T/events/kpho/poke/trigger
echo '!snapshot:1 if nr == 7000300' >$T/events/kpho/pg/trigger
echo 0 >$T/snapshot
echo '-:kpho/pg' >>$T/kprobe_events
echo '-:kpho/poke' >>$T/kprobe_events
rmmod kpmod_target
