# The probe commands: add (argv, -f FILE, stdin), list, enable, disable,
# stat, del, clear; invalid definitions refused with a caret and their own
# exit code, leaving the module's state unchanged; a call adds all or none.
. "$KPMOD_LIB"
debug_in_stress "the CLI's syntax and messages; the module's answers are 20-errors' and 40-netlink-fuzz'"
T=/sys/kernel/tracing

load_kpmod
D1='p:myprobe do_sys_openat2 dfd=$arg1 path=+0($arg2):ustring'
D2='r:myret do_sys_openat2 $retval'
D3='p:grp2/deep vfs_read file=+0(+8($arg1)):x64 cnt=$arg3:u32 comm=$comm'
expect_rc 0 kpmod add "$D1" "$D2" "$D3"
expect_rc 0 kpmod list
cp /tmp/.out /tmp/kpmod.list
expect_grep '^p:kprobes/myprobe do_sys_openat2 dfd=$arg1 path=+0($arg2):ustring$'
expect_grep '^r[0-9]*:kprobes/myret do_sys_openat2 arg1=$retval$'

# The printback must be what kprobe_events prints for the same input.
if [ -e "$T/kprobe_events" ]; then
	printf '%s\n%s\n%s\n' "$D1" "$D2" "$D3" >"$T/kprobe_events" || fail "kprobe_events refused"
	cat "$T/kprobe_events" >/tmp/kpe.list
	echo >"$T/kprobe_events"
	diff /tmp/kpe.list /tmp/kpmod.list || fail "kpmod list differs from kprobe_events"
	note "kpmod list == cat kprobe_events"
fi
expect_rc 0 kpmod status
expect_grep "^probes:  3 registered"

# Each invalid definition: refused, a caret, a distinct exit code, no change.
codes=
bad() { # bad EXPECTED-MESSAGE DEFINITION
	kpmod add "$2" >/tmp/.out 2>&1
	rc=$?
	cat /tmp/.out
	[ $rc -ge 16 ] || fail "'$2' exited $rc, expected >= 16"
	grep -q "^kpmod: error: $1" /tmp/.out || fail "'$2': message lacks '$1'"
	grep -q '^ *\^$' /tmp/.out || fail "'$2': no caret line"
	codes="$codes $rc"
}
bad "Group/event name is already used" 'p:myprobe vfs_read'
bad "Invalid probed address or symbol" 'p:x no_such_function_kpmod'
bad '$retval is only for return probes' 'p:x vfs_read $retval'
if [ "$KPMOD_ARCH" = arm64 ]; then
	# arm64 refuses a misaligned address with EINVAL, as kprobe_events does.
	bad "Failed to register the probe" 'p:x vfs_read+1'
else
	bad "Probe point is not an instruction boundary" 'p:x vfs_read+1'
fi
bad "Invalid register name" 'p:x vfs_read %zz'
bad "Unknown type" 'p:x vfs_read $arg1:u7'
bad "Too many arguments" "p:x vfs_read $(i=0; while [ $i -lt 129 ]; do printf 'a%d=$arg1 ' $i; i=$((i + 1)); done)"
n=$(echo $codes | tr ' ' '\n' | sort -u | wc -l)
[ "$n" -eq 7 ] || fail "exit codes not distinct: $codes"
note "7 errors, 7 exit codes:$codes"
expect_rc 0 kpmod status
expect_grep "^probes:  3 registered"

# The most arguments a probe takes (128, MAX_TRACE_ARGS): a request larger
# than the page the CLI first gives one (lib/nl/nl.c), sent whole.
A128=$(i=0; while [ $i -lt 128 ]; do printf ' a%d=$arg1' $i; i=$((i + 1)); done)
expect_rc 0 kpmod add "p:kprobes/wide vfs_read$A128"
kpmod list | grep -qxF "p:kprobes/wide vfs_read$A128" || fail "the 128 arguments not listed as given"
expect_rc 0 kpmod format wide
expect_grep 'field:[a-z0-9_ ]* a127;'
expect_rc 0 kpmod del wide

# All or none: the second definition fails, the first is taken back.
kpmod add 'p:first vfs_write' 'p:second no_such_function_kpmod' 2>/dev/null && fail "bad batch accepted"
kpmod list | grep -q first && fail "half of a failed add stayed"

