#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The top of the page: the answer.  A short conclusion composed from the
# run's numbers (what O_HOT buys against no hint on aged disks, reserve off
# and on; what it costs; when it hurts), then one table and one figure of
# H/N and C/N against fullness.  Markdown on stdout; nothing when the run
# had no aged scenario.  Also writes, into DATA (the page's plots/data/):
#   answer.csv     the table's numbers (median, min, max across seeds, n)
#   summary.json   the headline numbers, with the commit, the run id, the
#                  command, the disk size, the seeds
# Every number comes from OUT/summary/ (bench/measures/summarise.sh, bench/measures/measure-aged.sh)
# and DATA/create-unlink.csv (bench/measures/results.sh); the scenarios' kernel and fullness from
# OUT/scenarios, never from their names.  Called by bench/results.sh.
# Usage: bench/measures/results-answer.sh OUT DATA
set -eu
out=${1:?usage: bench/measures/results-answer.sh OUT DATA}
data=${2:?usage: bench/measures/results-answer.sh OUT DATA}
top=$(cd "$(dirname "$0")/../.." && pwd)
sum=$out/summary
. "$top/bench/measures/lib.sh"
mkdir -p "$data"
env_of() { sed -n "s/^$1=//p" "$out/run-env.txt" 2>/dev/null | tail -n 1; }
# The aims, set in issue 8 when the aged scenarios were written: hot reads
# at most 0.55 of the unhinted time at 50, 80 and 95% (the floor, half a
# revolution plus the transfer, is about 0.36 of it); "met" only when the
# whole range across seeds clears it.
AIM_HN=0.55
ar=$sum/aged-ratios.csv
has "$ar" || exit 0

# cell KERNEL FILL RESERVE METRIC: "MEDIAN MIN MAX SEEDS" or nothing
cell() { tab "$ar" "kernel fill reserve metric value_median value_min value_max runs" '$C["kernel"] == k && $C["fill"] == f && $C["reserve"] == r && $C["metric"] == m {
	print $C["value_median"], $C["value_min"], $C["value_max"], $C["runs"]; exit }' -v k="$1" -v f="$2" -v r="$3" -v m="$4"; }
# cellf KERNEL FILL RESERVE METRIC: the cell's "median (min-max)", "-" when not measured
cellf() { local m lo hi n; read -r m lo hi n <<<"$(cell "$@")"; mmm "${m:-}" "${lo:-}" "${hi:-}" -; }
seeds_of() { local m lo hi n; read -r m lo hi n <<<"$(cell "$@")"; echo "${n:-0}"; }
# aimh MED MIN MAX: met only when the whole range is at or below the aim
aimh() { aim "$1" "$2" "$3" le "$AIM_HN"; }
# pct A B: (A / B - 1) as "+12%" / "-3%"
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b <= 0) print "n/a"; else printf "%+.0f%%", (a / b - 1) * 100 }'; }
# per_seed METRIC FILL: "MEDIAN MIN MAX N" of METRIC(reserve on) / METRIC(reserve off)
# on the patched kernel, image by image (the same seed aged both ways)
per_seed() {
	awk -F, -v m="$1" -v f="$2" -v need="kernel fill reserve seed $1" "$CSV_AWK$STATS_AWK"'
		$C["kernel"] == "patched" && $C["fill"] == f { v[$C["reserve"] "," $C["seed"]] = $C[m]; s[$C["seed"]] = 1 }
		END { if (csv_bad) exit 2
			for (x in s) if (("on," x) in v && ("off," x) in v && v["off," x] > 0) r[++n] = v["on," x] / v["off," x]
			if (!n) exit; stats_sort(r, n); printf "%s %s %s %d\n", stats_med(r, n), r[1], r[n], n }' "$sum/aged-ratios-runs.csv"
}
# pctr MEDIAN MIN MAX: a ratio as a change, "+23% (+18 to +30%)"
pctr() { awk -v a="$1" -v b="$2" -v c="$3" 'BEGIN { if (a == "") { printf "n/a"; exit }
	if (sprintf("%.0f", (b - 1) * 100) == sprintf("%.0f", (c - 1) * 100)) printf "%+.0f%%", (a - 1) * 100
	else printf "%+.0f%% (%+.0f to %+.0f%%)", (a - 1) * 100, (b - 1) * 100, (c - 1) * 100 }'; }

