# shellcheck shell=bash
# A Debian root file system for the guest (tests/vm/run --rootfs debian):
# what needs a real userland, bpftrace first, runs there.
#
# fetch_rootfs ARCH KERNEL sets ROOTFS_IMG to an ext4 image of Debian (the
# host's suite, minbase, plus ROOTFS_PKGS), built once with debootstrap from
# the host's Debian mirror and kept under $KPMOD_CACHE/rootfs; a later run
# reuses it untouched, or builds it again when the package list changes.
# For another architecture than the host's (arm64 on an x86_64 host),
# debootstrap's first stage runs here (--foreign: it unpacks without running
# anything) and its second stage (dpkg configuring every package, which runs
# the packages' own programs) in a guest of that arch booting KERNEL, the
# image as its writable disk (tests/vm/run --rootfs-image,
# rootfs-second-stage.sh): no binfmt_misc or qemu-user on the host.
# The guest boots it as a virtio disk, snapshot=on (the cached image is
# never written), mounted on /debian by guest-init with /proc, /sys, /dev
# and /tmp bound in: scenarios run Debian's programs with `chroot /debian`.
#
# rootfs_modules KROOT RELEASE KDIR OUT: the guest kernel's modules (release
# RELEASE, unpacked under KROOT, its headers in KDIR) that mounting it needs
# (virtio PCI and block, ext4 and what they depend on), decompressed into
# OUT as NN-NAME.ko in load order.

ROOTFS_PKGS="bpftrace linux-perf"
# What mounting it takes, as MODULE=CONFIG_ option: a module, or built in
# (7.3's virtio_pci).  crc32c_generic is not a symbol dependency: ext4 asked
# the crypto API for it, until it called the kernel's own crc32c (7.3, whose
# modules have no crc32c_generic), so it is loaded only where it exists.
ROOTFS_MODS="crc32c_generic=- virtio_pci=VIRTIO_PCI virtio_blk=VIRTIO_BLK ext4=EXT4_FS"

fetch_rootfs() {
	local arch=$1 kernel=$2 darch suite dir mirror tmp size foreign=
	darch=$(deb_arch "$arch")
	[ "$darch" = "$(dpkg --print-architecture)" ] || foreign=1
	suite=$(host_suite)
	dir=$KPMOD_CACHE/rootfs/debian-$suite-$darch
	ROOTFS_IMG=$dir/root.ext4
	if [ -f "$ROOTFS_IMG" ] && [ "$(cat "$dir/packages" 2>/dev/null)" = "$ROOTFS_PKGS" ]; then
		return 0
	fi
	[ "$(id -u)" -eq 0 ] || die "--rootfs: building the Debian root file system needs root (debootstrap)"
	need_pkgs debootstrap e2fsprogs
	host_mirror "$suite" || die "--rootfs: no Debian mirror for '$suite' in the host's apt sources"
	mirror=$MIRROR
	log "building a Debian $suite root file system ($darch, minbase + $ROOTFS_PKGS) from $mirror"
	rm -rf "$dir"
	mkdir -p "$dir"
	tmp=$dir/tree
	debootstrap ${foreign:+--foreign} --variant=minbase --arch="$darch" \
		--include="${ROOTFS_PKGS// /,}" \
		"$suite" "$tmp" "$mirror" >"$dir/debootstrap.log" 2>&1 ||
		{ tail -n 20 "$dir/debootstrap.log" >&2; die "debootstrap failed (log: $dir/debootstrap.log)"; }
	[ -n "$foreign" ] ||
		rm -rf "$tmp"/var/cache/apt/archives/*.deb "$tmp"/var/lib/apt/lists/*_Packages
	echo kpmod-guest >"$tmp/etc/hostname"
	# The image: what the tree holds and a quarter more, in MiB; a foreign
	# tree still holds its packages packed, and unpacks them in the guest
	# (about three times their size): four times the tree.
	size=$(du -sm "$tmp" | cut -f1)
	size=$((size + size / 4 + 64))
	[ -z "$foreign" ] || size=$((size * 4))
	mkfs.ext4 -q -F -L debian -d "$tmp" "$ROOTFS_IMG.new" "${size}M" ||
		die "mkfs.ext4 of the root file system failed"
	rm -rf "$tmp"
	if [ -n "$foreign" ]; then
		# $here: tests/vm, as tests/vm/run sets it.
		log "debootstrap's second stage in an $arch guest (kernel $kernel)"
		"$here/run" --arch "$arch" --kernel "$kernel" --rootfs-image "$ROOTFS_IMG.new" \
			--script "$here/lib/rootfs-second-stage.sh" --timeout 5400 >"$dir/second-stage.log" 2>&1 ||
			{ tail -n 30 "$dir/second-stage.log" >&2; die "debootstrap's second stage failed (log: $dir/second-stage.log)"; }
		# The guest left it read-only and synced: it must check clean.
		e2fsck -fn "$ROOTFS_IMG.new" >"$dir/e2fsck.log" 2>&1 ||
			die "the root file system after the second stage does not check clean (log: $dir/e2fsck.log)"
	fi
	mv "$ROOTFS_IMG.new" "$ROOTFS_IMG"
	echo "$ROOTFS_PKGS" >"$dir/packages"
}

rootfs_modules() {
	local kroot=$1 rel=$2 kdir=$3 out=$4 mods i=0 m f opt
	mods=$kroot/lib/modules/$rel
	[ -d "$mods" ] || die "--rootfs: no modules at $mods"
	[ -f "$mods/modules.dep" ] || depmod -b "$kroot" "$rel" ||
		die "--rootfs: depmod for $rel failed"
	mkdir -p "$out"
	# modules.dep: "path: dep dep ..." with the deepest dependency last.
	for m in $ROOTFS_MODS; do
		m=${m%=*}
		awk -v m="$m" -F': *' '{
			n = split($1, p, "/"); b = p[n]; sub(/\.ko(\.xz|\.zst|\.gz)?$/, "", b)
			if (b != m) next
			k = split($2, d, " ")
			for (j = k; j >= 1; j--) print d[j]
			print $1; exit }' "$mods/modules.dep"
	done | awk '!seen[$0]++' >"$out/order"
	for m in $ROOTFS_MODS; do
		opt=${m#*=} m=${m%=*}
		grep -qE "/$m\.ko(\.xz|\.zst|\.gz)?$" "$out/order" || [ "$opt" = - ] ||
			grep -qsx "CONFIG_$opt=y" "$kdir/.config" ||
			die "--rootfs: $m is neither in $mods/modules.dep nor built in (CONFIG_$opt=y)"
	done
	while read -r f; do
		i=$((i + 1))
		m=$(basename "$f")
		case "$f" in
		*.xz) xz -dc "$mods/$f" >"$out/$(printf '%02d' $i)-${m%.xz}" ;;
		*.zst) zstd -qdc "$mods/$f" >"$out/$(printf '%02d' $i)-${m%.zst}" ;;
		*.gz) gzip -dc "$mods/$f" >"$out/$(printf '%02d' $i)-${m%.gz}" ;;
		*) cp "$mods/$f" "$out/$(printf '%02d' $i)-$m" ;;
		esac || die "--rootfs: cannot unpack $f"
	done <"$out/order"
	rm "$out/order"
}
