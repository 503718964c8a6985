# shellcheck shell=bash
# Build roots: a kernel built by a newer compiler than this machine's
# (7.3's headers pass gcc-14 options bookworm's gcc-12 refuses) gets its
# modules built in a Debian of its own suite, made once with debootstrap
# (minbase and a kernel module toolchain for both arches) and kept under
# $KPMOD_CACHE/buildroot, as a user of that Debian would build them.
#
# fetch_buildroot SUITE sets BUILDROOT to that tree.
# in_buildroot SUITE DIR... -- CMD...: runs CMD in it, with /proc mounted
# (objtool reads it) and each DIR (the kernel cache, the sources) bound at
# the same path inside, so every absolute path holds; in a mount
# namespace of its own, so nothing stays mounted.

BUILDROOT_PKGS="gcc make libc6-dev libelf-dev bc flex bison libssl-dev kmod dwarves gcc-aarch64-linux-gnu"

fetch_buildroot() {
	local suite=$1 darch dir mirror
	darch=$(dpkg --print-architecture)
	dir=$KPMOD_CACHE/buildroot/$suite-$darch
	BUILDROOT=$dir/tree
	if [ -x "$BUILDROOT/usr/bin/make" ] && [ "$(cat "$dir/packages" 2>/dev/null)" = "$BUILDROOT_PKGS" ]; then
		return 0
	fi
	[ "$(id -u)" -eq 0 ] || die "building against this kernel needs a Debian $suite build root: run as root (debootstrap)"
	need_pkgs debootstrap
	host_mirror || die "no Debian mirror in the host's apt sources for the $suite build root"
	mirror=$MIRROR
	log "building a Debian $suite build root ($darch, minbase + $BUILDROOT_PKGS) from $mirror"
	rm -rf "$dir"
	mkdir -p "$dir"
	debootstrap --variant=minbase --arch="$darch" --include="${BUILDROOT_PKGS// /,}" \
		"$suite" "$BUILDROOT" "$mirror" >"$dir/debootstrap.log" 2>&1 ||
		{ tail -n 20 "$dir/debootstrap.log" >&2; die "debootstrap of the $suite build root failed (log: $dir/debootstrap.log)"; }
	rm -rf "$BUILDROOT"/var/cache/apt/archives/*.deb
	echo "$BUILDROOT_PKGS" >"$dir/packages"
}

in_buildroot() {
	local suite=$1 binds=()
	shift
	while [ "$1" != -- ]; do
		binds+=("$1")
		shift
	done
	shift
	fetch_buildroot "$suite"
	# shellcheck disable=SC2016
	unshare -m sh -ec '
		root=$1; shift
		mount -t proc proc "$root/proc"
		while [ "$1" != -- ]; do
			mkdir -p "$root$1"
			mount --bind "$1" "$root$1"
			shift
		done
		shift
		exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"
	' sh "$BUILDROOT" "${binds[@]}" -- "$@"
}
