#!/bin/sh
# Runs in the guest (vm/runner/run): one benchmark scenario on the modelled disk.
# Makes a fresh ext4 on /dev/vda, runs JOBFILE with fio and the hotcold engine
# (or, for JOBFILE=zones, reads 64 MiB O_DIRECT at the start and at the end
# of the raw disk), then prints every result file between marker lines
#   @@BENCH-FILE-BEGIN name@@ ... @@BENCH-FILE-END name@@
# on stdout, which vm/runner/run hands back to bench/run.sh.
# (A full or old filesystem is bench/guest-aged.sh's: hc-age ages it.)
# Usage: sh /tests/bench/guest-scenario.sh JOBFILE|zones
job=${1:?usage: guest-scenario.sh JOBFILE|zones}
out=/tmp/out
mkdir -p $out

emit() { # name file
	echo "@@BENCH-FILE-BEGIN $1@@"
	cat "$2"
	echo "@@BENCH-FILE-END $1@@"
}
uptime_cs() { awk '{ printf "%d\n", $1 * 100 }' /proc/uptime; }

{
	echo "kernel=$(uname -r)"
	echo "quick=${BENCH_QUICK:-0}"
	echo "disk_sectors=$(cat /sys/block/vda/size)"
	echo "rotational=$(cat /sys/block/vda/queue/rotational)"
} >$out/env.txt

# The guest's I/O scheduler (BENCH_SCHED: none or mq-deadline; "default"
# or unset: the kernel's choice) and the job's queue depth (BENCH_QD).
q=/sys/block/vda/queue
case ${BENCH_SCHED:-default} in
default) ;;
none|mq-deadline)
	echo "$BENCH_SCHED" >$q/scheduler 2>/dev/null
	grep -q "\[$BENCH_SCHED\]" $q/scheduler ||
		{ echo "guest-scenario: cannot set the scheduler to $BENCH_SCHED (have: $(cat $q/scheduler))"; exit 2; } ;;
*) echo "guest-scenario: BENCH_SCHED=$BENCH_SCHED: use none or mq-deadline"; exit 2 ;;
esac
{
	echo "scheduler=$(sed -n "s/.*\[\(.*\)\].*/\1/p" $q/scheduler)"
	echo "nr_requests=$(cat $q/nr_requests)"
	echo "qd=${BENCH_QD:-1}"
} >>$out/env.txt

if [ "$job" = zones ]; then
	# O_DIRECT sequential read at the start vs the end of the disk.
	mib=$(( $(cat /sys/block/vda/size) / 2048 ))
	echo "zone,skip_mib,mib,seconds" >$out/zones.csv
	for z in start end; do
		skip=0
		[ $z = end ] && skip=$((mib - 64))
		t0=$(uptime_cs)
		dd if=/dev/vda of=/dev/null bs=1M count=64 iflag=direct skip=$skip 2>$out/dd.err ||
			{ cat $out/dd.err; echo "guest-scenario: dd at $z failed"; exit 1; }
		t1=$(uptime_cs)
		echo "$z,$skip,64,$(awk -v a=$t0 -v b=$t1 'BEGIN { printf "%.2f", (b - a) / 100 }')" >>$out/zones.csv
	done
	emit env.txt $out/env.txt
	emit zones.csv $out/zones.csv
	exit 0
fi

[ -r "$job" ] || { echo "guest-scenario: job file '$job' not found"; exit 2; }
mke2fs -q -t ext4 -E lazy_itable_init=1,lazy_journal_init=1 /dev/vda || exit 1
# noatime: under relatime the first read after a write dirties the inode, and
# its journal commit 5 s later sends the head to the journal mid-job
mount -o noatime,noinit_itable /dev/vda /mnt || exit 1
mkdir -p /mnt/bench
# The paths and sizes the job files take from the environment.
. "$(dirname "$0")/job-env.sh"
echo "bench_size=$BENCH_SIZE bench_io=$BENCH_IO bench_nrfiles=$BENCH_NRFILES" | tr " " "\n" >>$out/env.txt
# fio does not make the directories of directory=a:b:c; make them here.
for d in $(sed -n 's/^directory=//p' "$job" | sed -e "s|\${HOTCOLD_MNT}|$HOTCOLD_MNT|g" \
	-e "s|\${HOTCOLD_FSROOT}|$HOTCOLD_FSROOT|g" | tr ':' ' '); do
	mkdir -p "$d"
done
cd /mnt/bench
fio --output-format=json --output=$out/fio.out "$job" >$out/fio.stdout 2>$out/fio.stderr
rc=$?
for c in honoured dropped_nonrot dropped_noperm fallback; do
	f=/sys/fs/ext4/vda/hint_$c
	[ -r $f ] && echo "hint_$c=$(cat $f)" >>$out/env.txt
done
[ -r /sys/fs/ext4/vda/hint_honoured ] && echo "knows_flags=1" >>$out/env.txt || echo "knows_flags=0" >>$out/env.txt
echo "fio_rc=$rc" >>$out/env.txt
for f in env.txt fio.out fio.stderr placement.csv seek.csv; do
	[ -f $out/$f ] && emit $f $out/$f
done
[ $rc = 0 ] || { echo "guest-scenario: fio exited with status $rc"; cat $out/fio.stderr; }
exit $rc
