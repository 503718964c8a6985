# Triggers in the module: hist tables (keys, values, sort, size, the
# modifiers, pause/cont/clear, a full table's Dropped), traceon/traceoff,
# enable_event, the listing and removal, refusals with the kernel's
# messages.  Then, where the kernel has hist triggers, the same trigger
# strings on the same probe in kprobe_events and in kpmod over one
# workload: every table must be the same (header, entries, totals), and a
# refused trigger must give error_log's message and caret.
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

# traceoff on the 6th event stops the rings: 5 events recorded.
expect_rc 0 kpmod enable kph/pg
expect_rc 0 kpmod trigger kph/pg 'traceoff:1 if nr == 7000005'
expect_rc 0 kpmod trigger kph/pg
expect_grep '^traceoff:count=1 if nr == 7000005$'
capture_trace /tmp/t.txt -- $W getpgid 10 7000000
expect_rc 0 kpmod tracing
expect_grep '^off$'
expect_rc 0 kpmod trigger kph/pg
expect_grep '^traceoff:count=0 if nr == 7000005$'
grep ' kph-work-' /tmp/t.txt | sed 's/.* nr=//' >/tmp/v.txt
seq 7000000 7000004 | diff - /tmp/v.txt || fail "traceoff: not the 5 events before it"
expect_rc 0 kpmod tracing on
expect_rc 0 kpmod trigger kph/pg '!traceoff'
expect_rc 0 kpmod disable kph/pg

# stacktrace:2 on a probe not enabled: two stack records and none of the
# events; each starts in the probed function, its callers below, in text
# as ftrace's "<stack trace>" entries and in JSON as arrays.
expect_rc 0 kpmod trigger kph/pg 'stacktrace:2 if nr >= 7000003'
expect_rc 0 kpmod trigger kph/pg
expect_grep '^stacktrace:count=2 if nr >= 7000003$'
capture_trace /tmp/t.txt -- $W getpgid 10 7000000
[ "$(grep -c ' kph-work-.* <stack trace>$' /tmp/t.txt)" -eq 2 ] ||
	{ cat /tmp/t.txt; fail "stacktrace:2 did not give exactly 2 stacks"; }
[ "$(grep -A 1 '<stack trace>$' /tmp/t.txt | grep -c '^ => find_task_by_vpid+0x')" -eq 2 ] ||
	{ cat /tmp/t.txt; fail "a stack does not start in find_task_by_vpid"; }
# Down to the system call's entry.  (arm64 unwinds by frame records: from
# a function's first instruction its caller, __arm64_sys_getpgid, is not
# seen, in the kernel's own stack traces either.)
grep -q '^ => \(entry_SYSCALL_64\|el0t_64_sync\|el0_sync\)' /tmp/t.txt ||
	{ cat /tmp/t.txt; fail "no stack down to the system call's entry"; }
grep -q ' pg: ' /tmp/t.txt && fail "pg, not enabled, recorded events"
expect_rc 0 kpmod trigger kph/pg
expect_grep '^stacktrace:count=0 if nr >= 7000003$'
expect_rc 0 kpmod trigger kph/pg '!stacktrace'
expect_rc 0 kpmod enable kph/pg
expect_rc 0 kpmod trigger kph/pg 'stacktrace:1 if nr == 7000001'
capture /tmp/t.txt "trace --json" -- $W getpgid 3 7000000
# The stack right after its event (nr 7000001): same task, same time.
grep '"task":"kph-work"' /tmp/t.txt >/tmp/j.txt
[ "$(grep -c '"kind":"stack"' /tmp/j.txt)" -eq 1 ] || { cat /tmp/t.txt; fail "--json: not exactly one stack"; }
sed -n 2p /tmp/j.txt | grep -q '7000001' || { cat /tmp/j.txt; fail "--json: 2nd event not nr 7000001"; }
sed -n 3p /tmp/j.txt | grep -q '"kind":"stack","stack":\[{"ip":"0x[0-9a-f]*","sym":"find_task_by_vpid+0x' ||
	{ cat /tmp/j.txt; fail "--json: the stack does not follow nr 7000001"; }
