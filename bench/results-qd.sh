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
# mmm (the "median (min-max)"), csv_get, CSV_AWK, STATS_AWK: bench/lib.sh
. "$(dirname "$0")/lib.sh" || exit 2
# tab FILE NEED PROGRAM [AWK OPTIONS]: awk over a summary read by column name
tab() { local f=$1 need=$2 prog=$3; shift 3
	awk -F, -v need="$need" "$@" "$CSV_AWK$STATS_AWK"'function m(c) { return mmm($C[c "_med"], $C[c "_min"], $C[c "_max"]) }
	'"$prog"' END { if (csv_bad) exit 2 }' "$f"; }

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
echo "what the host really gave the drive to choose from. It is at most 16 at"
echo "queue depth 32: QEMU's NBD client, which carries the guest's disk to the"
echo "model, sends at most 16 requests at once (MAX_NBD_REQUESTS in QEMU's"
echo "block/nbd.c, a constant with no setting; nbdkit's own limit, 16 threads"
echo "per connection, is lifted by vm/hdd-model/serve.sh). Median of the runs"
echo "(min-max)."
echo
echo "| scenario | queue depth | scheduler | pair | reads/s of the pair | positioning per read (ms) | response mean (ms) | most at the drive | runs |"
echo "|---|---|---|---|---|---|---|---|---|"
tab "$sum/qd-pairs.csv" "scenario qd scheduler pair jobs iops_med pos_mean_med resp_mean_med at_drive_max runs" '{
	printf "%s,%s,| %s | %s | %s | %s (%s job%s) | %s | %s | %s | %s | %s |\n", $C["scenario"], $C["pair"], $C["scenario"], $C["qd"], $C["scheduler"],
		$C["pair"], $C["jobs"], $C["jobs"] == 1 ? "" : "s", m("iops"), m("pos_mean"), m("resp_mean"), $C["at_drive_max"], $C["runs"] }' |
	sort -t, -k1,1V -k2,2 | cut -d, -f3-
echo
# What queueing takes back of the cost of reading hot and cold at once:
# positioning per read of the hot+cold pair (hc) minus that of the hot+hot
# pair (hh), at queue depth 1 and 32, same scheduler (the scenarios are
# found by their qd and scheduler columns)
# pcol QD SCHEDULER PAIR COLUMN: a column of qd-pairs.csv
pcol() { csv_get "$sum/qd-pairs.csv" "$4" qd="$1" scheduler="$2" pair="$3"; }
lines=$(for sch in $(tab "$sum/qd-pairs.csv" scheduler '!s[$C["scheduler"]]++ { print $C["scheduler"] }' | sort -r); do
	c1=$(pcol 1 "$sch" hc pos_mean_med) h1=$(pcol 1 "$sch" hh pos_mean_med) c32=$(pcol 32 "$sch" hc pos_mean_med) h32=$(pcol 32 "$sch" hh pos_mean_med)
	i1=$(pcol 1 "$sch" hc iops_med) j1=$(pcol 1 "$sch" hh iops_med) i32=$(pcol 32 "$sch" hc iops_med) j32=$(pcol 32 "$sch" hh iops_med)
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
tab "$sum/qd.csv" "scenario job reads_med resp_p50_med resp_mean_med queue_mean_med pos_mean_med clat_p50_med runs" '{
	printf "%s,%s,| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $C["scenario"], $C["job"], $C["scenario"], $C["job"], $C["reads_med"],
		m("resp_p50"), m("resp_mean"), m("queue_mean"), m("pos_mean"), m("clat_p50"), $C["runs"] }' |
	sort -t, -k1,1V -k2,2 | cut -d, -f3-
echo
fig qd-mixed "positioning per read and reads/s per pair, bench/mixed-qd.fio"
fig qd-randread "positioning per read and reads/s, bench/randread-qd.fio"
