# Event filters in the module: set, printed back, cleared; a refused one
# shown as the kernel shows it, leaving the old one in force; events that
# do not match take no ring space and are counted (hits = received +
# filtered); numbers, strings, globs and comm.  Then, where kprobe_events
# exists, the same random filters on the same probe there and in kpmod,
# both enabled on one workload: the values each lets through must be the
# same.
. "$KPMOD_LIB"
load_kpmod
expect_rc 0 kpmod add 'p:kpf/pg find_task_by_vpid nr=$arg1:s32'
expect_rc 0 kpmod filter kpf/pg
expect_grep '^none$'
expect_rc 0 kpmod filter kpf/pg 'nr >= 7000010 && nr < 7000020 || nr == 7000050  '
expect_rc 0 kpmod filter pg
expect_grep '^nr >= 7000010 && nr < 7000020 || nr == 7000050$'

# A filter that does not parse: the kernel's three lines, exit 7, the old
# filter still in force.
expect_rc 7 kpmod filter kpf/pg 'nr = 1'
grep -qx 'nr = 1' /tmp/.out || fail "the expression is not shown"
grep -qx '    ^' /tmp/.out || fail "the caret is not where the kernel puts it"
expect_grep '^parse_error: Invalid operator$'
expect_rc 7 kpmod filter kpf/pg 'nosuch == 1'
expect_grep '^parse_error: Field not found$'
expect_rc 0 kpmod filter kpf/pg
expect_grep '^nr >= 7000010 && nr < 7000020 || nr == 7000050$'

expect_rc 0 kpmod enable kpf/pg
capture_trace /tmp/t.txt -- kpmod-work getpgid 100 7000000
expect_rc 0 kpmod disable kpf/pg
# Sorted: a live reader's order across CPUs is a timestamp merge that a
# late record (a vCPU descheduled between its hit and its commit) can miss;
# nr is the key, one per call.
grep ' kpmod-work-' /tmp/t.txt | sed 's/.* nr=//' | sort -n >/tmp/v.txt
{ seq 7000010 7000019; echo 7000050; } | diff - /tmp/v.txt || fail "the filter let through other events"
expect_rc 0 kpmod stat
set -- $(grep '^  pg ' /tmp/.out)
hits=$2 dropped=$4 filtered=$5
got=$(grep -c ' pg: ' /tmp/t.txt)
note "hits $hits = received $got + dropped $dropped + filtered $filtered"
[ "$hits" -ge 100 ] || fail "hits $hits < 100 calls"
[ $((got + dropped + filtered)) -eq "$hits" ] || fail "received + dropped + filtered != hits"
[ "$filtered" -ge 89 ] || fail "only $filtered filtered"

# add --filter: in force from the first hit; a bad one adds nothing.
expect_rc 7 kpmod add --filter 'nr = 1' 'p:kpf/pg2 find_task_by_vpid nr=$arg1:s32'
expect_grep '^parse_error: Invalid operator$'
expect_rc 0 kpmod list
grep -q pg2 /tmp/.out && fail "a probe with a bad filter was added"
expect_rc 0 kpmod add --enable --filter 'nr == 7000003 || nr == 7000007' 'p:kpf/pg2 find_task_by_vpid nr=$arg1:s32'
capture_trace /tmp/t.txt -- kpmod-work getpgid 10 7000000
expect_rc 0 kpmod disable kpf/pg2
[ "$(grep ' kpmod-work-' /tmp/t.txt | grep -c ' pg2: ')" -eq 2 ] || fail "add --filter: not 2 events"
expect_rc 0 kpmod filter kpf/pg2
expect_grep '^nr == 7000003 || nr == 7000007$'

# Clearing lets everything through again.
expect_rc 0 kpmod filter kpf/pg 0
expect_rc 0 kpmod filter kpf/pg
expect_grep '^none$'

