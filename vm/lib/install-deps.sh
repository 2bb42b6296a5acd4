#!/bin/sh
# Install the Debian 12 packages the project needs, only those missing.
# Usage: vm/lib/install-deps.sh [group...]   groups: kernel vm disk fio plot fstests (default: all)
set -eu

pkgs_kernel="build-essential flex bison bc libelf-dev libssl-dev ccache coccinelle
	linux-source-6.1 xz-utils git perl python3 rsync"
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
apt-get install -y -q --no-install-recommends $missing >/dev/null
