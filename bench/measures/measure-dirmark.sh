# SPDX-License-Identifier: GPL-2.0
# bench/measures/measure-dirmark.sh - the measure "dirmark" (bench/measures/measures.sh): a
# directory marked hot (patch 12, hc-mark; bench/jobs/dirmark.fio, run on an
# aged image by bench/guest/guest-scenario.sh aged, whose ";@mark DIR MODE" lines mark the
# job's directories before fio creates anything).  Per run and job, where
# its files' bytes are by third of the disk (the engine's placement log),
# the kernel's hint counters after the run (env.txt: hint_inherited counts
# creates that took the hint from their directory) and the marks as the
# guest read them back (env.txt's mark_* lines).
#   summary/dirmark-runs.csv  scenario,run,job,files,frac_first,frac_middle,
#                             frac_last,hint_inherited,hint_honoured,marks
#   summary/dirmark.csv       scenario,job,frac_first_median,frac_first_min,
#                             frac_first_max,runs

dirmark_files() { echo dirmark-runs.csv; }

dirmark_summarise() {
	local out=$1 sum=$1/summary n d inh hon mk rc=0
	echo "scenario,run,job,files,frac_first,frac_middle,frac_last,hint_inherited,hint_honoured,marks" >"$sum/dirmark-runs.csv"
	for d in $(finished_runs "$out" dirmark); do
		n=$(basename "$(dirname "$d")")
		need "$d/placement.csv" && need "$d/env.txt" || continue
		inh=$(sed -n 's/^hint_inherited=//p' "$d/env.txt" | tail -n 1)
		hon=$(sed -n 's/^hint_honoured=//p' "$d/env.txt" | tail -n 1)
		mk=$(sed -n 's/^mark_//p' "$d/env.txt" | tr '\n' ' ' | sed 's/ $//')
		[ -n "$mk" ] || { echo "summarise: $d/env.txt: no mark_ line (bench/guest/guest-scenario.sh aged marks the job's ;@mark directories)" >&2; rc=1; continue; }
		awk -F, -v need="kind job bytes_first bytes_middle bytes_last" -v n="$n" -v r="$(basename "$d")" \
			-v inh="$inh" -v hon="$hon" -v mk="$mk" "$CSV_AWK"'
			$C["kind"] == "file" { j = $C["job"]; f[j]++; a[j] += $C["bytes_first"]; b[j] += $C["bytes_middle"]; c[j] += $C["bytes_last"] }
			END { if (csv_bad) exit 2
				for (j in f) { t = a[j] + b[j] + c[j]; if (t == 0) t = 1
					printf "%s,%s,%s,%d,%.4f,%.4f,%.4f,%s,%s,%s\n", n, r, j, f[j], a[j] / t, b[j] / t, c[j] / t, inh, hon, mk } }' \
			"$d/placement.csv" || rc=1
	done | sort >>"$sum/dirmark-runs.csv"
	median_table "$sum/dirmark-runs.csv" "scenario job" frac_first >"$sum/dirmark.csv" || rc=1
	return $rc
}

dirmark_page() {
	local out=$1 sum=$1/summary n j e
	for n in $(scen "$out" dirmark); do
		rows_for "$sum/dirmark.csv" "$n" || continue
		echo
		echo "## Unmodified applications: a directory marked hot ($n, bench/jobs/dirmark.fio)"
		echo
		echo "Patch 12: \`system.hotcold\` set to \"hot\" on a directory (hc-mark) makes"
		echo "every regular file created in it take O_HOT's placement, whatever"
		echo "program creates it. On the aged image of this scenario (see the"
		echo "Environment and the ageing parameters below), three jobs one after"
		echo "another create 8 files each with fio's hotcold engine and read them at"
		echo "random: **marked** opens with no flag in the marked directory (what an"
		echo "unchanged program does), **unmarked** the same in a plain directory,"
		echo "**o_hot** asks with O_HOT at open(). Fraction of each job's bytes in the"
		echo "first third of the disk (the engine's FIEMAP log); service time at the"
		echo "disk (model's trace, joined read by read); median of the runs (min-max)."
		echo
		echo "| job | files | bytes in the first third | service p50 (disk, ms) | engine p50 (guest, ms) | runs |"
		echo "|---|---|---|---|---|---|"
		tab "$sum/dirmark.csv" "scenario job" '$C["scenario"] == n { print $C["job"] }' -v n="$n" | while read -r j; do
			echo "| $j | $(csv_get "$sum/dirmark-runs.csv" files scenario="$n" job="$j") | $(csv_mmm "$sum/dirmark.csv" frac_first scenario="$n" job="$j") |" \
				"$(csv_mmm "$sum/disk.csv" value scenario="$n" job="$j" metric=service_p50_ms) | $(csv_mmm "$sum/disk.csv" value scenario="$n" job="$j" metric=engine_p50_ms) | $(csv_get "$sum/dirmark.csv" runs scenario="$n" job="$j") |"
		done
		echo
		echo "Counters after each run (the guest's /sys/fs/ext4/vda; a run mounts the image afresh):"
		echo
		tab "$sum/dirmark-runs.csv" "scenario run hint_inherited hint_honoured marks" '$C["scenario"] == n && !seen[$C["run"]]++ {
			printf "- %s: hint_inherited %s, hint_honoured %s; marks read back: %s\n", $C["run"], $C["hint_inherited"], $C["hint_honoured"], $C["marks"] }' -v n="$n"
		e=$out/$n/aging/env.txt
		if [ -f "$e" ]; then
			echo
			echo "The aged image: $(sed -n 's/^df_used_pct=/df used /p' "$e" | head -n 1)%, made by hc-age (seed $(sed -n 's/^aged_seed=//p' "$e" | tail -n 1), churn $(env_of aged_churn), sets $(env_of aged_sets)) on the $(env_of disk) disk; $(img=$(sed -n 's/^image=//p' "$e" | head -n 1); case $img in /*) echo "cached as ${img##*/} (outside the repository)" ;; ?*) echo "cached as $img" ;; esac)."
		fi
		echo
		fig "service-cdf-$n" "service-time CDF at the disk, $n (marked, unmarked, o_hot)"
	done
}
