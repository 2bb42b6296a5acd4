# SPDX-License-Identifier: GPL-2.0
# bench/measures/measure-pair.sh - the measure "pair" (bench/measures/measures.sh): a
# scenario tagged pair=NAME runs the job file of scenario NAME on the other
# kernel; the first such pair among the seq scenarios and among the rand
# ones give the stock-vs-patched table: median sequential read MB/s (fio's
# clock, seq.csv) and median random-read service time p50 on the disk's
# clock (disk.csv) per job, patched beside stock.
#   summary/compare.csv       scenario,measure,job,patched,stock: a row per
#                             job of the pair (scenario: the one tagged)
#   summary/compare-seq.csv, compare-rand.csv
#                             job,patched,stock: the figure's input
#   figures/stock-vs-patched  plots/bench-stock-vs-patched.gp

pair_files() { echo compare.csv; }
pair_needs() { echo seq; }

pair_summarise() {
	local out=$1 sum=$1/summary m p s t rc=0
	echo "scenario,measure,job,patched,stock" >"$sum/compare.csv"
	for m in seq rand; do
		read -r p s <<<"$(scen_pairs "$out" "$m" | head -n 1)"
		[ -n "${p:-}" ] || continue
		# the scenario that carries the tag
		t=$s; scen "$out" pair | grep -qx "$p" && t=$p
		case $m in
		# sequential reads: fio's MB/s (median)
		seq) [ ! -f "$sum/seq.csv" ] || awk -F, -v p="$p" -v s="$s" -v t="$t" -v need="scenario job mb_s_median" "$CSV_AWK"'
			$C["job"] ~ /-read$/ { v[$C["scenario"] "," $C["job"]] = $C["mb_s_median"]; j[$C["job"]] = 1 }
			END { if (csv_bad) exit 2
				for (k in j) if ((p "," k) in v || (s "," k) in v) printf "%s,seq,%s,%s,%s\n", t, k, v[p "," k], v[s "," k] }' "$sum/seq.csv" ;;
		# random reads: service time at the disk (median p50), the disk's clock
		rand) awk -F, -v p="$p" -v s="$s" -v t="$t" -v need="scenario job metric value_median" "$CSV_AWK"'
			$C["metric"] == "service_p50_ms" && ($C["scenario"] == p || $C["scenario"] == s) { v[$C["scenario"] "," $C["job"]] = $C["value_median"]; j[$C["job"]] = 1 }
			END { if (csv_bad) exit 2; for (k in j) printf "%s,rand,%s,%s,%s\n", t, k, v[p "," k], v[s "," k] }' "$sum/disk.csv" ;;
		esac | sort >>"$sum/compare.csv" || rc=1
	done
	for m in seq rand; do
		tab "$sum/compare.csv" "measure job patched stock" 'BEGIN { print "job,patched,stock" } $C["measure"] == m { print $C["job"] "," $C["patched"] "," $C["stock"] }' -v m="$m" \
			>"$sum/compare-$m.csv" || rc=1
	done
	return $rc
}

pair_plots() {
	if has "$1/summary/compare-seq.csv" && has "$1/summary/compare-rand.csv"; then
		draw stock-vs-patched bench-stock-vs-patched.gp -e "dir='$1/summary'"
	else skip stock-vs-patched "compare-{seq,rand}.csv"; fi
}

pair_page() {
	local sum=$1/summary
	has "$sum/compare.csv" || return 0
	echo
	echo "## Stock vs patched kernel (same job files)"
	echo
	echo "| measure | job | patched | stock |"
	echo "|---|---|---|---|"
	tab "$sum/compare.csv" "measure job patched stock" 'BEGIN { l["seq"] = "seq read MB/s"; l["rand"] = "randread service p50 ms (disk)" }
		{ printf "| %s | %s | %.2f | %.2f |\n", l[$C["measure"]], $C["job"], $C["patched"], $C["stock"] }'
	echo
	fig stock-vs-patched "stock vs patched"
}
