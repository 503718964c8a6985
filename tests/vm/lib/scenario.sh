# Helpers for scenarios: `. "$KPMOD_LIB"` at the top of a scenario.
# A scenario passes when it exits 0, is skipped when it exits 77 (after
# printing "skip: REASON"), and fails otherwise.

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "skip: $*"; exit 77; }
note() { echo "# $*"; }

# debug_in_stress WHY: skips the scenario on the debug kernel unless
# KPMOD_DEBUG_ALL=1 (make stress).  For scenarios whose time there (KASAN
# and lockdep under TCG: minutes) buys little in make check: the CLI's own
# behaviour, whose module paths the other scenarios and the campaign take
# on that kernel too, or a size that takes minutes there.  make check runs
# them on the other guests.
debug_in_stress() {
	[ "$KPMOD_KERNEL" != debug ] || [ "${KPMOD_DEBUG_ALL:-}" = 1 ] ||
		skip "on the debug kernel in make stress (KPMOD_DEBUG_ALL=1): $*"
}

# expect_rc RC CMD...: runs CMD, prints its output, fails unless it exits RC.
expect_rc() {
	want=$1
	shift
	"$@" >/tmp/.out 2>&1
	got=$?
	cat /tmp/.out
	[ "$got" -eq "$want" ] || fail "'$*' exited $got, expected $want"
}

# expect_grep PATTERN: the output of the last expect_rc contains PATTERN.
expect_grep() {
	grep -q -- "$1" /tmp/.out || fail "output lacks '$1'"
}

load_kpmod() { insmod "$KPMOD_KO" "$@" || fail "insmod $KPMOD_KO $*"; }
unload_kpmod() { rmmod kpmod || fail "rmmod kpmod"; }

# The oracle: the kernel's own kprobe_events, when this kernel has it.
need_kprobe_events() {
	[ -e /sys/kernel/tracing/kprobe_events ] ||
		skip "this kernel has no kprobe_events (oracle unavailable)"
}

# need_debian: the scenario needs tests/vm/run --rootfs debian; a run
# asked for it whose disk did not mount is a failure, not a skip.
need_debian() {
	[ -n "${KPMOD_ROOTFS:-}" ] || skip "no Debian root file system (tests/vm/run --rootfs debian)"
	[ -f "$KPMOD_ROOTFS/etc/debian_version" ] || fail "the Debian root file system is not mounted on $KPMOD_ROOTFS"
}

# in_debian CMD ARGS...: runs a program of the Debian root file system.
# debian_bg OUT CMD ARGS...: the same in the background, its output to OUT,
# its process id in DEBIAN_PID (chroot and env exec it: signals reach it).
DEBIAN_ENV="PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TERM=dumb"
in_debian() {
	# shellcheck disable=SC2086
	chroot "$KPMOD_ROOTFS" /usr/bin/env -i $DEBIAN_ENV "$@"
}
debian_bg() {
	_out=$1
	shift
	# Emptied here, not only by the child's redirection: a check of OUT
	# right after this returns must not read what a previous run wrote
	# (72-share once took the last round's "ready" for this one's, and its
	# Ctrl-C reached a bpftrace that still ignored SIGINT).
	: >"$_out"
	# shellcheck disable=SC2086
	chroot "$KPMOD_ROOTFS" /usr/bin/env -i $DEBIAN_ENV "$@" >"$_out" 2>&1 &
	DEBIAN_PID=$!
}

