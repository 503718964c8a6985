# uprobes against the kernel's uprobe_events: the same definitions on
# kpmod-utarget (a static program with known calls and USDT markers) to
# tracefs' uprobe_events and to kpmod, the same workload, every event
# compared field by field: registers, the user stack, nested dereferences
# of user memory, user strings, @ADDR, @+OFFSET, $comm, $retval, a fault, a semaphore
# (REF_CTR_OFFSET) that must open its marker's guard.  The markers' places
# and arguments come from readelf's notes (kpmod-utarget.notes, made when
# the program was built), converted here, not by kpmod.
# Without uprobe_events (the debug kernel), each value is checked against
# what the workload is known to pass instead; without uprobes at all, the
# refusal is checked.
. "$KPMOD_LIB"
T=/sys/kernel/tracing
B=/usr/bin/kpmod-utarget
N=20
eval "$(kpmod-utarget offsets | sed 's/^\([a-z_]*\) \(0x[0-9a-f]*\)$/\1=\2/')"
[ -n "$ut_add" ] && [ -n "$text_base" ] || fail "kpmod-utarget offsets printed nothing"

# A marker's place and arguments, from the notes: "NAME VADDR SEMAPHORE
# ARGS", an arm64 "[sp, 80]" written "[sp,80]" to stay one word.
awk -v base="$text_base" '
	function hex(s) { return ("0x" s) + 0 }
	/Name:/ { name = $2 }
	/Location:/ { loc = $2; sub(/,$/, "", loc); sem = $6 }
	/Arguments:/ { sub(/.*Arguments: */, ""); gsub(/, /, ","); print name, loc, sem, $0 }' \
	/usr/bin/kpmod-utarget.notes >/tmp/markers
[ "$(wc -l </tmp/markers)" -eq 3 ] || { cat /usr/bin/kpmod-utarget.notes; fail "3 markers expected in the notes"; }
# hexsub A B: A - B, both 0x-hex, as 0x-hex (busybox awk has no 64-bit
# integers beyond 2^53; these addresses are small).
hexsub() { printf '0x%x' $(($1 - $2)); }
marker() { awk -v m="$1" '$1 == m' /tmp/markers; }
moff() { hexsub "$(marker "$1" | cut -d' ' -f2)" "$text_base"; }

# One note argument ("-8@%rbx", "-4@8(%rsp)", "8@[sp,12]", "-4@x1") as a
# uprobe_events FETCHARG with its type.
usdt_arg() {
	spec=$1
	size=${spec%%@*}
	loc=${spec#*@}
	case "$size" in -*) sign=s ;; *) sign=u ;; esac
	t=$sign$((${size#-} * 8))
	case "$loc" in
	*'(%rip)') fail "a RIP-relative argument: converted by hand below" ;;
	*'('*) off=${loc%%(*}; r=${loc#*%}; r=${r%)}; echo "+${off:-0}(%$(x86reg "$r")):$t" ;;
	%*) echo "%$(x86reg "${loc#%}"):$t" ;;
	'['*','*']') r=${loc#[}; r=${r%%,*}; off=${loc#*,}; off=${off%]}; echo "+$off(%$r):$t" ;;
	'['*']') r=${loc#[}; r=${r%]}; echo "+0(%$r):$t" ;;
	[wx]*) echo "%x${loc#?}:$t" ;;
	*) fail "note argument '$spec' not understood" ;;
	esac
}
x86reg() {
	case "$1" in
	r[0-9]*) echo "$1" | sed 's/[dwb]$//' ;;
	e*|r*) r=${1#?}; echo "$r" ;;
	*) echo "$1" ;;
	esac
}

case "$KPMOD_ARCH" in
x86_64)
	A1=%di A2=%si A3=%dx A4=%cx RET='$retval'
	;;
arm64)
	A1=%x0 A2=%x1 A3=%x2 A4=%x3 RET='$retval'
	;;
