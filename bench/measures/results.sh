#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Write RESULTS.md from what one benchmark run left in OUT (default
# build/bench): the scenarios of bench/runners/run.sh (OUT/summary/*.csv, made by
# bench/measures/summarise.sh; figures in OUT/figures/) and the create()+unlink()
# micro-benchmark (OUT/create-unlink-*, bench/runners/kernel-bench.sh).  The answer
# at the top is bench/measures/results-answer.sh's; each measure of the run's
# scenarios writes its own section (NAME_page, NAME_headline: bench/
# measures.sh).  Every number on the page comes from a file of that run;
# sections whose files the run did not make are left out.
# Usage: bench/measures/results.sh [OUT] [RESULTS.md]
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$top/build/bench}
page=${2:-$top/RESULTS.md}
tmp=$page.tmp
sum=$out/summary
# the run's folder as the page names it: relative to the repository, or
# only its name when it lies outside (a page holds no absolute path)
rel=${out#"$top"/}
case $rel in /*) rel="(the run's folder) $(basename "$out")" ;; esac

# die, ratio, mmm (the "median (min-max)"), csv_get, csv_mmm, tab: every
# summary is read by column name (bench/measures/lib.sh)
. "$top/bench/measures/lib.sh"
env_of() { sed -n "s/^$1=//p" "$out/run-env.txt" 2>/dev/null | tail -n 1; }
# first value of KEY in the env.txt of any run of scenario S
guest_env() { cat "$out/$1"/run*/env.txt 2>/dev/null | sed -n "s/^$2=//p" | head -n 1; }
# The page's figures are tracked next to it (plots/figures/, PNG, from this
# run), so its links work in a fresh clone; the SVGs (large) stay in OUT.
figdir=$(dirname "$page")/plots/figures
# the page's tables as CSV and its headline numbers (summary.json), next to it
datadir=$(dirname "$page")/plots/data
mkdir -p "$figdir"
rm -rf "$datadir" && mkdir -p "$datadir"
rm -f "$figdir"/*.png
cp "$out"/figures/*.png "$figdir/" 2>/dev/null || true
# fig NAME CAPTION: a link to the figure, when this run drew it
fig() { [ ! -f "$figdir/$1.png" ] || echo "- [$2](plots/figures/$1.png)"; }
# Every scenario that finished (OUT/status) must have its rows in the
# summaries its measures name (OUT/scenarios, bench/measures/scen.sh): a missing or
# malformed summary is named on the page and fails this stage, instead of
# a section that quietly shrinks.
. "$top/bench/measures/scen.sh" && scen_init "$out" || exit 2
rows_for() { [ -n "$(csv_get "$1" scenario scenario="$2" 2>/dev/null)" ]; }
. "$top/bench/measures/measures.sh"
measures_load "$out" || exit 2
missing=$(for m in $MEASURES; do measure_missing "$out" "$m"; done)

{
	echo "# ${RESULTS_TITLE:-Results}"
	echo
	echo "Written by \`make bench\` from the files of the run started $(env_of date) in"
	echo "\`$rel/\` (one run); nothing here is typed by hand. Figures: PNG in"
	echo "\`plots/figures/\` (from this run), SVG in \`$rel/figures/\`."
	echo "This page: written $(date -u '+%Y-%m-%d %H:%M UTC') by \`bench/measures/results.sh\` at commit $(code_commit)."
	# the command that makes it again and what it costs (bench/runners/plan, OUT/steps.csv)
	pm="" tm=""
	if [ -s "$out/steps.csv" ]; then
		pm=$(tab "$out/steps.csv" expected_min '{ t += $C["expected_min"]; n++ } END { if (n) printf "%.0f", t }')
		tm=$(tab "$out/steps.csv" actual_min '$C["actual_min"] != "" { t += $C["actual_min"]; n++ } END { if (n) printf "%.0f", t }')
		# the same plan on a fresh machine: it installs the packages and
		# builds its two kernels cold
		pc=$(tab "$out/steps.csv" "step expected_min" \
			'$C["step"] ~ /^kernel-(patched|stock)$/ { t += kc / 60; k++; next } $C["step"] == "deps" { t += dc / 60; next } { t += $C["expected_min"] } END { if (k) printf "%.0f", t }' \
			-v kc="$(plan_cost kernel)" -v dc="$(plan_cost deps)")
	fi
	echo "Reproduce: \`${RESULTS_COMMAND:-$(env_of command)}\` at commit $(env_of commit) on a clean tree; expected wall time ${pm:-?} minutes on a 2-core host under TCG (bench/runners/plan, \`make bench-plan\`)$([ -n "${pc:-}" ] && [ "$pc" != "$pm" ] && echo ", about $pc on a fresh machine, which installs the packages and whose ccache is cold (the two kernels are then cold builds)")$([ -n "$tm" ] && echo "; this run's steps took $tm minutes (table at the end)")."
	if [ "$(env_of partial)" = 1 ]; then
		echo
		echo "**This run is PARTIAL: some scenarios failed** (see \`$rel/status\`):"
		echo
		grep ' FAIL' "$out/status" | sed 's/^/- /'
	fi
	if [ -n "$missing" ]; then
		echo
		echo "**Missing from this page** (a stage did not make what a finished scenario should have):"
		echo
		echo "$missing" | sed 's/^/- /'
	fi
	# the create()+unlink() benchmark per mode (bench/runners/kernel-bench.sh): the
	# answer's cost line and the section below read it
	! has "$out/create-unlink-runs.csv" || cu_summary "$out/create-unlink-runs.csv" >"$datadir/create-unlink.csv"
	"$top/bench/measures/results-answer.sh" "$out" "$datadir"
	echo
	echo "## Environment"
	echo
	if [ -n "$(env_of host)" ]; then echo "- host: $(env_of host) (when the run started)"
	else echo "- host: not recorded by this run; when this page was written: $(uname -m), $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"; fi
	echo "- kernel source: linux-source-6.1 $(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null)"
	echo "- series: $(ls "$top"/kernel-patches/0*.patch 2>/dev/null | grep -vc cover-letter) patches in kernel-patches/"
	if [ -f "$out/run-env.txt" ]; then
		for s in $(env_of scenarios); do
			f=$(guest_env "$s" kernel_flavour); [ -n "$f" ] || continue
			kn=$(guest_env "$s" knows_flags); [ -n "$kn" ] || continue
			echo "$f|$(guest_env "$s" kernel)|$kn|$(guest_env "$s" accel)"
		done | sort -u | while IFS="|" read -r f k kn a; do
			echo "- guest kernel ($f): $k, knows O_HOT/O_COLD: $([ "$kn" = 1 ] && echo yes || echo no), accel: $a"
			[ "$f" = patched ] && [ "$kn" != 1 ] && echo "- **WARNING: the kernel run as \"patched\" does not know O_HOT/O_COLD; hints were not honoured**" || true
		done
		echo "- drive profile: $(env_of profile) (vm/hdd-model/profiles.conf), $(env_of disk) modelled disk, time-scale $(env_of time_scale)"
		echo "- runs per scenario: $(env_of runs)$([ "$(env_of quick)" = 1 ] && echo ' (QUICK=1: small sizes, fewer scenarios)'); run started $(env_of date)"
		echo "- scenarios: $(env_of scenarios)"
		[ -n "$(env_of commit)" ] && echo "- code: commit $(env_of commit) of this repository (bench/runners/run.sh records it when the run starts)"
	fi
	if [ -f "$out/create-unlink-env.txt" ]; then
		echo "- create+unlink guests: $(wc -l <"$out/create-unlink-env.txt") boots, $(awk '{ sub(/seconds=/, "", $4); t += $4 } END { printf "%d s", t }' "$out/create-unlink-env.txt") in all, accel $(awk '{ sub(/accel=/, "", $3); print $3 }' "$out/create-unlink-env.txt" | sort -u | tr '\n' ' ' | sed 's/ $//')"
	fi

	zr=$(csv_get "$sum/zone-ratio.csv" zone_ratio)
	# the measures' headline lines (NAME_headline; bench/jobs/scenarios' headline=A/B)
	mlines=$(measure_call headline "$out" || true)
	if [ -n "$mlines" ]; then
		echo
		echo "## Fresh filesystem: headline numbers (an empty disk, where an unhinted file already lands near the start)"
		echo
		[ -z "$zr" ] || echo "- drive model's zone ratio (outermost / innermost sequential rate): **$zr** ($(csv_get "$sum/zone-ratio.csv" outer_mb_s) / $(csv_get "$sum/zone-ratio.csv" inner_mb_s) MB/s)"
		echo "$mlines"
	fi

	# each measure's section, in the scenario table's order
	measure_call page "$out" || true

	cu=$datadir/create-unlink.csv
	if has "$cu"; then
		# c MODE COL: "median (min-max)" of a column of the summary
		# (rates as whole numbers, ratios with three decimals)
		c() { tab "$cu" "mode $2_median $2_min $2_max" '$C["mode"] == m {
			print mmmf($C[c "_median"], $C[c "_min"], $C[c "_max"], (c == "patched" || c == "stock") ? "%.0f" : "%.3f") }' -v m="$1" -v c="$2"; }
		echo
		echo "## create()+unlink() rate"
		echo
		f=$(csv_get "$cu" files mode=none) r=$(csv_get "$cu" rounds mode=none)
		echo "$(csv_get "$cu" boots mode=none) boot pairs, stock and patched, alternating which boots first; each guest makes a"
		echo "64 GiB ext4 (defaults, flex_bg=16) on a plain virtio disk, runs one round of"
		echo "$((f / r)) files per mode as a warm-up (discarded), then $r rounds of $((f / r)) files per mode"
		echo "($f per mode and boot) created and unlinked in one directory, the modes in rotating order"
		echo "(\`bench/tools/create_bench.c\`, \`bench/runners/kernel-bench.sh\`). Rates are creates+unlinks per second on"
		echo "the guest's clock, median (min-max) across boots; patched / stock is taken within each boot"
		echo "pair, vs no flag within each patched boot."
		echo
		echo "| flag | patched (/s) | stock (/s) | patched / stock | vs no flag (patched) |"
		echo "|---|---|---|---|---|"
		for m in none hot cold; do
			echo "| $m | $(c $m patched) | $(c $m stock) | $(c $m ps) | $(c $m vs_none) |"
		done
		echo
		echo "On the stock kernel open() ignores the unknown bits, so its three rows"
		echo "measure the same code path and show the boot-to-boot noise."
	fi

	if [ -s "$sum/validation.md" ]; then
		echo
		echo "## The disk model against published drives (vm/hdd-model/hdd-validate)"
		echo
		echo "Run by this benchmark run (\`hdd-validate\`, on the model's clock): the"
		echo "HP 97560 profile against the Ruemmler & Wilkes formulas, and a second"
		echo "drive built from published figures only (DiskSim 4.0's validated Seagate"
		echo "Cheetah 9LP), measured vs published, with the tolerance each row must"
		echo "meet (make hdd-check fails otherwise; \"shown\" rows are reported only)."
		echo
		cat "$sum/validation.md"
	fi

	# Pages that other runs wrote (results/*/RESULTS.md, each from one run
	# of its own): linked with the line that names its run, no numbers.
	others=$(cd "$(dirname "$page")" && ls results/*/RESULTS.md 2>/dev/null | grep -vx "${page#"$(dirname "$page")"/}" || true)
	if [ -n "$others" ] && [ "$(basename "$(dirname "$(dirname "$page")")")" != results ]; then
		echo
		echo "## Pages from other runs"
		echo
		echo "Scenarios measured by runs of their own (\`make bench-run SCENARIO=... RESULTS=results/NAME/RESULTS.md\`);"
		echo "each page says which run wrote it."
		echo
		for o in $others; do
			# its "Written by" sentence, joined across the lines it wraps over
			w=$(awk '/^Written by/ { p = 1 } p { if ($0 == "") exit; t = t (t == "" ? "" : " ") $0 }
				END { sub(/^Written by /, "", t); i = index(t, ". "); if (i) t = substr(t, 1, i)
					# its links point next to that page, not this one: their text only
					while (match(t, /\[[^]]*\]\([^)]*\)/)) { l = substr(t, RSTART + 1, RLENGTH - 1); sub(/\]\(.*$/, "", l)
						t = substr(t, 1, RSTART - 1) l substr(t, RSTART + RLENGTH) }
					print t }' "$(dirname "$page")/$o")
			echo "- [$(sed -n 's/^# //p' "$(dirname "$page")/$o" | head -n 1)]($o): ${w:-(the page does not say which run wrote it)}"
		done
	fi
	if [ -s "$out/steps.csv" ]; then
		echo
		echo "## This run's steps: planned and taken"
		echo
		echo "Minutes per step of \`make bench\` (bench/runners/bench.sh and bench/runners/run.sh; the plan from"
		echo "bench/runners/plan, on a 2-core host under TCG with nothing else running; a step that"
		echo "shared the wall clock with another, as two ageing guests do, counts its share)."
		echo "Steps with no time taken did not run in this run (or ended with it: the page)."
		echo
		echo "| step | planned (min) | taken (min) |"
		echo "|---|---|---|"
		tab "$out/steps.csv" "step expected_min actual_min" '{ printf "| %s | %s | %s |\n", $C["step"], $C["expected_min"], ($C["actual_min"] == "" ? "-" : $C["actual_min"])
			p += $C["expected_min"]; if ($C["actual_min"] != "") t += $C["actual_min"] } END { printf "| total | %.1f | %.1f |\n", p, t }'
	fi
} >"$tmp"
# Every table of the page also as CSV in plots/data/ (NN-SECTION.csv, the
# cells as printed, without Markdown's emphasis), linked under the table.
awk -v dir="$datadir" '
	function slug(s) { s = tolower(s); gsub(/[^a-z0-9]+/, "-", s); gsub(/^-|-$/, "", s); return substr(s, 1, 40) }
	function csvcell(c) { gsub(/^ +| +$/, "", c); gsub(/\*\*|`/, "", c); if (c ~ /[,"]/) { gsub(/"/, "\"\"", c); c = "\"" c "\"" }; return c }
	function close_table() { if (f != "") { close(f); print "\nTable as CSV: [" link "](" link ")"; f = "" } }
	/^#+ / { close_table(); h = $0; sub(/^#+ /, "", h) }
	/^\|/ { if (f == "") { nt++; name = sprintf("%02d-%s.csv", nt, slug(h)); f = dir "/" name; link = "plots/data/" name; printf "" > f }
		if ($0 ~ /^\|[-| :]+\|$/) { print; next }
		line = $0; sub(/^\| ?/, "", line); sub(/ ?\|$/, "", line); n = split(line, c, / \| /)
		row = ""; for (i = 1; i <= n; i++) row = row (i > 1 ? "," : "") csvcell(c[i]); print row > f; print; next }
	f != "" { close_table() }
	{ print }
	END { close_table() }' "$tmp" >"$tmp.2" && mv "$tmp.2" "$tmp"
# a page names no absolute path of the machine that wrote it
sed -i "s|$top/||g" "$tmp"
mv "$tmp" "$page"
echo "  RESULTS $page"
if [ -n "$missing" ]; then
	echo "$missing" | sed 's/^/results: /' >&2
	exit 1
fi
