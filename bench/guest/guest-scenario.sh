#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs in the guest (vm/runner/run --out, booted by bench/runners/run.sh): one
# benchmark scenario on the modelled disk, or the ageing of an image for
# the aged ones.  Every result file is written in /out, which vm/runner/run
# brings back into the run's folder on the host.
#
#   sh guest-scenario.sh fresh JOBFILE
#     a fresh ext4 on /dev/vda; JOBFILE's paths and sizes from job-env.sh
#     (BENCH_QUICK, BENCH_QD); BENCH_SCHED the guest's I/O scheduler (none,
#     mq-deadline; default: the kernel's)
#   sh guest-scenario.sh zones
#     no filesystem: 64 MiB O_DIRECT at the start and at the end of the
#     raw disk, timed by the guest (zones.csv)
#   sh guest-scenario.sh age TARGET SEED SETS CHURN DIRS [MOUNTOPTS]
#     on a plain virtio disk (/dev/vda, no disk model: fast): mke2fs with a
#     fixed UUID and directory-hash seed (Orlov spreads top-level
#     directories by that hash, so the layout repeats), then hc-age to
#     TARGET percent with the given seed, sets (NAME:HINT:NFILES:SIZE,...),
#     churn and top-level directory count; then e2freefrag and e2fsck -fn
#     on the unmounted filesystem.  bench/runners/run.sh keeps the disk image.
#   sh guest-scenario.sh aged JOBFILE IO [MOUNTOPTS]
#     on that image served through the disk model: mount it, take the set
#     files from hc-age's manifest (AGED_<set>), mark the job's ";@mark DIR
#     MODE" directories (hc-mark), then JOBFILE (random reads of IO bytes a
#     job).
#   MOUNTOPTS: extra ext4 mount options (e.g. region_reserve=1).
# fresh and aged end the same way: fio with the hotcold engine runs
# JOBFILE (fio.out, its JSON; the engine's placement.csv and seek.csv),
# then the ext4 hint counters and fio's status go to env.txt.
# Exit: fio's status (or hc-age's, dd's), 2 on bad arguments.
set -u
out=/out
here=$(dirname "$0")
# Fixed, so that the same seed gives the same layout (any valid UUIDs).
FS_UUID=6f5d7e2a-0c1b-4e8e-9a55-0123456789ab
FS_HASH_SEED=2b7e1516-28ae-4d2a-abf7-158809cf4f3c
usage="usage: guest-scenario.sh fresh JOBFILE | zones | age TARGET SEED SETS CHURN DIRS [MOUNTOPTS] | aged JOBFILE IO [MOUNTOPTS]"
fail() { echo "guest-scenario: $*"; exit "${rc:-1}"; }

[ -d $out ] || { rc=2 fail "no /out: run me under vm/runner/run --out DIR"; }
{
	echo "kernel=$(uname -r)"
	echo "disk_sectors=$(cat /sys/block/vda/size)"
	echo "rotational=$(cat /sys/block/vda/queue/rotational)"
} >$out/env.txt