fills=$(tab "$ar" "kernel fill" '$C["kernel"] == "patched" { print $C["fill"] }' | sort -un)
stock_fills=$(tab "$ar" "kernel fill" '$C["kernel"] == "stock" { print $C["fill"] }' | sort -un)
disk=$(env_of disk)
reads=$(tab "$sum/aged-ratios-runs.csv" reads '$C["reads"] != "" { print $C["reads"] }' | sort -un | tr '\n' '/' | sed 's|/$||')
setinfo=$(env_of aged_sets | tr , '\n' | awk -F: '$1 == "H" || $1 == "C" || $1 == "N" { printf "%s%s %s files of %s", n++ ? ", " : "", $1, $3, $4 }')
maxseeds=$(tab "$ar" runs '{ if ($C["runs"] > m) m = $C["runs"] } END { print m + 0 }')
mid=$(echo "$fills" | awk '{ v[NR] = $1 } END { for (i = 1; i <= NR; i++) if (v[i] == 80) { print 80; exit }; print v[int((NR + 1) / 2)] }')

# ---- the numbers of the conclusion
hn_list() { # RESERVE: "0.76 at 50%, 0.63 (0.61-0.65) at 80%, ..."
	local f first=1
	for f in $fills; do
		[ -n "$(cell patched "$f" "$1" hn)" ] || continue
		[ $first = 1 ] || printf ', '
		first=0
		printf '%s at %s%%' "$(cellf patched "$f" "$1" hn)" "$f"
	done
}
cn_list() {
	local f first=1
	for f in $fills; do
		[ -n "$(cell patched "$f" "$1" cn)" ] || continue
		[ $first = 1 ] || printf ', '
		first=0
		printf '%s at %s%%' "$(cellf patched "$f" "$1" cn)" "$f"
	done
}
met_at="" notmet_at=""
for f in $fills; do
	for r in off on; do
		read -r m lo hi _ <<<"$(cell patched "$f" "$r" hn)" || true
		[ -n "${m:-}" ] || continue
		case $(aimh "$m" "$lo" "$hi") in met) met_at="$met_at $f% (reserve $r)," ;; *) notmet_at="$notmet_at $f% (reserve $r)," ;; esac
		m=""
	done