esac
tick_args=$(marker tick | cut -d' ' -f4-)
set -- $tick_args
tick="i=$(usdt_arg "$1") w=+0($(usdt_arg "$2" | sed 's/:.*//')):string v=+0($(usdt_arg "$3" | sed 's/:.*//')):s64"
tock_args=$(marker tock | cut -d' ' -f4-)
set -- $tock_args
tock="i=$(usdt_arg "$1") v=$(usdt_arg "$2")"
tock_sem=$tock_semaphore
set -- $(marker mem | cut -d' ' -f4-)
case "$KPMOD_ARCH" in
x86_64)	mem="c=@+$ut_counter:s64 small=$(usdt_arg "$2")" kmem="c=arg1 small=arg2" ;;
# arm64's first argument is an address made of a :lo12: relocation.
arm64)	mem="small=$(usdt_arg "$2")" kmem="small=arg2" ;;
esac
# ut_counter's address (a static, non-PIE program: the same in every run).
counter_addr=$(printf '0x%x' $((text_base + ut_counter)))
cat >/tmp/defs <<DEFS
p:ut/add $B:$ut_add a=$A1:s64 b=$A2:s64 s=+0($A3):string v=+0($A4):s64 sm=+8($A4):s32 tag=+12($A4):string u=+0($A3):ustring sp=\$stack:x64 s0=\$stack0:x64 c=\$comm cnt=@+$ut_counter:s64 w8=+0($A3):u8[2] ns=+40($A4):string[3] ca=@$counter_addr:s64 bad=+0($A1):string
r:ut/addret $B:$ut_add ret=$RET:s64
p:ut/leafret $B:$ut_leaf%return r=$RET:s64 rx=$RET:x32
p:ut/tick $B:$(moff tick) $tick
p:ut/tock $B:$(moff tock)($tock_sem) $tock
p:ut/mem $B:$(moff mem) $mem
DEFS
# kpmod's: the markers by name, their arguments converted by kpmod.
sed '/^p:ut\/\(tick\|tock\|mem\) /d' /tmp/defs >/tmp/kdefs
cat >>/tmp/kdefs <<DEFS
u:ut/tick $B:kpmod:tick i=arg1 w=arg2:string v=+0(arg3):s64
u:ut/tock $B:kpmod:tock i=arg1 v=arg2
u:ut/mem $B:kpmod:mem $kmem
DEFS
cat /tmp/defs /tmp/kdefs

load_kpmod
if [ ! -e $T/uprobe_events ]; then
	# No oracle: the kernel's refusal, or each value as the workload passes it.
	kpmod add -f /tmp/kdefs >/tmp/o 2>&1
	rc=$?
	cat /tmp/o
	if grep -q 'no uprobes' /tmp/o; then
		[ $rc -ne 0 ] || fail "refused but exited 0"
		expect_rc 0 kpmod status
		expect_grep "^probes:  0 registered"
		unload_kpmod
		note "this kernel has no uprobes (CONFIG_UPROBES): refused with the reason"
		exit 0
	fi
	[ $rc -eq 0 ] || fail "kpmod add exited $rc"
	oracle=
else
	oracle=1
fi

if [ -n "$oracle" ]; then
	clock=$(sed 's/.*\[\(.*\)\].*/\1/' "$T/trace_clock")
	echo mono >"$T/trace_clock" || fail "cannot set trace_clock to mono"
	while IFS= read -r d; do
		echo "$d" >>"$T/uprobe_events" || fail "uprobe_events refused: $d"
	done </tmp/defs
	echo >"$T/trace"
	expect_rc 0 kpmod add -f /tmp/kdefs
fi
expect_rc 0 kpmod list
# kpmod list prints them as cat uprobe_events does.
if [ -n "$oracle" ]; then
	cat $T/uprobe_events
	kpmod list | sort >/tmp/kl
	sort $T/uprobe_events >/tmp/ul
	cmp /tmp/kl /tmp/ul || { diff /tmp/ul /tmp/kl; fail "kpmod list differs from uprobe_events"; }
fi
# The guard is closed until a probe with the semaphore is armed.
[ "$(kpmod-utarget sem)" = 0 ] || fail "the semaphore is open before anything is armed"
[ -z "$oracle" ] || echo 1 >"$T/events/ut/enable"
expect_rc 0 kpmod enable 'ut/*'
workload() {
	[ "$(kpmod-utarget sem)" = 1 ] || fail "the semaphore did not open the marker's guard"
	kpmod-utarget run $N
}
capture /tmp/rec.out "record -o /tmp/u.kpm" -- workload
[ -z "$oracle" ] || echo 0 >"$T/events/ut/enable"
expect_rc 0 kpmod disable all
kpmod report /tmp/u.kpm >/tmp/kpmod.raw || fail "report failed"
expect_rc 0 kpmod stat
# Disarmed: the guard closes again (the kernel's too, once disabled).
[ "$(kpmod-utarget sem)" = 0 ] || fail "the semaphore stayed open after disable"

