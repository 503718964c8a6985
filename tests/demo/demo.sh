# What `make demo` runs inside the booted guest: a probe defined in
# kprobe_events syntax, traced, printed in ftrace's format.
. "$KPMOD_LIB"
show() { echo "# $*"; "$@" || fail "$* exited $?"; }

echo "# kernel $(uname -r), kprobe_events: $( [ -e /sys/kernel/tracing/kprobe_events ] && echo present || echo absent)"
show insmod "$KPMOD_KO"
show kpmod status
show kpmod add 'p:myopen do_sys_openat2 dfd=$arg1:s32 path=+0($arg2):ustring' \
	'r:myret do_sys_openat2 ret=$retval:s32 path=+0($arg2):ustring'
show kpmod list
show kpmod enable all
kpmod trace --duration 5 >/tmp/demo.trace 2>/tmp/demo.err &
tpid=$!
wait_reader $tpid
echo "# kpmod-work open /etc/passwd 2; kpmod-work open /nonexistent 1"
kpmod-work open /etc/passwd 2
kpmod-work open /nonexistent 1
wait $tpid
echo "# kpmod trace --duration 5 | grep kpmod-work"
grep ' kpmod-work-' /tmp/demo.trace
cat /tmp/demo.err
grep -q 'path="/nonexistent"' /tmp/demo.trace || fail "the traced open is missing"
show kpmod stat
show kpmod disable all
show kpmod clear
show rmmod kpmod
