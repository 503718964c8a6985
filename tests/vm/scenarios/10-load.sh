# insmod, kpmod version matches the module, kpmod status, rmmod.
. "$KPMOD_LIB"

load_kpmod
grep -q '^kpmod ' /proc/modules || fail "kpmod not in /proc/modules"
[ -c /dev/kpmod ] || fail "/dev/kpmod missing"
mode=$(stat -c %a /dev/kpmod)
[ "$mode" = 600 ] || fail "/dev/kpmod mode $mode, expected 600"

[ -n "$KPMOD_UAPI" ] || fail "the harness did not say which uapi was built"
expect_rc 0 kpmod version
modver=$(cat /sys/module/kpmod/version)
expect_grep "^module $modver (uapi $KPMOD_UAPI, $KPMOD_ARCH)"
expect_grep "^kpmod $modver (uapi $KPMOD_UAPI)"

expect_rc 0 kpmod status
expect_grep "^module:  $modver (uapi $KPMOD_UAPI)"
expect_grep "^arch:    $KPMOD_ARCH\$"
expect_grep "^kernel:  $(uname -r)\$"
ncpu=$(grep -c ^processor /proc/cpuinfo)
expect_grep "online"
online=$(sed -n 's/^cpus: *[0-9]* possible, \([0-9]*\) online$/\1/p' /tmp/.out)
[ "$online" = "$ncpu" ] || fail "status says $online CPUs online, /proc/cpuinfo $ncpu"
expect_grep "^probes:  0 registered (max 1024)\$"

unload_kpmod
grep -q '^kpmod ' /proc/modules && fail "kpmod still loaded"
[ -e /dev/kpmod ] && fail "/dev/kpmod still there after rmmod"
exit 0
