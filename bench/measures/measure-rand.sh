# SPDX-License-Identifier: GPL-2.0
# bench/measures/measure-rand.sh - the measure "rand" (bench/measures/measures.sh): 4 KiB
# random reads, per job and run: fio's own latency (clat: the engine gives
# fio the submission time, ioengines/hotcold.md) on the guest's clock, the
# seek distance from the engine's seek log, and the service time on the
# disk's clock (summary/disk.csv, hc-tracejoin's).
#   summary/rand-ios.csv    scenario,run,job,lat_ms,seek_mib: each 4 KiB read
#                           of the seek log
#   summary/rand-runs.csv   scenario,run,job,reads,lat_mean_ms,p50_ms,p99_ms,
#                           seek_mib: per run (latencies: fio's clat)
#   summary/rand.csv        scenario,job, then _median,_min,_max of
#                           lat_mean_ms p50_ms p99_ms seek_mib, runs
#   summary/cdf-lat-SCENARIO-JOB.csv, cdf-seek-...: every run pooled
#   summary/trace-seek.csv  cyl_distance,service_ms: the fresh scenarios'
#                           4 KiB reads in the model's trace
#   figures/latency-cdf-S, seek-cdf-S (fresh), service-cdf-S (every
#   scenario), seek-latency
# Its headline: the scenario tagged headline=A/B with rand, job A / job B.

rand_files() { echo rand.csv; }

rand_summarise() {
	local out=$1 sum=$1/summary n d rc=0 job
	echo "scenario,run,job,lat_ms,seek_mib" >"$sum/rand-ios.csv"
	echo "scenario,run,job,lat_mean_ms,p50_ms,p99_ms" >"$sum/rand-fio.csv"
	for d in $(finished_runs "$out" rand); do
		n=$(basename "$(dirname "$d")")
		need "$d/seek.csv" && need "$d/fio.json" || continue
		awk -F, -v n="$n" -v r="$(basename "$d")" -v need="job ddir len seek_sectors lat_ns" "$CSV_AWK"'
			$C["ddir"] == "read" && $C["len"] == 4096 { print n "," r "," $C["job"] "," $C["lat_ns"] / 1e6 "," $C["seek_sectors"] / 2048 }
			END { if (csv_bad) exit 2 }' "$d/seek.csv" >>"$sum/rand-ios.csv" || rc=1
		jq -r --arg n "$n" --arg r "$(basename "$d")" '.jobs[] | select(.read.total_ios > 0) |
			[$n, $r, .jobname, .read.clat_ns.mean / 1e6,
			 .read.clat_ns.percentile["50.000000"] / 1e6, .read.clat_ns.percentile["99.000000"] / 1e6] | @csv' \
			"$d/fio.json" | tr -d '"' >>"$sum/rand-fio.csv" || { echo "summarise: $d/fio.json: no clat_ns of fio's" >&2; rc=1; }
	done
	# per run: fio's latencies and the reads and mean seek distance of the seek log
	awk -F, -v need="scenario run job" "$CSV_AWK"'
		FILENAME ~ /rand-fio/ { k = $C["scenario"] "," $C["run"] "," $C["job"]; f[k] = sprintf("%.4f,%.4f,%.4f", $C["lat_mean_ms"], $C["p50_ms"], $C["p99_ms"]); next }
		{ k = $C["scenario"] "," $C["run"] "," $C["job"]; if (!(k in n)) o[++no] = k; n[k]++; sd[k] += $C["seek_mib"] }
		END { if (csv_bad) exit 2
			print "scenario,run,job,reads,lat_mean_ms,p50_ms,p99_ms,seek_mib"
			for (i = 1; i <= no; i++) { k = o[i]
				if (!(k in f)) { print "summarise: no fio clat for " k " (fio.json)" > "/dev/stderr"; bad = 1; continue }
				printf "%s,%d,%s,%.1f\n", k, n[k], f[k], sd[k] / n[k] }
			exit bad }' "$sum/rand-fio.csv" "$sum/rand-ios.csv" >"$sum/rand-runs.csv" || rc=1
	median_table "$sum/rand-runs.csv" "scenario job" "lat_mean_ms p50_ms p99_ms seek_mib" >"$sum/rand.csv" || rc=1
	# CDFs of latency and seek distance, every run pooled, one file per job
	rm -f "$sum"/cdf-lat-*.csv "$sum"/cdf-seek-*.csv
	awk -F, -v need="scenario job lat_ms seek_mib" -v dir="$sum" "$CSV_AWK"'
		{ k = $C["scenario"] "-" $C["job"]
			if (k != last) { if (last != "") { close(dir "/cdf-lat-" last ".tmp"); close(dir "/cdf-seek-" last ".tmp") }; last = k }
			if (opened[k]++) { print $C["lat_ms"] >> (dir "/cdf-lat-" k ".tmp"); print $C["seek_mib"] >> (dir "/cdf-seek-" k ".tmp") }
			else { print $C["lat_ms"] > (dir "/cdf-lat-" k ".tmp"); print $C["seek_mib"] > (dir "/cdf-seek-" k ".tmp") } }
		END { if (csv_bad) exit 2 }' "$sum/rand-ios.csv" || rc=1
	for f in "$sum"/cdf-lat-*.tmp "$sum"/cdf-seek-*.tmp; do
		[ -f "$f" ] || continue
		case $f in */cdf-lat-*) job=lat_ms ;; *) job=seek_mib ;; esac
		sort -g "$f" | awk -v h="$job" '{ v[NR] = $1 } END { print h ",frac"; for (i = 1; i <= NR; i++) print v[i] "," i / NR }' >"${f%.tmp}.csv"
		rm -f "$f"
	done
	# the disk model's view: service time vs seek distance (4 KiB reads, fresh scenarios)
	echo "cyl_distance,service_ms" >"$sum/trace-seek.csv"
	for n in $(scen "$out" rand fresh); do
		for d in "$out/$n"/run*; do
			ok_run "$d" && need "$d/trace.csv" || continue
			awk -F, -v need="op sectors cyl_distance start_us end_us" "$CSV_AWK"'
				$C["op"] == "read" && $C["sectors"] == 8 { printf "%s,%.4f\n", $C["cyl_distance"], ($C["end_us"] - $C["start_us"]) / 1000 }
				END { if (csv_bad) exit 2 }' "$d/trace.csv" || rc=1
		done
	done >>"$sum/trace-seek.csv"
	return $rc
}

