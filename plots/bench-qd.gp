# SPDX-License-Identifier: GPL-2.0
# Command queueing: for each queueing scenario of one job file (queue depth
# and guest scheduler), the mean positioning time per read (seek + rotation,
# what the drive's choice of the next request saves) and the reads per
# second of each pair of jobs read at once, both on the disk model's clock
# (median, error bars min-max of the runs).  Reads DIR/qd-wide-KIND.csv
# (bench/measures/measure-qd.sh): label, then per pair pos med,min,max, then per
# pair iops med,min,max.
# Usage: gnuplot -e "set loadpath 'plots'" -e "dir='build/bench/summary'" \
#                -e "kind='mixed'" -e "pairs='hc nn hh'" \
#                -e "titles='hot+cold unhinted+unhinted hot+hot'" \
#                -e "out='...'" -e "fmt='png'" plots/bench-qd.gp
if (!exists("dir") || !exists("kind") || !exists("pairs")) { print "set dir=, kind= and pairs= (see header)"; exit status 2 }
if (!exists("titles")) titles = pairs
load "bench-common.gp"
f = dir."/qd-wide-".kind.".csv"
np = words(pairs)
set style data histogram
set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1
set key top right inside noenhanced
set xtics noenhanced rotate by 25 right
set bmargin 5
set yrange [0:*]
set multiplot layout 1,2 title sprintf("bench/jobs/%s-qd.fio: queue depth and guest scheduler (disk model's clock)", kind) noenhanced
set title "mean positioning per read (seek + rotation)"
set ylabel "ms"
plot for [i=1:np] f using (column(2 + 3*(i-1))):(column(3 + 3*(i-1))):(column(4 + 3*(i-1))):xtic(1) skip 1 title word(titles, i)
unset key
set title "reads per second of the pair"
set ylabel "reads/s"
plot for [i=1:np] f using (column(2 + 3*np + 3*(i-1))):(column(3 + 3*np + 3*(i-1))):(column(4 + 3*np + 3*(i-1))):xtic(1) skip 1 title word(titles, i)
unset multiplot
