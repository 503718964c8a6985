# 100 random and malformed definitions through kpmod add: each is refused
# with a message and an exit code (or, if a mutation happens to be valid,
# added whole); nothing is half-made, the module keeps working.
. "$KPMOD_LIB"
debug_in_stress "the CLI refusing malformed definitions; the module's refusals are 40-netlink-fuzz' and the campaign's"
load_kpmod
seed=${KPMOD_BAD_SEED:-$(date +%s)}
note "seed $seed"
# Mutations of valid definitions (a syntax character inserted, replaced or
# deleted), and lines of random printable bytes.
awk -v seed="$seed" 'BEGIN {
	srand(seed)
	n = split("p:kb/a vfs_read x=+0(%di):u32|r:kb/b do_sys_openat2 $retval|p:kb/c vfs_read s=+0($arg2):string a=+8(+0($stack)):x64[4]|p kb_vfs_write b=$arg1:b4@3/32|-:kb/a", base, "|")
	sym = "%$@+-()[]:=\\\"/ xu0123456789abcdefp"
	for (i = 0; i < 75; i++) {
		d = base[int(rand() * n) + 1]
		for (k = 0; k < 1 + int(rand() * 3); k++) {
			pos = int(rand() * (length(d) + 1))
			c = substr(sym, int(rand() * length(sym)) + 1, 1)
			op = int(rand() * 3)
			if (op == 0) d = substr(d, 1, pos) c substr(d, pos + 1)
			else if (op == 1) d = substr(d, 1, pos) c substr(d, pos + 2)
			else d = substr(d, 1, pos) substr(d, pos + 2)
		}
		print d
	}
	for (i = 0; i < 25; i++) {
		d = ""
		for (k = 0; k < 1 + int(rand() * 80); k++) d = d sprintf("%c", 33 + int(rand() * 94))
		print d
	}
}' >/tmp/bad.defs
[ "$(wc -l </tmp/bad.defs)" -eq 100 ] || fail "generator made $(wc -l </tmp/bad.defs) lines"
accepted=0 refused=0
while IFS= read -r d; do
	# </dev/null: a mutation that comes out as "-" reads stdin, which
	# would otherwise be the next lines of this loop (seed 1795666076).
	kpmod add -- "$d" </dev/null >/tmp/o 2>&1
	rc=$?
	case $rc in
	0) accepted=$((accepted + 1)) ;;
	2|5) refused=$((refused + 1)) ;;
	*)
		[ $rc -ge 16 ] || { cat /tmp/o; fail "'$d': exit $rc"; }
		grep -q '^kpmod: \(.*: \)\{0,1\}error: ' /tmp/o || { cat /tmp/o; fail "'$d': no message"; }
		grep -q '^ *\^$' /tmp/o || { cat /tmp/o; fail "'$d': no caret"; }
		refused=$((refused + 1))
		;;
	esac
	[ $rc -eq 1 ] && fail "'$d': exit 1 (an internal error)"
done </tmp/bad.defs
note "$refused refused, $accepted valid by chance"
expect_rc 0 kpmod status
listed=$(kpmod list | grep -c .)
n=$(sed -n 's/^probes:  \([0-9]*\) registered.*/\1/p' /tmp/.out)
[ "$listed" -eq "$n" ] || fail "list shows $listed probes, status $n"
expect_rc 0 kpmod clear
expect_rc 0 kpmod add 'p:kb/still_works vfs_read'
expect_rc 0 kpmod clear
unload_kpmod
