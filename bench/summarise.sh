#!/bin/bash
# Turn the raw files of a benchmark run (bench/run.sh) into the CSVs that
# plots/*.gp and bench/results.sh read, all in OUT/summary/.  Repeated
# runs: per-run numbers in *-runs.csv, median/min/max in the other files;
# latency and seek-distance CDFs pool every run.
# Usage: bench/summarise.sh OUT
set -u
out=${1:?usage: bench/summarise.sh OUT}
sum=$out/summary
mkdir -p "$sum"
command -v jq >/dev/null || { echo "summarise: jq missing (vm/lib/install-deps.sh plot)" >&2; exit 2; }
# the engine's logs, the model's trace and hc-tracejoin's files are read by
# column name (bench/csv.awk, $CSV_AWK): a missing column fails, naming the
# file; ok_run and stats: bench/lib.sh
. "$(dirname "$0")/lib.sh" || exit 2
# which scenarios measure what: OUT/scenarios (bench/scen.sh)
. "$(dirname "$0")/scen.sh" && scen_init "$out" || exit 2
rc=0
# a failed run's files are not read (ok_run; the page lists the failure).
# need FILE: a finished run's input is missing or empty: say which, and fail.
need() { [ -s "$1" ] || { echo "summarise: $1 missing or empty" >&2; rc=1; return 1; }; }

# fio's --output mixes the engine's messages with the JSON: split them.
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

