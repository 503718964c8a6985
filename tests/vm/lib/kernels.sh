# shellcheck shell=bash
# Kernels, headers and busybox from Debian's registry, unpacked into the cache.
#
# fetch_kernel ARCH KERNEL sets KIMAGE (the kernel image to boot), KROOT
# and KRELEASE (where its packages are unpacked, its release), KDIR
# (the tree to build modules against) and KBUILDROOT (the Debian suite
# whose build root builds against it, tests/vm/lib/buildroot.sh, or empty:
# this machine's compiler).  KERNEL is a series, 5.10, 6.1, 6.12 or 7.3,
# with an optional flavour: SERIES-rt (PREEMPT_RT: 6.12 and 7.3),
# SERIES-16k (16 KiB pages: 7.3 on arm64); or `newest`, the highest
# linux-image-ARCH of sid, experimental and trixie-backports today,
# cached under ARCH-newest-VERSION.  Packages are downloaded with
# `apt-get download` and unpacked with `dpkg -x` under
# $KPMOD_CACHE/kernels/ARCH-KERNEL; a later run reuses them untouched.
KERNELS_KNOWN="5.10, 6.1, 6.12, 7.3, 6.12-rt, 7.3-rt, 7.3-16k (arm64), newest, debug (x86_64)"

# apt_config NAME: sets APT_OPTS to a private apt configuration under
# $KPMOD_CACHE/apt/NAME (amd64 and arm64; the system's apt state is left
# alone) and APT_DIR to that folder.
apt_config() {
	APT_DIR=$KPMOD_CACHE/apt/$1
	APT_OPTS=(-o "Dir::Etc=$APT_DIR/etc" -o "Dir::Etc::SourceParts=$APT_DIR/etc/sources.list.d"
		  -o "Dir::State::Lists=$APT_DIR/lists" -o "Dir::Cache=$APT_DIR/cache"
		  -o "Dir::State::status=$APT_DIR/status"
		  -o Debug::NoLocking=1 -o APT::Sandbox::User=root
		  -o "APT::Architectures::=amd64" -o "APT::Architectures::=arm64")
}

# apt_fresh MINUTES: whether APT_DIR's lists were updated that recently.
apt_fresh() {
	[ -f "$APT_DIR/updated" ] && [ -n "$(find "$APT_DIR/updated" -mmin -"$1")" ]
}

# deb_line URL SUITE COMPONENTS SIGNED_BY: one sources.list line (SIGNED_BY
# "-" for none).
deb_line() {
	if [ "$4" = - ]; then
		echo "deb [arch=amd64,arm64] $1 $2 $3"
	else
		echo "deb [arch=amd64,arm64 signed-by=$4] $1 $2 $3"
	fi
}

# apt_update WHAT: writes stdin as APT_DIR's sources.list and updates its
# lists (WHAT names them in messages).  The old lists stay: apt-get update
# keeps one it could not fetch again, and says so.  Called at the end of a
# pipeline, so its caller exits on its failure.
apt_update() {
	mkdir -p "$APT_DIR/etc/sources.list.d" "$APT_DIR/etc/preferences.d" "$APT_DIR/lists/partial" \
		"$APT_DIR/cache/archives/partial"
	: >"$APT_DIR/status"
	cat >"$APT_DIR/etc/sources.list"
	[ -s "$APT_DIR/etc/sources.list" ] || die "no Debian sources for $1 in the host's apt configuration"
	log "updating the private apt lists for $1"
	apt-get "${APT_OPTS[@]}" -q update >&2 || die "apt-get update for $1 failed"
	touch "$APT_DIR/updated"
}

# apt_newest: APT_OPTS for every Debian suite that may carry a newer
# kernel than the releases: sid, experimental and the current stable's
# backports (the host's mirror).  Lists an hour old at most: the newest
# kernel is what is asked for, and a check's two arches share one update.
NEWEST_SUITES="sid experimental trixie-backports"
apt_newest() {
	local s
	apt_config newest
	apt_fresh 60 && return 0
	host_mirror || die "no Debian mirror in the host's apt sources"
	for s in $NEWEST_SUITES; do
		deb_line "$MIRROR" "$s" main "$MIRROR_SIGNED_BY"
	done | apt_update "$NEWEST_SUITES" || exit 1
}