done
# the stock kernel: the same recipe and seeds, the hint ignored.  Its "hot"
# set is a second unhinted set made the same way as the patched kernel's
# O_HOT set, so its H/N across seeds is how far apart two sets with no hint
# can read: the patched kernel's H/N means something only where its range
# is clear of that one.
stock_line=""
for f in $stock_fills; do
	read -r sm slo shi sn <<<"$(cell stock "$f" off hn)" || true
	[ -n "${sm:-}" ] || continue
	# patched hot against stock unhinted, image by image (the same seed aged on each kernel)
	read -r xm xlo xhi xn <<<"$(tab "$sum/aged-ratios-runs.csv" "kernel fill reserve seed H_ms N_ms" '$C["fill"] == f && $C["reserve"] == "off" {
			if ($C["kernel"] == "patched") h[$C["seed"]] = $C["H_ms"]; if ($C["kernel"] == "stock") n[$C["seed"]] = $C["N_ms"] }
		END { for (x in h) if ((x in n) && n[x] > 0) r[++k] = h[x] / n[x]
			if (!k) exit; stats_sort(r, k); printf "%s %s %s %d\n", stats_med(r, k), r[1], r[k], k }' -v f="$f")" || true
	stock_line="$stock_line Doing nothing, measured: on the stock kernel, the same ageing recipe and seeds ($f% full, $sn seed$([ "$sn" = 1 ] || echo s)), the set created with O_HOT (the flag is ignored there: a second unhinted set) reads at H/N $(mmm "$sm" "$slo" "$shi" -)"
	read -r pm plo phi _ <<<"$(cell patched "$f" off hn)" || true
	if [ -n "${pm:-}" ]; then
		stock_line="$stock_line, so two sets with no hint differ by up to $(awk -v a="$slo" -v b="$shi" 'BEGIN { d = 1 - a; if (b - 1 > d) d = b - 1; printf "%.0f%%", d * 100 }') in this measure"
		stock_line="$stock_line; the patched kernel's H/N, $(mmm "$pm" "$plo" "$phi" -), $(awk -v pl="$plo" -v ph="$phi" -v sl="$slo" -v sh="$shi" 'BEGIN {
			if (ph < sl) print "lies wholly below that range: what O_HOT buys here is larger than the difference between two unhinted sets"
			else if (pl > sh) print "lies wholly above that range: O_HOT makes the set slower than an unhinted set could be by chance"
			else print "overlaps that range: what O_HOT buys here cannot be told apart from the difference between two unhinted sets" }')"
		pm=""
	fi
	[ -z "${xm:-}" ] || stock_line="$stock_line; the patched kernel's O_HOT set over the stock kernel's unhinted set, seed by seed: **$(mmm "$xm" "$xlo" "$xhi" -)** ($xn seed$([ "$xn" = 1 ] || echo s))"
	stock_line="$stock_line."
	sm="" xm=""
done

# costs: creates (bench/runners/kernel-bench.sh; bench/measures/results.sh summarised them into
# DATA/create-unlink.csv), the reserve, pairs, a move
cu=$data/create-unlink.csv
create_line="creates: not measured in this run"
if has "$cu"; then
	# verdict MEDIAN MIN MAX WHAT: a change only when the whole range across
	# boots is on one side of 1
	verdict() { awk -v a="$1" -v lo="$2" -v hi="$3" -v w="$4" 'BEGIN {
		if (hi < 1) printf "%s: a regression of %.1f%% (%.1f to %.1f%%)", w, (1 - a) * 100, (1 - hi) * 100, (1 - lo) * 100
		else if (lo > 1) printf "%s: faster by %.1f%% (%.1f to %.1f%%)", w, (a - 1) * 100, (lo - 1) * 100, (hi - 1) * 100
		else printf "%s: not distinguishable from noise (%.3f, %.3f-%.3f across boots)", w, a, lo, hi }'; }
	g() { csv_get "$cu" "$2" mode="$1"; }
	create_line="create()+unlink() ($(g none boots) boot pairs, $(g none files) files per mode and boot, warm-up discarded): $(verdict "$(g none ps_median)" "$(g none ps_min)" "$(g none ps_max)" "unhinted creates on the patched kernel against the stock kernel"); $(verdict "$(g hot vs_none_median)" "$(g hot vs_none_min)" "$(g hot vs_none_max)" "O_HOT creates against unhinted ones on the patched kernel")"
fi
res_line="" hurt="" h_res="" h_pair="" h_cold="" h_hot=""
for f in $fills; do
	read -r m lo hi n <<<"$(per_seed N_ms "$f")" || true
	[ -n "${m:-}" ] || continue
	read -r cm clo chi _ <<<"$(per_seed C_ms "$f")" || true
	res_line="$res_line at $f% it changes unhinted files' service time by $(pctr "$m" "$lo" "$hi") and cold files' by $(pctr "$cm" "$clo" "$chi") ($n seed$([ "$n" = 1 ] || echo s));"
	awk -v a="$m" 'BEGIN { exit !(a > 1) }' && h_res="$h_res $(pctr "$m" "$lo" "$hi") at $f%,"
	m="" cm=""
