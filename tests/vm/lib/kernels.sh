# shellcheck shell=bash
# Kernels, headers and busybox from Debian's registry, unpacked into the cache.
#
# fetch_kernel ARCH VERSION sets KIMAGE (the kernel image to boot) and KDIR
# (the tree to build modules against).  Packages are downloaded with
# `apt-get download` and unpacked with `dpkg -x` under
# $KPMOD_CACHE/kernels/ARCH-VERSION; a later run reuses them untouched.

# kernel_suite VERSION: the Debian suite that carries a kernel series.
kernel_suite() {
	case "$1" in
	5.10) echo bullseye ;;
	6.1 | 6.12) echo bookworm ;;
	*) die "kernel '$1' is not supported (5.10, 6.1, 6.12, debug)" ;;
	esac
}

# The meta package that names the current image for a kernel series.
kernel_meta_pkg() {
	local darch
	darch=$(deb_arch "$1")
	case "$2" in
	5.10 | 6.1) echo "linux-image-$darch:$darch" ;;
	6.12) echo "linux-image-6.12-$darch:$darch" ;;
	*) die "kernel '$2' is not supported (5.10, 6.1, 6.12, debug)" ;;
	esac
}

# host_sources: "URI SUITE COMPONENTS SIGNED-BY" for each Debian source the
# host's apt uses (one-line and deb822 formats), one line per suite.
host_sources() {
	local f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		sed -n 's/^deb[[:space:]]\+//p' "$f" | awk '{
			sb = "-"
			if ($1 ~ /^\[/) {
				while ($1 !~ /\]$/) { if ($1 ~ /signed-by=/) sb = $1; $1 = ""; $0 = $0 }
				if ($1 ~ /signed-by=/) sb = $1
				$1 = ""; $0 = $0
			}
			sub(/.*signed-by=/, "", sb); sub(/\]$/, "", sb)
			u = $1; s = $2; $1 = ""; $2 = ""
			print u, s, sb, $0 }'
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk 'function out(  i, n, s, u, nu) {
			if (types ~ /(^| )deb( |$)/ && en != "no") {
				nu = split(uris, u, " "); n = split(suites, s, " ")
				for (j = 1; j <= nu; j++) for (i = 1; i <= n; i++)
					print u[j], s[i], (sb == "" ? "-" : sb), comps
			}
			types = uris = suites = comps = sb = en = ""
		}
		/^[[:space:]]*#/ { next }
		/^[[:space:]]*$/ { out(); next }
		{ k = tolower($1); sub(/:$/, "", k); $1 = ""; sub(/^ +/, "")
		  if (k == "types") types = $0; else if (k == "uris") uris = $0
		  else if (k == "suites") suites = $0; else if (k == "components") comps = $0
		  else if (k == "signed-by") sb = $0; else if (k == "enabled") en = tolower($0) }
		END { out() }' "$f"
	done
}

# host_suite: the Debian suite this machine runs (bookworm, ...).
host_suite() {
	local s
	s=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	[ -n "$s" ] || die "cannot tell the host's Debian suite from /etc/os-release"
	echo "$s"
}

# apt_private SUITE: sets APT_OPTS to a private apt configuration under the
# cache whose sources are the host's own, with the host's suite name swapped
# for SUITE, for amd64 and arm64.  The system's apt state is left alone.
apt_private() {
	local suite=$1 dir host u s sb c stamp
	dir=$KPMOD_CACHE/apt/$suite
	host=$(host_suite)
	APT_OPTS=(-o "Dir::Etc=$dir/etc" -o "Dir::Etc::SourceParts=$dir/etc/sources.list.d"
		  -o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache"
		  -o "Dir::State::status=$dir/status"
		  -o Debug::NoLocking=1 -o APT::Sandbox::User=root
		  -o "APT::Architectures::=amd64" -o "APT::Architectures::=arm64")
	stamp=$dir/updated
	if [ -f "$stamp" ] && [ -n "$(find "$stamp" -mmin -1440)" ]; then
		return 0
	fi
	mkdir -p "$dir/etc/sources.list.d" "$dir/etc/preferences.d" "$dir/lists/partial" \
		"$dir/cache/archives/partial"
	: >"$dir/status"
	while read -r u s sb c; do
		# Not backports: the kernels come from the suite and its updates,
		# and an old suite's backports leave deb.debian.org (bullseye's
		# did, and apt-get update then fails as a whole).
		case "$s" in
		"$host"-backports) continue ;;
		"$host" | "$host"-*) ;;
		*) continue ;;
		esac
		s=$suite${s#"$host"}
		if [ "$sb" = - ]; then
			echo "deb [arch=amd64,arm64] $u $s $c"
		else
			echo "deb [arch=amd64,arm64 signed-by=$sb] $u $s $c"
		fi
	done < <(host_sources) | sort -u >"$dir/etc/sources.list"
	[ -s "$dir/etc/sources.list" ] || die "no Debian sources for '$host' in the host's apt configuration"
	log "updating the private apt lists for $suite"
	apt-get "${APT_OPTS[@]}" -q update >&2 || die "apt-get update for $suite failed"
	touch "$stamp"
}

