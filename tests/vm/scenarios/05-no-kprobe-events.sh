# The reason kpmod exists: on the debug kernel, built without
# CONFIG_KPROBE_EVENTS, tracefs has no kprobe_events, yet kpmod loads and
# answers.  (The tracing scenarios run there too.)
. "$KPMOD_LIB"

[ "$KPMOD_KERNEL" = debug ] || skip "kernel $KPMOD_KERNEL has kprobe_events; this checks the debug kernel"
[ -d /sys/kernel/tracing ] && [ -e /sys/kernel/tracing/trace ] ||
	fail "tracefs is not mounted: the check below would prove nothing"
[ -e /sys/kernel/tracing/kprobe_events ] && fail "this kernel has kprobe_events"
[ -e /sys/kernel/tracing/dynamic_events ] && fail "this kernel has dynamic_events"
grep -q kprobe_events /proc/kallsyms 2>/dev/null && note "kallsyms mentions kprobe_events"
note "no kprobe_events in tracefs"
load_kpmod
expect_rc 0 kpmod status
expect_grep "^probes:  0 registered"
unload_kpmod
