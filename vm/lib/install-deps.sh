#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install the Debian 12 packages the project needs, only those missing.
# Usage: vm/lib/install-deps.sh [group...]   groups: kernel vm disk fio plot fstests (default: all)
#        vm/lib/install-deps.sh --check-kernel-source
#            installs nothing: says whether the kernel source is the pinned
#            upload, or what to do (exit 1), from apt's lists as they are
#        vm/lib/install-deps.sh --check-tarball FILE
#            FILE is the pinned upload's linux-source-6.1.tar.xz, or exit 1
#            saying what to do (make checks the tarball before extracting it)
#        vm/lib/install-deps.sh --check [group...]
#            installs nothing: exit 0 when every package of the groups is
#            installed (the kernel source at its pinned upload, deb-src on
#            for fio), 1 when something would be installed (make bench plans
#            its deps step with it)
# LINUX_SOURCE_TARBALL=FILE: take the kernel source from FILE (a copy of the
# pinned upload's tarball, checked by its sha256) instead of the package.
set -eu

pkgs_kernel="build-essential flex bison bc libelf-dev libssl-dev ccache coccinelle
	linux-source-6.1 xz-utils git perl python3 rsync"
# The series was made on this upload of Debian's linux-source-6.1; a later
# upload may move a hunk (patch --fuzz=0 still takes a shifted one), so the
# upload is pinned, and the tarball by its checksum.  Its .deb as apt's
# lists give it (debian-security, bookworm-security), the SHA1 by which
# snapshot.debian.org serves it, and the tarball it installs:
ksrc_pkg=linux-source-6.1
ksrc_version=6.1.192-3
ksrc_deb=${ksrc_pkg}_${ksrc_version}_all.deb
ksrc_deb_sha1=a3cb99cf6fc83b54082c3329b55f0bb3ad2b1197
ksrc_deb_sha256=5259c57ca92092da39bd2ea803046da0e3c28f2b6a11ea20f6297468188ceb67
ksrc_tar=/usr/src/linux-source-6.1.tar.xz
ksrc_tar_sha256=cacdc3830989309d042083be3307969e55600ed7f908cf00df544c5ff50759a1
pkgs_vm="qemu-system-x86 qemu-utils busybox-static cpio e2fsprogs procps"
pkgs_disk="nbdkit nbdkit-plugin-dev libnbd-bin libnbd-dev"
pkgs_fio="dpkg-dev libaio-dev zlib1g-dev pkg-config strace"
pkgs_plot="gnuplot-nox jq"
# fstests' build (../shared/peers/README.md) and its guest root (mmdebstrap)
pkgs_fstests="mmdebstrap xfslibs-dev uuid-dev libattr1-dev libacl1-dev libaio-dev
	libtool-bin libgdbm-dev liburing-dev libcap-dev autoconf automake make gcc
	pkg-config file qemu-utils"

# For the tests of what follows (vm/lib/test-install-deps.sh), without
# touching the installed package: KSRC_INSTALLED, if set, is taken as the
# installed version (empty: not installed), KSRC_OFFERED as the versions
# apt offers (space separated).
ksrc_installed() {
	if [ "${KSRC_INSTALLED+set}" ]; then
		echo "$KSRC_INSTALLED"
		return
	fi
	dpkg-query -W -f='${Status} ${Version}\n' "$ksrc_pkg" 2>/dev/null |
		sed -n 's/^install ok installed //p'
}
ksrc_offered() {
	if [ "${KSRC_OFFERED+set}" ]; then
		printf '%s\n' $KSRC_OFFERED
		return
	fi
	apt-cache madison "$ksrc_pkg" 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $2); print $2 }'
}

# ksrc_gone: the pinned upload is neither installed nor offered by apt: it
# has left the archive.  Say what to do.
ksrc_gone() {
	offered=$(ksrc_offered | grep . | tr '\n' ' ')
	[ -n "$offered" ] || offered="nothing "
	have=$(ksrc_installed)
	cat >&2 <<MSG
install-deps: $ksrc_pkg $ksrc_version, the upload kernel-patches/ was made on,
is not installed (installed: ${have:-none}) and has left Debian's archive
(apt offers: ${offered% }).  A newer upload is not installed in its
place: a hunk may have moved.  Do one of these, then run make again:
 1. install that upload from snapshot.debian.org, which keeps every one:
      wget -O $ksrc_deb https://snapshot.debian.org/file/$ksrc_deb_sha1
      echo '$ksrc_deb_sha256  $ksrc_deb' | sha256sum -c
      apt-get install --allow-downgrades ./$ksrc_deb
    (the file is listed at https://snapshot.debian.org/binary/$ksrc_pkg/$ksrc_version/)
 2. or take its tarball from a machine that has it ($ksrc_tar,
    sha256 $ksrc_tar_sha256) and point make at it:
      make LINUX_SOURCE_TARBALL=/path/to/linux-source-6.1.tar.xz ...
 3. or rebase the series on the new upload (make kernel-patched names the
    patch that no longer applies) and change ksrc_version and the
    checksums in vm/lib/install-deps.sh.
MSG
}

# ksrc_check: the installed linux-source-6.1 is the pinned upload, or say
# what to do.  Prints nothing and returns 0 when it is.
ksrc_check() {
	have=$(ksrc_installed)
	[ "$have" = "$ksrc_version" ] && return 0
	if ! ksrc_offered | grep -qx "$ksrc_version"; then
		ksrc_gone
		return 1
	fi
	echo "install-deps: $ksrc_pkg ${have:-is not installed}${have:+ is installed};" \
		"kernel-patches/ was made on $ksrc_version, which apt offers:" \
		"vm/lib/install-deps.sh kernel installs it (as root)" >&2
	return 1
}

# tarball_check FILE: FILE is the pinned upload's tarball, or say what to do.
tarball_check() {
	if [ ! -r "$1" ]; then
		echo "install-deps: $1: no such tarball (LINUX_SOURCE_TARBALL," \
			"or $ksrc_pkg not installed: vm/lib/install-deps.sh kernel)" >&2
		return 1
	fi
	sum=$(sha256sum <"$1" | cut -d' ' -f1)
	[ "$sum" = "$ksrc_tar_sha256" ] && return 0
	cat >&2 <<MSG
install-deps: $1 is not the tarball of $ksrc_pkg $ksrc_version, the upload
kernel-patches/ was made on (its sha256 is $sum,
that upload's is $ksrc_tar_sha256).  Installed: $ksrc_pkg $(ksrc_installed | grep . || echo none).
Install that upload (vm/lib/install-deps.sh kernel), or point
LINUX_SOURCE_TARBALL at a copy of its tarball; a tarball of another upload
is not taken, even if the series applies to it.
MSG
	return 1
}

check=no
case "${1:-}" in
--check)
	check=yes
	shift ;;
--check-kernel-source)
	if [ -n "${LINUX_SOURCE_TARBALL:-}" ]; then
		tarball_check "$LINUX_SOURCE_TARBALL"
	else
		ksrc_check
	fi
	exit ;;
