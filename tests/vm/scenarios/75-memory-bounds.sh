# What requests make the module allocate is bounded, and what a refused
# request allocated is freed:
#  - hist tables count against max_hist_mb: a table that would pass it is
#    refused, naming the parameter, and takes nothing; a clear empties a
#    table in place (no second table); a read that clears (--interval)
#    takes a second table for a moment, refused past the limit with the
#    table left as it was, given back after; status shows the sum;
#  - a snapshot trigger refused for its text leaves VmallocUsed as it was
#    (the copies of the rings it would need are not kept);
#  - each hist table hashes with a seed of its own: two tables with the
#    same keys hold them in different orders.
. "$KPMOD_LIB"
TKO=/kpmod/extra/kpmod_target.ko
[ -f $TKO ] || skip "no kpmod_target.ko (tests/vm/run --module-src tests/vm/modules/kpmod_target)"
insmod $TKO || fail "insmod kpmod_target"
POKE=/sys/module/kpmod_target/parameters/poke
# 12 MiB: one table of 131072 entries with one 8-byte key (8 MiB), not two.
load_kpmod max_hist_mb=12
hist_kib() { kpmod status | sed -n 's/^hists: *\([0-9]*\) KiB in tables, up to \([0-9]*\) MiB$/\1 \2/p'; }
[ "$(hist_kib)" = "0 12" ] || { kpmod status; fail "status does not say 0 KiB of hist tables, limit 12 MiB"; }

PK='kpmod_target:kpmod_target_poke n=$arg1:u32'
expect_rc 0 kpmod add "p:mb/a $PK" "p:mb/b $PK" "p:mb/c $PK"
expect_rc 0 kpmod trigger mb/a 'hist:keys=n:size=131072'
[ "$(hist_kib)" = "8192 12" ] || { kpmod status; fail "status does not count the 8 MiB table"; }
vm0=$(awk '/^VmallocUsed:/ { print $2 }' /proc/meminfo)
expect_rc 5 kpmod trigger mb/b 'hist:keys=n:size=131072'
expect_grep "max_hist_mb"
vm1=$(awk '/^VmallocUsed:/ { print $2 }' /proc/meminfo)
[ "$(hist_kib)" = "8192 12" ] || { kpmod status; fail "a refused table was counted"; }
[ $((vm1 - vm0)) -lt 1024 ] || fail "a refused hist table left $((vm1 - vm0)) KiB of vmalloc behind"
# A small one fits beside it (128 KiB: 2048 entries).
expect_rc 0 kpmod trigger mb/b 'hist:keys=n'
[ "$(hist_kib)" = "8320 12" ] || { kpmod status; fail "status does not count both tables"; }
# A read that clears: no second 8 MiB table under 12 MiB (refused, naming
# the parameter, the table as it was); one beside the small table, given
# back once read.
echo 6 >$POKE
expect_rc 5 kpmod hist --interval 1 mb/a
expect_grep "max_hist_mb"
[ "$(hist_kib)" = "8320 12" ] || { kpmod status; fail "a refused read that clears was counted"; }
expect_rc 0 kpmod hist mb/a
expect_grep "n: *6 .*hitcount: *1"
kpmod hist --interval 1 mb/b >/tmp/ivb.txt 2>&1 &
ipid=$!
sleep 1.5
kill -INT $ipid
wait $ipid || { rc=$?; cat /tmp/ivb.txt; fail "hist --interval mb/b exited $rc"; }
grep -q "n: *6 .*hitcount: *1" /tmp/ivb.txt || { cat /tmp/ivb.txt; fail "the read that clears lost the hit"; }
[ "$(hist_kib)" = "8320 12" ] || { kpmod status; fail "the table a read took was not given back"; }
expect_rc 0 kpmod hist mb/b
expect_grep "Hits: 0"
# A clear empties the table where it is: nothing more is allocated.
echo 7 >$POKE
expect_rc 0 kpmod trigger mb/a 'hist:keys=n:size=131072:clear'
[ "$(hist_kib)" = "8320 12" ] || { kpmod status; fail "a clear changed what the tables take"; }
expect_rc 0 kpmod hist mb/a
expect_grep "Hits: 0"
echo 8 >$POKE
expect_rc 0 kpmod hist mb/a
expect_grep "n: *8 .*hitcount: *1"
expect_grep "Hits: 1"
# Removed tables give their room back.
expect_rc 0 kpmod trigger mb/a '!hist:keys=n:size=131072'
[ "$(hist_kib)" = "128 12" ] || { kpmod status; fail "a removed table is still counted"; }
expect_rc 0 kpmod trigger mb/c 'hist:keys=n:size=131072'
expect_rc 0 kpmod trigger mb/c '!hist:keys=n:size=131072'
expect_rc 0 kpmod trigger mb/b '!hist:keys=n'
[ "$(hist_kib)" = "0 12" ] || { kpmod status; fail "removed tables are still counted"; }

