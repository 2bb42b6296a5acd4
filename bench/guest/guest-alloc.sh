#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# guest-alloc.sh - the allocation-cost benchmark, runs INSIDE the guest.
# Not a test.
#
#   BENCH_DEV=/dev/vda BENCH_RESERVES="0 1" BENCH_MODES="none hot cold" \
#   BENCH_FILES=500 BENCH_ROUNDS=3 [BENCH_OUT=/out] /tests/guest-alloc.sh
#
# For each region_reserve value: a fresh ext4 on BENCH_DEV (destroyed), the
# device marked rotational (a sparse image is not, and the hints only apply
# on rotational devices), mounted with region_reserve=R on a patched kernel
# (plain on the stock one), and alloc_bench run once per mode, each in a
# directory of its own.  Writes BENCH_OUT/alloc.csv (the folder
# vm/runner/run --out brings back), a header and one line per mode:
#   reserve,mode,files,bytes,seconds,rate,sys_us_per_file,groups,groups_scanned
# groups: the filesystem's block groups; groups_scanned: mballoc's count of
# groups it scanned for the mode's allocations (mb_stats).  BENCH_MBSTATS=1 also
# prints /proc/fs/ext4/DEV/mb_stats and the directory's inode after each mode.
# The CSV's lines also go to the console, with the diagnostics (stderr or
# "# " lines).  Exit 0 on success.
set -u
T=$(cd "$(dirname "$0")" && pwd)
PATH=$T:$PATH:/sbin:/usr/sbin:/bin:/usr/bin
DEV=${BENCH_DEV:-/dev/vda}
RESERVES=${BENCH_RESERVES:-0 1}
MODES=${BENCH_MODES:-none hot cold}
FILES=${BENCH_FILES:-500}
ROUNDS=${BENCH_ROUNDS:-3}
OUT=${BENCH_OUT:-/out}
MNT=/mnt/alloc
dev=$(basename "$DEV")

die() { echo "guest-alloc: $*" >&2; exit 1; }
[ -b "$DEV" ] || die "BENCH_DEV=$DEV is not a block device"
case $FILES$ROUNDS in *[!0-9]*|'') die "BENCH_FILES/BENCH_ROUNDS must be numbers";; esac
for r in $RESERVES; do case $r in 0|1) ;; *) die "BENCH_RESERVES: '$r' is not 0 or 1";; esac; done
for m in $MODES; do case $m in none|hot|cold) ;; *) die "BENCH_MODES: '$m' is not none, hot or cold";; esac; done
[ -d "$OUT" ] && [ -w "$OUT" ] || die "BENCH_OUT=$OUT is not a writable folder (vm/runner/run --out)"
csv=$OUT/alloc.csv
echo 1 >"/sys/block/$dev/queue/rotational" || die "cannot mark $DEV rotational"
MKE2FS=/sbin/mke2fs
[ -x /usr/sbin/mke2fs ] && [ ! -x /sbin/mke2fs ] && MKE2FS=/usr/sbin/mke2fs
mkdir -p "$MNT"
echo "# guest-alloc: kernel $(uname -r) dev $DEV size $(blockdev --getsize64 "$DEV") files $FILES rounds $ROUNDS"
echo "reserve,mode,files,bytes,seconds,rate,sys_us_per_file,groups,groups_scanned" | tee "$csv"
rc=0
for r in $RESERVES; do
	t0=$(date +%s)
	timeout 1800 "$MKE2FS" -q -F -t ext4 -E lazy_itable_init=1,lazy_journal_init=1 "$DEV" ||
		die "mke2fs on $DEV failed"
	opts=noinit_itable
	[ "${KERNEL_FLAVOUR:-patched}" = stock ] ||
		opts=$opts,region_reserve=$r
	timeout 600 mount -t ext4 -o "$opts" "$DEV" "$MNT" || die "mount $DEV -o $opts failed"
	echo "# reserve $r: mkfs+mount $(( $(date +%s) - t0 )) s, options $opts"
	groups=$(dumpe2fs -h "$DEV" 2>/dev/null | awk -F: '/^Block count/{b=$2} /^Blocks per group/{g=$2} END{if (g) printf "%d", (b+g-1)/g}')
	for m in $MODES; do
		mkdir "$MNT/$m" || die "mkdir $MNT/$m failed"
		echo 1 >"/sys/fs/ext4/$dev/mb_stats" 2>/dev/null
		s0=$(awk '/groups_scanned/ {print $2}' "/proc/fs/ext4/$dev/mb_stats" 2>/dev/null)
		line=$(timeout 3600 alloc_bench "$MNT/$m" "$m" "$FILES" "$ROUNDS") || { rc=1; echo "guest-alloc: alloc_bench $m failed" >&2; continue; }
		s1=$(awk '/groups_scanned/ {print $2}' "/proc/fs/ext4/$dev/mb_stats" 2>/dev/null)
		echo "$r,$line,${groups:-},$(( ${s1:-0} - ${s0:-0} ))" | tee -a "$csv"
		[ -n "${BENCH_MBSTATS:-}" ] && sed "s/^/# mb_stats $m: /" "/proc/fs/ext4/$dev/mb_stats"
		[ -n "${BENCH_MBSTATS:-}" ] && ls -di "$MNT/$m" | sed "s/^/# dir inode: /"
		rm -rf "${MNT:?}/$m"
	done
	for c in hint_honoured hint_dropped_nonrot hint_fallback hint_spilled; do
		f=/sys/fs/ext4/$dev/$c
		[ -r "$f" ] && echo "# reserve $r $c $(cat "$f")"
	done
	timeout 300 umount "$MNT" || { rc=1; echo "guest-alloc: umount failed" >&2; break; }
done
exit $rc
