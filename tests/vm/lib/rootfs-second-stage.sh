#!/bin/sh
# debootstrap's second stage of a foreign root file system (tests/vm/lib/rootfs.sh),
# run in a guest of its arch with the image as its writable disk on $KPMOD_ROOTFS.
. "$KPMOD_LIB"
root=${KPMOD_ROOTFS:?}
[ -x "$root/debootstrap/debootstrap" ] || fail "$root holds no first stage (/debootstrap/debootstrap)"
set -- "$root"/var/cache/apt/archives/*.deb
note "second stage: $# packages"
if ! chroot "$root" /debootstrap/debootstrap --second-stage >/tmp/second.log 2>&1; then
	tail -n 40 /tmp/second.log
	tail -n 40 "$root/debootstrap/debootstrap.log" 2>/dev/null
	fail "debootstrap --second-stage failed"
fi
tail -n 3 /tmp/second.log
rm -f "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*_Packages
# What the scenarios and bench use from it.
for p in bpftrace perf; do
	chroot "$root" "$p" --version >/tmp/v.out 2>&1 || { cat /tmp/v.out; fail "$p does not run in $root"; }
	note "$(head -n 1 /tmp/v.out)"
done
# Leave it whole on the disk: the host checks it (e2fsck) and then boots it
# read-only (snapshot=on) from then on.
for d in tmp dev sys proc; do
	umount -l "$root/$d" 2>/dev/null
done
sync
mount -o remount,ro "$root" || fail "cannot remount $root read-only"
sync
