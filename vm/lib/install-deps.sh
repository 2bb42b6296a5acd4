#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install the Debian 12 packages the project needs, only those missing.
# Usage: vm/lib/install-deps.sh [group...]   groups: kernel vm disk fio plot fstests (default: all)
set -eu

pkgs_kernel="build-essential flex bison bc libelf-dev libssl-dev ccache coccinelle
	linux-source-6.1 xz-utils git perl python3 rsync"
# The series was made on this upload of Debian's linux-source-6.1; a later
# upload may move a hunk, and kernel-patches/ applies with --fuzz=0.
ksrc_pkg=linux-source-6.1
ksrc_version=6.1.192-3
pkgs_vm="qemu-system-x86 qemu-utils busybox-static cpio e2fsprogs"
pkgs_disk="nbdkit nbdkit-plugin-dev libnbd-bin libnbd-dev"
pkgs_fio="dpkg-dev libaio-dev zlib1g-dev pkg-config strace"
pkgs_plot="gnuplot-nox jq"
# fstests' build (../shared/peers/README.md) and its guest root (mmdebstrap)
pkgs_fstests="mmdebstrap xfslibs-dev uuid-dev libattr1-dev libacl1-dev libaio-dev
	libtool-bin libgdbm-dev liburing-dev libcap-dev autoconf automake make gcc
	pkg-config file qemu-utils"

groups=${*:-kernel vm disk fio plot fstests}
want=""
for g in $groups; do
	eval "want=\"\$want \$pkgs_$g\""
done

# ksrc_check: the installed linux-source-6.1 is the pinned upload, or say what
# to do.  Prints nothing and returns 0 when it is.
ksrc_check() {
	have=$(dpkg-query -W -f='${Version}' "$ksrc_pkg" 2>/dev/null || true)
	[ "$have" = "$ksrc_version" ] && return 0
	cat >&2 <<MSG
install-deps: $ksrc_pkg ${have:-is not installed} ${have:+is installed}; the series in
kernel-patches/ was made on $ksrc_version.  If apt cannot find that version, it has
left Debian's archive; take it from snapshot.debian.org, which keeps every upload:
    wget https://snapshot.debian.org/archive/debian-security/<date>/pool/updates/main/l/linux/${ksrc_pkg}_${ksrc_version}_all.deb
    (the page https://snapshot.debian.org/package/linux/$ksrc_version/ gives the date)
    apt-get install --allow-downgrades ./${ksrc_pkg}_${ksrc_version}_all.deb
or rebase the series on the new upload (make kernel-patched names the patch that
no longer applies) and change ksrc_version in vm/lib/install-deps.sh.
MSG
	return 1
}

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
	if ! dpkg-query -W -f='${Version}' "$ksrc_pkg" 2>/dev/null | grep -qx "$ksrc_version"; then
		missing=$(echo "$missing" | sed "s/ $ksrc_pkg\b//")
		missing="$missing $ksrc_pkg=$ksrc_version"
	fi ;;
esac

[ -z "$missing" ] && [ "$need_src" = no ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages:$missing; run as root or install them" >&2
	exit 1
fi
if [ "$need_src" = yes ]; then
	f=/etc/apt/sources.list.d/debian.sources
	if [ -f "$f" ]; then
		sed -i 's/^Types: deb$/Types: deb deb-src/' "$f"
	else
		echo "deb-src http://deb.debian.org/debian bookworm main" \
			>/etc/apt/sources.list.d/fio-src.list
	fi
fi
echo "install-deps: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086
if ! apt-get install -y -q --no-install-recommends --allow-downgrades $missing >/dev/null; then
	case "$missing" in *"$ksrc_pkg="*) ksrc_check ;; esac
	echo "install-deps: apt-get install failed for:$missing" >&2
	exit 1
fi
case " $groups " in *" kernel "*) ksrc_check || exit 1 ;; esac