counters() { # prefix: the ext4 hint counters, if this kernel has them
	for c in /sys/fs/ext4/vda/hint_*; do
		[ -r "$c" ] && echo "$1$(basename "$c")=$(cat "$c")"
	done
	[ -r /sys/fs/ext4/vda/hint_honoured ] && echo "knows_flags=1" || echo "knows_flags=0"
}
used_pct() { df -k /mnt | awk 'NR == 2 { printf "df_used_pct=%.2f\n", 100 * $3 / $2 }'; }
# scheduler: BENCH_SCHED and the queue depth (fresh and zones)
scheduler() {
	q=/sys/block/vda/queue
	case ${BENCH_SCHED:-default} in
	default) ;;
	none|mq-deadline)
		echo "$BENCH_SCHED" >$q/scheduler 2>/dev/null
		grep -q "\[$BENCH_SCHED\]" $q/scheduler ||
			{ rc=2 fail "cannot set the scheduler to $BENCH_SCHED (have: $(cat $q/scheduler))"; } ;;
	*) rc=2 fail "BENCH_SCHED=$BENCH_SCHED: use none or mq-deadline" ;;
	esac
	{
		echo "quick=${BENCH_QUICK:-0}"
		echo "scheduler=$(sed -n "s/.*\[\(.*\)\].*/\1/p" $q/scheduler)"
		echo "nr_requests=$(cat $q/nr_requests)"
		echo "qd=${BENCH_QD:-1}"
	} >>$out/env.txt
}
# job_dirs JOB: the job's directory=a:b:c (fio does not make them)
job_dirs() {
	for d in $(sed -n 's/^directory=//p' "$1" | sed -e "s|\${HOTCOLD_MNT}|$HOTCOLD_MNT|g" \
		-e "s|\${HOTCOLD_FSROOT}|${HOTCOLD_FSROOT:-/mnt}|g" | tr ':' ' '); do
		mkdir -p "$d" || fail "cannot make the job's directory $d"
	done
}