# PID TIME EVENT: REST for kpmod-utarget's events, by pid then time.
norm() {
	sed -n 's/^ *kpmod-utarget-\([0-9]*\) *\[[0-9]*\] [^ ]* *\([0-9.]*\): \([a-z0-9_]*\): \(.*\)$/\1 \2 \3: \4/p' "$1" |
		sort -s -k1,1n -k2,2n | cut -d' ' -f1,3- >"$2"
}
norm /tmp/kpmod.raw /tmp/kpmod.n
nk=$(wc -l </tmp/kpmod.n)
# Per pass: add, addret, leafret (ut_add calls ut_leaf), tick, tock, mem; N
# passes of "run" and the one of "sem" while armed.
if [ -n "$oracle" ]; then
	kpmod-escape <"$T/trace" >/tmp/ftrace.raw
	echo "$clock" >"$T/trace_clock"
	norm /tmp/ftrace.raw /tmp/ftrace.n
	nf=$(wc -l </tmp/ftrace.n)
	[ "$nf" -ge $((N * 6)) ] || { head -n 20 "$T/trace"; fail "only $nf events from uprobe_events"; }
	[ "$nk" -eq "$nf" ] || fail "uprobe_events has $nf events, kpmod $nk"
	# One difference, a kernel bug: Debian 5.10's uprobe_events reads
	# @+OFFSET as 0 on arm64 (6.1's reads the variable, as kpmod does; the
	# value kpmod shows is the workload's, checked below).
	foffs_zero=
	case "$KPMOD_ARCH $(uname -r)" in "arm64 5.10."*) foffs_zero=1 ;; esac
	paste -d '\n' /tmp/ftrace.n /tmp/kpmod.n | awk -v fz="$foffs_zero" '
		NR % 2 { f = $0; next }
		fz { g = f; sub(/ cnt=0 /, " cnt=X ", g); h = $0; sub(/ cnt=[0-9]+ /, " cnt=X ", h)
		     if (g == h && g != f) { zeros++; next } }
		$0 != f { print "differs:\n< " f "\n> " $0; bad++ }
		END { if (zeros) printf "# %d @+OFFSET values 0 in uprobe_events (5.10 arm64)\n", zeros
		      exit bad > 0 }' >/tmp/cmp || { head -n 20 /tmp/cmp; fail "kpmod and uprobe_events differ"; }
	cat /tmp/cmp
	sed 's/^[0-9]* //' /tmp/kpmod.n | awk '!seen[$1]++' | cut -c1-200
	note "$nk events of 6 definitions identical to uprobe_events, field by field"
	echo >"$T/uprobe_events"
fi
# The values the workload passes, with or without the oracle: pass i of
# "run" adds a=i, b=1000+i, s="w<i%7>", v=3i, sm=i%100, tag="tag<i>",
# ns={"w<i%7>","tag<i>","w<(i+1)%7>"}, returns 2i+1 + 1000+i + 2 + i%100;
# ut_leaf returns 2i+1.
awk -v n=$N '
	/ add: / && / cnt=/ {
		match($0, / a=[0-9]+/); i = substr($0, RSTART + 3, RLENGTH - 3) + 0
		want = sprintf(" a=%d b=%d s=\"w%d\" v=%d sm=%d tag=\"tag%d\" u=\"w%d\"", i, 1000 + i, i % 7, 3 * i, i % 100, i, i % 7)
		if (index($0, want) == 0) { print "add " i ": want" want ": " $0; bad++ }
		if ($0 !~ / c="kpmod-utarget" cnt=/) { print "comm: " $0; bad++ }
		if (index($0, " cnt=" i " ") == 0) { print "cnt: " $0; bad++ }
		# @ADDR reads the process memory; a string at address i faults.
		if ($0 !~ (" ca=" i " bad=\\(fault\\)$")) { print "ca, bad: " $0; bad++ }
		# string[3]: the pointers at +40, +48, +56 of rec, each a string.
		want = sprintf(" ns={\"w%d\",\"tag%d\",\"w%d\"} ", i % 7, i, (i + 1) % 7)
		if (index($0, want) == 0) { print "ns " i ": want" want ": " $0; bad++ }
		adds++
	}
	/ addret: / { match($0, / ret=[0-9]+/); r[substr($0, RSTART + 5, RLENGTH - 5) + 0]++; rets++ }
	/ tick: / { ticks++; if ($0 !~ / w="w[0-6]" v=[0-9]+$/) { print "tick: " $0; bad++ } }
	/ tock: / { tocks++; if ($0 !~ / i=[0-9]+ v=[0-9]+$/) { print "tock: " $0; bad++ } }
	/ mem: / { mems++; if ($0 !~ / small=[0-9]+$/) { print "mem: " $0; bad++ } }
	END {
		if (adds < n || rets < n || ticks < n || tocks < n || mems < n) {
			print "adds " adds " rets " rets " ticks " ticks " tocks " tocks " mems " mems; bad++ }
		for (i = 1; i <= n; i++) if (!r[2 * i + 1 + 1000 + i + 2 + i % 100]) { print "no return value for pass " i; bad++ }
		exit bad > 0 }' /tmp/kpmod.n || fail "kpmod recorded wrong values"
note "every value as kpmod-utarget passed it ($nk events)"

# Bad input, with the caret.
expect_rc 80 kpmod add "p /no/such/file:0x10"
expect_grep "Failed to find the given file"
expect_rc 88 kpmod add "p /etc/passwd:0x10"
expect_grep "Not an ELF file"
expect_rc 90 kpmod add "p $B:$tock_semaphore"
expect_grep "Offset is outside any executable segment"
expect_rc 0 kpmod clear
unload_kpmod
