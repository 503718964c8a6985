# shellcheck shell=bash
# Shared by the host-side test scripts: cache location and messages.

KPMOD_CACHE=${KPMOD_CACHE:-$HOME/.cache/kpmod}
export KPMOD_CACHE

log() { printf '%s\n' "vm: $*" >&2; }
die() { printf '%s\n' "vm: error: $*" >&2; exit 2; }

# The guests (KERNEL/ARCH) of `make check` (tests/drivers/check): every scenario
# on CHECK_FULL, the smoke set (tests/vm/smoke.list) on CHECK_SMOKE; and
# of `make check-matrix` (tests/drivers/check-matrix): every scenario on each.
CHECK_FULL="6.1/x86_64 6.1/arm64 debug/x86_64"
CHECK_SMOKE="6.12/x86_64 5.10/x86_64 5.10/arm64 6.12/arm64 7.3/x86_64 7.3/arm64"
MATRIX_GUESTS="5.10/x86_64 5.10/arm64 6.1/x86_64 6.1/arm64 6.12/x86_64 6.12/arm64 7.3/x86_64 7.3/arm64 6.12-rt/x86_64 6.12-rt/arm64 7.3-rt/x86_64 7.3-rt/arm64 7.3-16k/arm64"

# What tests/vm/debug-kernel needs to build; tests/drivers/deps installs it
# too, so that build, in the background of make check, never runs apt.
DEBUG_KERNEL_PKGS="linux-source-6.1 build-essential flex bison bc libelf-dev libssl-dev xz-utils dwarves"

# deb_arch x86_64|arm64 -> Debian's architecture name
deb_arch() {
	case "$1" in
	x86_64) echo amd64 ;;
	arm64) echo arm64 ;;
	*) die "unknown arch '$1' (x86_64 or arm64)" ;;
	esac
}

# closing_counts LOG: "P F S" from LOG's last "P passed, F failed, S skipped"
# line, the closing line every test runner here prints; nothing if none.
closing_counts() {
	sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p' "$1" | tail -n 1
}

# need_pkgs PACKAGE...: installs the missing ones when we are root, or names them.
need_pkgs() {
	local missing=() p
	for p in "$@"; do
		dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		die "missing packages; run: sudo apt-get install ${missing[*]}"
	fi
	log "installing ${missing[*]}"
	apt-get update -q >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >&2
}

# The QEMU the guests need: 10 or newer.  Debian 12's own QEMU, 7.2, lets a
# vCPU under multi-threaded TCG go on running translated code that another
# vCPU has since rewritten.  Whenever the guest kernel patches a function
# others are running (ftrace, kprobes, jump labels), one CPU can run a stale
# int3 for ever (a soft lockup) or, on an ftrace-based kprobe, jump to 0
# (doc/design.md: "Kernel crashes under an emulator").  Tests on it are flaky
# whatever kpmod does, so the harness takes QEMU from the host's backports
# (Debian's registry), or refuses.  tests/vm/run's KPMOD_QEMU_DIR runs
# another one, unchecked, to reproduce.
QEMU_MIN_MAJOR=10

# qemu_major BINARY: the major version of a QEMU binary, or 0.
qemu_major() {
	"$1" -version 2>/dev/null | sed -n 's/^QEMU emulator version \([0-9]*\)\..*/\1/p' | head -n 1 |
		grep . || echo 0
}

# need_qemu PKG...: installs the PKGs (qemu-system-x86, qemu-system-arm)
# from the host suite's backports when the installed ones are too old.
need_qemu() {
	local p bin old=() suite src kr=/usr/share/keyrings/debian-archive-keyring.gpg
	for p in "$@"; do
		case "$p" in
		qemu-system-x86) bin=qemu-system-x86_64 ;;
		qemu-system-arm) bin=qemu-system-aarch64 ;;
		*) die "need_qemu: unknown package $p" ;;
		esac
		command -v "$bin" >/dev/null && [ "$(qemu_major "$bin")" -ge "$QEMU_MIN_MAJOR" ] ||
			old+=("$p")
	done
	[ ${#old[@]} -eq 0 ] && return 0
	suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")-backports
	if [ "$(id -u)" -ne 0 ]; then
		die "QEMU $QEMU_MIN_MAJOR or newer needed (older ones run stale guest code); run: sudo apt-get install -t $suite ${old[*]}"
	fi
	src=/etc/apt/sources.list.d/kpmod-$suite.list
	if ! apt-cache policy "${old[0]}" 2>/dev/null | grep -q -- "$suite"; then
		log "adding $suite to apt's sources ($src)"
		if [ -f "$kr" ]; then
			echo "deb [signed-by=$kr] http://deb.debian.org/debian $suite main" >"$src"
		else
			echo "deb http://deb.debian.org/debian $suite main" >"$src"
		fi
		apt-get update -q >&2
	fi
	log "installing ${old[*]} from $suite"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q -t "$suite" "${old[@]}" >&2
	for p in "${old[@]}"; do
		case "$p" in
		qemu-system-x86) bin=qemu-system-x86_64 ;;
		qemu-system-arm) bin=qemu-system-aarch64 ;;
		esac
		[ "$(qemu_major "$bin")" -ge "$QEMU_MIN_MAJOR" ] ||
			die "$suite gave $bin $(qemu_major "$bin"), older than $QEMU_MIN_MAJOR"
	done
}
