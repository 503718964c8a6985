# Hist tables in the module: keys, values, sort, size, the modifiers,
# pause/cont/clear, a full table's Dropped, name= (shared tables), the
# listing and removal, refusals with the kernel's messages; $duration as a
# value and a log2 key, --graph as bpftrace draws it, --interval.  (The
# other triggers: 65-triggers; the same tables in the kernel's hist:
# 69-hist-oracle.)
. "$KPMOD_LIB"
load_kpmod
W='kpmod-work name kph-work'
expect_rc 0 kpmod add 'p:kph/pg find_task_by_vpid nr=$arg1:s32'
expect_rc 0 kpmod trigger kph/pg
expect_grep '^# Available triggers:'

# A table: 10 keys, 3 hits each; the probe is not enabled, the hist runs.
expect_rc 0 kpmod trigger kph/pg 'hist:keys=nr:sort=nr if comm == "kph-work"'
for i in 1 2 3; do $W getpgid 10 7000000; done
expect_rc 0 kpmod hist kph/pg
cat >/tmp/want <<'END'
# event histogram
#
# trigger info: hist:keys=nr:vals=hitcount:sort=nr:size=2048 if comm == "kph-work" [active]
#

END
for i in 0 1 2 3 4 5 6 7 8 9; do
	printf '{ nr:    700000%d } hitcount:          3\n' $i >>/tmp/want
done
printf '\nTotals:\n    Hits: 30\n    Entries: 10\n    Dropped: 0\n' >>/tmp/want
diff /tmp/want /tmp/.out || fail "hist table not as expected"
expect_rc 0 kpmod trigger kph/pg
expect_grep '^hist:keys=nr:vals=hitcount:sort=nr:size=2048 if comm == "kph-work" \[active\]$'
expect_rc 0 kpmod stat
set -- $(grep '^  pg ' /tmp/.out)
[ "$2" -eq 0 ] || fail "a probe not enabled counted $2 hits"

# pause, cont, clear act on the existing table.
expect_rc 0 kpmod trigger kph/pg 'hist:keys=nr:sort=nr:pause if comm == "kph-work"'
$W getpgid 10 7000000
expect_rc 0 kpmod hist kph/pg
expect_grep '^    Hits: 30$'
expect_grep ' \[paused\]$'
expect_rc 0 kpmod trigger kph/pg 'hist:keys=nr:sort=nr:cont if comm == "kph-work"'
$W getpgid 1 7000000
expect_rc 0 kpmod hist kph/pg
expect_grep '^{ nr:    7000000 } hitcount:          4$'
expect_rc 0 kpmod trigger kph/pg 'hist:keys=nr:sort=nr:clear if comm == "kph-work"'
expect_rc 0 kpmod hist kph/pg
expect_grep '^    Hits: 0$'
expect_grep '^    Entries: 0$'
expect_rc 5 kpmod trigger kph/pg 'hist:keys=nr:sort=nr:clear'
expect_grep "Can't clear or continue a nonexistent hist trigger"
expect_rc 5 kpmod trigger kph/pg 'hist:keys=nr:sort=nr if comm == "kph-work"'
expect_grep 'Hist trigger already exists'

# A probe with triggers cannot go; removing them lets it.
expect_rc 5 kpmod del kph/pg
expect_grep 'remove them first'
expect_rc 0 kpmod trigger kph/pg '!hist:keys=nr:sort=nr if comm == "kph-work"'
expect_rc 0 kpmod trigger kph/pg
expect_grep '^# Available triggers:'
expect_rc 5 kpmod trigger kph/pg '!hist:keys=nr'
expect_grep 'no such trigger'

# log2, buckets, values, max/min, execname, two keys, sort descending.
expect_rc 0 kpmod trigger kph/pg 'hist:keys=nr.buckets=4:vals=nr,nr.max if comm == "kph-work"'
expect_rc 0 kpmod trigger kph/pg 'hist:keys=common_pid.execname,nr.log2:sort=hitcount.descending if comm == "kph-work"'
$W getpgid 10 7000000
expect_rc 0 kpmod hist kph/pg
expect_grep '^{ nr: ~ 7000000-7000003 } hitcount:          4  nr:   28000006  nr.max:    7000003$'
expect_grep '^{ nr: ~ 7000008-7000011 } hitcount:          2  nr:   14000017  nr.max:    7000009$'
expect_grep '^{ common_pid: kph-work        \[ *[0-9]*\], nr: ~ 2^23 } hitcount:         10$'
expect_rc 0 kpmod trigger kph/pg '!hist:keys=nr.buckets=4:vals=hitcount,nr,nr.max:sort=hitcount:size=2048 if comm == "kph-work"'
expect_rc 0 kpmod trigger kph/pg '!hist:keys=common_pid.execname,nr.log2:vals=hitcount:sort=hitcount.descending:size=2048 if comm == "kph-work"'

