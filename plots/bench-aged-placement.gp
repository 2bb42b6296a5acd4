# SPDX-License-Identifier: GPL-2.0
# Where each set of files landed on the aged filesystem, against how full
# it was: the fraction of the set's bytes in the first third of the disk
# (solid) and in the last third (dashed), for the hot (H), cold (C) and
# unhinted (N) sets.  Reads DIR/aged-thirds.csv (bench/measures/measure-aged.sh).
# Usage: gnuplot -e "set loadpath 'plots'" -e "dir='build/bench/summary'" \
#                -e "out='...'" -e "fmt='png'" plots/bench-aged-placement.gp
if (!exists("dir")) { print "set dir='.../summary' (see header)"; exit status 2 }
load "bench-common.gp"
if (!exists("disk")) disk = ""
set title sprintf("Aged ext4%s: share of each set's data in the first and last third of the disk vs fullness", disk eq "" ? "" : ", ".disk." disk") noenhanced
set xlabel "fullness of the aged filesystem (% of blocks in use)"
set ylabel "fraction of the set's bytes"
set yrange [0:1.05]
set xrange [40:100]
set key outside right noenhanced
f = dir."/aged-thirds.csv"
plot f using 1:2 skip 1 with linespoints lw 2 pt 7 lc rgb "#d62728" title "O_HOT (H): first third", \
     f using 1:3 skip 1 with linespoints lw 2 pt 7 dt 2 lc rgb "#d62728" title "O_HOT (H): last third", \
     f using 1:4 skip 1 with linespoints lw 2 pt 5 lc rgb "#1f77b4" title "O_COLD (C): first third", \
     f using 1:5 skip 1 with linespoints lw 2 pt 5 dt 2 lc rgb "#1f77b4" title "O_COLD (C): last third", \
     f using 1:6 skip 1 with linespoints lw 2 pt 9 lc rgb "#444444" title "unhinted (N): first third", \
     f using 1:7 skip 1 with linespoints lw 2 pt 9 dt 2 lc rgb "#444444" title "unhinted (N): last third"
