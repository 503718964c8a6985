# The benchmarks, run inside one booted guest so every ratio compares
# numbers measured in the same boot.  Prints table rows as "BENCH|...".
. "$KPMOD_LIB"
need_kprobe_events
T=/sys/kernel/tracing
case "$KPMOD_ARCH" in
x86_64) SYS=__x64_sys_getppid ;;
arm64) SYS=__arm64_sys_getppid ;;
esac
N=${KPMOD_BENCH_N:-200000}
NCPU=$(grep -c ^processor /proc/cpuinfo)
DRAIN=${KPMOD_BENCH_DRAIN:-500000}
REPS=${KPMOD_BENCH_REPS:-7}
# Which parts run: KPMOD_BENCH_PARTS=hit,parts,hist,drain,profile,hitprof,scale,ctlprof,lat,one,cpus
# (the default: hit,hist,drain,scale).
PARTS=",${KPMOD_BENCH_PARTS:-hit,hist,drain,scale},"
part() { case "$PARTS" in *",$1,"*) return 0 ;; esac; return 1; }

# timed FILE NAME CMD...: one run of CMD, which must succeed; appends
# "NAME MICROSECONDS" (guest time) to FILE.
timed() {
	_tf=$1
	_tn=$2
	shift 2
	_t0=$(kpmod-work now)
	"$@" || fail "$_tn failed"
	_t1=$(kpmod-work now)
	echo "$_tn $(((_t1 - _t0) / 1000))" >>"$_tf"
}

# settle [PATTERN]: waits until no kprobe (or none whose line in
# kprobes/list matches PATTERN) is registered and no function is hooked
# (ftrace's enabled_functions): a set-up measured while the last one's
# hooks are still there would pay for them.  kpmod's parked ftrace_ops
# (kpmod_fsite_idle, a function nothing calls) costs nothing and stays.
mount -t debugfs none /sys/kernel/debug 2>/dev/null
hooked() {
	cat /sys/kernel/debug/kprobes/list "$T/enabled_functions" 2>/dev/null |
		grep -v '^kpmod_fsite_idle ' | grep -q -- "${1:-.}"
}
settle() {
	j=0
	while hooked "$@" && [ $j -lt 300 ]; do
		sleep 0.1
		j=$((j + 1))
	done
	! hooked "$@" || fail "still hooked: $(cat /sys/kernel/debug/kprobes/list "$T/enabled_functions")"
}

# bpftrace, where the guest has the Debian root file system (tests/vm/run
# --rootfs debian): bt_on PROGRAM starts it and returns once it is
# attached, that is once it has said "Attaching" and sleeps in epoll_wait
# (where it stays: the programs print nothing); bt_off stops it.
have_bt() { [ -n "${KPMOD_ROOTFS:-}" ] && [ -x "$KPMOD_ROOTFS/usr/bin/bpftrace" ]; }
bt_on() {
	bpftrace_start "$1" 'grep -q "^Attaching" /tmp/bt.out &&
		[ "$(cat "/proc/$DEBIAN_PID/wchan" 2>/dev/null)" = do_epoll_wait ]'
}
bt_off() {
	bpftrace_stop
	settle
}

# kpe_on DEF: kprobe_events' probe kprobes/bench, defined and enabled;
# kpe_off: disabled and deleted.
kpe_on() {
	echo "$1" >"$T/kprobe_events" || fail "kprobe_events refused: $1"
	echo 1 >"$T/events/kprobes/bench/enable"
}
kpe_off() {
	echo 0 >"$T/events/kprobes/bench/enable"
	echo >"$T/kprobe_events"
}

# The string row's arguments: 2 nested reads of kernel memory and a user
# string.  The first read is of the word the function's entry finds at a
# pointer to its caller's frame: on x86_64 the stack's top (the return
# address, whose bytes the second read takes); on arm64 the frame record
# %x29 points to (the stack's top there is the caller's locals, often no
# address, and a read that faults is a different cost).  Checked below.
case "$KPMOD_ARCH" in
arm64) DEREF='+0(+0(%x29))' BT_DEREF='*(uint64 *)(*(uint64 *)reg("r29"))' ;;
*) DEREF='+0(+0($stack))' BT_DEREF='*(uint64 *)(*(uint64 *)reg("sp"))' ;;
esac
ROW_ARGS="x=$DEREF:x64 path=+0(\$arg2):ustring"

# ns/call of one "kpmod-work time ..." run, pinned to CPU 0.
ns_per_call() {
	taskset 1 kpmod-work time "$@" | sed -n 's/^ns_per_call //p'
}