# rand_jobs OUT SCENARIO: the jobs of SCENARIO's random reads (rand.csv)
rand_jobs() { [ ! -f "$1/summary/rand.csv" ] || tab "$1/summary/rand.csv" "scenario job" '$C["scenario"] == s { print $C["job"] }' -v s="$2"; }

rand_plots() {
	local out=$1 sum=$1/summary s j f files titles disk
	disk=$(sed -n 's/^disk=//p' "$out/run-env.txt" 2>/dev/null)
	disk=${disk:+, $disk disk}
	for s in $(scen "$out" rand fresh); do
		files="" titles=""
		for j in $(rand_jobs "$out" "$s"); do
			f=$sum/cdf-lat-$s-$j.csv
			[ -f "$f" ] && files="$files $f" titles="$titles $j"
		done
		if [ -n "$files" ]; then
			draw "latency-cdf-$s" bench-latency-cdf.gp -e "files='$files'" \
				-e "titles='$titles'" -e "what='(bench/$s$disk, guest clock)'" -e "logx=1"
			draw "seek-cdf-$s" bench-latency-cdf.gp -e "files='${files//cdf-lat-/cdf-seek-}'" \
				-e "titles='$titles'" -e "what='(bench/$s$disk): seek distance'" \
				-e "xlab='seek distance from the previous request (MiB of LBA)'"
		else skip "latency-cdf-$s" "cdf-lat-$s-*.csv"; fi
	done
	# service time at the disk (the model's trace joined with the seek log);
	# a scenario's sequential jobs (seq.csv's) have no random-read CDF
	for s in $(scen "$out" rand); do
		files="" titles=""
		for j in $([ ! -f "$sum/disk.csv" ] || tab "$sum/disk.csv" "scenario job metric" '$C["scenario"] == s && $C["metric"] == "service_p50_ms" { print $C["job"] }' -v s="$s"); do
			[ -z "$(csv_get "$sum/seq.csv" job scenario="$s" job="$j")" ] || continue
			f=$sum/cdf-disk-$s-$j.csv
			[ -f "$f" ] && files="$files $f" titles="$titles $j"
		done
		if [ -n "$files" ]; then
			draw "service-cdf-$s" bench-latency-cdf.gp -e "files='$files'" -e "titles='$titles'" \
				-e "what='(bench/$s$disk, disk model clock)'" -e "logx=1" \
				-e "xlab='service time at the disk, arrival to end (ms, model trace)'"
		else skip "service-cdf-$s" "cdf-disk-$s-*.csv"; fi
	done
	plot_of "$sum/trace-seek.csv" seek-latency bench-seek-latency.gp -e "dir='$sum'" -e "profile='$(sed -n 's/^profile=//p' "$out/run-env.txt")'"
}

