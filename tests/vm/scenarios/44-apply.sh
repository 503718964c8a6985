# kpmod apply DIR: boot-time probes.  The module ends up holding what the
# files say (definitions, filters, triggers, enabled, buffer); a second run
# changes nothing; a changed file changes only the difference; a probe apply
# did not add is never touched; a bad line changes nothing at all.
. "$KPMOD_LIB"
debug_in_stress "the CLI reading and diffing probe files (the requests it sends are 74-control-plane's)"
load_kpmod
D=/tmp/probes.d
mkdir -p $D /run
cat >$D/10-open.conf <<'EOF2'
# the files a fleet ships
p:kpm/open do_sys_openat2 dfd=$arg1:s32
r:kpm/openret do_sys_openat2 ret=$retval:s64
filter kpm/open dfd == -100
trigger openret hist:keys=ret
enable kpm/open openret
EOF2
cat >$D/20-buffer.conf <<'EOF2'
buffer size=128K mode=overwrite
EOF2
echo 'not read: not a .conf' >$D/README

expect_rc 0 kpmod apply $D
expect_grep '^add kpm/open$'
expect_grep '^add kpm/openret$'
expect_grep '^set the buffer to 128 KiB per CPU, overwrite$'
expect_grep 'apply: 2 probes, 7 changes'
expect_rc 0 kpmod list --json
expect_grep '"event":"open",.*"enabled":true,.*"filter":"dfd == -100"'
expect_grep '"event":"openret",.*"enabled":true,.*"triggers":\[{"trigger":"hist:keys=ret:vals=hitcount:sort=hitcount:size=2048","filter":""}\]'
expect_rc 0 kpmod status
expect_grep '^buffer:  128 KiB per CPU, overwrite'
cat /run/kpmod/applied

# Again: nothing to do, and --check says so with 0.
expect_rc 0 kpmod apply $D
expect_grep 'apply: 2 probes, 0 changes'
expect_rc 0 kpmod apply --check $D
expect_grep 'would make 0 changes'

# A probe of the same name that apply did not add, defined otherwise:
# refused before anything changes (openret, dropped from the files at the
# same time, is still there).
expect_rc 0 kpmod add 'p:kpm/mine vfs_read'
cp $D/10-open.conf /tmp/10-open.conf
grep -v openret /tmp/10-open.conf >$D/10-open.conf
echo 'enable kpm/open' >>$D/10-open.conf
echo 'p:kpm/mine vfs_write' >$D/30-mine.conf
expect_rc 5 kpmod apply $D
expect_grep 'kpm/mine exists, defined otherwise, and apply did not add it'
kpmod list >/tmp/after.txt
grep -q 'kpm/openret' /tmp/after.txt || fail "a refused apply removed kpm/openret"
rm $D/30-mine.conf
cp /tmp/10-open.conf $D/10-open.conf

# A bad line anywhere: its FILE:LINE, the definition error's code, nothing changed.
printf 'p:kpm/ok vfs_read\nenable kpm/ok\np:kpm/bad vfs_read %%zz\n' >$D/40-bad.conf
kpmod apply $D >/tmp/.out 2>&1
rc=$?
cat /tmp/.out
[ $rc -ge 16 ] || fail "a bad definition exited $rc"
expect_grep "^kpmod: $D/40-bad.conf:3: error: Invalid register name"
kpmod list | grep -q 'kpm/ok' && fail "a refused apply added a probe"
printf 'filter kpm/open nosuchfield == 1\n' >$D/40-bad.conf
expect_rc 7 kpmod apply $D
printf 'trigger kpm/open hist:keys=nosuch\n' >$D/40-bad.conf
expect_rc 8 kpmod apply $D
printf 'buffer size=3K\n' >$D/40-bad.conf
expect_rc 2 kpmod apply $D
expect_grep 'a power of two from 64K to 256M'
printf 'trigger kpm/open !hist:keys=dfd\n' >$D/40-bad.conf
expect_rc 2 kpmod apply $D
expect_grep "drop the line instead of '!'"
printf 'enable kpm/nosuch\n' >$D/40-bad.conf
expect_rc 2 kpmod apply $D
expect_grep "$D/40-bad.conf:1: 'kpm/nosuch' is not defined in these files"
rm $D/40-bad.conf
expect_rc 0 kpmod apply --check $D
expect_grep 'would make 0 changes'