# bpftrace_start PROGRAM READY: bpftrace from the Debian root file system
# running PROGRAM, its output in /tmp/bt.out; returns once the shell
# command READY succeeds (tried every 0.1 s, 120 s at most), failing if
# bpftrace exits first.  bpftrace_stop: Ctrl-C (bpftrace prints its maps
# and exits); fails unless it exits 0.
bpftrace_start() {
	BT_READY=$2
	debian_bg /tmp/bt.out bpftrace -e "$1"
	_i=0
	until eval "$2"; do
		kill -0 "$DEBIAN_PID" 2>/dev/null || { cat /tmp/bt.out; fail "bpftrace exited: $1"; }
		[ $_i -lt 1200 ] || { cat /tmp/bt.out; fail "bpftrace not attached after 120 s: $1"; }
		sleep 0.1
		_i=$((_i + 1))
	done
}
bpftrace_stop() {
	kill -INT "$DEBIAN_PID"
	# bpftrace 0.17 can miss a SIGINT that comes between its check of
	# the flag its handler sets and its wait for events (seen here: 2
	# runs in about 8 of 72-share, for ever in epoll_wait); every 2 s,
	# if it still waits there, it gets another SIGINT, which interrupts
	# that wait (only there: once out of its loop, bpftrace lets a
	# SIGINT kill it), and the READY command runs again (an event ends
	# the wait too, where the program prints; one that only fills maps
	# makes none).  Bounded: a bpftrace still there after 60 s shows
	# where it waits and fails.
	_i=0
	while kill -0 "$DEBIAN_PID" 2>/dev/null && [ "$(awk '/^State:/ { print $2 }' /proc/"$DEBIAN_PID"/status 2>/dev/null)" != Z ]; do
		if [ $((_i % 20)) -eq 19 ]; then
			[ $_i -ne 19 ] || note "bpftrace still running 2 s after SIGINT"
			[ "$(cat /proc/"$DEBIAN_PID"/wchan 2>/dev/null)" != do_epoll_wait ] ||
				kill -INT "$DEBIAN_PID" 2>/dev/null || :
			eval "$BT_READY" >/dev/null 2>&1 || :
		fi
		if [ $_i -ge 600 ]; then
			grep -E '^(Name|State):' /proc/"$DEBIAN_PID"/status
			cat /proc/"$DEBIAN_PID"/stack 2>/dev/null
			for _t in /proc/"$DEBIAN_PID"/task/*; do
				echo "thread ${_t##*/}: $(awk '/^State:/ { print $2, $3 }' "$_t"/status) $(cat "$_t"/wchan 2>/dev/null)"
			done
			echo w >/proc/sysrq-trigger
			kill -KILL "$DEBIAN_PID"
			fail "bpftrace did not exit within 60 s of SIGINT"
		fi
		sleep 0.1
		_i=$((_i + 1))
	done
	_rc=0
	wait "$DEBIAN_PID" || _rc=$?
	[ $_rc -eq 0 ] || { cat /tmp/bt.out; fail "bpftrace exited $_rc"; }
}

# as_user CMD: runs the shell command CMD as an unprivileged user.
# (Debian's busybox-static has su but no adduser: add the user by hand.)
as_user() {
	grep -q '^tester:' /etc/passwd ||
		echo 'tester:x:1000:1000:tester:/tmp:/bin/sh' >>/etc/passwd
	su tester -c "$1"
}

# wait_reader PID: waits until the background reader PID has opened its
# rings (holds /dev/kpmod), at most 60 s; fails if it exits first.
wait_reader() {
	i=0
	while [ $i -lt 600 ]; do
		kill -0 "$1" 2>/dev/null || fail "reader $1 exited before attaching"
		ls -l /proc/"$1"/fd 2>/dev/null | grep -q /dev/kpmod && return 0
		sleep 0.1
		i=$((i + 1))
	done
	fail "reader $1 did not attach within 60 s"
}

# capture OUT READER -- WORKLOAD...: runs `kpmod READER` (trace, its
# options, or record -o FILE) with its output in OUT and its messages in
# OUT.err, waits until it holds the rings, runs WORKLOAD, gives the last
# events a second to reach the rings, stops the reader as a user would
# (Ctrl-C), prints its messages and fails unless it exited 0.
capture() {
	_cout=$1
	_creader=$2
	shift 2
	[ "${1:-}" = -- ] && shift
	# shellcheck disable=SC2086
	kpmod $_creader >"$_cout" 2>"$_cout.err" &
	_cpid=$!
	wait_reader $_cpid
	"$@"
	sleep 1
	kill -INT $_cpid
	_crc=0
	wait $_cpid || _crc=$?
	cat "$_cout.err"
	[ $_crc -eq 0 ] || fail "kpmod $_creader exited $_crc"
}

# capture_trace OUT -- WORKLOAD...: capture with `kpmod trace`.
capture_trace() {
	_ctout=$1
	shift
	capture "$_ctout" trace "$@"
}
