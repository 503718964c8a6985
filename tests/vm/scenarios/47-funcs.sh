# kpmod funcs, without the module and then with it: the kernel's functions
# it lists are exactly those the rules give when computed here
# independently (awk on /proc/kallsyms and the kprobes blacklist: text
# symbols with a name nothing else in vmlinux has, not inside a blacklisted
# range, no '.' or '$', no __pfx_/__cfi_ padding, not __init, within the
# kernel's text from _stext to _etext, where kernel_text_address() looks:
# 7.3 x86_64 types its .data symbols t and T too), sorted and
# each once; a module's functions as
# MOD:NAME; a GLOB, --json, no match (exit 1); and 30 listed functions
# picked at random each take a probe, enabled and removed (one the kernel
# still refuses is counted: at most 3 of the 30).
. "$KPMOD_LIB"
debug_in_stress "the CLI's function list; probes on random functions are the campaign's probes-everywhere"
bl=/sys/kernel/debug/kprobes/blacklist
[ -r $bl ] || skip "no kprobes blacklist in debugfs"
kpmod funcs >/tmp/funcs.all 2>/tmp/funcs.err ||
	{ rc=$?; cat /tmp/funcs.err; fail "kpmod funcs exited $rc"; }
[ ! -s /tmp/funcs.err ] || { cat /tmp/funcs.err; fail "kpmod funcs warned as root"; }
grep -v : /tmp/funcs.all >/tmp/kf
# Sorted (byte order), each once, as printed.
LC_ALL=C sort -c -u /tmp/kf || fail "not sorted or not unique"
# The rules: core symbols of a unique name (any type), then text ones
# swept in address order against the blacklist's ranges [start, end)
# (16 hex digits on 64-bit kernels: compared as strings), a range marked
# "-", which no kallsyms type is ("R" is one: read-only data).
init=$(awk '$3 == "_sinittext" { b = $1 } $3 == "_einittext" { e = $1 } END { print b, e }' /proc/kallsyms)
text=$(awk '$3 == "_stext" { b = $1 } $3 == "_etext" { e = $1 } END { print b, e }' /proc/kallsyms)
{
	awk '{ split($1, r, "-"); sub(/^0x/, "", r[1]); sub(/^0x/, "", r[2]); print r[1], "-", r[2] }' $bl
	awk 'NF == 3 && $2 != "a" && $2 != "A" { print $1, $2, $3 }' /proc/kallsyms
} | LC_ALL=C sort -k1,1 -s >/tmp/swept
awk -v init="$init" -v text="$text" '
	BEGIN { split(init, ie, " "); split(text, te, " ") }
	$2 != "-" { seen[$3]++ }
	$2 == "-" { if ($3 > end) end = $3; next }
	($2 == "t" || $2 == "T") && $3 !~ /[.$]/ && $3 !~ /^__(pfx|cfi)_/ &&
		!($1 < end) && !($1 >= ie[1] && $1 < ie[2]) &&
		$1 >= te[1] && $1 < te[2] { text[$3] = 1 }
	END { for (s in text) if (seen[s] == 1) print s }' /tmp/swept |
	LC_ALL=C sort >/tmp/af
[ "$(grep -c ' - ' /tmp/swept)" -gt 100 ] || fail "the blacklist shows no address ranges"
diff /tmp/af /tmp/kf >/tmp/d.txt || { head -n 40 /tmp/d.txt; fail "kpmod funcs differs from the rules ($(grep -c '^[-+][^-+]' /tmp/d.txt) lines)"; }
note "$(wc -l </tmp/kf) functions of vmlinux, as the rules give them"
[ "$(wc -l </tmp/kf)" -gt 10000 ] || fail "too few functions listed"
grep -qx vfs_read /tmp/kf || fail "vfs_read is not listed"
# A module's functions (the loaded kpmod's, once loaded).
load_kpmod
kpmod funcs 'kpmod:*' >/tmp/.out 2>&1 || { cat /tmp/.out; fail "kpmod funcs 'kpmod:*'"; }
grep -qx 'kpmod:kpmod_ring_reserve' /tmp/.out || { cat /tmp/.out; fail "kpmod's own functions not listed as kpmod:NAME"; }
expect_rc 0 kpmod funcs 'vfs_rea?'
[ "$(cat /tmp/.out)" = vfs_read ] || fail "the glob vfs_rea? gave more than vfs_read"
expect_rc 0 kpmod funcs --json 'vfs_read'
expect_grep '^\["vfs_read"\]$'
expect_rc 1 kpmod funcs 'no_such_function_*'
expect_grep "no probeable function matches 'no_such_function_\*'"
# 30 of them, picked at random, each takes a probe.
seed=$(date +%s)
note "seed $seed"
awk -v seed="$seed" 'BEGIN { srand(seed) } { print rand() "\t" $0 }' /tmp/kf | sort -n |
	head -n 30 | cut -f2 >/tmp/pick
i=0 added=0
while read -r f; do
	i=$((i + 1))
	if kpmod add "p:fn/f$i $f" >/tmp/o 2>&1; then
		added=$((added + 1))
	else
		grep -q '^kpmod: error: Failed to register the probe: ' /tmp/o ||
			{ cat /tmp/o; fail "$f: neither added nor refused by the kernel"; }
		note "refused by the kernel: $f"
	fi
done </tmp/pick
note "$added of 30 listed functions took a probe"
[ "$added" -ge 27 ] || fail "only $added of 30 listed functions took a probe"
expect_rc 0 kpmod enable 'fn/*'
cat /proc/self/stat >/dev/null
expect_rc 0 kpmod disable 'fn/*'
expect_rc 0 kpmod clear
unload_kpmod
