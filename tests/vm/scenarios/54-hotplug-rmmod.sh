# CPUs going offline and online while tracing; rmmod while probes fire and
# a reader holds the rings: refused cleanly while mapped, then clean.
. "$KPMOD_LIB"
ncpu=$(grep -c ^processor /proc/cpuinfo)
[ "$ncpu" -ge 2 ] || skip "needs 2 CPUs"
last=$((ncpu - 1))
online=/sys/devices/system/cpu/cpu$last/online
[ -w "$online" ] || skip "cpu$last cannot go offline here"

load_kpmod
expect_rc 0 kpmod add --enable 'p:kpm/pg find_task_by_vpid nr=$arg1:s32'
workload() {
	taskset -c $last kpmod-work getpgid 100 5000000
	echo 0 >"$online" || fail "cpu$last did not go offline"
	kpmod-work getpgid 100 5100000
	echo 1 >"$online" || fail "cpu$last did not come back"
	sleep 1
	taskset -c $last kpmod-work getpgid 100 5200000
}
capture_trace /tmp/t.txt -- workload
for base in 5000 5100 5200; do
	n=$(grep -c " nr=${base}[0-9][0-9][0-9]\$" /tmp/t.txt)
	[ "$n" -eq 100 ] || fail "phase $base: $n of 100 events"
done
grep " nr=5000[0-9]*\$" /tmp/t.txt | grep -qv "\[$(printf %03d $last)\]" && fail "pinned events not on cpu$last"
grep " nr=5100[0-9]*\$" /tmp/t.txt | grep -q "\[$(printf %03d $last)\]" && fail "events on an offline CPU"
grep " nr=5200[0-9]*\$" /tmp/t.txt | grep -qv "\[$(printf %03d $last)\]" && fail "cpu$last's ring not used after online"
note "300 events across cpu$last offline/online"

# rmmod with probes firing and a reader mapped: refused (the reader's
# mapping holds the module), nothing broken; the reader goes on.
kpmod-work spin 30 >/dev/null &
wpid=$!
kpmod trace >/dev/null 2>&1 &
tpid=$!
wait_reader $tpid
rmmod kpmod 2>/tmp/rm.err && fail "rmmod succeeded under a mapped reader"
cat /tmp/rm.err
grep -q '^kpmod ' /proc/modules || fail "module gone"
expect_rc 0 kpmod status
# The reader dies (SIGKILL: no cleanup of its own): now rmmod must work,
# with the probes still firing.
kill -9 $tpid
wait $tpid 2>/dev/null
rmmod kpmod || fail "rmmod after the reader left"
kill $wpid
wait $wpid 2>/dev/null
grep -q '^kpmod ' /proc/modules && fail "still loaded"
note "rmmod refused while mapped, clean after; probes were firing"
exit 0
