# SPDX-License-Identifier: GPL-2.0
# bench/measures/measure-iops.sh - the measure "iops" (bench/measures/measures.sh): reads per
# second of each job of 4 KiB reads (an aged scenario's sequential jobs are
# left out) on the disk's clock: the job's reads that
# hc-tracejoin joined with the model's trace over the span from the first
# one's arrival at the drive to the last one's end (join-summary.csv:
# matched, first_arrival_us, last_end_us), every finished run of every
# scenario that measures it.  One request at a time (the job files'
# iodepth 1) makes it the inverse of the mean service time plus the gaps
# the guest leaves between requests.
#   summary/iops-runs.csv  scenario,run,job,reads,iops
#   summary/iops.csv       scenario,job,iops_median,iops_min,iops_max,runs

iops_files() { echo iops.csv; }

iops_summarise() {
	local out=$1 sum=$1/summary rc=0
	{ echo "scenario,run,job,reads,iops"
		per_run "$out" iops join-summary.csv "job reads bytes matched first_arrival_us last_end_us" '
			$C["bytes"] == 4096 * $C["reads"] && $C["matched"] > 0 && $C["last_end_us"] > $C["first_arrival_us"] {
				printf "%s,%s,%s,%d,%.2f\n", n, r, $C["job"], $C["matched"], $C["matched"] / (($C["last_end_us"] - $C["first_arrival_us"]) / 1e6) }'
	} >"$sum/iops-runs.csv" || rc=1
	median_table "$sum/iops-runs.csv" "scenario job" iops >"$sum/iops.csv" || rc=1
	return $rc
}

iops_page() {
	local sum=$1/summary
	has "$sum/iops.csv" || return 0
	echo
	echo "## Random reads per second on the disk's clock"
	echo
	echo "Each job's reads that the disk model's trace accounts for (hc-tracejoin),"
	echo "over the span from the first one's arrival at the drive to the last one's"
	echo "end; one request at a time. Median of the runs (min-max)."
	echo
	echo "| scenario | job | reads/s | runs |"
	echo "|---|---|---|---|"
	tab "$sum/iops.csv" "scenario job iops_median iops_min iops_max runs" '{
		printf "| %s | %s | %s | %s |\n", $C["scenario"], $C["job"], mmm($C["iops_median"], $C["iops_min"], $C["iops_max"]), $C["runs"] }'
}