# newest_kernel ARCH: sets NEWEST_VERSION and NEWEST_SUITE, the highest
# version of ARCH's linux-image meta package in any suite apt_newest lists.
newest_kernel() {
	local darch v s
	darch=$(deb_arch "$1")
	apt_newest
	NEWEST_VERSION= NEWEST_SUITE=
	while read -r v s; do
		if [ -z "$NEWEST_VERSION" ] || dpkg --compare-versions "$v" gt "$NEWEST_VERSION"; then
			NEWEST_VERSION=$v NEWEST_SUITE=$s
		fi
	done < <(apt-cache "${APT_OPTS[@]}" madison "linux-image-$darch:$darch" |
		awk -F' *[|] *' '{ split($3, w, " "); sub(/\/.*/, "", w[2]); print $2, w[2] }')
	[ -n "$NEWEST_VERSION" ] || die "no linux-image-$darch in $NEWEST_SUITES"
}

# kernel_suite SERIES: the Debian suite that carries a kernel series.
kernel_suite() {
	case "$1" in
	5.10) echo bullseye ;;
	6.1 | 6.12) echo bookworm ;;
	7.3) echo trixie-backports ;;
	*) die "kernel '$1' is not supported ($KERNELS_KNOWN)" ;;
	esac
}

# kernel_buildroot SERIES: the suite whose compiler builds modules for it
# (its own: 7.3's headers pass options bookworm's gcc-12 refuses), or
# nothing for this machine's.
kernel_buildroot() {
	case "$1" in
	7.3 | trixie-backports) echo trixie ;;
	sid | experimental) echo sid ;;
	esac
}

# kernel_meta_pkg ARCH SERIES FLAVOUR: the meta package that names the
# current image of a kernel series and flavour (Debian's: rt-amd64,
# arm64-16k).
kernel_meta_pkg() {
	local darch flav
	darch=$(deb_arch "$1")
	case "$3" in
	'') flav=$darch ;;
	rt) flav=rt-$darch ;;
	16k) flav=$darch-16k ;;
	*) die "kernel flavour '$3' is not supported ($KERNELS_KNOWN)" ;;
	esac
	case "$2/$3/$darch" in
	5.10//* | 6.1//* | 7.3//* | 7.3/rt/* | 7.3/16k/arm64) echo "linux-image-$flav:$darch" ;;
	6.12//* | 6.12/rt/*) echo "linux-image-6.12-$flav:$darch" ;;
	*) die "kernel '$2${3:+-$3}' is not served for $darch ($KERNELS_KNOWN)" ;;
	esac
}

