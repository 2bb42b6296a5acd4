#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The tests of an fstests group that `check -g GROUP` runs on ext4, one a
# line, sorted: the tests under tests/generic/ and tests/ext4/ whose
# _begin_fstest line names the group (what fstests' tools/mkgroupfile puts
# in group.list and check reads back).  Read from the pinned tarball itself,
# so the list is the same on a machine that has not built fstests.
# Usage: vm/fstests/group-list.sh GROUP
# Environment: FSTESTS_TARBALL (default ../shared/peers/xfstests-v2026.01.27.tar.gz,
#   as vm/fstests/mkrootfs.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
group=${1:?usage: vm/fstests/group-list.sh GROUP}
tarball=${FSTESTS_TARBALL:-$top/../shared/peers/xfstests-v2026.01.27.tar.gz}
die() { echo "group-list: $*" >&2; exit 2; }
case $group in *[!a-z0-9_-]*|'') die "GROUP='$group' is not a group name" ;; esac
[ -r "$tarball" ] || die "fstests tarball '$tarball' not found (set FSTESTS_TARBALL)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -C "$tmp" -xzf "$tarball" --wildcards '*/tests/generic/*' '*/tests/ext4/*' ||
	die "no tests/generic or tests/ext4 in '$tarball'"
# check's VALID_TEST_NAME: three digits, optionally -name; the group words
# follow _begin_fstest on its line.
for d in "$tmp"/*/tests/generic "$tmp"/*/tests/ext4; do
	[ -d "$d" ] || die "'$tarball' has no ${d#"$tmp"/*/}"
	grep -H '^_begin_fstest' "$d"/[0-9][0-9][0-9]* 2>/dev/null |
		awk -v g="$group" -v dir="$(basename "$d")" '{
			f = $1; sub(/:_begin_fstest$/, "", f); n = f; sub(/.*\//, "", n)
			if (n !~ /^[0-9][0-9][0-9](-[A-Za-z0-9-]*)?$/) next
			for (i = 2; i <= NF; i++) if ($i == g) { print dir "/" n; next }
		}'
done | LC_ALL=C sort -u >"$tmp/list"
[ -s "$tmp/list" ] || die "no test of '$tarball' is in group '$group'"
cat "$tmp/list"
