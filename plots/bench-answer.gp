# SPDX-License-Identifier: GPL-2.0
# The page's answer: random 4 KiB read service time of the O_HOT set (H)
# and of the O_COLD set (C), each over the unhinted set (N) of the same
# image, against the aged filesystem's fullness, with the kernel's region
# reserve off and on; the stock kernel's H/N (the hint ignored: doing
# nothing) beside them.  Median over the ageing seeds, error bars min-max;
# the disk model's clock.  Reads DIR/aged-answer.csv (bench/measures/measure-aged.sh).
# Usage: gnuplot -e "set loadpath 'plots'" -e "dir='build/bench/summary'" \
#                -e "disk='8G'" -e "out='...'" -e "fmt='png'" plots/bench-answer.gp
if (!exists("dir")) { print "set dir='.../summary' (see header)"; exit status 2 }
if (!exists("disk")) disk = "?"
load "bench-common.gp"
set title sprintf("Aged ext4, %s disk: random 4 KiB reads, service p50 of a set / the unhinted set\n(disk model's clock; median over ageing seeds, bars min-max; points set apart by 0.5 for legibility)", disk) noenhanced
set xlabel "fullness of the aged filesystem (% of blocks in use)"
set ylabel "service time p50, set / unhinted set N"
set xrange [40:100]
set size ratio 0
set yrange [0:*]
set key outside below horizontal maxrows 3 noenhanced
f = dir."/aged-answer.csv"
plot 1 with lines lw 1 dt 3 lc rgb "#444444" title "1: as fast as unhinted", \
     0.55 with lines lw 1 dt 4 lc rgb "#2ca02c" title "aim for H/N: 0.55", \
     f using ($1-0.75):2:3:4 skip 1 with yerrorlines lw 2 pt 7 lc rgb "#d62728" title "H/N, reserve off", \
     f using ($1-0.25):5:6:7 skip 1 with yerrorlines lw 2 dt 2 pt 6 lc rgb "#ff7f0e" title "H/N, reserve on", \
     f using ($1+0.25):8:9:10 skip 1 with yerrorlines lw 2 pt 5 lc rgb "#1f77b4" title "C/N, reserve off", \
     f using ($1+0.75):11:12:13 skip 1 with yerrorlines lw 2 dt 2 pt 4 lc rgb "#9467bd" title "C/N, reserve on", \
     f using ($1+1.25):14:15:16 skip 1 with yerrorbars pt 9 ps 1.5 lc rgb "#000000" title "H/N, stock kernel (hint ignored)"
