#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# guest-bench.sh - create()+unlink() rate for O_HOT, O_COLD and no flag,
# runs INSIDE the guest.  Not a test.
#
#   [BENCH_DEV=/dev/vda] [BENCH_FILES=2000] [BENCH_ROUNDS=5] [BENCH_OUT=/out] \
#       /tests/guest-bench.sh
#
# Makes a fresh ext4 on BENCH_DEV (destroys it), runs create_bench in a
# top-level directory (one round first as a warm-up, discarded) and writes
# BENCH_OUT/create-unlink.csv (the folder vm/runner/run --out brings back),
# a header and one line per mode:
#   mode,files,seconds,rate
# Its lines and the diagnostics ("# " lines, stderr) also go to the console.
# Exit 0 on success.
set -u
T=$(cd "$(dirname "$0")" && pwd)
PATH=$T:$PATH:/sbin:/usr/sbin:/bin:/usr/bin
DEV=${BENCH_DEV:-/dev/vda}
FILES=${BENCH_FILES:-2000}
ROUNDS=${BENCH_ROUNDS:-5}
OUT=${BENCH_OUT:-/out}
MNT=/mnt/bench

die() { echo "guest-bench: $*" >&2; exit 1; }
[ -b "$DEV" ] || die "BENCH_DEV=$DEV is not a block device"
case $FILES$ROUNDS in *[!0-9]*|'') die "BENCH_FILES/BENCH_ROUNDS must be numbers";; esac
[ -d "$OUT" ] && [ -w "$OUT" ] || die "BENCH_OUT=$OUT is not a writable folder (vm/runner/run --out)"

MKE2FS=/sbin/mke2fs
[ -x /usr/sbin/mke2fs ] && [ ! -x /sbin/mke2fs ] && MKE2FS=/usr/sbin/mke2fs
timeout 300 "$MKE2FS" -q -F -t ext4 -E lazy_itable_init=1,lazy_journal_init=1 "$DEV" ||
	die "mke2fs on $DEV failed"
mkdir -p "$MNT"
timeout 120 mount -t ext4 -o noinit_itable "$DEV" "$MNT" || die "mount $DEV failed"
mkdir "$MNT/bench" || die "mkdir $MNT/bench failed"
rotf=/sys/block/$(basename "$DEV")/queue/rotational
echo "# guest-bench: kernel $(uname -r) dev $DEV rotational $(cat "$rotf" 2>/dev/null) files $FILES rounds $ROUNDS"
csv=$OUT/create-unlink.csv
echo "mode,files,seconds,rate" >"$csv"
# a warm-up round (the dentry and inode caches, the journal), discarded
timeout 3600 "$T/create_bench" "$MNT/bench" "$FILES" 1 >/dev/null
rc=$?
[ $rc -ne 0 ] || { timeout 3600 "$T/create_bench" "$MNT/bench" "$FILES" "$ROUNDS" >>"$csv"; rc=$?; }
cat "$csv"
for c in hint_honoured hint_dropped_nonrot hint_dropped_noperm hint_fallback; do
	f=/sys/fs/ext4/$(basename "$DEV")/$c
	[ -r "$f" ] && echo "# $c $(cat "$f")"
done
timeout 120 umount "$MNT" || rc=1
[ $rc -eq 0 ] || echo "guest-bench: create_bench failed (status $rc)" >&2
exit $rc
