# shellcheck shell=bash
# Builds what goes into the guest: the module for the guest's kernel, a
# static kpmod for the guest's arch, and the initramfs holding both.

# cross_env ARCH KDIR [buildroot]: make variables for building against
# KDIR.  Debian's headers name the compiler their kernel was built with
# (gcc-10 for 5.10); when that one is not installed here, the host's default
# gcc is used instead (a build root has it: not checked there).
cross_env() {
	local cross='' want
	case "$1" in
	x86_64) echo "ARCH=x86_64" ;;
	arm64) cross=aarch64-linux-gnu-; echo "ARCH=arm64 CROSS_COMPILE=$cross" ;;
	esac
	want=$(sed -n 's/^CC = .*)\(gcc-[0-9]*\)$/\1/p' "$2/.kernelvariables" 2>/dev/null)
	if [ -n "$want" ] && [ -z "${3:-}" ] && ! command -v "$cross$want" >/dev/null; then
		log "$cross$want (the compiler of $(basename "$2")) is not installed: using ${cross}gcc"
		echo "CC=${cross}gcc"
	fi
}

# kmake ARCH KDIR DIR ARGS...: make -C KDIR M=DIR ARGS... for ARCH; in
# the kernel's build root when it has one (KBUILDROOT, set by fetch_kernel;
# tests/vm/lib/buildroot.sh).
kmake() {
	local arch=$1 kdir=$2 m=$3
	shift 3
	if [ -n "${KBUILDROOT:-}" ]; then
		# shellcheck disable=SC2046
		in_buildroot "$KBUILDROOT" "$KPMOD_CACHE" "$m" -- \
			make -s -C "$kdir" M="$m" $(cross_env "$arch" "$kdir" buildroot) "$@"
	else
		# shellcheck disable=SC2046
		make -s -C "$kdir" M="$m" $(cross_env "$arch" "$kdir") "$@"
	fi
}

# build_module ARCH KDIR OUT: copies the module sources to OUT and builds
# OUT/module/kpmod.ko there, as DKMS would, leaving the work tree alone.
build_module() {
	local arch=$1 kdir=$2 out=$3
	"$top/pkg/dkms-src" "$out"
	kmake "$arch" "$kdir" "$out" KPMOD_WERROR=y modules >&2 ||
		die "module build against $kdir failed"
	[ -f "$out/module/kpmod.ko" ] || die "no kpmod.ko built"
	sign_module "$kdir" "$out/module/kpmod.ko" keep-unsigned
}

# sign_module KDIR KO [keep-unsigned]: a kernel tree with a signing key of
# its own (the debug kernel's, generated when it was built) signs KO with
# it, as DKMS signs with a MOK key, so that it loads under lockdown; with
# keep-unsigned, the unsigned build stays beside it as NAME-unsigned.ko.
sign_module() {
	local kdir=$1 ko=$2
	[ -f "$kdir/certs/signing_key.pem" ] && [ -x "$kdir/scripts/sign-file" ] || return 0
	[ "${3:-}" = keep-unsigned ] && cp "$ko" "${ko%.ko}-unsigned.ko"
	"$kdir/scripts/sign-file" sha256 "$kdir/certs/signing_key.pem" \
		"$kdir/certs/signing_key.x509" "$ko" || die "signing $ko failed"
}

