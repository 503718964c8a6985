# Probes everywhere.  KPMOD_EVERYWHERE_COUNT (100 here; 1,016 in `make
# stress`) kernel functions picked at random from what `kpmod funcs` lists
# (its one rule: vmlinux's text with a name nothing else has, minus the
# kprobes blacklist, compiler-made copies, padding and __init code), minus
# modules' and the sanitizers' runtime (__kasan_check_read and kin: not on
# ftrace, called by every instrumented atomic, so a probe there makes each
# one a breakpoint trap and the debug guest crawls, as through
# kprobe_events; doc/definitions.md, Limits) --
# added in batches of up to 50 (when the kernel refuses one, the batch goes
# again without it and the next candidate takes its place, so exactly that
# many are probed), enabled together under a workload, disabled and removed.
# Then probes on what kpmod's own handler calls (memcpy,
# copy_from_kernel_nofault, strncpy_from_user_nofault,
# ktime_get_mono_fast_ns, irq_work_queue, kpmod's ring and fetch
# functions) under an outer probe: a probe hit inside kpmod's handler is a
# recursion the kernel counts as a miss.  No hang, no crash, hits counted.
. "$KPMOD_LIB"
n=${KPMOD_EVERYWHERE_COUNT:-100}
seed=${KPMOD_EVERYWHERE_SEED:-$(date +%s)}
note "seed $seed, $n functions"
load_kpmod
kpmod funcs >/tmp/all || fail "kpmod funcs: exit $?"
note "$(wc -l </tmp/all) functions kpmod funcs lists"
grep -v : /tmp/all | grep -Ev '^_*(kasan|asan|kcsan|tsan|ubsan|kmsan|sanitizer)_' |
	awk -v seed="$seed" 'BEGIN { srand(seed) } { print rand() "\t" $0 }' |
	sort -n | cut -f2 >/tmp/funcs
ncand=$(wc -l </tmp/funcs)
[ "$ncand" -ge "$n" ] || fail "only $ncand candidate functions"
# refused_by_kernel: the last add was refused as kprobe_events refuses what
# the kernel will not probe (error_log's "Failed to register the probe",
# exit 16 + its number), not for anything else.
refused_by_kernel() {
	[ "$1" -ge 16 ] && grep -q '^kpmod: error: Failed to register the probe: ' /tmp/o
}
i=0 added=0 refused=0
: >/tmp/batch
# add_batch: adds /tmp/batch's definitions; when the kernel refuses one
# (named on error_log's "Command:" line), the rest go again without it.
add_batch() {
	while [ -s /tmp/batch ]; do
		kpmod add -f /tmp/batch >/tmp/o 2>&1
		rc=$?
		if [ $rc -eq 0 ]; then
			added=$((added + $(wc -l </tmp/batch)))
			break
		fi
		refused_by_kernel $rc || { cat /tmp/o; fail "a batch: exit $rc, not a refusal by the kernel"; }
		bad=$(sed -n 's/^  Command: //p' /tmp/o)
		grep -vxF -- "$bad" /tmp/batch >/tmp/rest
		[ "$(wc -l </tmp/rest)" -lt "$(wc -l </tmp/batch)" ] || { cat /tmp/o; fail "the refusal names no definition of the batch"; }
		note "refused: $bad"
		refused=$((refused + 1))
		mv /tmp/rest /tmp/batch
	done
	: >/tmp/batch
}
# Batches of the next candidates, as many as are still missing (at most
# 50), until n are probed or the candidates run out.
while [ "$added" -lt "$n" ] && [ "$i" -lt "$ncand" ]; do
	want=$((n - added))
	[ "$want" -le 50 ] || want=50
	tail -n "+$((i + 1))" /tmp/funcs | head -n "$want" >/tmp/next
	while read -r f; do
		i=$((i + 1))
		echo "p:ev/f$i $f" >>/tmp/batch
	done </tmp/next
	add_batch
done
note "$added probes added, $refused refused by the kernel, $i candidates tried, by $(cut -d. -f1 /proc/uptime) s of uptime"
[ "$added" -eq "$n" ] || fail "only $added of $n functions took a probe"
expect_rc 0 kpmod enable 'ev/*'
# A workload that crosses much of the kernel.
for k in 1 2 3; do
	ls -lR /proc/self/ >/dev/null 2>&1
	cat /proc/kallsyms /proc/modules >/dev/null
	kpmod-work 2>/dev/null >/dev/null
	sleep 1
done
expect_rc 0 kpmod stat
hits=$(awk '$1 ~ /^f[0-9]+$/ { h += $2 } END { print h + 0 }' /tmp/.out)
note "$hits hits on the $added probes"
[ "$hits" -gt 0 ] || fail "no probe was hit"
expect_rc 0 kpmod disable 'ev/*'
expect_rc 0 kpmod clear
expect_rc 0 kpmod status
expect_grep "^probes:  0 registered"

# Inside kpmod's handler.
expect_rc 0 kpmod add 'p:kb/outer vfs_read f=+0($arg1):x64 n=$arg3 u=+0($arg2):ustring'
inner=0
for f in memcpy copy_from_kernel_nofault strncpy_from_user_nofault \
	ktime_get_mono_fast_ns irq_work_queue kpmod:kpmod_ring_reserve \
	kpmod:kpmod_ring_commit kpmod:kpmod_ring_try_reserve kpmod:kpmod_fetch_run; do
	kpmod add -- "p:in/${f#kpmod:} $f" >/tmp/o 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		inner=$((inner + 1))
		note "$f: probed"
	elif refused_by_kernel $rc; then
		note "$f: $(head -n 1 /tmp/o)"
	else
		cat /tmp/o
		fail "$f: exit $rc, neither added nor refused by the kernel"
	fi
done
[ "$inner" -gt 0 ] || fail "no function of kpmod's handler took a probe"
expect_rc 0 kpmod enable all
for k in 1 2 3; do cat /proc/self/stat /etc/passwd >/dev/null; done
expect_rc 0 kpmod stat
grep -q '^  outer  *[1-9]' /tmp/.out || fail "the outer probe counted no hit"
cat /tmp/.out
expect_rc 0 kpmod disable all
expect_rc 0 kpmod clear
unload_kpmod
