# SPDX-License-Identifier: GPL-2.0
# Where ext4 put the files of bench/jobs/placement.fio: files per block group,
# one bar colour per creation hint (O_HOT, O_COLD, none).
# Reads DIR/placement-hist.csv (group,hot,cold,none) and, for the x range,
# DIR/placement-ngroups.txt, both written by bench/measures/summarise.sh.
# Usage: gnuplot -e "set loadpath 'plots'" -e "dir='build/bench/summary'" -e "out='build/bench/figures/placement'" \
#                -e "fmt='png'" plots/bench-placement.gp
if (!exists("dir")) { print "set dir='.../summary' (see header)"; exit status 2 }
load "bench-common.gp"
ng = system("cat ".dir."/placement-ngroups.txt 2>/dev/null") + 0
if (ng <= 0) ng = 512
set xrange [-ng / 50.0 : ng * 1.02]
w = ng / 120.0
set title "Files per ext4 block group by creation hint (bench/jobs/placement.fio)"
set xlabel "block group of the file's first extent (0 = outer edge of the disk)"
set ylabel "files"
set yrange [0:*]
set style fill solid 0.6 border -1
set boxwidth w absolute
set key top center
set offsets 0, 0, graph 0.15, 0
plot dir."/placement-hist.csv" using ($1 - w):2 skip 1 with boxes lc rgb "#d62728" title "O\\_HOT", \
     ""                        using 1:3 skip 1 with boxes lc rgb "#1f77b4" title "O\\_COLD", \
     ""                        using ($1 + w):4 skip 1 with boxes lc rgb "#7f7f7f" title "no hint"
