#!/bin/bash
# Write RESULTS.md from what one benchmark run left in OUT (default
# build/bench): the scenarios of bench/run.sh (OUT/summary/*.csv, made by
# bench/summarise.sh; figures in OUT/figures/) and the create()+unlink()
# micro-benchmark (OUT/create-unlink-*, bench/kernel-bench.sh); the aged
# filesystem's section is bench/results-aged.sh's.  Every
# number on the page comes from a file of that run; sections whose files
# the run did not make are left out.
# Usage: bench/results.sh [OUT] [RESULTS.md]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/build/bench}
page=${2:-$top/RESULTS.md}
tmp=$page.tmp
sum=$out/summary
# the run's folder as the page names it: relative to the repository, or
# only its name when it lies outside (a page holds no absolute path)
rel=${out#"$top"/}
case $rel in /*) rel="(the run's folder) $(basename "$out")" ;; esac

# die, ratio, mmm (the "median (min-max)"), csv_get, CSV_AWK, STATS_AWK
. "$top/bench/lib.sh"
# every summary is read by column name: csv_get FILE COLUMN KEY=VALUE...,
# or an awk program behind $CSV_AWK (tab FILE NEED PROGRAM [AWK OPTIONS]: a table's rows)
tab() { local f=$1 need=$2 prog=$3; shift 3
	awk -F, -v need="$need" "$@" "$CSV_AWK$STATS_AWK$prog"' END { if (csv_bad) exit 2 }' "$f"; }
rate() { csv_get "$1" rate mode="$2"; }
env_of() { sed -n "s/^$1=//p" "$out/run-env.txt" 2>/dev/null | tail -n 1; }
# first value of KEY in the env.txt of any run of scenario S
guest_env() { cat "$out/$1"/run*/env.txt 2>/dev/null | sed -n "s/^$2=//p" | head -n 1; }
# cmm FILE MEDIAN MIN MAX KEY=VALUE...: "median (min-max)" from those columns
cmm() { local f=$1 a=$2 b=$3 c=$4; shift 4; mmm "$(csv_get "$f" "$a" "$@")" "$(csv_get "$f" "$b" "$@")" "$(csv_get "$f" "$c" "$@")"; }
# dcell SCENARIO JOB METRIC: median on the disk's clock (summary/disk.csv)
dcell() { csv_get "$sum/disk.csv" median scenario="$1" job="$2" metric="$3"; }
# dmm SCENARIO JOB METRIC: "median (min-max)" on the disk's clock
dmm() { local k="scenario=$1 job=$2 metric=$3"
	# shellcheck disable=SC2086
	mmm "$(csv_get "$sum/disk.csv" median $k)" "$(csv_get "$sum/disk.csv" min $k)" "$(csv_get "$sum/disk.csv" max $k)" -; }