# ---- sequential throughput (the scenarios that measure seq): MB/s per job (fio's clock)
for n in $(scen "$out" seq); do
	s=$out/$n
	for d in "$s"/run*; do
		ok_run "$d" || continue
		need "$d/fio.json" && need "$d/placement.csv" || continue
		# mean position (fraction of the device) of each job's files
		pos=$(awk -F, -v need="kind job pos_start pos_end" "$CSV_AWK"'
			$C["kind"] == "file" && $C["pos_start"] != "" { p[$C["job"]] += ($C["pos_start"] + $C["pos_end"]) / 2; c[$C["job"]]++ }
			END { if (csv_bad) exit 2; for (j in p) printf "%s=%.4f ", j, p[j] / c[j] }' "$d/placement.csv") || rc=1
		jq -r '.jobs[] | select(.jobname | test("-(read|write)$")) |
			[.jobname, ((.read.bw_bytes + .write.bw_bytes) / 1e6)] | @csv' "$d/fio.json" |
		tr -d '"' | while IFS=, read -r job mbps; do
			h=${job%-*}
			p=$(echo "$pos" | tr ' ' '\n' | sed -n "s/^$h-[a-z]*=//p" | head -n 1)
			echo "$n,$(basename "$d"),$job,$mbps,${p:-}"
		done
	done
done >"$sum/seq-runs.csv"
awk -F, '{ print $1 ":" $3 "," $4 }' "$sum/seq-runs.csv" | stats |
	awk -F, 'BEGIN { print "scenario,job,mb_s_median,mb_s_min,mb_s_max,runs" }
		{ split($1, a, ":"); print a[1] "," a[2] "," $2 "," $3 "," $4 "," $5 }' >"$sum/seq.csv"
# throughput vs position (patched seq runs, reads and writes)
awk -F, 'BEGIN { print "pos_frac,mb_s,job" } $5 != "" { print $5 "," $4 "," $1 ":" $3 }' \
	"$sum/seq-runs.csv" >"$sum/seq-position.csv"

# the model's sequential rate at each job's mean file position (patched seq)
disk_gib=$(sed -n 's/^disk=\([0-9]*\)G$/\1/p' "$out/run-env.txt" 2>/dev/null)
need "$sum/hdd-rate.csv"
awk -F, -v g="${disk_gib:-64}" 'NR == FNR { if (FNR > 1) { x[++n] = $1 / g; y[n] = $3 }; next }
	$5 != "" && !(($1 "," $3) in seen) { seen[$1 "," $3] = 1; r = y[1]; for (i = 1; i <= n && x[i] <= $5; i++) r = y[i]
		printf "%s,%s,%s,%.2f\n", $1, $3, $5, r }' "$sum/hdd-rate.csv" - <"$sum/seq-runs.csv" |
	{ echo "scenario,job,pos_frac,model_mb_s"; cat; } >"$sum/seq-model.csv"

# ---- random reads (the scenarios that measure rand): each 4 KiB read of the seek log
for n in $(scen "$out" rand); do
	s=$out/$n
	for d in "$s"/run*; do
		ok_run "$d" || continue
		need "$d/seek.csv" || continue
		awk -F, -v n="$n" -v r="$(basename "$d")" -v need="job ddir len seek_sectors lat_ns" "$CSV_AWK"'
			$C["ddir"] == "read" && $C["len"] == 4096 {
			print n "," r "," $C["job"] "," $C["lat_ns"] / 1e6 "," $C["seek_sectors"] / 2048 }
			END { if (csv_bad) exit 2 }' "$d/seek.csv" || rc=1
	done
done >"$sum/rand-ios.csv"
# per run: mean and p50/p99 latency (ms) from fio's own statistics (clat:
# the engine gives fio the submission time, ioengines/hotcold.md), the
# number of 4 KiB reads and the mean seek distance (MiB) from the seek log
for n in $(scen "$out" rand); do
	for d in "$out/$n"/run*; do
		ok_run "$d" && need "$d/fio.json" || continue
		jq -r --arg n "$n" --arg r "$(basename "$d")" '.jobs[] | select(.read.total_ios > 0) |
			[$n, $r, .jobname, .read.clat_ns.mean / 1e6,
			 .read.clat_ns.percentile["50.000000"] / 1e6, .read.clat_ns.percentile["99.000000"] / 1e6] | @csv' \
			"$d/fio.json" | tr -d '"' || { echo "summarise: $d/fio.json: no clat_ns of fio's" >&2; rc=1; }
	done
done >"$sum/rand-fio.csv"
sort -t, -k1,3 "$sum/rand-ios.csv" | awk -F, '
	function flush() { if (n) { k = a "," b "," c
		if (!(k in mean)) { print "summarise: no fio clat for job " c " of " a "/" b " (fio.json)" > "/dev/stderr"; bad = 1; return }
		printf "%s,%s,%s,%d,%.4f,%.4f,%.4f,%.1f\n", a, b, c, n, mean[k], p50[k], p99[k], sd / n } }
	FILENAME != "-" { k = $1 "," $2 "," $3; mean[k] = $4; p50[k] = $5; p99[k] = $6; next }
	$1 "," $2 "," $3 != key { flush(); key = $1 "," $2 "," $3; a = $1; b = $2; c = $3; n = sd = 0 }
	{ n++; sd += $5 } END { flush(); exit bad }' "$sum/rand-fio.csv" - >"$sum/rand-runs.csv" || rc=1
for col in 5 6 7 8; do
	awk -F, -v c=$col '{ print $1 ":" $3 "," $c }' "$sum/rand-runs.csv" | stats >"$sum/rand-col$col.tmp"
done
paste -d, "$sum/rand-col5.tmp" "$sum/rand-col6.tmp" "$sum/rand-col7.tmp" "$sum/rand-col8.tmp" |
	awk -F, 'BEGIN { print "scenario,job,lat_mean_ms,lat_mean_min,lat_mean_max,p50_ms,p50_min,p50_max,p99_ms,p99_min,p99_max,seek_mib,seek_mib_min,seek_mib_max,runs" }
	{ split($1, k, ":"); print k[1] "," k[2] "," $2 "," $3 "," $4 "," $7 "," $8 "," $9 "," $12 "," $13 "," $14 "," $17 "," $18 "," $19 "," $5 }' >"$sum/rand.csv"
rm -f "$sum"/rand-col*.tmp
# CDFs of latency and seek distance, every run pooled, one file per job
rm -f "$sum"/cdf-*.csv
cut -d, -f1,3 "$sum/rand-ios.csv" | sort -u | while IFS=, read -r n job; do
	awk -F, -v n="$n" -v j="$job" '$1 == n && $3 == j { print $4 }' "$sum/rand-ios.csv" | sort -g |
		awk '{ v[NR] = $1 } END { print "lat_ms,frac"; for (i = 1; i <= NR; i++) print v[i] "," i / NR }' \
		>"$sum/cdf-lat-$n-$job.csv"
	awk -F, -v n="$n" -v j="$job" '$1 == n && $3 == j { print $5 }' "$sum/rand-ios.csv" | sort -g |
		awk '{ v[NR] = $1 } END { print "seek_mib,frac"; for (i = 1; i <= NR; i++) print v[i] "," i / NR }' \
		>"$sum/cdf-seek-$n-$job.csv"
done

# ---- the disk model's view: service time vs seek distance (4 KiB reads)
echo "cyl_distance,service_ms" >"$sum/trace-seek.csv"
for s in $(scen "$out" rand fresh); do
	for d in "$out/$s"/run*; do
		ok_run "$d" && need "$d/trace.csv" || continue
		awk -F, -v need="op sectors cyl_distance start_us end_us" "$CSV_AWK"'
			$C["op"] == "read" && $C["sectors"] == 8 { printf "%s,%.4f\n", $C["cyl_distance"], ($C["end_us"] - $C["start_us"]) / 1000 }
			END { if (csv_bad) exit 2 }' "$d/trace.csv" || rc=1
	done
done >>"$sum/trace-seek.csv"

# ---- the measures with a file of their own (bench/measures.sh): placement, zones, iops, dirmark
. "$(dirname "$0")/measures.sh" || exit 2
for m in $(measures_of "$out"); do
	measure_load "$m" && "${m}_summarise" "$out" || rc=1
done

# the model's zone ratio: outermost / innermost sequential rate
awk -F, -v need="mb_per_s" "$CSV_AWK"'{ if (!n++) o = $C["mb_per_s"]; i = $C["mb_per_s"] }
	END { if (csv_bad) exit 2; print "zone_ratio,outer_mb_s,inner_mb_s"; if (i > 0) printf "%.3f,%.2f,%.2f\n", o / i, o, i }' \
	"$sum/hdd-rate.csv" >"$sum/zone-ratio.csv" || rc=1
# ---- the disk's clock: hc-tracejoin's summary of every run (bench/run.sh
# joined the model's trace with the engine's seek log), long format
# scenario,job,metric,median,min,max,runs; a run that joined fewer than 99%
# of its reads never got here (bench/run.sh failed it).
for f in "$out"/*/run*/join-summary.csv; do
	[ -f "$f" ] || continue
	d=$(dirname "$f")
	awk -F, -v n="$(basename "$(dirname "$d")")" -v r="$(basename "$d")" '
		FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
			split("service_p50_ms service_p99_ms service_mean_ms engine_p50_ms engine_p99_ms overhead_p50_ms disk_mb_s match_frac", m, " ")
			for (k in m) if (!(m[k] in c)) { print "summarise: " FILENAME ": no column " m[k] > "/dev/stderr"; exit 1 }
			next }
		$c["reads"] > 0 { for (k in m) printf "%s,%s,%s,%s,%s,%s\n", n, r, $c["job"], $c["hotness"], m[k], $c[m[k]] }' "$f" || rc=1
