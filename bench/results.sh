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
rel=${out#"$top"/}

rate() { awk -F, -v m="$2" '$1 == m { print $4 }' "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b > 0) printf "%.3f", a / b; else print "n/a" }'; }
env_of() { sed -n "s/^$1=//p" "$out/run-env.txt" 2>/dev/null | tail -n 1; }
# first value of KEY in the env.txt of any run of scenario S
guest_env() { cat "$out/$1"/run*/env.txt 2>/dev/null | sed -n "s/^$2=//p" | head -n 1; }
# value of column C for row whose columns 1,2 are A,B
# (empty when the file is missing: a partial run still gets its page)
cell() { awk -F, -v a="$2" -v b="$3" -v c="$4" '$1 == a && $2 == b { print $c; exit }' "$1" 2>/dev/null || true; }
# "median (min-max)" from columns C, C+1, C+2
mmm() { awk -F, -v a="$2" -v b="$3" -v c="$4" '$1 == a && $2 == b {
	if ($(c + 1) == $(c + 2)) printf "%.2f", $c; else printf "%.2f (%.2f-%.2f)", $c, $(c + 1), $(c + 2); exit }' "$1" 2>/dev/null || true; }
# dcell SCENARIO JOB METRIC: median on the disk's clock (summary/disk.csv)
dcell() { awk -F, -v s="$1" -v j="$2" -v m="$3" '$1 == s && $2 == j && $4 == m { print $5; exit }' "$sum/disk.csv" 2>/dev/null || true; }
# dmm SCENARIO JOB METRIC: "median (min-max)" on the disk's clock
dmm() { awk -F, -v s="$1" -v j="$2" -v m="$3" '$1 == s && $2 == j && $4 == m {
	if ($6 == $7) printf "%.2f", $5; else printf "%.2f (%.2f-%.2f)", $5, $6, $7; exit }' "$sum/disk.csv" 2>/dev/null || true; }
r2() { awk -v a="$1" 'BEGIN { if (a == "") print "n/a"; else printf "%.2f", a }'; }
# The page's figures are tracked next to it (plots/figures/, PNG, from this
# run), so its links work in a fresh clone; the SVGs (large) stay in OUT.
figdir=$(dirname "$page")/plots/figures
mkdir -p "$figdir"
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
rows_for() { awk -F, -v s="$2" 'FNR > 1 && $1 == s { f = 1; exit } END { exit !f }' "$1" 2>/dev/null; }
missing=$(
	for m in seq rand placement aged promote zones scaleout qd dirmark; do
		for s in $(scen "$out" $m); do
			grep -q "^$s [0-9]* ok$" "$out/status" 2>/dev/null || continue
			case $m in
			seq) f=$sum/seq.csv ;; rand) f=$sum/rand.csv ;; placement) f=$sum/placement-thirds.csv ;;
			aged) f=$sum/aged-sets.csv ;; promote) f=$sum/promote-runs.csv ;; zones) f=$sum/zones.csv ;; scaleout) f=$out/scaleout/scaleout.csv ;;
			qd) f=$sum/qd-runs.csv ;; dirmark) f=$sum/dirmark-runs.csv ;;
			esac
			case $m in
			placement|zones|scaleout) [ "$(wc -l 2>/dev/null <"$f" 2>/dev/null || echo 0)" -gt 1 ] ;;
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

	zr=$(cut -d, -f1 "$sum/zone-ratio.csv" 2>/dev/null || true)
	zo=$(cut -d, -f2 "$sum/zone-ratio.csv" 2>/dev/null || true)
	zi=$(cut -d, -f3 "$sum/zone-ratio.csv" 2>/dev/null || true)
	hot=$(cell "$sum/seq.csv" seq hot-read 3) cold=$(cell "$sum/seq.csv" seq cold-read 3)
	hl=$(cell "$sum/rand.csv" randread hot 6) nl=$(cell "$sum/rand.csv" randread none 6)
	zs=$(cell "$sum/zones.csv" trace start 3) ze=$(cell "$sum/zones.csv" trace end 3)
	if [ -n "$hot$hl$zs" ]; then
		echo
		echo "## Headline numbers"
		echo
		[ -n "$zr" ] && echo "- drive model's zone ratio (outermost / innermost sequential rate): **$zr** ($zo / $zi MB/s)"
		[ -n "$hot" ] && echo "- sequential O_DIRECT read, hot / cold file: **$(ratio "$hot" "$cold")** ($(r2 "$hot") / $(r2 "$cold") MB/s, medians) vs zone ratio $zr"
		mh=$(cell "$sum/seq-model.csv" seq hot-read 4) mc=$(cell "$sum/seq-model.csv" seq cold-read 4)
		[ -n "$mh" ] && [ -n "$mc" ] && echo "  - the model's rate where the two files lie (mean positions $(cell "$sum/seq-model.csv" seq hot-read 3) and $(cell "$sum/seq-model.csv" seq cold-read 3) of the disk): $mh / $mc MB/s, ratio **$(ratio "$mh" "$mc")**; the zone ratio is the upper bound (outermost vs innermost track)"
		dh=$(dcell randread hot service_p50_ms) dn=$(dcell randread none service_p50_ms)
		[ -n "$dh" ] && echo "- random 4 KiB reads on a fresh filesystem, hot set / unhinted set, median service time at the disk (model's trace): **$(r2 "$dh") / $(r2 "$dn") ms** (ratio $(ratio "$dh" "$dn")); the engine's latency through the guest: $(r2 "$hl") / $(r2 "$nl") ms"
		[ -z "$dh" ] && [ -n "$hl" ] && echo "- random 4 KiB reads, hot / unhinted set, engine latency only (no trace join in this run): $(r2 "$hl") / $(r2 "$nl") ms"
		[ -n "$zs" ] && echo "- raw-disk O_DIRECT read (busybox dd, 64 MiB), start / end of the disk: **$(ratio "$zs" "$ze")** ($zs / $ze MB/s, model's clock from the trace; guest clock: $(cell "$sum/zones.csv" guest start 3) / $(cell "$sum/zones.csv" guest end 3) MB/s) vs zone ratio $zr"
	fi

	if [ -s "$sum/placement-thirds.csv" ]; then
		echo
		echo "## Placement (bench/placement.fio)"
		echo
		echo "Files per third of the disk by creation hint (run 1; $(cat "$sum/placement-ngroups.txt") block groups)."
		echo
		echo "| hint | third | files | fraction |"
		echo "|---|---|---|---|"
		awk -F, 'NR > 1 { printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4 }' "$sum/placement-thirds.csv"
		echo
		fig placement "files per block group"
	fi

	if [ "$(wc -l 2>/dev/null <"$sum/seq.csv" 2>/dev/null || echo 0)" -gt 1 ]; then
		echo
		echo "## Sequential O_DIRECT throughput (bench/seq.fio, bench/aged.fio)"
		echo
		echo "MB/s (10^6 B/s), median of the runs (min-max)."
		echo
		echo "| scenario | job | MB/s | runs |"
		echo "|---|---|---|---|"
		awk -F, 'NR > 1 { r = ($4 == $5) ? sprintf("%.2f", $3) : sprintf("%.2f (%.2f-%.2f)", $3, $4, $5)
			printf "| %s | %s | %s | %s |\n", $1, $2, r, $6 }' "$sum/seq.csv"
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
		awk -F, -v fresh=" $(scen "$out" rand fresh | tr '\n' ' ')" 'function m(c) { return ($(c + 1) == $(c + 2)) ? sprintf("%.2f", $c) : sprintf("%.2f (%.2f-%.2f)", $c, $(c + 1), $(c + 2)) }
			FILENAME ~ /disk.csv$/ { if ($4 ~ /^service_p(50|99)_ms$/) v[$1 "," $2 "," $4] = ($6 == $7) ? sprintf("%.2f", $5) : sprintf("%.2f (%.2f-%.2f)", $5, $6, $7); next }
			FNR > 1 && index(fresh, " " $1 " ") { k = $1 "," $2; a = v[k ",service_p50_ms"]; b = v[k ",service_p99_ms"]
				printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, a == "" ? "-" : a, b == "" ? "-" : b, m(6), m(9), m(12), $15 }' \
			"$sum/disk.csv" "$sum/rand.csv"
		echo
		for s in $(scen "$out" rand fresh); do
			fig "service-cdf-$s" "service-time CDF at the disk, $s"
			fig "latency-cdf-$s" "engine latency CDF (guest clock), $s"
			fig "seek-cdf-$s" "seek-distance CDF, $s"
		done
		fig seek-latency "service time vs seek distance (model trace) with the model's seek curve"
	fi

	"$top/bench/results-qd.sh" "$out" "$figdir"

	for n in $(scen "$out" dirmark); do
		rows_for "$sum/dirmark.csv" "$n" || continue
		echo
		echo "## Unmodified applications: a directory marked hot ($n, bench/dirmark.fio)"
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
		awk -F, -v n="$n" 'NR > 1 && $1 == n { print $2 }' "$sum/dirmark.csv" | while read -r j; do
			echo "| $j | $(awk -F, -v n="$n" -v j="$j" '$1 == n && $3 == j { print $4; exit }' "$sum/dirmark-runs.csv") | $(mmm "$sum/dirmark.csv" "$n" "$j" 3) | $(dmm "$n" "$j" service_p50_ms) | $(dmm "$n" "$j" engine_p50_ms) | $(cell "$sum/dirmark.csv" "$n" "$j" 6) |"
		done
		echo
		echo "Counters after each run (the guest's /sys/fs/ext4/vda; a run mounts the image afresh):"
		echo
		awk -F, -v n="$n" 'NR > 1 && $1 == n && !seen[$2]++ { printf "- %s: hint_inherited %s, hint_honoured %s; marks read back: %s\n", $2, $8, $9, $10 }' "$sum/dirmark-runs.csv"
		e=$out/$n/aging/env.txt st=$out/$n/aging/state.txt
		if [ -f "$e" ]; then
			echo
			echo "The aged image: $(sed -n 's/^df_used_pct=/df used /p' "$e" | head -n 1)%, made by hc-age (seed $(env_of aged_seed), churn $(env_of aged_churn), sets $(env_of aged_sets)) on the $(env_of disk) disk; $(sed -n 's/^image=/cached as /p' "$e" | head -n 1)."
		fi
		echo
		fig "service-cdf-$n" "service-time CDF at the disk, $n (marked, unmarked, o_hot)"
	done

	if [ "$(cat "$sum/compare-seq.csv" "$sum/compare-rand.csv" 2>/dev/null | grep -vc "^job,")" -gt 0 ]; then
		echo
		echo "## Stock vs patched kernel (same job files)"
		echo
		echo "| measure | job | patched | stock |"
		echo "|---|---|---|---|"
		awk -F, 'NR > 1 { printf "| seq read MB/s | %s | %.2f | %.2f |\n", $1, $2, $3 }' "$sum/compare-seq.csv" 2>/dev/null
		awk -F, 'NR > 1 { printf "| randread service p50 ms (disk) | %s | %.2f | %.2f |\n", $1, $2, $3 }' "$sum/compare-rand.csv" 2>/dev/null
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
				echo "| $s | $j | $(dmm "$s" "$j" service_p50_ms) | $(dmm "$s" "$j" service_p99_ms) | $(mmm "$sum/rand.csv" "$s" "$j" 6) | $(cell "$sum/rand.csv" "$s" "$j" 15) |"
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
		awk -F, 'NR > 1 { printf "| %s | %s | %s of %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $4, $3, $5, $6, $7, $8, $9, $10, $11, $12 }' \
			"$sum/promote-runs.csv"
		echo
		for s in $(scen "$out" promote); do fig "service-cdf-$s" "service-time CDF at the disk, $s (N-before, N-after)"; done
	fi


	if [ "$(wc -l 2>/dev/null <"$sum/zones.csv" 2>/dev/null || echo 0)" -gt 1 ]; then
		echo
		echo "## Raw disk, start vs end"
		echo
		echo "\`dd if=/dev/vda of=/dev/null bs=1M count=64 iflag=direct\` at the first and at"
		echo "the last 64 MiB; timed by the guest (/proc/uptime, 10 ms) and by the model's trace."
		echo
		echo "| clock | zone | MB/s | runs |"
		echo "|---|---|---|---|"
		awk -F, 'NR > 1 { r = ($4 == $5) ? sprintf("%.2f", $3) : sprintf("%.2f (%.2f-%.2f)", $3, $4, $5)
			printf "| %s | %s | %s | %s |\n", $1, $2, r, $6 }' "$sum/zones.csv"
	fi

	so=$out/scaleout
	if [ "$(wc -l 2>/dev/null <"$so/scaleout.csv" 2>/dev/null || echo 0)" -gt 1 ]; then
		echo
		echo "## Scale-out: two guests, one fio client (bench/scaleout.sh)"
		echo
		echo "Both kernels booted at once, each on its own modelled disk and running"
		echo "\`fio --server\` behind a port forwarded on 127.0.0.1; the host's fio ran"
		echo "\`--client=$(basename "$so")/hosts.list\` with the same job file for both, in one run."
		echo "fio's JSON: \`${rel}/scaleout/fio.json\`. MB/s and mean latency (submission to"
		echo "completion) from fio's own statistics. The two guests run at the same time and"
		echo "share the host's $(nproc) cores, so these numbers show the set-up working; they are"
		echo "not a measurement to set against the single-guest scenarios above."
		[ "$(cat "$so/failed" 2>/dev/null)" = 0 ] || echo "**This scale-out run is PARTIAL** (see \`${rel}/scaleout.err\`)."
		echo
		for n in $(awk -F, 'NR > 1 { print $1 }' "$so/scaleout.csv" | sort -u); do
			e=$so/$n/env.txt
			echo "- guest \`$n\`: kernel $(sed -n 's/^kernel=//p' "$e" 2>/dev/null | head -n 1), accel $(sed -n 's/^accel=//p' "$e" 2>/dev/null | head -n 1), hint counters: $(grep '^hint_' "$e" 2>/dev/null | tr '\n' ' ' | sed 's/ $//')$(grep -q '^knows_flags=0' "$e" 2>/dev/null && echo 'none (O_HOT/O_COLD unknown)')"
		done
		echo
		echo "| guest | job | MiB moved | MB/s | mean latency ms | fio error |"
		echo "|---|---|---|---|---|---|"
		awk -F, 'NR > 1 { printf "| %s | %s | %.0f | %.2f | %.2f | %s |\n", $1, $2, $3 / 1048576, $4, $5, $6 }' "$so/scaleout.csv"
		echo
		for n in $(awk -F, 'NR > 1 { print $1 }' "$so/scaleout.csv" | sort -u); do
			h=$(cell "$so/scaleout.csv" "$n" hot-read 4) c=$(cell "$so/scaleout.csv" "$n" cold-read 4)
			[ -n "$h" ] && [ -n "$c" ] && echo "- \`$n\`: hot-read / cold-read **$(ratio "$h" "$c")**"
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
} >"$tmp"
mv "$tmp" "$page"
echo "  RESULTS $page"
if [ -n "$missing" ]; then
	echo "$missing" | sed 's/^/results: /' >&2
	exit 1
fi
