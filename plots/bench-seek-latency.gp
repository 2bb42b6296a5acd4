# SPDX-License-Identifier: GPL-2.0
# Service time of each 4 KiB read in the disk model's trace against the
# seek distance, with the profile's seek curve drawn over it.
# Reads DIR/trace-seek.csv (cyl_distance,service_ms) and DIR/hdd-seek.csv
# (distance_cyl,seek_ms from build/hdd/hdd-curves).
# Usage: gnuplot -e "set loadpath 'plots'" -e "dir='build/bench/summary'" -e "profile='desktop7200'" \
#                -e "out='...'" -e "fmt='png'" plots/bench-seek-latency.gp
if (!exists("dir")) { print "set dir='.../summary' (see header)"; exit status 2 }
if (!exists("profile")) profile = ""
load "bench-common.gp"
set title sprintf("4 KiB read service time vs seek distance (model trace, %s)", profile) noenhanced
set xlabel "seek distance (cylinders)"
set ylabel "service time: seek + rotation + transfer (ms)"
set xrange [0:*]
set yrange [0:*]
set key top left noenhanced
plot dir."/trace-seek.csv" using 1:2 skip 1 with points pt 7 ps 0.4 lc rgb "#1f77b4" title "reads in the trace", \
     dir."/hdd-seek.csv" using 1:2 skip 1 with lines lw 2 lc rgb "#d62728" title "model seek curve (seek time only)"