done >"$sum/disk-runs.csv"
awk -F, '{ print $1 ":" $3 ":" $4 ":" $5 "," $6 }' "$sum/disk-runs.csv" | stats |
	awk -F, 'BEGIN { print "scenario,job,hotness,metric,median,min,max,runs" }
		{ split($1, k, ":"); print k[1] "," k[2] "," k[3] "," k[4] "," $2 "," $3 "," $4 "," $5 }' >"$sum/disk.csv"
# service-time CDFs on the disk's clock, every run pooled, one file per job
rm -f "$sum"/cdf-disk-*.csv
for s in "$out"/*/; do
	n=$(basename "$s")
	ls "$s"run*/cdf/*.csv >/dev/null 2>&1 || continue
	for j in $(ls "$s"run*/cdf/*.csv | xargs -n 1 basename | sort -u); do
		awk -F, 'FNR > 1 { print $1 }' "$s"run*/cdf/"$j" | sort -g |
			awk '{ v[NR] = $1 } END { print "service_ms,frac"; for (i = 1; i <= NR; i++) print v[i] "," i / NR }' \
			>"$sum/cdf-disk-$n-$j"
	done
done

# ---- aged filesystems: the image's state and each set's placement
"$(dirname "$0")/summarise-aged.sh" "$out" || rc=1

