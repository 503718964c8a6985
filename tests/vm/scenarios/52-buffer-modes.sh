# Discard mode counts every dropped event exactly; overwrite mode keeps the
# newest and snapshot reads them after the fact; buffer refuses changes
# while probes are enabled.
. "$KPMOD_LIB"
load_kpmod
expect_rc 0 kpmod buffer --size 64K --mode discard
expect_grep "^64 KiB per CPU, discard"
expect_rc 0 kpmod add --enable 'p:kpm/pg find_task_by_vpid nr=$arg1:s32'
expect_rc 5 kpmod buffer --size 128K
expect_grep "disable them first"

# No reader: the 64K rings fill and the rest is dropped, and counted.
taskset -c 0 kpmod-work getpgid 20000 3000000
expect_rc 0 kpmod disable all
expect_rc 0 kpmod stat
set -- $(grep '^  pg ' /tmp/.out)
hits=$2 dropped=$4
[ "$dropped" -gt 0 ] || fail "nothing dropped from a 64K ring"
kpmod trace --duration 1 >/tmp/t.txt 2>/tmp/t.err
cat /tmp/t.err
got=$(grep -c ' pg: ' /tmp/t.txt)
note "hits $hits = received $got + dropped $dropped"
[ $((got + dropped)) -eq "$hits" ] || fail "received + dropped != hits"
grep -q ", $dropped lost before this reader started" /tmp/t.err || fail "ring lost count differs from dropped"
# The workload made 20000 calls on CPU 0; every one was received or dropped.
grep ' kpmod-work-' /tmp/t.txt | grep -c ' pg: ' >/tmp/n
[ "$hits" -ge 20000 ] || fail "hits $hits < 20000 calls"

# Overwrite: the newest events survive, contiguous up to the last call.
expect_rc 0 kpmod buffer --mode overwrite
expect_rc 0 kpmod enable all
taskset -c 0 kpmod-work getpgid 20000 4000000
expect_rc 0 kpmod disable all
kpmod snapshot >/tmp/s.txt 2>/tmp/s.err || fail "snapshot failed"
cat /tmp/s.err
grep ' kpmod-work-' /tmp/s.txt | grep ' pg: ' | sed 's/.* nr=//' >/tmp/v.txt
kept=$(wc -l </tmp/v.txt)
first=$(head -n 1 /tmp/v.txt)
last=$(tail -n 1 /tmp/v.txt)
note "overwrite kept $kept events: $first .. $last"
[ "$last" -eq 4019999 ] || fail "the newest event ($last) is not the last call"
seq "$first" "$last" | diff - /tmp/v.txt >/dev/null || fail "kept events are not contiguous"
[ "$kept" -gt 100 ] || fail "kept only $kept events"
ow=$(sed -n 's/.*, \([0-9]*\) overwritten,.*/\1/p' /tmp/s.err)
[ $((kept + ow)) -eq 20000 ] || fail "kept $kept + overwritten $ow != 20000 calls"
# A second snapshot reads the same: the flight recorder is not consumed.
kpmod snapshot 2>/dev/null | grep ' kpmod-work-' | grep -c ' pg: ' >/tmp/n2
[ "$(cat /tmp/n2)" -eq "$kept" ] || fail "second snapshot differs"
expect_rc 0 kpmod clear
expect_rc 0 kpmod buffer --size 1M --mode discard
unload_kpmod

# All rings together are capped (max_buffer_mb, default a quarter of RAM):
# refused with the arithmetic, by the CLI and by the module itself.
ncpu=$(grep -c ^processor /proc/cpuinfo)
load_kpmod max_buffer_mb=2
expect_rc 0 kpmod status
expect_grep "(limit 2 MiB in all)"
if [ "$ncpu" -ge 2 ]; then
	expect_rc 5 kpmod buffer --size 2M
	expect_grep "2 MiB per CPU x $ncpu CPUs = $((2 * ncpu)) MiB exceeds the module's limit of 2 MiB"
fi
# The largest ring (a power of two) that fits 2 MiB across every CPU, and
# the next size up refused.
fit=2048
while [ $((fit * ncpu)) -gt 2048 ]; do fit=$((fit / 2)); done
expect_rc 0 kpmod buffer --size ${fit}K
expect_grep "^$fit KiB per CPU"
expect_rc 5 kpmod buffer --size $((fit * 2))K
unload_kpmod
load_kpmod
expect_rc 0 kpmod status
limit=$(sed -n 's/.*(limit \([0-9]*\) MiB in all)$/\1/p' /tmp/.out)
ram=$(sed -n 's/^MemTotal: *\([0-9]*\) kB$/\1/p' /proc/meminfo)
[ "$limit" -eq $((ram / 1024 / 4)) ] || fail "default limit $limit MiB is not a quarter of $((ram / 1024)) MiB"
unload_kpmod