done
[ -n "$res_line" ] && res_line="The region reserve:${res_line%;}." || res_line="The region reserve: not measured in this run (no scenario with it and without it at one fullness)."
pair_line=""
for f in $fills; do
	read -r m lo hi n <<<"$(cell patched "$f" off pair)" || true
	[ -n "${m:-}" ] || continue
	pair_line="$pair_line $(mmm "$m" "$lo" "$hi") at $f%,"
	awk -v a="$lo" 'BEGIN { exit !(a > 1) }' && h_pair="$h_pair $(mmm "$m" "$lo" "$hi")x at $f%,"
	m=""
done
[ -z "$pair_line" ] || pair_line="A hot set and a cold set read at once take${pair_line%,} times as long per read as two unhinted sets read at once (reserve off)."
for f in $fills; do
	for r in off on; do
		read -r m lo hi _ <<<"$(cell patched "$f" "$r" cn)" || true
		[ -n "${m:-}" ] || continue
		awk -v a="$lo" 'BEGIN { exit !(a > 1) }' && h_cold="$h_cold $(mmm "$m" "$lo" "$hi")x at $f% (reserve $r),"
		read -r m lo hi _ <<<"$(cell patched "$f" "$r" hn)" || true
		awk -v a="$lo" 'BEGIN { exit !(a >= 1) }' && h_hot="$h_hot H/N $(mmm "$m" "$lo" "$hi") at $f% (reserve $r),"
		m=""
	done
