#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Turn the raw files of a benchmark run (bench/runners/run.sh) into the CSVs that
# plots/*.gp and bench/measures/results.sh read, all in OUT/summary/, each with a
# header row.  First what every run has (below); then each measure of the
# run's scenarios summarises its own (bench/measures/measures.sh, bench/measures/measure-*.sh).
#   fio.json, fio-messages.txt  each run's fio.out split (the engine's
#                      messages, then fio's JSON)
#   disk-runs.csv      scenario,run,job,hotness,metric,value: hc-tracejoin's
#                      summary of every run (bench/runners/run.sh joined the model's
#                      trace with the engine's seek log; a run that joined
#                      fewer than 99% of its reads never got here)
#   disk.csv           scenario,job,hotness,metric,value_median,value_min,
#                      value_max,runs: the same across the runs
#   cdf-disk-SCENARIO-JOB.csv  service_ms,frac: service time on the disk's
#                      clock, every run pooled
#   zone-ratio.csv     zone_ratio,outer_mb_s,inner_mb_s: the model's
#                      outermost / innermost sequential rate (hdd-rate.csv)
# Usage: bench/measures/summarise.sh OUT
set -u
out=${1:?usage: bench/measures/summarise.sh OUT}
sum=$out/summary
mkdir -p "$sum"
command -v jq >/dev/null || { echo "summarise: jq missing (vm/lib/install-deps.sh plot)" >&2; exit 2; }
# csv_get, median_table, ok_run (bench/measures/lib.sh); which scenarios measure
# what: OUT/scenarios (bench/measures/scen.sh); the measures (bench/measures/measures.sh)
. "$(dirname "$0")/lib.sh" || exit 2
. "$(dirname "$0")/scen.sh" && scen_init "$out" || exit 2
. "$(dirname "$0")/measures.sh" || exit 2
rc=0
# a failed run's files are not read (ok_run; the page lists the failure).
# need FILE: a finished run's input is missing or empty: say which, and fail.
need() { [ -s "$1" ] || { echo "summarise: $1 missing or empty" >&2; rc=1; return 1; }; }

for raw in "$out"/*/run*/fio.out; do
	[ -f "$raw" ] || continue
	d=$(dirname "$raw")
	ok_run "$d" || continue
	awk -v j="$d/fio.json" -v m="$d/fio-messages.txt" \
		'/^\{/ { json = 1 } { print > (json ? j : m) }' "$raw"
	[ -f "$d/fio-messages.txt" ] || : >"$d/fio-messages.txt"
	jq -e .jobs "$d/fio.json" >/dev/null 2>&1 ||
		{ echo "summarise: $d/fio.json is not fio JSON" >&2; rc=1; }
done

m="service_p50_ms service_p99_ms service_mean_ms engine_p50_ms engine_p99_ms overhead_p50_ms disk_mb_s match_frac"
echo "scenario,run,job,hotness,metric,value" >"$sum/disk-runs.csv"
for f in "$out"/*/run*/join-summary.csv; do
	[ -f "$f" ] || continue
	d=$(dirname "$f")
	ok_run "$d" || continue
	awk -F, -v n="$(basename "$(dirname "$d")")" -v r="$(basename "$d")" -v m="$m" -v need="job hotness reads $m" "$CSV_AWK"'
		$C["reads"] > 0 { k = split(m, M, " "); for (i = 1; i <= k; i++) printf "%s,%s,%s,%s,%s,%s\n", n, r, $C["job"], $C["hotness"], M[i], $C[M[i]] }
		END { if (csv_bad) exit 2 }' "$f" >>"$sum/disk-runs.csv" || rc=1
done
median_table "$sum/disk-runs.csv" "scenario job hotness metric" value >"$sum/disk.csv" || rc=1
rm -f "$sum"/cdf-disk-*.csv
for s in "$out"/*/; do
	n=$(basename "$s")
	ls "$s"run*/cdf/*.csv >/dev/null 2>&1 || continue
	for j in $(ls "$s"run*/cdf/*.csv | xargs -n 1 basename | sort -u); do
		awk -F, -v need=service_ms "$CSV_AWK"'{ print $C["service_ms"] } END { if (csv_bad) exit 2 }' "$s"run*/cdf/"$j" | sort -g |
			awk '{ v[NR] = $1 } END { print "service_ms,frac"; for (i = 1; i <= NR; i++) print v[i] "," i / NR }' \
			>"$sum/cdf-disk-$n-$j"
	done
done
need "$sum/hdd-rate.csv" &&
	tab "$sum/hdd-rate.csv" mb_per_s '{ if (!n++) o = $C["mb_per_s"]; i = $C["mb_per_s"] }
		END { print "zone_ratio,outer_mb_s,inner_mb_s"; if (i > 0) printf "%.3f,%.2f,%.2f\n", o / i, o, i }' >"$sum/zone-ratio.csv" || rc=1

# the measures of the run's scenarios, each after the ones it reads
measures_load "$out" || rc=1
measures_summarise "$out" || rc=1
exit $rc
