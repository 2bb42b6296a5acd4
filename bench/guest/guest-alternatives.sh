#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs in the guest (vm/runner/run --out): issue 26's comparison of hints with
# their alternatives (bench/runners/alternatives.sh drives it), in two steps.
#
#   sh guest-alternatives.sh age LAYOUT FILL SEED CHURN
#     on a plain virtio disk (no disk model: fast).  LAYOUT single: one
#     ext4 on /dev/vda; split: the MBR bench/runners/alternatives.sh wrote has
#     /dev/vda1 on the disk's outer third and /dev/vda2 on the rest, and
#     each gets an ext4 aged the same way.  Ageing: bench/guest/guest-scenario.sh's
#     mke2fs (fixed UUID and hash seed), then hc-age to FILL percent with
#     SEED and CHURN; e2fsck -fn after.
#   sh guest-alternatives.sh run ARM LIST TRACK
#     on that image under the disk model (a copy-on-write overlay, so
#     every arm starts from the same state): mount it (noatime: the only
#     writes while fio reads are the tracker's), create the workload's
#     files with hc-mkfiles from LIST ("PATH SIZE HINT [LIFETIME]" lines,
#     the same order and sizes for every arm; a LIFETIME column needs a
#     kernel with /sys/fs/ext4/vda/write_hint_cold 1; a split arm's fast
#     files live on
#     /fast, the filesystem on vda1, with a symlink in /mnt/zipf), note
#     where they are (hc-where), then run bench/jobs/alternatives.fio; TRACK
#     "-" runs no tracker, else it is hc-track's options, and hc-track
#     watches /mnt while fio runs and is stopped (SIGTERM) after it.
#
# The environment (ZIPF_*, ALT_IOS) reaches fio; every result file is
# written in /out, which vm/runner/run brings back.
set -u
out=/out
[ -d $out ] || { echo "guest-alternatives: no /out: run me under vm/runner/run --out DIR"; exit 2; }
here=$(dirname "$0")
FS_UUID=6f5d7e2a-0c1b-4e8e-9a55-0123456789ab
FS_UUID2=6f5d7e2a-0c1b-4e8e-9a55-0123456789ac
FS_HASH_SEED=2b7e1516-28ae-4d2a-abf7-158809cf4f3c

{
	echo "kernel=$(uname -r)"
	echo "disk_sectors=$(cat /sys/block/vda/size)"
} >$out/env.txt
up() { cut -d' ' -f1 /proc/uptime; }
devs() { # the layout's filesystems: "DEV MOUNTPOINT" lines
	case $1 in
	single) echo "/dev/vda /mnt" ;;
	split) echo "/dev/vda2 /mnt"; echo "/dev/vda1 /fast" ;;
	*) echo "guest-alternatives: layout '$1': use single or split" >&2; return 2 ;;
	esac
}

