# The oracle: the same definitions written to the kernel's kprobe_events
# and added with kpmod, the same workload, and every event compared field
# by field: the probe site as symbolized, and every argument's value
# (registers, $argN 1-8 with stack-passed ones, $retval, nested and user
# derefs, strings, symbols, bitfields, arrays, immediates, faults).
# Not symstr: on Debian 6.1, kprobe_events itself corrupts its ring buffer
# with a symstr argument under load (an oops with kpmod not even loaded);
# kpmod's symstr is checked on its own in 58-fetch-forms.sh.
# $argN and $retval carry explicit types: an untyped one is typed from BTF
# by kprobe_events from 6.6 on (and by kpmod wherever BTF is), not by
# 6.1's kprobe_events (x64); 77-btf.sh compares the BTF forms.
. "$KPMOD_LIB"
need_kprobe_events
T=/sys/kernel/tracing

case "$KPMOD_ARCH" in
x86_64)
	cat >/tmp/defs <<'DEFS'
p:kpo/regs do_sys_openat2 di=%di si=%si dx=%dx cx=%cx r8=%r8 r9=%r9 ax=%ax bx=%bx bp=%bp sp=%sp ip=%ip flags=%flags r10=%r10 r11=%r11 r12=%r12 r13=%r13 r14=%r14 r15=%r15 cs=%cs ss=%ss orig=%orig_ax
p:kpo/args do_mmap a1=$arg1:x64 a2=$arg2:x64 a3=$arg3:x64 a4=$arg4:x64 a5=$arg5:x64 a6=$arg6:x64 a7=$arg7:x64 a8=$arg8:x64
r:kpo/ret do_sys_openat2 $retval:x64
r:kpo/rets do_sys_openat2 ret=$retval:s32 r8=$retval:s8 rx=$retval:x16 ru=$retval:u64
p:kpo/deref vfs_read f=+0(%di):x64 ff=+8(+0(%di)):x64 cnt=%dx:u32 fm=+0x44(%di):x32 neg=-8(+16(%di)):x64 fb=+0x44(%di):u8 fw=+0x46(%di):x16 fs=+2(+0($stack)):s16
p:kpo/ustr do_sys_openat2 path=+0(%si):ustring upath=+u0(%si):string uval=+u0(%si):x32
p:kpo/kstr do_sys_openat2 bad=+0(%si):string
p:kpo/sym vfs_read ret=+0(%sp):symbol fn=%ip:symbol
p:kpo/bf vfs_read b1=+0x44(%di):b4@0/32 b2=+0x44(%di):b3@5/32 b3=+0(%di):b7@1/8 b4=%dx:b12@4/64
p:kpo/arr vfs_read a=+0(%di):x8[8] b=+0(%di):u16[4] c=+0(%di):s32[2] d=+0(%di):x64[2]
p:kpo/comm do_sys_openat2 comm=$comm cm=$comm:string
p:kpo/imm do_sys_openat2 i=\1234 h=\0x10 n=\-5:s32 s=\"hello"
p:kpo/stack vfs_read s0=$stack0 s1=$stack1 s2=$stack2 sp=$stack
p:kpo/at do_sys_openat2 v=@nr_cpu_ids:u32 w=@nr_cpu_ids+0:s32
p:kpo/types do_sys_openat2 a=%si:s8 b=%si:s16 c=%si:s32 d=%si:s64 e=%si:x8 f=%si:x16 g=%si:x32 h=%si:u8 i=%si:u16 j=%si:u32 k=%si:u64
p:kpo/fault vfs_read x=+0(%dx):x64 s=+0(%dx):string us=+u0(%dx):ustring y=+0(+0(%dx)):u32
p:kpo/pg find_task_by_vpid nr=$arg1:s32 nrx=%di:x32
r:kpo/pgr find_task_by_vpid p=$retval:x64
p:kpo/mod do_init_module name=+24(%di):string state=+0(%di):u32
DEFS
	;;
arm64)
	cat >/tmp/defs <<'DEFS'
