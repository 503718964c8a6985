# Every fetch form through kpmod alone, on every kernel (the debug kernel
# too, where KASAN watches the fetch engine): values that can be known are
# checked; faults must be recorded, never taken.
. "$KPMOD_LIB"
load_kpmod
# RA: where the return address is at function entry.
# SEEK: lseek's syscall entry and where its offset is (the second
# register in the pt_regs it is given).
case "$KPMOD_ARCH" in
x86_64) A1=%di A2=%si RA='+0(%sp)' SEEK='__x64_sys_lseek +0x68($arg1)' ;;
arm64) A1=%x0 A2=%x1 RA=%x30 SEEK='__arm64_sys_lseek +8($arg1)' ;;
esac
# Data symbols are in kallsyms only with CONFIG_KALLSYMS_ALL (not on
# Debian's arm64 5.10 and 6.1).
AT=
grep -q ' nr_cpu_ids$' /proc/kallsyms && AT='v=@nr_cpu_ids:u32'
expect_rc 0 kpmod add --enable \
	"p:kf/open do_sys_openat2 path=+0(\$arg2):ustring kpath=+0($A2):string c=\$comm i=\\1234 s=\\\"hi\" $AT st=\$stack0 sp=\$stack" \
	"p:kf/rd vfs_read ret=$RA:symbol rs=$RA:symstr b=+0x44($A1):b4@0/32 arr=+0($A1):x8[4] f1=+0(+0(\$arg3)):x64 f2=+0(\$arg3):string" \
	"r:kf/ret do_sys_openat2 r=\$retval:s32 a1=\$arg1:s32 p=+0(\$arg2):ustring" \
	"p:kf/pg find_task_by_vpid nr=\$arg1:s32 strs=+0(\$stack):string[2] u=+u0(\$stack):x32"
workload() {
	kpmod-work open /etc/passwd 3
	kpmod-work read /etc/passwd 2
	kpmod-work getpgid 3 424242
}
capture_trace /tmp/t.txt -- workload
grep ' kpmod-work-' /tmp/t.txt >/tmp/w.txt
for e in open rd ret pg; do
	grep -q ": $e: " /tmp/w.txt || fail "no $e event"
	grep -m 1 ": $e: " /tmp/w.txt | cut -c1-220
done
grep ': open: ' /tmp/w.txt | grep -q 'path="/etc/passwd" kpath="/etc/passwd" c="kpmod-work" i=0x4d2 s="hi" ' ||
	fail "open: wrong values"
grep ': ret: ' /tmp/w.txt | grep -q 'r=3 a1=-100 p="/etc/passwd"$' ||
	fail "ret: \$retval or entry-captured \$arg1/\$arg2 wrong"
grep ': rd: ' /tmp/w.txt | grep -q 'ret=[a-z_0-9]*+0x[0-9a-f]*/0x[0-9a-f]* rs="[a-z_0-9]*+0x[0-9a-f]*/0x[0-9a-f]*" ' ||
	fail "rd: symbol/symstr not symbolized"
grep ': rd: ' /tmp/w.txt | grep -q 'f1=(fault) f2=(fault)$' || fail "rd: faults not recorded"
grep ': pg: ' /tmp/w.txt | grep -q 'nr=424242 ' || fail "pg: wrong nr"
expect_rc 0 kpmod disable all
expect_rc 0 kpmod clear

# A kernel read at addresses a caller chooses (lseek's offset): one that is
# canonical only for 5-level paging, above 4-level's user space (a fault,
# never a #GP, where an LA57 CPU runs the kernel 4-level: the debug
# guest), and one canonical for neither.
expect_rc 0 kpmod add --enable "p:kf/seek ${SEEK% *} x=+0(${SEEK#* }):x64"
seek() {
	kpmod-work seekread /etc/passwd 0x00884cf30000000e 1 || :
	kpmod-work seekread /etc/passwd 0x4000000000000000 1 || :
}
capture_trace /tmp/t.txt -- seek
grep ': seek: ' /tmp/t.txt
[ "$(grep -c ' kpmod-work-.*: seek: .*x=(fault)$' /tmp/t.txt)" -ge 2 ] || fail "seek: the two reads not recorded as faults"
expect_rc 0 kpmod disable all
expect_rc 0 kpmod clear
unload_kpmod
