# SPDX-License-Identifier: GPL-2.0
# Sequential 1 MiB O_DIRECT read rate of one file per hint on the aged
# filesystem, on the disk model's clock (median, error bars min-max of the
# runs), against fullness, with the model's outermost and innermost
# sequential rates drawn in.  Reads DIR/aged-seq.csv (bench/measures/measure-aged.sh).
# Usage: gnuplot -e "set loadpath 'plots'" -e "dir='build/bench/summary'" \
#                -e "outer=65.85" -e "inner=31.48" -e "out='...'" -e "fmt='png'" \
#                plots/bench-aged-seq.gp
if (!exists("dir")) { print "set dir='.../summary' (see header)"; exit status 2 }
if (!exists("outer") || !exists("inner")) { print "set outer= and inner= (MB/s, the model's zone rates)"; exit status 2 }
load "bench-common.gp"
if (!exists("disk")) disk = ""
set title sprintf("Aged ext4%s: sequential O_DIRECT read rate by hint vs fullness (disk model's clock)", disk eq "" ? "" : ", ".disk." disk") noenhanced
set xlabel "fullness of the aged filesystem (% of blocks in use)"
set ylabel "read rate (MB/s, 10^6 B/s)"
set yrange [0:outer * 1.15]
set xrange [40:100]
set key outside right noenhanced
f = dir."/aged-seq.csv"
plot outer with lines lw 1 dt 3 lc rgb "#444444" title sprintf("model: outermost zone %.1f MB/s", outer), \
     inner with lines lw 1 dt 4 lc rgb "#444444" title sprintf("model: innermost zone %.1f MB/s", inner), \
     f using 1:2:3:4 skip 1 with yerrorlines lw 2 pt 7 lc rgb "#d62728" title "O_HOT file", \
     f using 1:5:6:7 skip 1 with yerrorlines lw 2 pt 5 lc rgb "#1f77b4" title "O_COLD file", \
     f using 1:8:9:10 skip 1 with yerrorlines lw 2 pt 9 lc rgb "#444444" title "unhinted file"