# Two tables, the same 64 keys: each table's own hash seed orders them.
expect_rc 0 kpmod add "p:mb/s1 $PK" "p:mb/s2 $PK"
expect_rc 0 kpmod trigger mb/s1 'hist:keys=n'
expect_rc 0 kpmod trigger mb/s2 'hist:keys=n'
expect_rc 0 kpmod enable mb/s1 mb/s2
i=1
while [ $i -le 64 ]; do
	echo $((i * 1000)) >$POKE
	i=$((i + 1))
done
kpmod-nlcheck histkeys mb s1 1 >/tmp/keys.a || fail "kpmod-nlcheck histkeys mb s1 failed"
kpmod-nlcheck histkeys mb s2 1 >/tmp/keys.b || fail "kpmod-nlcheck histkeys mb s2 failed"
[ "$(wc -l </tmp/keys.a)" -eq 64 ] || fail "table a holds $(wc -l </tmp/keys.a) keys, not 64"
[ "$(sort -n /tmp/keys.a)" = "$(sort -n /tmp/keys.b)" ] || fail "the two tables hold different keys"
cmp -s /tmp/keys.a /tmp/keys.b && fail "two tables hold the same keys in the same order: one hash seed for both"
note "64 keys in two tables, in two orders"
expect_rc 0 kpmod disable mb/s1 mb/s2
expect_rc 0 kpmod trigger mb/s1 '!hist:keys=n'
expect_rc 0 kpmod trigger mb/s2 '!hist:keys=n'

# A snapshot trigger refused for its text keeps no copies of the rings.
expect_rc 0 kpmod buffer --size 4M
# f N: a filter of N predicates, about 12 bytes each.
f() {
	j=1 out="n == 1"
	while [ $j -lt "$1" ]; do
		out="$out || n == $((j + 100))"
		j=$((j + 1))
	done
	echo "$out"
}
expect_rc 0 kpmod trigger mb/c "traceon if $(f 250)"
expect_rc 0 kpmod trigger mb/c "traceoff if $(f 250)"
vm0=$(awk '/^VmallocUsed:/ { print $2 }' /proc/meminfo)
expect_rc 5 kpmod trigger mb/c "snapshot if $(f 200)"
expect_grep "8 KiB of text"
vm1=$(awk '/^VmallocUsed:/ { print $2 }' /proc/meminfo)
[ $((vm1 - vm0)) -lt 1024 ] || fail "a refused snapshot trigger left $((vm1 - vm0)) KiB of vmalloc behind"
# One that is taken makes them (4 MiB per CPU), as before.
expect_rc 0 kpmod trigger mb/b 'snapshot'
vm2=$(awk '/^VmallocUsed:/ { print $2 }' /proc/meminfo)
[ $((vm2 - vm1)) -ge 4096 ] || fail "a snapshot trigger's copies did not show in VmallocUsed ($((vm2 - vm1)) KiB)"
expect_rc 0 kpmod trigger mb/b '!snapshot'
expect_rc 0 kpmod trigger mb/c "!traceon if $(f 250)"
expect_rc 0 kpmod trigger mb/c "!traceoff if $(f 250)"
expect_rc 0 kpmod clear
unload_kpmod
rmmod kpmod_target || fail "rmmod kpmod_target"
exit 0