# per_hit LABEL FUNC WORKLOAD... ; $ARGS holds the fetchargs, $BT the
# bpftrace program that reads the same (run where bpftrace is).  Prints one
# row.  Each round measures the set-ups back to back (no probe,
# kprobe_events, kpmod, the empty handler, bpftrace), so every set-up is sampled across the whole run
# alike.  Each column is its set-up's fastest round: what the host does
# beside the guest only ever adds time, and on a busy host the spread of
# single runs is larger than the cost measured.  A probe's cost is its
# fastest run minus the fastest run without a probe.  Each probe is defined
# only while it is measured: a second kprobe on the same address would make
# the kprobe aggregated and slow the one measured.
per_hit() {
	label=$1 func=$2
	shift 2
	i=0
	: >/tmp/per_hit.rows
	while [ $i -lt $REPS ]; do
		none=$(ns_per_call "$@")

		kpe_on "p:kprobes/bench $func $ARGS"
		kpe=$(ns_per_call "$@")
		kpe_off

		kpmod add --enable "p:kprobes/bench $func $ARGS" >/dev/null || fail "kpmod add refused: $ARGS"
		kpm=$(ns_per_call "$@")
		kpmod disable all && kpmod clear && settle

		insmod /kpmod/extra/kpmod_floor.ko sym="$func" || fail "floor module"
		flo=$(ns_per_call "$@")
		rmmod kpmod_floor

		bt=-
		if have_bt && [ -n "${BT:-}" ]; then
			bt_on "$BT"
			bt=$(ns_per_call "$@")
			bt_off
			[ -n "$bt" ] || fail "per_hit $label: no bpftrace measurement"
		fi

		echo "$none $kpe $kpm $flo $bt" >>/tmp/per_hit.rows
		i=$((i + 1))
	done
	sed "s/^/# $label: /" /tmp/per_hit.rows
	awk -v l="$label" -v t="${TAG:-hit}" '
		NR == 1 { n = $1; e = $2; k = $3; f = $4; b = $5 }
		{ if ($1 < n) n = $1; if ($2 < e) e = $2; if ($3 < k) k = $3; if ($4 < f) f = $4; if ($5 != "-" && $5 < b) b = $5 }
		END {
			if (NR == 0) exit 1
			printf "BENCH|%s|%s|%.0f|%.0f|%.0f|%.0f|%.2f|%.2f", t, l, n, e - n, k - n, f - n, (k - n) / (e - n), (f - n) / (e - n)
			if (b == "-") print "|-|-"; else printf "|%.0f|%.2f\n", b - n, (k - n) / (b - n)
		}' /tmp/per_hit.rows || fail "per_hit $label: no measurement"
}

load_kpmod
echo "# kernel: $(uname -r) $(uname -m)"
! have_bt || echo "# bpftrace: $(in_debian bpftrace --version | sed 's/^bpftrace //')"
# Both tracers keep writing when full (ftrace's default is overwrite).
kpmod buffer --mode overwrite --size 4M >/dev/null
echo 4096 >"$T/buffer_size_kb"

# The string row must measure reads that succeed: kpmod prints "(fault)"
# where a read faults (kprobe_events leaves no mark), so kpmod checks it.
row_reads() {
	kpmod trace "p:kprobes/bench do_sys_openat2 $ROW_ARGS" -- kpmod-work open /etc/passwd 3 \
		>/tmp/row.txt 2>&1 || { cat /tmp/row.txt; fail "kpmod trace of the string row"; }
	grep 'path="/etc/passwd"' /tmp/row.txt >/tmp/row.hits
	grep -q ' x=0x' /tmp/row.hits && ! grep -q '(fault)' /tmp/row.hits ||
		{ cat /tmp/row.txt; fail "the string row's reads fault or read nothing: $ROW_ARGS"; }
}
if part hit || part parts; then
	row_reads
fi

if part hit; then
	ARGS= BT="k:$SYS { }" per_hit "getppid, 0 args" "$SYS" getppid "$N"
	ARGS='a=$arg1 b=$arg2 c=$arg3' BT="k:$SYS { @ = (arg0, arg1, arg2); }" \
		per_hit "getppid, 3 args" "$SYS" getppid "$N"
	ARGS='a=$arg1 b=$arg2 c=$arg3 d=$arg4 e=$arg5 f=$arg6' \
		BT="k:$SYS { @ = (arg0, arg1, arg2, arg3, arg4, arg5); }" \
		per_hit "getppid, 6 args" "$SYS" getppid "$N"
	ARGS=$ROW_ARGS \
		BT="k:do_sys_openat2 { @ = ($BT_DEREF, str(uptr(arg1))); }" \
		per_hit "openat, 2 nested derefs + a string" do_sys_openat2 open /etc/passwd $((N / 4))
fi

