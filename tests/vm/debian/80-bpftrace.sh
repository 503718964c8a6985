# bpftrace, from the Debian root file system (tests/vm/run --rootfs debian),
# and kpmod on the same probes and the same workload: their answers agree.
# dd reads /dev/zero in three sizes, a count each; no size is a power of
# two, so bpftrace's hist() bucket [2K, 4K) and kpmod's .log2 bucket
# (2K, 4K] hold the same reads.  Both tracers are attached at once, each
# filtering on comm == "dd".
. "$KPMOD_LIB"
need_debian
load_kpmod
note "$(in_debian bpftrace --version) on Debian $(cat "$KPMOD_ROOTFS/etc/debian_version")"
work() {
	dd if=/dev/zero of=/dev/null bs=3000 count=40 2>/dev/null
	dd if=/dev/zero of=/dev/null bs=700 count=60 2>/dev/null
	dd if=/dev/zero of=/dev/null bs=20000 count=25 2>/dev/null
}

# bt_start PROGRAM: bpftrace running PROGRAM, whose probes print "ready"
# for a read by head.  Attached when that line is out: the probe that
# counts is the one that printed it.
bt_start() {
	bpftrace_start "$1" 'head -c 1 /proc/version >/dev/null; grep -q "^ready$" /tmp/bt.out'
}

# rows FILE [MAP]: the rows of every hist()/lhist() table in FILE (of map
# @MAP only), "LABEL COUNT".
rows() {
	awk -v m="${2:-}" '/^@[a-z]*: *$/ { t = $1; next }
		/^$/ { t = "" }
		(m == "" || t == "@" m ":") && /^[[(][^|]*[])] +[0-9]+ \|/ {
			sub(/ *\|.*/, ""); n = $NF; sub(/ +[0-9]+$/, ""); print $0, n }' "$1"
}
# map_rows FILE: the rows of every map in FILE, without the map's name.
map_rows() {
	sed -n 's/^@[a-z]*\(\[.*\]: [0-9]*\)$/@\1/p' "$1" | sort
}

bt_start 'k:vfs_read {
	if (comm == "head") { printf("ready\n"); }
	if (comm == "dd") { @size = hist(arg2); @lin = lhist(arg2, 0, 25000, 5000); }
}
kr:vfs_read /comm == "dd"/ { @[retval] = count(); @pc[pid, comm, retval] = count(); }'
expect_rc 0 kpmod add 'p:rd vfs_read size=$arg3:u64' 'r:rdret vfs_read ret=$retval:s64'
expect_rc 0 kpmod trigger rd 'hist:keys=size.log2 if comm == "dd"'
expect_rc 0 kpmod trigger rd 'hist:keys=size.buckets=5000 if comm == "dd"'
expect_rc 0 kpmod trigger rdret 'hist:keys=ret if comm == "dd"'
expect_rc 0 kpmod trigger rdret 'hist:keys=common_pid.execname,ret if comm == "dd"'
work
bpftrace_stop
cp /tmp/bt.out /tmp/bt.txt
cat /tmp/bt.txt
{ kpmod hist --graph rd && kpmod hist --graph rdret; } >/tmp/kp.txt || fail "kpmod hist --graph"
cat /tmp/kp.txt

# hist(): bpftrace's [lo, hi) is kpmod's (lo, hi] for these sizes.
rows /tmp/bt.txt size | sed 's/^\[\(.*\)) /(\1] /' >/tmp/bt.hist
rows /tmp/bt.txt lin >/tmp/bt.lhist
rows /tmp/kp.txt | grep '^(' >/tmp/kp.hist
rows /tmp/kp.txt | grep '^\[' >/tmp/kp.lhist
note "hist() rows: bpftrace $(grep -c . /tmp/bt.hist), kpmod $(grep -c . /tmp/kp.hist); lhist(): $(grep -c . /tmp/bt.lhist), $(grep -c . /tmp/kp.lhist)"
[ "$(grep -c . /tmp/kp.hist)" -eq 6 ] && [ "$(grep -c . /tmp/kp.lhist)" -eq 5 ] ||
	fail "kpmod printed not 6 hist() and 5 lhist() rows"
cmp -s /tmp/bt.hist /tmp/kp.hist || { diff /tmp/bt.hist /tmp/kp.hist; fail "hist() rows differ"; }
cmp -s /tmp/bt.lhist /tmp/kp.lhist || { diff /tmp/bt.lhist /tmp/kp.lhist; fail "lhist() rows differ"; }
# Maps: @[retval] = count() and @[pid, comm, retval] = count().
map_rows /tmp/bt.txt >/tmp/bt.map
map_rows /tmp/kp.txt >/tmp/kp.map
[ "$(grep -c . /tmp/kp.map)" -eq 6 ] || fail "kpmod printed not 6 map rows"
cmp -s /tmp/bt.map /tmp/kp.map || { diff /tmp/bt.map /tmp/kp.map; fail "map rows differ"; }
expect_rc 0 kpmod trigger rd '!hist:keys=size.log2 if comm == "dd"'
expect_rc 0 kpmod trigger rd '!hist:keys=size.buckets=5000 if comm == "dd"'
expect_rc 0 kpmod trigger rdret '!hist:keys=ret if comm == "dd"'
expect_rc 0 kpmod trigger rdret '!hist:keys=common_pid.execname,ret if comm == "dd"'
expect_rc 0 kpmod del rd rdret
