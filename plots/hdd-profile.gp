# SPDX-License-Identifier: GPL-2.0
# Figure of one nbdkit-hdd-filter drive profile: seek time vs seek
# distance (left) and sequential throughput vs LBA (right).
# Reads the CSVs written by build/hdd/hdd-curves (make hdd-plots):
#   PREFIX-seek.csv  distance_cyl,seek_ms
#   PREFIX-rate.csv  lba_gib,cylinder,mb_per_s
# Usage: gnuplot -e "prefix='build/plots/hdd-desktop7200'" \
#                -e "profile='desktop7200'" -e "fmt='png'" plots/hdd-profile.gp
# Writes PREFIX.png or PREFIX.svg.

if (!exists("prefix")) { print "set prefix='.../hdd-NAME' (see header)"; exit status 2 }
if (!exists("profile")) profile = prefix
if (!exists("fmt")) fmt = "png"

if (fmt eq "svg") {
    set terminal svg size 1100,450 dynamic enhanced font "sans,11"
} else {
    set terminal pngcairo size 1100,450 enhanced font "sans,10"
}
set output prefix.".".fmt
set datafile separator ","
set key off
set grid

set multiplot layout 1,2 title sprintf("Drive profile %s: seek curve and zoned sequential throughput", profile) noenhanced
set title "Seek time vs distance (Ruemmler-Wilkes)"
set xlabel "seek distance (cylinders)"
set ylabel "seek time (ms)"
set yrange [0:*]
plot prefix."-seek.csv" using 1:2 skip 1 with lines lw 2

set title "Sequential read throughput vs position"
set xlabel "LBA position (GiB from the outer edge)"
set ylabel "throughput (MB/s, 10^6 B/s)"
plot prefix."-rate.csv" using 1:3 skip 1 with lines lw 2
unset multiplot
