#!/bin/sh
# Runs in the guest (vm/runner/run): the aged-filesystem scenario, in two steps.
#
#   sh guest-aged.sh age TARGET SEED SETS CHURN DIRS [MOUNTOPTS]
#     on a plain virtio disk (/dev/vda, no disk model: fast): mke2fs with a
#     fixed UUID and directory-hash seed (Orlov spreads top-level
#     directories by that hash, so the layout repeats), then hc-age to
#     TARGET percent with the given seed, sets (NAME:HINT:NFILES:SIZE,...),
#     churn and top-level directory count; then e2freefrag and e2fsck -fn
#     on the unmounted filesystem.  bench/run.sh keeps the disk image.
#   sh guest-aged.sh measure JOBFILE IO [MOUNTOPTS]
#     on that image served through the disk model: mount it, take the set
#     files from hc-age's manifest, run JOBFILE with fio and the engine
#     (random reads of IO bytes per job).
#   MOUNTOPTS: extra ext4 mount options for both steps (e.g. region_reserve=1).
#
# Every result file is printed between marker lines
#   @@BENCH-FILE-BEGIN name@@ ... @@BENCH-FILE-END name@@
# on stdout, which vm/runner/run hands back to bench/run.sh.
set -u
out=/tmp/out
mkdir -p $out
here=$(dirname "$0")
# Fixed, so that the same seed gives the same layout (any valid UUIDs).
FS_UUID=6f5d7e2a-0c1b-4e8e-9a55-0123456789ab
FS_HASH_SEED=2b7e1516-28ae-4d2a-abf7-158809cf4f3c

emit() { # name file
	echo "@@BENCH-FILE-BEGIN $1@@"
	cat "$2"
	echo "@@BENCH-FILE-END $1@@"
}
counters() { # prefix: the ext4 hint counters, if this kernel has them
	for c in /sys/fs/ext4/vda/hint_*; do
		[ -r "$c" ] && echo "$1$(basename "$c")=$(cat "$c")"
	done
	[ -r /sys/fs/ext4/vda/hint_honoured ] && echo "knows_flags=1" || echo "knows_flags=0"
}
{
	echo "kernel=$(uname -r)"
	echo "disk_sectors=$(cat /sys/block/vda/size)"
	echo "rotational=$(cat /sys/block/vda/queue/rotational)"
} >$out/env.txt

