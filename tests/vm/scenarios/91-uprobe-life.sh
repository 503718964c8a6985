# uprobes with a filter, a hist trigger and a one-shot hist, as kprobes
# have them (against the kernel's hist trigger on the same uprobe_events
# event where the kernel has both); then a probed process that forks,
# execs and exits; a file replaced on disk under its probe (as
# uprobe_events: the probe stays on the old file); rmmod with uprobes
# armed while a process hits them (it must run on, unharmed).
. "$KPMOD_LIB"
T=/sys/kernel/tracing
B=/usr/bin/kpmod-utarget
eval "$(kpmod-utarget offsets | sed 's/^\([a-z_]*\) \(0x[0-9a-f]*\)$/\1=\2/')"
[ -n "$ut_add" ] || fail "kpmod-utarget offsets printed nothing"
case "$KPMOD_ARCH" in
x86_64) A1=%di A2=%si A3=%dx ;;
arm64) A1=%x0 A2=%x1 A3=%x2 ;;
esac
def="p:uh/add $B:$ut_add a=$A1:s64 b=$A2:s64 s=+0($A3):string"
load_kpmod
kpmod add "$def" >/tmp/o 2>&1 || {
	cat /tmp/o
	grep -q 'no uprobes' /tmp/o || fail "kpmod add refused a uprobe"
	unload_kpmod
	skip "this kernel has no uprobes (CONFIG_UPROBES)"
}
oracle=
[ -e $T/uprobe_events ] && [ -e $T/events ] && oracle=1

# A filter and a hist trigger: passes 11..20 but 17 ("w3") are traced;
# the hist, as the kernel's, counts every hit (its trigger has no filter).
filter='a > 10 && s != "w3"'
trig='hist:keys=s:vals=b:sort=s'
expect_rc 0 kpmod filter uh/add "$filter"
expect_rc 0 kpmod trigger uh/add "$trig"
if [ -n "$oracle" ]; then
	echo "$def" >>$T/uprobe_events || fail "uprobe_events refused: $def"
	echo "$filter" >$T/events/uh/add/filter || fail "the kernel refused the filter"
	hist=
	echo "$trig" >>$T/events/uh/add/trigger 2>/dev/null && hist=1
	echo >$T/trace
	echo 1 >$T/events/uh/add/enable
fi
expect_rc 0 kpmod enable uh/add
kpmod trace --duration 4 >/tmp/t.txt 2>/tmp/t.err &
tpid=$!
wait_reader $tpid
kpmod-utarget run 20
wait $tpid
[ -z "$oracle" ] || echo 0 >$T/events/uh/add/enable
expect_rc 0 kpmod disable uh/add
n=$(grep -c ' add: ' /tmp/t.txt)
[ "$n" -eq 9 ] || { cat /tmp/t.txt; fail "$n events through the filter, not 9"; }
sed -n 's/.* add: ([^)]*) a=\([0-9]*\) .*/\1/p' /tmp/t.txt | tr '\n' ' ' >/tmp/as
[ "$(cat /tmp/as)" = "11 12 13 14 15 16 18 19 20 " ] || fail "the filter let through: $(cat /tmp/as)"
expect_rc 0 kpmod hist uh/add
expect_grep 'Hits: 20$'
# w3: passes 3, 10, 17, so b = 1003 + 1010 + 1017.
expect_grep '^{ s: w3 *} hitcount: *3 *b: *3030$'
if [ -n "$oracle" ]; then
	n=$(grep -c ' add: ' $T/trace)
	[ "$n" -eq 9 ] || fail "uprobe_events' filter let $n events through"
	if [ -n "$hist" ]; then
		cat $T/events/uh/add/hist >/tmp/k.txt
		kpmod hist uh/add >/tmp/m.txt
		for f in k m; do
			grep '^{' /tmp/$f.txt >/tmp/$f.ent
			sed -n '/^Totals:/,$p' /tmp/$f.txt >/tmp/$f.tot
		done
		diff /tmp/k.ent /tmp/m.ent && diff /tmp/k.tot /tmp/m.tot ||
			fail "kpmod's hist on a uprobe differs from the kernel's"
		note "hist on a uprobe: $(wc -l </tmp/m.ent) entries as the kernel's"
		echo "!$trig" >>$T/events/uh/add/trigger
	fi
	echo 0 >$T/events/uh/add/filter
	echo "-:uh/add" >>$T/uprobe_events || fail "uprobe_events kept uh/add"