# first_dep PKG PATTERN: the first dependency of PKG whose name matches PATTERN.
first_dep() {
	local deps
	deps=$(apt-cache "${APT_OPTS[@]}" depends "$1" 2>/dev/null) || return 1
	sed -n 's/^ *|\{0,1\}Depends: <\{0,1\}\([^:>]*\).*/\1/p' <<<"$deps" | grep -E -m1 "$2"
}

# try_unpack_debs DIR PKG...: downloads the packages and unpacks them into
# DIR; fails (returns 1) when a download fails.
try_unpack_debs() {
	local dir=$1 dl deb
	shift
	dl=$(mktemp -d)
	if ! (cd "$dl" && apt-get "${APT_OPTS[@]}" download -q "$@" >&2); then
		rm -rf "$dl"
		return 1
	fi
	for deb in "$dl"/*.deb; do
		dpkg -x "$deb" "$dir"
	done
	rm -rf "$dl"
}

unpack_debs() {
	try_unpack_debs "$@" || die "apt-get download ${*:2} failed"
}

# fetch_kernel ARCH VERSION: the newest kernel of the series; when the
# registry does not serve it (the security suite sometimes lists builds
# its pool lacks), the one of the suite's last point release.
fetch_kernel() {
	local arch=$1 ver=$2 darch dir meta img rel hdr common kbuild suite pin
	darch=$(deb_arch "$arch")
	dir=$KPMOD_CACHE/kernels/$arch-$ver
	if [ ! -f "$dir/release" ]; then
		suite=$(kernel_suite "$ver")
		apt_private "$suite"
		for pin in "" "$suite"; do
			[ -z "$pin" ] || APT_OPTS+=(-o "APT::Default-Release=$pin")
			meta=$(kernel_meta_pkg "$arch" "$ver")
			img=$(first_dep "$meta" "^linux-image-[0-9]") ||
				die "cannot resolve $meta"
			rel=${img#linux-image-}
			rel=${rel%-unsigned}
			hdr=linux-headers-$rel
			common=$(first_dep "$hdr:$darch" "^linux-headers-.*-common") ||
				die "cannot resolve $hdr's common headers"
			# The headers' scripts link points into linux-kbuild, which
			# holds programs run on this machine: take the host's build.
			kbuild=$(first_dep "$hdr:$darch" "^linux-kbuild-") ||
				die "cannot resolve $hdr's kbuild"
			log "fetching $img $hdr $common $kbuild ($darch)"
			rm -rf "$dir.tmp"
			mkdir -p "$dir.tmp/root"
			try_unpack_debs "$dir.tmp/root" "$img:$darch" "$hdr:$darch" "$common" \
				"$kbuild:$(dpkg --print-architecture)" && break
			[ -z "$pin" ] || die "cannot download the $ver kernel for $arch"
			log "not served; trying $suite's point release"
		done
		echo "$rel" >"$dir.tmp/release"
		rm -rf "$dir"
		mv "$dir.tmp" "$dir"
	fi
	rel=$(cat "$dir/release")
	KIMAGE=$dir/root/boot/vmlinuz-$rel
	KDIR=$dir/root/usr/src/linux-headers-$rel
	# The headers' Makefile includes the common headers by absolute path:
	# point it at the unpacked copy, not at whatever the host has installed.
	sed -i "s|^include /usr/src/|include $dir/root/usr/src/|" "$KDIR/Makefile"
	[ -f "$KIMAGE" ] || die "no kernel image at $KIMAGE"
	[ -d "$KDIR/scripts/" ] || die "no headers (or kbuild scripts) at $KDIR"
}

# fetch_busybox ARCH sets BUSYBOX to a static busybox for ARCH.
fetch_busybox() {
	local arch=$1 dir
	dir=$KPMOD_CACHE/busybox-$arch
	if [ ! -x "$dir/bin/busybox" ]; then
		apt_private "$(host_suite)"
		rm -rf "$dir"
		mkdir -p "$dir"
		unpack_debs "$dir" "busybox-static:$(deb_arch "$arch")"
	fi
	BUSYBOX=$dir/bin/busybox
}

# fetch_libnl ARCH sets NL_SYSROOT to a folder holding ARCH's libnl-3 and
# libnl-genl-3 headers, static libraries and .pc files (empty for the host's
# own arch, whose installed libnl is used).
fetch_libnl() {
	local darch dir
	darch=$(deb_arch "$1")
	NL_SYSROOT=
	[ "$darch" = "$(dpkg --print-architecture)" ] && return 0
	dir=$KPMOD_CACHE/libnl-$darch
	if [ ! -f "$dir/done" ]; then
		apt_private "$(host_suite)"
		rm -rf "$dir"
		mkdir -p "$dir"
		unpack_debs "$dir" "libnl-3-dev:$darch" "libnl-genl-3-dev:$darch" \
			"libnl-3-200:$darch" "libnl-genl-3-200:$darch"
		# The .a files sit in /lib; the .pc files name /usr/lib.
		local a
		for a in "$dir"/lib/*/*.a; do
			ln -sf "$a" "$dir/usr${a#"$dir"}"
		done
		touch "$dir/done"
	fi
	NL_SYSROOT=$dir
}