[ "$(sed -n 2p /tmp/j.txt | cut -d, -f1)" = "$(sed -n 3p /tmp/j.txt | cut -d, -f1)" ] ||
	{ cat /tmp/j.txt; fail "--json: the stack's time is not its event's"; }
expect_rc 0 kpmod trigger kph/pg '!stacktrace'
expect_rc 0 kpmod disable kph/pg

# enable_event: pg2, on the same calls' return, is armed but records
# nothing until nr 7000005.
expect_rc 0 kpmod add 'r:kph/pg2 find_task_by_vpid nr=$arg1:s32'
expect_rc 0 kpmod trigger kph/pg 'enable_event:kph:pg2:1 if nr == 7000005'
expect_rc 5 kpmod del kph/pg2
capture_trace /tmp/t.txt -- $W getpgid 10 7000000
grep ' kph-work-.* pg2: ' /tmp/t.txt | sed 's/.* nr=//' >/tmp/v.txt
seq 7000005 7000009 | diff - /tmp/v.txt || fail "enable_event: not the events from 7000005 on"
grep -q ' pg: ' /tmp/t.txt && fail "pg, not enabled, recorded events"
expect_rc 0 kpmod trigger kph/pg '!enable_event:kph:pg2'
expect_rc 0 kpmod del kph/pg2
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
# --interval: printed and cleared every second; the intervals add up.
kpmod hist --interval 1 kph/pg2 >/tmp/iv.txt 2>&1 &
ipid=$!
sleep 1.5
$W getpgid 30 7000000
sleep 1
$W getpgid 20 7000000
sleep 1.5
kill -INT $ipid
wait $ipid || { rc=$?; cat /tmp/iv.txt; fail "hist --interval exited $rc"; }
cat /tmp/iv.txt
[ "$(grep -c '^# event histogram' /tmp/iv.txt)" -ge 3 ] || fail "fewer than 3 intervals printed"
[ "$(grep '^    Hits: ' /tmp/iv.txt | awk '{ n += $2 } END { print n }')" -eq 150 ] ||
	fail "the intervals' hits do not add up to 100 + 30 + 20"
expect_rc 0 kpmod trigger kph/sl '!hist:keys=__probe_func.sym:vals=d.min,d.max if comm == "sleep"'
expect_rc 0 kpmod trigger kph/pg2 '!hist:keys=d.log2:vals=d if comm == "kph-work"'
expect_rc 79 kpmod add 'p:kph/bad hrtimer_nanosleep d=$duration'
expect_grep 'duration is only for return probes'
expect_rc 0 kpmod clear
unload_kpmod

if [ ! -e /sys/kernel/tracing/kprobe_events ]; then
	note "no kprobe_events here: the comparison with it is not run"
	exit 0
fi
T=/sys/kernel/tracing
def='p:kpho/pg find_task_by_vpid nr=$arg1:s32'
echo "$def" >>$T/kprobe_events || fail "kprobe_events refused $def"
if [ ! -e $T/events/kpho/pg/hist ]; then
	echo '-:kpho/pg' >>$T/kprobe_events
	note "no hist triggers in this kernel: the comparison with it is not run"
	exit 0
