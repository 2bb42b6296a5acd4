# SPDX-License-Identifier: GPL-2.0
# The same job files on the patched and on the stock kernel: median
# sequential read throughput (bench/jobs/seq.fio) and median random-read
# service time at the disk (bench/jobs/randread.fio, the model trace joined
# with the seek log) per job.
# Reads DIR/compare-seq.csv and DIR/compare-rand.csv (job,patched,stock).
# Usage: gnuplot -e "set loadpath 'plots'" -e "dir='build/bench/summary'" -e "out='...'" -e "fmt='png'" \
#                plots/bench-stock-vs-patched.gp
if (!exists("dir")) { print "set dir='.../summary' (see header)"; exit status 2 }
load "bench-common.gp"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.7 border -1
set yrange [0:*]
set key top left horizontal
set offsets 0, 0, graph 0.15, 0
set multiplot layout 1,2 title "Patched vs stock kernel, same job files (median of the runs)"
set title "Sequential O\\_DIRECT read"
set ylabel "throughput (MB/s)"
plot dir."/compare-seq.csv" using 2:xtic(1) skip 1 title "patched", "" using 3 skip 1 title "stock"
set title "Random 4 KiB reads"
set ylabel "median service time at the disk (ms, model trace)"
plot dir."/compare-rand.csv" using 2:xtic(1) skip 1 title "patched", "" using 3 skip 1 title "stock"
unset multiplot
