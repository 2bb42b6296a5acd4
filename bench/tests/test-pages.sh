#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test of the benchmark's page writers, no guest: bench/measures/summarise.sh,
# bench/measures/plots.sh and bench/measures/results.sh run on a copy of the run tree in
# bench/tests/fixtures/run-small/ (see its README), then the page's structure and
# its numbers are checked against values computed here from the fixture's
# raw files (fio's JSON, hc-tracejoin's summaries, the placement log, the
# model's curves); then a missing input, a renamed column and a failed run
# must be named.
# Usage: bench/tests/test-pages.sh   (make bench-pages-check; KEEP=1 keeps $tmp)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
fixture=${FIXTURE:-$top/bench/tests/fixtures/run-small}
. "$top/vm/lib/tap.sh"
# csv_get (bench/measures/lib.sh)
. "$top/bench/measures/lib.sh"
tap_init test-pages
for c in jq gnuplot; do
	command -v $c >/dev/null || { not_ok "$c missing (vm/lib/install-deps.sh plot)"; tap_done; exit 1; }
done
[ -s "$fixture/status" ] || { not_ok "no run tree in $fixture"; tap_done; exit 1; }
out=$tmp/run page=$tmp/page/RESULTS.md
cp -a "$fixture" "$out" && mkdir -p "$tmp/page"
is_png() { [ "$(head -c 8 "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
# want_mmm V1 V2 ...: what the page should print, "median (min-max)" of the values, "%.2f" each
want_mmm() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	if (sprintf("%.2f", v[1]) == sprintf("%.2f", v[NR])) printf "%.2f", m; else printf "%.2f (%.2f-%.2f)", m, v[1], v[NR] }'; }
med() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { printf "%.6g", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# fio's MB/s of JOB in each run of SCENARIO (fio.out: messages, then JSON)
fio_mbs() { for d in "$fixture/$1"/run*; do sed -n '/^{/,$p' "$d/fio.out" |
	jq -r --arg j "$2" '.jobs[] | select(.jobname == $j) | (.read.bw_bytes + .write.bw_bytes) / 1e6'; done; }
# a column of hc-tracejoin's summary for JOB in each run of SCENARIO
join_col() { for d in "$fixture/$1"/run*; do
	awk -F, -v j="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next } $1 == j { print $h[c] }' "$d/join-summary.csv"; done; }
row() { grep -F "$1" "$page" | head -n 1; }
# in_section HEADING PATTERN: the first row of that section with PATTERN
in_section() { sed -n "/^## $1/,/^## /p" "$page" | grep -F "$2" | head -n 1; }

t "summarise.sh on the fixture" "$top/bench/measures/summarise.sh" "$out"
t "plots.sh on the fixture" "$top/bench/measures/plots.sh" "$out"
for f in placement throughput-position latency-cdf-randread service-cdf-randread seek-latency stock-vs-patched; do
	t "figure $f.png is a PNG" is_png "$out/figures/$f.png"
done
t "results.sh on the fixture" "$top/bench/measures/results.sh" "$out" "$page"
# a header row: every field a name (a letter or _ first; letters, digits,
# _ and - after)
t "every summary has a header row" bash -c "for f in '$out'/summary/*.csv; do
	head -n 1 \"\$f\" | awk -F, '{ for (i = 1; i <= NF; i++) if (\$i !~ /^[A-Za-z_][A-Za-z0-9_-]*\$/) exit 1 }' || { echo \"\$f: no header\"; exit 1; }
done"

# the page's sections, in order
# (the measures' sections in the order of the scenario table's measures column)
want="# Results|## The answer: what O_HOT buys on an aged disk, and what it costs|## Environment|## Fresh filesystem: headline numbers (an empty disk, where an unhinted file already lands near the start)|## Aged filesystem (bench/jobs/aged.fio, bench/tools/hc-age.c)|### The region reserve: off vs on|### 50% full (aged-50)|### 80% full (aged-80)|### 80% full, reserve on (aged-80-reserve)|### 80% full, stock kernel (aged-80-stock)|### 95% full (aged-95)|### 95% full, reserve on (aged-95-reserve)|## Sequential O_DIRECT throughput (bench/jobs/aged.fio, bench/jobs/seq.fio)|## Random 4 KiB reads (bench/jobs/randread.fio)|## Random reads per second on the disk's clock|## Placement (bench/jobs/placement.fio)|## Stock vs patched kernel (same job files)|## Raw disk, start vs end|## create()+unlink() rate|## The disk model against published drives (vm/hdd-model/hdd-validate)"
is "the page's sections, in order" "$(grep '^##* ' "$page" | tr '\n' '|' | sed 's/|$//')" "$want"
t "not marked partial, nothing missing" sh -c "! grep -q -e PARTIAL -e 'Missing from this page' '$page'"
t "every link of the page resolves next to it" sh -c "cd '$tmp/page' && grep -o '](\([^)]*\))' RESULTS.md | sed 's/^](//; s/)\$//' |
	{ ok=1; n=0; while read -r l; do n=\$((n + 1)); [ -f \"\$l\" ] || { echo \"dead link \$l\"; ok=0; }; done; [ \$ok = 1 ] && [ \$n -ge 10 ]; }"
t "the environment names both kernels and the profile" sh -c "grep -qx -- '- guest kernel (patched): 6.1.192-hotcold, knows O_HOT/O_COLD: yes, accel: tcg' '$page' &&
	grep -qx -- '- guest kernel (stock): 6.1.192, knows O_HOT/O_COLD: no, accel: tcg' '$page' && grep -q '^- drive profile: desktop7200 ' '$page'"

# numbers: fio's MB/s, median (min-max) of the two runs
for s in seq seq-stock; do
	for j in hot-read cold-read none-write; do
		# shellcheck disable=SC2046
		is "$s $j: fio's MB/s, median (min-max)" "$(row "| $s | $j |")" "| $s | $j | $(want_mmm $(fio_mbs $s $j)) | 2 |"
	done
done
h=$(med $(fio_mbs seq hot-read)) c=$(med $(fio_mbs seq cold-read))
r=$(awk -v a="$h" -v b="$c" 'BEGIN { printf "%.3f", a / b }')
t "headline: seq hot-read / cold-read = $r (fio's medians; headline= in the scenario table)" grep -qF -- "- sequential O_DIRECT read, hot-read / cold-read (seq): **$r**" "$page"
zo=$(awk -F, 'NR == 2 { print $3 }' "$fixture/summary/hdd-rate.csv") zi=$(awk -F, 'END { print $3 }' "$fixture/summary/hdd-rate.csv")
zr=$(awk -v a="$zo" -v b="$zi" 'BEGIN { printf "%.3f", a / b }')
t "headline: the model's zone ratio $zr ($zo / $zi MB/s, hdd-rate.csv)" grep -qF -- "- drive model's zone ratio (outermost / innermost sequential rate): **$zr** ($zo / $zi MB/s)" "$page"
# the raw disk's start / end on the model's clock: each run's trace rows at
# either end but the first (which carries the seek to get there): their
# bytes over their seek + rotation + transfer, median of the runs
zrate() { for d in "$fixture/zones"/run*; do awk -F, -v z="$1" 'NR > 1 && $6 == "read" && $5 >= 128 && ((z == "start") == ($4 < 131072)) {
	if (!n++) next; t += $8 + $9 + $10; b += $5 * 512 } END { printf "%.2f\n", b / t }' "$d/trace.csv"; done; }
zs=$(med $(zrate start)) ze=$(med $(zrate end))
t "headline: the raw disk's start / end from the model's trace ($zs / $ze MB/s)" grep -qF -- "- raw-disk O_DIRECT read (busybox dd, 64 MiB), start / end of the disk: **$(awk -v a="$zs" -v b="$ze" 'BEGIN { printf "%.3f", a / b }')** ($zs / $ze MB/s" "$page"
# the disk's clock: hc-tracejoin's service p50 and p99, median (min-max)
for s in randread randread-stock; do
	for j in hot none; do
		is "$s $j: service p50 and p99 on the disk's clock" "$(in_section "Random 4 KiB reads" "| $s | $j |" | cut -d'|' -f4-5)" \
			" $(want_mmm $(join_col $s $j service_p50_ms)) | $(want_mmm $(join_col $s $j service_p99_ms)) "
	done
done
# iops (bench/measures/measure-iops.sh): matched reads over first arrival to last end
for s in randread; do
	for j in hot none; do
		v=$(for d in "$fixture/$s"/run*; do awk -F, -v j="$j" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
			$1 == j { printf "%.2f\n", $h["matched"] / (($h["last_end_us"] - $h["first_arrival_us"]) / 1e6) }' "$d/join-summary.csv"; done)
		is "$s $j: reads per second on the disk's clock, median (min-max)" \
			"$(in_section "Random reads per second" "| $s | $j |")" "| $s | $j | $(want_mmm $v) | 2 |"
	done
done
dh=$(med $(join_col randread hot service_p50_ms)) dn=$(med $(join_col randread none service_p50_ms))
dr=$(printf '%.2f / %.2f ms' "$dh" "$dn")
t "headline: random reads, hot / none service p50 $dr" grep -qF "hot / none (randread), median service time at the disk (model's trace): **$dr** (ratio $(awk -v a="$dh" -v b="$dn" 'BEGIN { printf "%.3f", a / b }'))" "$page"
# placement: files per hint and third in run 1's placement log
for h in hot cold none; do
	pl=$(awk -F, -v h="$h" '$1 == "file" && $4 == h { c[$24]++ } END { for (t in c) printf "%s %d\n", t, c[t] }' "$fixture/placement/run1/placement.csv")
	th=${pl% *} k=${pl#* }
	is "placement: $h files in the $th third" "$(row "| $h | $th |")" "| $h | $th | $k | 1.000 |"
done
# stock vs patched: the same medians side by side
is "stock vs patched: seq cold-read" "$(row "| seq read MB/s | cold-read |")" \
	"| seq read MB/s | cold-read | $(med $(fio_mbs seq cold-read) | xargs printf '%.2f') | $(med $(fio_mbs seq-stock cold-read) | xargs printf '%.2f') |"
# create()+unlink(): the fixture's five boot pairs; rates median (min-max)
# across boots, patched / stock within each pair, computed here
cu=$fixture/create-unlink-runs.csv
cur() { awk -F, -v k="$1" -v m="$2" '$2 == k && $3 == m { print $7 }' "$cu"; }
cupair() { awk -F, -v m="$1" '$3 == m { r[$1 "," $2] = $7; b[$1] = 1 } END { for (x in b) printf "%.6f\n", r[x ",patched"] / r[x ",stock"] }' "$cu"; }
mm0() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	a = sprintf("%.0f", m); lo = sprintf("%.0f", v[1]); hi = sprintf("%.0f", v[NR]); print (lo == hi) ? a : a " (" lo "-" hi ")" }'; }
mm3() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	a = sprintf("%.3f", m); lo = sprintf("%.3f", v[1]); hi = sprintf("%.3f", v[NR]); print (lo == hi) ? a : a " (" lo "-" hi ")" }'; }
for m in none hot cold; do
	# shellcheck disable=SC2046
	is "create+unlink $m: rates across boots and patched/stock within pairs" "$(row "| $m | $(mm0 $(cur patched $m)) |" | cut -d'|' -f2-5)" \
		" $m | $(mm0 $(cur patched $m)) | $(mm0 $(cur stock $m)) | $(mm3 $(cupair $m)) "
done
t "create+unlink: five boot pairs, files and rounds stated" sh -c "grep -q '^5 boot pairs, stock and patched, alternating' '$page' && grep -q '5 rounds of 2000 files per mode' '$page'"
# the verdict in words: every fixture pair has patched below stock
t "the conclusion: unhinted creates a regression, with its range" sh -c "sed -n '/^## The answer/,/^## /p' '$page' | grep -q 'unhinted creates on the patched kernel against the stock kernel: a regression of 1.0% (1.0 to 1.0%)'"
t "the validation table from hdd-validate" grep -q '^| cheetah9lp | average_seek |' "$page"

# ---- the answer: the aged scenarios, one run per ageing seed.  H/N and C/N
# of each run from its hc-tracejoin summary (service p50 of job H, C over N),
# median (min-max) across the runs, as the page's table must print them.
# ratio_runs SCENARIO A B: A's service p50 over B's, one line per run
ratio_runs() { for d in "$fixture/$1"/run*; do
	awk -F, -v a="$2" -v b="$3" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next } { v[$1] = $h["service_p50_ms"] }
		END { printf "%.6f\n", v[a] / v[b] }' "$d/join-summary.csv"; done; }
r2mm() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	if (sprintf("%.2f", v[1]) == sprintf("%.2f", v[NR])) printf "%.2f", m; else printf "%.2f (%.2f-%.2f)", m, v[1], v[NR] }'; }
aimw() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (v[NR] <= 0.55) print "met"; else if (v[1] > 0.55) print "not met"; else print "not met: the range straddles 0.55" }'; }
for x in "aged-80 80% off patched 3" "aged-80-reserve 80% on patched 3" "aged-50 50% off patched 1" "aged-95-reserve 95% on patched 1"; do
	read -r sc fl rs kn ns <<<"$x"
	# shellcheck disable=SC2046
	hn=$(r2mm $(ratio_runs "$sc" H N)) cn=$(r2mm $(ratio_runs "$sc" C N)) am=$(aimw $(ratio_runs "$sc" H N))
	is "the answer's table: $sc, H/N and C/N across $ns seed(s)" "$(in_section "The answer" "| $fl | $rs | $kn |" | cut -d'|' -f2-6,8)" \
		" $fl | $rs | $kn | $hn ($am) | $cn | $ns "
done
# shellcheck disable=SC2046
is "the answer's table: the stock kernel's row (doing nothing)" "$(in_section "The answer" "| 80% | off | stock (doing nothing) |" | cut -d'|' -f5,8)" \
	" $(r2mm $(ratio_runs aged-80-stock H N)) | 1 "
t "the conclusion names the stock kernel on the same recipe and seeds" sh -c "sed -n '/^## The answer/,/^## /p' '$page' | grep -q 'on the stock kernel, the same ageing recipe and seeds (80% full, 1 seed)'"
# ... and says whether the patched kernel's H/N range is clear of the stock
# kernel's (two unhinted sets), from the fixture's runs
# shellcheck disable=SC2046
sv=$(printf '%s\n' $(ratio_runs aged-80 H N) | sort -g | sed -n '1p;$p' | tr '\n' ' ')
# shellcheck disable=SC2046
ss=$(printf '%s\n' $(ratio_runs aged-80-stock H N) | sort -g | sed -n '1p;$p' | tr '\n' ' ')
vw=$(echo "$sv $ss" | awk '{ if ($2 < $3) print "lies wholly below that range"; else if ($1 > $4) print "lies wholly above that range"; else print "overlaps that range" }')
t "the conclusion: the patched H/N ($sv) against the stock kernel's ($ss): $vw" sh -c "sed -n '/^## The answer/,/^## /p' '$page' | grep -q \"the patched kernel's H/N, [0-9.() -]*, $vw\""
t "the answer's figure is a PNG, linked" sh -c "grep -qF '](plots/figures/answer.png)' '$page'" && t "answer.png is a PNG" is_png "$tmp/page/plots/figures/answer.png"
js=$tmp/page/plots/data/summary.json
# shellcheck disable=SC2046
is "summary.json: 80% reserve off H/N median = the table's" "$(jq -r '.hn[] | select(.fullness == 80 and .reserve == "off" and .kernel == "patched") | "\(.median) \(.seeds)"' "$js" | awk '{ printf "%.2f %s", $1, $2 }')" \
	"$(r2mm $(ratio_runs aged-80 H N) | cut -d' ' -f1) 3"
is "summary.json: the run's id, disk and seeds" "$(jq -r '"\(.run_id) \(.disk) \(.seeds | map(tostring) | join(","))"' "$js")" "20261205T060000Z-fixture 64G 1,2,3"
# the default size against another: a page of another disk size (here a copy
# of this summary.json as an 8G run whose H/N is 1.20) gets a row and a
# verdict on the top page (OTHER_RUNS stands for results/)
t "summary.json: HS/outer per fullness" sh -c "jq -e '.hs_outer | length > 0 and (.[0].median > 0)' '$js' >/dev/null"
mkdir -p "$tmp/sz/results/small/plots/data" && echo "# small" >"$tmp/sz/results/small/RESULTS.md"
jq '.disk = "8G" | .hn |= map(if .fullness == 80 and .reserve == "off" then .median = 1.2 | .min = 1.2 | .max = 1.2 else . end)' "$js" \
	>"$tmp/sz/results/small/plots/data/summary.json"
rm -rf "$tmp/szrun" && cp -a "$out" "$tmp/szrun"
OTHER_RUNS=$tmp/sz/results "$top/bench/measures/results.sh" "$tmp/szrun" "$tmp/sz/RESULTS.md" >/dev/null 2>"$tmp/sz.err"
sz() { sed -n '/^### The default size against a larger disk/,/^## /p' "$tmp/sz/RESULTS.md"; }
is "the other size's row: 80%, 8G, H/N 1.20, linked" "$(sz | grep -F '| 80% | 8G |' | cut -d'|' -f2-4,8 | sed 's/, commit.*//')" \
	" 80% | 8G | 1.20 | [results/small](results/small/RESULTS.md)"
t "the verdict: the two sizes disagree on H/N's direction" sh -c "sed -n '/^### The default size/,/^## /p' '$tmp/sz/RESULTS.md' | grep -q 'at 80%, 64G and 8G disagree on the direction of H/N and C/N (64G: O_HOT faster than unhinted, .*; 8G: O_HOT no faster than unhinted'"
t "page-check.sh passes on the page with the sizes table" "$top/bench/measures/page-check.sh" --answer "$tmp/sz/RESULTS.md"
t "a page of the same disk size is not compared" sh -c "! grep -q 'The default size against' '$page'"
t "every table of the page also as CSV (plots/data/)" sh -c "[ \$(grep -c '^Table as CSV: ' '$page') -eq \$(grep -c '^|---' '$page') ]"

# the page's own checks (bench/measures/page-check.sh, which bench/runners/run.sh runs on
# every page it writes) pass on the fixture's page, and each fails on a copy
# broken in its way
t "page-check.sh --answer passes on the fixture's page" "$top/bench/measures/page-check.sh" --answer "$page"
pc() { # NAME SED-SCRIPT [FILE-TO-BREAK]: a copy of the page broken by SED-SCRIPT must fail its checks
	rm -rf "$tmp/pc" && cp -a "$tmp/page" "$tmp/pc"
	sed -i "$2" "$tmp/pc/${3:-RESULTS.md}"
	t "page-check.sh fails on a page $1" sh -c "! '$top/bench/measures/page-check.sh' --answer '$tmp/pc/RESULTS.md' >/dev/null"
}
pc "with an absolute path" '0,/^## Environment/s|^## Environment|see /work/x/build/bench/run1\n&|'
pc "with the repository's folder in it" "0,/^## Environment/s|^## Environment|$top/build\\n&|"
pc "with a dead link" '0,/^## Environment/s|^## Environment|[gone](plots/figures/nothing.png)\n&|'
pc "without its commit" '/commit [0-9a-f]\{7,\}/d; s/commit fixture/commit of the fixture/'
pc "without the conclusion" '/^\*\*Conclusion\*\*/d'
# the commit in backticks at the start of the next line (as results/alternatives
# writes it) is named too: only the "names its commit" check is looked at
rm -rf "$tmp/pc" && cp -a "$tmp/page" "$tmp/pc" &&
	sed -i '/commit [0-9a-f]\{7,\}/d; s/commit fixture/commit of the fixture/; 1a\
Written at commit\
`abc1234`; the command' "$tmp/pc/RESULTS.md"
t "page-check.sh: a commit in backticks on the next line is named" sh -c \
	"'$top/bench/measures/page-check.sh' '$tmp/pc/RESULTS.md' | grep -q '^ok [0-9]* - .*names its commit'"
pc "without the H/N table" '/^| fullness | reserve | kernel | H\/N/d'
pc "whose answer is not first" '0,/^## The answer/s/^## The answer/## Environment first\n\n&/'
pc "whose summary.json lacks run_id" 's/"run_id"/"id"/' plots/data/summary.json
pc "whose summary.json does not parse" '1s/^{/{{/' plots/data/summary.json

# "met" only when the whole range across seeds clears the aim: three images
# of one fullness whose H/N spans 0.50-0.60 straddle 0.55; 0.50-0.55 meet it
met_case() { # NAME H/N... : the verdict results-answer.sh prints for those seeds
	local o=$tmp/met-$1 r=0 v
	shift
	mkdir -p "$o/summary" && printf 'disk=8G\naged_seeds=1 2 3\naged_seed=1\n' >"$o/run-env.txt"
	{ echo "scenario,kernel,fill,reserve,run,seed,reads,H_ms,C_ms,N_ms,pair_hc_ms,pair_nn_ms,hn,cn,pair"
		for v in "$@"; do r=$((r + 1)); echo "aged-80,patched,80,off,run$r,$r,1024,$v,1,1,1,1,$v,1,1"; done; } >"$o/summary/aged-ratios-runs.csv"
	{ echo "kernel,fill,reserve,metric,value_median,value_min,value_max,runs"
		printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { printf "patched,80,off,hn,%s,%s,%s,%d\n", v[int((NR + 1) / 2)], v[1], v[NR], NR }'; } >"$o/summary/aged-ratios.csv"
	"$top/bench/measures/results-answer.sh" "$o" "$o/data" | grep '^| 80% | off | patched |' | cut -d'|' -f5 | sed 's/^ [0-9.() -]*(//; s/) $//'
}
is "met: a range straddling the aim is not met" "$(met_case s 0.50 0.54 0.60)" "not met: the range straddles 0.55"
is "met: a range at or below the aim is met" "$(met_case m 0.50 0.52 0.55)" "met"
is "met: a range above the aim is not met" "$(met_case n 0.56 0.58 0.60)" "not met"

# The plan (bench/runners/plan): the default make bench from a fresh clone on
# a host whose ccache holds the kernels fits 75 minutes, kernels and packages
# included; on a fresh machine (cold ccache) both kernels are planned as cold
# builds, and the plan says how long that takes; QUICK=1 with the kernels and
# tools built fits 10
pt=$(BENCH_CCACHE=warm BUILD=$tmp/fresh-clone "$top/bench/runners/bench.sh" --plan | awk '$1 == "total" { print $2 }')
t "the default plan from a fresh clone, ccache warm: $pt min <= 75" awk -v t="$pt" 'BEGIN { exit !(t != "" && t <= 75) }'
pc=$(BENCH_CCACHE=cold BUILD=$tmp/fresh-clone "$top/bench/runners/bench.sh" --plan)
t "a fresh machine's plan builds both kernels cold ($(echo "$pc" | awk '$1 == "total" { print $2 }') min in all)" sh -c \
	"echo '$pc' | grep -cE '^kernel-(patched|stock) +24.0 min' | grep -qx 2"
# the page's Reproduce line: the run's plan, and the same plan with cold kernels
mkdir -p "$tmp/rp" && cp -a "$out" "$tmp/rp/run" &&
	printf 'step,expected_min,actual_min\ndeps,0.1,0.0\nkernel-patched,5.0,4.7\nkernel-stock,5.0,4.5\nscenarios,50.0,48.0\n' >"$tmp/rp/run/steps.csv" &&
	"$top/bench/measures/results.sh" "$tmp/rp/run" "$tmp/rp/RESULTS.md" >/dev/null 2>&1
t "the Reproduce line: 60 min planned, about 101 on a fresh machine (packages 3 min, kernels 24 each), 57 taken" \
	grep -q '^Reproduce: .*expected wall time 60 minutes .*about 101 on a fresh machine, which installs the packages and whose ccache is cold.*took 57 minutes' "$tmp/rp/RESULTS.md"
mkdir -p "$tmp/warm/kbuild-patched/arch/x86/boot" "$tmp/warm/kbuild-stock/arch/x86/boot" "$tmp/warm/bench-tools"
touch "$tmp/warm/.stamp-deps" "$tmp/warm/kbuild-patched/arch/x86/boot/bzImage" "$tmp/warm/kbuild-stock/arch/x86/boot/bzImage" "$tmp/warm/bench-tools/hc-age"
pq=$(QUICK=1 BUILD=$tmp/warm "$top/bench/runners/bench.sh" --plan | awk '$1 == "total" { print $2 }')
t "the QUICK=1 plan, kernels built: $pq min <= 10" awk -v t="$pq" 'BEGIN { exit !(t != "" && t <= 10) }'
t "the default plan has 3 seeds at 80%, reserve off and on, and on the stock kernel" sh -c "BUILD='$tmp/fresh-clone' '$top/bench/runners/bench.sh' --plan |
	grep -c '^age:80\(+reserve\)\?:[123]:patched ' | grep -qx 6 && BUILD='$tmp/fresh-clone' '$top/bench/runners/bench.sh' --plan | grep -c '^age:80:[123]:stock ' | grep -qx 3"

# A finished run whose input is missing or malformed: the stage names the
# file (or the column) and fails; the page says what it lacks.  These copies
# leave the aged scenarios out (the cases are the fresh ones'; fewer files).
fresh_copy() {
	cp -a "$fixture" "$1" && rm -rf "$1"/aged-*
	awk '$4 == "0" || /^#/' "$fixture/scenarios" >"$1/scenarios"
	grep -v '^aged-' "$fixture/status" >"$1/status"
}
fresh_copy "$tmp/lost" && rm -f "$tmp/lost/randread/run1/seek.csv"
"$top/bench/measures/summarise.sh" "$tmp/lost" >/dev/null 2>"$tmp/lost.err"
rc=$?
t "missing seek log: summarise fails ($rc), naming the file" sh -c "[ $rc != 0 ] && grep -q 'randread/run1/seek.csv missing' '$tmp/lost.err'"
fresh_copy "$tmp/col" && sed -i '1s/lat_ns/latency/' "$tmp/col/randread/run1/seek.csv"
"$top/bench/measures/summarise.sh" "$tmp/col" >/dev/null 2>"$tmp/col.err"
rc=$?
t "renamed column: summarise fails ($rc), naming file and column" sh -c "[ $rc != 0 ] && grep -q 'seek.csv: no column lat_ns' '$tmp/col.err'"
rm -f "$tmp/col/summary/rand.csv"
"$top/bench/measures/results.sh" "$tmp/col" "$tmp/col/RESULTS.md" >/dev/null 2>"$tmp/col-page.err"
rc=$?
t "a finished scenario without rows: results fails ($rc) and the page says so" sh -c "[ $rc != 0 ] &&
	grep -q 'summary/rand.csv: nothing for scenario randread' '$tmp/col-page.err' && grep -q 'Missing from this page' '$tmp/col/RESULTS.md'"
# the same for a measure with a file of its own (bench/measures/measure-zones.sh)
fresh_copy "$tmp/zl" && rm -f "$tmp/zl"/zones/run*/zones.csv
"$top/bench/measures/summarise.sh" "$tmp/zl" >/dev/null 2>"$tmp/zl.err"
rc=$?
t "a measure's missing input: summarise fails ($rc), naming the file" sh -c "[ $rc != 0 ] && grep -q 'zones/run1/zones.csv missing' '$tmp/zl.err'"
"$top/bench/measures/results.sh" "$tmp/zl" "$tmp/zl/RESULTS.md" >/dev/null 2>"$tmp/zl-page.err"
rc=$?
t "a measure's summary without rows: results fails ($rc) and the page says so" sh -c "[ $rc != 0 ] &&
	grep -q 'summary/zones.csv: nothing for scenario zones (zones), which finished' '$tmp/zl-page.err' &&
	grep -q 'Missing from this page' '$tmp/zl/RESULTS.md' && ! grep -q '^## Raw disk' '$tmp/zl/RESULTS.md'"
# dirmark, a measure of its own (bench/measures/measure-dirmark.sh): a run of
# bench/jobs/dirmark.fio made from an aged run of the fixture, its jobs renamed
# marked and unmarked, the marks and counters the guest would print
fresh_copy "$tmp/dm" && mkdir -p "$tmp/dm/dirmark-80" && cp -a "$fixture/aged-80/run1" "$tmp/dm/dirmark-80/run1"
sed -i 's/,H,/,marked,/; s/,N,/,unmarked,/' "$tmp/dm/dirmark-80/run1/placement.csv"
awk -F, -v OFS=, 'NR > 1 && $1 == "file" && ($2 == "marked" || $2 == "unmarked")' "$tmp/dm/dirmark-80/run1/placement.csv" >"$tmp/dm.rows"
printf 'mark_dm-marked=hot\nhint_inherited=4\n' >>"$tmp/dm/dirmark-80/run1/env.txt"
grep '^dirmark-80 ' "$top/bench/jobs/scenarios" >>"$tmp/dm/scenarios" && echo "dirmark-80 1 ok" >>"$tmp/dm/status"
"$top/bench/measures/summarise.sh" "$tmp/dm" >/dev/null 2>"$tmp/dm.err"
rc=$?
t "dirmark: summarise ($rc)" sh -c "[ $rc = 0 ] || { cat '$tmp/dm.err'; exit 1; }"
# the marked job's bytes in the first third, from the placement log
fm=$(awk -F, '$2 == "marked" { a += $18; t += $18 + $19 + $20 } END { printf "%.2f", a / t }' "$tmp/dm.rows")
is "dirmark: the marked job's files and bytes in the first third" "$(csv_get "$tmp/dm/summary/dirmark-runs.csv" files scenario=dirmark-80 job=marked) $(awk -v v="$(csv_get "$tmp/dm/summary/dirmark.csv" frac_first_median scenario=dirmark-80 job=marked)" 'BEGIN { printf "%.2f", v }')" \
	"$(grep -c ',marked,' "$tmp/dm.rows") $fm"
"$top/bench/measures/results.sh" "$tmp/dm" "$tmp/dm/RESULTS.md" >/dev/null 2>"$tmp/dm-page.err"
t "dirmark: the page's section, with the marks read back" sh -c "grep -q '^## Unmodified applications: a directory marked hot (dirmark-80' '$tmp/dm/RESULTS.md' &&
	grep -q '^| marked | ' '$tmp/dm/RESULTS.md' && grep -qx -- '- run1: hint_inherited 4, hint_honoured 26; marks read back: dm-marked=hot' '$tmp/dm/RESULTS.md'"
rm -f "$tmp/dm/summary/dirmark-runs.csv" && : >"$tmp/dm/summary/dirmark-runs.csv"
"$top/bench/measures/results.sh" "$tmp/dm" "$tmp/dm/RESULTS.md" >/dev/null 2>"$tmp/dm-page.err"
rc=$?
t "dirmark: no rows for a finished run: the page says so ($rc)" sh -c "[ $rc != 0 ] && grep -q 'summary/dirmark-runs.csv: nothing for scenario dirmark-80 (dirmark), which finished' '$tmp/dm-page.err'"

# promote, a measure of its own (bench/measures/measure-promote.sh): a run of
# bench/jobs/promote.fio made from an aged run of the fixture, the lines
# bench/guest/guest-promote.sh adds to env.txt (two files moved, both kept)
fresh_copy "$tmp/pr" && mkdir -p "$tmp/pr/promote-80" && cp -a "$fixture/aged-80/run1" "$tmp/pr/promote-80/run1"
sed -i 's/^N,/N-before,/; s/^N2,/N-after,/' "$tmp/pr/promote-80/run1/join-summary.csv"
printf '%s\n' move_rc=0 move_seconds=12.50 move_read_sectors=20480 move_write_sectors=22528 \
	promote_move_header=file,outcome,moved_bytes,first_before,first_after promote_move=/mnt/a/N.1,moved,1048576,0.2,1 \
	promote_move=/mnt/b/N.2,moved,2097152,0.4,0.9 promote_sum_before=/mnt/a/N.1,12,aa promote_sum_before=/mnt/b/N.2,13,bb \
	promote_sum_after=/mnt/a/N.1,12,aa promote_sum_after=/mnt/b/N.2,14,bb >>"$tmp/pr/promote-80/run1/env.txt"
grep '^promote-80 ' "$top/bench/jobs/scenarios" >>"$tmp/pr/scenarios" && echo "promote-80 1 ok" >>"$tmp/pr/status"
"$top/bench/measures/summarise.sh" "$tmp/pr" >/dev/null 2>"$tmp/pr.err"
rc=$?
t "promote: summarise ($rc)" sh -c "[ $rc = 0 ] || { cat '$tmp/pr.err'; exit 1; }"
is "promote: the move's row (files, MiB, thirds, seconds, I/O, what stayed)" \
	"$(tab "$tmp/pr/summary/promote-runs.csv" "scenario files moved moved_mib first_before first_after move_seconds read_mib write_mib same_inode same_sha256" '{
		print $C["scenario"], $C["files"], $C["moved"], $C["moved_mib"], $C["first_before"], $C["first_after"], $C["move_seconds"], $C["read_mib"], $C["write_mib"], $C["same_inode"], $C["same_sha256"] }')" \
	"promote-80 2 2 3.0 0.300 0.950 12.50 10.0 11.0 1 of 2 2 of 2"
"$top/bench/measures/results.sh" "$tmp/pr" "$tmp/pr/RESULTS.md" >/dev/null 2>"$tmp/pr-page.err"
rc=$?
t "promote: the page's section, the reads before and after on the disk's clock ($rc)" sh -c "[ $rc = 0 ] && grep -q '^## Promotion' '$tmp/pr/RESULTS.md' &&
	grep -qF '| promote-80 | N-before | $(want_mmm $(join_col aged-80 N service_p50_ms | head -n 1)) |' '$tmp/pr/RESULTS.md' &&
	grep -qF '| promote-80 | run1 | 2 of 2 | 3.0 | 0.300 | 0.950 | 12.50 | 10.0 | 11.0 | 1 of 2 | 2 of 2 |' '$tmp/pr/RESULTS.md'"

# qd, a measure of its own (bench/measures/measure-qd.sh): two queueing scenarios
# made here, each read of join.csv with its times on the disk's clock; the
# pair's reads per second and the most reads at the drive at once are
# computed again here from the same rows
fresh_copy "$tmp/qd" && : >"$tmp/qd/status"
grep -E '^qd-mixed-(1-none|32-none) ' "$top/bench/jobs/scenarios" >>"$tmp/qd/scenarios"
for x in qd-mixed-1-none:1 qd-mixed-32-none:32; do
	q=${x#*:} d=$tmp/qd/${x%:*}/run1
	mkdir -p "$d" && printf 'qd=%s\nscheduler=none\n' "$q" >"$d/env.txt" && echo "${x%:*} 1 ok" >>"$tmp/qd/status"
	cp "$fixture/randread/run1/trace.csv" "$d/trace.csv"
	awk -v q="$q" 'BEGIN { print "job,arrival_us,end_us,matched,service_us,queue_us,seek_us,rotation_us"; split("hc-hot hc-cold nn-a nn-b hh-a hh-b", J, " ")
		for (j = 1; j <= 6; j++) for (i = 0; i < 10; i++) { a = 1e6 * int((j + 1) / 2) + i * 1000 * (q == 1 ? 8 : 1); sv = 4000 + 100 * i + 10 * j
			printf "%s,%d,%d,1,%d,%d,%d,%d\n", J[j], a, a + sv, sv, sv / 4, sv / 2, sv / 4 } }' >"$d/join.csv"
	printf '{"jobs":[%s]}\n' "$(for j in hc-hot hc-cold nn-a nn-b hh-a hh-b; do printf '{"jobname":"%s","read":{"total_ios":10,"clat_ns":{"mean":6e6,"percentile":{"50.000000":5e6,"99.000000":9e6}}}},' "$j"; done | sed 's/,$//')" >"$d/fio.out"
done
"$top/bench/measures/summarise.sh" "$tmp/qd" >/dev/null 2>"$tmp/qd.err"
rc=$?
t "qd: summarise ($rc)" sh -c "[ $rc = 0 ] || { cat '$tmp/qd.err'; exit 1; }"
for x in qd-mixed-1-none qd-mixed-32-none; do
	w=$(awk -F, 'NR > 1 { p = $1; sub(/-.*/, "", p); if (p != "hc") next; if (!a || $2 < a) a = $2; if ($3 > e) e = $3; n++; ev[++k] = $2 " 1"; ev[++k] = $3 " -1" }
		END { printf "%.2f\n", n / ((e - a) / 1e6); for (i = 1; i <= k; i++) print ev[i] }' "$tmp/qd/$x/run1/join.csv" |
		{ read -r iops; sort -k1,1g -k2,2n | awk -v i="$iops" '{ q += $2; if (q > m) m = q } END { printf "%s %d", i, m }'; })
	is "qd: $x, the hot+cold pair's reads/s and most at the drive" \
		"$(csv_get "$tmp/qd/summary/qd-pairs.csv" iops_median scenario=$x pair=hc | xargs printf '%.2f') $(csv_get "$tmp/qd/summary/qd-pairs.csv" max_at_drive_max scenario=$x pair=hc)" "$w"
done
"$top/bench/measures/plots.sh" "$tmp/qd" >/dev/null 2>&1 && "$top/bench/measures/results.sh" "$tmp/qd" "$tmp/qd/RESULTS.md" >/dev/null 2>"$tmp/qd-page.err"
rc=$?
t "qd: the page's section, its tables and figure ($rc)" sh -c "[ $rc = 0 ] && grep -q '^## Command queueing: queue depth 1 vs 32 (bench/jobs/mixed-qd.fio)' '$tmp/qd/RESULTS.md' &&
	grep -q '^| qd-mixed-32-none | 32 | none | hc (2 jobs) |' '$tmp/qd/RESULTS.md' && grep -q '^| qd-mixed-1-none | hc-hot | 10 |' '$tmp/qd/RESULTS.md' &&
	grep -q '^- scheduler none: reading hot and cold at once costs' '$tmp/qd/RESULTS.md' && grep -qF '](plots/figures/qd-mixed.png)' '$tmp/qd/RESULTS.md'"
t "qd: qd-mixed.png is a PNG" is_png "$tmp/qd/plots/figures/qd-mixed.png"

# pairiops, the measure added as one file (bench/measures/measure-pairiops.sh): the
# aged scenarios of a copy of the fixture tagged with it in OUT/scenarios;
# a pair's reads over its jobs' span, from hc-tracejoin's summary
cp -a "$fixture" "$tmp/pi" && sed -i '/^aged-80 /s/aged,seq,rand,iops/aged,seq,rand,iops,pairiops/' "$tmp/pi/scenarios"
"$top/bench/measures/summarise.sh" "$tmp/pi" >/dev/null 2>"$tmp/pi.err"
rc=$?
t "pairiops: summarise ($rc)" sh -c "[ $rc = 0 ] || { cat '$tmp/pi.err'; exit 1; }"
pi=$(for d in "$fixture/aged-80"/run*; do awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next } $1 ~ /^hc-/ {
	if (a == "" || $h["first_arrival_us"] < a) a = $h["first_arrival_us"]; if ($h["last_end_us"] > e) e = $h["last_end_us"]; m += $h["matched"] }
	END { printf "%.2f\n", m / ((e - a) / 1e6) }' "$d/join-summary.csv"; done)
# shellcheck disable=SC2086
is "pairiops: aged-80's hot+cold pair, reads/s median (min-max) of the seeds" "$(csv_mmm "$tmp/pi/summary/pairiops.csv" iops scenario=aged-80 pair=hc)" "$(want_mmm $pi)"
"$top/bench/measures/results.sh" "$tmp/pi" "$tmp/pi/RESULTS.md" >/dev/null 2>"$tmp/pi-page.err"
rc=$?
t "pairiops: its section on the page, nothing missing ($rc)" sh -c "[ $rc = 0 ] && grep -q '^## Two sets read at once' '$tmp/pi/RESULTS.md' &&
	grep -qF '| aged-80 | hc | $(want_mmm $pi) |' '$tmp/pi/RESULTS.md' && ! grep -q 'Missing from this page' '$tmp/pi/RESULTS.md'"

# A failed run: left out of the summaries, the page marked partial
fresh_copy "$tmp/part" && sed -i 's/^seq 2 ok$/seq 2 FAIL status=1/' "$tmp/part/status" && echo partial=1 >>"$tmp/part/run-env.txt"
"$top/bench/measures/summarise.sh" "$tmp/part" >/dev/null 2>&1 && "$top/bench/measures/results.sh" "$tmp/part" "$tmp/part/RESULTS.md" >/dev/null 2>&1
t "a failed run: the page is marked partial and names it" sh -c "grep -q PARTIAL '$tmp/part/RESULTS.md' && grep -qx -- '- seq 2 FAIL status=1' '$tmp/part/RESULTS.md'"
is "a failed run: its numbers are left out (seq hot-read from run 1 alone)" "$(grep -F '| seq | hot-read |' "$tmp/part/RESULTS.md")" \
	"| seq | hot-read | $(fio_mbs seq hot-read | head -n 1 | xargs printf '%.2f') | 1 |"
[ $failed = 0 ] || { echo "test-pages: details in the log below" >&2; tail -n 30 "$tmp/log" >&2; }
tap_done