rand_headline() {
	local sum=$1/summary s a b dh dn hl nl
	read -r s a b <<<"$(scen_headline "$1" rand)"
	[ -n "${s:-}" ] || return 0
	hl=$(csv_get "$sum/rand.csv" p50_ms_median scenario="$s" job="$a") nl=$(csv_get "$sum/rand.csv" p50_ms_median scenario="$s" job="$b")
	dh=$(csv_get "$sum/disk.csv" value_median scenario="$s" job="$a" metric=service_p50_ms)
	dn=$(csv_get "$sum/disk.csv" value_median scenario="$s" job="$b" metric=service_p50_ms)
	if [ -n "$dh" ]; then
		echo "- random 4 KiB reads on a fresh filesystem, $a / $b ($s), median service time at the disk (model's trace): **$(r2 "$dh") / $(r2 "$dn") ms** (ratio $(ratio "$dh" "$dn")); the engine's latency through the guest: $(r2 "$hl") / $(r2 "$nl") ms"
	elif [ -n "$hl" ]; then
		echo "- random 4 KiB reads, $a / $b ($s), engine latency only (no trace join in this run): $(r2 "$hl") / $(r2 "$nl") ms"
	fi
}

rand_page() {
	local out=$1 sum=$1/summary s j k
	[ -n "$(scen "$out" rand fresh)" ] && has "$sum/rand.csv" || return 0
	echo
	echo "## Random 4 KiB reads ($(scen_jobs "$out" rand fresh))"
	echo
	echo "Service time at the disk: arrival to end in the disk model's trace, joined"
	echo "request by request with the engine's seek log (the disk's clock). Engine"
	echo "latency: fio's clat percentiles (its JSON; the engine hands fio the time it"
	echo "submits each read), in the guest (the guest's clock, which adds TCG's"
	echo "overhead). Seek distance from the previous request, MiB of LBA."
	echo "Median of the runs (min-max), ms. In bench/jobs/mixed.fio every job runs with"
	echo "one other job at once (hot + cold, unhinted + unhinted, hot + hot)."
	echo
	echo "| scenario | job | service p50 (disk) | service p99 (disk) | engine p50 | engine p99 | mean seek distance (MiB) | runs |"
	echo "|---|---|---|---|---|---|---|---|"
	for s in $(scen "$out" rand fresh); do
		for j in $(rand_jobs "$out" "$s"); do
			k="scenario=$s job=$j"
			# shellcheck disable=SC2086
			echo "| $s | $j | $(csv_mmm "$sum/disk.csv" value $k metric=service_p50_ms) | $(csv_mmm "$sum/disk.csv" value $k metric=service_p99_ms) |" \
				"$(csv_mmm "$sum/rand.csv" p50_ms $k) | $(csv_mmm "$sum/rand.csv" p99_ms $k) | $(csv_mmm "$sum/rand.csv" seek_mib $k) | $(csv_get "$sum/rand.csv" runs $k) |"
		done
	done
	echo
	for s in $(scen "$out" rand fresh); do
		fig "service-cdf-$s" "service-time CDF at the disk, $s"
		fig "latency-cdf-$s" "engine latency CDF (guest clock), $s"
		fig "seek-cdf-$s" "seek-distance CDF, $s"
	done
	fig seek-latency "service time vs seek distance (model trace) with the model's seek curve"
}
