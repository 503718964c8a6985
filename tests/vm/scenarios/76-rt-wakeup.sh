# Readers' wake-ups against a real-time task.  A task on CPU 1 calls
# getppid without pause for 3 s, each call an event in CPU 1's 64 KiB
# ring, while a reader of that ring sleeps in poll() on CPU 0
# (kpmod-ringtest wakeup, its sleep capped at 1 s).  The module wakes
# readers with an irq_work: in hard interrupt context on a stock kernel,
# in CPU 1's irq_work/1 thread (SCHED_FIFO 1) on PREEMPT_RT, where a
# SCHED_FIFO task of higher priority starves it.  Measured with the task at
# normal priority and at SCHED_FIFO 50, and on PREEMPT_RT once more with
# irq_work/1 raised to SCHED_FIFO 51 (doc/testing.md's advice): how late
# each wake-up came after the record that crossed the watermark, the
# sleeps that ended by their cap instead, and the events lost meanwhile (a
# measurement for doc/testing.md).  Checked: the reader woke, and every
# call the task made is in CPU 1's ring or counted lost there (the probe
# is filtered on the task's name).
. "$KPMOD_LIB"
[ "$(grep -c ^processor /proc/cpuinfo)" -ge 2 ] || skip "needs 2 CPUs"
case $KPMOD_ARCH in
x86_64) SYS=__x64_sys_getppid ;;
arm64) SYS=__arm64_sys_getppid ;;
esac
# (7.3's PREEMPT_RT kernel has no /sys/kernel/realtime; uname says it.)
rt=stock
case "$(uname -v)" in *PREEMPT_RT*) rt=PREEMPT_RT ;; esac
[ "$(cat /sys/kernel/realtime 2>/dev/null)" = 1 ] && rt=PREEMPT_RT
load_kpmod
expect_rc 0 kpmod buffer --size 64K --mode discard
expect_rc 0 kpmod add --enable --filter 'comm == "kp-rtspin"' "p:rt/ppid $SYS"

# round PRIO LABEL: one measurement, the task at PRIO (normal or a
# SCHED_FIFO priority).
round() {
	taskset -c 0 kpmod-ringtest wakeup 1 5 >/tmp/wake.out 2>&1 &
	rpid=$!
	sleep 0.5
	if [ "$1" = normal ]; then
		taskset -c 1 kpmod-work name kp-rtspin spin 3 >/tmp/spin.out
	else
		taskset -c 1 kpmod-work fifo "$1" name kp-rtspin spin 3 >/tmp/spin.out ||
			fail "could not run a SCHED_FIFO task"
	fi
	read -r _ calls </tmp/spin.out
	wait $rpid || { cat /tmp/wake.out; fail "kpmod-ringtest wakeup failed"; }
	read -r _ wakeups _ timeouts _ p50 p99 max _ events _ lost </tmp/wake.out
	note "$rt, $2: $wakeups wake-ups, latency p50 ${p50} us, p99 ${p99} us, worst ${max} us; $timeouts sleeps ended by the 1 s cap; $calls calls, $events events written, $lost lost"
	[ "$events" -gt 0 ] || fail "$2: no event was written on CPU 1"
	[ $((events + lost)) -eq "$calls" ] ||
		fail "$2: $calls calls, but $events events written and $lost lost on CPU 1"
	[ "$wakeups" -gt 0 ] || [ "$timeouts" -gt 0 ] || fail "$2: the reader never woke"
}
round normal "task normal"
round 50 "task 50"
if [ $rt = PREEMPT_RT ]; then
	w=$(grep -lx 'irq_work/1' /proc/[0-9]*/comm | cut -d/ -f3)
	[ -n "$w" ] || fail "PREEMPT_RT without an irq_work/1 thread"
	kpmod-work chrt "$w" 51 || fail "could not raise irq_work/1"
	round 50 "task 50, irq_work/1 at 51"
	kpmod-work chrt "$w" 1
fi
expect_rc 0 kpmod disable rt/ppid
expect_rc 0 kpmod del rt/ppid
unload_kpmod
exit 0