done
[ -z "$h_pair" ] || hurt="$hurt reading a hot and a cold set at the same time (the head travels between the regions):${h_pair%,} the time of two unhinted sets;"
[ -z "$h_res" ] || hurt="$hurt unhinted files under the region reserve:${h_res%,};"
[ -z "$h_cold" ] || hurt="$hurt cold files read slower than unhinted ones:${h_cold%,};"
[ -z "$h_hot" ] || hurt="$hurt hot files no faster than unhinted ones:${h_hot%,};"
move_line="A move (hc-move): not measured in this run."
pr=$sum/promote-runs.csv
if has "$pr"; then
	ps=$(csv_get "$pr" scenario)
	b=$(csv_get "$sum/disk.csv" value_median scenario="$ps" job=N-before metric=service_p50_ms)
	a=$(csv_get "$sum/disk.csv" value_median scenario="$ps" job=N-after metric=service_p50_ms)
	move_line=$(tab "$pr" "move_seconds moved_mib files moved first_before first_after" '
		{ n++; s += $C["move_seconds"]; mb += $C["moved_mib"]; f = $C["files"]; m = $C["moved"]; fb = $C["first_before"]; fa = $C["first_after"] }
		END { if (!n) exit
			printf "A move: hc-move put %d of %d unhinted files (%.0f MiB) into the hot region in %.1f s on the guest'"'"'s clock (%.1f MiB/s; %s in the first third before, %s after)", m, f, mb / n, s / n, (s > 0 ? mb / s : 0), fb, fa
			if (a != "" && b > 0) printf "; the set then read at %.2f of its time before", a / b
			printf "." }' -v b="$b" -v a="$a")
fi

# ---- the answer's CSV and summary.json
{
	echo "kernel,fullness,reserve,metric,median,min,max,seeds"
	tab "$ar" "kernel fill reserve metric value_median value_min value_max runs" '$C["metric"] == "hn" || $C["metric"] == "cn" || $C["metric"] == "pair" {
		print $C["kernel"] "," $C["fill"] "," $C["reserve"] "," $C["metric"] "," $C["value_median"] "," $C["value_min"] "," $C["value_max"] "," $C["runs"] }'
} >"$data/answer.csv"
# HS/outer: the O_HOT sequential file's rate on the disk's clock over the
# model's outermost zone rate, per fullness (patched kernel, reserve off)
{
	echo "fullness,hs_mb_s,hs_min,hs_max,outer_mb_s,ratio,ratio_min,ratio_max"
	outer=$(csv_get "$sum/zone-ratio.csv" outer_mb_s 2>/dev/null || true)
	[ -z "$outer" ] || ! has "$sum/aged-seq.csv" || tab "$sum/aged-seq.csv" "fill HS_disk HS_min HS_max" '$C["HS_disk"] != "" && $C["HS_disk"] != "NaN" {
		printf "%s,%s,%s,%s,%s,%.3f,%.3f,%.3f\n", $C["fill"], $C["HS_disk"], $C["HS_min"], $C["HS_max"], o, $C["HS_disk"] / o, $C["HS_min"] / o, $C["HS_max"] / o }' -v o="$outer"
} >"$data/hs-outer.csv"
commit=$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)
jq -n --arg commit "$commit" --arg run_commit "$(env_of commit)" --arg run_id "$(env_of run_id)" --arg command "$(env_of command)" \
	--arg disk "$disk" --arg seeds "$(env_of aged_seeds)" --arg date "$(env_of date)" --arg aim "$AIM_HN" \
	--arg plan_min "$([ ! -s "$out/steps.csv" ] || tab "$out/steps.csv" expected_min '{ t += $C["expected_min"] } END { printf "%.0f", t }')" \
	--arg run_s "$(env_of run_seconds)" --rawfile ratios "$data/answer.csv" --rawfile hso "$data/hs-outer.csv" '
	def rows: ($ratios | split("\n") | map(select(length > 0)) | .[1:] | map(split(",")) |
		map({kernel: .[0], fullness: (.[1] | tonumber), reserve: .[2], metric: .[3],
			median: (.[4] | tonumber), min: (.[5] | tonumber), max: (.[6] | tonumber), seeds: (.[7] | tonumber)}));
	{ commit: $commit, run_commit: $run_commit, run_id: $run_id, command: $command, date: $date,
	  disk: $disk, seeds: ($seeds | split(" ") | map(select(length > 0) | tonumber)),
	  plan_minutes: (if $plan_min == "" then null else ($plan_min | tonumber) end),
	  run_seconds: (if $run_s == "" then null else ($run_s | tonumber) end),
	  aim_hn: ($aim | tonumber),
	  hn: (rows | map(select(.metric == "hn"))), cn: (rows | map(select(.metric == "cn"))),
	  pair: (rows | map(select(.metric == "pair"))),
	  hs_outer: ($hso | split("\n") | map(select(length > 0)) | .[1:] | map(split(",")) |
		map({fullness: (.[0] | tonumber), hs_mb_s: (.[1] | tonumber), outer_mb_s: (.[4] | tonumber),
			median: (.[5] | tonumber), min: (.[6] | tonumber), max: (.[7] | tonumber)})) }' >"$data/summary.json"

# ---- the section
echo
echo "## The answer: what O_HOT buys on an aged disk, and what it costs"
echo
echo "**Conclusion** (composed by \`bench/measures/results-answer.sh\` from this run's numbers; H/N is the"
echo "median service time on the disk model's clock of a random 4 KiB read of the O_HOT set over"
echo "that of the unhinted set on the same image, C/N the same for the O_COLD set; each image"
echo "is an ext4 on the $disk modelled disk aged by hc-age with one seed; a value is the median"
if [ -n "$fills" ]; then
	echo "across seeds with the range in brackets): on a disk aged to $(echo $fills | awk '{ for (i = 1; i <= NF; i++) printf "%s%s", (i == 1 ? "" : i == NF ? " and " : ", "), $i }')% full, O_HOT"
	on=$(hn_list on)
	echo "files read in $(hn_list off) of the unhinted time with the region reserve off${on:+, and in $on with it on (region_reserve=1)};"
	echo "O_COLD files in $(cn_list off) (reserve off)."
	if [ -z "$met_at" ]; then echo "The aim H/N <= $AIM_HN (issue 8) is met nowhere over the whole range across seeds."
	else echo "The aim H/N <= $AIM_HN (issue 8) is met over the whole range across seeds at:${met_at%,}${notmet_at:+; not at:${notmet_at%,}}."; fi
