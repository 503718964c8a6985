# Guest half of tests/drivers/prometheus: real counters from the module, frozen,
# then `kpmod stat` and `kpmod stat --prometheus` between markers on the
# console, for node_exporter on the host to serve.
. "$KPMOD_LIB"
load_kpmod
expect_rc 0 kpmod add --enable 'p:kpm/pg find_task_by_vpid nr=$arg1:s32' \
	'p:kpm/some find_task_by_vpid nr=$arg1:s32'
expect_rc 0 kpmod filter kpm/some 'nr >= 1050'
expect_rc 0 kpmod trigger kpm/pg 'hist:keys=nr.buckets=10:vals=hitcount,nr'
for c in $(grep ^processor /proc/cpuinfo | sed 's/.*: //'); do
	taskset -c "$c" kpmod-work getpgid 100 1000
done
# Frozen: nothing changes the counters from here on.
expect_rc 0 kpmod disable kpm/pg kpm/some
expect_rc 0 kpmod trigger kpm/pg 'hist:keys=nr.buckets=10:vals=hitcount,nr:pause'
echo "=== kpmod stat ==="
kpmod stat || fail "kpmod stat"
echo "=== kpmod stat --prometheus ==="
kpmod stat --prometheus || fail "kpmod stat --prometheus"
kpmod hist --prometheus kpm/pg || fail "kpmod hist --prometheus"
echo "=== kpmod hist ==="
kpmod hist kpm/pg || fail "kpmod hist"
echo "=== end ==="
expect_rc 0 kpmod trigger kpm/pg '!hist:keys=nr.buckets=10:vals=hitcount,nr'
expect_rc 0 kpmod del kpm/pg kpm/some
unload_kpmod
