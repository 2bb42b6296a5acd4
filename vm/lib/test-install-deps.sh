#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# install-deps.sh's pin of linux-source-6.1, on the host, without touching
# the installed package: KSRC_INSTALLED and KSRC_OFFERED stand for dpkg's
# and apt's answers, INSTALL_DEPS_DRY_RUN=1 keeps apt-get from running.
# When the pinned upload has left the archive, install-deps says what to
# do (snapshot.debian.org's URL for that .deb, LINUX_SOURCE_TARBALL, or a
# rebase) and exits non-zero, and never installs another upload; a tarball
# that is not the pinned upload's is refused before make extracts it.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
tap_init install-deps
deps=$here/install-deps.sh
pin=$(sed -n 's/^ksrc_version=//p' "$deps")
sha1=$(sed -n 's/^ksrc_deb_sha1=//p' "$deps")
deb_sha256=$(sed -n 's/^ksrc_deb_sha256=//p' "$deps")
tar_sha256=$(sed -n 's/^ksrc_tar_sha256=//p' "$deps")
newer=6.1.999-1

# run NAME ENV... -- ARGS...: run install-deps with ENV, its stderr in
# $tmp/NAME.err and its exit status in $tmp/NAME.rc
run() {
	name=$1; shift
	env INSTALL_DEPS_DRY_RUN=1 "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	echo $? >"$tmp/$name.rc"
}
rc() { cat "$tmp/$1.rc"; }
says() { grep -qF -- "$2" "$tmp/$1.err" || { echo "# $1: no '$2' in:"; sed 's/^/#   /' "$tmp/$1.err"; return 1; }; }

is "the pin is a Debian version" "$(echo "$pin" | grep -cE '^6\.1\.[0-9]+-[0-9]+$')" 1

run pinned KSRC_INSTALLED="$pin" KSRC_OFFERED="$pin $newer" "$deps" --check-kernel-source
is "pinned upload installed: --check-kernel-source exits 0" "$(rc pinned)" 0
is "pinned upload installed: nothing said" "$(cat "$tmp/pinned.err")" ""

run offered KSRC_INSTALLED="$newer" KSRC_OFFERED="$pin $newer" "$deps" --check-kernel-source
is "newer upload installed, pin offered: exit 1" "$(rc offered)" 1
check "  ... and it says install-deps installs the pin" says offered "was made on $pin, which apt offers"

run gone KSRC_INSTALLED="$newer" KSRC_OFFERED="$newer" "$deps" --check-kernel-source
is "pin left the archive: --check-kernel-source exits 1" "$(rc gone)" 1
check "  ... names the pin and the installed upload" says gone "$pin, the upload kernel-patches/ was made on"
check "  ... and what is installed" says gone "installed: $newer"
check "  ... says it has left the archive" says gone "has left Debian's archive"
check "  ... gives snapshot.debian.org's URL of that .deb" says gone "https://snapshot.debian.org/file/$sha1"
check "  ... and its sha256 to check" says gone "$deb_sha256  linux-source-6.1_${pin}_all.deb"
check "  ... offers LINUX_SOURCE_TARBALL" says gone "make LINUX_SOURCE_TARBALL="
check "  ... or a rebase" says gone "rebase the series"

run goneinst KSRC_INSTALLED="$newer" KSRC_OFFERED="$newer" "$deps" kernel
is "pin left the archive: install-deps kernel exits 1" "$(rc goneinst)" 1
check "  ... with the same message" says goneinst "https://snapshot.debian.org/file/$sha1"
check "  ... and installs no other upload in its place" \
	sh -c "! grep -q 'would install:.*linux-source-6.1' '$tmp/goneinst.err'"

run notinst KSRC_INSTALLED= KSRC_OFFERED= "$deps" kernel
is "nothing installed, nothing offered: exit 1" "$(rc notinst)" 1
check "  ... says it is not installed" says notinst "installed: none"

run older KSRC_INSTALLED=6.1.170-3 KSRC_OFFERED="6.1.170-3 $pin $newer" "$deps" kernel
is "older upload installed, pin offered: the dry run exits 0" "$(rc older)" 0
check "  ... and would install the pin, by version" says older "would install:" 
check "  ... (linux-source-6.1=$pin)" says older "linux-source-6.1=$pin"

printf 'not a kernel\n' >"$tmp/fake.tar.xz"
run faketar "$deps" --check-tarball "$tmp/fake.tar.xz"
is "a tarball of another upload: --check-tarball exits 1" "$(rc faketar)" 1
check "  ... names the file" says faketar "$tmp/fake.tar.xz is not the tarball of linux-source-6.1 $pin"
check "  ... and the pinned sha256" says faketar "$tar_sha256"

run notar "$deps" --check-tarball "$tmp/none.tar.xz"
is "a missing tarball: exit 1" "$(rc notar)" 1
check "  ... naming it" says notar "$tmp/none.tar.xz: no such tarball"

run envtar LINUX_SOURCE_TARBALL="$tmp/fake.tar.xz" KSRC_INSTALLED= KSRC_OFFERED= "$deps" kernel
is "LINUX_SOURCE_TARBALL of another upload: install-deps kernel exits 1" "$(rc envtar)" 1
check "  ... naming it" says envtar "$tmp/fake.tar.xz is not the tarball"

run badgroup "$deps" nosuch
is "an unknown group: exit 2" "$(rc badgroup)" 2
check "  ... naming it" says badgroup "unknown group 'nosuch'"

# --check: exit 0 only when nothing would be installed (make bench plans
# its deps step with it), never installing anything
run chkpin KSRC_INSTALLED="$pin" KSRC_OFFERED="$pin" "$deps" --check kernel
is "--check, every package there at its pinned upload: exit 0" "$(rc chkpin)" 0
run chkold KSRC_INSTALLED=6.1.170-3 KSRC_OFFERED="6.1.170-3 $pin" "$deps" --check kernel
is "--check, another upload of the kernel source installed: exit 1" "$(rc chkold)" 1
check "  ... and nothing would be installed" sh -c "! grep -q 'would install' '$tmp/chkold.err'"
run chkbad "$deps" --check nosuch
is "--check with an unknown group: exit 2" "$(rc chkbad)" 2

# This machine: make check-host installs the pinned upload first
# (build/.stamp-deps), so its tarball must pass the check make runs.
run real "$deps" --check-kernel-source
is "this machine's linux-source-6.1 is the pinned upload ($pin)" "$(rc real)" 0
run realtar "$deps" --check-tarball /usr/src/linux-source-6.1.tar.xz
is "  ... and its tarball has the pinned sha256" "$(rc realtar)" 0
tap_done