else
	echo "across seeds with the range in brackets): this run has no aged scenario on the patched kernel, so what O_HOT buys is not measured here."
fi
[ -z "$stock_line" ] || echo "${stock_line# }"
echo "What it costs: $create_line. $res_line ${pair_line} $move_line"
if [ -n "$hurt" ]; then
	echo "When it hurts:${hurt%;}."
else
	echo "When it hurts: nothing measured in this run was slower with the hints than without."
fi
echo
echo "| fullness | reserve | kernel | H/N (aim <= $AIM_HN) | C/N | hot+cold pair / unhinted pair | seeds (n) |"
echo "|---|---|---|---|---|---|---|"
for f in $fills; do
	for r in off on; do
		[ -n "$(cell patched "$f" "$r" hn)" ] || continue
		read -r m lo hi _ <<<"$(cell patched "$f" "$r" hn)"
		echo "| $f% | $r | patched | $(cellf patched "$f" "$r" hn) ($(aimh "$m" "$lo" "$hi")) | $(cellf patched "$f" "$r" cn) | $(cellf patched "$f" "$r" pair) | $(seeds_of patched "$f" "$r" hn) |"
	done
done
for f in $stock_fills; do
	echo "| $f% | off | stock (doing nothing) | $(cellf stock "$f" off hn) | $(cellf stock "$f" off cn) | $(cellf stock "$f" off pair) | $(seeds_of stock "$f" off hn) |"
done
echo
echo "n: the ageing seeds, one image and one run each (up to $maxseeds here; the seeds were $(env_of aged_seeds));"
echo "per run and set, ${reads:-?} random 4 KiB reads (O_DIRECT, one at a time); sets of the image: ${setinfo:-?}."
echo "A pair is two jobs reading at once (hot + cold against unhinted + unhinted), the mean of"
echo "their two p50s. Numbers as CSV: [plots/data/answer.csv](plots/data/answer.csv); the headline"
echo "numbers with the run's commit, id, disk and seeds: [plots/data/summary.json](plots/data/summary.json)."
echo
[ ! -f "$(dirname "$data")/figures/answer.png" ] || echo "![H/N and C/N against fullness, reserve off and on](plots/figures/answer.png)"

