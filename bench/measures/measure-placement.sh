# SPDX-License-Identifier: GPL-2.0
# bench/measures/measure-placement.sh - the measure "placement" (bench/measures/measures.sh):
# where ext4 put many small files by creation hint, from run 1's placement
# log (the engine's, ioengines/hotcold.md) of the first scenario that
# measures it (bench/jobs/placement.fio).
#   summary/placement-hist.csv    group,hot,cold,none: files per block group
#   summary/placement-ngroups.txt the filesystem's block groups
#   summary/placement-thirds.csv  hotness,third,files,frac
#   figures/placement             plots/bench-placement.gp

placement_files() { echo placement-thirds.csv:any placement-hist.csv:any; }

placement_summarise() {
	local out=$1 sum=$1/summary p d f rc=0
	for p in $(scen "$out" placement | head -n 1); do
		d=$out/$p/run1
		ok_run "$d" && need "$d/placement.csv" || continue
		f=$d/placement.csv
		awk -F, -v need="kind hotness ngroups first_group" "$CSV_AWK"'
			$C["kind"] == "file" && $C["first_group"] != "" { x = $C["first_group"]; c[x "," $C["hotness"]]++; g[x] = 1; ng = $C["ngroups"] }
			END { if (csv_bad) exit 2; print "group,hot,cold,none"
				for (x in g) printf "%d,%d,%d,%d\n", x, c[x ",hot"], c[x ",cold"], c[x ",none"]
				print ng > "/dev/stderr" }' "$f" 2>"$sum/placement-ngroups.txt" >"$sum/placement-hist.tmp" ||
			{ cat "$sum/placement-ngroups.txt" >&2; rc=1; }
		{ head -n 1 "$sum/placement-hist.tmp"; tail -n +2 "$sum/placement-hist.tmp" | sort -t, -k1,1n; } >"$sum/placement-hist.csv" &&
			rm -f "$sum/placement-hist.tmp"
		awk -F, -v need="kind hotness third" "$CSV_AWK"'
			$C["kind"] == "file" { k = $C["hotness"] "," $C["third"]; c[k]++; h[$C["hotness"]]++ }
			END { if (csv_bad) exit 2; for (k in c) { split(k, a, ","); printf "%s,%s,%d,%.3f\n", a[1], a[2], c[k], c[k] / h[a[1]] } }' \
			"$f" | sort | { echo "hotness,third,files,frac"; cat; } >"$sum/placement-thirds.csv"
	done
	return $rc
}

placement_plots() {
	plot_of "$1/summary/placement-hist.csv" placement bench-placement.gp -e "dir='$1/summary'"
}

placement_page() {
	local sum=$1/summary p
	[ -s "$sum/placement-thirds.csv" ] || return 0
	p=$(scen "$1" placement | head -n 1)
	echo
	echo "## Placement ($(awk -v s="$p" '!/^#/ && $1 == s { print "bench/jobs/" $3; exit }' "$1/scenarios"))"
	echo
	echo "Files per third of the disk by creation hint (run 1; $(cat "$sum/placement-ngroups.txt") block groups)."
	echo
	echo "| hint | third | files | fraction |"
	echo "|---|---|---|---|"
	tab "$sum/placement-thirds.csv" "hotness third files frac" '{ printf "| %s | %s | %s | %s |\n", $C["hotness"], $C["third"], $C["files"], $C["frac"] }'
	echo
	fig placement "files per block group"
}