# The string row, part by part: the same probe with no argument, one
# register, one and two nested reads, the user string alone (a profile:
# what each part adds, for kprobe_events and kpmod).
if part parts; then
	for row in 'none|' 'a register|a=$arg2' 'a read of the stack|x=+0($stack):x64' \
		"2 nested reads|x=$DEREF:x64" 'the user string|path=+0($arg2):ustring' \
		"all of the row|$ROW_ARGS"; do
		TAG=part ARGS=${row#*|} BT= per_hit "${row%%|*}" do_sys_openat2 open /etc/passwd $((N / 4))
	done
fi

# The hist trigger's per-hit cost: keys=nr.log2 on the pid getpgid looks
# up, counted in the kernel's hist (on a kprobe_events probe not enabled:
# the trigger arms it) and in kpmod's (a probe not enabled); beside it,
# kpmod recording every event into its ring instead, without a reader and
# then streamed to `kpmod record` running on the workload's CPU (so the
# time per call includes what taking each event out costs that CPU), and a
# kpmod filter that refuses every event.  Rounds as per_hit's.
per_hit_hist() {
	label=$1
	shift
	def='p:kprobes/bench find_task_by_vpid nr=$arg1:s32'
	i=0
	: >/tmp/per_hit.rows
	while [ $i -lt $REPS ]; do
		none=$(ns_per_call "$@")

		echo "$def" >"$T/kprobe_events" || fail "kprobe_events refused $def"
		echo 'hist:keys=nr.log2' >"$T/events/kprobes/bench/trigger" || fail "no hist trigger"
		kh=$(ns_per_call "$@")
		echo '!hist:keys=nr.log2' >"$T/events/kprobes/bench/trigger"
		echo >"$T/kprobe_events"

		kpmod add "$def" >/dev/null || fail "kpmod add"
		kpmod trigger bench 'hist:keys=nr.log2' || fail "kpmod trigger"
		mh=$(ns_per_call "$@")
		kpmod trigger bench '!hist:keys=nr.log2'
		kpmod enable bench
		ms=$(ns_per_call "$@")
		# Emptied first (a resize empties the rings), so the reader
		# takes out only this round's events.
		kpmod disable bench && kpmod buffer --size 4M >/dev/null && kpmod enable bench ||
			fail "kpmod buffer"
		taskset 1 kpmod record -o /tmp/bench.kpm 2>/tmp/rec.err &
		rpid=$!
		# Attached when it maps every CPU's ring (two mappings each).
		while [ "$(grep -c /dev/kpmod /proc/$rpid/maps 2>/dev/null)" -lt $((2 * NCPU)) ]; do
			kill -0 $rpid 2>/dev/null || { cat /tmp/rec.err; fail "kpmod record"; }
			sleep 0.05
		done
		h0=$(kpmod stat | awk '$1 == "bench" { print $2 }')
		mr=$(ns_per_call "$@")
		h1=$(kpmod stat | awk '$1 == "bench" { print $2 }')
		kill -INT $rpid
		wait $rpid || { cat /tmp/rec.err; fail "kpmod record"; }
		sed "s/^/# $label, streamed: /" /tmp/rec.err >&2
		# What share of the round's events the reader took out before
		# the writer overwrote them (the rest were not streamed).
		taken=$(sed -n 's/^kpmod: record: \([0-9]*\) events.*/\1/p' /tmp/rec.err)
		echo "BENCH|taken|$taken|$((h1 - h0))" >&2
		kpmod filter bench 'nr < 0'
		mf=$(ns_per_call "$@")
		kpmod disable all && kpmod clear && settle

		bh=-
		if have_bt; then
			bt_on 'k:find_task_by_vpid { @ = hist(arg0); }'
			bh=$(ns_per_call "$@")
			bt_off
			[ -n "$bh" ] || fail "per_hit_hist $label: no bpftrace measurement"
		fi

		echo "$none $kh $mh $ms $mr $mf $bh" >>/tmp/per_hit.rows
		i=$((i + 1))
	done
	sed "s/^/# $label: /" /tmp/per_hit.rows
	awk -v l="$label" '
		NR == 1 { n = $1; h = $2; m = $3; s = $4; r = $5; f = $6; b = $7 }
		{ if ($1 < n) n = $1; if ($2 < h) h = $2; if ($3 < m) m = $3; if ($4 < s) s = $4; if ($5 < r) r = $5; if ($6 < f) f = $6; if ($7 != "-" && $7 < b) b = $7 }
		END {
			if (NR == 0) exit 1
			printf "BENCH|hist|%s|%.0f|%.0f|%.0f|%.0f|%.0f|%.0f|%.2f|%.2f|%.2f", l, n, h - n, m - n, s - n, r - n, f - n, (m - n) / (h - n), (m - n) / (s - n), (m - n) / (r - n)
			if (b == "-") print "|-|-"; else printf "|%.0f|%.2f\n", b - n, (m - n) / (b - n)
		}' /tmp/per_hit.rows || fail "per_hit_hist $label: no measurement"
}
part hist && per_hit_hist "getpgid, hist keys=nr.log2" getpgid "$N" 7000000

if part drain; then
	# The reader on the second CPU, or (one vCPU, -icount: guest time
	# is then instructions) on the workload's, once the workload is done.
	if [ "$NCPU" -gt 1 ]; then RCPU=2; else RCPU=1; fi
	# Drain rate: fill a large buffer first (no reader: no loss), then time how
	# long each reader takes to take every event out.
	kpmod buffer --mode discard --size 64M >/dev/null
	echo 32768 >"$T/buffer_size_kb"

	drain_kpmod() { # drain_kpmod LABEL COMMAND...
		label=$1
		shift
		kpmod add --enable "p:kprobes/drain $SYS" >/dev/null || fail "kpmod add"
		taskset 1 kpmod-work getppid "$DRAIN"
		kpmod disable all
		start=$(kpmod-work now)
		taskset $RCPU "$@" >/dev/null 2>/tmp/drain.err || { cat /tmp/drain.err; fail "$label"; }
		end=$(kpmod-work now)
		grep -q "lost 0 " /tmp/drain.err || { cat /tmp/drain.err; fail "$label lost events"; }
		kpmod clear
		echo "BENCH|drain|$label|$(((DRAIN * 1000000000) / (end - start)))"
	}
	drain_kpmod "kpmod record" kpmod record --count "$DRAIN" -o /tmp/bench.kpm
	drain_kpmod "kpmod trace" kpmod trace --count "$DRAIN"

	echo "p:kprobes/drain $SYS" >"$T/kprobe_events"
	echo 1 >"$T/events/kprobes/drain/enable"
	taskset 1 kpmod-work getppid "$DRAIN"
	echo 0 >"$T/events/kprobes/drain/enable"
	overrun=$(sed -n 's/^overrun: //p' "$T/per_cpu/cpu0/stats")
	[ "$overrun" = 0 ] || fail "trace_pipe: $overrun events overrun"
	start=$(kpmod-work now)
	taskset $RCPU head -n "$DRAIN" "$T/trace_pipe" >/dev/null
	end=$(kpmod-work now)
	echo "BENCH|drain|cat trace_pipe|$(((DRAIN * 1000000000) / (end - start)))"
	echo >"$T/kprobe_events"
fi

# Profile: where a drain's instructions go, for kpmod record and kpmod
# trace, by Debian's perf from the root file system (cpu-clock samples:
# under -icount, every so many instructions), the busiest symbols first.
if part profile && have_bt && [ -x "$KPMOD_ROOTFS/usr/bin/perf" ]; then
	kpmod buffer --mode discard --size 64M >/dev/null
	cp /usr/bin/kpmod /tmp/kpmod	# /tmp is bound into the root file system
	for what in record trace; do
		kpmod add --enable "p:kprobes/drain $SYS" >/dev/null || fail "kpmod add"
		taskset 1 kpmod-work getppid "$DRAIN"
		kpmod disable all
		out=/dev/null
		[ $what = trace ] || out=/tmp/bench.kpm
		in_debian perf record -q -F 2000 -e cpu-clock -o /tmp/perf.data -- \
			/tmp/kpmod $what --count "$DRAIN" -o $out 2>/tmp/perf.err ||
			{ cat /tmp/perf.err; fail "perf record of kpmod $what"; }
		in_debian perf report -i /tmp/perf.data --no-children --sort dso,sym --stdio 2>/dev/null |
			awk -v w="$what" '$1 ~ /%$/ && n < 12 { sub(/%$/, "", $1); s = $4; for (i = 5; i <= NF; i++) s = s " " $i; printf "BENCH|prof|%s|%s|%s|%s\n", w, $1, $2, s; n++ }'
		kpmod clear
	done
	rm -f /tmp/perf.data /tmp/bench.kpm /tmp/kpmod
fi

# Profile of a hit: where the string row's instructions go.  Debian's
# perf samples every CPU (cpu-clock: under -icount one sample every 10,007
# instructions, the kernel's least period being 10 us; the ftrace-based
# kprobe runs its handler with interrupts on, so samples land in it)
# while the workload opens a file N/4 times,
# with no probe, then with kprobe_events' and with kpmod's; each symbol's
# samples with a probe less its samples without, times 10,007 over the
# calls, is what the probe added there per call, in instructions.
if part hitprof && have_bt && [ -x "$KPMOD_ROOTFS/usr/bin/perf" ]; then
	calls=$((N / 4))
	cp "$(command -v kpmod-work)" /tmp/kpmod-work	# /tmp is bound into the root file system
	for who in none kprobe_events kpmod; do
		case $who in
		kpmod)
			kpmod add --enable "p:kprobes/bench do_sys_openat2 $ROW_ARGS" >/dev/null ||
				fail "kpmod add refused: $ROW_ARGS" ;;
		kprobe_events) kpe_on "p:kprobes/bench do_sys_openat2 $ROW_ARGS" ;;
		esac
		in_debian perf record -q -a -c 10007 -e cpu-clock -o /tmp/perf.data -- \
			taskset 1 /tmp/kpmod-work open /etc/passwd $calls >/dev/null 2>/tmp/perf.err ||
			{ cat /tmp/perf.err; fail "perf record of the string row, $who"; }
		in_debian perf report -i /tmp/perf.data --no-children --sort sym -F sample,sym --stdio 2>/dev/null |
			awk '$1 ~ /^[0-9]+$/ { s = $3; for (i = 4; i <= NF; i++) s = s " " $i; print $1 "\t" s }' >/tmp/prof.$who
		[ -s /tmp/prof.$who ] || fail "perf report of the string row, $who: no samples"
		case $who in
		kpmod) kpmod disable all && kpmod clear ;;
		kprobe_events) kpe_off ;;
		esac
		settle
	done
	for who in kprobe_events kpmod; do
		awk -F'\t' -v w="$who" -v c="$calls" '
			FNR == NR { base[$2] = $1; next }
			{ d[$2] = $1 - base[$2]; delete base[$2] }
			END {
				for (k in base) d[k] = -base[k]
				for (k in d) { t += d[k]; printf "%.1f\t%s\n", d[k] * 10007 / c, k }
				printf "%.1f\t(all symbols)\n", t * 10007 / c
			}' /tmp/prof.none /tmp/prof.$who | sort -t'	' -k1,1nr |
			awk -F'\t' -v w="$who" '$2 == "(all symbols)" || (n < 12 && $1 >= 5) { printf "BENCH|hprof|%s|%s|%s\n", w, $1, $2; if ($2 != "(all symbols)") n++ }'
	done
	rm -f /tmp/perf.data /tmp/kpmod-work /tmp/prof.*
