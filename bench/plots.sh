#!/bin/bash
# Draw the figures of a benchmark run with plots/bench-*.gp, PNG and SVG,
# into OUT/figures/ from the CSVs of OUT/summary/ (bench/summarise.sh).
# A figure whose input the run did not make is skipped with a note.
# Usage: bench/plots.sh OUT
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: bench/plots.sh OUT}
sum=$out/summary fig=$out/figures
mkdir -p "$fig"
command -v gnuplot >/dev/null || { echo "plots: gnuplot missing (vm/lib/install-deps.sh plot)" >&2; exit 2; }
profile=$(sed -n 's/^profile=//p' "$out/run-env.txt")
disk_gib=$(sed -n 's/^disk=\([0-9]*\)G$/\1/p' "$out/run-env.txt")
. "$top/bench/scen.sh" && scen_init "$out" || exit 2
. "$top/bench/lib.sh" || exit 2
rc=0

has() { [ "$(wc -l 2>/dev/null <"$1" 2>/dev/null || echo 0)" -gt 1 ]; }
draw() { # name script gnuplot-assignments...
	local name=$1 gp=$2 t; shift 2
	for t in png svg; do
		gnuplot -e "set loadpath '$top/plots'" "$@" -e "out='$fig/$name'" -e "fmt='$t'" \
			"$top/plots/$gp" 2>"$fig/$name.$t.log" ||
			{ echo "plots: plots/$gp failed for $name.$t:" >&2; cat "$fig/$name.$t.log" >&2; rc=1; continue; }
		[ -s "$fig/$name.$t.log" ] || rm -f "$fig/$name.$t.log"
	done
}
skip() { echo "  PLOT    $1: skipped (no $2 in this run)"; }

# the measures with a file of their own (bench/measures.sh)
. "$top/bench/measures.sh" || exit 2
for m in $(measures_of "$out"); do
	measure_load "$m" || { rc=1; continue; }
	! declare -F "${m}_plots" >/dev/null || "${m}_plots" "$out"
done

for s in $(scen "$out" rand fresh); do
	files="" titles=""
	for j in $([ ! -f "$sum/rand.csv" ] || awk -F, -v s="$s" -v need="scenario job" "$CSV_AWK"'$C["scenario"] == s { print $C["job"] } END { if (csv_bad) exit 2 }' "$sum/rand.csv"); do
		f=$sum/cdf-lat-$s-$j.csv
		[ -f "$f" ] || continue
		files="$files $f" titles="$titles $j"
	done
	if [ -n "$files" ]; then
		draw "latency-cdf-$s" bench-latency-cdf.gp -e "files='$files'" \
			-e "titles='$titles'" -e "what='(bench/$s)'" -e "logx=1"
		draw "seek-cdf-$s" bench-latency-cdf.gp -e "files='${files//cdf-lat-/cdf-seek-}'" \
			-e "titles='$titles'" -e "what='(bench/$s): seek distance'" \
			-e "xlab='seek distance from the previous request (MiB of LBA)'"
	else skip "latency-cdf-$s" "cdf-lat-$s-*.csv"; fi
done

# service time at the disk (the model's trace joined with the seek log)
for s in $(scen "$out" rand); do
	files="" titles=""
	for j in $([ ! -f "$sum/disk.csv" ] || awk -F, -v s="$s" -v need="scenario job metric" "$CSV_AWK"'$C["scenario"] == s && $C["metric"] == "service_p50_ms" { print $C["job"] }
			END { if (csv_bad) exit 2 }' "$sum/disk.csv"); do
		# the sequential jobs of a scenario (seq.csv's) have no random-read CDF
		[ -z "$(csv_get "$sum/seq.csv" job scenario="$s" job="$j")" ] || continue
		f=$sum/cdf-disk-$s-$j.csv
		[ -f "$f" ] && files="$files $f" titles="$titles $j"
	done
	if [ -n "$files" ]; then
		draw "service-cdf-$s" bench-latency-cdf.gp -e "files='$files'" -e "titles='$titles'" \
			-e "what='(bench/$s, disk model clock)'" -e "logx=1" \
			-e "xlab='service time at the disk, arrival to end (ms, model trace)'"
	else skip "service-cdf-$s" "cdf-disk-$s-*.csv"; fi
done
# the page's answer: H/N and C/N against fullness, reserve off and on
if has "$sum/aged-answer.csv"; then draw answer bench-answer.gp -e "dir='$sum'" -e "disk='$(sed -n 's/^disk=//p' "$out/run-env.txt")'"
else skip answer aged-answer.csv; fi
if has "$sum/aged-thirds.csv"; then draw aged-placement bench-aged-placement.gp -e "dir='$sum'"
else skip aged-placement aged-thirds.csv; fi
if has "$sum/aged-seq.csv" && [ -s "$sum/zone-ratio.csv" ]; then
	draw aged-seq bench-aged-seq.gp -e "dir='$sum'" -e "outer=$(csv_get "$sum/zone-ratio.csv" outer_mb_s)" \
		-e "inner=$(csv_get "$sum/zone-ratio.csv" inner_mb_s)"
else skip aged-seq aged-seq.csv; fi

if has "$sum/seq-position.csv"; then
	draw throughput-position bench-throughput-position.gp -e "dir='$sum'" \
		-e "disk_gib=${disk_gib:-64}" -e "profile='$profile'"
else skip throughput-position seq-position.csv; fi

if has "$sum/trace-seek.csv"; then
	draw seek-latency bench-seek-latency.gp -e "dir='$sum'" -e "profile='$profile'"
else skip seek-latency trace-seek.csv; fi

# command queueing: positioning per read and reads/s per pair (bench/summarise-qd.sh)
for k in mixed:hc,nn,hh:hot+cold,unhinted+unhinted,hot+hot randread:hot,none:hot,unhinted; do
	IFS=: read -r kind pairs titles <<<"$k"
	if has "$sum/qd-wide-$kind.csv"; then
		draw "qd-$kind" bench-qd.gp -e "dir='$sum'" -e "kind='$kind'" -e "pairs='${pairs//,/ }'" \
			-e "titles='${titles//,/ }'"
	else skip "qd-$kind" "qd-wide-$kind.csv"; fi
done

if has "$sum/compare-seq.csv" && has "$sum/compare-rand.csv"; then
	draw stock-vs-patched bench-stock-vs-patched.gp -e "dir='$sum'"
else skip stock-vs-patched "compare-{seq,rand}.csv"; fi

ls "$fig"/*.png "$fig"/*.svg 2>/dev/null | sed 's/^/  PLOT    /'
exit $rc
