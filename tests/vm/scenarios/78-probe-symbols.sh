# A probe on SYM added without reading kallsyms.  What an add needs of it
# (the core kernel's repeated and absolute names) is kept per kernel image
# (its build id) in /var/cache/kpmod/ksyms-dups by the first command that
# reads kallsyms, in /run/kpmod/ksyms-dups where /var cannot be written;
# later adds check SYM against it and leave its existence to the module.
# The refusals are those an add that reads kallsyms gives (a dry run reads
# it), and where kprobe_events can be asked, the kernel's own.
. "$KPMOD_LIB"
debug_in_stress "the CLI's symbol cache; the module's refusals of a symbol are 20-errors'"
load_kpmod
T=/sys/kernel/tracing
F=/var/cache/kpmod/ksyms-dups
RUNF=/run/kpmod/ksyms-dups
# The guest has no /var: this scenario makes one, and removes it after.
[ -e /var ] && made_var= || made_var=1
mkdir -p /var/cache
rm -f $F $RUNF
# This image's build id, as the kernel's notes hold it (hex, no spaces).
NOTES=$(od -An -v -tx1 /sys/kernel/notes | tr -d ' \n')
dup=$(awk 'NF == 3 && ($2 == "t" || $2 == "T") && $3 !~ /\./ { n[$3]++ }
	END { for (s in n) if (n[s] > 1) print s }' /proc/kallsyms | sort | head -n 1)
[ -n "$dup" ] || fail "kallsyms has no function name twice in the core kernel"
note "a name the core kernel has twice: $dup"

# The first add under this kernel reads kallsyms and keeps the names.
expect_rc 0 kpmod add 'p:nk/first vfs_read'
[ -f $F ] || fail "the first add kept nothing in $F"
[ ! -e $RUNF ] || fail "kept in $RUNF too"
KEY=$(head -n 1 $F | sed -n 's/^kpmod-ksyms-dups 2 build-id=\([0-9a-f]\{40,\}\)$/\1/p')
[ -n "$KEY" ] || fail "$F starts '$(head -n 1 $F)'"
case "$NOTES" in *"$KEY"*) ;; *) fail "build id $KEY is not in /sys/kernel/notes" ;; esac
grep -qx "M $dup" $F || fail "$F lacks $dup"
[ "$(stat -c %a $F)" = 644 ] || fail "$F is mode $(stat -c %a $F)"

# What an add that reads kallsyms says (a dry run reads it).
kpmod add --dry-run "p:nk/b $dup" >/tmp/dry.dup 2>&1
dup_rc=$?
kpmod add --dry-run 'p:nk/u vfs_raed' >/tmp/dry.unk 2>&1
unk_rc=$?
cat /tmp/dry.dup /tmp/dry.unk
[ $dup_rc -gt 1 ] && [ $unk_rc -gt 1 ] && [ $dup_rc -ne $unk_rc ] ||
	fail "dry runs exited $dup_rc and $unk_rc"
grep -q "did you mean vfs_read" /tmp/dry.unk || fail "no hint for vfs_raed"
# same_as DRY: the last add's first three lines (message, definition, caret) are DRY's.
same_as() {
	head -n 3 "$1" >/tmp/want
	head -n 3 /tmp/.out >/tmp/got
	diff /tmp/want /tmp/got || fail "the add's error differs from the dry run's"
}

# kallsyms unreadable: SYM is still checked, from the kept names.
mount -o bind /dev/null /proc/kallsyms || fail "cannot hide /proc/kallsyms"
[ ! -s /proc/kallsyms ] || fail "/proc/kallsyms still readable"
expect_rc 0 kpmod add 'p:nk/a vfs_read' 'r:nk/ar vfs_read' 'p:nk/w vfs_write+0'
expect_rc $dup_rc kpmod add "p:nk/b $dup"
same_as /tmp/dry.dup
# An unknown name: the module refuses it, and nothing of the request stays.
kpmod add 'p:nk/f1 vfs_fsync' 'p:nk/u vfs_raed' >/tmp/.out 2>&1 && fail "vfs_raed added"
cat /tmp/.out
grep -q "symbol not found" /tmp/.out || fail "no reason given for vfs_raed"
umount /proc/kallsyms || fail "umount /proc/kallsyms"
kpmod list >/tmp/list
grep -q -e "nk/f1 " -e "nk/u " /tmp/list && fail "a refused request left a probe: $(cat /tmp/list)"

