# shellcheck shell=bash
# Shared by the host-side test scripts: cache location and messages.

KPMOD_CACHE=${KPMOD_CACHE:-$HOME/.cache/kpmod}
export KPMOD_CACHE

log() { printf '%s\n' "vm: $*" >&2; }
die() { printf '%s\n' "vm: error: $*" >&2; exit 2; }

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

# need_cmd CMD PACKAGE: installs PACKAGE when CMD is missing and we are root.
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
