#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the fstests guest's root filesystem image: Debian 12 from the
# packages listed in vm/fstests/packages (mmdebstrap --variant=essential,
# from the mirror this host's apt uses), plus fstests built on the host from
# the pinned tarball and copied into it (/var/lib/xfstests), packed into
# an ext4 image with `mke2fs -d` (nothing is ever mounted on the host; the
# chroot mounts mmdebstrap makes live in a private mount namespace).
#
# Usage: vm/fstests/mkrootfs.sh OUTDIR
#   Prints the image's path.  OUTDIR/rootfs-KEY.img is reused while KEY (a
#   hash of the package list, this script and the tarball) is unchanged;
#   OUTDIR/rootfs.img links to the current one.
# Environment:
#   FSTESTS_TARBALL  the fstests tarball (default ../shared/peers/xfstests-v2026.01.27.tar.gz)
#   FSTESTS_MIRROR   a sources file or URL for mmdebstrap (default: the Debian
#                    entries of /etc/apt/sources.list*)
#   FSTESTS_JOBS     make -j for fstests (default 2)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${1:?usage: mkrootfs.sh OUTDIR}
tarball=${FSTESTS_TARBALL:-$top/../shared/peers/xfstests-v2026.01.27.tar.gz}
jobs=${FSTESTS_JOBS:-2}
die() { echo "mkrootfs: $*" >&2; exit 1; }

[ -r "$tarball" ] || die "fstests tarball '$tarball' not found (set FSTESTS_TARBALL)"
for c in mmdebstrap mke2fs unshare sha256sum make gcc; do
	command -v $c >/dev/null || die "$c missing (vm/lib/install-deps.sh fstests)"
done
[ "$(id -u)" = 0 ] || die "mmdebstrap's root mode needs root"

hooks_version=1   # bump when the mmdebstrap command below changes
pkgs=$(sed 's/#.*//' "$here/packages" | tr -s ' \t' '\n' | grep -v '^$' | sort -u)
[ -n "$pkgs" ] || die "$here/packages lists no package"
key=$({ echo "$pkgs"; echo "$hooks_version"; sha256sum <"$here/mkrootfs.sh"; sha256sum <"$tarball"; } | sha256sum | cut -c1-16)
mkdir -p "$out"
img=$out/rootfs-$key.img
if [ -s "$img" ]; then
	ln -sfn "$(basename "$img")" "$out/rootfs.img"
	echo "$img"
	exit 0
fi

# The mirror: this host's Debian entries, so a fresh machine needs no other
# network than Debian's archive, at the same versions as the host's
# build dependencies (fstests is built here and runs there).
work=$(mktemp -d "$out/tmp-rootfs.XXXXXX")
trap 'rm -rf "$work"' EXIT
mirror=${FSTESTS_MIRROR:-}
if [ -z "$mirror" ]; then
	mirror=$work/debian.sources
	: >"$mirror"
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		# deb822 stanzas whose URIs are a Debian archive, binary only
		awk 'BEGIN { RS = ""; ORS = "\n\n" }
			/URIs:[^\n]*\/debian(-security)?\/?(\n|$| )/ { gsub(/Types: deb deb-src/, "Types: deb"); print }' "$f" >>"$mirror"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		grep -E '^deb (\[[^]]*\] )?https?://[^ ]*/debian(-security)?/? ' "$f" >>"$work/debian.list" || true
	done
	if [ ! -s "$mirror" ]; then
		[ -s "$work/debian.list" ] || die "no Debian entry in /etc/apt/sources.list*; set FSTESTS_MIRROR"
		mirror=$work/debian.list
	fi
fi

# fstests, built on the host (Debian 12, like the guest), once per tarball
tarkey=$(sha256sum <"$tarball" | cut -c1-16)
src=$out/fstests-src-$tarkey
if [ ! -f "$src/.built" ]; then
	rm -rf "$src" "$out"/fstests-src-*
	mkdir -p "$src"
	tar -C "$src" -xzf "$tarball"
