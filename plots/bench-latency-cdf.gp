# SPDX-License-Identifier: GPL-2.0
# Latency CDF of random 4 KiB reads, one curve per CSV (lat_ms,frac) as
# written by bench/measures/summarise.sh (DIR/cdf-lat-SCENARIO-JOB.csv).
# Usage: gnuplot -e "set loadpath 'plots'" -e "files='a.csv b.csv'" -e "titles='hot none'" \
#                -e "what='randread, patched kernel'" -e "out='.../latency-cdf'" \
#                -e "fmt='png'" plots/bench-latency-cdf.gp
if (!exists("files")) { print "set files='cdf1.csv cdf2.csv ...' (see header)"; exit status 2 }
if (!exists("titles")) titles = files
if (!exists("what")) what = ""
# logx=1: logarithmic x axis (latency spans 0.1 to 100+ ms)
if (!exists("xlab")) xlab = "read latency (ms)"
load "bench-common.gp"
set title sprintf("CDF of random 4 KiB read latency: hot vs cold vs unhinted files %s", what) noenhanced
set xlabel xlab
set ylabel "fraction of reads"
set yrange [0:1]
if (exists("logx") && logx) { set logscale x; set xrange [*:*] } else { set xrange [0:*] }
set key bottom right noenhanced
# twelve colours, none used twice in a figure of up to twelve curves (the
# default cycle repeats after eight); a pair's job (a title with a dash:
# hc-hot, nn-a) is dashed, a set read alone is solid
colors = "#1b9e77 #d95f02 #7570b3 #e7298a #66a61e #e6ab02 #a6761d #666666 #1f78b4 #000000 #b15928 #6a3d9a"
plot for [i=1:words(files)] word(files, i) using 1:2 skip 1 with steps lw 2 \
	lc rgb word(colors, (i - 1) % 12 + 1) dt 1 + (strstrt(word(titles, i), "-") > 0) title word(titles, i)