mode=${1:-}
[ $# -ge 1 ] && shift
case $mode in
zones)
	[ $# = 0 ] || { rc=2 fail "$usage"; }
	scheduler
	mib=$(( $(cat /sys/block/vda/size) / 2048 ))
	echo "zone,skip_mib,mib,seconds" >$out/zones.csv
	for z in start end; do
		skip=0
		[ $z = end ] && skip=$((mib - 64))
		t0=$(cut -d' ' -f1 /proc/uptime)
		dd if=/dev/vda of=/dev/null bs=1M count=64 iflag=direct skip=$skip 2>/tmp/dd.err ||
			{ cat /tmp/dd.err; fail "dd at $z failed"; }
		t1=$(cut -d' ' -f1 /proc/uptime)
		echo "$z,$skip,64,$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')" >>$out/zones.csv
	done
	exit 0 ;;
age)
	[ $# = 5 ] || [ $# = 6 ] || { rc=2 fail "$usage"; }
	target=$1 seed=$2 sets=$3 churn=$4 dirs=$5 mopts=${6:-}
	echo "mount_opts=${mopts:-none}" >>$out/env.txt
	t0=$(cut -d. -f1 /proc/uptime)
	mke2fs -q -t ext4 -U $FS_UUID -E lazy_itable_init=1,lazy_journal_init=1,hash_seed=$FS_HASH_SEED \
		/dev/vda || fail "mke2fs failed"
	mount -o noinit_itable${mopts:+,$mopts} /dev/vda /mnt || fail "mount failed"
	echo "region_reserve=$(cat /sys/fs/ext4/vda/region_reserve 2>/dev/null || echo n/a)" >>$out/env.txt
	"$here/hc-age" --seed "$seed" --target "$target" --sets "$sets" --churn "$churn" \
		--dirs "$dirs" /mnt >$out/age.out 2>$out/age.err
	rc=$?
	counters age_ >>$out/env.txt
	[ $rc = 0 ] || { tail -n 20 $out/age.err; rc=1 fail "hc-age exited with status $rc"; }
	cp /mnt/.aging/state.txt $out/state.txt
	# the set files only: the whole manifest stays on the image
	awk -F, 'NR == 1 || $1 == "setfile" || $1 == "digest"' /mnt/.aging/manifest.csv >$out/sets.csv
	used_pct >>$out/env.txt
	umount /mnt || fail "umount failed"
	e2freefrag /dev/vda >$out/freefrag.txt 2>&1 || echo "e2freefrag failed" >>$out/freefrag.txt
	e2fsck -fn /dev/vda >$out/fsck.txt 2>&1
	echo "fsck_rc=$?" >>$out/env.txt
	echo "age_seconds=$(($(cut -d. -f1 /proc/uptime) - t0))" >>$out/env.txt
	exit 0 ;;
fresh)
	[ $# = 1 ] || { rc=2 fail "$usage"; }
	job=$1
	[ -r "$job" ] || { rc=2 fail "job file '$job' not found"; }
	scheduler
	mke2fs -q -t ext4 -E lazy_itable_init=1,lazy_journal_init=1 /dev/vda || fail "mke2fs failed"
	# noatime: under relatime the first read after a write dirties the
	# inode, and its journal commit 5 s later sends the head to the
	# journal mid-job
	mount -o noatime,noinit_itable /dev/vda /mnt || fail "mount failed"
	mkdir -p /mnt/bench
	# The paths and sizes the job files take from the environment.
	. "$here/job-env.sh"
	echo "bench_size=$BENCH_SIZE bench_io=$BENCH_IO bench_nrfiles=$BENCH_NRFILES" | tr " " "\n" >>$out/env.txt
	job_dirs "$job"
	cd /mnt/bench || fail "no /mnt/bench" ;;
aged)
	[ $# = 2 ] || [ $# = 3 ] || { rc=2 fail "$usage"; }
	job=$1 mopts=${3:-}
	echo "mount_opts=${mopts:-none}" >>$out/env.txt
	[ -r "$job" ] || { rc=2 fail "job file '$job' not found"; }
	# noatime: a read must not dirty an inode (its journal commit 5 s later
	# sends the head to the journal in the middle of the reads)
	mount -o noatime,noinit_itable${mopts:+,$mopts} /dev/vda /mnt || fail "mount failed"
	echo "region_reserve=$(cat /sys/fs/ext4/vda/region_reserve 2>/dev/null || echo n/a)" >>$out/env.txt
	m=/mnt/.aging/manifest.csv
	[ -r $m ] || { rc=2 fail "no $m: not an image made by 'guest-scenario.sh age'"; }
	# AGED_<set>: the set's files joined by ':' (fio's filename list)
	eval "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["op"] == "setfile" { s = $c["set"]; l[s] = (s in l) ? l[s] ":" $c["path"] : $c["path"]; z[s] = $c["size"] }
		END { for (s in l) printf "AGED_%s=%s AGED_%s_SIZE=%s\n", s, l[s], s, z[s] }' $m)"
	for s in H H2 C N N2 HS CS NS; do
		eval "v=\${AGED_$s:-}"
		[ -n "$v" ] || { rc=2 fail "the image has no set $s (hc-age --sets)"; }
	done
	export AGED_H AGED_H2 AGED_C AGED_N AGED_N2 AGED_HS AGED_CS AGED_NS
	export AGED_RAND_SIZE=$AGED_H_SIZE AGED_SEQ_SIZE=$AGED_HS_SIZE AGED_IO=$2
	export HOTCOLD_ENGINE=/usr/lib/fio/hotcold.so HOTCOLD_MNT=/mnt HOTCOLD_LOGDIR=$out
	used_pct >>$out/env.txt
	job_dirs "$job"
	# ";@mark DIR MODE": DIR marked hot or cold (patch 12, hc-mark) before
	# any file is created in it
	sed -n 's/^;@mark  *\([^ ]*\)  *\([a-z]*\) *$/\1 \2/p' "$job" | while read -r d m; do
		mkdir -p "/mnt/$d" && "$here/hc-mark" "$m" "/mnt/$d" || { echo "guest-scenario: marking /mnt/$d $m failed"; exit 1; }
		echo "mark_$d=$("$here/hc-mark" "/mnt/$d" | cut -d' ' -f2)" >>$out/env.txt
	done || exit 1
	cd /mnt || fail "no /mnt" ;;
*)
	rc=2 fail "$usage" ;;
esac

# fresh and aged: the job, then what the kernel counted
fio --output-format=json --output=$out/fio.out "$job" >$out/fio.stdout 2>$out/fio.stderr
rc=$?
counters "" >>$out/env.txt
echo "fio_rc=$rc" >>$out/env.txt
[ $rc = 0 ] || { cat $out/fio.stderr; fail "fio exited with status $rc"; }
exit 0