fi
fst=$(ls -d "$src"/*/ | head -n 1)
fst=${fst%/}
if [ ! -f "$src/.built" ]; then
	echo "mkrootfs: building fstests in $fst ($(date +%T))" >&2
	nice -n 19 make -C "$fst" -j"$jobs" >"$src/build.log" 2>&1 ||
		{ tail -n 30 "$src/build.log" >&2; die "building fstests failed (log: $src/build.log; deps: vm/lib/install-deps.sh fstests)"; }
	touch "$src/.built"
fi

# Debian, once per package list (kept as a tree: the step that takes long)
debkey=$({ echo "$pkgs"; echo "$hooks_version"; } | sha256sum | cut -c1-16)
deb=$out/debian-$debkey
if [ ! -f "$deb/.done" ]; then
	rm -rf "$deb" "$out"/debian-*
	echo "mkrootfs: mmdebstrap bookworm, $(echo "$pkgs" | wc -l) packages ($(date +%T))" >&2
	# The users fstests' _require_user and _require_group look for.
	unshare --mount --propagation private \
		nice -n 19 timeout 3600 mmdebstrap --mode=root --variant=essential \
		--include="$(echo "$pkgs" | paste -sd, -)" \
		--customize-hook='chroot "$1" useradd -m -U fsgqa' \
		--customize-hook='chroot "$1" useradd -m -U fsgqa2' \
		--customize-hook='chroot "$1" useradd -m -U 123456-fsgqa' \
		--customize-hook='chroot "$1" groupadd -f fsgqa' \
		bookworm "$work/debian" "$mirror" >"$out/mmdebstrap.log" 2>&1 ||
		{ tail -n 30 "$out/mmdebstrap.log" >&2; die "mmdebstrap failed (log: $out/mmdebstrap.log)"; }
	mv "$work/debian" "$deb"
	touch "$deb/.done"
fi

root=$work/root
cp -a "$deb" "$root" && rm -f "$root/.done"
# The built tree as it is (fstests runs from its build folder; its `make
# install` prefixes DESTDIR twice).
mkdir -p "$root/var/lib/xfstests"
cp -a "$fst"/. "$root/var/lib/xfstests/" || die "copying fstests into the root failed"
[ -x "$root/var/lib/xfstests/check" ] || die "fstests' check not installed in $root/var/lib/xfstests"
# every fstests binary must find its libraries in the guest's root
missing=$(find "$root/var/lib/xfstests" -type f -perm -u+x | while read -r f; do
	file -b "$f" | grep -q '^ELF' || continue
	chroot "$root" ldd "${f#"$root"}" 2>&1 | sed -n "s|^[[:space:]]*\([^ ]*\) => not found|${f#"$root"}: \1|p"
done | sort -u)
[ -z "$missing" ] || die "fstests binaries lack libraries in the guest root (add their packages to vm/fstests/packages): $missing"

basename "$tarball" .tar.gz >"$root/var/lib/xfstests/TARBALL"
echo fstests >"$root/etc/hostname"
printf '127.0.0.1 localhost\n127.0.1.1 fstests\n::1 localhost\n' >"$root/etc/hosts"
ln -sfn ../proc/self/mounts "$root/etc/mtab"
mkdir -p "$root/mnt/test" "$root/mnt/scratch" "$root/initrd"
rm -rf "$root/var/cache/apt/archives"/*.deb "$root/var/lib/apt/lists"/* 2>/dev/null || true

# Room for fstests' results and logs: what the tree holds plus 1 GiB.
used=$(du -sm "$root" | cut -f1)
size=$((used * 13 / 10 + 1024))
rm -f "$work/img"
truncate -s "${size}M" "$work/img"
nice -n 19 mke2fs -q -t ext4 -L fstests-root -d "$root" "$work/img" ||
	die "mke2fs -d failed"
mv "$work/img" "$img"
ln -sfn "$(basename "$img")" "$out/rootfs.img"
# only the current image is kept
for old in "$out"/rootfs-*.img; do [ "$old" = "$img" ] || rm -f "$old"; done
echo "mkrootfs: $img (${size} MiB, key $key, $(date +%T))" >&2
echo "$img"
