# One-shot runs: kpmod trace|record DEF|EVENT|GLOB ... [-- COMMAND].
# With a command, only its process tree is recorded (children, and orphans
# reparented to kpmod as their subreaper), never another process; whatever
# ends the run (the command's exit, SIGINT, SIGTERM, the command killed,
# --duration, a write error), what it added is deleted and what it enabled
# disabled, and events enabled before it are left as they were; a run
# killed with SIGKILL leaves what kpmod status reports and kpmod clear
# removes.  Events are counted by the value each process passes (getpgid's
# argument), never by position.
. "$KPMOD_LIB"
load_kpmod
DEF='p:kpm/pg find_task_by_vpid nr=$arg1:s32'

# count FILE BASE: the events of FILE whose nr is BASE00..BASE99
# (kpmod-work getpgid N START passes START, START+1, ...).
count() { grep -cE " pg: .* nr=$2[0-9][0-9]\$" "$1"; }
# outside FILE: the events of the process outside the tree.
outside() { grep -c " pg: .* nr=9999\$" "$1"; }
# running PATTERN: whether a process' command line is PATTERN (no pgrep here).
running() {
	for d in /proc/[0-9]*; do
		[ "$(cat "$d/cmdline" 2>/dev/null | tr '\0' ' ')" = "$1 " ] && return 0
	done
	return 1
}
# no_probes: the run left nothing: no probe at all.
no_probes() {
	kpmod list >/tmp/left.txt || fail "kpmod list"
	[ ! -s /tmp/left.txt ] || { cat /tmp/left.txt; fail "the run left probes: $1"; }
}

# Another process calls getpgid(9999) all along: never in the tree.
(while :; do kpmod-work getpgid 1 9999; sleep 0.02; done) &
outside=$!

# The command, a child, and an orphan (its parent exits at once) that
# reparents to kpmod: 20 events each, by value.
cat >/tmp/work.sh <<'EOF'
kpmod-work getpgid 20 10000
kpmod-work getpgid 20 20000 &
sh -c '(sleep 0.3; kpmod-work getpgid 20 30000) &'
wait
sleep 2
EOF
expect_rc 0 kpmod trace "$DEF" -- sh /tmp/work.sh
cp /tmp/.out /tmp/run.txt
grep -q '^Attaching 1 probe\.\.\.$' /tmp/run.txt || fail "no 'Attaching 1 probe...' line"
for base in 100 200 300; do
	n=$(count /tmp/run.txt $base)
	[ "$n" -eq 20 ] || fail "nr=${base}xx: $n events, expected 20"
done
n=$(outside /tmp/run.txt)
[ "$n" -eq 0 ] || fail "$n events of a process outside the tree"
no_probes "after the command exited"
note "tree: 20 + 20 + 20 (orphan) events, 0 from outside"

# README's example: the file a command opens, by its path.
echo kpmod-guest >/tmp/hostname
expect_rc 0 kpmod trace 'p:open do_sys_openat2 path=+0($arg2):ustring' -- cat /tmp/hostname
grep -qE '^ +cat-[0-9]+ +\[[0-9]+\] \.\.\.\.\. +[0-9.]+: open: \(do_sys_openat2\+0x0/0x[0-9a-f]+\) path="/tmp/hostname"$' /tmp/.out ||
	fail "no event of cat opening /tmp/hostname"
expect_grep '^kpmod-guest$'
no_probes "after README's example"

# Options after a definition, as anywhere before "--": --count ends the run.
expect_rc 0 kpmod trace "$DEF" --count 3 -- kpmod-work getpgid 10 11000
[ "$(count /tmp/.out 110)" -eq 3 ] || fail "--count 3 after the definition: not 3 events"
no_probes "after --count"

# Without a command: every process, until --duration.
expect_rc 0 kpmod trace --duration 1 "$DEF"
[ "$(outside /tmp/.out)" -gt 0 ] || fail "no event of the outside process without a command"
no_probes "after --duration"

