# The one-liners of doc/filters-triggers-hist.md, as written there: what
# bpftrace and kprobe_events users run, in kpmod.  Each runs on a known
# workload (dd: 50 reads of 16 KiB, 100 of 512 bytes; each dd its own
# process) and its answer is checked.  That file adds "if comm == ..."
# nowhere; here the tables are read for dd's rows only, so other readers
# in the guest change nothing.
. "$KPMOD_LIB"
load_kpmod
work() {
	dd if=/dev/zero of=/dev/null bs=16384 count=50 2>/dev/null
	dd if=/dev/zero of=/dev/null bs=512 count=100 2>/dev/null
}

# @size = hist(arg2): the size histogram of an argument.
expect_rc 0 kpmod add 'p:rd vfs_read size=$arg3:u64'
expect_rc 0 kpmod trigger rd 'hist:keys=size.log2 if comm == "dd"'
# @[retval] = count(): return values counted.
expect_rc 0 kpmod add 'r:rdret vfs_read ret=$retval:s64'
expect_rc 0 kpmod trigger rdret 'hist:keys=ret if comm == "dd"'
# @[pid, comm] = hist(arg2): per process.
expect_rc 0 kpmod trigger rd 'hist:keys=common_pid.execname,size.log2 if comm == "dd"'
# @ = stats(arg2): count, total, average per process.
expect_rc 0 kpmod trigger rd 'hist:keys=common_pid.execname:vals=size,size.avg if comm == "dd"'
# @ns = hist(nsecs - @ts[tid]): the latency of a function.
expect_rc 0 kpmod add 'r:rdlat vfs_read d=$duration'
expect_rc 0 kpmod trigger rdlat 'hist:keys=d.log2 if comm == "dd"'
work

expect_rc 0 kpmod hist --graph rd
expect_grep '^(256, 512]  *100 |'
expect_grep '^(8K, 16K]  *50 |'
expect_rc 0 kpmod hist rdret
expect_grep '^{ ret:      16384 } hitcount:         50$'
expect_grep '^{ ret:        512 } hitcount:        100$'
expect_rc 0 kpmod hist --json rdret
expect_grep '^{"event":"kprobes/rdret","trigger":"hist:keys=ret:vals=hitcount:sort=hitcount:size=2048 if comm == \\"dd\\" \[active\]","hits":150,"dropped":0,"entries":\[{"keys":{"ret":16384},"hitcount":50,"vals":{}},{"keys":{"ret":512},"hitcount":100,"vals":{}}\]}$'
expect_rc 0 kpmod hist rd
[ "$(grep -c '^{ common_pid: dd  *\[ *[0-9]*\], size: ~ 2^14 } hitcount:         50$' /tmp/.out)" -eq 1 ] ||
	fail "no per-process row of 50 16 KiB reads"
grep -q '^{ common_pid: dd  *\[ *[0-9]*\] } hitcount:         50  size:     819200  size.avg:      16384$' /tmp/.out ||
	fail "no stats row for the 16 KiB dd"
grep -q '^{ common_pid: dd  *\[ *[0-9]*\] } hitcount:        100  size:      51200  size.avg:        512$' /tmp/.out ||
	fail "no stats row for the 512-byte dd"
expect_rc 0 kpmod hist --graph rdlat
[ "$(grep '^[[(]' /tmp/.out | awk '{ n += $3 } END { print n }')" -eq 150 ] ||
	fail "the latency rows do not add up to 150 reads"

# @[kstack] = count(): the stacks that lead here, from the probed function
# down as bpftrace's kstack.  Without the return probes on vfs_read: 5.10's
# unwinder stops at the kretprobe trampoline they put in its return address.
for t in 'hist:keys=size.log2' 'hist:keys=common_pid.execname,size.log2' \
	 'hist:keys=common_pid.execname:vals=size,size.avg'; do
	expect_rc 0 kpmod trigger rd "!$t if comm == \"dd\""
done
expect_rc 0 kpmod trigger rdret '!hist:keys=ret if comm == "dd"'
expect_rc 0 kpmod trigger rdlat '!hist:keys=d.log2 if comm == "dd"'
expect_rc 0 kpmod del rdret rdlat
expect_rc 0 kpmod trigger rd 'hist:keys=stacktrace if comm == "dd"'
work
expect_rc 0 kpmod hist rd
grep -E -A 1 '^\{ (common_)?stacktrace:' /tmp/.out | grep -q '^         vfs_read+0x' || fail "the stack does not start at vfs_read"
grep -E -A 16 '^\{ (common_)?stacktrace:' /tmp/.out | grep -q 'sys_read+' || fail "no stack through the read syscall"
expect_grep '^} hitcount:        150$'
expect_rc 0 kpmod trigger rd '!hist:keys=stacktrace if comm == "dd"'

# /arg2 > 8192/: only the events above a size.
expect_rc 0 kpmod filter rd 'size > 8192 && comm == "dd"'
expect_rc 0 kpmod enable rd
capture_trace /tmp/t.txt -- work
expect_rc 0 kpmod disable rd
[ "$(grep -c ' rd: .* size=16384$' /tmp/t.txt)" -eq 50 ] || fail "not the 50 reads above 8192"
[ "$(grep -c ' rd: ' /tmp/t.txt)" -eq 50 ] || fail "other reads got through"

# The kprobe_events user's hist trigger, pasted as is.
expect_rc 0 kpmod trigger rd 'hist:keys=common_pid.execname:vals=size:sort=size.descending if comm == "dd"'
work
expect_rc 0 kpmod hist rd
grep -A 3 'trigger info: hist:keys=common_pid.execname:vals=hitcount,size:sort=size.descending' /tmp/.out |
	grep -q '^{ common_pid: dd .* hitcount:         50  size:     819200$' ||
	fail "the 16 KiB dd is not first"
unload_kpmod
