# SPDX-License-Identifier: GPL-2.0
# Sequential 1 MiB O_DIRECT read rate of one file per hint on the aged
# filesystem, on the disk model's clock (median, error bars min-max of the
# runs, which are ageing seeds where the scenario has several), against
# fullness, with the kernel's region reserve off (solid) and on (dashed),
# and the model's outermost and innermost sequential rates drawn in.  Each
# series has its own colour; its points are set apart on the x axis by up
# to 1.25 so that bars at one fullness do not hide each other.  Reads
# DIR/aged-seq.csv (bench/measures/measure-aged.sh): fill, the reserve-off
# columns, then the same with _on; NaN where the run has no such scenario.
# Usage: gnuplot -e "set loadpath 'plots'" -e "dir='build/bench/summary'" \
#                -e "outer=65.85" -e "inner=31.48" -e "out='...'" -e "fmt='png'" \
#                plots/bench-aged-seq.gp
if (!exists("dir")) { print "set dir='.../summary' (see header)"; exit status 2 }
if (!exists("outer") || !exists("inner")) { print "set outer= and inner= (MB/s, the model's zone rates)"; exit status 2 }
load "bench-common.gp"
if (!exists("disk")) disk = ""
set title sprintf("Aged ext4%s, patched kernel: sequential 1 MiB O_DIRECT read rate of one file by hint vs fullness\n(disk model's clock; median over runs, bars min-max; points set apart by up to 1.25 for legibility)", disk eq "" ? "" : ", ".disk." disk") noenhanced
set xlabel "fullness of the aged filesystem (% of blocks in use)"
set ylabel "read rate (MB/s, 10^6 B/s)"
set yrange [0:outer * 1.15]
set xrange [40:100]
set key outside below horizontal maxrows 3 noenhanced
f = dir."/aged-seq.csv"
plot outer with lines lw 1 dt 3 lc rgb "#000000" title sprintf("model: outermost zone %.1f MB/s", outer), \
     inner with lines lw 1 dt 4 lc rgb "#8c564b" title sprintf("model: innermost zone %.1f MB/s", inner), \
     f using ($1-1.25):2:3:4 skip 1 with yerrorlines lw 2 pt 7 lc rgb "#d62728" title "O_HOT file, reserve off", \
     f using ($1-0.75):14:15:16 skip 1 with yerrorlines lw 2 dt 2 pt 6 lc rgb "#ff7f0e" title "O_HOT file, reserve on", \
     f using ($1-0.25):5:6:7 skip 1 with yerrorlines lw 2 pt 5 lc rgb "#1f77b4" title "O_COLD file, reserve off", \
     f using ($1+0.25):17:18:19 skip 1 with yerrorlines lw 2 dt 2 pt 4 lc rgb "#9467bd" title "O_COLD file, reserve on", \
     f using ($1+0.75):8:9:10 skip 1 with yerrorlines lw 2 pt 9 lc rgb "#444444" title "unhinted file, reserve off", \
     f using ($1+1.25):20:21:22 skip 1 with yerrorlines lw 2 dt 2 pt 8 lc rgb "#2ca02c" title "unhinted file, reserve on"
