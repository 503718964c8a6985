# The filter compiler against the kernel's own: each expression is written
# to the filter of a kprobe_events event and compiled by kpmod's compiler
# (kpmod-filtercheck runs userspace/lib/filter/filter.c) over the same fields.  What
# the filter file shows afterwards must be what kpmod shows, byte for byte:
# the expression when accepted; the expression, the caret and the kernel's
# message when refused.  Where the kernel refuses without a message
# ("Error: (0)": no field name at all, or no predicate), kpmod must refuse
# too, with a message of its own.  A fixed list, then KPMOD_FILTER_COUNT
# (400) random expressions from KPMOD_FILTER_SEED (1: the same every run;
# campaigns pass others).
. "$KPMOD_LIB"
need_kprobe_events
T=/sys/kernel/tracing
echo 'p:kpf/f do_sys_openat2 dfd=$arg1:s32 path=+0($arg2):string flags=+0($arg3):u32 mode=+8($arg3):x16 big=$arg3:s64 b=$arg1:u8' >>$T/kprobe_events ||
	fail "kprobe_events refused the probe"
echo 'r:kpf/r do_sys_openat2 ret=$retval:s32' >>$T/kprobe_events ||
	fail "kprobe_events refused the return probe"
fields="dfd:s32 path:string flags:u32 mode:x16 big:s64 b:u8"
remove_events() {
	echo 0 >$T/events/kpf/f/filter
	echo 0 >$T/events/kpf/r/filter
	echo '-:kpf/f' >>$T/kprobe_events
	echo '-:kpf/r' >>$T/kprobe_events
}

# kpmod's filter compiler is that of 6.1 and later kernels.  An older
# parser takes expressions those refuse (5.10 a trailing "&&"): there,
# nothing to compare against.
if printf 'dfd == 1 &&\n' >"$T/events/kpf/f/filter" 2>/dev/null; then
	remove_events
	skip "this kernel's event filter parser takes 'dfd == 1 &&', which 6.1's (kpmod's) refuses"
fi

same=0 silent=0
# check EVENT EXPR [-r] FIELDS...: the kernel's verdict and kpmod's agree.
check() {
	local event=$1 expr=$2 krc mrc
	shift 2
	printf '%s\n' "$expr" >"$T/events/kpf/$event/filter" 2>/dev/null
	krc=$?
	cat "$T/events/kpf/$event/filter" >/tmp/kernel.txt
	kpmod-filtercheck "$@" >/tmp/kpmod.txt 2>&1
	mrc=$?
	if grep -q '^Error: (' /tmp/kernel.txt; then
		[ "$krc" -ne 0 ] && [ "$mrc" -eq 1 ] ||
			fail "kernel refused '$expr' without a message, kpmod exit $mrc: $(cat /tmp/kpmod.txt)"
		silent=$((silent + 1))
		return
	fi
	if ! cmp -s /tmp/kernel.txt /tmp/kpmod.txt; then
		echo "expression: $expr"
		echo "kernel (write exit $krc):"; cat /tmp/kernel.txt
		echo "kpmod (exit $mrc):"; cat /tmp/kpmod.txt
		fail "the filter file and kpmod differ"
	fi
	[ $((krc == 0)) -eq $((mrc == 0)) ] || fail "'$expr': kernel write exit $krc, kpmod exit $mrc"
	same=$((same + 1))
}

while IFS= read -r expr; do
	check f "$expr" "$expr" $fields
done <<'EXPRS'
dfd == 1 && path ~ "*ss*" || !(comm == "kpmod" && cpu >= 0)
__probe_ip != 0
CPU == 0 || COMM ~ "k*" && common_pid > 1
flags & 0x40
mode <= 0777
b >= 255
path ~ "!/etc/*"
path ~ "[a-z]*"
path ~ "*"
path == ""
big < -9223372036854775808
big != 18446744073709551615
!(!(dfd == 1))
((dfd == 1) || (flags == 2)) && !b == 3
foo == 1
dfd = 1
dfd == 1 && (flags == 1
dfd == 1)
(dfd == 1))
comm == "bash
dfd == 1 flags == 2
dfd == 1 &
dfd == 1 &&
dfd == 1 ||
()
!
flags == -1
dfd == 08
dfd == 0x
dfd == 12ab
dfd == -
dfd == 9223372036854775808
big == 18446744073709551616
big == 0x0000000000000000000001
path < "a"
dfd ~ "a"
path == 1
comm == bash
dfd ~ 1
== 1
__probe_ret_ip == 0
EXPRS

# The return probe's own fields.
for expr in '__probe_func != 0 && __probe_ret_ip > 0' 'ret < 0 || ret == 3' \
	'__probe_ip == 0' 'ret ~ "x"'; do
	check r "$expr" -r "$expr" ret:s32
done
fixed=$((same + silent))

seed=${KPMOD_FILTER_SEED:-1} count=${KPMOD_FILTER_COUNT:-400}
note "$count random expressions, seed $seed"
kpmod-filtercheck --gen "$count" "$seed" >/tmp/exprs
while IFS= read -r expr; do
	check f "$expr" "$expr" $fields
done </tmp/exprs
generated=$(grep -c . /tmp/exprs)
note "$fixed fixed and $((same + silent - fixed)) random expressions: $same shown alike by the filter file and kpmod, $silent refused by both where the kernel gives no message"
remove_events
[ "$generated" -ge $((count * 3 / 4)) ] || fail "only $generated random expressions of $count"
exit 0