fi
rdef='r:kpho/rp find_task_by_vpid ret=$retval:x64'
echo "$rdef" >>$T/kprobe_events || fail "kprobe_events refused $rdef"
load_kpmod
expect_rc 0 kpmod add "$def" "$rdef"
F='if comm == "kph-work"'
# Not __probe_ret_ip: of two return probes on one function, the one whose
# entry handler runs second finds the return address already replaced by
# the first's trampoline (arch_rethook_trampoline), as two kprobe_events
# return probes would.
cat >/tmp/specs <<END
pg hist:keys=nr $F
pg hist:keys=nr:sort=nr.descending $F
pg hist:keys=nr.log2:vals=nr:sort=nr $F
pg hist:keys=nr.buckets=8:vals=hitcount,nr:sort=nr $F
pg hist:keys=nr.hex,common_pid.execname:sort=nr,hitcount.descending:size=256 $F
pg hist:keys=nr:size=128 $F
pg hist:keys=common_cpu:vals=nr $F
pg hist:keys=cpu,nr.buckets=50:vals=nr.hex:sort=nr $F
pg hist:key=nr.buckets=16:values=nr,hitcount:sort=hitcount.descending,nr $F
pg hist:keys=nr:vals=nr.percent:sort=nr if nr > 7000100 && comm == "kph-work"
pg hist:keys=__probe_ip.sym:vals=nr $F
rp hist:keys=__probe_func.sym-offset:vals=ret $F
rp hist:keys=ret.hex $F
END
# The kernel's table of kpho/$1 against kpmod's, $2 the trigger string.
same_hist() {
	cat $T/events/kpho/$1/hist >/tmp/k.txt
	kpmod hist kpho/$1 >/tmp/m.txt || fail "kpmod hist failed"
	# Line for line, entries equal on every sort field included: their
	# order is what the kernel's heapsort leaves, and kpmod's must be it.
	for f in k m; do
		sed -n '1,/^$/p' /tmp/$f.txt >/tmp/$f.head
		grep '^{' /tmp/$f.txt >/tmp/$f.ent
		sed -n '/^Totals:/,$p' /tmp/$f.txt >/tmp/$f.tot
	done
	# From the change that added common_comm keys (after 6.12), the
	# kernel's trigger info prints a CPU key as "common_cpu" followed by
	# the name it was given ("keys=common_cpucommon_cpu:",
	# "common_cpucpu": hist_field_print() has an `if` where `else if`
	# was meant); the table itself is right.  Compared as the kernels
	# before it print it.
	if grep -Eq 'common_cpu(common_)?cpu' /tmp/k.head; then
		note "the kernel's trigger info says $(grep -Eo 'common_cpu(common_)?cpu' /tmp/k.head | head -n 1): compared as common_cpu"
		sed -Ei 's/common_cpu(common_)?cpu/common_cpu/g' /tmp/k.head
	fi
	for part in head ent tot; do
		diff /tmp/k.$part /tmp/m.$part >/tmp/d.txt ||
			{ cat /tmp/d.txt; fail "'$2' on $1: kpmod's $part differs from the kernel's"; }
	done
	note "'$2' on $1: $(wc -l </tmp/m.ent) entries alike"
}
n=0
while read -r ev spec; do
	n=$((n + 1))
	printf '%s\n' "$spec" >>$T/events/kpho/$ev/trigger || fail "the kernel refused '$spec'"
	expect_rc 0 kpmod trigger kpho/$ev "$spec"
	$W getpgid 300 7000000
	$W getpgid 50 7000100
	# Negative values too, but not for .log2: the kernel's log2 of a value
	# past 2^63 is undefined behaviour, and kernels differ on it.
	case $spec in *log2*) ;; *) $W getpgid 5 -7 ;; esac
	# Ten keys of 3 hits each: ties on the sort field, in an order only
	# the kernel's sort decides.
	k=1
	while [ $k -le 10 ]; do
		$W getpgid 3 $((7000200 + k))
		k=$((k + 1))
	done
	same_hist "$ev" "$spec"
	printf '!%s\n' "$spec" >>$T/events/kpho/$ev/trigger
	expect_rc 0 kpmod trigger kpho/$ev "!$spec"
done </tmp/specs
[ "$n" -eq 13 ] || fail "only $n specs ran"

# name=: two probes on the same calls share one named table, in the
# kernel and in kpmod (the second's size= ignored for the first's); each
# event's table alike; one unlike in keys refused as error_log says.
def3='p:kpho/pg3 find_task_by_vpid nr=$arg1:s32'
echo "$def3" >>$T/kprobe_events || fail "kprobe_events refused $def3"
expect_rc 0 kpmod add "$def3"
for ev in pg pg3; do
	spec="hist:name=kpho_n:keys=nr:vals=nr:sort=nr.descending $F"
	[ $ev = pg3 ] && spec="hist:name=kpho_n:keys=nr:vals=nr:sort=nr.descending:size=128 $F"
	printf '%s\n' "$spec" >>$T/events/kpho/$ev/trigger || fail "the kernel refused '$spec'"
	expect_rc 0 kpmod trigger kpho/$ev "$spec"