# build_extra_module ARCH KDIR SRCDIR OUT: builds SRCDIR's module(s) in a
# copy and puts the .ko files into OUT.
build_extra_module() {
	local arch=$1 kdir=$2 src=$3 out=$4 b
	b=$(mktemp -d "$work/xmod.XXXXXX")
	cp -r "$src"/. "$b/"
	kmake "$arch" "$kdir" "$b" modules >&2 || die "extra module build from $src failed"
	for b in "$b"/*.ko; do
		sign_module "$kdir" "$b"
		cp "$b" "$out/"
	done
}

# build_cli ARCH OUT: a static kpmod for ARCH at OUT/userspace/kpmod, and
# the in-guest test tools at OUT/tests/vm/tools.  For another arch, libnl
# comes from that arch's packages unpacked under NL_SYSROOT (fetch_libnl).
build_cli() {
	local arch=$1 out=$2 cc=cc pc=pkg-config
	mkdir -p "$out/tests/vm"
	cp -r "$top/userspace" "$top/uapi" "$top/VERSION" "$out/"
	cp -r "$top/tests/vm/tools" "$out/tests/vm/"
	make -s -C "$out/userspace" clean >/dev/null
	make -s -C "$out/tests/vm/tools" clean >/dev/null
	if [ "$arch" = arm64 ]; then
		cc=aarch64-linux-gnu-gcc
		fetch_libnl "$arch"
		pc=$out/pkg-config
		printf '#!/bin/sh\nPKG_CONFIG_LIBDIR=%s PKG_CONFIG_SYSROOT_DIR=%s exec pkg-config "$@"\n' \
			"$NL_SYSROOT/usr/lib/aarch64-linux-gnu/pkgconfig" "$NL_SYSROOT" >"$pc"
		chmod +x "$pc"
	fi
	{ make -s -C "$out/userspace" STATIC=1 WERROR=1 CC="$cc" PKG_CONFIG="$pc" kpmod &&
	  make -s -C "$out/tests/vm/tools" CC="$cc" PKG_CONFIG="$pc"; } 2>"$out/cli-build.log" ||
		{ cat "$out/cli-build.log" >&2; die "static kpmod or test tool build failed"; }
}

# make_initramfs ARCH KERNEL WORK SCRIPT...: WORK/initrd.cpio.gz.
make_initramfs() {
	local arch=$1 kernel=$2 work=$3 root i=0 s
	shift 3
	root=$work/root
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,etc,kpmod,scenarios}
	cp "$BUSYBOX" "$root/bin/busybox"
	ln -s busybox "$root/bin/sh"
	cp "$here/lib/guest-init" "$root/init"
	cp "$here/lib/scenario.sh" "$root/kpmod/lib.sh"
	cp "$here/lib/storm.sh" "$root/kpmod/storm.sh"
	cp "$work/src/module/kpmod.ko" "$root/kpmod/kpmod.ko"
	if [ -f "$work/src/module/kpmod-unsigned.ko" ]; then
		cp "$work/src/module/kpmod-unsigned.ko" "$root/kpmod/kpmod-unsigned.ko"
	fi
	cp "$work/src/userspace/kpmod" "$root/usr/bin/kpmod"
	cp "$work/src/tests/vm/tools"/kpmod-* "$root/usr/bin/"
	mkdir -p "$root/kpmod/extra"
	cp -r "$work/extra"/. "$root/kpmod/extra/"
	# --rootfs: the modules guest-init loads to mount it.
	[ ! -d "$work/rootfs-mods" ] || cp -r "$work/rootfs-mods" "$root/kpmod/rootfs-mods"
	# The uapi version the module and CLI were built with: the spec's.
	local uapi
	uapi=$(sed -n 's/^#define KPMOD_UAPI_VERSION[[:space:]]*\([0-9]*\).*/\1/p' "$work/src/uapi/kpmod.h")
	printf 'KPMOD_KERNEL=%s\nKPMOD_ARCH=%s\nKPMOD_UAPI=%s\n' "$kernel" "$arch" "$uapi" >"$root/kpmod/env"
	# --env NAME=VALUE: for the scenarios (guest-init exports every line).
	local kv
	for kv in "${guest_env[@]}"; do
		printf '%s\n' "$kv" >>"$root/kpmod/env"
	done
	echo 'root:x:0:0:root:/root:/bin/sh' >"$root/etc/passwd"
	echo 'root:x:0:' >"$root/etc/group"
	echo 'root::0:0:99999:7:::' >"$root/etc/shadow"
	for s in "$@"; do
		i=$((i + 1))
		cp "$s" "$root/scenarios/$(printf '%03d' $i)-$(basename "$s")"
	done
	ls "$root/scenarios" >"$work/scenarios.list"
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initrd.cpio.gz"
}
