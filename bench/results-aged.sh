#!/bin/bash
# The "Aged filesystem" section of RESULTS.md, from OUT/summary/ (bench/
# summarise.sh and summarise-aged.sh): for each aged-* scenario how the
# image was made, where each set landed, and what reading it cost on the
# disk model's clock next to the guest's.  Markdown on stdout; nothing when
# the run had no aged scenario.  Called by bench/results.sh.
# Usage: bench/results-aged.sh OUT FIGDIR (where the page's PNGs are, as
# plots/figures/ next to the page)
set -eu
out=${1:?usage: bench/results-aged.sh OUT FIGDIR}
figdir=${2:?usage: bench/results-aged.sh OUT FIGDIR}
sum=$out/summary
[ "$(wc -l <"$sum/aged-sets.csv" 2>/dev/null || echo 0)" -gt 1 ] || exit 0
# mmm (the "median (min-max)"), ratio, csv_get
. "$(dirname "$0")/lib.sh"

# d SCEN JOB METRIC [COL]: disk.csv value (COL 5 median, 6 min, 7 max)
d() { awk -F, -v s="$1" -v j="$2" -v m="$3" -v c="${4:-5}" '$1 == s && $2 == j && $4 == m { print $c; exit }' "$sum/disk.csv"; }
# mm SCEN JOB METRIC: "median (min-max)", "-" when the run has none
mm() { mmm "$(d "$1" "$2" "$3" 5)" "$(d "$1" "$2" "$3" 6)" "$(d "$1" "$2" "$3" 7)" -; }
st() { awk -F, -v s="$1" -v k="$2" '$1 == s && $2 == k { print $3; exit }' "$sum/aged-state.csv"; }
set_row() { awk -F, -v s="$1" -v x="$2" '$1 == s && $2 == x' "$sum/aged-sets.csv"; }
aim() { # value op limit
	awk -v v="$1" -v o="$2" -v l="$3" 'BEGIN { if (v == "n/a" || v == "") print "not measured";
		else if ((o == "le" && v <= l) || (o == "ge" && v >= l)) print "met"; else print "**not met**" }'; }