# .max, .min and .avg of a signed field in its sign (sums wrap as the
# kernel's); .log2 of a negative (above 2^63 as a u64) is 2^64.
N='kpmod-work name kph-neg'
expect_rc 0 kpmod trigger kph/pg 'hist:keys=nr.log2:vals=nr.max,nr.min if comm == "kph-neg"'
expect_rc 0 kpmod trigger kph/pg 'hist:keys=common_pid:vals=nr.avg,nr if comm == "kph-neg"'
$N getpgid 3 -5
expect_rc 0 kpmod hist kph/pg
expect_grep '^{ nr: ~ 2^64 } hitcount:          3  nr.max:         -3  nr.min:         -5$'
expect_grep '^{ common_pid: *[0-9]* } hitcount:          3  nr.avg:         -4  nr: 18446744073709551604$'
expect_rc 0 kpmod hist --json kph/pg
expect_grep '"nr.max":-3,"nr.min":-5'
expect_rc 0 kpmod trigger kph/pg '!hist:keys=nr.log2:vals=nr.max,nr.min if comm == "kph-neg"'
expect_rc 0 kpmod trigger kph/pg '!hist:keys=common_pid:vals=nr.avg,nr if comm == "kph-neg"'

# A full table drops the updates of new keys and counts them.
expect_rc 0 kpmod trigger kph/pg 'hist:keys=nr:size=100 if comm == "kph-work"'
$W getpgid 200 7000000
expect_rc 0 kpmod hist kph/pg
expect_grep '^# trigger info: hist:keys=nr:vals=hitcount:sort=hitcount:size=128 if'
expect_grep '^    Hits: 128$'
expect_grep '^    Entries: 128$'
expect_grep '^    Dropped: 72$'
expect_rc 0 kpmod trigger kph/pg '!hist:keys=nr:vals=hitcount:sort=hitcount:size=128 if comm == "kph-work"'

# name=: hists of one name share one table, on any probes whose keys and
# values are alike (the first's size kept); pause is each trigger's own,
# clear empties the shared table; it outlives its first trigger.
expect_rc 0 kpmod add 'p:kph/pg3 find_task_by_vpid nr=$arg1:s32' \
	'p:kph/pgu find_task_by_vpid nr=$arg1:u64'
expect_rc 0 kpmod trigger kph/pg 'hist:name=kn:keys=nr:sort=nr if comm == "kph-work"'
expect_rc 0 kpmod trigger kph/pg3 'hist:keys=nr:name=kn:sort=nr:size=256 if comm == "kph-work"'
$W getpgid 5 7000000
cat >/tmp/want <<'END'
# event histogram
#
# trigger info: hist:name=kn:keys=nr:vals=hitcount:sort=nr:size=2048 if comm == "kph-work" [active]
#

END
for i in 0 1 2 3 4; do
	printf '{ nr:    700000%d } hitcount:          2\n' $i >>/tmp/want
done
printf '\nTotals:\n    Hits: 10\n    Entries: 5\n    Dropped: 0\n' >>/tmp/want
for ev in pg pg3; do
	expect_rc 0 kpmod hist kph/$ev
	diff /tmp/want /tmp/.out || fail "name=kn: kph/$ev's table not the shared one"
done
expect_rc 0 kpmod trigger kph/pg3
expect_grep '^hist:name=kn:keys=nr:vals=hitcount:sort=nr:size=2048 if comm == "kph-work" \[active\]$'
expect_rc 5 kpmod trigger kph/pg3 'hist:name=kn:keys=nr:sort=nr:size=4096 if comm == "kph-work"'
expect_grep 'Hist trigger already exists'
# Unlike in keys, or in a key's type (s32 against u64): refused, error_log's way.
expect_rc 8 kpmod trigger kph/pgu 'hist:name=kn:keys=nr:sort=nr if comm == "kph-work"'
expect_grep "error: Named hist trigger doesn't match existing named trigger (includes variables)"
grep -qx '  Command: hist:name=kn:keys=nr:sort=nr if comm == "kph-work"' /tmp/.out || fail "no Command: line"
grep -qx '                ^' /tmp/.out || fail "the caret is not under 'name=kn'"
expect_rc 8 kpmod trigger kph/pg 'hist:name=kn:keys=nr.log2'
expect_grep "error: Named hist trigger doesn't match"
expect_rc 0 kpmod trigger kph/pgu
expect_grep '^# Available triggers:'
expect_rc 0 kpmod trigger kph/pg3 'hist:name=kn:keys=nr:sort=nr:pause if comm == "kph-work"'
$W getpgid 1 7000000
expect_rc 0 kpmod hist kph/pg
expect_grep '^    Hits: 11$'
expect_grep ' \[active\]$'
expect_rc 0 kpmod hist kph/pg3
expect_grep '^    Hits: 11$'
expect_grep ' \[paused\]$'
expect_rc 0 kpmod trigger kph/pg3 'hist:name=kn:keys=nr:sort=nr:cont if comm == "kph-work"'
expect_rc 0 kpmod trigger kph/pg3 'hist:name=kn:keys=nr:sort=nr:clear if comm == "kph-work"'
expect_rc 0 kpmod hist kph/pg
expect_grep '^    Hits: 0$'
expect_rc 0 kpmod trigger kph/pg '!hist:name=kn:keys=nr:sort=nr if comm == "kph-work"'
$W getpgid 2 7000000
expect_rc 0 kpmod hist kph/pg3
expect_grep '^{ nr:    7000001 } hitcount:          1$'
expect_grep '^    Hits: 2$'
expect_rc 0 kpmod trigger kph/pg3 '!hist:name=kn:keys=nr:sort=nr:size=128 if comm == "kph-work"'
# The name is free again: a new table, of another shape.
expect_rc 0 kpmod trigger kph/pgu 'hist:name=kn:keys=nr.log2'
expect_rc 0 kpmod trigger kph/pgu '!hist:name=kn:keys=nr.log2'
expect_rc 0 kpmod del kph/pg3 kph/pgu

