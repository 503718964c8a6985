# The control plane.  A probe dump that a change from another socket
# overlaps says NLM_F_DUMP_INTR, whatever the change: enabling, disabling,
# a filter, a trigger, an add, a delete.  And no request waits for
# another's release: while a delete waits for its grace period (held back
# by the test module: an RCU read-side critical section that lasts until
# the test ends it), status, add, enable, filter, trigger, hist, list,
# stat, format and disable on other probes complete.  Which is checked by order,
# not by time: each must return while the delete is still waiting.
. "$KPMOD_LIB"
TKO=/kpmod/extra/kpmod_target.ko
[ -f $TKO ] || skip "no kpmod_target.ko (tests/vm/run --module-src tests/vm/modules/kpmod_target)"
load_kpmod
insmod $TKO || fail "insmod kpmod_target"
P=/sys/module/kpmod_target/parameters

# 300 probes of six arguments: their dump takes several parts of 32 KiB.
n=0
while [ $n -lt 300 ]; do
	echo "p:many/m$n vfs_fsync a=\$arg1 b=\$arg2 c=\$arg1 d=\$arg2 e=\$arg1 f=\$arg2"
	n=$((n + 1))
done >/tmp/many.defs
expect_rc 0 kpmod add -f /tmp/many.defs

# dumpintr CMD: dumps the probes, running CMD after the first part; sets
# probes, parts and intr.
dumpintr() {
	kpmod-nlcheck dumpintr "$1" >/tmp/nlc || fail "kpmod-nlcheck dumpintr '$1' failed"
	read -r _ probes _ parts _ intr </tmp/nlc
}
dumpintr true
note "a dump of 300 probes: $parts parts"
[ "$probes" -eq 300 ] && [ "$parts" -ge 4 ] && [ "$intr" -eq 0 ] ||
	fail "a dump with nothing changing: $(cat /tmp/nlc), expected 300 probes in 4 parts or more, none interrupted"
for cmd in "kpmod enable many/m299" "kpmod disable many/m299" \
	"kpmod filter many/m299 'common_pid == 1'" "kpmod filter many/m299 0" \
	"kpmod trigger many/m299 traceoff" "kpmod trigger many/m299 '!traceoff'" \
	"kpmod trigger many/m299 'hist:keys=common_pid'" \
	"kpmod trigger many/m299 'hist:keys=common_pid:pause'" \
	"kpmod trigger many/m299 '!hist:keys=common_pid'" \
	"kpmod add 'p:many/extra vfs_fsync'" "kpmod del many/extra"; do
	dumpintr "$cmd"
	[ "$intr" -gt 0 ] || fail "a dump overlapping '$cmd' was not flagged NLM_F_DUMP_INTR: $(cat /tmp/nlc)"
done
note "every change between a dump's parts flagged it"
expect_rc 0 kpmod del 'many/*'

# A CPU spins in the RCU read-side section: keep the kernel's watchdogs
# from calling that a lockup or a stall while it does.
wt=$(cat /proc/sys/kernel/watchdog_thresh 2>/dev/null || true)
st=$(cat /sys/module/rcupdate/parameters/rcu_cpu_stall_timeout 2>/dev/null || true)
[ -z "$wt" ] || echo 60 >/proc/sys/kernel/watchdog_thresh
[ -z "$st" ] || echo 300 >/sys/module/rcupdate/parameters/rcu_cpu_stall_timeout

# A probe stays enabled throughout, so that the kprobes' ftrace hook is
# never the first nor the last (its removal waits for other grace periods).
expect_rc 0 kpmod add --enable 'p:cp/keep vfs_read'
expect_rc 0 kpmod add 'p:cp/gone vfs_fsync' 'r:cp/goneret vfs_fsync'
# The probes added while the delete waits.  On arm64 a kprobe (no ftrace
# at a function's entry there) takes an instruction slot, and registering
# one can collect the slots of the 300 deleted above, which the kernel
# does after a grace period (kernel/kprobes.c's collect_garbage_slots();
# seen on 5.10): there they are added before.
new="add 'p:cp/new vfs_write' 'r:cp/newret vfs_write'"
if [ "$KPMOD_ARCH" = arm64 ]; then
	eval "expect_rc 0 kpmod $new"
	new=
fi
echo 1 >$P/rcu_hold || fail "could not hold RCU grace periods back"
kpmod del cp/gone cp/goneret >/tmp/del.out 2>&1 &
delpid=$!
# Off the registry, so in its release, waiting for the grace period.
i=0
while kpmod list | grep -q 'cp/gone'; do
	i=$((i + 1))
	[ $i -lt 600 ] || fail "the delete did not take its probes off within 60 s"
	sleep 0.1
done
kill -0 $delpid 2>/dev/null || { cat /tmp/del.out; fail "the delete ended while grace periods were held back"; }
cmds="status${new:+|$new}|list|stat|list --json"
cmds="$cmds|filter cp/new 'common_pid != 1'|buffer|format cp/new"
# arm64 arms and disarms a kprobe by stop_machine(), which waits for every
# CPU, the held one too: there, only what arms nothing.
[ "$KPMOD_ARCH" = arm64 ] ||
	cmds="$cmds|enable cp/new cp/newret|trigger cp/new 'hist:keys=common_pid'|hist cp/new|trigger cp/new 'hist:keys=common_pid:pause'|disable cp/new cp/newret"
n=0
while [ -n "$cmds" ]; do
	c=kpmod\ ${cmds%%|*}
	[ "$cmds" != "${cmds#*|}" ] && cmds=${cmds#*|} || cmds=
	eval "$c" >/tmp/c.out 2>&1 || { cat /tmp/c.out; fail "'$c' failed"; }
	kill -0 $delpid 2>/dev/null ||
		fail "'$c' returned only once the delete's grace period was over: it waited for it"
	n=$((n + 1))
done
note "$n commands completed while a delete waited for its grace period"
echo 0 >$P/rcu_hold || fail "could not let RCU grace periods go"
wait $delpid || { cat /tmp/del.out; fail "kpmod del failed"; }
[ "$(cat $P/rcu_hold_expired)" -eq 0 ] || fail "the RCU hold ran out: a command waited for it"
[ -z "$wt" ] || echo "$wt" >/proc/sys/kernel/watchdog_thresh
[ -z "$st" ] || echo "$st" >/sys/module/rcupdate/parameters/rcu_cpu_stall_timeout

[ "$KPMOD_ARCH" = arm64 ] || expect_rc 0 kpmod trigger cp/new '!hist:keys=common_pid'
expect_rc 0 kpmod disable cp/keep
expect_rc 0 kpmod clear
rmmod kpmod_target || fail "rmmod kpmod_target"
unload_kpmod
exit 0