p:kpo/regs do_sys_openat2 x0=%x0 x1=%x1 x2=%x2 x3=%x3 x8=%x8 x19=%x19 x29=%x29 x30=%x30 sp=%sp pc=%pc pstate=%pstate
p:kpo/args do_mmap a1=$arg1:x64 a2=$arg2:x64 a3=$arg3:x64 a4=$arg4:x64 a5=$arg5:x64 a6=$arg6:x64 a7=$arg7:x64 a8=$arg8:x64
r:kpo/ret do_sys_openat2 $retval:x64
p:kpo/deref vfs_read f=+0(%x0):x64 ff=+8(+0(%x0)):x64 cnt=%x2:u32 fb=+0x44(%x0):u8 fw=+0x46(%x0):x16 fs=+2(+0($stack)):s16
p:kpo/ustr do_sys_openat2 path=+0(%x1):ustring
p:kpo/str vfs_read s=+0(%x1):string
p:kpo/bf vfs_read b1=+0x44(%x0):b4@0/32 b2=%x2:b12@4/64
p:kpo/arr vfs_read a=+0(%x0):x8[8] b=+0(%x0):u16[4]
p:kpo/comm do_sys_openat2 comm=$comm
p:kpo/stack vfs_read s0=$stack0 s1=$stack1 sp=$stack
p:kpo/pg find_task_by_vpid nr=$arg1:s32
p:kpo/mod do_init_module name=+24(%x0):string state=+0(%x0):u32
DEFS
	;;
esac

load_kpmod
# One clock for both tracers (kpmod's is CLOCK_MONOTONIC): with ftrace's
# per-CPU default, a task that moves between CPUs can show its events out
# of order, and the comparison below pairs each task's events in time order.
clock=$(sed 's/.*\[\(.*\)\].*/\1/' "$T/trace_clock")
echo mono >"$T/trace_clock" || fail "cannot set trace_clock to mono"
# record reads kallsyms under these vfs_read probes: room for that burst.
expect_rc 0 kpmod buffer --size 16M
ndefs=$(wc -l </tmp/defs)
while IFS= read -r d; do
	echo "$d" >>"$T/kprobe_events" || fail "kprobe_events refused: $d"
done </tmp/defs
expect_rc 0 kpmod add -f /tmp/defs
echo >"$T/trace"
echo 1 >"$T/events/kpo/enable"
expect_rc 0 kpmod enable 'kpo/*'
# The workload, in processes named kpmod-work only.
workload() {
	kpmod-work open /etc/passwd 5
	kpmod-work open /nonexistent-kpmod 3
	# User strings read a word at a time: paths ending where the next page
	# is unmapped (every alignment of the last word), then one with no NUL.
	kpmod-work edgeopen 17
	kpmod-work read /etc/passwd 3
	kpmod-work getpgid 5 424242
	# A module load, when the harness built one (struct module's name is at 24).
	[ -f /kpmod/extra/kpmod_target.ko ] && insmod /kpmod/extra/kpmod_target.ko
}
capture /tmp/rec.out "record -o /tmp/o.kpm" -- workload
echo 0 >"$T/events/kpo/enable"
expect_rc 0 kpmod disable all
kpmod report /tmp/o.kpm >/tmp/kpmod.raw || fail "report failed"
# kpmod escapes what ftrace prints raw (a task name or string with control
# bytes would forge lines): the same escaping, on ftrace's side.
kpmod-escape <"$T/trace" >/tmp/ftrace.raw
echo "$clock" >"$T/trace_clock"

# PID TIMESTAMP CPU EVENT: REST-OF-LINE for the workload's events, sorted
# by pid then time: each task's events in the order they happened, which
# no scheduling can change (insmod's only for the module-load probe: its
# other reads are of a binary file).  Two return probes on one function
# stack: whichever runs second finds the other's trampoline as its return
# address ("[unknown/kretprobe'd]"), so a return probe's caller is not
# compared here (50-trace.sh checks its form).
norm() {
	sed -n 's/^ *\(kpmod-work\|insmod\)-\([0-9]*\) *\[\([0-9]*\)\] [^ ]* *\([0-9.]*\): \([a-z0-9_]*\): \(.*\)$/\1 \2 \4 \3 \5: \6/p' "$1" |
		awk '$1 == "kpmod-work" || $5 == "mod:"' | cut -d' ' -f2- |
		sed 's/^\([0-9]* [0-9.]* [0-9]* [a-z0-9_]*: (\)[^ ]* <- /\1CALLER <- /' |
		sort -s -k1,1n -k2,2n >"$2.t"
	# Without the timestamp and CPU, which differ between tracers.
	cut -d' ' -f1,4- "$2.t" >"$2"
}
norm /tmp/ftrace.raw /tmp/ftrace.n
norm /tmp/kpmod.raw /tmp/kpmod.n
nk=$(wc -l </tmp/ftrace.n)
[ "$nk" -gt 50 ] || fail "only $nk events from kprobe_events: the workload did not run?"
events=$(sed -n 's/^[0-9]* \([a-z0-9_]*\):.*/\1/p' /tmp/ftrace.n | sort -u | wc -l)
# Without the target module there is no module load to see.
[ -f /kpmod/extra/kpmod_target.ko ] || ndefs=$((ndefs - 1))
if [ "$events" -ne "$ndefs" ]; then
	sed -n 's/^[0-9]* \([a-z0-9_]*\):.*/\1/p' /tmp/ftrace.n | sort | uniq -c
	grep -o ' [a-z0-9_]*: ' /tmp/ftrace.raw | sort | uniq -c
	fail "only $events of $ndefs events were hit by the workload"
