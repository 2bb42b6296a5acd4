#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test of the allocation-cost page (bench/measures/alloc-results.sh), no guest:
# a synthetic alloc-runs.csv of 3 rounds at two sizes, where the patched
# kernel with region_reserve=1 is 10% slower than stock at the large size
# in every round, and one configuration's range straddles the 0.95 aim (the
# stock kernel varies 9.5% across rounds: quiet enough for verdicts); then the
# same run with one noisy round, where the verdicts must be withheld.
# Checks the within-round ratios, the verdicts, the page's links and that
# bad input is named.
# Usage: bench/tests/test-alloc-results.sh   (make bench-pages-check)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib/tap.sh"
tap_init test-alloc-results
out=$tmp/alloc
mkdir -p "$out"
{
	echo "run,size,groups,kernel,reserve,mode,files,bytes,seconds,rate,sys_us_per_file,groups_scanned"
	for r in 1 2 3; do
		for s in 64G 17592186040320; do
			g=512; [ $s = 64G ] || g=131072
			for m in none hot; do
				st=$((100 + r * 5))
				echo "$r,$s,$g,stock,0,$m,600,65536,6,$st,50,10"
				echo "$r,$s,$g,patched,0,$m,600,65536,6,$st,51,10"
				p1=$st
				[ $s = 64G ] || p1=$(awk -v s=$st 'BEGIN { printf "%.1f", s * 0.9 }')
				# hot at 64G, reserve 1: 0.97, 0.99, 0.93 of stock: straddles 0.95
				[ $s = 64G ] && [ $m = hot ] && p1=$(awk -v s=$st -v r=$r 'BEGIN { printf "%.1f", s * (r == 1 ? 0.97 : r == 2 ? 0.99 : 0.93) }')
				# groups scanned: 10 for 600 files, but 30 for hot at 16 TiB with
				# the reserve (a scan that grows with the number of groups)
				gs=10; [ $s != 64G ] && [ $m = hot ] && gs=30
				echo "$r,$s,$g,patched,1,$m,600,65536,6,$p1,60,$gs"
			done
		done
	done
} >"$out/alloc-runs.csv"
"$top/bench/measures/alloc-results.sh" "$out" "make alloc-bench RUNS=3" >"$tmp/log" 2>&1
check "alloc-results.sh writes a page" [ $? = 0 ] && [ -s "$out/RESULTS.md" ] && [ -s "$out/alloc-summary.csv" ]
page=$out/RESULTS.md
row() { grep -F "| $1 | $2 | $3 |" "$page" | tail -n 1; }
check "16 TiB, reserve 1: patched/stock 0.900 in every round, not met" \
	sh -c "echo '$(row '16 TiB less 4 KiB' 1 none)' | grep -q '| 0.900 | not met |'"
check "16 TiB, reserve 0: patched/stock 1.000, met" \
	sh -c "echo '$(row '16 TiB less 4 KiB' 0 none)' | grep -q '| 1.000 | met |'"
check "16 TiB against 64 GiB, reserve 1: 0.900, met (the aim is 0.90)" \
	sh -c "echo '$(row '16 TiB less 4 KiB' 1 none)' | grep -q '| 0.900 | not met | 0.900 | met |'"
check "64 GiB hot reserve 1: a range across 0.95 is not met" \
	sh -c "echo '$(row '64 GiB' 1 hot)' | grep -q '0.970 (0.930-0.990) | not met (the range straddles the aim)'"
check "groups scanned per file: 0.017 and 0.050 for hot with the reserve at 16 TiB" \
	sh -c "grep -F '| 64 GiB (512) | patched | 1 | hot |' '$page' | grep -q '| 0.017 | 3 |' &&
		grep -F '| 16 TiB less 4 KiB (131072) | patched | 1 | hot |' '$page' | grep -q '| 0.050 | 3 |'"
check "the page says the scan grows with the groups (1.00-3.00x)" \
	grep -q 'groups scanned per file 1.00-3.00x .*the scan of the block allocator grows with the number of groups' "$page"
check "the stock rows have no ratio" \
	sh -c "grep -F '| 64 GiB (512) | stock |' '$page' | grep -q '| 3 |  |  |\$'"
check "the page names its commit and the command" \
	sh -c "grep -q 'at commit [0-9a-f]' '$page' && grep -qF 'make alloc-bench RUNS=3' '$page'"
check "every file the page links exists" \
	sh -c "for f in \$(grep -o '](.[^)]*)' '$page' | sed 's/^](//; s/)\$//'); do [ -e '$out'/\$f ] || exit 1; done"
check "no absolute path on the page" sh -c "! grep -q '$top\|/tmp/\|/work/' '$page'"
"$top/bench/measures/alloc-results.sh" "$tmp/none" >"$tmp/log2" 2>&1
check "a folder without alloc-runs.csv is named, exit 2" sh -c "[ $? = 2 ] && grep -q 'no .*alloc-runs.csv' '$tmp/log2'"
# one noisy round: the stock kernel 3x faster in round 2 at 64 GiB (all
# kernels, as the testbed would do it): no verdict at 64 GiB, nor for the
# large/small ratio, and the page says why
mkdir -p "$tmp/noisy"
awk -F, -v OFS=, 'NR > 1 && $1 == 2 && $2 == "64G" { $10 = $10 * 3 } { print }' "$out/alloc-runs.csv" >"$tmp/noisy/alloc-runs.csv"
"$top/bench/measures/alloc-results.sh" "$tmp/noisy" "x" >/dev/null 2>&1
check "a noisy size: no verdict at 64 GiB" sh -c "grep -F '| 64 GiB | 0 | none |' '$tmp/noisy/RESULTS.md' | tail -n 1 | grep -q '| no verdict (noise) |'"
check "a noisy size: the page names the stock kernel's spread" \
	grep -q 'at 64 GiB the stock kernel.s unhinted rate ranged 105.0-330.0 files/s across rounds (3.1x)' "$tmp/noisy/RESULTS.md"
check "a noisy size: no verdict for 16 TiB against 64 GiB either" sh -c "grep -F '| 16 TiB less 4 KiB | 1 | none |' '$tmp/noisy/RESULTS.md' | tail -n 1 | grep -q '| no verdict (noise) |\$'"
check "a noisy size: the quiet size keeps its verdict" sh -c "grep -F '| 16 TiB less 4 KiB | 0 | none |' '$tmp/noisy/RESULTS.md' | tail -n 1 | grep -q '| 1.000 | met |'"
tap_done