# A return probe with one instance (r1:): a process outside the tree,
# blocked inside the function, must not hold it, or every return of the
# tree's is missed.  The outside one opens a FIFO nobody writes, once the
# run has begun; the command waits until it sleeps there, then opens.
mkfifo /tmp/fifo
(while [ ! -e /tmp/go ]; do sleep 0.05; done; exec cat /tmp/fifo) >/dev/null &
blocked=$!
cat >/tmp/ret.sh <<'EOF'
touch /tmp/go
i=0
while [ $i -lt 200 ]; do
	for d in /proc/[0-9]*; do
		[ "$(tr '\0' ' ' <$d/cmdline 2>/dev/null)" = "cat /tmp/fifo " ] &&
			[ "$(cut -d' ' -f3 $d/stat)" = S ] && i=200
	done
	i=$((i + 1))
	sleep 0.05
done
sleep 0.2
cat /tmp/hostname
EOF
expect_rc 0 kpmod trace 'r1:kpm/oret do_sys_openat2 ret=$retval:s64' -- sh /tmp/ret.sh
grep -qE '^ +cat-[0-9]+ +\[[0-9]+\] .* oret: .* ret=[0-9]+$' /tmp/.out ||
	fail "no return of the tree's cat: the outside process held the only instance"
echo x >/tmp/fifo
wait $blocked
rm -f /tmp/go /tmp/fifo
no_probes "after the return probe"

# Existing events: one disabled (enabled for the run, then disabled
# again), one enabled (left enabled); a glob names them.
# The enabled one first, as the glob meets them.
expect_rc 0 kpmod add 'p:kpm/on find_task_by_vpid nr=$arg1:s32' \
	'p:kpm/pre find_task_by_vpid nr=$arg1:s32' 'p:kpm/pre2 find_task_by_vpid nr=$arg1:s32'
expect_rc 0 kpmod enable kpm/on
expect_rc 0 kpmod trace 'kpm/*' -- kpmod-work getpgid 5 40000
grep -q '^Attaching 2 probes\.\.\.$' /tmp/.out || fail "the glob should enable 2 probes"
expect_grep '1 event enabled before this run is read for every process'
for ev in pre pre2; do
	[ "$(grep -cE " $ev: .* nr=400[0-9][0-9]\$" /tmp/.out)" -eq 5 ] || fail "kpm/$ev: not 5 events"
done
expect_rc 0 kpmod del kpm/pre kpm/pre2
expect_rc 5 kpmod del kpm/on
expect_rc 0 kpmod disable kpm/on
expect_rc 0 kpmod del kpm/on
expect_rc 2 kpmod trace 'nomatch_*' -- true
expect_grep "matches no event"

# Nothing named and nothing enabled: said on stderr.
expect_rc 0 kpmod trace --duration 0.2
expect_grep 'no event is enabled'
# A run reads its own events, not those the rings held before it.
expect_rc 0 kpmod add --enable 'p:kpm/old find_task_by_vpid nr=$arg1:s32'
kpmod-work getpgid 3 70000
expect_rc 0 kpmod disable kpm/old
expect_rc 0 kpmod trace "$DEF" -- kpmod-work getpgid 3 80000
grep -q ' old: ' /tmp/.out && fail "a run printed events from before it"
[ "$(count /tmp/.out 800)" -eq 3 ] || fail "not 3 events of the run"
expect_rc 0 kpmod del kpm/old

# SIGINT and SIGTERM end the run and the command; everything is undone.
for sig in INT TERM; do
	kpmod trace "$DEF" -- sleep 31 >/tmp/sig.txt 2>&1 &
	pid=$!
	wait_reader $pid
	kill -$sig $pid
	wait $pid || fail "SIG$sig: trace exited $?"
	running 'sleep 31' && fail "SIG$sig: the command is still running"
	no_probes "after SIG$sig"
done

# The command killed: the run ends.
kpmod trace "$DEF" -- sleep 31 >/tmp/kill.txt 2>&1 &
pid=$!
wait_reader $pid
for d in /proc/[0-9]*; do
	[ "$(cat "$d/cmdline" 2>/dev/null | tr '\0' ' ')" = "sleep 31 " ] && kill -KILL "${d#/proc/}"