fi

# Scale: the per-hit cost of one probe while 0, 100 and 1,000 other
# probes are enabled on functions the workload does not call (networking's:
# the guest has none), rounds as per_hit's; and the control plane: 1,000
# definitions added from one file, enabled and disabled all at once, and
# deleted, by kpmod and by kprobe_events.
# scale_defs: /tmp/scale.defs, 1,000 definitions on networking functions
# both tracers take: unique names (kpmod funcs) that ftrace can trace
# (kprobe_events refuses the others).
scale_defs() {
	[ ! -s /tmp/scale.defs ] || return 0
	kpmod funcs | grep -E '^(tcp|udp|inet|ip|ip6|ipv6|raw|icmp|arp|neigh|fib|xfrm)_[a-z0-9_]+$' |
		sort >/tmp/scale.kpmod
	sort -u "$T/available_filter_functions" | grep -Fx -f /tmp/scale.kpmod |
		head -n 1000 >/tmp/scale.funcs
	nf=$(wc -l </tmp/scale.funcs)
	[ "$nf" -eq 1000 ] || fail "scale: only $nf networking functions to probe"
	awk '{ printf "p:scale/s%d %s\n", NR, $1 }' /tmp/scale.funcs >/tmp/scale.defs
}
if part scale; then
	# As per_hit's rounds: overwrite mode (the drain parts leave discard).
	kpmod buffer --mode overwrite --size 4M >/dev/null
	scale_defs
	t0=$(kpmod-work now)
	kpmod add -f /tmp/scale.defs >/dev/null || fail "kpmod add -f: 1,000 probes"
	t1=$(kpmod-work now)
	kpmod enable 'scale/*' || fail "kpmod enable scale/*"
	t2=$(kpmod-work now)
	kpmod disable 'scale/*' || fail "kpmod disable"
	t3=$(kpmod-work now)
	kpmod del 'scale/*' || fail "kpmod del"
	t4=$(kpmod-work now)
	settle
	echo "BENCH|ctl|kpmod|$(((t1 - t0) / 1000000))|$(((t2 - t1) / 1000000))|$(((t3 - t2) / 1000000))|$(((t4 - t3) / 1000000))"
	sed 's|^p:scale/|p:kscale/|' /tmp/scale.defs >/tmp/scale.kdefs
	t0=$(kpmod-work now)
	cat /tmp/scale.kdefs >>"$T/kprobe_events" || fail "kprobe_events: 1,000 probes"
	t1=$(kpmod-work now)
	echo 1 >"$T/events/kscale/enable" || fail "kprobe_events: enable"
	t2=$(kpmod-work now)
	echo 0 >"$T/events/kscale/enable"
	t3=$(kpmod-work now)
	echo >"$T/kprobe_events" || fail "kprobe_events: delete"
	t4=$(kpmod-work now)
	[ -z "$(cat "$T/kprobe_events")" ] || fail "kprobe_events: not all deleted"
	settle
	echo "BENCH|ctl|kprobe_events|$(((t1 - t0) / 1000000))|$(((t2 - t1) / 1000000))|$(((t3 - t2) / 1000000))|$(((t4 - t3) / 1000000))"

	# others N: N of the probes above enabled, none of them hit.
	others() {
		kpmod disable all 2>/dev/null	# "no matching event" when none is
		kpmod clear || fail "kpmod clear"
		settle
		[ "$1" -eq 0 ] && return
		head -n "$1" /tmp/scale.defs >/tmp/scale.some
		kpmod add --enable -f /tmp/scale.some >/dev/null || fail "kpmod add: $1 other probes"
	}
	i=0
	while [ $i -lt $REPS ]; do
		row=
		for n in 0 100 1000; do
			others "$n"
			none=$(ns_per_call getppid "$N")
			kpmod add --enable "p:kprobes/bench $SYS" >/dev/null || fail "kpmod add bench"
			with=$(ns_per_call getppid "$N")
			kpmod disable kprobes/bench && kpmod del kprobes/bench || fail "kpmod del bench"
			settle getppid
			row="$row $none $with"
		done
		echo "$row"
		i=$((i + 1))
	done >/tmp/scale.rows
	others 0
	sed "s/^/# scale: /" /tmp/scale.rows
	awk '
		NR == 1 { for (c = 1; c <= 6; c++) m[c] = $c }
		{ for (c = 1; c <= 6; c++) if ($c < m[c]) m[c] = $c }
		END {
			if (NR == 0) exit 1
			printf "BENCH|scale|%.0f|%.0f|%.0f|%.2f|%.2f\n", m[2] - m[1], m[4] - m[3], m[6] - m[5], (m[4] - m[3]) / (m[2] - m[1]), (m[6] - m[5]) / (m[2] - m[1])
		}' /tmp/scale.rows || fail "scale: no measurement"
