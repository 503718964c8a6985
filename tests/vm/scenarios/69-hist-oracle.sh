# Where the kernel has hist triggers: the same trigger strings on the same
# probes in kprobe_events and in kpmod over one workload; every table must
# be the same (header, entries in the order the kernel's sort leaves,
# totals), named tables shared alike, a stacktrace key's frames and the
# stacktrace trigger's alike, and a refused trigger must give error_log's
# message and caret.
. "$KPMOD_LIB"
W='kpmod-work name kph-work'
need_kprobe_events
T=/sys/kernel/tracing
def='p:kpho/pg find_task_by_vpid nr=$arg1:s32'
echo "$def" >>$T/kprobe_events || fail "kprobe_events refused $def"
if [ ! -e $T/events/kpho/pg/hist ]; then
	echo '-:kpho/pg' >>$T/kprobe_events
	skip "no hist triggers in this kernel (oracle unavailable)"
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