case ${1:-} in
age)
	[ $# = 5 ] || { echo "usage: guest-alternatives.sh age single|split FILL SEED CHURN"; exit 2; }
	layout=$2 fill=$3 seed=$4 churn=$5
	devs "$layout" >/tmp/devs || exit 2
	t0=$(up) n=0
	while read -r dev mnt; do
		n=$((n + 1))
		uuid=$FS_UUID; [ $n = 2 ] && uuid=$FS_UUID2
		[ -b "$dev" ] || { echo "guest-alternatives: no $dev (the split image's MBR?)"; exit 1; }
		mke2fs -q -t ext4 -U $uuid -E lazy_itable_init=1,lazy_journal_init=1,hash_seed=$FS_HASH_SEED "$dev" || exit 1
		mkdir -p "$mnt" && mount -o noinit_itable "$dev" "$mnt" || exit 1
		"$here/hc-age" --seed "$seed" --target "$fill" --churn "$churn" "$mnt" >$out/age$n.out 2>$out/age$n.err
		rc=$?
		[ $rc = 0 ] || { echo "guest-alternatives: hc-age on $dev exited with status $rc"; tail -n 20 $out/age$n.err; exit 1; }
		d=$(basename "$dev")
		sed "s/^/${d}_/" "$mnt/.aging/state.txt" >>$out/env.txt
		df -k "$mnt" | awk -v d="$d" 'NR == 2 { printf "%s_df_used_pct=%.2f\n", d, 100 * $3 / $2 }' >>$out/env.txt
		umount "$mnt" || exit 1
		e2fsck -fn "$dev" >$out/fsck$n.txt 2>&1
		echo "${d}_fsck_rc=$?" >>$out/env.txt
	done </tmp/devs
	echo "age_seconds=$(awk -v a="$t0" -v b="$(up)" 'BEGIN { printf "%d", b - a }')" >>$out/env.txt
	exit 0 ;;
run)
	[ $# = 4 ] || { echo "usage: guest-alternatives.sh run ARM LIST TRACK"; exit 2; }
	arm=$2 list=$3 track=$4
	[ -r "$list" ] || { echo "guest-alternatives: file list '$list' not found"; exit 2; }
	layout=single
	[ -b /dev/vda2 ] && layout=split
	echo "arm=$arm" >>$out/env.txt
	echo "layout=$layout" >>$out/env.txt
	devs $layout >/tmp/devs || exit 2
	while read -r dev mnt; do
		mkdir -p "$mnt" && mount -o noatime,noinit_itable "$dev" "$mnt" || exit 1
		d=$(basename "$dev")
		echo "${d}_start=$(cat /sys/class/block/$d/start 2>/dev/null || echo 0)" >>$out/env.txt
		df -k "$mnt" | awk -v d="$d" 'NR == 2 { printf "%s_df_before_pct=%.2f\n", d, 100 * $3 / $2 }' >>$out/env.txt
		mkdir -p "$mnt/zipf" || exit 1
	done </tmp/devs
	# write-lifetime hints must reach a kernel that places by them
	if grep -v '^#' "$list" | awk 'NF >= 4 { found = 1 } END { exit !found }'; then
		wh=$(cat /sys/fs/ext4/vda/write_hint_cold 2>/dev/null)
		echo "write_hint_cold=${wh:-absent}" >>$out/env.txt
		[ "$wh" = 1 ] || { echo "guest-alternatives: LIST gives write-lifetime hints but /sys/fs/ext4/vda/write_hint_cold is '${wh:-absent}', not 1 (a kernel without the write-hint patch?)"; exit 1; }
	fi
	# the files, every arm in the same order and sizes; only the hints and
	# (split) the filesystem differ
	t0=$(up)
	"$here/hc-mkfiles" "$list" >$out/mkfiles.csv 2>$out/mkfiles.err || {
		echo "guest-alternatives: hc-mkfiles failed"; cat $out/mkfiles.err; exit 1; }
	if [ $layout = split ]; then
		for f in /fast/zipf/*; do
			[ -e "$f" ] && ln -s "$f" "/mnt/zipf/$(basename "$f")"
		done
	fi
	sync
	echo "mkfiles_seconds=$(awk -v a="$t0" -v b="$(up)" 'BEGIN { printf "%.1f", b - a }')" >>$out/env.txt
	for c in /sys/fs/ext4/vda/hint_honoured /sys/fs/ext4/vda/hint_spilled /sys/fs/ext4/vda/hint_fallback; do
		[ -r $c ] && echo "mk_$(basename $c)=$(cat $c)" >>$out/env.txt
	done
	"$here/hc-where" $(cut -d' ' -f1 "$list" | grep -v '^#') >$out/where-before.csv 2>>$out/where.err
	while read -r dev mnt; do
		df -k "$mnt" | awk -v d="$(basename "$dev")" 'NR == 2 { printf "%s_df_used_pct=%.2f\n", d, 100 * $3 / $2 }' >>$out/env.txt
	done </tmp/devs
	sync
	echo 3 >/proc/sys/vm/drop_caches
	export HOTCOLD_ENGINE=/usr/lib/fio/hotcold.so HOTCOLD_MNT=/mnt HOTCOLD_LOGDIR=$out
	tpid=""
	if [ "$track" != - ]; then
		# shellcheck disable=SC2086  # TRACK is hc-track's options, split on purpose
		"$here/hc-track" $track --log $out/track.csv /mnt >$out/track.out 2>$out/track.err &
		tpid=$!
		sleep 1
		kill -0 $tpid 2>/dev/null || { echo "guest-alternatives: hc-track did not start"; cat $out/track.err; exit 1; }
	fi
	echo "vda_stat_before=$(cat /sys/block/vda/stat | tr -s ' ' | sed 's/^ //')" >>$out/env.txt
	t0=$(up)
	cd /mnt || exit 1
	fio --output-format=json --output=$out/fio.out "$here/alternatives.fio" >$out/fio.stdout 2>$out/fio.stderr
	rc=$?
	echo "fio_seconds=$(awk -v a="$t0" -v b="$(up)" 'BEGIN { printf "%.1f", b - a }')" >>$out/env.txt
	echo "fio_rc=$rc" >>$out/env.txt
	if [ -n "$tpid" ]; then
		kill -TERM $tpid
		wait $tpid
		echo "track_rc=$?" >>$out/env.txt
	fi
	echo "vda_stat_after=$(cat /sys/block/vda/stat | tr -s ' ' | sed 's/^ //')" >>$out/env.txt
	cd /
	"$here/hc-where" $(cut -d' ' -f1 "$list" | grep -v '^#') >$out/where-after.csv 2>>$out/where.err
	for c in /sys/fs/ext4/vda/hint_*; do
		[ -r "$c" ] && echo "$(basename "$c")=$(cat "$c")" >>$out/env.txt
	done
	while read -r dev mnt; do umount "$mnt" || echo "umount_failed=$dev" >>$out/env.txt; done </tmp/devs
	# after the tracker's moves, the filesystem must be clean (the other
	# arms skip it: e2fsck of an aged image through the disk model is slow)
	if [ -n "$tpid" ]; then
		while read -r dev mnt; do
			e2fsck -fn "$dev" >/tmp/fsck.txt 2>&1
			echo "$(basename "$dev")_fsck_rc=$?" >>$out/env.txt
		done </tmp/devs
	fi
	[ $rc = 0 ] || { echo "guest-alternatives: fio exited with status $rc"; cat $out/fio.stderr; }
	exit $rc ;;
*)
	echo "usage: guest-alternatives.sh age single|split FILL SEED CHURN | run ARM LIST TRACK"
	exit 2 ;;
esac