# -f FILE with comments and blank lines; stdin.
printf '# a comment\n\np:fromfile vfs_write  # trailing comment\n' >/tmp/defs
expect_rc 0 kpmod add -f /tmp/defs
echo 'p:fromstdin vfs_fsync' | kpmod add - || fail "add from stdin"
expect_rc 0 kpmod list
expect_grep '^p:kprobes/fromfile vfs_write$'
expect_grep '^p:kprobes/fromstdin vfs_fsync$'

# One request per command line: all of its names change or none does,
# and the error names the bad one.
expect_rc 5 kpmod enable myprobe typo
expect_grep "refused by the module: 'typo': no such event"
cat /etc/passwd >/dev/null
expect_rc 0 kpmod stat
grep -q '^  myprobe  *0 ' /tmp/.out || fail "a failed enable enabled myprobe"
expect_rc 5 kpmod del myret typo
expect_grep "'typo': no such event"
kpmod list | grep -q myret || fail "a failed del deleted myret"
expect_rc 0 kpmod enable myprobe myret
expect_rc 5 kpmod disable myprobe nosuch/myret
expect_grep "'nosuch/myret': no such event"
cat /etc/passwd >/dev/null
expect_rc 0 kpmod stat
grep -q '^  myprobe  *[1-9]' /tmp/.out || fail "a failed disable disabled myprobe"
expect_rc 0 kpmod disable myprobe myret

# Many long names in one request (200 x 60 characters): one message.
i=0
: >/tmp/many.defs
names=
while [ $i -lt 200 ]; do
	ev=$(printf 'many_%055d' $i)
	echo "p:manygroup_with_a_rather_long_name_for_the_test/$ev vfs_fsync" >>/tmp/many.defs
	names="$names manygroup_with_a_rather_long_name_for_the_test/$ev"
	i=$((i + 1))
done
expect_rc 0 kpmod add -f /tmp/many.defs
# shellcheck disable=SC2086
expect_rc 0 kpmod enable $names
# shellcheck disable=SC2086
expect_rc 0 kpmod disable $names
# shellcheck disable=SC2086
expect_rc 0 kpmod del $names
kpmod list | grep -q manygroup && fail "del of 200 names left some"
# 600 such names (81 KiB) pass what one netlink attribute holds (64 KiB):
# refused before anything is sent, with a message, nothing deleted.
expect_rc 0 kpmod add -f /tmp/many.defs
i=200
while [ $i -lt 600 ]; do
	names="$names manygroup_with_a_rather_long_name_for_the_test/$(printf 'many_%055d' $i)"
	i=$((i + 1))
done
# shellcheck disable=SC2086
expect_rc 2 kpmod del $names
expect_grep "the names take over 64 KiB"
[ "$(kpmod list | grep -c manygroup)" -eq 200 ] || fail "a refused del changed the probes"
expect_rc 0 kpmod del 'manygroup_with_a_rather_long_name_for_the_test/*'

# Enable, stat, delete rules.
expect_rc 0 kpmod enable myprobe
cat /etc/passwd >/dev/null
expect_rc 0 kpmod stat
grep -q '^  myprobe  *[1-9][0-9]* *0 *0 *0$' /tmp/.out || fail "myprobe has no hits in stat"
expect_rc 5 kpmod del myprobe
expect_grep "probe is enabled"
expect_rc 5 kpmod clear
expect_rc 0 kpmod disable all
expect_rc 0 kpmod del myprobe kprobes/myret
expect_rc 0 kpmod add '-:grp2/deep'
kpmod list | grep -q deep && fail "add -: did not delete"
expect_rc 0 kpmod add 'p:gone_soon vfs_read'
expect_rc 0 kpmod del '-:gone_soon'
expect_rc 2 kpmod add -x
expect_grep "unknown option '-x'"
expect_rc 0 kpmod add --enable 'p:on vfs_read'
expect_rc 0 kpmod enable 'kprobes/*'
expect_rc 0 kpmod disable 'kprobes/*'
expect_rc 5 kpmod enable nosuchevent
expect_rc 4 as_user "kpmod add 'p:u vfs_read'"
expect_rc 0 kpmod clear
expect_rc 0 kpmod list
[ -s /tmp/.out ] && fail "clear left probes"
unload_kpmod
