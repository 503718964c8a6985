# Without the module: documented error and exit code 3 (kpmod version
# still prints the CLI's).  Non-root: refused
# by the module (exit code 4) with the error shown.  Bad parameters refused.
. "$KPMOD_LIB"

expect_rc 3 kpmod status
expect_grep "kpmod: status: the kpmod module is not loaded"
# version: the CLI's without the module, exit 0; exit 3 when asked for it.
expect_rc 0 kpmod version
expect_grep "^kpmod [0-9.]* (uapi $KPMOD_UAPI)$"
expect_grep "not loaded"
expect_rc 0 kpmod --version
expect_grep "^kpmod [0-9.]* (uapi $KPMOD_UAPI)$"
expect_rc 3 kpmod version --module
expect_grep "not loaded"
expect_rc 2 kpmod no-such-command
expect_grep "unknown command"

load_kpmod
expect_rc 4 as_user "kpmod status"
expect_grep "kpmod: status: permission denied: kpmod requires CAP_NET_ADMIN and CAP_SYS_ADMIN (Operation not permitted); run as root"
as_user "cat /dev/kpmod" 2>/dev/null && fail "non-root opened /dev/kpmod"
expect_rc 0 kpmod status
unload_kpmod

# Out-of-range parameter: refused at load, nothing left behind.
insmod "$KPMOD_KO" max_probes=0 2>/dev/null && fail "max_probes=0 accepted"
grep -q '^kpmod ' /proc/modules && fail "kpmod loaded with a bad parameter"
dmesg | grep -q "max_probes=0 out of range" || fail "no message for max_probes=0"
load_kpmod max_probes=7
expect_rc 0 kpmod status
expect_grep "(max 7)"
unload_kpmod
exit 0
