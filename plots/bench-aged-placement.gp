# SPDX-License-Identifier: GPL-2.0
# Where each set of files landed on the aged filesystem, against how full
# it was, in two panels: the fraction of the set's bytes in the first
# third of the disk (left) and in the last third (right), for the hot (H),
# cold (C) and unhinted (N) sets, with the kernel's region reserve off
# (solid) and on (dashed).  Every series has its own colour; the points of
# each series are set apart by 0.6 on the x axis so that sets at the same
# value (H and C sit at 0 and 1) stay visible (the title says so).  Reads DIR/aged-thirds.csv
# (bench/measures/measure-aged.sh): fill, the reserve-off columns, then the
# same with _on; NaN where the run has no such scenario.
# Usage: gnuplot -e "set loadpath 'plots'" -e "dir='build/bench/summary'" \
#                -e "disk='8G'" -e "out='...'" -e "fmt='png'" plots/bench-aged-placement.gp
if (!exists("dir")) { print "set dir='.../summary' (see header)"; exit status 2 }
load "bench-common.gp"
if (!exists("disk")) disk = ""
f = dir."/aged-thirds.csv"
set xlabel "fullness of the aged filesystem (% of blocks in use)"
set yrange [-0.05:1.05]
set xrange [40:100]
set key noenhanced
set multiplot title sprintf("Aged ext4%s, patched kernel, ageing seed 1: share of each set's bytes by position on the disk\n(the series' points are set apart on the x axis by up to 1.5 for legibility)", disk eq "" ? "" : ", ".disk." disk") noenhanced
# the two panels above, the key across the bottom
set lmargin at screen 0.07
set rmargin at screen 0.47
set tmargin at screen 0.84
set bmargin at screen 0.30
set title "first third of the disk (outer, fast)" noenhanced
set ylabel "fraction of the set's bytes"
unset key
plot f using ($1-1.5):2 skip 1 with linespoints lw 2 pt 7 lc rgb "#d62728" notitle, \
     f using ($1-0.9):12 skip 1 with linespoints lw 2 dt 2 pt 6 lc rgb "#ff7f0e" notitle, \
     f using ($1-0.3):4 skip 1 with linespoints lw 2 pt 5 lc rgb "#1f77b4" notitle, \
     f using ($1+0.3):14 skip 1 with linespoints lw 2 dt 2 pt 4 lc rgb "#9467bd" notitle, \
     f using ($1+0.9):6 skip 1 with linespoints lw 2 pt 9 lc rgb "#444444" notitle, \
     f using ($1+1.5):16 skip 1 with linespoints lw 2 dt 2 pt 8 lc rgb "#2ca02c" notitle
set lmargin at screen 0.57
set rmargin at screen 0.97
set title "last third of the disk (inner, slow)" noenhanced
set ylabel ""
plot f using ($1-1.5):3 skip 1 with linespoints lw 2 pt 7 lc rgb "#d62728" notitle, \
     f using ($1-0.9):13 skip 1 with linespoints lw 2 dt 2 pt 6 lc rgb "#ff7f0e" notitle, \
     f using ($1-0.3):5 skip 1 with linespoints lw 2 pt 5 lc rgb "#1f77b4" notitle, \
     f using ($1+0.3):15 skip 1 with linespoints lw 2 dt 2 pt 4 lc rgb "#9467bd" notitle, \
     f using ($1+0.9):7 skip 1 with linespoints lw 2 pt 9 lc rgb "#444444" notitle, \
     f using ($1+1.5):17 skip 1 with linespoints lw 2 dt 2 pt 8 lc rgb "#2ca02c" notitle
# the key: an empty plot across the whole width below the panels
set lmargin at screen 0.03
set rmargin at screen 0.97
set tmargin at screen 0.17
set bmargin at screen 0.01
unset title
unset xlabel
unset ylabel
unset tics
unset border
unset grid
set xrange [0:1]
set yrange [0:1]
set key at screen 0.5, 0.09 center center horizontal maxrows 2 width 2 samplen 3
plot NaN with linespoints lw 2 pt 7 lc rgb "#d62728" title "O_HOT (H), reserve off", \
     NaN with linespoints lw 2 dt 2 pt 6 lc rgb "#ff7f0e" title "O_HOT (H), reserve on", \
     NaN with linespoints lw 2 pt 5 lc rgb "#1f77b4" title "O_COLD (C), reserve off", \
     NaN with linespoints lw 2 dt 2 pt 4 lc rgb "#9467bd" title "O_COLD (C), reserve on", \
     NaN with linespoints lw 2 pt 9 lc rgb "#444444" title "unhinted (N), reserve off", \
     NaN with linespoints lw 2 dt 2 pt 8 lc rgb "#2ca02c" title "unhinted (N), reserve on"
unset multiplot