done
$W getpgid 40 7000000
$W getpgid 5 -7
for ev in pg pg3; do
	same_hist $ev "hist:name=kpho_n"
done
grep -q '^    Hits: 90$' /tmp/m.txt || fail "name=: 2 x 45 hits not in the shared table"
spec='hist:name=kpho_n:keys=ret:vals=ret'
echo >$T/error_log
printf '%s\n' "$spec" >>$T/events/kpho/rp/trigger 2>/dev/null && fail "the kernel took '$spec'"
tail -n 3 $T/error_log | sed 's/^\[[ 0-9.]*\] //' >/tmp/k.txt
kpmod trigger kpho/rp "$spec" 2>&1 | tail -n 3 >/tmp/m.txt
diff /tmp/k.txt /tmp/m.txt >/tmp/d.txt ||
	{ cat /tmp/d.txt; fail "'$spec': kpmod's error differs from error_log's"; }
note "'$spec': $(head -n 1 /tmp/m.txt)"
for ev in pg pg3; do
	spec="!hist:name=kpho_n:keys=nr:vals=nr:sort=nr.descending $F"
	printf '%s\n' "$spec" >>$T/events/kpho/$ev/trigger || fail "the kernel refused '$spec'"
	expect_rc 0 kpmod trigger kpho/$ev "$spec"
done
echo '-:kpho/pg3' >>$T/kprobe_events
expect_rc 0 kpmod del kpho/pg3

# A stacktrace key: one call path, so one entry in each, its hitcount
# the same and its frames below find_task_by_vpid the same, offsets
# included (the kernel's start with its own handler's frames and stop at
# 16 with them, so its list may end sooner: a prefix of kpmod's).
spec="hist:keys=stacktrace $F"
printf '%s\n' "$spec" >>$T/events/kpho/pg/trigger || fail "the kernel refused '$spec'"
expect_rc 0 kpmod trigger kpho/pg "$spec"
$W getpgid 10 7000000
cat $T/events/kpho/pg/hist >/tmp/k.txt
kpmod hist kpho/pg >/tmp/m.txt || fail "kpmod hist failed"
for f in k m; do
	# (6.12 calls it common_stacktrace.)
	awk '/^\{ (common_)?stacktrace:$/ { s = 0; next }
	     /^\} hitcount:/ { print "hitcount " $3; next }
	     s { print $1 } /^ *find_task_by_vpid\+/ { s = 1 }' /tmp/$f.txt >/tmp/$f.sk
	[ "$(grep -Ec '^\{ (common_)?stacktrace:$' /tmp/$f.txt)" -eq 1 ] ||
		{ cat /tmp/$f.txt; fail "stacktrace key: not one entry ($f)"; }
done
# Named as this kernel names it (stacktrace on 6.1, common_stacktrace from
# 6.4), in the entries and in the trigger's listing.
[ "$(grep -E '^\{ (common_)?stacktrace:$' /tmp/k.txt)" = "$(grep -E '^\{ (common_)?stacktrace:$' /tmp/m.txt)" ] ||
	{ cat /tmp/k.txt /tmp/m.txt; fail "stacktrace key: not named as the kernel names it"; }
grep '^hist:' $T/events/kpho/pg/trigger >/tmp/k.trig
kpmod trigger kpho/pg >/tmp/m.all || fail "kpmod trigger (list) failed"
grep '^hist:' /tmp/m.all >/tmp/m.trig
diff /tmp/k.trig /tmp/m.trig >/tmp/d.txt ||
	{ cat /tmp/d.txt; fail "stacktrace key: the trigger is listed unlike the kernel's"; }