# A changed file: only the difference changes.
cat >$D/10-open.conf <<'EOF2'
p:kpm/open do_sys_openat2 dfd=$arg1:s32
filter kpm/open dfd != -100
p:kpm/rd vfs_read count=$arg3:u64
enable kpm/rd
EOF2
expect_rc 1 kpmod apply --check $D
expect_grep '^would remove kpm/openret$'
# A probe it would add counts with its settings: the same count as the run.
expect_grep '^would enable kpm/rd$'
expect_grep 'would make 5 changes'
expect_rc 0 kpmod apply $D
cp /tmp/.out /tmp/changed.txt
for want in 'remove kpm/openret' 'add kpm/rd' 'set the filter of kpm/open' \
	'disable kpm/open' 'enable kpm/rd'; do
	grep -qx "$want" /tmp/changed.txt || fail "missing change: $want"
done
expect_grep 'apply: 2 probes, 5 changes'
expect_rc 0 kpmod list
expect_grep '^p:kpm/mine vfs_read$'
kpmod list | grep -q openret && fail "openret is still there"
expect_rc 0 kpmod apply $D
expect_grep '0 changes'

# A probe the files drop, aimed at by an enable_event trigger they drop
# too: one run (the trigger goes first, or the module refuses the delete).
cat >$D/50-chain.conf <<'EOF2'
p:kpm/a vfs_read
p:kpm/b vfs_write
trigger kpm/b enable_event:kpm:a
enable kpm/b
EOF2
expect_rc 0 kpmod apply $D
expect_grep '^add a trigger to kpm/b$'
# Redefined while the trigger stays: it goes and comes back (3 changes,
# as --check says first).
sed -i 's|^p:kpm/a vfs_read$|p:kpm/a vfs_read fd=$arg1:u32|' $D/50-chain.conf
expect_rc 1 kpmod apply --check $D
expect_grep 'would make 3 changes'
expect_rc 0 kpmod apply $D
expect_grep '^redefine kpm/a$'
expect_grep ', 3 changes$'
expect_rc 0 kpmod trigger kpm/b
expect_grep '^enable_event:kpm:a'
expect_rc 0 kpmod apply --check $D
expect_grep 'would make 0 changes'
printf 'p:kpm/b vfs_write\nenable kpm/b\n' >$D/50-chain.conf
# A trigger apply did not add aims at kpm/a: refused before any change.
expect_rc 0 kpmod add 'p:kpm/hand vfs_read'
expect_rc 0 kpmod trigger kpm/hand 'enable_event:kpm:a'
expect_rc 5 kpmod apply $D
expect_grep "kpm/a cannot be deleted or redefined: the trigger 'enable_event:kpm:a"
expect_rc 0 kpmod trigger kpm/b
expect_grep '^enable_event:kpm:a'
expect_rc 0 kpmod trigger kpm/hand '!enable_event:kpm:a'
expect_rc 0 kpmod del kpm/hand
expect_rc 1 kpmod apply --check $D
expect_grep '^would remove kpm/a$'
expect_grep '^would remove a trigger of kpm/b$'
expect_grep 'would make 2 changes'
expect_rc 0 kpmod apply $D
expect_grep '^remove kpm/a$'
expect_grep 'apply: 3 probes, 2 changes'
kpmod list | grep -q 'kpm/a ' && fail "kpm/a is still there"
rm $D/50-chain.conf

# Nothing left in the files: apply's probes go, the hand-made one stays.
rm $D/*.conf
expect_rc 0 kpmod apply $D
expect_rc 0 kpmod list
[ "$(wc -l </tmp/.out)" -eq 1 ] || fail "expected kpm/mine only"
expect_grep '^p:kpm/mine vfs_read$'
expect_rc 0 kpmod del kpm/mine
unload_kpmod
