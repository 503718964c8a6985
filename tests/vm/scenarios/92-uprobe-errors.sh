# The ftrace selftests' invalid uprobe definitions (uprobe_syntax_errors.tc,
# adapted: on kpmod-utarget, with an offset in its text where the error is
# not the offset's, as kpmod also checks that), each refused by kpmod with
# its exit code, and, where the kernel has uprobe_events and error_log,
# with the kernel's message and caret.  Then kpmod's own refusals.
. "$KPMOD_LIB"
T=/sys/kernel/tracing
B=/usr/bin/kpmod-utarget
eval "$(kpmod-utarget offsets | sed 's/^\([a-z_]*\) \(0x[0-9a-f]*\)$/\1=\2/')"
[ -n "$ut_add" ] || fail "kpmod-utarget offsets printed nothing"
load_kpmod
oracle=
[ -e $T/uprobe_events ] && [ -e $T/error_log ] && oracle=1

# CODE DEFINITION: the exit code is 16 + the error's number (doc/usage.md).
while read -r code def; do
	kpmod add "$def" >/tmp/o 2>&1
	rc=$?
	cat /tmp/o
	[ "$rc" -eq "$code" ] || fail "'$def': exit $rc, expected $code"
	[ -n "$oracle" ] || continue
	echo >$T/error_log
	echo "$def" >>$T/uprobe_events 2>/dev/null && fail "uprobe_events took '$def'"
	kmsg=$(sed -n 's/.*trace_uprobe: error: //p' $T/error_log)
	[ -n "$kmsg" ] || { cat $T/error_log; fail "no error_log entry for '$def'"; }
	mmsg=$(sed -n 's/^kpmod: error: //p' /tmp/o)
	case "$mmsg" in
	"$kmsg"*) ;;
	*) fail "'$def': kpmod says '$mmsg', the kernel '$kmsg'" ;;
	esac
	[ "$(tail -n 1 $T/error_log)" = "$(tail -n 1 /tmp/o)" ] ||
		{ cat $T/error_log; fail "'$def': the caret is not where the kernel puts it"; }
done <<DEFS
80 p /non_exist_file:100
81 p /sys:100
85 p $B:10a
82 p $B:$ut_add(1a)
83 p $B:$ut_add(10
84 p $B:$ut_add(10)a
86 p $B:$ut_add @+ab
87 p $B:$ut_add @symbol
23 p $B:$ut_add%hoge
84 p $B:$ut_add(10)%return
DEFS
[ -z "$oracle" ] || note "10 selftest definitions refused as uprobe_events refuses them: message and caret"

# kpmod's own: what uprobe_events would take and fail on later, or not at all.
expect_rc 88 kpmod add "p /etc/passwd:0x10"
expect_grep "Not an ELF file"
expect_rc 90 kpmod add "p $B:$tock_semaphore"
expect_grep "Offset is outside any executable segment"
expect_rc 91 kpmod add "p $B:$ut_add \$duration"
expect_rc 34 kpmod add "p $B:$ut_add \$arg1"
expect_rc 93 kpmod add "u $B:kpmod:nosuch"
expect_grep "Unknown USDT marker"
expect_rc 94 kpmod add "u $B:kpmod:tock x=arg9"
case "$KPMOD_ARCH" in
x86_64) other=%x0 ;;
arm64) other=%di ;;
esac
expect_rc 69 kpmod add "p $B:$ut_add $other"
expect_grep "register, not valid on"
expect_rc 0 kpmod status
expect_grep "^probes:  0 registered"
unload_kpmod
