# TAP for the host-side tests that install kpmod (dkms-test, dkms-machine):
# each prints "ok N - WHAT" or "not ok N - WHAT", then tap_end the plan and
# the closing "N passed, N failed, N skipped" every driver greps.
TAP_N=0 TAP_FAILED=0 TAP_SKIPPED=0

ok() { TAP_N=$((TAP_N + 1)); echo "ok $TAP_N - $*"; }
not_ok() { TAP_N=$((TAP_N + 1)) TAP_FAILED=$((TAP_FAILED + 1)); echo "not ok $TAP_N - $*"; }
# skip WHAT [WHY]
skip() {
	TAP_N=$((TAP_N + 1)) TAP_SKIPPED=$((TAP_SKIPPED + 1))
	echo "ok $TAP_N - $1 # SKIP${2:+ $2}"
}
# check WHAT CMD...: ok when CMD succeeds.
check() { local what=$1; shift; if "$@"; then ok "$what"; else not_ok "$what"; fi; }
# run_logged WHAT CMD...: as check, CMD's output shown only when it fails.
run_logged() {
	local what=$1 log rc=0
	shift
	log=$(mktemp)
	"$@" >"$log" 2>&1 || rc=$?
	if [ "$rc" -eq 0 ]; then
		ok "$what"
	else
		sed 's/^/# /' "$log"
		not_ok "$what"
	fi
	rm -f "$log"
}
# tap_end: the plan and the closing line; fails when a check did.
tap_end() {
	echo "1..$TAP_N"
	echo "$((TAP_N - TAP_FAILED - TAP_SKIPPED)) passed, $TAP_FAILED failed, $TAP_SKIPPED skipped"
	[ "$TAP_FAILED" -eq 0 ]
}

# plain_ko DIR OUT: the kpmod.ko DKMS installed in DIR (kpmod.ko, or .xz,
# .zst or .gz: compressed as its kernel compresses its own) uncompressed
# into OUT; fails when there is none.
plain_ko() {
	local m=$1/kpmod.ko
	if [ -f "$m.xz" ]; then xz -dc "$m.xz"
	elif [ -f "$m.zst" ]; then zstd -dc "$m.zst"
	elif [ -f "$m.gz" ]; then gzip -dc "$m.gz"
	else cat "$m"
	fi >"$2" 2>/dev/null
}

# boot_dkms_ko SERIES REL KO: the guest of kernel SERIES (which must be
# release REL, the one DKMS built for) boots with KO instead of a kpmod.ko
# of its own, and runs 10-load, 50-trace and 60-oracle.
boot_dkms_ko() {
	local series=$1 rel=$2 ko=$3 log what
	what="Linux $rel booted with the DKMS-built kpmod.ko: load, trace and oracle passed"
	log=$(mktemp)
	if "$top/tests/vm/run" --kernel "$series" --ko "$ko" --script \
		"$top"/tests/vm/scenarios/{10-load,50-trace,60-oracle}.sh >"$log" 2>&1 &&
		grep -q "kernel:  $rel\$" "$log"; then
		ok "$what"
	else
		sed 's/^/# /' "$log"
		not_ok "$what"
	fi
	rm -f "$log"
}
