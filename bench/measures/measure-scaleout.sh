# SPDX-License-Identifier: GPL-2.0
# bench/measures/measure-scaleout.sh - the measure "scaleout" (bench/measures/measures.sh):
# both kernels booted at once, each running `fio --server`, one fio client
# on the host (bench/runners/scaleout.sh, which bench/runners/run.sh runs for these
# scenarios and which writes OUT/SCENARIO/scaleout.csv: host,job,bytes,
# mb_s,lat_mean_ms,error, fio's own statistics).
#   summary/scaleout.csv  scenario,host,job,bytes,mb_s,lat_mean_ms,error

scaleout_files() { echo scaleout.csv; }

scaleout_summarise() {
	local out=$1 sum=$1/summary n rc=0
	echo "scenario,host,job,bytes,mb_s,lat_mean_ms,error" >"$sum/scaleout.csv"
	for n in $(scen "$out" scaleout); do
		grep -q "^$n [0-9]* ok$" "$out/status" 2>/dev/null && need "$out/$n/scaleout.csv" || continue
		awk -F, -v n="$n" -v need="host job bytes mb_s lat_mean_ms error" "$CSV_AWK"'
			{ print n "," $C["host"] "," $C["job"] "," $C["bytes"] "," $C["mb_s"] "," $C["lat_mean_ms"] "," $C["error"] }
			END { if (csv_bad) exit 2 }' "$out/$n/scaleout.csv" >>"$sum/scaleout.csv" || rc=1
	done
	return $rc
}

scaleout_page() {
	local out=$1 sum=$1/summary so n e h c sa sb
	for so in $(scen "$out" scaleout); do
		rows_for "$sum/scaleout.csv" "$so" || continue
		echo
		echo "## Scale-out: two guests, one fio client (bench/runners/scaleout.sh)"
		echo
		echo "Both kernels booted at once, each on its own modelled disk and running"
		echo "\`fio --server\` behind a port forwarded on 127.0.0.1; the host's fio ran"
		echo "\`--client=$so/hosts.list\` with the same job file for both, in one run."
		echo "fio's JSON: \`${rel}/$so/fio.json\`. MB/s and mean latency (submission to"
		echo "completion) from fio's own statistics. The two guests run at the same time and"
		echo "share the host's $(nproc) cores, so these numbers show the set-up working; they are"
		echo "not a measurement to set against the single-guest scenarios above."
		[ "$(cat "$out/$so/failed" 2>/dev/null)" = 0 ] || echo "**This scale-out run is PARTIAL** (see \`${rel}/$so.err\`)."
		echo
		for n in $(tab "$sum/scaleout.csv" "scenario host" '$C["scenario"] == s { print $C["host"] }' -v s="$so" | sort -u); do
			e=$out/$so/$n/env.txt
			echo "- guest \`$n\`: kernel $(sed -n 's/^kernel=//p' "$e" 2>/dev/null | head -n 1), accel $(sed -n 's/^accel=//p' "$e" 2>/dev/null | head -n 1), hint counters: $(grep '^hint_' "$e" 2>/dev/null | tr '\n' ' ' | sed 's/ $//')$(grep -q '^knows_flags=0' "$e" 2>/dev/null && echo 'none (O_HOT/O_COLD unknown)')"
		done
		echo
		echo "| guest | job | MiB moved | MB/s | mean latency ms | fio error |"
		echo "|---|---|---|---|---|---|"
		tab "$sum/scaleout.csv" "scenario host job bytes mb_s lat_mean_ms error" '$C["scenario"] == s {
			printf "| %s | %s | %.0f | %.2f | %.2f | %s |\n", $C["host"], $C["job"], $C["bytes"] / 1048576, $C["mb_s"], $C["lat_mean_ms"], $C["error"] }' -v s="$so"
		echo
		# the seq measure's headline pair (bench/jobs/scenarios: headline=A/B)
		read -r _ sa sb <<<"$(scen_headline "$out" seq)" || true
		[ -n "${sa:-}" ] || continue
		for n in $(tab "$sum/scaleout.csv" "scenario host" '$C["scenario"] == s { print $C["host"] }' -v s="$so" | sort -u); do
			h=$(csv_get "$sum/scaleout.csv" mb_s scenario="$so" host="$n" job="$sa") c=$(csv_get "$sum/scaleout.csv" mb_s scenario="$so" host="$n" job="$sb")
			[ -z "$h" ] || [ -z "$c" ] || echo "- \`$n\`: $sa / $sb **$(ratio "$h" "$c")**"
		done
	done
}
