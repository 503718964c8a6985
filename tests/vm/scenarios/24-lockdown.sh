# Kernel lockdown, as on a Secure Boot machine.  Needs the lockdown LSM
# and module signing (the debug kernel, whose build makes a signing key the
# harness signs kpmod.ko with), booted with lockdown=integrity or
# lockdown=confidentiality: tests/drivers/check boots it both ways.  Under either,
# only the signed kpmod.ko loads.  Under confidentiality every probe is
# refused, as kprobe_events refuses; under integrity probes work, until
# lockdown is raised to confidentiality at run time.
. "$KPMOD_LIB"
L=/sys/kernel/security/lockdown
[ -r $L ] || mount -t securityfs none /sys/kernel/security 2>/dev/null
[ -r $L ] || skip "this kernel has no lockdown LSM"
mode=$(sed -n 's/.*\[\([a-z]*\)\].*/\1/p' $L)
[ "$mode" != none ] || skip "not booted with lockdown=integrity or lockdown=confidentiality"
note "lockdown: $mode"
[ -f /kpmod/kpmod-unsigned.ko ] || fail "no unsigned kpmod.ko to try (is this kernel signing modules?)"
insmod /kpmod/kpmod-unsigned.ko 2>/tmp/e && fail "an unsigned kpmod.ko loaded under lockdown=$mode"
cat /tmp/e
load_kpmod
expect_rc 0 kpmod status

refused() { # refused CMD...: exit 4 and the lockdown message
	expect_rc 4 "$@"
	expect_grep "kernel lockdown (confidentiality) forbids kprobes"
}
if [ "$mode" = integrity ]; then
	expect_rc 0 kpmod add --enable 'p:ld/a find_task_by_vpid nr=$arg1:s32' 'r:ld/b vfs_read $retval'
	capture_trace /tmp/t.txt -- kpmod-work getpgid 5 6060000
	[ "$(grep -c ' a: .* nr=606000[0-4]$' /tmp/t.txt)" -eq 5 ] || fail "no events under lockdown=integrity"
	expect_rc 0 kpmod disable ld/a
	# Raised at run time: nothing new is armed; disabling and deleting still work.
	echo confidentiality >$L || fail "could not raise lockdown"
	refused kpmod enable ld/a
	refused kpmod add 'p:ld/c vfs_write'
	expect_rc 0 kpmod disable all
	expect_rc 0 kpmod del ld/a ld/b
else
	refused kpmod add 'p:ld/a vfs_read'
	refused kpmod add 'r:ld/b vfs_read $retval'
	refused kpmod add --enable 'p:ld/c find_task_by_vpid+4'
	refused kpmod add 'p:ld/d vfs_read' 'p:ld/e vfs_write'
fi
expect_rc 0 kpmod list
[ -s /tmp/.out ] && fail "probes left registered: $(cat /tmp/.out)"
unload_kpmod
