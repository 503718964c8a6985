# Events arrive with the right values, in ftrace's format, from every CPU:
# kpmod trace (text, JSON), record + report; a second reader gets EBUSY; a
# non-root reader is refused; a SIGKILLed reader is replaced.
. "$KPMOD_LIB"
ncpu=$(grep -c ^processor /proc/cpuinfo)
load_kpmod
# getpgid(pid) calls find_task_by_vpid(pid): the value is ours to choose.
expect_rc 0 kpmod add --enable 'p:kpm/pg find_task_by_vpid nr=$arg1:s32' 'r:kpm/pgret find_task_by_vpid ret=$retval:x64'

workload() {
	# The same number of calls from every CPU, pinned, values per CPU.
	cpu=0
	while [ $cpu -lt "$ncpu" ]; do
		taskset -c $cpu kpmod-work getpgid 200 $((7000000 + cpu * 1000))
		cpu=$((cpu + 1))
	done
}
capture_trace /tmp/t.txt -- workload
grep -q "^kpmod: trace: [0-9]* events, lost 0 " /tmp/t.txt.err || fail "trace lost events"
grep ' kpmod-work-' /tmp/t.txt | grep ' pg: ' >/tmp/pg.txt
n=$(wc -l </tmp/pg.txt)
[ "$n" -eq $((200 * ncpu)) ] || fail "expected $((200 * ncpu)) pg events, got $n"
head -n 3 /tmp/pg.txt
# ftrace's format, exactly: TASK-PID [CPU] FLAGS TS: EVENT: (SYM+OFF/SIZE) ARGS
bad=$(grep -cvE '^ +kpmod-work-[0-9]+ +\[[0-9]{3}\] \.\.\.\.\. +[0-9]+\.[0-9]{6}: pg: \(find_task_by_vpid\+0x[0-9a-f]+/0x[0-9a-f]+\) nr=70[0-9]{5}$' /tmp/pg.txt)
[ "$bad" -eq 0 ] || fail "$bad lines not in ftrace's format"
grep ' pgret: ' /tmp/t.txt | head -n 1 | grep -qE ': pgret: \([a-z_0-9.]+\+0x[0-9a-f]+/0x[0-9a-f]+ <- find_task_by_vpid\) ret=0x0$' ||
	fail "return probe line not in ftrace's format"
cpu=0
while [ $cpu -lt "$ncpu" ]; do
	# This CPU's values, in order, and all from this CPU.
	base=$((7000000 + cpu * 1000))
	grep " nr=$((base / 1000))[0-9][0-9][0-9]\$" /tmp/pg.txt >/tmp/c.txt
	[ "$(wc -l </tmp/c.txt)" -eq 200 ] || fail "cpu $cpu: wrong count"
	grep -vq "\[$(printf %03d $cpu)\]" /tmp/c.txt && fail "cpu $cpu: events on another CPU"
	sed 's/.* nr=//' /tmp/c.txt >/tmp/v.txt
	seq $base $((base + 199)) | diff - /tmp/v.txt >/dev/null || fail "cpu $cpu: values out of order or wrong"
	cpu=$((cpu + 1))
done
# Timestamps merged in order across CPUs.
sed 's/.* \([0-9]*\.[0-9]*\): .*/\1/' /tmp/t.txt | sort -c -n 2>/dev/null || fail "not in timestamp order"
note "$n events from $ncpu CPUs, values and order right"

# A second reader of the same rings: EBUSY, a clear message.
kpmod trace >/dev/null 2>&1 &
tpid=$!
wait_reader $tpid
expect_rc 5 kpmod trace --duration 1
expect_grep "already being read by another reader"
# SIGKILL the first: its rings are released for the next reader.
kill -9 $tpid
wait $tpid 2>/dev/null
kpmod trace --count 10 >/tmp/k.txt 2>/dev/null &
tpid=$!
wait_reader $tpid
kpmod-work getpgid 20
wait $tpid || fail "reader after SIGKILL failed"
[ "$(wc -l </tmp/k.txt)" -eq 10 ] || fail "reader after SIGKILL got $(wc -l </tmp/k.txt) lines"

