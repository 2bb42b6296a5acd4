#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs in the guest (vm/runner/run --out): a fio server for bench/scaleout.sh.
# Brings up the user-mode network (QEMU's slirp: guest 10.0.2.15), makes a
# fresh ext4 on /dev/vda, names the guest NAME (fio's JSON reports each
# server's hostname), starts `fio --server` on port 8765 and says so on
# stdout (@@FIO-SERVER-READY@@).  The host's fio client then sends the job
# files; the client expands their ${VARS}, with the guest's paths:
# /usr/lib/fio/hotcold.so, /mnt/bench, /out.  When the host connects to
# port 8766 the run is over: the server is stopped, and the engine's logs
# (placement.csv, seek.csv), the server's log and the hint counters
# (env.txt) are in /out, which vm/runner/run brings back.
# Usage: sh /tests/bench/guest-server.sh NAME [DIR...]
# DIRs: the jobs' directories, made after the mount (fio does not make them).
name=${1:?usage: guest-server.sh NAME [DIR...]}
shift
out=/out
[ -d $out ] || { echo "guest-server: no /out: run me under vm/runner/run --out DIR"; exit 2; }

hostname "$name"
ip link set eth0 up && ip addr add 10.0.2.15/24 dev eth0 &&
	ip route add default via 10.0.2.2 ||
	{ echo "guest-server: no network (eth0): is vm/runner/run given --hostfwd?"; exit 1; }
mke2fs -q -t ext4 -E lazy_itable_init=1,lazy_journal_init=1 /dev/vda || exit 1
# noatime: under relatime the first read after a write dirties the inode, and
# its journal commit 5 s later sends the head to the journal mid-job
mount -o noatime,noinit_itable /dev/vda /mnt || exit 1
mkdir -p /mnt/bench "$@" || exit 1

{
	echo "kernel=$(uname -r)"
	echo "hostname=$name"
	echo "disk_sectors=$(cat /sys/block/vda/size)"
	echo "rotational=$(cat /sys/block/vda/queue/rotational)"
} >$out/env.txt

# The end-of-run signal first, so that it is listening before the host can
# finish; then the server.
nc -l -p 8766 </dev/null >/dev/null 2>&1 &
ncpid=$!
cd /mnt/bench
fio --server=,8765 >$out/server.log 2>&1 &
fpid=$!
sleep 1
kill -0 $fpid 2>/dev/null || { echo "guest-server: fio --server did not start"; cat $out/server.log; exit 1; }
echo "@@FIO-SERVER-READY@@ $name"

wait $ncpid
kill $fpid 2>/dev/null
wait $fpid 2>/dev/null
for c in honoured dropped_nonrot dropped_noperm fallback; do
	f=/sys/fs/ext4/vda/hint_$c
	[ -r $f ] && echo "hint_$c=$(cat $f)" >>$out/env.txt
done
[ -r /sys/fs/ext4/vda/hint_honoured ] && echo "knows_flags=1" >>$out/env.txt || echo "knows_flags=0" >>$out/env.txt
cd /
umount /mnt || echo "guest-server: umount /mnt failed"
exit 0