# kallsyms readable again: the module's refusal is explained from it, as before.
expect_rc $unk_rc kpmod add 'p:nk/u vfs_raed'
same_as /tmp/dry.unk
expect_grep "did you mean vfs_read"
printf 'p:nk/f1 vfs_fsync\np:nk/f2 vfs_write\np:nk/f3 vfs_raed\n' >/tmp/f.defs
expect_rc $unk_rc kpmod add -f /tmp/f.defs
kpmod list | grep -q "nk/f[123] " && fail "a refused file left a probe"
# A request that deletes checks every name first: a deletion is not undone.
expect_rc $unk_rc kpmod add -- '-:nk/a' 'p:nk/a vfs_raed'
kpmod list | grep -q "nk/a " || fail "a refused request deleted nk/a"

# Another boot's names, or names anyone may write, are not used: the add
# reads kallsyms and keeps them again.
sed -i "1s/.*/kpmod-ksyms-dups 2 build-id=0000000000000000000000000000000000000000/; /^M $dup\$/d" $F
expect_rc $dup_rc kpmod add "p:nk/b $dup"
[ "$(head -n 1 $F)" = "kpmod-ksyms-dups 2 build-id=$KEY" ] || fail "another kernel's $F was kept"
grep -qx "M $dup" $F || fail "$F not written again"
sed -i "/^M $dup\$/d" $F
chmod 666 $F
expect_rc $dup_rc kpmod add "p:nk/b $dup"
[ "$(stat -c %a $F)" = 644 ] && grep -qx "M $dup" $F || fail "a world-writable $F was used"
# /var read-only, holding another kernel's names: kept in /run, and used
# from there (kallsyms hidden again).
sed "1s/.*/kpmod-ksyms-dups 2 build-id=0000000000000000000000000000000000000000/" $F >/tmp/stale
mount -t tmpfs -o mode=755 tmpfs /var/cache/kpmod || fail "cannot mount a tmpfs on /var/cache/kpmod"
cp /tmp/stale $F && chmod 644 $F && mount -o remount,ro /var/cache/kpmod ||
	fail "cannot make /var/cache/kpmod read-only"
expect_rc $dup_rc kpmod add "p:nk/b $dup"
[ "$(head -n 1 $RUNF)" = "kpmod-ksyms-dups 2 build-id=$KEY" ] && grep -qx "M $dup" $RUNF ||
	fail "with /var read-only nothing was kept in $RUNF"
mount -o bind /dev/null /proc/kallsyms || fail "cannot hide /proc/kallsyms"
expect_rc $dup_rc kpmod add "p:nk/b $dup"
expect_rc 0 kpmod add 'p:nk/r vfs_read'
umount /proc/kallsyms || fail "umount /proc/kallsyms"
umount /var/cache/kpmod || fail "umount /var/cache/kpmod"
note "repeated names refused, unknown ones explained, with and without kallsyms"

# The kernel refuses the same two, where kprobe_events checks them.
if [ -e $T/kprobe_events ] && [ -e $T/error_log ]; then
	echo >$T/error_log
	if echo "p:nk/b $dup" >>$T/kprobe_events 2>/dev/null; then
		echo "-:nk/b" >>$T/kprobe_events
		note "this kernel's kprobe_events takes a repeated name"
	else
		kmsg=$(sed -n 's/.*trace_kprobe: error: //p' $T/error_log)
		mmsg=$(sed -n 's/^kpmod: error: //p' /tmp/dry.dup)
		[ "$kmsg" = "$mmsg" ] || fail "kpmod says '$mmsg', the kernel '$kmsg'"
		[ "$(tail -n 1 $T/error_log)" = "$(sed -n 3p /tmp/dry.dup)" ] ||
			{ cat $T/error_log; fail "the caret is not where the kernel puts it"; }
		note "kprobe_events: $kmsg"
	fi
	echo >$T/error_log
	echo 'p:nk/u vfs_raed' >>$T/kprobe_events 2>/dev/null && fail "kprobe_events took vfs_raed"
	kmsg=$(sed -n 's/.*trace_kprobe: error: //p' $T/error_log)
	mmsg=$(sed -n 's/^kpmod: error: //p' /tmp/dry.unk)
	[ -z "$kmsg" ] || [ "$kmsg" = "$mmsg" ] || fail "kpmod says '$mmsg', the kernel '$kmsg'"
	[ -z "$kmsg" ] || [ "$(tail -n 1 $T/error_log)" = "$(sed -n 3p /tmp/dry.unk)" ] ||
		{ cat $T/error_log; fail "the caret is not where the kernel puts it"; }
fi
expect_rc 0 kpmod del 'nk/*'
rm -rf /var/cache/kpmod $RUNF
[ -z "$made_var" ] || rm -rf /var
unload_kpmod