case ${1:-} in
age)
	[ $# = 6 ] || [ $# = 7 ] || { echo "usage: guest-aged.sh age TARGET SEED SETS CHURN DIRS [MOUNTOPTS]"; exit 2; }
	target=$2 seed=$3 sets=$4 churn=$5 dirs=$6 mopts=${7:-}
	echo "mount_opts=${mopts:-none}" >>$out/env.txt
	t0=$(cut -d. -f1 /proc/uptime)
	mke2fs -q -t ext4 -U $FS_UUID -E lazy_itable_init=1,lazy_journal_init=1,hash_seed=$FS_HASH_SEED \
		/dev/vda || exit 1
	mount -o noinit_itable${mopts:+,$mopts} /dev/vda /mnt || exit 1
	echo "region_reserve=$(cat /sys/fs/ext4/vda/region_reserve 2>/dev/null || echo n/a)" >>$out/env.txt
	"$here/hc-age" --seed "$seed" --target "$target" --sets "$sets" --churn "$churn" \
		--dirs "$dirs" /mnt >$out/age.out 2>$out/age.err
	rc=$?
	counters age_ >>$out/env.txt
	[ $rc = 0 ] || { echo "guest-aged: hc-age exited with status $rc"; tail -n 20 $out/age.err; exit 1; }
	cp /mnt/.aging/state.txt $out/state.txt
	# the set files only: the whole manifest stays on the image
	awk -F, 'NR == 1 || $1 == "setfile" || $1 == "digest"' /mnt/.aging/manifest.csv >$out/sets.csv
	df -k /mnt | awk 'NR == 2 { printf "df_used_pct=%.2f\n", 100 * $3 / $2 }' >>$out/env.txt
	umount /mnt || exit 1
	e2freefrag /dev/vda >$out/freefrag.txt 2>&1 || echo "e2freefrag failed" >>$out/freefrag.txt
	e2fsck -fn /dev/vda >$out/fsck.txt 2>&1
	echo "fsck_rc=$?" >>$out/env.txt
	echo "age_seconds=$(($(cut -d. -f1 /proc/uptime) - t0))" >>$out/env.txt
	for f in env.txt state.txt sets.csv freefrag.txt fsck.txt age.err; do emit $f $out/$f; done
	exit 0 ;;
measure)
	[ $# = 3 ] || [ $# = 4 ] || { echo "usage: guest-aged.sh measure JOBFILE IO [MOUNTOPTS]"; exit 2; }
	job=$2 mopts=${4:-}
	echo "mount_opts=${mopts:-none}" >>$out/env.txt
	[ -r "$job" ] || { echo "guest-aged: job file '$job' not found"; exit 2; }
	# noatime: a read must not dirty an inode (its journal commit 5 s later
	# sends the head to the journal in the middle of the reads)
	mount -o noatime,noinit_itable${mopts:+,$mopts} /dev/vda /mnt || exit 1
	echo "region_reserve=$(cat /sys/fs/ext4/vda/region_reserve 2>/dev/null || echo n/a)" >>$out/env.txt
	m=/mnt/.aging/manifest.csv
	[ -r $m ] || { echo "guest-aged: no $m: not an image made by 'guest-aged.sh age'"; exit 2; }
	# AGED_<set>: the set's files joined by ':' (fio's filename list)
	eval "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["op"] == "setfile" { s = $c["set"]; l[s] = (s in l) ? l[s] ":" $c["path"] : $c["path"]; z[s] = $c["size"] }
		END { for (s in l) printf "AGED_%s=%s AGED_%s_SIZE=%s\n", s, l[s], s, z[s] }' $m)"
	for s in H H2 C N N2 HS CS NS; do
		eval "v=\${AGED_$s:-}"
		[ -n "$v" ] || { echo "guest-aged: the image has no set $s (hc-age --sets)"; exit 2; }
	done
	export AGED_H AGED_H2 AGED_C AGED_N AGED_N2 AGED_HS AGED_CS AGED_NS
	export AGED_RAND_SIZE=$AGED_H_SIZE AGED_SEQ_SIZE=$AGED_HS_SIZE AGED_IO=$3
	export HOTCOLD_ENGINE=/usr/lib/fio/hotcold.so HOTCOLD_MNT=/mnt HOTCOLD_LOGDIR=$out
	df -k /mnt | awk 'NR == 2 { printf "df_used_pct=%.2f\n", 100 * $3 / $2 }' >>$out/env.txt
	# the job's directories; ";@mark DIR MODE" lines: DIR marked hot or
	# cold (patch 12, hc-mark) before any file is created in it
	for d in $(sed -n 's/^directory=//p' "$job" | sed "s|\${HOTCOLD_MNT}|$HOTCOLD_MNT|g" | tr ':' ' '); do
		mkdir -p "$d" || exit 1
	done
	sed -n 's/^;@mark  *\([^ ]*\)  *\([a-z]*\) *$/\1 \2/p' "$job" | while read -r d m; do
		mkdir -p "/mnt/$d" && "$here/hc-mark" "$m" "/mnt/$d" || { echo "guest-aged: marking /mnt/$d $m failed"; exit 1; }
		echo "mark_$d=$("$here/hc-mark" "/mnt/$d" | cut -d' ' -f2)" >>$out/env.txt
	done || exit 1
	cd /mnt
	fio --output-format=json --output=$out/fio.out "$job" >$out/fio.stdout 2>$out/fio.stderr
	rc=$?
	counters "" >>$out/env.txt
	echo "fio_rc=$rc" >>$out/env.txt
	for f in env.txt fio.out fio.stderr placement.csv seek.csv; do
		[ -f $out/$f ] && emit $f $out/$f
	done
	[ $rc = 0 ] || { echo "guest-aged: fio exited with status $rc"; cat $out/fio.stderr; }
	exit $rc ;;
*)
	echo "usage: guest-aged.sh age TARGET SEED SETS CHURN DIRS [MOUNTOPTS] | measure JOBFILE IO [MOUNTOPTS]"
	exit 2 ;;
esac