outer=$(csv_get "$sum/zone-ratio.csv" outer_mb_s) inner=$(csv_get "$sum/zone-ratio.csv" inner_mb_s) zr=$(csv_get "$sum/zone-ratio.csv" zone_ratio)
rev=$(sed -n 's/.*revolution \([0-9.]*\) ms.*/\1/p' "$sum/hdd-curves.txt")
# the floor of a random 4 KiB read: half a revolution plus the transfer at the outer rate
floor=$(awk -v r="$rev" -v o="$outer" 'BEGIN { printf "%.3f", r / 2 + 4096 / (o * 1e6) * 1e3 }')
scen=$(awk -F, 'NR > 1 { print $1 }' "$sum/aged-sets.csv" | sort -u | sort -t- -k2,2n -k3,3)
# lbl SCEN: "80%" or "80%, reserve on" (aged-80-reserve: region_reserve=1)
lbl() { local f=${1#aged-}; case $f in *-reserve) echo "${f%-reserve}%, reserve on" ;; *-stock) echo "${f%-stock}%, stock kernel" ;; *) echo "$f%" ;; esac; }
# third SCEN SET first|middle|last: the fraction of the set's bytes there
third() { set_row "$1" "$2" | awk -F, -v w="$3" '{ print (w == "first" ? $6 : w == "middle" ? $7 : $8) }'; }

echo
echo "## Aged filesystem (bench/aged.fio, bench/age.c)"
echo
disk=$(sed -n 's/^disk=//p' "$out/run-env.txt") ts=$(sed -n 's/^time_scale=//p' "$out/run-env.txt")
echo "A fresh ext4 on the $disk disk is aged by \`hc-age\` (bench/age.c) on a plain"
echo "virtual disk, and the image is then served through the disk model (nbdkit's"
echo "file plugin under a copy-on-write overlay, so every run reads the same image)."
echo "hc-age makes $(st "$(echo "$scen" | head -n 1)" dirs) top-level directories (Orlov spreads them), creates"
echo "unhinted fallocate()d filler files with sizes from Impressions' default model"
echo "(lognormal body mu=9.48 sigma=2.46 with a Pareto tail k=0.91 above 512 MiB;"
echo "Agrawal et al., FAST '09), then churns (deletes random files, creates new"
echo "ones) so free space ends up fragmented. While it churns it creates the sets"
echo "that are read here, with real data, one file at a time and spread over the"
echo "tree: H and H2 with O_HOT, C with O_COLD, N and N2 unhinted (random 4 KiB"
echo "reads), HS, CS, NS (one file each, sequential 1 MiB reads)."
echo
echo "Latency is the disk model's **service time** (arrival to end, from its trace,"
echo "joined request by request with the engine's seek log; a run that matches"
echo "fewer than 99% of the reads fails). The engine's latency is what the"
echo "application saw through the guest. The guest's overhead is given per read:"
echo "\"engine - service p50\" is the median over the reads of each read's engine"
echo "latency minus its own service time, which is not engine p50 minus service"
echo "p50: the overhead differs from read to read, most when two jobs run at"
echo "once in the guest. Seq MB/s"
echo "on the disk's clock: the bytes of the requests that carried the set's reads"
echo "over the drive's seek + rotation + transfer for them (not the time it stood"
echo "idle waiting for the guest)."
echo "Median of the runs (min-max). Drive limits: outer-zone rate $outer MB/s,"
echo "inner $inner MB/s (zone ratio $zr); floor of a random 4 KiB read (half a"
echo "revolution + transfer) $floor ms."
[ "$ts" = 1 ] || echo "This run used time-scale $ts: the guest waited $ts of every modelled delay, so the engine's latency and engine - service are not comparable with the disk's times here."
echo
missing=""
for f in 50 80 95; do echo "$scen" | grep -qx "aged-$f" || missing="$missing aged-$f"; done
[ -z "$missing" ] || { echo "**Not run in this run:$missing** (so the aims at those fullness levels are not measured here)."; echo; }
# H/N and C/N image by image (summary/aged-ratios-runs.csv: one run per
# ageing seed), median (min-max); an aim is met only when the whole range
# clears it (the HS rate: its runs' min-max on the disk's clock)
seedr() { awk -F, -v s="$1" -v m="$2" -v need="scenario $2" "$CSV_AWK$STATS_AWK"'$C["scenario"] == s && $C[m] != "" { v[++n] = $C[m] }
	END { if (csv_bad) exit 2; if (!n) exit; stats_sort(v, n); printf "%s %s %s %d\n", stats_med(v, n), v[1], v[n], n }' "$sum/aged-ratios-runs.csv"; }
aimr() { # MED MIN MAX le|ge LIMIT
	awk -v m="$1" -v lo="$2" -v hi="$3" -v o="$4" -v l="$5" 'BEGIN { if (m == "") print "not measured";
		else if ((o == "le" && hi <= l) || (o == "ge" && lo >= l)) print "met";
		else if ((o == "le" && lo > l) || (o == "ge" && hi < l)) print "**not met**"; else print "**not met**: the range straddles it" }'; }
echo "H/N and C/N: per image (one per ageing seed), median (min-max) across seeds; an aim is"
echo "met only when the whole range clears it."
echo
echo "| fullness | seeds | H/N service p50 (aim <= 0.55) | floor/N | C/N | H/C | HS / outer-zone rate | HS/CS seq (zone ratio $zr) |"
echo "|---|---|---|---|---|---|---|---|"
for s in $scen; do
	h=$(d "$s" H service_p50_ms) c=$(d "$s" C service_p50_ms) n=$(d "$s" N service_p50_ms)
	hs=$(d "$s" HS-read disk_mb_s) cs=$(d "$s" CS-read disk_mb_s)
	read -r hm hlo hhi ns <<<"$(seedr "$s" hn)" || true
	read -r cm clo chi _ <<<"$(seedr "$s" cn)" || true
	ho=$(ratio "$hs" "$outer") holo=$(ratio "$(d "$s" HS-read disk_mb_s 6)" "$outer") hohi=$(ratio "$(d "$s" HS-read disk_mb_s 7)" "$outer")
	echo "| $(lbl "$s") | ${ns:-0} | $(mmm "${hm:-}" "${hlo:-}" "${hhi:-}" -) ($(aimr "${hm:-}" "${hlo:-}" "${hhi:-}" le 0.55)) | $(ratio "$floor" "$n") | $(mmm "${cm:-}" "${clo:-}" "${chi:-}" -) | $(ratio "$h" "$c") |" \
		"$ho$(case $s in aged-80|aged-80-reserve) echo " (aim >= 0.9: $(aimr "$ho" "$holo" "$hohi" ge 0.9))" ;; esac) | $(ratio "$hs" "$cs") |"
	hm="" cm="" ns=""
done
echo
# The kernel's region reserve (region_reserve=1, patch 9): the same ageing
# with unhinted files kept out of the hot and cold regions, beside the run
# without it, so what hot files gain and unhinted ones lose is measured.
pairs=""
for s in $scen; do
	case $s in *-reserve) echo "$scen" | grep -qx "${s%-reserve}" && pairs="$pairs ${s%-reserve}" ;; esac
done
if [ -n "$pairs" ]; then
	echo "### The region reserve: off vs on"
	echo
	echo "Same seed, sets and churn; with the reserve on (mount option region_reserve=1,"
	echo "both while ageing and while measuring) unhinted files keep out of the hot and"
	echo "cold regions until the middle, then the cold region, is 95% full. Fractions"
	echo "are of the set's bytes; service times on the disk's clock, median (min-max)."
	echo
	echo "| fullness | reserve | H in first third | C in last third | N in first / middle / last third | H service p50 (ms) | N service p50 (ms) | H/N | HS MB/s | NS MB/s | HS / outer-zone rate |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	for b in $pairs; do
		for s in "$b" "$b-reserve"; do
			echo "| ${b#aged-}% | $(case $s in *-reserve) echo on ;; *) echo off ;; esac) | $(third "$s" H first)$(case $s in *-reserve) echo " (aim >= 0.9: $(aim "$(third "$s" H first)" ge 0.9))" ;; esac) | $(third "$s" C last) |" \
				"$(third "$s" N first) / $(third "$s" N middle) / $(third "$s" N last) | $(mm "$s" H service_p50_ms) | $(mm "$s" N service_p50_ms) |" \
				"$(ratio "$(d "$s" H service_p50_ms)" "$(d "$s" N service_p50_ms)") | $(mm "$s" HS-read disk_mb_s) | $(mm "$s" NS-read disk_mb_s) |" \
				"$(ratio "$(d "$s" HS-read disk_mb_s)" "$outer") |"
		done
	done
	echo
fi
for s in $scen; do
	echo "### $(lbl "$s") full ($s)"
	echo
	echo "- mount options while ageing and measuring: $(st "$s" mount_opts) (region_reserve $(st "$s" region_reserve))"
	echo "- image: seed $(st "$s" seed), target $(st "$s" target_pct)%, reached $(st "$s" fullness_pct)% of blocks (df: $(st "$s" df_used_pct)%);" \
		"churn $(awk -v b="$(st "$s" bytes_churned)" -v f="$(st "$s" fs_bytes)" 'BEGIN { printf "%.1f GiB (%.2fx the filesystem)", b / 2^30, b / f }') created and deleted after the first fill;" \
		"$(st "$s" files_live) files live ($(st "$s" files_created) created, $(st "$s" files_deleted) deleted)"
	echo "- top-level directories by third of the disk (first/middle/last): $(st "$s" dirs_first)/$(st "$s" dirs_middle)/$(st "$s" dirs_last);" \
		"extents per file: mean $(st "$s" extents_per_file_mean), p90 $(st "$s" extents_per_file_p90), max $(st "$s" extents_per_file_max)"
	echo "- free space (e2freefrag): $(st "$s" freefrag_extents) free extents, average $(st "$s" freefrag_avg_kib) KiB, largest $(st "$s" freefrag_max_kib) KiB"
	echo "- aged in $(st "$s" age_seconds) s on the patched kernel ($(st "$s" made)); e2fsck -fn status $(st "$s" fsck_rc);" \
		"hint counters while ageing: honoured=$(st "$s" age_hint_honoured), fallback=$(st "$s" age_hint_fallback), dropped_nonrot=$(st "$s" age_hint_dropped_nonrot)"
	echo
	echo "| set | hint | files | bytes in first / middle / last third | span (GiB) | extents/file | service p50 (ms) | service p99 (ms) | engine p50 (ms) | engine - service p50 (ms) | seq MB/s, disk clock | seq MB/s, fio |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
	for x in H C N H2 N2 HS CS NS; do
		IFS=, read -r _ _ hint files ext f m l span _ <<<"$(set_row "$s" "$x")"
		[ -n "${hint:-}" ] || continue
		case $x in
		?S) sv="- | - | - | -" q="$(mm "$s" "$x-read" disk_mb_s) | $(awk -F, -v s="$s" -v j="$x-read" '$1 == s && $2 == j { printf "%.2f", $3 }' "$sum/seq.csv")" ;;
		H|C|N) sv="$(mm "$s" "$x" service_p50_ms) | $(mm "$s" "$x" service_p99_ms) | $(mm "$s" "$x" engine_p50_ms) | $(mm "$s" "$x" overhead_p50_ms)" q="- | -" ;;
		*) sv="- | - | - | -" q="- | -" ;;
		esac
		echo "| $x | $hint | $files | $f / $m / $l | $span | $ext | $sv | $q |"
	done
	echo
	echo "Two sets read at once (4 KiB random reads, one request at a time per job; every row of this table is one of two concurrent jobs):"
	echo
	echo "| pair | job | service p50 (ms) | service p99 (ms) | engine p50 (ms) | engine - service p50 (ms) |"
	echo "|---|---|---|---|---|---|"
	for p in "hot + cold:hc-hot hc-cold" "unhinted + unhinted:nn-a nn-b" "hot + hot:hh-a hh-b"; do
		for j in ${p#*:}; do
			echo "| ${p%%:*} | $j | $(mm "$s" "$j" service_p50_ms) | $(mm "$s" "$j" service_p99_ms) | $(mm "$s" "$j" engine_p50_ms) | $(mm "$s" "$j" overhead_p50_ms) |"
		done
	done
	echo
	[ -f "$figdir/service-cdf-$s.png" ] && echo "- [service-time CDF per set](plots/figures/service-cdf-$s.png)" && echo
done
[ -f "$figdir/aged-placement.png" ] && echo "- [placement per third vs fullness](plots/figures/aged-placement.png)"
[ -f "$figdir/aged-seq.png" ] && echo "- [sequential MB/s vs fullness, with the model's outer and inner rates](plots/figures/aged-seq.png)"
exit 0
