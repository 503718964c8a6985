# Allocation failures (the debug kernel: fault injection through
# /proc/self/fail-nth, failslab and fail_page_alloc failing sleeping
# allocations too).  For insmod, probe add, filter, hist trigger, buffer
# resize and reader attach, kpmod-nlfuzz failnth fails the 1st, 2nd, ...
# allocation of the operation in turn until it runs with none left to fail:
# each failure must be refused with ENOMEM (ENOBUFS when netlink itself
# lost the request), leave nothing half-made, and the next try must work;
# the harness's kmemleak scan finds any leak.
. "$KPMOD_LIB"
[ -e /proc/self/fail-nth ] && [ -d /sys/kernel/debug/failslab ] ||
	skip "no fault injection in this kernel (the debug kernel has it)"
for f in failslab fail_page_alloc; do
	echo N >/sys/kernel/debug/$f/ignore-gfp-wait
	echo 0 >/sys/kernel/debug/$f/verbose
done
echo N >/sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem
echo 0 >/sys/kernel/debug/fail_page_alloc/min-order
# KPMOD_FAILNTH_STEP: fail every Nth allocation only (make check: insmod's
# 500 in steps of 15; make stress: every one).
max=${KPMOD_FAILNTH_MAX:-3000}
step=${KPMOD_FAILNTH_STEP:-15}
expect_rc 0 kpmod-nlfuzz failnth insmod "$max" "$step" "$KPMOD_KO"
for op in add filter hist buffer attach; do
	expect_rc 0 kpmod-nlfuzz failnth $op "$max" 1
done
expect_rc 0 kpmod clear
expect_rc 0 kpmod add 'p:kb/still_works vfs_read n=$arg3'
expect_rc 0 kpmod enable kb/still_works
cat /proc/self/stat >/dev/null
expect_rc 0 kpmod stat
grep -q '^  still_works  *[1-9]' /tmp/.out || fail "the probe added after the failures counted no hit"
expect_rc 0 kpmod disable all
expect_rc 0 kpmod clear
unload_kpmod
