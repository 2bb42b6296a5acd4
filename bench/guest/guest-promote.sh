#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs in the guest from fio's exec_prerun / exec_postrun (bench/jobs/promote.fio),
# with the environment of guest-scenario.sh aged (AGED_<set>: the set's files, ':'-separated;
# HOTCOLD_LOGDIR: its output folder) and fio's working directory (the aged
# filesystem's root).  What it finds goes into $HOTCOLD_LOGDIR/env.txt, the
# file guest-scenario.sh brings back (fio ignores a prerun's or postrun's status):
#   sums WHEN SET     promote_sum_WHEN=FILE,INODE,SHA256 per file of SET, the
#                     page cache dropped first (the contents on the disk)
#   move TARGET SET   hc-move TARGET over SET's files: promote_move_header=
#                     and promote_move= lines (hc-move's CSV), move_rc,
#                     move_seconds (guest clock, /proc/uptime), and
#                     move_read_sectors / move_write_sectors (/sys/block/vda/stat)
# Usage: sh /tests/bench/guest-promote.sh sums before|after SET
#        sh /tests/bench/guest-promote.sh move hot|cold SET
env=${HOTCOLD_LOGDIR:?guest-promote: HOTCOLD_LOGDIR not set}/env.txt
what=${1:-} arg=${2:-} set=${3:-}
case $what:$arg in sums:before|sums:after|move:hot|move:cold) ;;
*) echo "usage: guest-promote.sh sums before|after SET | move hot|cold SET" >&2; exit 2 ;; esac
eval "files=\${AGED_$set:-}"
[ -n "$files" ] || { echo "move_rc=2" >>"$env"; echo "guest-promote: no AGED_$set" >&2; exit 2; }
files=$(echo "$files" | tr ':' ' ')
if [ "$what" = sums ]; then
	sync
	echo 3 >/proc/sys/vm/drop_caches
	for f in $files; do
		echo "promote_sum_$arg=$f,$(stat -c %i "$f"),$(sha256sum <"$f" | cut -d' ' -f1)"
	done >>"$env"
	exit 0
fi
stat_of() { awk '{ print $3, $7 }' /sys/block/vda/stat; }
# the sums step just read every file: drop the page cache so the move reads
# its data from the disk, as it would for a set nobody touched lately
sync
echo 3 >/proc/sys/vm/drop_caches
t0=$(cut -d' ' -f1 /proc/uptime) s0=$(stat_of)
# shellcheck disable=SC2086  # the set's paths have no spaces (hc-age makes them)
"$(dirname "$0")/hc-move" --quiet "$arg" $files >/tmp/promote-move.csv 2>/tmp/promote-move.err
rc=$?
sync
t1=$(cut -d' ' -f1 /proc/uptime) s1=$(stat_of)
{
	sed -n '1s/^/promote_move_header=/p; 2,$s/^/promote_move=/p' /tmp/promote-move.csv
	sed 's/^/promote_move_err=/' /tmp/promote-move.err
	echo "$s0 $s1" | awk -v rc=$rc -v a="$t0" -v b="$t1" -v t="$arg" -v s="$set" '{
		printf "move_rc=%d\nmove_target=%s\nmove_set=%s\nmove_seconds=%.2f\nmove_read_sectors=%d\nmove_write_sectors=%d\n",
			rc, t, s, b - a, $3 - $1, $4 - $2 }'
} >>"$env"
exit $rc
