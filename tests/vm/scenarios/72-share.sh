# Tracers sharing a function: kprobe_events, kpmod and, with the Debian
# root file system (tests/vm/run --rootfs debian), bpftrace put a kprobe on
# kpmod_target_shared() at once, while the test module calls it from
# process context, from a hard interrupt and, on x86_64, from an NMI it
# sends itself.  Each tracer must count every call, whichever registered
# first: in every order of registration, and of removal.  (arm64: a module
# has no NMI it can raise there; the kernel's pseudo-NMIs serve its own
# IPIs only.)
. "$KPMOD_LIB"
need_kprobe_events
TKO=/kpmod/extra/kpmod_target.ko
[ -f $TKO ] || skip "no kpmod_target.ko (tests/vm/run --module-src tests/vm/modules/kpmod_target)"
tracers="ke kp"
if [ -n "${KPMOD_ROOTFS:-}" ]; then
	need_debian
	tracers="ke kp bt"
fi
load_kpmod
insmod $TKO || fail "insmod kpmod_target"
P=/sys/module/kpmod_target/parameters
T=/sys/kernel/tracing
N=20
case $KPMOD_ARCH in
x86_64) nctx=3 ;;
*) nctx=2 ;;
esac

on_ke() {
	echo 'p:share/ke kpmod_target:kpmod_target_shared' >>$T/kprobe_events ||
		fail "kprobe_events refused the probe"
	echo 1 >$T/events/share/ke/enable || fail "could not enable share/ke"
}
off_ke() {
	echo 0 >$T/events/share/ke/enable && echo '-:share/ke' >>$T/kprobe_events ||
		fail "could not remove share/ke"
}
hits_ke() { awk '$1 == "ke" { print $2 }' $T/kprobe_profile; }
on_kp() { kpmod add --enable 'p:share/kp kpmod_target:kpmod_target_shared' || fail "kpmod add"; }
off_kp() { kpmod disable share/kp && kpmod del share/kp || fail "could not remove share/kp"; }
hits_kp() { kpmod stat | awk '$1 == "kp" { print $2 }'; }
# bpftrace counts until it stops: its count is read when it is removed.
on_bt() {
	bpftrace_start 'kprobe:kpmod_target_poke { printf("ready\n"); }
		kprobe:kpmod_target_shared { @n = count(); }' \
		"echo 1 >$P/poke; grep -q '^ready$' /tmp/bt.out"
}
off_bt() {
	bpftrace_stop
	bt_hits=$(sed -n 's/^@n: \([0-9]*\)$/\1/p' /tmp/bt.out)
	[ -n "$bt_hits" ] || bt_hits=0
}

# calls: the module's own count of the calls made, per context.
calls() { awk '{ printf "%s ", $2 }' $P/calls; }

# round ORDER...: registers the tracers in ORDER, fires, checks every
# tracer counted every call, removes them in the same order.
round() {
	for t in "$@"; do
		"on_$t"
	done
	ke0=$(hits_ke) kp0=$(hits_kp)
	set -- $(calls)
	c0=$1 c1=$2 c2=$3
	echo $N >$P/fire || fail "firing kpmod_target_shared failed"
	set -- $(calls)
	[ $(($1 - c0)) -eq $N ] && [ $(($2 - c1)) -eq $N ] ||
		fail "the module made $(($1 - c0)) process and $(($2 - c1)) interrupt calls, not $N each"
	if [ "$nctx" -eq 3 ] && [ $(($3 - c2)) -ne $N ]; then
		fail "the module made $(($3 - c2)) calls from NMI, not $N"
	fi
	want=$((N * nctx))
	ke=$(($(hits_ke) - ke0)) kp=$(($(hits_kp) - kp0))
	for t in $order; do
		"off_$t"
	done
	bt=${bt_hits:-$want}
	note "order $order: $want calls; kprobe_events $ke, kpmod $kp${bt_hits:+, bpftrace $bt}"
	[ "$ke" -eq $want ] && [ "$kp" -eq $want ] && [ "$bt" -eq $want ] ||
		fail "a tracer missed calls in order $order: kprobe_events $ke, kpmod $kp${bt_hits:+, bpftrace $bt} of $want"
	bt_hits=
}

# Every permutation of the tracers.
perms() {
	case $# in
	2) echo "$1 $2"; echo "$2 $1" ;;
	3) for a in "$@"; do
		for b in "$@"; do
			for c in "$@"; do
				[ "$a" != "$b" ] && [ "$a" != "$c" ] && [ "$b" != "$c" ] && echo "$a $b $c"
			done
		done
	   done ;;
	esac
}
# shellcheck disable=SC2086
perms $tracers >/tmp/orders
norders=$(wc -l </tmp/orders)
[ "$norders" -ge 2 ] || fail "no orders to run"
i=1
while [ $i -le "$norders" ]; do
	order=$(sed -n ${i}p /tmp/orders)
	# shellcheck disable=SC2086
	round $order
	i=$((i + 1))
done

rmmod kpmod_target || fail "rmmod kpmod_target"
unload_kpmod
exit 0
