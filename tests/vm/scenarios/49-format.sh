# kpmod format EVENT against tracefs' events/GRP/EVENT/format for the same
# definition: every argument field's type, name, size and signedness, and
# the print format, are the kernel's; offsets are kpmod's record layout
# (each argument inside the record, in order, none overlapping).
. "$KPMOD_LIB"
need_kprobe_events
T=/sys/kernel/tracing
load_kpmod
D1='p:kpm/f vfs_read a=$arg1:x64 b=$arg2:u32 c=$arg3:s16 d=+0($arg2):u8[4] e=$comm s=+0($arg2):ustring sym=$arg1:symbol bf=$arg3:b4@2/32 x=$arg4'
D2='r:kpm/fr vfs_read ret=$retval:s64 arr=+0($retval):x32[2] big=$retval:b20@40/64 strs=+0($retval):string[2]'
expect_rc 0 kpmod add "$D1" "$D2"
printf '%s\n%s\n' "$D1" "$D2" >"$T/kprobe_events" || fail "kprobe_events refused the definitions"

# fields FILE: the event's own fields (after the common ones) without offsets.
fields() {
	sed -n '/^$/,/^$/p' "$1" | grep 'field:' | grep -v '__faults' |
		sed 's/offset:[0-9]*;//; s/[[:space:]]\+/ /g'
}
for ev in f fr; do
	kpmod format kpm/$ev >/tmp/kp.fmt || fail "kpmod format kpm/$ev"
	cat /tmp/kp.fmt
	cat "$T/events/kpm/$ev/format" >/tmp/k.fmt
	fields /tmp/k.fmt >/tmp/k.fields
	fields /tmp/kp.fmt >/tmp/kp.fields
	diff /tmp/k.fields /tmp/kp.fields || fail "kpm/$ev: fields differ from the kernel's"
	grep '^print fmt:' /tmp/k.fmt >/tmp/k.pf
	grep '^print fmt:' /tmp/kp.fmt >/tmp/kp.pf
	diff /tmp/k.pf /tmp/kp.pf || fail "kpm/$ev: print fmt differs from the kernel's"
	grep -q "^name: $ev\$" /tmp/kp.fmt || fail "kpm/$ev: no name line"
	# Offsets: in order, each field after the last one's end.
	sed -n '/^$/,/^$/p' /tmp/kp.fmt | sed -n 's/.*offset:\([0-9]*\);.*size:\([0-9]*\);.*/\1 \2/p' |
		awk 'NR > 1 && $1 < end { bad = 1 } { end = $1 + $2 } END { exit bad }' ||
		fail "kpm/$ev: fields overlap"
	note "kpm/$ev: $(wc -l </tmp/kp.fields) fields and print fmt == tracefs' format"
done
expect_rc 0 kpmod format --json kpm/f
expect_grep '^{"name":"f","group":"kpm","id":[0-9]*,"fields":\[{"name":"common_len","type":"u32","offset":0,"size":4,"signed":false,"common":true}'
expect_grep '{"name":"s","type":"__data_loc char\[\]","offset":[0-9]*,"size":4,"signed":true,"common":false}'
expect_rc 2 kpmod format kpm/nosuch
echo >"$T/kprobe_events"
expect_rc 0 kpmod del kpm/f kpm/fr
unload_kpmod
