# SPDX-License-Identifier: GPL-2.0
# Issue 26: the foreground reads' median service time per window of the
# disk model's clock, one line per arm (bench/runners/alternatives.sh), the median
# over the runs of each window's p50.
# Reads dir/fig-windows-ARM.csv (t_s,p50_ms,p99_ms,runs), written by
# bench/measures/summarise-alternatives.sh, for the arms that have one.
# Usage: gnuplot -e "set loadpath 'plots'" -e "dir='OUT/summary'" [-e "out='.../alternatives-p50'"] \
#                [-e "fmt='png'"] [-e "disk='8G'"] [-e "fill='80'"] plots/alternatives.gp
if (!exists("dir")) { print "set dir='OUT/summary' (see header)"; exit status 2 }
if (!exists("out")) out = dir."/alternatives-p50"
load "bench-common.gp"
arms = system("cd '".dir."' && ls fig-windows-*.csv 2>/dev/null | sed 's/fig-windows-//; s/.csv$//' | tr '\\n' ' '")
if (strlen(arms) == 0) { print "no fig-windows-*.csv in ".dir; exit status 2 }
name(a) = a eq "a" ? "a: stock, no hints" : a eq "b" ? "b: fast partition" : a eq "c" ? "c: O_HOT, right" : \
    a eq "d" ? "d: O_HOT, half wrong" : a eq "e" ? "e: hc-track only" : a eq "f" ? "f: half wrong + hc-track" : \
    a eq "g" ? "g: write-lifetime hints" : a
if (!exists("disk")) disk = ""
if (!exists("fill")) fill = ""
set title sprintf("Zipf reads over an aged ext4%s%s: median service time per window (disk model's clock)", \
    disk eq "" ? "" : ", ".disk." disk", fill eq "" ? "" : ", ".fill."% full") noenhanced
set xlabel "time since the first read, disk model's clock (s)"
set ylabel "p50 service time in the window (ms)"
set key bottom right noenhanced
set yrange [0:*]
plot for [a in arms] dir."/fig-windows-".a.".csv" using "t_s":"p50_ms" with linespoints pt 7 ps 0.5 lw 2 title name(a)