fi

# Profile of the control plane's add: where adding the 1,000 probes above
# from one file goes.  Debian's perf samples every CPU (cpu-clock, 2,000
# a second of guest time) from just before the add to just after it; the
# add is kpmod itself run from /tmp (bound into the root file system, so
# perf finds its symbols), after an add and delete of one of the probes
# (what the CLI caches per boot is in place, as for the bench's add).
# Prints the share of each command and object (the CLI's own code, the
# kernel working for it, the rest), and the busiest symbols.
if part ctlprof && have_bt && [ -x "$KPMOD_ROOTFS/usr/bin/perf" ]; then
	scale_defs
	cp /usr/bin/kpmod /tmp/kpmod
	head -n 1 /tmp/scale.defs >/tmp/scale.one
	/tmp/kpmod add -f /tmp/scale.one >/dev/null && kpmod del 'scale/*' || fail "kpmod add: one probe"
	settle
	debian_bg /tmp/perf.err perf record -q -a -F 2000 -e cpu-clock -o /tmp/perf.data
	perf_pid=$DEBIAN_PID
	j=0
	until [ -s /tmp/perf.data ] || [ $j -ge 300 ]; do
		sleep 0.1
		j=$((j + 1))
	done
	[ -s /tmp/perf.data ] || { cat /tmp/perf.err; fail "perf record did not start"; }
	sleep 1
	/tmp/kpmod add -f /tmp/scale.defs >/dev/null || fail "kpmod add -f: 1,000 probes, profiled"
	kill -INT $perf_pid
	# perf record ends by raising the signal that stopped it again.
	rc=0
	wait $perf_pid || rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 130 ] || { cat /tmp/perf.err; fail "perf record of kpmod add: exit $rc"; }
	kpmod del 'scale/*' || fail "kpmod del"
	settle
	{
		in_debian perf report -i /tmp/perf.data --no-children --sort comm,dso --stdio 2>/dev/null |
			awk '$1 ~ /%$/ && n < 6 { sub(/%$/, "", $1); printf "BENCH|cprof|who|%s|%s|%s\n", $1, $2, $3; n++ }'
		in_debian perf report -i /tmp/perf.data --no-children --comm kpmod --sort dso,sym --stdio 2>/dev/null |
			awk '$1 ~ /%$/ && n < 15 { sub(/%$/, "", $1); s = $4; for (i = 5; i <= NF; i++) s = s " " $i; printf "BENCH|cprof|sym|%s|%s|%s\n", $1, $2, s; n++ }'
	} >/tmp/cprof.rows
	cat /tmp/cprof.rows
	grep -q '^BENCH|cprof|sym|' /tmp/cprof.rows || fail "perf report of kpmod add: no samples"
	rm -f /tmp/perf.data /tmp/kpmod /tmp/scale.one /tmp/cprof.rows