done
wait $pid || fail "trace exited $? after its command was killed"
grep -q 'the command was killed by signal 9' /tmp/kill.txt || fail "no word of the command's death"
no_probes "after the command was killed"

# A command that cannot run: usage error, nothing left.
expect_rc 2 kpmod trace "$DEF" -- /no/such/command
expect_grep 'No such file or directory'
no_probes "after a command that could not run"

# A write error: reported, exit 1, undone.
expect_rc 1 kpmod trace -o /dev/full "$DEF" -- kpmod-work getpgid 50 50000
expect_grep 'write error: No space left on device'
no_probes "after a write error"

# A reader piped into head: the closed pipe ends the run quietly, exit 0.
{ kpmod trace "$DEF" -- kpmod-work getpgid 2000 13000 2>/tmp/pipe.err; echo $? >/tmp/pipe.rc; } |
	head -n 1 >/dev/null
cat /tmp/pipe.err
[ "$(cat /tmp/pipe.rc)" = 0 ] || fail "trace | head exited $(cat /tmp/pipe.rc)"
grep -q 'write error' /tmp/pipe.err && fail "a closed pipe was called a write error"
no_probes "after a closed pipe"

# record, then report, the same way.
expect_rc 0 kpmod record -o /tmp/r.kpr "$DEF" -- kpmod-work getpgid 7 60000
expect_rc 0 kpmod report /tmp/r.kpr
[ "$(count /tmp/.out 600)" -eq 7 ] || fail "record: not 7 events"
[ "$(outside /tmp/.out)" -eq 0 ] || fail "record: events from outside the tree"
no_probes "after record"

# hist, the same way: counted in the module, the command's tree only.
expect_rc 0 kpmod hist "$DEF" 'hist:keys=nr' -- kpmod-work getpgid 5 90000
i=0
while [ $i -lt 5 ]; do
	grep -qE "^\{ nr: +9000$i \} hitcount: +1\$" /tmp/.out || fail "hist: no entry for nr 9000$i"
	i=$((i + 1))
done
expect_grep '^    Hits: 5$'
expect_grep '^    Entries: 5$'
grep -q 'nr: *9999 ' /tmp/.out && fail "hist counted a process outside the tree"
no_probes "after hist"
expect_rc 2 kpmod hist 'kpm/pg' 'hist:keys=nr' -- true
expect_grep 'is not a definition'
expect_rc 8 kpmod hist "$DEF" 'hist:keys=nosuch' -- true
no_probes "after a hist trigger that does not parse"

# kill -9 of kpmod itself: status reports what is left, clear removes it.
kpmod trace "$DEF" -- sleep 31 >/dev/null 2>&1 &
pid=$!
wait_reader $pid
kill -KILL $pid
wait $pid
for d in /proc/[0-9]*; do
	[ "$(cat "$d/cmdline" 2>/dev/null | tr '\0' ' ')" = "sleep 31 " ] && kill "${d#/proc/}"
done
expect_rc 0 kpmod status
expect_grep "^left behind: kpm/pg, added and enabled by a kpmod run that is gone (pid $pid)"
expect_grep 'kpmod clear removes them'
expect_rc 0 kpmod status --json
expect_grep "\"left_behind\":\[{\"group\":\"kpm\",\"event\":\"pg\",\"added_by\":$pid,\"enabled_by\":$pid}\]}"
expect_rc 0 kpmod list --json
expect_grep "\"enabled\":true,.*\"pid_tree\":$pid,\"added_by\":$pid,\"enabled_by\":$pid}\]"
expect_rc 0 kpmod clear
expect_grep 'left behind: kpm/pg'
no_probes "after kpmod clear"
expect_rc 0 kpmod status
grep -q 'left behind' /tmp/.out && fail "status still reports something left behind"

kill $outside
wait $outside 2>/dev/null
unload_kpmod
