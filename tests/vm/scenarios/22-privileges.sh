# Every command is refused to a non-root user and to root inside a new user
# namespace (all capabilities, but not in the initial namespace), with exit
# code 4; so is every /dev/kpmod operation, also on a file that root opened
# before dropping its privileges or entering such a namespace.
. "$KPMOD_LIB"
load_kpmod
expect_rc 0 kpmod add 'p:pv/p vfs_read'
# A kernel built without user namespaces (the debug kernel) has none to test.
userns=1
kpmod-ringtest userns-exec true
[ $? -eq 77 ] && { userns=; note "no user namespaces in this kernel: those checks skipped"; }
n=0
while IFS= read -r cmd; do
	expect_rc 4 as_user "kpmod $cmd"
	expect_grep "permission denied"
	if [ -n "$userns" ]; then
		# shellcheck disable=SC2086
		expect_rc 4 kpmod-ringtest userns-exec kpmod $cmd
		expect_grep "permission denied"
	fi
	n=$((n + 1))
done <<'CMDS'
version --module
status
list
stat
clear
add p:u vfs_read
del pv/p
enable pv/p
disable pv/p
buffer
buffer --size 128K
trace --duration 1
record -o /tmp/u.kpm --duration 1
snapshot
CMDS
note "$n commands refused to a user${userns:+ and to a user namespace}"
# version without --module: the CLI's version, the module's refusal said.
expect_rc 0 as_user "kpmod version"
expect_grep "^kpmod [0-9.]* (uapi $KPMOD_UAPI)$"
expect_grep "permission denied"
as_user "cat /dev/kpmod" 2>/dev/null && fail "a user opened /dev/kpmod"
expect_rc 0 kpmod-ringtest privdrop uid
if [ -n "$userns" ]; then
	kpmod-ringtest userns-exec cat /dev/kpmod 2>/dev/null && fail "a user namespace opened /dev/kpmod"
	expect_rc 0 kpmod-ringtest privdrop userns
fi
# Nothing changed.
expect_rc 0 kpmod list
expect_grep '^p:pv/p vfs_read$'
expect_rc 0 kpmod clear
unload_kpmod