--check-tarball)
	[ $# -eq 2 ] || { echo "usage: $0 --check-tarball FILE" >&2; exit 2; }
	tarball_check "$2"
	exit ;;
-*)
	echo "install-deps: unknown option $1 (--check, --check-kernel-source, --check-tarball FILE)" >&2
	exit 2 ;;
esac

groups=${*:-kernel vm disk fio plot fstests}
for g in $groups; do
	case " kernel vm disk fio plot fstests " in *" $g "*) ;; *)
		echo "install-deps: unknown group '$g' (kernel vm disk fio plot fstests)" >&2
		exit 2 ;;
	esac
done
want=""
for g in $groups; do
	eval "want=\"\$want \$pkgs_$g\""
done

# The kernel source from LINUX_SOURCE_TARBALL: no package, but the tarball
# must be the pinned upload's.
ksrc_from=package
case " $groups " in *" kernel "*)
	if [ -n "${LINUX_SOURCE_TARBALL:-}" ]; then
		tarball_check "$LINUX_SOURCE_TARBALL" || exit 1
		ksrc_from=tarball
		want=$(echo "$want" | sed "s/\b$ksrc_pkg\b//")
	fi ;;
esac

missing=""
for p in $want; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done

# fio's source comes from Debian's source package: enable deb-src once.
need_src=no
case " $groups " in *" fio "*)
	if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ &&
	   ! grep -qs '^deb-src' /etc/apt/sources.list; then
		need_src=yes
	fi ;;
esac

case " $groups " in *" kernel "*)
	# the pinned upload, by version: a missing or different one is installed
	# as $ksrc_pkg=$ksrc_version (a downgrade if need be)
	if [ $ksrc_from = package ] && [ "$(ksrc_installed)" != "$ksrc_version" ]; then
		missing=$(echo "$missing" | sed "s/ $ksrc_pkg\b//")
		missing="$missing $ksrc_pkg=$ksrc_version"
	fi ;;
esac

[ -z "$missing" ] && [ "$need_src" = no ] && exit 0
[ $check = no ] || exit 1

# INSTALL_DEPS_DRY_RUN=1: change nothing; say what would be installed (the
# tests of the kernel source's pin use it with KSRC_INSTALLED/KSRC_OFFERED).
dry=${INSTALL_DEPS_DRY_RUN:-}
if [ -z "$dry" ] && [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages:$missing; run as root or install them" >&2
	exit 1
fi
if [ -n "$dry" ]; then
	[ "$need_src" = no ] || echo "install-deps: dry run: would enable deb-src" >&2
elif [ "$need_src" = yes ]; then
	f=/etc/apt/sources.list.d/debian.sources
	if [ -f "$f" ]; then
		sed -i 's/^Types: deb$/Types: deb deb-src/' "$f"
	else
		echo "deb-src http://deb.debian.org/debian bookworm main" \
			>/etc/apt/sources.list.d/fio-src.list
	fi
fi
export DEBIAN_FRONTEND=noninteractive
[ -n "$dry" ] || apt-get update -q >/dev/null
# The pinned upload may have left the archive: install the rest, then say
# what to do and fail (never a newer upload in its place).
ksrc_left=no
case "$missing" in *" $ksrc_pkg=$ksrc_version"*)
	if ! ksrc_offered | grep -qx "$ksrc_version"; then
		ksrc_left=yes
		missing=$(echo "$missing" | sed "s/ $ksrc_pkg=$ksrc_version//")
	fi ;;
esac
if [ -n "$missing" ] && [ -n "$dry" ]; then
	echo "install-deps: dry run: would install:$missing" >&2
elif [ -n "$missing" ]; then
	echo "install-deps: installing:$missing" >&2
	# shellcheck disable=SC2086
	if ! apt-get install -y -q --no-install-recommends --allow-downgrades $missing >/dev/null; then
		echo "install-deps: apt-get install failed for:$missing" >&2
		exit 1
	fi
fi
[ $ksrc_left = no ] || { ksrc_gone; exit 1; }
[ -z "$dry" ] || exit 0
case " $groups " in *" kernel "*)
	[ $ksrc_from = tarball ] || ksrc_check || exit 1 ;;
esac