# Refusals: error_log's words and caret, exit 8; nothing added.
expect_rc 8 kpmod trigger kph/pg 'hist:keys=nosuch'
expect_grep "hist:kph:pg: error: Couldn't find field"
grep -qx '  Command: hist:keys=nosuch' /tmp/.out || fail "no Command: line"
grep -qx '                     ^' /tmp/.out || fail "the caret is not under 'nosuch'"
expect_rc 8 kpmod trigger kph/pg 'hist:keys=nr.foo'
expect_grep 'error: Invalid field modifier'
expect_rc 8 kpmod trigger kph/pg 'hist:keys=nr:sort=nosuch'
expect_grep 'error: Sort field must be a key or a val'
expect_rc 8 kpmod trigger kph/pg 'hist:keys=nr:sort=nr.up'
expect_grep 'error: Invalid sort modifier'
expect_rc 7 kpmod trigger kph/pg 'hist:keys=nr if nr = 1'
expect_grep '^parse_error: Invalid operator$'
expect_rc 8 kpmod trigger kph/pg 'nosuch'
expect_grep '^kpmod: trigger: kph/pg: no such trigger command$'
expect_rc 0 kpmod trigger kph/pg
expect_grep '^# Available triggers:'

expect_rc 0 kpmod add 'r:kph/pg2 find_task_by_vpid d=$duration'
# $duration: a return probe's time since the call, here of 0.2 s sleeps,
# as a hist value (min and max) and as a log2 latency histogram.
expect_rc 0 kpmod add 'r:kph/sl hrtimer_nanosleep d=$duration'
expect_rc 0 kpmod trigger kph/sl 'hist:keys=__probe_func.sym:vals=d.min,d.max if comm == "sleep"'
expect_rc 0 kpmod trigger kph/pg2 'hist:keys=d.log2:vals=d if comm == "kph-work"'
for i in 1 2 3; do sleep 0.2; done
$W getpgid 100 7000000
expect_rc 0 kpmod hist kph/sl
set -- $(grep '^{ __probe_func: ' /tmp/.out | sed 's/.*hitcount://')
[ "$1" -eq 3 ] || fail "3 sleeps, $1 in the table"
[ "$3" -ge 200000000 ] && [ "$5" -lt 2000000000 ] || fail "0.2 s sleeps measured $3..$5 ns"
expect_rc 0 kpmod hist kph/pg2
expect_grep '^    Hits: 100$'
grep '^{ d: ~ 2^' /tmp/.out | awk '{ if ($4 + 0 > 26) exit 1 }' || fail "a lookup took over 2^26 ns"
# As bpftrace draws it: one row per bucket, counts adding up to the hits.
expect_rc 0 kpmod hist --graph kph/pg2
expect_grep '^@d:$'
[ "$(grep '^[[(]' /tmp/.out | awk '{ n += $3 } END { print n }')" -eq 100 ] ||
	fail "--graph rows do not add up to 100"
# --interval: printed and cleared every second, and at Ctrl-C what came
# since.  Hits go on while rounds are read and cleared (a workload across
# them): each is in one round, so the rounds add up to every hit.
kpmod hist --interval 1 kph/pg2 >/tmp/iv.txt 2>&1 &
ipid=$!
sleep 1.5
$W getpgid 30 7000000
for i in 1 2 3 4 5 6 7 8 9 10; do
	$W getpgid 200 7000000
	sleep 0.2
done
kill -INT $ipid
wait $ipid || { rc=$?; cat /tmp/iv.txt; fail "hist --interval exited $rc"; }
cat /tmp/iv.txt
[ "$(grep -c '^# event histogram' /tmp/iv.txt)" -ge 3 ] || fail "fewer than 3 intervals printed"
[ "$(grep '^    Hits: ' /tmp/iv.txt | awk '{ n += $2 } END { print n }')" -eq 2130 ] ||
	fail "the intervals' hits do not add up to 100 + 30 + 10 x 200"
expect_rc 0 kpmod hist kph/pg2
expect_grep '^    Hits: 0$'
expect_rc 0 kpmod trigger kph/sl '!hist:keys=__probe_func.sym:vals=d.min,d.max if comm == "sleep"'
expect_rc 0 kpmod trigger kph/pg2 '!hist:keys=d.log2:vals=d if comm == "kph-work"'
expect_rc 79 kpmod add 'p:kph/bad hrtimer_nanosleep d=$duration'
expect_grep 'duration is only for return probes'
expect_rc 0 kpmod clear
unload_kpmod

