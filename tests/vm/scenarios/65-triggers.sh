# The triggers that act: traceoff (the rings stop after the event that
# fires it), stacktrace:N (stack records, as ftrace's "<stack trace>" in
# text and arrays in JSON, right after their event), enable_event (a
# probe armed by another's hit); the listing with their counts, removal.
. "$KPMOD_LIB"
load_kpmod
W='kpmod-work name kph-work'
expect_rc 0 kpmod add 'p:kph/pg find_task_by_vpid nr=$arg1:s32'

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
# Sorted by nr, one per call: a live reader's order across CPUs can slip.
grep ' kph-work-' /tmp/t.txt | sed 's/.* nr=//' | sort -n >/tmp/v.txt
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
grep ' kph-work-.* pg2: ' /tmp/t.txt | sed 's/.* nr=//' | sort -n >/tmp/v.txt
seq 7000005 7000009 | diff - /tmp/v.txt || fail "enable_event: not the events from 7000005 on"
grep -q ' pg: ' /tmp/t.txt && fail "pg, not enabled, recorded events"
expect_rc 0 kpmod trigger kph/pg '!enable_event:kph:pg2'
expect_rc 0 kpmod del kph/pg2

expect_rc 0 kpmod clear
unload_kpmod
exit 0
