# insmod/rmmod 50 times, answering status each time.
. "$KPMOD_LIB"

i=0
while [ $i -lt 50 ]; do
	load_kpmod
	kpmod status >/dev/null || fail "status failed on round $i"
	unload_kpmod
	i=$((i + 1))
done
note "50 load/status/unload rounds"
exit 0
