# SPDX-License-Identifier: GPL-2.0
# O_HOT vs O_COLD (and unhinted) files on ext4 over md RAID0 and dm-linear
# arrays of modelled disks, median of the runs with min-max bars, on the
# disk model's clock (bench/runners/arrays.sh).
#   what='seq'   sequential 2 MiB O_DIRECT reads: MB/s, the phase's bytes
#                over the array's drive time (seek + rotation + transfer of
#                the members' trace rows: the busiest member's on RAID0,
#                the members' added on dm-linear)
#   what='rand'  random 4 KiB O_DIRECT reads: median service time
# Reads csv, a row per array (bench/runners/arrays.sh's arrays-fig-WHAT.csv):
#   array,hot,hot_min,hot_max,cold,cold_min,cold_max,none,none_min,none_max
# Usage: gnuplot -e "set loadpath 'plots'" -e "csv='.../arrays-fig-seq.csv'" \
#                -e "what='seq'" -e "out='.../arrays-seq'" -e "fmt='png'" plots/arrays.gp
if (!exists("csv")) { print "set csv='.../arrays-fig-WHAT.csv' (see header)"; exit status 2 }
if (!exists("what") || (what ne "seq" && what ne "rand")) { print "set what='seq' or what='rand'"; exit status 2 }
load "bench-common.gp"
set key top left horizontal noenhanced
set style data histograms
set style histogram errorbars gap 2 lw 1
set style fill solid 0.7 border -1
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
set xlabel "array (members x layout)"
if (what eq "seq") {
    set title "Sequential 2 MiB O_DIRECT reads of each class's files, one at a time (disk model's clock)" noenhanced
    set ylabel "MB/s: bytes / the array's drive time"
} else {
    set title "Random 4 KiB O_DIRECT reads over each class's files, one at a time (disk model)" noenhanced
    set ylabel "median service time at the disk (ms)"
}
plot csv using "hot":"hot_min":"hot_max":xtic(1) title "O_HOT" lc rgb "#d62728", \
     "" using "cold":"cold_min":"cold_max" title "O_COLD" lc rgb "#1f77b4", \
     "" using "none":"none_min":"none_max" title "unhinted" lc rgb "#7f7f7f"
