# SPDX-License-Identifier: GPL-2.0
# bench/measures/measure-pairiops.sh - the measure "pairiops" (bench/measures/measures.sh):
# reads per second of two jobs read at once, on the disk's clock.  The jobs
# of a pair share a name before "-" (bench/jobs/aged.fio and mixed.fio: hc-hot
# with hc-cold, nn-a with nn-b, hh-a with hh-b); a pair's reads per second
# are its jobs' 4 KiB reads that hc-tracejoin joined with the model's trace
# (join-summary.csv: matched) over the span from the first one's arrival at
# the drive to the last one's end, so a hot+cold pair whose head travels
# between the regions is set against an unhinted pair read the same way.
# The measure "iops" gives each job alone; this the pair as the drive saw it.
#   summary/pairiops-runs.csv  scenario,run,pair,jobs,reads,iops
#   summary/pairiops.csv       scenario,pair,iops_median,iops_min,iops_max,runs

pairiops_files() { echo pairiops.csv; }

pairiops_summarise() {
	local out=$1 sum=$1/summary rc=0
	{ echo "scenario,run,pair,jobs,reads,iops"
		per_run "$out" pairiops join-summary.csv "job reads bytes matched first_arrival_us last_end_us" '
			$C["job"] ~ /-/ && $C["bytes"] == 4096 * $C["reads"] && $C["matched"] > 0 {
				p = $C["job"]; sub(/-.*/, "", p)
				if (!(p in a) || $C["first_arrival_us"] < a[p]) a[p] = $C["first_arrival_us"]
				if ($C["last_end_us"] > e[p]) e[p] = $C["last_end_us"]
				m[p] += $C["matched"]; j[p] = j[p] (j[p] == "" ? "" : "+") $C["job"] }
			END { for (p in m) if (e[p] > a[p]) printf "%s,%s,%s,%s,%d,%.2f\n", n, r, p, j[p], m[p], m[p] / ((e[p] - a[p]) / 1e6) }'
	} >"$sum/pairiops-runs.csv" || rc=1
	median_table "$sum/pairiops-runs.csv" "scenario pair" iops >"$sum/pairiops.csv" || rc=1
	return $rc
}

pairiops_page() {
	local sum=$1/summary
	has "$sum/pairiops.csv" || return 0
	echo
	echo "## Two sets read at once: reads per second of the pair on the disk's clock"
	echo
	echo "Two jobs read 4 KiB at random at the same time, one request at a time each"
	echo "(hc: the hot set and the cold set; nn: two unhinted sets; hh: two hot sets)."
	echo "Reads per second of the pair: its reads that the model's trace accounts for"
	echo "(hc-tracejoin) over the span from the first one's arrival at the drive to the"
	echo "last one's end. Median of the runs (min-max); hc/nn: the pair of a hot and a"
	echo "cold set against two unhinted sets on the same image (below 1: slower)."
	echo
	echo "| scenario | pair | reads/s | hc / nn | runs |"
	echo "|---|---|---|---|---|"
	tab "$sum/pairiops.csv" "scenario pair iops_median iops_min iops_max runs" '{ k[++n] = $C["scenario"] SUBSEP $C["pair"]
			row[n] = sprintf("| %s | %s | %s |", $C["scenario"], $C["pair"], mmm($C["iops_median"], $C["iops_min"], $C["iops_max"])); runs[n] = $C["runs"]
			v[$C["scenario"], $C["pair"]] = $C["iops_median"] }
		END { for (i = 1; i <= n; i++) { split(k[i], x, SUBSEP)
			r = (x[2] == "hc" && v[x[1], "nn"] > 0) ? sprintf("%.3f", v[x[1], "hc"] / v[x[1], "nn"]) : "-"
			printf "%s %s | %s |\n", row[i], r, runs[i] } }'
}
