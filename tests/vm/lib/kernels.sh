# shellcheck shell=bash
# Kernels, headers and busybox from Debian's registry, unpacked into the cache.
#
# fetch_kernel ARCH VERSION sets KIMAGE (the kernel image to boot) and KDIR
# (the tree to build modules against).  Packages are downloaded with
# `apt-get download` and unpacked with `dpkg -x` under
# $KPMOD_CACHE/kernels/ARCH-VERSION; a later run reuses them untouched.

# The meta package that names the current image for a kernel series.
kernel_meta_pkg() {
	local darch
	darch=$(deb_arch "$1")
	case "$2" in
	6.1) echo "linux-image-$darch" ;;
	6.12) echo "linux-image-6.12-$darch" ;;
	*) die "kernel '$2' is not supported yet for $1 (6.1, 6.12, debug)" ;;
	esac
}

# first_dep PKG PATTERN: the first dependency of PKG whose name matches PATTERN.
first_dep() {
	apt-cache depends "$1" 2>/dev/null |
		sed -n 's/^ *|\{0,1\}Depends: //p' | grep -E -m1 "$2"
}

# unpack_debs DIR PKG...: downloads the packages and unpacks them into DIR.
unpack_debs() {
	local dir=$1 dl deb
	shift
	dl=$(mktemp -d)
	(cd "$dl" && apt-get download -q -o APT::Sandbox::User=root "$@" >&2) || {
		rm -rf "$dl"
		die "apt-get download $* failed (run apt-get update?)"
	}
	for deb in "$dl"/*.deb; do
		dpkg -x "$deb" "$dir"
	done
	rm -rf "$dl"
}

fetch_kernel() {
	local arch=$1 ver=$2 darch dir meta img rel hdr common kbuild
	darch=$(deb_arch "$arch")
	dir=$KPMOD_CACHE/kernels/$arch-$ver
	if [ ! -f "$dir/release" ]; then
		meta=$(kernel_meta_pkg "$arch" "$ver")
		img=$(first_dep "$meta" "^linux-image-[0-9]") ||
			die "cannot resolve $meta (apt-get update?)"
		img=${img%%:*}
		rel=${img#linux-image-}
		rel=${rel%-unsigned}
		hdr=linux-headers-$rel
		common=$(first_dep "$hdr" "^linux-headers-.*-common")
		kbuild=$(first_dep "$hdr" "^linux-kbuild-")
		log "fetching $img $hdr $common $kbuild"
		rm -rf "$dir.tmp"
		mkdir -p "$dir.tmp/root"
		unpack_debs "$dir.tmp/root" "$img" "$hdr" "$common" "$kbuild"
		echo "$rel" >"$dir.tmp/release"
		rm -rf "$dir"
		mv "$dir.tmp" "$dir"
	fi
	rel=$(cat "$dir/release")
	KIMAGE=$dir/root/boot/vmlinuz-$rel
	KDIR=$dir/root/usr/src/linux-headers-$rel
	[ -f "$KIMAGE" ] || die "no kernel image at $KIMAGE"
	[ -d "$KDIR" ] || die "no headers at $KDIR"
	: "$darch"
}

# fetch_busybox ARCH sets BUSYBOX to a static busybox for ARCH.
fetch_busybox() {
	local arch=$1 dir
	dir=$KPMOD_CACHE/busybox-$arch
	if [ ! -x "$dir/bin/busybox" ]; then
		rm -rf "$dir"
		mkdir -p "$dir"
		unpack_debs "$dir" "busybox-static:$(deb_arch "$arch")"
	fi
	BUSYBOX=$dir/bin/busybox
}