# A non-root reader is refused.
expect_rc 4 as_user "kpmod trace --duration 1"

# record, then report: the same lines as trace.
capture /tmp/r.out "record -o /tmp/r.kpm" -- taskset -c 0 kpmod-work getpgid 300 7100000
expect_rc 0 kpmod report /tmp/r.kpm
grep ' kpmod-work-' /tmp/.out | grep ' pg: ' | sed 's/.* nr=//' >/tmp/v.txt
seq 7100000 7100299 | diff - /tmp/v.txt >/dev/null || fail "report: wrong values"
expect_rc 0 kpmod report --json /tmp/r.kpm
grep -q '"event":"pg".*"nr":7100000' /tmp/.out || fail "report --json lacks nr 7100000"
# A cut file: everything before the damage, then a clear error.
size=$(wc -c </tmp/r.kpm)
head -c $((size - 100)) /tmp/r.kpm >/tmp/cut.kpm
kpmod report /tmp/cut.kpm >/tmp/cut.txt 2>/tmp/cut.err && fail "truncated file accepted"
cat /tmp/cut.err
grep -q "truncated" /tmp/cut.err || fail "no 'truncated' in the error"

# The recording names its addresses as the kernel's %pS does (what
# ftrace prints), and only those its records hold: the same text as
# trace's for the probe's function and the return's callers (both
# checked against kallsyms below), and every frame of a stack named, down
# to the system call's entry.  No message about symbols.
grep -q symbols /tmp/r.out.err && fail "record: $(cat /tmp/r.out.err)"
kpmod report /tmp/r.kpm >/tmp/rep.txt || fail "report failed"
fn() { grep " $1: " "$2" | sed 's/.*: (\(.*\)).*/\1/' | grep -v kretprobe | sort -u; }
fn pg /tmp/pg.txt >/tmp/fa.txt
fn pg /tmp/rep.txt >/tmp/fb.txt
[ -s /tmp/fa.txt ] && diff /tmp/fa.txt /tmp/fb.txt || fail "report's function is not trace's"
grep ' kpmod-work-' /tmp/t.txt >/tmp/tw.txt
grep ' kpmod-work-' /tmp/rep.txt >/tmp/rw.txt
fn pgret /tmp/tw.txt >/tmp/fa.txt
fn pgret /tmp/rw.txt >/tmp/fb.txt
[ -s /tmp/fa.txt ] && diff /tmp/fa.txt /tmp/fb.txt || fail "report's return callers are not trace's"
# trace and record both have the module name addresses: kallsyms is the
# oracle.  An address as %pS prints it from kallsyms' view: the first
# symbol at the last address at or below it, the offset, and the size as
# the distance to the next address (kernel addresses, all of the form
# ffff..., compare as strings).
grep '^ffff' /proc/kallsyms | sort -s -k1,1 >/tmp/ks.sorted
ksym_ps() {
	a=${1#0x}
	awk -v a="$a" '
		$1 <= a { if ($1 != at) { at = $1; name = $3 } next }
		{ print at, name, $1; exit }' /tmp/ks.sorted | {
		read -r at name next
		[ -n "$next" ] || { echo "nothing in kallsyms above $1"; return; }
		# The top 16 bits are all ones: 48-bit differences, exact in sh.
		printf '%s+0x%x/0x%x\n' "$name" $((0x${a#ffff} - 0x${at#ffff})) \
			$((0x${next#ffff} - 0x${at#ffff}))
	}
}
capture /tmp/kj.txt "trace --json" -- taskset -c 0 kpmod-work getpgid 1 7150000
grep '"event":"pg"' /tmp/kj.txt | grep -q '"nr":7150000' || { cat /tmp/kj.txt; fail "no pg event to name"; }
ip=$(grep '"event":"pg"' /tmp/kj.txt | grep '"nr":7150000' | sed 's/.*"ip":"\(0x[0-9a-f]*\)".*/\1/')
func=$(grep '"event":"pg"' /tmp/kj.txt | grep '"nr":7150000' | sed 's/.*"func":"\([^"]*\)".*/\1/')
want=$(ksym_ps "$ip")
[ "$func" = "$want" ] || fail "trace names $ip $func, kallsyms $want"
cip=$(grep '"event":"pgret"' /tmp/kj.txt | head -n 1 | sed 's/.*"caller_ip":"\(0x[0-9a-f]*\)".*/\1/')
caller=$(grep '"event":"pgret"' /tmp/kj.txt | head -n 1 | sed 's/.*"caller":"\([^"]*\)".*/\1/')
want=$(ksym_ps "$cip")
[ "$caller" = "$want" ] || fail "trace names the caller $cip $caller, kallsyms $want"
grep -qF "($func)" /tmp/pg.txt || fail "trace's text names the function otherwise than its JSON"
note "named as kallsyms does: $ip $func, $cip $caller"
# Without the return probe, whose trampoline in the return address stops
# 5.10's unwinder (the kernel's own stack traces too).
expect_rc 0 kpmod disable kpm/pgret
expect_rc 0 kpmod trigger kpm/pg 'stacktrace:1 if nr == 7100001'
capture /tmp/s.out "record -o /tmp/s.kpm" -- taskset -c 0 kpmod-work getpgid 3 7100000
expect_rc 0 kpmod trigger kpm/pg '!stacktrace'
expect_rc 0 kpmod enable kpm/pgret
kpmod report /tmp/s.kpm >/tmp/s.txt || fail "report of the stack failed"
[ "$(grep -A 1 '<stack trace>$' /tmp/s.txt | grep -c '^ => find_task_by_vpid+0x')" -eq 1 ] ||
	{ cat /tmp/s.txt; fail "the recorded stack does not start in find_task_by_vpid"; }
grep -q '^ => \(entry_SYSCALL_64\|el0t_64_sync\|el0_sync\)' /tmp/s.txt ||
	{ cat /tmp/s.txt; fail "the recorded stack does not reach the system call's entry"; }
grep '^ => ' /tmp/s.txt | grep -vE '^ => [A-Za-z_0-9.$]+\+0x[0-9a-f]+/0x[0-9a-f]+( \[[A-Za-z_0-9]+\])?$' &&
	fail "a recorded frame is not named"
# Where kallsyms shows root no address (kptr_restrict=2), a recording
# names none either: addresses print as hex, as they did from its copy.
kr=$(cat /proc/sys/kernel/kptr_restrict)
echo 2 >/proc/sys/kernel/kptr_restrict
capture /tmp/h.out "record -o /tmp/h.kpm" -- taskset -c 0 kpmod-work getpgid 3 7100000
echo "$kr" >/proc/sys/kernel/kptr_restrict
kpmod report /tmp/h.kpm >/tmp/h.txt || fail "report under kptr_restrict failed"
grep ' kpmod-work-.* pg: ' /tmp/h.txt | head -n 1 | grep -qE ': pg: \(0x[0-9a-f]+\) nr=7100000$' ||
	{ cat /tmp/h.txt; fail "under kptr_restrict=2 a recording named an address"; }
# Root without CAP_SYSLOG: where kallsyms still shows it addresses
# (kptr_restrict=0 and perf_event_paranoid<=1), record and trace ask the
# module, which refuses, as kallsyms would without that setting: said
# once, the events kept, in hex.  Elsewhere kallsyms shows zeros and
# nothing is asked.
pp=$(cat /proc/sys/kernel/perf_event_paranoid)
# The next scenarios get them back even if this one fails.
trap 'echo "$pp" >/proc/sys/kernel/perf_event_paranoid; echo "$kr" >/proc/sys/kernel/kptr_restrict' EXIT
echo 0 >/proc/sys/kernel/kptr_restrict
for paranoid in 1 2; do
	echo $paranoid >/proc/sys/kernel/perf_event_paranoid
	# (x86_64's first symbols, per-CPU ones, are at 0 even when shown.)
	shown=$(kpmod-ringtest nosyslog-exec head -n 16 /proc/kallsyms | grep -c '^0*[1-9a-f]')
	for reader in "record -o /tmp/c.kpm" trace; do
		# shellcheck disable=SC2086
		kpmod-ringtest nosyslog-exec kpmod $reader >/tmp/c.out 2>/tmp/c.err &
		cpid=$!
		wait_reader $cpid
		taskset -c 0 kpmod-work getpgid 3 7200000
		sleep 1
		kill -INT $cpid
		crc=0
		wait $cpid || crc=$?
		cat /tmp/c.err
		what="paranoid $paranoid, ${reader%% *} without CAP_SYSLOG"
		[ $crc -eq 0 ] || fail "$what: exited $crc"
		refused=$(grep -c "^kpmod: ${reader%% *}: naming kernel addresses: .*CAP_SYSLOG" /tmp/c.err)
		if [ "$shown" -gt 0 ]; then
			[ "$refused" -eq 1 ] || fail "$what: the module's refusal said $refused times, not once"
		else
			[ "$refused" -eq 0 ] || fail "$what: asked though kallsyms showed no address"
		fi
		if [ "$reader" = trace ]; then
			cp /tmp/c.out /tmp/c.txt
		else
			kpmod report /tmp/c.kpm >/tmp/c.txt || fail "$what: report failed"
		fi
		[ "$(grep -cE ' kpmod-work-.* pg: .* nr=720000[0-2]$' /tmp/c.txt)" -eq 3 ] ||
			{ cat /tmp/c.txt; fail "$what: events lost"; }
		grep ' kpmod-work-.* pg: ' /tmp/c.txt | grep -vqE ': pg: \(0x[0-9a-f]+\) nr=720000[0-2]$' &&
			{ cat /tmp/c.txt; fail "$what: an address named"; }
		note "$what: addresses in kallsyms' first 16 lines: $shown; the module's refusal said: $refused"
	done
done
echo "$pp" >/proc/sys/kernel/perf_event_paranoid
echo "$kr" >/proc/sys/kernel/kptr_restrict
trap - EXIT

# A task that names itself to forge a line: still one line, escaped.
kpmod trace --count 3 >/tmp/f.txt 2>/dev/null &
tpid=$!
wait_reader $tpid
kpmod-work name "$(printf 'x\n  fake-1 [0')" getpgid 3 7300000
wait $tpid
cat /tmp/f.txt
[ "$(wc -l </tmp/f.txt)" -eq 3 ] || fail "a task's name split a line"
grep -q '^ *x\\x0a  fake-1 \[0-[0-9]* *\[[0-9]*\] .* nr=7300000$' /tmp/f.txt ||
	fail "the name is not escaped as \\x0a"
kpmod trace --json --count 1 >/tmp/fj.txt 2>/dev/null &
tpid=$!
wait_reader $tpid
kpmod-work name "$(printf 'q\001"\134')" getpgid 1 7300100
wait $tpid
grep -q '"task":"q\\u0001\\"\\\\"' /tmp/fj.txt || { cat /tmp/fj.txt; fail "JSON task name not escaped"; }

# JSON live.
kpmod trace --json --count 5 >/tmp/j.txt 2>/dev/null &
tpid=$!
wait_reader $tpid
kpmod-work getpgid 50 7200000
wait $tpid
grep -q '"nr":72000' /tmp/j.txt || fail "trace --json lacks the values"
expect_rc 0 kpmod disable all
expect_rc 0 kpmod clear
unload_kpmod