# ---- command queueing: service, queueing and positioning per job and pair
"$(dirname "$0")/summarise-qd.sh" "$out" || rc=1


# ---- promotion (the scenarios that measure promote): per run, where the
# moved set was before and after (hc-move's rows, fraction of its bytes in
# the first third), the move's time and I/O, and whether every file kept
# its inode and contents; all from the lines bench/guest-promote.sh added
# to the run's env.txt (promote_move=, promote_sum_before/after=, move_*=)
echo "scenario,run,files,moved,moved_mib,first_before,first_after,move_seconds,read_mib,write_mib,same_inode,same_sha256" \
	>"$sum/promote-runs.csv"
for n in $(scen "$out" promote); do
	for d in "$out/$n"/run*; do
		ok_run "$d" && need "$d/env.txt" || continue
		e=$d/env.txt
		grep -qx 'move_rc=0' "$e" || { echo "summarise: $e: the move failed or did not run ($(grep -m1 '^move_rc=' "$e" || echo 'no move_rc'))" >&2; rc=1; continue; }
		sed -n 's/^promote_move_header=//p; s/^promote_move=//p' "$e" >"$d/move.csv"
		mv_=$(awk -F, -v need="file outcome moved_bytes first_before first_after" "$CSV_AWK"'
			{ f++; if ($C["outcome"] == "moved") m++; b += $C["moved_bytes"]; fb += $C["first_before"]; fa += $C["first_after"] }
			END { if (csv_bad) exit 2; if (f) printf "%d,%d,%.1f,%.3f,%.3f", f, m, b / 1048576, fb / f, fa / f }' "$d/move.csv") || rc=1
		sm=$(awk -F, '/^promote_sum_before=/ { sub(/^[^=]*=/, ""); b[$1] = $2 "," $3; next }
			/^promote_sum_after=/ { sub(/^[^=]*=/, ""); f++; split(b[$1], x, ","); if (x[1] == $2) i++; if (x[2] == $3 && $3 != "") s++ }
			END { if (f) printf "%d of %d,%d of %d", i, f, s, f }' "$e")
		ev=$(awk -F= '$1 == "move_seconds" { t = $2 } $1 == "move_read_sectors" { rd = $2 } $1 == "move_write_sectors" { wr = $2 }
			END { if (t != "") printf "%s,%.1f,%.1f", t, rd / 2048, wr / 2048 }' "$e")
		[ -n "$mv_" ] && [ -n "$ev" ] && [ -n "$sm" ] ||
			{ echo "summarise: $e: no promote_move rows, move_* or promote_sum lines" >&2; rc=1; continue; }
		echo "$n,$(basename "$d"),$mv_,$ev,$sm"
	done
done >>"$sum/promote-runs.csv"

# ---- stock vs patched: the same job file on both kernels (the first pair=
# of bench/scenarios among the seq scenarios, and among the rand ones)
read -r sp ss <<<"$(scen_pairs "$out" seq | head -n 1)"
read -r rp rs <<<"$(scen_pairs "$out" rand | head -n 1)"
# sequential reads: fio's MB/s (median)
awk -F, -v p="$sp" -v s="$ss" 'NR > 1 && p != "" && $2 ~ /-read$/ { v[$1 "," $2] = $3; j[$2] = 1 }
	END { print "job,patched,stock"
		for (k in j) if ((p "," k) in v || (s "," k) in v) printf "%s,%s,%s\n", k, v[p "," k], v[s "," k] }' \
	"$sum/seq.csv" >"$sum/compare-seq.csv"
# random reads: service time at the disk (median p50), the disk's clock
awk -F, -v p="$rp" -v s="$rs" 'NR > 1 && p != "" && $4 == "service_p50_ms" && ($1 == p || $1 == s) { v[$1 "," $2] = $5; j[$2] = 1 }
	END { print "job,patched,stock"; for (k in j) printf "%s,%s,%s\n", k, v[p "," k], v[s "," k] }' \
	"$sum/disk.csv" >"$sum/compare-rand.csv"
exit $rc
