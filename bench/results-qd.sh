#!/bin/bash
# RESULTS.md's command-queueing section (bench/results.sh calls it), from
# OUT/summary/qd*.csv (bench/summarise-qd.sh); prints Markdown, nothing when
# the run had no queueing scenario.
# Usage: bench/results-qd.sh OUT FIGDIR
set -u
out=${1:?usage: bench/results-qd.sh OUT FIGDIR}
figdir=${2:?usage: bench/results-qd.sh OUT FIGDIR}
sum=$out/summary
[ "$(wc -l <"$sum/qd-pairs.csv" 2>/dev/null || echo 0)" -gt 1 ] || exit 0
fig() { [ -f "$figdir/$1.png" ] && echo "- [$2](plots/figures/$1.png)"; return 0; }
# mm MED MIN MAX: "med (min-max)"
mm() { awk -v a="$1" -v b="$2" -v c="$3" 'BEGIN { if (b == c) printf "%.2f", a; else printf "%.2f (%.2f-%.2f)", a, b, c }'; }
# pcol SCENARIO PAIR COL: a column of qd-pairs.csv
pcol() { awk -F, -v s="$1" -v p="$2" -v c="$3" '$1 == s && $4 == p { print $c; exit }' "$sum/qd-pairs.csv"; }

echo
echo "## Command queueing: queue depth 1 vs 32 (bench/mixed-qd.fio, bench/randread-qd.fio)"
echo
echo "The drive model serves in arrival order at queue depth 1; at queue depth"
echo "32 it picks, among the first 32 requests waiting, the one with the"
echo "shortest positioning time (seek + rotational wait), and serves first any"
echo "request that has waited the aging bound (queue-age, 200 ms by default)."
echo "The job keeps as many reads in flight (fio iodepth, libaio, O_DIRECT,"
echo "4 KiB random reads) and the guest's I/O scheduler is set as named. In"
echo "bench/mixed-qd.fio two jobs run at once in each pair (hot + cold,"
echo "unhinted + unhinted, hot + hot), so every pair is compared with pairs."
if [ "$(sed -n 's/^quick=//p' "$out/run-env.txt" 2>/dev/null | tail -n 1)" = 1 ]; then sz="16 MiB" io="1 MiB"; else sz="64 MiB" io="8 MiB"; fi
echo "A fresh ext4 per run; each set is 4 files of $sz (bench/job-env.sh's"
echo "BENCH_SIZE), each job reads $io of it (BENCH_IO). All numbers but"
echo "fio's clat are on the disk model's clock (its trace, joined read by read"
echo "with the engine's log). Positioning = seek + rotation per read; response"
echo "= arrival at the drive to end (queue wait + service); \"most at the drive\""
echo "= the most reads the trace shows queued or in service at once, which is"
echo "what the host really gave the drive to choose from. Median of the runs"
echo "(min-max)."
echo
echo "| scenario | queue depth | scheduler | pair | reads/s of the pair | positioning per read (ms) | response mean (ms) | most at the drive | runs |"
echo "|---|---|---|---|---|---|---|---|---|"
tail -n +2 "$sum/qd-pairs.csv" | sort -t, -k1,1V -k4,4 | while IFS=, read -r s qd sch p nj i1 i2 i3 p1 p2 p3 r1 r2 r3 a1 a2 a3 runs; do
	echo "| $s | $qd | $sch | $p ($nj job$([ "$nj" = 1 ] || echo s)) | $(mm "$i1" "$i2" "$i3") | $(mm "$p1" "$p2" "$p3") | $(mm "$r1" "$r2" "$r3") | $a3 | $runs |"
done
echo
# What queueing takes back of the cost of reading hot and cold at once:
# positioning per read of the hot+cold pair minus that of the hot+hot pair,
# at each queue depth, same scheduler
lines=$(for sch in none mq-deadline; do
	s1=qd-mixed-1-${sch#mq-} s32=qd-mixed-32-${sch#mq-}
	c1=$(pcol "$s1" hc 9) h1=$(pcol "$s1" hh 9) c32=$(pcol "$s32" hc 9) h32=$(pcol "$s32" hh 9)
	i1=$(pcol "$s1" hc 6) j1=$(pcol "$s1" hh 6) i32=$(pcol "$s32" hc 6) j32=$(pcol "$s32" hh 6)
	[ -n "$c1" ] && [ -n "$h1" ] && [ -n "$c32" ] && [ -n "$h32" ] || continue
	awk -v sch="$sch" -v c1="$c1" -v h1="$h1" -v c32="$c32" -v h32="$h32" -v i1="$i1" -v j1="$j1" -v i32="$i32" -v j32="$j32" 'BEGIN {
		d1 = c1 - h1; d32 = c32 - h32
		printf "- scheduler %s: reading hot and cold at once costs **%.2f ms** more positioning per read than hot and hot at queue depth 1 (%.2f vs %.2f ms), **%.2f ms** at queue depth 32 (%.2f vs %.2f ms)", sch, d1, c1, h1, d32, c32, h32
		if (d1 > 0) printf ": queueing takes back **%.0f%%** of it", 100 * (d1 - d32) / d1
		printf ". Reads per second, hot+cold / hot+hot: %.3f at depth 1, %.3f at depth 32.\n", (j1 > 0 ? i1 / j1 : 0), (j32 > 0 ? i32 / j32 : 0) }'
done)
if [ -n "$lines" ]; then echo "$lines"; echo; fi
echo "Per job (the disk's clock but the last column, fio's clat p50 in the guest):"
echo
echo "| scenario | job | reads | response p50 (ms) | response mean (ms) | queue wait mean (ms) | positioning mean (ms) | fio clat p50 (guest, ms) | runs |"
echo "|---|---|---|---|---|---|---|---|---|"
tail -n +2 "$sum/qd.csv" | sort -t, -k1,1V -k4,4 | while IFS=, read -r s qd sch j n1 n2 n3 a1 a2 a3 b1 b2 b3 q1 q2 q3 p1 p2 p3 c1 c2 c3 runs; do
	echo "| $s | $j | $n1 | $(mm "$a1" "$a2" "$a3") | $(mm "$b1" "$b2" "$b3") | $(mm "$q1" "$q2" "$q3") | $(mm "$p1" "$p2" "$p3") | $(mm "$c1" "$c2" "$c3") | $runs |"
done
echo
fig qd-mixed "positioning per read and reads/s per pair, bench/mixed-qd.fio"
fig qd-randread "positioning per read and reads/s, bench/randread-qd.fio"