fi
[ "$(wc -l </tmp/kpmod.n)" -eq "$nk" ] || fail "kprobe_events has $nk events, kpmod $(wc -l </tmp/kpmod.n)"
# Field by field.  One difference, by design: a numeric fetch that faults
# is "(fault)" in kpmod, while kprobe_events leaves that field of its ring
# buffer unwritten (store_trace_args() only writes it on success) and
# prints whatever bytes an earlier event left there: 0 in a fresh buffer,
# anything in a reused one.  So where kpmod says (fault), any number from
# kprobe_events is accepted; the fault probes also read the same address
# as strings, which both print as (fault) and are compared exactly.
# A second one, a kernel bug: an empty string in user memory is "" in
# kpmod, "(fault)" in kprobe_events, because strncpy_from_user_nofault()
# returns 0 for it (the NUL not counted) and a 0-length data location
# prints as a fault.  kpmod-work's reads make exactly one each per file.
paste -d '\n' /tmp/ftrace.n /tmp/kpmod.n | awk '
	NR % 2 { f = $0; next }
	{ n++ }
	{
		nf = split(f, a, " "); nk = split($0, b, " ")
		if (nf != nk) { print "fields differ:\n< " f "\n> " $0; bad++; next }
		for (i = 1; i <= nf; i++) {
			if (a[i] == b[i]) continue
			pa = a[i]; sub(/=.*/, "", pa); pb = b[i]; sub(/=.*/, "", pb)
			va = a[i]; sub(/^[^=]*=/, "", va)
			if (pa == pb && b[i] ~ /=\(fault\)$/ &&
			    va ~ /^(-?[0-9]+|0x[0-9a-f]+|\{[-0-9a-fx,]*\})$/) { faults++; continue }
			if (pa == pb && va == "(fault)" && b[i] ~ /=""$/) { empties++; continue }
			print "differs at " pa " (pair " n "):\n< " f "\n> " $0; bad++; break
		}
	}
	END { printf "# %d numeric faults: (fault) in kpmod, an unwritten field in kprobe_events\n", faults
	      printf "# %d empty user strings: \"\" in kpmod, (fault) in kprobe_events\n", empties
	      exit bad > 0 }' >/tmp/cmp || {
	head -n 20 /tmp/cmp
	# Time and CPU of the first differing pair, to tell a value from an order.
	p=$(sed -n 's/^differs at .* (pair \([0-9]*\)).*/\1/p' /tmp/cmp | head -n 1)
	echo "# pid, time and CPU of pair $p: kprobe_events, then kpmod"
	sed -n "${p}p" /tmp/ftrace.n.t | cut -d' ' -f1-4
	sed -n "${p}p" /tmp/kpmod.n.t | cut -d' ' -f1-4
	fail "kpmod and kprobe_events differ"
}
cat /tmp/cmp
# The word-wise reads' edges were reached: edgeopen's 17-byte path, and the
# one with no NUL before the unmapped page.
grep -Eq ' ustr: .* path="rrrrrrrrrrrrrrrrr"( |$)' /tmp/kpmod.n || fail "no ustr event of edgeopen's 17-byte path"
grep -Eq ' ustr: .* path=\(fault\)( |$)' /tmp/kpmod.n || fail "no ustr event of edgeopen's path without a NUL"
sed 's/^[0-9]* //' /tmp/kpmod.n | awk '!seen[$1]++' | cut -c1-150
note "$nk events of $ndefs definitions identical to kprobe_events, field by field"
echo >"$T/kprobe_events"
expect_rc 0 kpmod clear
unload_kpmod