# Strings (user memory), globs, inversion, comm.
expect_rc 0 kpmod add 'p:kpf/op do_sys_openat2 path=+0($arg2):ustring'
expect_rc 0 kpmod filter kpf/op 'path ~ "/tmp/kpf-*" && path != "/tmp/kpf-skip" && comm == "kpf-opener"'
expect_rc 0 kpmod enable kpf/op
workload() {
	kpmod-work name kpf-opener open /tmp/kpf-a 3
	kpmod-work name kpf-opener open /tmp/kpf-skip 2
	kpmod-work name kpf-opener open /tmp/other 2
	kpmod-work name other open /tmp/kpf-b 2
}
capture_trace /tmp/t.txt -- workload
expect_rc 0 kpmod disable kpf/op
n=$(grep -c ' op: .*path="/tmp/kpf-a"$' /tmp/t.txt)
all=$(grep -c ' op: ' /tmp/t.txt)
[ "$n" -eq 3 ] && [ "$all" -eq 3 ] || fail "string filter: $n of 3 wanted events, $all in all"
expect_rc 0 kpmod filter kpf/op 'path ~ "*[0-9]?" || path ~ "*tmp*"'
expect_rc 0 kpmod filter kpf/op 'comm ~ "kpf-*"'
expect_rc 0 kpmod clear
unload_kpmod

# The half above is kpmod's alone and has passed: a kernel without
# kprobe_events (the debug kernel) ends here.
if [ ! -e /sys/kernel/tracing/kprobe_events ]; then
	note "no kprobe_events here: the comparison with it is not run"
	exit 0
fi
T=/sys/kernel/tracing
def='p:kpfo/pg find_task_by_vpid nr=$arg1:s32'
echo "$def" >>$T/kprobe_events || fail "kprobe_events refused $def"
echo mono >$T/trace_clock
load_kpmod
expect_rc 0 kpmod add "$def"
seed=${KPMOD_FILTER_SEED:-1}
note "random filters, seed $seed"
# Random filters over nr in the workload's range: ops, constants, &&, ||,
# !, parentheses.
awk -v seed="$seed" 'BEGIN {
	srand(seed)
	split("== != < <= > >= &", ops, " ")
	for (f = 0; f < 12; f++) {
		n = 1 + int(rand() * 4); s = ""
		for (t = 0; t < n; t++) {
			op = ops[1 + int(rand() * 7)]
			# & takes a mask of the low bits, which the workload varies.
			p = "nr " op " " (op == "&" ? 1 + int(rand() * 63) : 8000000 + int(rand() * 64))
			if (rand() < 0.2) p = "!(" p ")"
			if (t) {
				if (rand() < 0.3) s = "(" s ")"
				s = s (rand() < 0.5 ? " && " : " || ")
			}
			s = s p
		}
		print s
	}
}' >/tmp/filters
while IFS= read -r f; do
	printf '%s\n' "$f" >$T/events/kpfo/pg/filter || fail "kprobe_events refused '$f'"
	expect_rc 0 kpmod filter kpfo/pg "$f"
	echo >$T/trace
	echo 1 >$T/events/kpfo/pg/enable
	expect_rc 0 kpmod enable kpfo/pg
	capture_trace /tmp/t.txt -- kpmod-work name kpf-work getpgid 64 8000000
	echo 0 >$T/events/kpfo/pg/enable
	expect_rc 0 kpmod disable kpfo/pg
	# By nr, one per call (sorted, as above).
	grep ' kpf-work-' $T/trace | sed 's/.* nr=//' | sort -n >/tmp/k.txt
	grep ' kpf-work-' /tmp/t.txt | sed 's/.* nr=//' | sort -n >/tmp/m.txt
	diff /tmp/k.txt /tmp/m.txt >/tmp/d.txt ||
		{ cat /tmp/d.txt; fail "filter '$f': kprobe_events and kpmod let different events through"; }
	note "'$f': $(wc -l </tmp/m.txt) of 64 through both"
done </tmp/filters
echo 0 >$T/events/kpfo/pg/filter
echo '-:kpfo/pg' >>$T/kprobe_events
echo local >$T/trace_clock
expect_rc 0 kpmod del kpfo/pg
unload_kpmod
exit 0
