# Livepatch and kpmod on one function.  The test module calls
# kpmod_target_shared() from process context, a hard interrupt and (x86_64)
# an NMI and counts which version ran; a livepatch (kpmod_livepatch, after
# the kernel's livepatch sample) replaces it.  kpmod's probes on it, added
# before the patch and after it, count every call, and once the patch is
# in force every call runs the patched function; once it is disabled, the
# original again.
. "$KPMOD_LIB"
TKO=/kpmod/extra/kpmod_target.ko
LKO=/kpmod/extra/kpmod_livepatch.ko
[ -d /sys/kernel/livepatch ] || skip "this kernel has no livepatch (CONFIG_LIVEPATCH)"
[ -f $TKO ] && [ -f $LKO ] ||
	skip "no kpmod_target.ko and kpmod_livepatch.ko (tests/vm/run --module-src tests/vm/modules/...)"
load_kpmod
insmod $TKO || fail "insmod kpmod_target"
P=/sys/module/kpmod_target/parameters
L=/sys/kernel/livepatch/kpmod_livepatch
N=20
case $KPMOD_ARCH in
x86_64) nctx=3 ;;
*) nctx=2 ;;
esac

hits() { kpmod stat | awk -v e="$1" '$1 == e { print $2 }'; }

# fire PATCHED EVENT...: N calls from each context; every one ran the
# patched function (PATCHED 1) or the original (0), and each EVENT's
# probe counted every one.
fire() {
	patched=$1
	shift
	for e in "$@"; do
		eval "h_$e=\$(hits $e)"
	done
	cp $P/calls /tmp/calls.0
	echo $N >$P/fire || fail "firing kpmod_target_shared failed"
	cp $P/calls /tmp/calls.1
	ctx=0
	while [ $ctx -lt $nctx ]; do
		read -r c0 p0 <<EOF
$(awk -v c=$ctx '$1 == c { print $2, $3 }' /tmp/calls.0)
EOF
		read -r c1 p1 <<EOF
$(awk -v c=$ctx '$1 == c { print $2, $3 }' /tmp/calls.1)
EOF
		[ $((c1 - c0)) -eq $N ] || fail "context $ctx: $((c1 - c0)) calls made, not $N"
		[ $((p1 - p0)) -eq $((N * patched)) ] ||
			fail "context $ctx: $((p1 - p0)) of $N calls ran the patched function, expected $((N * patched))"
		ctx=$((ctx + 1))
	done
	for e in "$@"; do
		eval "h=\$h_$e"
		got=$(($(hits "$e") - h))
		[ "$got" -eq $((N * nctx)) ] || fail "probe $e counted $got of $((N * nctx)) calls"
	done
	note "$((N * nctx)) calls, $((N * nctx * patched)) patched, counted by: $*"
}

# wait_patch STATE: the livepatch is in force (1) or gone (0), its
# transition over.
wait_patch() {
	i=0
	while :; do
		if [ "$1" = 1 ]; then
			[ "$(cat $L/enabled 2>/dev/null)" = 1 ] && [ "$(cat $L/transition)" = 0 ] && break
		else
			[ -d $L ] || break
		fi
		i=$((i + 1))
		[ $i -lt 600 ] || fail "the livepatch's transition did not end within 60 s"
		sleep 0.1
	done
}

expect_rc 0 kpmod add --enable 'p:lp/before kpmod_target:kpmod_target_shared'
fire 0 before

# The patch applied over kpmod's probe.
insmod $LKO || fail "insmod kpmod_livepatch"
wait_patch 1
fire 1 before

# A probe added on the patched function.
expect_rc 0 kpmod add --enable 'p:lp/after kpmod_target:kpmod_target_shared'
fire 1 before after
expect_rc 0 kpmod disable lp/before
expect_rc 0 kpmod del lp/before
fire 1 after

# The patch disabled and removed under kpmod's probe: the original again.
echo 0 >$L/enabled || fail "could not disable the livepatch"
wait_patch 0
rmmod kpmod_livepatch || fail "rmmod kpmod_livepatch"
fire 0 after

expect_rc 0 kpmod disable lp/after
expect_rc 0 kpmod del lp/after
rmmod kpmod_target || fail "rmmod kpmod_target"
unload_kpmod
exit 0