# host_mirror [SUITE]: sets MIRROR and MIRROR_SIGNED_BY ("-" for none) to
# the first source the host's apt has for SUITE (default: the host's own);
# fails when it has none.
host_mirror() {
	MIRROR= MIRROR_SIGNED_BY=
	read -r MIRROR MIRROR_SIGNED_BY < <(host_sources |
		awk -v s="${1:-$(host_suite)}" '$2 == s { print $1, $3; exit }') || true
	[ -n "$MIRROR" ]
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
# for SUITE, for amd64 and arm64.  SUITE-backports is SUITE and its
# backports.  The system's apt state is left alone.
apt_private() {
	local suite=${1%-backports} bpo= host u s sb c
	[ "$suite" = "$1" ] || bpo=1
	host=$(host_suite)
	apt_config "$1"
	apt_fresh 1440 && return 0
	while read -r u s sb c; do
		# Not backports: the kernels come from the suite and its updates,
		# and an old suite's backports leave deb.debian.org (bullseye's
		# did, and apt-get update then fails as a whole).
		case "$s" in
		"$host"-backports) continue ;;
		"$host" | "$host"-*) ;;
		*) continue ;;
		esac
		local ss=$suite${s#"$host"}
		[ -z "$bpo" ] || [ "$s" != "$host" ] || ss="$ss $suite-backports"
		for s in $ss; do
			deb_line "$u" "$s" "$c" "$sb"
		done
	done < <(host_sources) | sort -u | apt_update "$1" || exit 1
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
	local arch=$1 ver=$2 darch dir meta img rel hdr common kbuild suite pin pins parts series flavour
	darch=$(deb_arch "$arch")
	series=${ver%%-*} flavour=
	[ "$series" = "$ver" ] || flavour=${ver#*-}
	dir=$KPMOD_CACHE/kernels/$arch-$ver
	# newest: whatever Debian serves newest today, in its own cache folder.
	if [ "$ver" = newest ]; then
		newest_kernel "$arch"
		dir=$KPMOD_CACHE/kernels/$arch-newest-$NEWEST_VERSION
		suite=$NEWEST_SUITE series=$NEWEST_SUITE pins=("$suite")
		meta="linux-image-$darch:$darch=$NEWEST_VERSION"
	else
		suite=$(kernel_suite "$series")
		# A backports kernel is never the default candidate: pinned from the start.
		pins=("" "$suite")
		[ "$suite" = "${suite%-backports}" ] || pins=("$suite")
		meta=$(kernel_meta_pkg "$arch" "$series" "$flavour")
	fi
	if [ ! -f "$dir/release" ]; then
		[ "$ver" = newest ] || apt_private "$suite"
		for pin in "${pins[@]}"; do
			[ -z "$pin" ] || APT_OPTS+=(-o "APT::Default-Release=$pin")
			img=$(first_dep "$meta" "^linux-image-[0-9]") ||
				die "cannot resolve $meta"
			rel=${img#linux-image-}
			rel=${rel%-unsigned}
			# From 7.x the image package only depends on the kernel
			# (linux-binary-REL) and its modules (linux-modules-REL).
			parts=$(first_dep "$img:$darch" "^linux-(binary|modules)-" || true)
			[ -z "$parts" ] || parts="linux-binary-$rel:$darch linux-modules-$rel:$darch"
			hdr=linux-headers-$rel
			common=$(first_dep "$hdr:$darch" "^linux-headers-.*-common") ||
				die "cannot resolve $hdr's common headers"
			# The headers' scripts link points into linux-kbuild, which
			# holds programs run where modules are built: this machine's
			# arch (in a build root, that suite's build of it).
			kbuild=$(first_dep "$hdr:$darch" "^linux-kbuild-") ||
				die "cannot resolve $hdr's kbuild"
			log "fetching $img $parts $hdr $common $kbuild ($darch)"
			rm -rf "$dir.tmp"
			mkdir -p "$dir.tmp/root"
			# shellcheck disable=SC2086
			try_unpack_debs "$dir.tmp/root" "$img:$darch" $parts "$hdr:$darch" "$common" \
				"$kbuild:$(dpkg --print-architecture)" && break
			[ -z "$pin" ] || die "cannot download the $ver kernel for $arch"
			log "not served; trying $suite's point release"
		done
		# From 7.x the modules are under /usr/lib/modules: /lib leads
		# there, as on a merged-/usr system (depmod looks in /lib).
		[ -e "$dir.tmp/root/lib" ] || [ ! -d "$dir.tmp/root/usr/lib/modules" ] ||
			ln -s usr/lib "$dir.tmp/root/lib"
		echo "$rel" >"$dir.tmp/release"
		kernel_buildroot "$series" >"$dir.tmp/buildroot"
		rm -rf "$dir"
		mv "$dir.tmp" "$dir"
	fi
	rel=$(cat "$dir/release")
	KROOT=$dir/root KRELEASE=$rel
	KBUILDROOT=$(cat "$dir/buildroot" 2>/dev/null || true)
	KIMAGE=$dir/root/boot/vmlinuz-$rel
	[ -f "$KIMAGE" ] || KIMAGE=$dir/root/usr/lib/modules/$rel/vmlinuz
	KDIR=$dir/root/usr/src/linux-headers-$rel
	# The headers' Makefile includes the common headers (and from 7.x
	# names its own output tree) by absolute path: point it at the
	# unpacked copy, not at whatever the host has installed.
	sed -i -e "s|^include /usr/src/|include $dir/root/usr/src/|" \
		-e "s|^KBUILD_OUTPUT=/usr/src/|KBUILD_OUTPUT=$dir/root/usr/src/|" "$KDIR/Makefile"
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

# fetch_libnl ARCH sets NL_SYSROOT to a folder holding ARCH's libnl-3,
# libnl-genl-3 and libbpf (with libelf and zlib, which it needs) headers,
# static libraries and .pc files (empty for the host's own arch, whose
# installed libraries are used).
fetch_libnl() {
	local darch dir
	darch=$(deb_arch "$1")
	NL_SYSROOT=
	[ "$darch" = "$(dpkg --print-architecture)" ] && return 0
	dir=$KPMOD_CACHE/libnl-$darch
	if [ ! -f "$dir/done-libbpf" ]; then
		apt_private "$(host_suite)"
		rm -rf "$dir"
		mkdir -p "$dir"
		unpack_debs "$dir" "libnl-3-dev:$darch" "libnl-genl-3-dev:$darch" \
			"libnl-3-200:$darch" "libnl-genl-3-200:$darch" \
			"libbpf-dev:$darch" "libbpf1:$darch" "libelf-dev:$darch" \
			"libelf1:$darch" "zlib1g-dev:$darch" "zlib1g:$darch"
		# The .a files sit in /lib; the .pc files name /usr/lib.
		local a
		for a in "$dir"/lib/*/*.a; do
			ln -sf "$a" "$dir/usr${a#"$dir"}"
		done
		touch "$dir/done-libbpf"
	fi
	NL_SYSROOT=$dir
}