fi
# Control-plane latency: each command's time (guest ms, KPMOD_BENCH_LAT
# rounds of add, enable, status, list, disable, del on a probe of its
# own), p50, p99 and worst: alone; beside a loop that adds, enables,
# disables and deletes probes on another function (each delete releases
# them: a grace period); beside a loop that only enables and disables
# such probes (the same arming, no release); and beside a loop of
# `kpmod status`, which takes the CPU and nothing else.  Releases alike
# toggles means no command waits for another's release.
if part lat; then
	LAT=${KPMOD_BENCH_LAT:-100}
	LATCMDS="add enable status list disable del"
	lat_cmd() {
		case $1 in
		add) kpmod add 'p:lat/x vfs_statfs' ;;
		enable) kpmod enable lat/x ;;
		status) kpmod status >/dev/null ;;
		list) kpmod list >/dev/null ;;
		disable) kpmod disable lat/x ;;
		del) kpmod del lat/x ;;
		esac
	}
	lat_round() {
		: >/tmp/lat.raw
		i=0
		while [ $i -lt "$LAT" ]; do
			for c in $LATCMDS; do
				timed /tmp/lat.raw "$c" lat_cmd "$c"
			done
			i=$((i + 1))
		done
		for c in $LATCMDS; do
			awk -v c="$c" '$1 == c { print $2 }' /tmp/lat.raw | sort -n |
				awk -v c="$c" -v l="$1" '{ v[NR] = $1 }
				END { printf "BENCH|lat|%s|%s|%.1f|%.1f|%.1f\n", l, c, v[int((NR + 1) / 2)] / 1000,
					v[int((NR * 99 + 99) / 100)] / 1000, v[NR] / 1000 }'
		done
	}
	# The loops end after a whole round once /tmp/lat.stop exists.
	releases() {
		while [ ! -e /tmp/lat.stop ] && kpmod add 'p:rl/y vfs_fsync' 'r:rl/yr vfs_fsync' &&
		      kpmod enable rl/y rl/yr && kpmod disable rl/y rl/yr && kpmod del rl/y rl/yr; do :; done
	}
	toggles() {
		kpmod add 'p:rl/y vfs_fsync' 'r:rl/yr vfs_fsync' || fail "lat: add rl/y"
		while [ ! -e /tmp/lat.stop ] && kpmod enable rl/y rl/yr && kpmod disable rl/y rl/yr; do :; done
		kpmod del rl/y rl/yr
	}
	statuses() {
		while [ ! -e /tmp/lat.stop ] && kpmod status >/dev/null; do :; done
	}
	lat_round alone
	for loop in releases toggles statuses; do
		rm -f /tmp/lat.stop
		$loop &
		lp=$!
		lat_round "beside $loop"
		touch /tmp/lat.stop
		wait $lp
	done
