#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A power cut under a running guest, then a second guest on the same disk
# (the shape of fstests' crash tests and dm-log-writes' replays: cut,
# recover, check).  Guest 1, on a 1 GiB modelled drive with write-cache=on
# and a fresh ext4, creates files with O_HOT, O_COLD and no hint
# (hdd-crash-load), fsync()ing three in four, while a second process
# overwrites random blocks of a 256 MiB file it never syncs; the page
# cache writes back every half second, so the drive's cache is seldom
# empty.  Once 20 files
# are synced the host cuts the drive's power (SIGUSR1 to its nbdkit); the
# guest's next I/O fails.  Guest 2 boots on the image the drive left:
# e2fsck -fn before recovery (reported), mount (journal replay), every
# file synced before the cut has its size and checksum, umount, and
# e2fsck -fn is clean.  TAP output.
# Usage: vm/hdd-model/test-hdd-guest-crash.sh BZIMAGE TOOLS
#   TOOLS: the folder with the static hdd-crash-load (make hdd builds
#   build/hdd/crash-guest/)
kernel=${1:?usage: test-hdd-guest-crash.sh BZIMAGE TOOLS}
tools=${2:?usage: test-hdd-guest-crash.sh BZIMAGE TOOLS}
here=$(cd "$(dirname "$0")" && pwd)
run=$here/../runner/run
. "$here/../lib/tap.sh"
tap_name=hdd-guest-crash
[ -x "$tools/hdd-crash-load" ] || { echo "not ok 1 - $tools/hdd-crash-load not built (make hdd-guest-check)"; exit 1; }
build=$here/../../build
mkdir -p "$build"
work=$(mktemp -d "$build/hdd-crash.XXXXXX")
# KEEP=1 keeps the image, the trace and both guests' output.
trap '[ -n "${KEEP:-}" ] && echo "# kept $work ${rundir:-}" ||
	{ rm -rf "$work"; [ -z "${rundir:-}" ] || rm -rf "$rundir"; }' EXIT
trace=$work/trace.csv
t0=$(date +%s)

# Guest 1: the workload, cut mid-run.  The trace file's name is this
# run's own, so pgrep finds this run's nbdkit and no other.
"$run" --kernel "$kernel" --keep --timeout 600 --initrd-extra "$tools" \
	--hdd "1G,write-cache=on,trace=$trace" -- '
	echo 50 >/proc/sys/vm/dirty_writeback_centisecs
	echo 50 >/proc/sys/vm/dirty_expire_centisecs
	mke2fs -q -t ext4 /dev/vda && mount /dev/vda /mnt && mkdir /mnt/d &&
	cat /sys/block/vda/queue/write_cache &&
	{ /hdd-crash-load scatter /mnt/scatter 256 & /hdd-crash-load write /mnt/d 100000; }
	echo "load-exit=$?"' >"$work/g1.out" 2>"$work/g1.err" &
rp=$!
i=0
until [ "$(grep -c '^synced' "$work/g1.out")" -ge 20 ]; do
	sleep 1; i=$((i + 1))
	if [ $i -ge 400 ] || ! kill -0 $rp 2>/dev/null; then break; fi
done
pid=$(pgrep -f "^nbdkit .*trace=$trace" | head -1)
# Cut while the cache holds data: wait (at most 30 s) until the trace's
# last row leaves more than 64 KiB in it.  On a loaded host the guest can
# be slow enough for the drive to destage everything between write-backs,
# and a cut then loses nothing (that happened with two guests running).
cache_now() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		{ last = $col["cache_bytes"] } END { print last + 0 }' "$trace" 2>/dev/null
}
i=0
while [ -n "$pid" ] && [ "$(cache_now)" -le 65536 ] && [ $i -lt 300 ] && kill -0 $rp 2>/dev/null; do
	sleep 0.1; i=$((i + 1))
done
synced_at_cut=$(grep -c '^synced' "$work/g1.out")
if [ -n "$pid" ]; then kill -USR1 "$pid"; fi
wait $rp
st=$?
t1=$(date +%s)
rundir=$(sed -n 's/.*run=\([^ ]*\).*/\1/p' "$work/g1.err" | head -1)
img=$rundir/disk0.img
sed 's/^/#   guest 1: /' "$work/g1.out" | grep -v ' synced \| written ' | tail -n 8
cut=no
[ -n "$pid" ] && [ "$synced_at_cut" -ge 20 ] && [ -f "$img" ] && cut=yes
check "guest 1 ran and was cut ($synced_at_cut files synced when the host sent SIGUSR1, run exit $st)" [ $cut = yes ]
grep -q '^write back$' "$work/g1.out"
check "the guest sees the drive's cache (queue/write_cache: write back)" [ $? = 0 ]
last=$(grep '^error\|^load-exit' "$work/g1.out" | head -2 | tr '\n' ' ')
grep -q '^error .*Input/output error' "$work/g1.out" || grep -q '^error .*Read-only file system' "$work/g1.out"
check "the workload stopped at an I/O error after the cut ($last)" [ $? = 0 ]
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$col["op"] == "write" && $col["cached"] == 1 { c++ }
	$col["op"] == "destage" { d++ }
	$col["op"] == "flush" { f++ }
	$col["op"] == "powercut" { lost = $col["sectors"] * 512; cut = 1 }
	END {
		printf "#   trace: %d writes cached, %d destages, %d flushes; the cut lost %d bytes\n", c, d, f, lost
		exit !(cut && c > 0 && d > 0 && f > 0 && lost > 0)
	}' "$trace"
check "the drive cached writes, destaged and flushed, and the cut dropped cached data" [ $? = 0 ]

# Guest 2 on the image the drive left.
mkdir -p "$work/g2"
cp "$tools/hdd-crash-load" "$work/g2/"
grep '^synced' "$work/g1.out" >"$work/g2/synced.list"
"$run" --kernel "$kernel" --timeout 600 --initrd-extra "$work/g2" --disk "file:$img" -- '
	e2fsck -fn /dev/vda >/tmp/pre.log 2>&1; echo "pre-recovery-fsck=$?"
	mount /dev/vda /mnt && /hdd-crash-load verify /mnt/d /synced.list
	echo "verify-exit=$?"
	umount /mnt; e2fsck -fn /dev/vda; echo "fsck-exit=$?"' >"$work/g2.out" 2>"$work/g2.err"
st=$?
t2=$(date +%s)
sed 's/^/#   guest 2: /' "$work/g2.out" | tail -n 20
check "guest 2 ran on the image (exit $st)" [ $st = 0 ]
grep -q '^verify-exit=0$' "$work/g2.out"
check "every file fsync()ed before the cut is intact ($(grep '^verified' "$work/g2.out"))" [ $? = 0 ]
grep -q '^fsck-exit=0$' "$work/g2.out"
check "e2fsck -fn is clean after journal recovery" [ $? = 0 ]
echo "# guest 1 (workload, cut) $((t1 - t0)) s, guest 2 (recovery, check) $((t2 - t1)) s"
tap_done
