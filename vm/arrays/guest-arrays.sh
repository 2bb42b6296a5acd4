#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# In the guest: build an array (hc-array), make a fresh ext4 on it, run
# hc-arrayload on it, note what became of the hints, take it apart.
# The output is files in ARRAYS_OUT (default /out, the folder
# vm/runner/run --out brings back) and "# " lines on stdout:
#   TAG-array.txt     the array's device, rotational flag, the mke2fs line
#   TAG-fiemap.csv    TAG-guest.csv  (hc-arrayload.c's header)
#   TAG-counters.csv  counter,before,after: /sys/fs/ext4/DEV/hint_* around
#                     the load
# Usage: guest-arrays.sh TAG LAYOUT 'HC-ARRAYLOAD OPTIONS' MEMBER...
#   LAYOUT raid0:CHUNK_KIB (built as md0) or linear (dm name hclinear)
# Exit status: 0, or the step that failed (named on stderr).
set -u
here=$(cd "$(dirname "$0")" && pwd)
tag=${1:?usage: guest-arrays.sh TAG LAYOUT OPTIONS MEMBER...}
layout=${2:?usage: guest-arrays.sh TAG LAYOUT OPTIONS MEMBER...}
opts=${3?usage: guest-arrays.sh TAG LAYOUT OPTIONS MEMBER...}
shift 3
[ $# -ge 2 ] || { echo "guest-arrays.sh: $tag: give two or more members" >&2; exit 2; }
fail() { echo "guest-arrays.sh: $tag: $*" >&2; exit 1; }
out=${ARRAYS_OUT:-/out}
[ -d "$out" ] && [ -w "$out" ] || { echo "guest-arrays.sh: ARRAYS_OUT=$out is not a writable folder (vm/runner/run --out)" >&2; exit 2; }

case $layout in
raid0:*) name=md0 ;;
linear) name=hclinear ;;
*) echo "guest-arrays.sh: LAYOUT '$layout': use raid0:CHUNK_KIB or linear" >&2; exit 2 ;;
esac
dev=$("$here/hc-array" build "$layout" "$name" "$@") || fail "hc-array build $layout $name $* failed"
b=$(basename "$dev")
# A fixed UUID and hash seed: the same filesystem every run.  Inode tables
# and journal written now, not by ext4lazyinit during the measurement.
mkfs="mke2fs -q -F -t ext4 -U 6c0b7c3e-a3c4-4c55-9d2e-0a1ab2c3d4e5 -E hash_seed=0f5b2d38-0d5e-4e3b-8d0c-3a6a2f1e4b7c,lazy_itable_init=0,lazy_journal_init=0"
$mkfs "$dev" || fail "mke2fs on $dev failed"
mnt=/mnt/$tag
mkdir -p "$mnt"
mount -t ext4 -o noatime "$dev" "$mnt" || fail "mount $dev failed"
{
	echo "device=$dev"
	echo "layout=$layout"
	echo "members=$*"
	echo "rotational=$(cat /sys/block/$b/queue/rotational)"
	echo "size_bytes=$(($(cat /sys/block/$b/size) * 512))"
	echo "mkfs=$mkfs"
	dumpe2fs -h "$dev" 2>/dev/null | grep -E '^(Block count|Block size|Blocks per group|Flex block group size|RAID stride|RAID stripe width):' |
		sed 's/: */=/; s/ /_/g'
} >"$out/$tag-array.txt" || fail "cannot write $out/$tag-array.txt"
cnt="hint_honoured hint_spilled hint_dropped_nonrot hint_dropped_noperm hint_fallback hint_clusters_in_region hint_clusters_spilled"
for c in $cnt; do eval "before_$c=\$(cat /sys/fs/ext4/$b/$c 2>/dev/null || echo -1)"; done
# shellcheck disable=SC2086 # the options are words
"$here/hc-arrayload" --tag "$tag" --out "$out" $opts "$layout" "$dev" "$mnt" "$@"
rc=$?
{
	echo "counter,before,after"
	for c in $cnt; do eval "echo $c,\$before_$c,\$(cat /sys/fs/ext4/$b/$c 2>/dev/null || echo -1)"; done
} >"$out/$tag-counters.csv" || fail "cannot write $out/$tag-counters.csv"
[ $rc = 0 ] || fail "hc-arrayload exited with status $rc"
umount "$mnt" || fail "umount $mnt failed"
"$here/hc-array" stop "$name" || fail "hc-array stop $name failed"
echo "# $tag: $layout over $* done"