fi
# One probe, one command: each step on one probe by kpmod (a command: a
# process), and through kprobe_events by a shell's write (no process) and
# by a process that writes (sh -c), ms of guest time, the median of
# KPMOD_BENCH_ONE rounds, the timer's own cost (an empty bracket) taken off
# each.  And a one-shot `kpmod trace DEF -- true` against kprobe_events'
# four writes together.
if part one; then
	ONE=${KPMOD_BENCH_ONE:-20}
	DEF='p:cp/w vfs_write+9'
	: >/tmp/one.raw
	step() { timed /tmp/one.raw "$@"; }
	kpe_write() { echo "$1" >>"$2"; }
	kpe_proc() { sh -c 'echo "$1" >>"$2"' sh "$1" "$2"; }
	# rounds WHAT: ONE rounds of WHAT, each from a settled system: a probe
	# enabled is optimized (a jump) after a while, and one registered at
	# its address while that is being undone waits for it, whichever tool.
	rounds() {
		i=0
		while [ $i -lt "$ONE" ]; do
			"$@"
			settle
			sleep 1
			i=$((i + 1))
		done
	}
	one_kpmod() {
		step none true
		step kpmod_status kpmod status >/dev/null
		step kpmod_add kpmod add "$DEF"
		step kpmod_enable kpmod enable cp/w
		step kpmod_disable kpmod disable cp/w
		step kpmod_del kpmod del cp/w
	}
	# one_kpe write|proc
	one_kpe() {
		step kpe_$1_add kpe_$1 "$DEF" "$T/kprobe_events"
		step kpe_$1_enable kpe_$1 1 "$T/events/cp/w/enable"
		step kpe_$1_disable kpe_$1 0 "$T/events/cp/w/enable"
		step kpe_$1_del kpe_$1 "-:cp/w" "$T/kprobe_events"
	}
	one_trace() { step kpmod_trace kpmod trace "$DEF" -- true >/dev/null 2>&1; }
	kpmod add "$DEF" && kpmod del cp/w || fail "one: kpmod add"	# the first reads kallsyms
	rounds one_kpmod
	rounds one_kpe write
	rounds one_kpe proc
	rounds one_trace
	# Every round's numbers, for the log.
	awk '{ r[$1] = r[$1] " " $2 } END { for (k in r) print "# one: " k ":" r[k] }' /tmp/one.raw | sort
	sort -k1,1 -k2,2n /tmp/one.raw | awk '
		{ v[$1, ++n[$1]] = $2 }
		END {
			for (k in n) med[k] = v[k, int((n[k] + 1) / 2)]
			z = med["none"]
			for (k in n) m[k] = (med[k] - z) / 1000
			split("add enable disable del", st, " ")
			for (j = 1; j <= 4; j++) {
				k = m["kpmod_" st[j]]; w = m["kpe_write_" st[j]]; p = m["kpe_proc_" st[j]]
				printf "BENCH|one|%s|%.1f|%.1f|%.1f|%.2f|%.2f\n", st[j], k, w, p, k / w, k / p
				kt += k; wt += w; pt += p
			}
			printf "BENCH|one|trace DEF -- true (kprobe_events: the four steps)|%.1f|%.1f|%.1f|%.2f|%.2f\n", m["kpmod_trace"], wt, pt, m["kpmod_trace"] / wt, m["kpmod_trace"] / pt
			printf "BENCH|one|status (a kpmod command\x27s floor)|%.1f|—|—|—|—\n", m["kpmod_status"]
		}'
