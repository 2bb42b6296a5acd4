# SPDX-License-Identifier: GPL-2.0
# bench/measures/measure-seq.sh - the measure "seq" (bench/measures/measures.sh): MB/s of each
# sequential job (a job named *-read or *-write) on fio's clock (its JSON),
# every finished run, and the mean position of the job's files (the
# engine's placement log), beside the model's rate there.
#   summary/seq-runs.csv      scenario,run,job,mb_s,pos_frac
#   summary/seq.csv           scenario,job,mb_s_median,mb_s_min,mb_s_max,runs
#   summary/seq-position.csv  pos_frac,mb_s,job: every run's job at its position
#   summary/seq-model.csv     scenario,job,pos_frac,model_mb_s: the model's
#                             sequential rate (hdd-rate.csv) at the job's
#                             mean position
#   figures/throughput-position  plots/bench-throughput-position.gp
# Its headline: the scenario tagged headline=A/B with seq, job A / job B.

seq_files() { echo seq.csv; }

seq_summarise() {
	local out=$1 sum=$1/summary n d pos rc=0 gib curve
	echo "scenario,run,job,mb_s,pos_frac" >"$sum/seq-runs.csv"
	for d in $(finished_runs "$out" seq); do
		n=$(basename "$(dirname "$d")")
		need "$d/fio.json" && need "$d/placement.csv" || continue
		# mean position (fraction of the device) of each job's files
		pos=$(awk -F, -v need="kind job pos_start pos_end" "$CSV_AWK"'
			$C["kind"] == "file" && $C["pos_start"] != "" { p[$C["job"]] += ($C["pos_start"] + $C["pos_end"]) / 2; c[$C["job"]]++ }
			END { if (csv_bad) exit 2; for (j in p) printf "%s=%.4f ", j, p[j] / c[j] }' "$d/placement.csv") || rc=1
		jq -r '.jobs[] | select(.jobname | test("-(read|write)$")) | "\(.jobname),\((.read.bw_bytes + .write.bw_bytes) / 1e6)"' "$d/fio.json" |
		while IFS=, read -r job mbps; do
			# the job's files: those of the jobs with its name's stem (hot-read reads hot-write's files)
			echo "$n,$(basename "$d"),$job,$mbps,$(echo "$pos" | tr ' ' '\n' | sed -n "s/^${job%-*}-[a-z]*=//p" | head -n 1)"
		done
	done >>"$sum/seq-runs.csv"
	median_table "$sum/seq-runs.csv" "scenario job" mb_s >"$sum/seq.csv" || rc=1
	awk -F, -v need="scenario job mb_s pos_frac" "$CSV_AWK"'BEGIN { print "pos_frac,mb_s,job" }
		$C["pos_frac"] != "" { print $C["pos_frac"] "," $C["mb_s"] "," $C["scenario"] ":" $C["job"] }
		END { if (csv_bad) exit 2 }' "$sum/seq-runs.csv" >"$sum/seq-position.csv" || rc=1
	# the model's sequential rate at each job's mean file position
	gib=$(sed -n 's/^disk=\([0-9]*\)G$/\1/p' "$out/run-env.txt" 2>/dev/null)
	need "$sum/hdd-rate.csv" || return 1
	curve=$(tab "$sum/hdd-rate.csv" "lba_gib mb_per_s" '{ printf "%s:%s ", $C["lba_gib"] / g, $C["mb_per_s"] }' -v g="${gib:-64}") || rc=1
	{ echo "scenario,job,pos_frac,model_mb_s"
		tab "$sum/seq-runs.csv" "scenario job pos_frac" 'BEGIN { n = split(curve, P, " "); for (i = 1; i <= n; i++) { split(P[i], xy, ":"); x[i] = xy[1]; y[i] = xy[2] } }
		$C["pos_frac"] != "" && !(($C["scenario"] "," $C["job"]) in seen) { seen[$C["scenario"] "," $C["job"]] = 1
			r = y[1]; for (i = 1; i <= n && x[i] <= $C["pos_frac"]; i++) r = y[i]
			printf "%s,%s,%s,%.2f\n", $C["scenario"], $C["job"], $C["pos_frac"], r }' -v curve="$curve"; } >"$sum/seq-model.csv" || rc=1
	return $rc
}

seq_plots() {
	plot_of "$1/summary/seq-position.csv" throughput-position bench-throughput-position.gp -e "dir='$1/summary'" \
		-e "disk_gib=$(sed -n 's/^disk=\([0-9]*\)G$/\1/p' "$1/run-env.txt")" -e "profile='$(sed -n 's/^profile=//p' "$1/run-env.txt")'"
}

seq_headline() {
	local sum=$1/summary s a b hot cold mh mc
	read -r s a b <<<"$(scen_headline "$1" seq)"
	[ -n "${s:-}" ] || return 0
	hot=$(csv_get "$sum/seq.csv" mb_s_median scenario="$s" job="$a") cold=$(csv_get "$sum/seq.csv" mb_s_median scenario="$s" job="$b")
	[ -n "$hot" ] || return 0
	echo "- sequential O_DIRECT read, $a / $b ($s): **$(ratio "$hot" "$cold")** ($(r2 "$hot") / $(r2 "$cold") MB/s, medians) vs zone ratio $(csv_get "$sum/zone-ratio.csv" zone_ratio)"
	mh=$(csv_get "$sum/seq-model.csv" model_mb_s scenario="$s" job="$a") mc=$(csv_get "$sum/seq-model.csv" model_mb_s scenario="$s" job="$b")
	[ -z "$mh" ] || [ -z "$mc" ] ||
		echo "  - the model's rate where the two files lie (mean positions $(csv_get "$sum/seq-model.csv" pos_frac scenario="$s" job="$a") and $(csv_get "$sum/seq-model.csv" pos_frac scenario="$s" job="$b") of the disk): $mh / $mc MB/s, ratio **$(ratio "$mh" "$mc")**; the zone ratio is the upper bound (outermost vs innermost track)"
}

seq_page() {
	local sum=$1/summary
	has "$sum/seq.csv" || return 0
	echo
	echo "## Sequential O_DIRECT throughput ($(scen_jobs "$1" seq))"
	echo
	echo "MB/s (10^6 B/s), median of the runs (min-max)."
	echo
	echo "| scenario | job | MB/s | runs |"
	echo "|---|---|---|---|"
	tab "$sum/seq.csv" "scenario job mb_s_median mb_s_min mb_s_max runs" '{
		printf "| %s | %s | %s | %s |\n", $C["scenario"], $C["job"], mmm($C["mb_s_median"], $C["mb_s_min"], $C["mb_s_max"]), $C["runs"] }'
	echo
	fig throughput-position "throughput vs position, with the model's zoned rate"
}