r2() { awk -v a="$1" 'BEGIN { if (a == "") print "n/a"; else printf "%.2f", a }'; }
# The page's figures are tracked next to it (plots/figures/, PNG, from this
# run), so its links work in a fresh clone; the SVGs (large) stay in OUT.
figdir=$(dirname "$page")/plots/figures
# the page's tables as CSV and its headline numbers (summary.json), next to it
datadir=$(dirname "$page")/plots/data
mkdir -p "$figdir"
rm -rf "$datadir" && mkdir -p "$datadir"
rm -f "$figdir"/*.png
cp "$out"/figures/*.png "$figdir/" 2>/dev/null || true
fig() { # name caption
	if [ -f "$figdir/$1.png" ]; then
		echo "- [$2](plots/figures/$1.png)"
	fi
}
# Every scenario that finished (OUT/status) must have its rows in the
# summaries its measures name (OUT/scenarios, bench/scen.sh): a missing or
# malformed summary is named on the page and fails this stage, instead of
# a section that quietly shrinks.
. "$top/bench/scen.sh" && scen_init "$out" || exit 2
rows_for() { [ -n "$(csv_get "$1" scenario scenario="$2" 2>/dev/null)" ]; }
. "$top/bench/measures.sh"
loaded=""
for m in $(measures_of "$out"); do measure_load "$m" && loaded="$loaded $m"; done
missing=$(
	for m in $loaded; do measure_missing "$out" "$m"; done
	for m in seq rand aged promote scaleout qd; do
		for s in $(scen "$out" $m); do
			grep -q "^$s [0-9]* ok$" "$out/status" 2>/dev/null || continue
			case $m in
			seq) f=$sum/seq.csv ;; rand) f=$sum/rand.csv ;;
			aged) f=$sum/aged-sets.csv ;; promote) f=$sum/promote-runs.csv ;; scaleout) f=$out/$s/scaleout.csv ;;
			qd) f=$sum/qd-runs.csv ;;
			esac
			case $m in
			scaleout) [ "$(wc -l 2>/dev/null <"$f" 2>/dev/null || echo 0)" -gt 1 ] ;;
			*) rows_for "$f" "$s" ;;
			esac || echo "${f#"$out"/}: nothing for scenario $s ($m), which finished"
		done
	done)

{
	echo "# ${RESULTS_TITLE:-Results}"
	echo
	echo "Written by \`make bench\` from the files of the run started $(env_of date) in"
	echo "\`$rel/\` (one run); nothing here is typed by hand. Figures: PNG in"
	echo "\`plots/figures/\` (from this run), SVG in \`$rel/figures/\`."
	echo "This page: written $(date -u '+%Y-%m-%d %H:%M UTC') by \`bench/results.sh\` at commit $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$top" status --porcelain -uno 2>/dev/null | grep -q . && echo ' (with uncommitted changes)')."
	# the command that makes it again and what it costs (bench/plan, OUT/steps.csv)
	pm=$(awk -F, 'NR > 1 { t += $2 } END { if (NR > 1) printf "%.0f", t }' "$out/steps.csv" 2>/dev/null || true)
	tm=$(awk -F, 'NR > 1 && $3 != "" { t += $3; n++ } END { if (n) printf "%.0f", t }' "$out/steps.csv" 2>/dev/null || true)
	echo "Reproduce: \`${RESULTS_COMMAND:-$(env_of command)}\` at commit $(env_of commit) on a clean tree; expected wall time ${pm:-?} minutes on a 2-core host under TCG (bench/plan, \`make bench-plan\`)$([ -n "$tm" ] && echo "; this run's steps took $tm minutes (table at the end)")."
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
	"$top/bench/results-answer.sh" "$out" "$datadir"
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
		[ -n "$(env_of commit)" ] && echo "- code: commit $(env_of commit) of this repository (bench/run.sh records it when the run starts)"
	fi
	if [ -f "$out/create-unlink-env.txt" ]; then
		sed 's/^/- create+unlink guest run: /' "$out/create-unlink-env.txt"
	fi

	zr=$(csv_get "$sum/zone-ratio.csv" zone_ratio)
	zo=$(csv_get "$sum/zone-ratio.csv" outer_mb_s)
	zi=$(csv_get "$sum/zone-ratio.csv" inner_mb_s)
	# the headline pairs: the scenarios tagged headline=A/B in bench/scenarios
	read -r hs ha hb <<<"$(scen_headline "$out" seq)" || true
	read -r rs ra rb <<<"$(scen_headline "$out" rand)" || true
	hot="" cold="" hl="" nl="" zs="" ze=""
	[ -z "${hs:-}" ] || { hot=$(csv_get "$sum/seq.csv" mb_s_median scenario="$hs" job="$ha"); cold=$(csv_get "$sum/seq.csv" mb_s_median scenario="$hs" job="$hb"); }
	[ -z "${rs:-}" ] || { hl=$(csv_get "$sum/rand.csv" p50_ms scenario="$rs" job="$ra"); nl=$(csv_get "$sum/rand.csv" p50_ms scenario="$rs" job="$rb"); }
	# the measures' own headline lines (NAME_headline)
	mlines=$(for m in $loaded; do ! declare -F "${m}_headline" >/dev/null || "${m}_headline" "$out"; done)
	if [ -n "$hot$hl$mlines" ]; then
		echo
		echo "## Fresh filesystem: headline numbers (an empty disk, where an unhinted file already lands near the start)"
		echo
		[ -n "$zr" ] && echo "- drive model's zone ratio (outermost / innermost sequential rate): **$zr** ($zo / $zi MB/s)"
		[ -n "$hot" ] && echo "- sequential O_DIRECT read, $ha / $hb ($hs): **$(ratio "$hot" "$cold")** ($(r2 "$hot") / $(r2 "$cold") MB/s, medians) vs zone ratio $zr"
		if [ -n "$hot" ]; then
			mh=$(csv_get "$sum/seq-model.csv" model_mb_s scenario="$hs" job="$ha") mc=$(csv_get "$sum/seq-model.csv" model_mb_s scenario="$hs" job="$hb")
			[ -n "$mh" ] && [ -n "$mc" ] && echo "  - the model's rate where the two files lie (mean positions $(csv_get "$sum/seq-model.csv" pos_frac scenario="$hs" job="$ha") and $(csv_get "$sum/seq-model.csv" pos_frac scenario="$hs" job="$hb") of the disk): $mh / $mc MB/s, ratio **$(ratio "$mh" "$mc")**; the zone ratio is the upper bound (outermost vs innermost track)"
		fi
		dh="" dn=""
		[ -z "${rs:-}" ] || { dh=$(dcell "$rs" "$ra" service_p50_ms) dn=$(dcell "$rs" "$rb" service_p50_ms); }
		[ -n "$dh" ] && echo "- random 4 KiB reads on a fresh filesystem, $ra / $rb ($rs), median service time at the disk (model's trace): **$(r2 "$dh") / $(r2 "$dn") ms** (ratio $(ratio "$dh" "$dn")); the engine's latency through the guest: $(r2 "$hl") / $(r2 "$nl") ms"
		[ -z "$dh" ] && [ -n "$hl" ] && echo "- random 4 KiB reads, $ra / $rb ($rs), engine latency only (no trace join in this run): $(r2 "$hl") / $(r2 "$nl") ms"
		[ -z "$mlines" ] || echo "$mlines"
	fi

	# the measures with a file of their own, in the scenario table's order
	for m in $loaded; do ! declare -F "${m}_page" >/dev/null || "${m}_page" "$out"; done

	if [ "$(wc -l 2>/dev/null <"$sum/seq.csv" 2>/dev/null || echo 0)" -gt 1 ]; then
		echo
		echo "## Sequential O_DIRECT throughput (bench/seq.fio, bench/aged.fio)"
		echo
		echo "MB/s (10^6 B/s), median of the runs (min-max)."
		echo
		echo "| scenario | job | MB/s | runs |"
		echo "|---|---|---|---|"
		tab "$sum/seq.csv" "scenario job mb_s_median mb_s_min mb_s_max runs" '{
			printf "| %s | %s | %s | %s |\n", $C["scenario"], $C["job"], mmm($C["mb_s_median"], $C["mb_s_min"], $C["mb_s_max"]), $C["runs"] }'
		echo
		fig throughput-position "throughput vs position, with the model's zoned rate"
	fi

	if [ -n "$(scen "$out" rand fresh)" ] && [ "$(wc -l 2>/dev/null <"$sum/rand.csv" 2>/dev/null || echo 0)" -gt 1 ]; then
		echo
		echo "## Random 4 KiB reads (bench/randread.fio, bench/mixed.fio)"
		echo
		echo "Service time at the disk: arrival to end in the disk model's trace, joined"
		echo "request by request with the engine's seek log (the disk's clock). Engine"
		echo "latency: fio's clat percentiles (its JSON; the engine hands fio the time it"
		echo "submits each read), in the guest (the guest's clock, which adds TCG's"
		echo "overhead). Seek distance from the previous request, MiB of LBA."
		echo "Median of the runs (min-max), ms. In bench/mixed.fio every job runs with"
		echo "one other job at once (hot + cold, unhinted + unhinted, hot + hot)."
		echo
		echo "| scenario | job | service p50 (disk) | service p99 (disk) | engine p50 | engine p99 | mean seek distance (MiB) | runs |"
		echo "|---|---|---|---|---|---|---|---|"
		for s in $(scen "$out" rand fresh); do
			tab "$sum/rand.csv" "scenario job" '$C["scenario"] == s { print $C["job"] }' -v s="$s" | while read -r j; do
				k="scenario=$s job=$j"
				# shellcheck disable=SC2086
				echo "| $s | $j | $(dmm "$s" "$j" service_p50_ms) | $(dmm "$s" "$j" service_p99_ms) | $(cmm "$sum/rand.csv" p50_ms p50_min p50_max $k) |" \
					"$(cmm "$sum/rand.csv" p99_ms p99_min p99_max $k) | $(cmm "$sum/rand.csv" seek_mib seek_mib_min seek_mib_max $k) | $(csv_get "$sum/rand.csv" runs $k) |"
			done
		done
		echo
		for s in $(scen "$out" rand fresh); do
			fig "service-cdf-$s" "service-time CDF at the disk, $s"
			fig "latency-cdf-$s" "engine latency CDF (guest clock), $s"
			fig "seek-cdf-$s" "seek-distance CDF, $s"
		done
		fig seek-latency "service time vs seek distance (model trace) with the model's seek curve"
	fi

	"$top/bench/results-qd.sh" "$out" "$figdir"

	if [ "$(cat "$sum/compare-seq.csv" "$sum/compare-rand.csv" 2>/dev/null | grep -vc "^job,")" -gt 0 ]; then
		echo
		echo "## Stock vs patched kernel (same job files)"
		echo
		echo "| measure | job | patched | stock |"
		echo "|---|---|---|---|"
		[ ! -f "$sum/compare-seq.csv" ] || tab "$sum/compare-seq.csv" "job patched stock" '{ printf "| seq read MB/s | %s | %.2f | %.2f |\n", $C["job"], $C["patched"], $C["stock"] }'
		[ ! -f "$sum/compare-rand.csv" ] || tab "$sum/compare-rand.csv" "job patched stock" '{ printf "| randread service p50 ms (disk) | %s | %.2f | %.2f |\n", $C["job"], $C["patched"], $C["stock"] }'
		echo
		fig stock-vs-patched "stock vs patched"
	fi

	"$top/bench/results-aged.sh" "$out" "$figdir"

	if [ "$(wc -l 2>/dev/null <"$sum/promote-runs.csv" || echo 0)" -gt 1 ]; then
		echo
		echo "## Promotion: a set whose hotness changed (bench/promote.fio, hc-move)"
		echo
		echo "On the image aged to 80% (the aged-80 scenario's), the unhinted set N is read at"
		echo "random (N-before), then \`hc-move hot\` moves its files into the hot region online"
		echo "(EXT4_IOC_MOVE_EXT into a donor created with O_HOT; bench/move.c), and the same"
		echo "reads run again (N-after), one job at a time in both. Service time on the disk's"
		echo "clock (the model's trace joined with the seek log), median of the runs (min-max), ms."
		echo
		echo "| scenario | job | service p50 (disk) | service p99 (disk) | engine p50 (fio clat) | runs |"
		echo "|---|---|---|---|---|---|"
		for s in $(scen "$out" promote); do
			for j in N-before N-after; do
				echo "| $s | $j | $(dmm "$s" "$j" service_p50_ms) | $(dmm "$s" "$j" service_p99_ms) | $(cmm "$sum/rand.csv" p50_ms p50_min p50_max scenario="$s" job="$j") | $(csv_get "$sum/rand.csv" runs scenario="$s" job="$j") |"
			done
		done
		echo
		echo "The move, per run: files moved, MiB, the set's bytes in the first third before and"
		echo "after (hc-move's FIEMAP), the move's time on the guest's clock and its I/O"
		echo "(/sys/block/vda/stat in the guest), and what stayed (inode; SHA-256 of the"
		echo "contents read back from the disk before and after)."
		echo
		echo "| scenario | run | files moved | MiB | first third before | after | seconds (guest) | read MiB | written MiB | same inode | same contents |"
		echo "|---|---|---|---|---|---|---|---|---|---|---|"
		tab "$sum/promote-runs.csv" "scenario run files moved moved_mib first_before first_after move_seconds read_mib write_mib same_inode same_sha256" '{
			printf "| %s | %s | %s of %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $C["scenario"], $C["run"], $C["moved"], $C["files"], $C["moved_mib"],
				$C["first_before"], $C["first_after"], $C["move_seconds"], $C["read_mib"], $C["write_mib"], $C["same_inode"], $C["same_sha256"] }'
		echo
		for s in $(scen "$out" promote); do fig "service-cdf-$s" "service-time CDF at the disk, $s (N-before, N-after)"; done
	fi


	so=$out/$(scen "$out" scaleout | head -n 1)
	if [ "$(wc -l 2>/dev/null <"$so/scaleout.csv" 2>/dev/null || echo 0)" -gt 1 ]; then
		echo
		echo "## Scale-out: two guests, one fio client (bench/scaleout.sh)"
		echo
		echo "Both kernels booted at once, each on its own modelled disk and running"
		echo "\`fio --server\` behind a port forwarded on 127.0.0.1; the host's fio ran"
		echo "\`--client=$(basename "$so")/hosts.list\` with the same job file for both, in one run."
		echo "fio's JSON: \`${rel}/$(basename "$so")/fio.json\`. MB/s and mean latency (submission to"
		echo "completion) from fio's own statistics. The two guests run at the same time and"
		echo "share the host's $(nproc) cores, so these numbers show the set-up working; they are"
		echo "not a measurement to set against the single-guest scenarios above."
		[ "$(cat "$so/failed" 2>/dev/null)" = 0 ] || echo "**This scale-out run is PARTIAL** (see \`${rel}/$(basename "$so").err\`)."
		echo
		for n in $(tab "$so/scaleout.csv" host '{ print $C["host"] }' | sort -u); do
			e=$so/$n/env.txt
			echo "- guest \`$n\`: kernel $(sed -n 's/^kernel=//p' "$e" 2>/dev/null | head -n 1), accel $(sed -n 's/^accel=//p' "$e" 2>/dev/null | head -n 1), hint counters: $(grep '^hint_' "$e" 2>/dev/null | tr '\n' ' ' | sed 's/ $//')$(grep -q '^knows_flags=0' "$e" 2>/dev/null && echo 'none (O_HOT/O_COLD unknown)')"
		done
		echo
		echo "| guest | job | MiB moved | MB/s | mean latency ms | fio error |"
		echo "|---|---|---|---|---|---|"
		tab "$so/scaleout.csv" "host job bytes mb_s lat_mean_ms error" '{
			printf "| %s | %s | %.0f | %.2f | %.2f | %s |\n", $C["host"], $C["job"], $C["bytes"] / 1048576, $C["mb_s"], $C["lat_mean_ms"], $C["error"] }'
		echo
		# the seq measure's headline pair (bench/scenarios: headline=A/B)
		read -r _ sa sb <<<"$(scen_headline "$out" seq)" || true
		for n in $(tab "$so/scaleout.csv" host '{ print $C["host"] }' | sort -u); do
			[ -n "${sa:-}" ] || break
			h=$(csv_get "$so/scaleout.csv" mb_s host="$n" job="$sa") c=$(csv_get "$so/scaleout.csv" mb_s host="$n" job="$sb")
			[ -n "$h" ] && [ -n "$c" ] && echo "- \`$n\`: $sa / $sb **$(ratio "$h" "$c")**"
		done
	fi

	if [ -f "$out/create-unlink-patched.csv" ] && [ -f "$out/create-unlink-stock.csv" ]; then
		p=$out/create-unlink-patched.csv s=$out/create-unlink-stock.csv
		echo
		echo "## create()+unlink() rate"
		echo
		echo "One guest run per kernel on a 64 GiB ext4 (defaults, flex_bg=16) on a"
		echo "plain virtio disk; files created and unlinked in one directory"
		echo "(\`bench/create_bench.c\`). Rates are creates+unlinks per second."
		echo
		echo "| flag | patched (/s) | stock (/s) | patched / stock | vs no flag (patched) |"
		echo "|---|---|---|---|---|"
		for m in none hot cold; do
			echo "| $m | $(rate "$p" $m) | $(rate "$s" $m) | $(ratio "$(rate "$p" $m)" "$(rate "$s" $m)") | $(ratio "$(rate "$p" $m)" "$(rate "$p" none)") |"
		done
		echo
		echo "On the stock kernel open() ignores the unknown bits, so its three rows"
		echo "measure the same code path and show the run-to-run noise."
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
			echo "- [$(sed -n 's/^# //p' "$(dirname "$page")/$o" | head -n 1)]($o): $(grep -m1 '^Written by' "$(dirname "$page")/$o" | sed 's/^Written by //; s/ in$//')"
		done
	fi
	if [ -s "$out/steps.csv" ]; then
		echo
		echo "## This run's steps: planned and taken"
		echo
		echo "Minutes per step of \`make bench\` (bench/bench.sh and bench/run.sh; the plan from"
		echo "bench/plan, on a 2-core host under TCG with nothing else running; a step that"
		echo "shared the wall clock with another, as two ageing guests do, counts its share)."
		echo "Steps with no time taken did not run in this run (or ended with it: the page)."
		echo
		echo "| step | planned (min) | taken (min) |"
		echo "|---|---|---|"
		awk -F, 'NR > 1 { printf "| %s | %s | %s |\n", $1, $2, ($3 == "" ? "-" : $3) }' "$out/steps.csv"
		awk -F, 'NR > 1 { p += $2; if ($3 != "") t += $3 } END { printf "| total | %.1f | %.1f |\n", p, t }' "$out/steps.csv"
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