fi
# CPUs: the per-call cost of one probe while 1, 2 and 4 CPUs call the
# function at once, each its own process pinned to its CPU (tests/vm/run
# --smp 4 --icount: every instruction of every vCPU advances the one
# guest clock, so the time all take together over all their calls is the
# instructions each call costs, whatever the number of CPUs), for kpmod
# and kprobe_events; rounds as per_hit's.  Flat means nothing on the
# path makes one CPU wait for another or do more for it.  (Emulation
# models no caches: a line bouncing between CPUs costs nothing here; that
# no handler writes a shared line is read from the code, doc/benchmarks.md.)
if part cpus; then
	[ "$NCPU" -ge 4 ] || fail "cpus: needs 4 CPUs (tests/vm/run --smp 4)"
	# fire N: guest ns for N processes on CPUs 0..N-1, N calls each.
	fire() {
		t0=$(kpmod-work now)
		c=0
		while [ $c -lt "$1" ]; do
			taskset $((1 << c)) kpmod-work getppid "$N" &
			c=$((c + 1))
		done
		wait
		t1=$(kpmod-work now)
		echo $((t1 - t0))
	}
	i=0
	while [ $i -lt $REPS ]; do
		row=
		for n in 1 2 4; do
			none=$(fire $n)
			kpmod add --enable "p:kprobes/bench $SYS" >/dev/null || fail "kpmod add bench"
			kpm=$(fire $n)
			hits=$(kpmod stat | awk '$1 == "bench" { print $2 }')
			[ "$hits" -ge $((n * N)) ] || fail "cpus: $hits hits for $n x $N calls"
			kpmod disable all && kpmod clear && settle
			kpe_on "p:kprobes/bench $SYS"
			kpe=$(fire $n)
			kpe_off
			settle
			row="$row $none $kpm $kpe"
		done
		echo "$row"
		i=$((i + 1))
	done >/tmp/cpus.rows
	sed "s/^/# cpus: /" /tmp/cpus.rows
	awk -v n="$N" '
		NR == 1 { for (c = 1; c <= 9; c++) m[c] = $c }
		{ for (c = 1; c <= 9; c++) if ($c < m[c]) m[c] = $c }
		END {
			if (NR == 0) exit 1
			split("1 2 4", cpus, " ")
			for (j = 1; j <= 3; j++) {
				b = 3 * (j - 1)
				k[j] = (m[b + 2] - m[b + 1]) / (n * cpus[j]); e[j] = (m[b + 3] - m[b + 1]) / (n * cpus[j])
				printf "BENCH|cpus|%d|%.0f|%.0f|%.2f|%.2f\n", cpus[j], k[j], e[j], k[j] / k[1], e[j] / e[1]
			}
		}' /tmp/cpus.rows || fail "cpus: no measurement"
fi
unload_kpmod
