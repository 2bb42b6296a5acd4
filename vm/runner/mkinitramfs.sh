#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build the guest's base initramfs: busybox-static, e2fsprogs with their shared
# libraries, and the init that runs one command and reports its exit status.
# Usage: vm/runner/mkinitramfs.sh OUTPUT.cpio
set -eu
out=${1:?usage: mkinitramfs.sh OUTPUT.cpio}
here=$(cd "$(dirname "$0")" && pwd)
root=$(mktemp -d "${TMPDIR:-/tmp}/initramfs.XXXXXX")
trap 'rm -rf "$root" ${tmpout:+"$tmpout"}' EXIT

bb=/bin/busybox
[ -x "$bb" ] && ! ldd "$bb" >/dev/null 2>&1 ||
	{ echo "mkinitramfs: no static $bb (apt-get install busybox-static)" >&2; exit 1; }

mkdir -p "$root/bin" "$root/sbin" "$root/usr/bin" "$root/usr/sbin" "$root/lib" \
	"$root/lib64" "$root/proc" "$root/sys" "$root/dev" "$root/tmp" "$root/mnt" \
	"$root/run" "$root/etc" "$root/root"
cp "$bb" "$root/bin/busybox"
for applet in $("$bb" --list); do
	[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done

# copy_with_libs BINARY...: the binary and every shared library ldd names.
copy_with_libs() {
	for bin; do
		p=$(command -v "$bin" || true)
		[ -n "$p" ] || { echo "mkinitramfs: $bin not found (apt-get install e2fsprogs)" >&2; exit 1; }
		cp -L "$p" "$root/sbin/$(basename "$p")"
		ldd "$p" 2>/dev/null | awk '/=> \//{print $3} /^\t\/lib/{print $1}' |
		while read -r lib; do
			mkdir -p "$root$(dirname "$lib")"
			cp -L "$lib" "$root$lib"
		done
	done
}
copy_with_libs mke2fs e2fsck debugfs tune2fs dumpe2fs e2freefrag resize2fs dash
# busybox's shell runs its own applets before searching PATH, so `mke2fs`
# would be busybox's cut-down one (no -t ext4): /bin/sh is dash instead.
mv "$root/sbin/dash" "$root/bin/dash"
ln -sf dash "$root/bin/sh"
ln -s mke2fs "$root/sbin/mkfs.ext4"
ln -s mke2fs "$root/sbin/mkfs.ext2"
echo "root:x:0:0:root:/root:/bin/sh" >"$root/etc/passwd"
echo "nobody:x:65534:65534:nobody:/:/bin/false" >>"$root/etc/passwd"
echo "root:x:0:" >"$root/etc/group"
echo "nogroup:x:65534:" >>"$root/etc/group"
# mke2fs reads its defaults (flex_bg=16 and the rest) from here.
[ -r /etc/mke2fs.conf ] && cp /etc/mke2fs.conf "$root/etc/mke2fs.conf"
install -m 0755 "$here/guest-init" "$root/init"

# a temporary file of its own, then one rename: guests started at once
# (vm/fstests/run.sh's modes) may each find the image stale and build it
tmpout=$(mktemp "$out.XXXXXX")
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$tmpout"
chmod 0644 "$tmpout"
mv "$tmpout" "$out"