fi
expect_rc 0 kpmod trigger uh/add "!$trig"
expect_rc 0 kpmod del uh/add

# A one-shot hist on a uprobe: the command's calls only.
expect_rc 0 kpmod hist "p:uo/add $B:$ut_add a=$A1:s64" 'hist:keys=a:sort=a' -- kpmod-utarget run 5
for i in 1 2 3 4 5; do expect_grep "^{ a: *$i } hitcount: *1$"; done
expect_rc 0 kpmod status
expect_grep '^probes:  0 registered'

# A probed process that forks (the child's copy of the text is probed
# too), exec'd by a shell, exiting: every call of parent and child.
expect_rc 0 kpmod add -e "$def"
kpmod trace --duration 4 >/tmp/t.txt 2>/tmp/t.err &
tpid=$!
wait_reader $tpid
sh -c 'exec kpmod-utarget fork 4' || fail "kpmod-utarget fork failed under the probe"
wait $tpid
pids=$(sed -n 's/^ *kpmod-utarget-\([0-9]*\) .* add: .*/\1/p' /tmp/t.txt | sort -u | wc -l)
n=$(grep -c ' add: ' /tmp/t.txt)
[ "$pids" -eq 2 ] && [ "$n" -eq 8 ] || { cat /tmp/t.txt; fail "fork: $n events from $pids processes, not 8 from 2"; }
expect_rc 0 kpmod disable uh/add
expect_rc 0 kpmod del uh/add

# A file replaced on disk (a new inode renamed into place): the probe, as
# uprobe_events' one, stays on the old file, which no new process runs.
cp $B /tmp/ut2
def2="p:uh/r /tmp/ut2:$ut_add a=$A1:s64"
expect_rc 0 kpmod add -e "$def2"
[ -z "$oracle" ] || { echo "$def2" >>$T/uprobe_events && echo >$T/trace && echo 1 >$T/events/uh/r/enable; } ||
	fail "uprobe_events refused $def2"
/tmp/ut2 run 3
cp $B /tmp/ut2.new && mv /tmp/ut2.new /tmp/ut2
/tmp/ut2 run 3
expect_rc 0 kpmod stat
awk '$1 == "r" && $2 == 3 { ok = 1 } END { exit !ok }' /tmp/.out ||
	fail "the probe on the replaced file did not count the old file's 3 calls only"
if [ -n "$oracle" ]; then
	n=$(grep -c ' r: ' $T/trace)
	[ "$n" -eq 3 ] || fail "uprobe_events counted $n, not 3: kpmod behaves otherwise"
	echo 0 >$T/events/uh/r/enable
	echo "-:uh/r" >>$T/uprobe_events
fi
expect_rc 0 kpmod list
expect_grep "^p:uh/r /tmp/ut2:0x"
expect_rc 0 kpmod disable uh/r
expect_rc 0 kpmod del uh/r
rm -f /tmp/ut2

# rmmod with the uprobes armed and hit: the process runs on, unharmed.
expect_rc 0 kpmod add -e "$def" "r:uh/ret $B:$ut_add ret=\$retval:s64"
kpmod-utarget run 300000 &
wpid=$!
sleep 1
kill -0 $wpid 2>/dev/null || fail "the probed process ended before rmmod: make its run longer"
expect_rc 0 kpmod stat
awk '$1 == "add" && $2 > 0 { ok = 1 } END { exit !ok }' /tmp/.out || fail "no hit before rmmod"
unload_kpmod
wait $wpid || fail "the probed process died after rmmod (exit $?)"
note "rmmod with armed uprobes: the process ran on and exited 0"
