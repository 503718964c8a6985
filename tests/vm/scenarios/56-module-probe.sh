# Probes on a module's symbol (MOD:SYM): they fire with the right values;
# when that module is unloaded the probe is reported gone, cannot be
# enabled again, is deleted cleanly, and nothing crashes.
. "$KPMOD_LIB"
TKO=/kpmod/extra/kpmod_target.ko
[ -f $TKO ] || skip "no kpmod_target.ko (tests/vm/run --module-src tests/vm/modules/kpmod_target)"
POKE=/sys/module/kpmod_target/parameters/poke
load_kpmod
# The module must be loaded first: refused, with the symbol pointed at.
kpmod add 'p:km/early kpmod_target:kpmod_target_poke' 2>/tmp/e && fail "probe on an absent module accepted"
cat /tmp/e
grep -q "Unknown symbol" /tmp/e || fail "no 'Unknown symbol' message"
kpmod list | grep -q early && fail "probe on an absent module registered"
# A probe elsewhere, enabled before the module's probes exist (lower id).
expect_rc 0 kpmod add --enable 'p:km/live find_task_by_vpid nr=$arg1:s32'
insmod $TKO || fail "insmod kpmod_target"
expect_rc 0 kpmod add --enable 'p:km/poke kpmod_target:kpmod_target_poke n=$arg1:u32 tag=+0($arg2):string' \
	'r:km/pokeret kpmod_target:kpmod_target_poke ret=$retval:s32 n=$arg1:u32'
workload() {
	echo 41 >$POKE
	echo 42 >$POKE
}
capture_trace /tmp/t.txt -- workload
grep -q ': poke: (kpmod_target_poke+0x[0-9a-f]*/0x[0-9a-f]* \[kpmod_target\]) n=41 tag="kpmod-target"$' /tmp/t.txt ||
	{ cat /tmp/t.txt; fail "module probe: wrong line"; }
grep -q ': pokeret: (.* <- kpmod_target_poke) ret=43 n=42$' /tmp/t.txt ||
	{ cat /tmp/t.txt; fail "module return probe: wrong line"; }
# The target goes away under enabled probes.
rmmod kpmod_target || fail "rmmod kpmod_target"
expect_rc 0 kpmod stat
expect_grep "poke .*(gone)"
expect_rc 0 kpmod disable km/poke km/pokeret
expect_rc 5 kpmod enable km/poke
expect_grep "gone"
# Failing on a gone probe, enable all changes nothing: km/live, which it
# did not change, is still enabled and still records.
expect_rc 5 kpmod enable all
expect_grep "'all': the probed module is gone"
expect_rc 0 kpmod stat
set -- $(grep '^  live ' /tmp/.out)
before=$2
kpmod-work getpgid 10 5550000
expect_rc 0 kpmod stat
set -- $(grep '^  live ' /tmp/.out)
[ "$2" -ge $((before + 10)) ] || fail "live stopped recording after a failed enable all ($before -> $2)"
# The module again, likely at the same address: the gone probes stay
# gone and record nothing of the new copy.
insmod $TKO || fail "insmod kpmod_target again"
capture_trace /tmp/t2.txt -- workload
grep -q 'poke' /tmp/t2.txt && { cat /tmp/t2.txt; fail "a gone probe recorded the module loaded again"; }
# Where kpmod arms entry probes through its own ftrace_ops (fsite.c), the
# probed module's going took its address out of that filter.  (Through a
# kprobe, 5.10's kernel leaves the site traced, its handler a no-op.)
if [ -r /sys/kernel/tracing/enabled_functions ] && grep -q ' kpmod_fsite_handler' /proc/kallsyms; then
	grep kpmod_target_poke /sys/kernel/tracing/enabled_functions &&
		fail "the module loaded again has its function traced"
fi
rmmod kpmod_target || fail "rmmod kpmod_target again"
expect_rc 0 kpmod disable all
expect_rc 0 kpmod del km/poke km/pokeret km/live
expect_rc 0 kpmod status
expect_grep "^probes:  0 registered"
unload_kpmod
