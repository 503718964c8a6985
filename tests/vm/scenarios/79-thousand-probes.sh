# A thousand probes from one file, on a thousand functions (the test
# module's kpmod_target_f000() ... f999()): added, enabled, every one hit
# once with its own argument (events matched by probe name, not by
# order), disabled (no more hits), deleted, and none left behind in
# kpmod, in the kernel's list of kprobes or in ftrace's enabled sites.
. "$KPMOD_LIB"
debug_in_stress "73-131 s under KASAN"
TKO=/kpmod/extra/kpmod_target.ko
[ -f $TKO ] || skip "no kpmod_target.ko (tests/vm/run --module-src tests/vm/modules/kpmod_target)"
MANY=/sys/module/kpmod_target/parameters/many
KPL=/sys/kernel/debug/kprobes/list
EF=/sys/kernel/tracing/enabled_functions
load_kpmod
insmod $TKO || fail "insmod kpmod_target"
[ -w $MANY ] || fail "kpmod_target.ko has no 'many' parameter"

# kprobes_on FILE: how many of the thousand functions FILE lists (a
# function named more than once counts once).
kprobes_on() {
	grep -o 'kpmod_target_f[0-9][0-9][0-9]' "$1" | sort -u | wc -l
}

# parked WHEN: with no site armed, kpmod's ftrace_ops (module/fsite.c)
# stays registered on a function nothing calls, kpmod_fsite_idle
# (unregistering it would wait for RCU-tasks), and on no other site.
FSITE=$(grep -c ' kpmod_fsite_handler' /proc/kallsyms || true)
parked() {
	[ -r $EF ] && [ "$FSITE" -gt 0 ] || return 0
	grep -q '^kpmod_fsite_idle ' $EF || { cat $EF; fail "$1: kpmod's ftrace_ops not parked on kpmod_fsite_idle"; }
	! grep '\[kpmod\]' $EF | grep -qv '^kpmod_fsite_idle ' || { cat $EF; fail "$1: kpmod hooks left besides its parked ftrace_ops"; }
}

i=0
while [ $i -lt 1000 ]; do
	n=$(printf %03d $i)
	echo "p:thou/f$n kpmod_target_f$n i=\$arg1:s32"
	i=$((i + 1))
done >/tmp/thou.defs
expect_rc 0 kpmod add -f /tmp/thou.defs
[ "$(kpmod list | grep -c '^p:thou/f')" -eq 1000 ] || fail "kpmod list does not show the 1,000 probes"
if [ -r $KPL ]; then
	[ "$(kprobes_on $KPL)" -eq 1000 ] || { head $KPL; fail "the kernel lists $(kprobes_on $KPL) of the 1,000 kprobes"; }
fi

expect_rc 0 kpmod enable 'thou/*'
# On x86_64 every one is an ftrace site (arm64's kprobes are breakpoints).
if [ "$KPMOD_ARCH" = x86_64 ] && [ -r $EF ]; then
	[ "$(kprobes_on $EF)" -eq 1000 ] || { grep -c kpmod_target_f $EF; fail "$(kprobes_on $EF) of the 1,000 ftrace sites enabled"; }
fi
capture_trace /tmp/thou.txt -- sh -c "echo 1 >$MANY"
grep -q ', lost 0 ' /tmp/thou.txt.err || fail "events were lost"
# Each probe once, and with the argument of its own function.
awk '
	match($0, / f[0-9][0-9][0-9]: \(kpmod_target_f[0-9][0-9][0-9]\+0x[0-9a-f]+\/0x[0-9a-f]+ \[kpmod_target\]\) i=[0-9]+$/) {
		split(substr($0, RSTART + 1), w, /[: (+]/)
		ev = w[1]; fn = w[4]; sub(/^kpmod_target_/, "", fn)
		arg = $NF; sub(/^i=/, "", arg)
		# (busybox awk reads "010" as octal: compare as text)
		if (ev != fn || sprintf("%03d", arg) != substr(ev, 2)) {
			print "wrong event: " $0; bad++
		}
		seen[ev]++
		next
	}
	{ print "not a probe line: " $0; bad++ }
	END {
		for (e in seen) {
			n++
			if (seen[e] != 1) { print e " hit " seen[e] " times"; bad++ }
		}
		if (n != 1000) { print n " probes hit, 1000 expected"; bad++ }
		exit bad > 0
	}' /tmp/thou.txt >/tmp/thou.bad || { head -20 /tmp/thou.bad; fail "the 1,000 probes' events are not one each with its own argument"; }
note "1,000 probes: 1,000 events, one per probe, each with its own argument"

# The per-probe counts agree: one hit each, no miss.
expect_rc 0 kpmod stat
[ "$(awk '$1 ~ /^f[0-9][0-9][0-9]$/ && $2 == 1 && $3 == 0' /tmp/.out | wc -l)" -eq 1000 ] ||
	{ head /tmp/.out; fail "kpmod stat: not every probe shows one hit and no miss"; }

expect_rc 0 kpmod disable 'thou/*'
echo 1 >$MANY
expect_rc 0 kpmod stat
[ "$(awk '$1 ~ /^f[0-9][0-9][0-9]$/ && $2 == 1' /tmp/.out | wc -l)" -eq 1000 ] ||
	{ head /tmp/.out; fail "disabled probes counted hits"; }
if [ -r $EF ]; then
	[ "$(kprobes_on $EF)" -eq 0 ] || { grep kpmod_target_f $EF | head; fail "ftrace sites left enabled after disable"; }
fi
parked "after disable"
# Armed again from the parked ops: every site, and the idle one no more.
expect_rc 0 kpmod enable 'thou/*'
if [ "$KPMOD_ARCH" = x86_64 ] && [ -r $EF ]; then
	[ "$(kprobes_on $EF)" -eq 1000 ] || fail "$(kprobes_on $EF) of the 1,000 ftrace sites enabled again"
	! grep -q '^kpmod_fsite_idle ' $EF || fail "the idle site stays hooked with the 1,000 armed"
fi
echo 1 >$MANY
expect_rc 0 kpmod stat
[ "$(awk '$1 ~ /^f[0-9][0-9][0-9]$/ && $2 == 2 && $3 == 0' /tmp/.out | wc -l)" -eq 1000 ] ||
	{ head /tmp/.out; fail "enabled again: not every probe shows two hits and no miss"; }
expect_rc 0 kpmod disable 'thou/*'
parked "after the second disable"

expect_rc 0 kpmod del 'thou/*'
[ -z "$(kpmod list)" ] || fail "kpmod list not empty after deleting the 1,000 probes"
expect_rc 0 kpmod status
expect_grep "^probes:  0 registered"
if [ -r $KPL ]; then
	[ "$(kprobes_on $KPL)" -eq 0 ] || { grep kpmod_target_f $KPL | head; fail "kprobes left registered"; }
fi
if [ -r $EF ]; then
	[ "$(kprobes_on $EF)" -eq 0 ] || { grep kpmod_target_f $EF | head; fail "ftrace sites left enabled"; }
fi
parked "after delete"
# The functions run unprobed, and the module goes cleanly.
echo 1 >$MANY
rmmod kpmod_target || fail "rmmod kpmod_target"
unload_kpmod
exit 0