grep -qx 'hitcount 10' /tmp/m.sk || { cat /tmp/m.txt; fail "stacktrace key: not 10 hits"; }
grep -x 'hitcount 10' /tmp/k.sk >/dev/null || { cat /tmp/k.txt; fail "the kernel's stacktrace key: not 10 hits"; }
grep -v '^hitcount' /tmp/k.sk >/tmp/k.fr
grep -v '^hitcount' /tmp/m.sk | head -n "$(wc -l </tmp/k.fr)" >/tmp/m.fr
[ -s /tmp/k.fr ] || { cat /tmp/k.txt; fail "the kernel's stack key has no frame below find_task_by_vpid"; }
diff /tmp/k.fr /tmp/m.fr >/tmp/d.txt ||
	{ cat /tmp/d.txt /tmp/k.txt /tmp/m.txt; fail "stacktrace key: kpmod's frames differ from the kernel's"; }
note "stacktrace key: $(wc -l </tmp/k.fr) frames below find_task_by_vpid alike"
printf '!%s\n' "$spec" >>$T/events/kpho/pg/trigger
expect_rc 0 kpmod trigger kpho/pg "!$spec"

# stacktrace: the kernel's trigger and kpmod's on the same probe and the
# same call: below the probed function (its callers) the frames must be
# the same functions, one by one (the kernel prints no offsets there);
# above it each tracer has its own handler's.
echo >$T/trace
echo 'stacktrace:1 if nr == 7000004' >>$T/events/kpho/pg/trigger || fail "the kernel refused stacktrace"
echo 1 >$T/events/kpho/pg/enable
expect_rc 0 kpmod trigger kpho/pg 'stacktrace:1 if nr == 7000004'
capture_trace /tmp/t.txt -- $W getpgid 10 7000000
echo 0 >$T/events/kpho/pg/enable
echo '!stacktrace' >>$T/events/kpho/pg/trigger
expect_rc 0 kpmod trigger kpho/pg '!stacktrace'
cat $T/trace >/tmp/k.txt
for f in k t; do
	awk '/<stack trace>$/ { s = 1; next } s && /^ => / { print; next } { s = 0 }' /tmp/$f.txt |
		sed 's/+0x[0-9a-f]*\/0x[0-9a-f]*//' |
		sed -n '/^ => find_task_by_vpid$/,$p' | tail -n +2 >/tmp/$f.st
done
[ -s /tmp/k.st ] || { cat /tmp/k.txt; fail "the kernel's stack has no frame below find_task_by_vpid"; }
diff /tmp/k.st /tmp/t.st >/tmp/d.txt ||
	{ cat /tmp/d.txt /tmp/t.txt; fail "stacktrace: kpmod's frames differ from the kernel's"; }
note "stacktrace: $(wc -l </tmp/t.st) frames below find_task_by_vpid alike"

# Refusals: error_log's message and caret, as kpmod prints them.
cat >/tmp/bad <<'END'
hist:keys=nosuch
hist:keys=nr.foo
hist:keys=nr,nr.bucket=x
hist:keys=nr:sort=nosuch
hist:keys=nr:sort=nr.up
hist:keys=nr:sort=
hist:keys=nr:vals=
hist:keys=nr:sort=nr,hitcount,nr
hist:keys=common_pid.execname,nr:sort=common_pid.xx
END
echo >$T/error_log
while IFS= read -r spec; do
	printf '%s\n' "$spec" >>$T/events/kpho/pg/trigger 2>/dev/null &&
		fail "the kernel took '$spec'"
	tail -n 3 $T/error_log | sed 's/^\[[ 0-9.]*\] //' >/tmp/k.txt
	kpmod trigger kpho/pg "$spec" 2>&1 | tail -n 3 >/tmp/m.txt
	diff /tmp/k.txt /tmp/m.txt >/tmp/d.txt ||
		{ cat /tmp/d.txt; fail "'$spec': kpmod's error differs from error_log's"; }
	note "'$spec': $(head -n 1 /tmp/m.txt)"
done </tmp/bad
expect_rc 0 kpmod clear
echo '-:kpho/pg' >>$T/kprobe_events
echo '-:kpho/rp' >>$T/kprobe_events
unload_kpmod
exit 0