# ---- the default size against other sizes: the headline numbers of pages
# that runs on another disk size wrote (results/*/plots/data/summary.json),
# at each fullness both measured, patched kernel, reserve off.  Only on the
# top page (a page under results/ does not look at its neighbours), or
# where OTHER_RUNS names the folder of such pages (the page writers' test).
pagedir=$(cd "$data/../.." && pwd)
others_dir=${OTHER_RUNS:-}
if [ -z "$others_dir" ]; then [ "$pagedir" = "$top" ] || exit 0; others_dir=$top/results; fi
# srow JSON FILL: "DISK HN HN_MIN HN_MAX N CN CN_MIN CN_MAX HS HS_MIN HS_MAX COMMIT DATE" (- when absent)
srow() { jq -r --argjson f "$2" '
	def pick(a): (a | map(select(.fullness == $f and .reserve == "off" and .kernel == "patched")) | .[0]);
	def hs: (.hs_outer // [] | map(select(.fullness == $f)) | .[0]);
	pick(.hn) as $h | pick(.cn) as $c | hs as $s |
	if $h == null then empty else
	[.disk, $h.median, $h.min, $h.max, $h.seeds, ($c.median // "-"), ($c.min // "-"), ($c.max // "-"),
	 ($s.median // "-"), ($s.min // "-"), ($s.max // "-"), (.run_commit // .commit), (.date // "-")] | map(tostring) | join(" ") end' "$1" 2>/dev/null; }
rows=""
for j in "$others_dir"/*/plots/data/summary.json; do
	[ -f "$j" ] || continue
	od=$(jq -r .disk "$j" 2>/dev/null) || continue
	[ -n "$od" ] && [ "$od" != "$disk" ] || continue
	# the page's link, relative to this page
	o=$(realpath --relative-to="$pagedir" "$(dirname "$j")/../../RESULTS.md")
	for f in $fills; do
		r=$(srow "$j" "$f") && [ -n "$r" ] || continue
		me=$(srow "$data/summary.json" "$f") && [ -n "$me" ] || continue
		rows="$rows$f|$o|$me|$r
"
	done
done
[ -n "$rows" ] || exit 0
echo
echo "### The default size against a larger disk"
echo
echo "The same scenario, ageing recipe and sets in proportion to the disk, run at another disk"
echo "size by a run of its own (its page is linked; patched kernel, reserve off). HS/outer is"
echo "the O_HOT sequential file's rate on the disk's clock over the model's outermost zone rate."
echo
echo "| fullness | disk | H/N | C/N | HS/outer | seeds (n) | run |"
echo "|---|---|---|---|---|---|---|"
verdicts=""
while IFS='|' read -r f o me r; do
	[ -n "$f" ] || continue
	read -r d1 h1 h1l h1h n1 c1 c1l c1h s1 s1l s1h _ _ <<<"$me"
	read -r d2 h2 h2l h2h n2 c2 c2l c2h s2 s2l s2h cm2 dt2 <<<"$r"
	dash() { [ "$1" != - ] && mmm "$1" "$2" "$3" - || printf -- -; }
	echo "| $f% | $d1 (this run) | $(dash "$h1" "$h1l" "$h1h") | $(dash "$c1" "$c1l" "$c1h") | $(dash "$s1" "$s1l" "$s1h") | $n1 | this page |"
	echo "| $f% | $d2 | $(dash "$h2" "$h2l" "$h2h") | $(dash "$c2" "$c2l" "$c2h") | $(dash "$s2" "$s2l" "$s2h") | $n2 | [$(dirname "$o")]($o), commit $cm2 |"
	# agree: the same side of 1 for H/N and C/N; inside: the larger disk's
	# median within this run's range across seeds
	v=$(awk -v f="$f" -v d1="$d1" -v d2="$d2" -v h1="$h1" -v c1="$c1" -v h2="$h2" -v c2="$c2" \
		-v hl="$h1l" -v hh="$h1h" -v cl="$c1l" -v ch="$c1h" -v s1="$s1" -v s2="$s2" '
		function dir(h, c) { return (h < 1 ? "O_HOT faster than unhinted" : "O_HOT no faster than unhinted") ", " \
			(c == "-" ? "C/N not measured" : c < 1 ? "O_COLD faster than unhinted" : "O_COLD slower than unhinted") }
		BEGIN {
		same = ((h1 < 1) == (h2 < 1)) && (c2 == "-" || c1 == "-" || (c1 < 1) == (c2 < 1))
		printf "at %s%%, %s and %s %s on the direction of H/N and C/N (%s: %s", f, d1, d2, same ? "agree" : "disagree", d1, dir(h1, c1)
		if (!same) printf "; %s: %s", d2, dir(h2, c2)
		printf ")"
		printf "; the %s H/N %.2f %s this run'"'"'s range across seeds (%.2f against %.2f-%.2f)", d2, h2, (h2 >= hl && h2 <= hh) ? "lies inside" : "lies outside", h2, hl, hh
		if (c2 != "-" && c1 != "-") printf ", its C/N %.2f %s (%.2f-%.2f)", c2, (c2 >= cl && c2 <= ch) ? "inside" : "outside", cl, ch
		if (s1 != "-" && s2 != "-") printf ", HS/outer %.3f against %.3f", s2, s1 }')
	verdicts="$verdicts $v;"
done <<<"$rows"
echo
echo "Read: ${verdicts# }" | sed 's/;$/./'
