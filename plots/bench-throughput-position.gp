# SPDX-License-Identifier: GPL-2.0
# Sequential O_DIRECT throughput of each fio job (bench/jobs/seq.fio) against
# where its file lies on the disk, over the drive model's zoned rate.
# Reads DIR/seq-position.csv (pos_frac,mb_s,job) and DIR/hdd-rate.csv
# (lba_gib,cylinder,mb_per_s from build/hdd/hdd-curves); disk_gib is the
# modelled disk's size in GiB; DIR/zones-position.csv (pos_frac,mb_s: the
# raw-disk dd reads at both ends).
# Usage: gnuplot -e "set loadpath 'plots'" -e "dir='build/bench/summary'" -e "disk_gib=64" \
#                -e "profile='desktop7200'" -e "out='...'" -e "fmt='png'" \
#                plots/bench-throughput-position.gp
if (!exists("dir")) { print "set dir='.../summary' (see header)"; exit status 2 }
if (!exists("disk_gib")) disk_gib = 64
if (!exists("profile")) profile = ""
load "bench-common.gp"
set title sprintf("Sequential throughput vs position on the disk (%s)", profile) noenhanced
set xlabel "position of the file (fraction of the disk from the outer edge)"
set ylabel "throughput (MB/s, 10^6 B/s)"
set xrange [0:1]
set yrange [0:*]
set key bottom left noenhanced
plot dir."/hdd-rate.csv" using ($1 / disk_gib):3 skip 1 with lines lw 2 lc rgb "#444444" title "model: sequential read rate", \
     dir."/seq-position.csv" using 1:(strstrt(strcol(3), "read") ? $2 : NaN) skip 1 with points pt 7 ps 1.3 title "fio reads (bench/jobs/seq.fio)", \
     dir."/seq-position.csv" using 1:(strstrt(strcol(3), "write") ? $2 : NaN) skip 1 with points pt 5 ps 1.1 title "fio writes (bench/jobs/seq.fio)", \
     dir."/zones-position.csv" using 1:2 skip 1 with points pt 9 ps 1.6 lc rgb "#d62728" title "raw disk, dd 64 MiB"
