#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test of the alternatives run's summariser, figure and page (issue
# 26), no guest: bench/measures/summarise-alternatives.sh, plots/alternatives.gp and
# bench/measures/results-alternatives.sh on a copy of bench/tests/fixtures/alternatives-small/
# (made by bench/tests/fixtures/make-alternatives-small.sh, which says what it
# holds); the numbers are checked against values computed here from the
# fixture's raw files (join.csv, trace.csv, track.csv, where-after.csv);
# then a missing file and a missing column must be named; then hc-mkfiles'
# creates (hint none, on files under the test's scratch folder) and its bad
# input.
# Usage: bench/tests/test-alternatives.sh   (make alternatives-check; KEEP=1 keeps $tmp)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
fixture=$top/bench/tests/fixtures/alternatives-small
BTOOLS=${BTOOLS:-$top/build/bench-tools}
. "$top/vm/lib/tap.sh"
tap_init test-alternatives
command -v gnuplot >/dev/null || { not_ok "gnuplot missing (vm/lib/install-deps.sh)"; tap_done; exit 1; }
[ -s "$fixture/status" ] || { not_ok "no run tree in $fixture"; tap_done; exit 1; }
out=$tmp/run page=$tmp/page/RESULTS.md
cp -a "$fixture" "$out"
. "$top/bench/measures/lib.sh"
S=$top/bench/measures/summarise-alternatives.sh
t "the summariser runs on the fixture" "$S" "$out"
runs=$out/summary/runs.csv
r() { csv_get "$runs" "$2" arm="$1"; }
# from the raw files: nearest-rank p50 of the service times (ms) of the reads of ARM with seq >= FROM
p50() { awk -F, -v from="$2" 'NR > 1 && $2 >= from { print $12 / 1000 }' "$out/arm-$1/run1/join.csv" | sort -g |
	awk '{ v[NR] = $1 } END { i = int(NR / 2); if (i < NR / 2) i++; printf "%.3f", v[i] }'; }
for a in a b c e; do
	is "arm $a: steady p50 = the raw join's last third" "$(r $a steady_p50_ms)" "$(p50 $a 40)"
	is "arm $a: p50 over all reads" "$(r $a p50_ms)" "$(p50 $a 0)"
done
is "the failed arm d is not summarised" "$(awk -F, '$1 == "d"' "$runs" | wc -l)" 0
is "arm b's seek log differs from the pilot's sequence: same_sequence 0" "$(r b same_sequence)" 0
is "arm a's seek log is the pilot's sequence: same_sequence 1" "$(r a same_sequence)" 1
is "arm e: within 10% of c's steady p50 from the window at 20 s" "$(r e t_within10_s)" 20
is "arm c: within 10% of itself from 0 s" "$(r c t_within10_s)" 0
is "arm a: never within 10% of c (empty)" "$(r a t_within10_s)" ""
is "arm e: moves from track.csv" "$(r e moves)" "$(awk -F, 'NR > 1 && $10 == "moved"' "$out/arm-e/run1/track.csv" | wc -l)"
is "arm e: moved MiB from track.csv" "$(r e moved_mb)" "$(awk -F, 'NR > 1 && $10 == "moved" { s += $9 } END { printf "%.3f", s / 1048576 }' "$out/arm-e/run1/track.csv")"
is "arm e: background writes from the trace's rows that are no read of the job" "$(r e bg_write_mb)" \
	"$(awk -F, 'NR > 1 && $6 == "write" { s += $5 * 512 } END { printf "%.3f", s / 1048576 }' "$out/arm-e/run1/trace.csv")"
is "arm e: the reads in the 1 s slots with background I/O" "$(r e moving_reads)" 2
is "arm e: their p50 (the early, slow reads)" "$(r e moving_p50_ms)" 10.000
is "arm a: no background I/O, no moving reads" "$(r a bg_write_mb),$(r a moving_reads)" "0.000,"
is "arm e: the hot set's bytes in the first third after (hc-where)" "$(r e hot_first)" \
	"$(awk -F, 'NR > 1 && ($1 ~ /zipf\.[01]$/) { s += $3; v += $3 * $4 } END { printf "%.4f", v / s }' "$out/arm-e/run1/where-after.csv")"
is "arm c: steady reads in the disk's first third (LBA < sectors / 3)" "$(r c reads_first_third)" 1.0000
is "arm e: steady seek p50 from the join's seek_us (half the service here)" "$(r e steady_seek_p50_ms)" \
	"$(awk -F, 'NR > 1 && $2 >= 40 { print $13 / 1000 }' "$out/arm-e/run1/join.csv" | sort -g | awk '{ v[NR] = $1 } END { i = int(NR / 2); if (i < NR / 2) i++; printf "%.3f", v[i] }')"
is "arm a: none there" "$(r a reads_first_third)" 0.0000
is "arm e: the files outside the hot set, their bytes in the last third (hc-where)" "$(r e rest_last)" \
	"$(awk -F, 'NR > 1 && !($1 ~ /zipf\.[01]$/) { s += $3; v += $3 * $6 } END { printf "%.4f", v / s }' "$out/arm-e/run1/where-after.csv")"
w=$out/summary/windows.csv
is "windows: 6 per arm, 4 arms" "$(awk 'NR > 1' "$w" | wc -l)" 24
is "arm e window 1: p50 10 ms and the 2 MiB of background" "$(awk -F, '$1 == "e" && $3 == 1 { print $6 "," $8 }' "$w")" "10.000,2.000"
is "arm e window 2: p50 5 ms" "$(awk -F, '$1 == "e" && $3 == 2 { print $6 }' "$w")" 5.000
is "runs.csv: arm c's reads on the guest's clock (the engine's latency), p50 7 ms" "$(csv_get "$out/summary/runs.csv" guest_p50_ms arm=c run=1)" 7.000
is "arms.csv: e's steady p50 median" "$(csv_get "$out/summary/arms.csv" median arm=e metric=steady_p50_ms)" 5
t "a figure series per arm" test -s "$out/summary/fig-windows-a.csv" -a -s "$out/summary/fig-windows-e.csv" -a ! -e "$out/summary/fig-windows-d.csv"
t "the figure: gnuplot draws a PNG" gnuplot -e "set loadpath '$top/plots'" -e "dir='$out/summary'" "$top/plots/alternatives.gp"
is "  it is a PNG" "$(head -c 8 "$out/summary/alternatives-p50.png" | od -An -tx1 | tr -d ' \n')" 89504e470d0a1a0a
echo "command=make alternatives SIZE=3G" >>"$out/run-env.txt"
t "the page writer runs" "$top/bench/measures/results-alternatives.sh" "$out" "$page"
t "the page is labelled a short run without a spread (3G, RUNS=1)" grep -q '^\*\*Short run\*\*: a 3G disk, 1 run' "$page"
t "the page names the commit and the command" grep -q '`fixture`; the command: `make alternatives SIZE=3G`. The page' "$page"
t "the table: arm c's row with its steady p50 and p99" grep -q '^| c | O_HOT at create, right (the hot set) | 5.00 | 5.00 |' "$page"
t "the table: arm c's guest-clock p50 (7 ms) beside its disk-clock p50 (5 ms)" grep -q '^| c | O_HOT at create, right (the hot set) | 5.00 | 5.00 | 5.00 | 7.00 |' "$page"
t "the table: arm e within 10% from 20 s, 2 MiB moved, 10 ms while moving, 5 quiet" grep -q '^| e | .* | 20.00 | 2.00 | 10.00 / 5.00 |' "$page"
t "the table: arm a never within 10% of c" grep -q '^| a | .* | never |' "$page"
t "the verdict names the lowest steady p50 (c, 5 ms) and a's ratio 2" sh -c "grep -q '^The lowest steady p50 is arm c' '$page' && grep -q \"^Arm a's is 2.000 times that\" '$page'"
t "the failed run is listed" grep -q 'Failed runs.*d 1 FAIL' "$page"
t "the figure is copied next to the page and linked" sh -c "test -s '$tmp/page/plots/figures/alternatives-p50.png' && grep -q '](plots/figures/alternatives-p50.png)' '$page'"
t "the CSVs are copied next to the page" test -s "$tmp/page/csv/runs.csv" -a -s "$tmp/page/csv/windows.csv"

# arm g: a copy of arm a's run (the fixture has none of its own): its
# row, the sentence on write-lifetime hints, its figure series
cp -a "$fixture" "$tmp/withg" && cp -a "$tmp/withg/arm-a" "$tmp/withg/arm-g" && echo "g 1 ok" >>"$tmp/withg/status"
t "arm g: the summariser runs" "$S" "$tmp/withg"
t "arm g: a figure series" test -s "$tmp/withg/summary/fig-windows-g.csv"
t "arm g: the page writer runs" "$top/bench/measures/results-alternatives.sh" "$tmp/withg" "$tmp/pageg/RESULTS.md"
t "arm g: its row says what it is, with a's numbers" grep -q '^| g | write-lifetime hints: RWH_WRITE_LIFE_EXTREME on the files outside the hot set | 10.00 |' "$tmp/pageg/RESULTS.md"
t "arm g: the sentence with its ratios to c and a and where its hinted files went" \
	grep -q "^Write-lifetime hints (g): steady p50 10 ms, 2.000 of right O_HOT hints' (c), 1.000 of doing nothing's (a); the files it hinted EXTREME ended with 0.00 of their bytes in the last third (a: 0.00)" "$tmp/pageg/RESULTS.md"

# bench/runners/alternatives-merge.sh: arm g from another run tree of the same pilot
MG=$top/bench/runners/alternatives-merge.sh
cp -a "$fixture" "$tmp/into"
t "merge: arm g from another run of the same pilot" "$MG" "$tmp/into" "$tmp/withg" g -- "The images were compared."
is "  its status line and folder copied" "$(grep -c '^g 1 ok' "$tmp/into/status"),$(test -d "$tmp/into/arm-g" && echo dir)" "1,dir"
t "  the page names where g came from" sh -c "'$S' '$tmp/into' >/dev/null && '$top/bench/measures/results-alternatives.sh' '$tmp/into' '$tmp/pagem/RESULTS.md' && grep -q '^Arm(s) g come from another run of the same pilot and parameters (checked): .*The images were compared.\$' '$tmp/pagem/RESULTS.md'"
"$MG" "$tmp/into" "$tmp/withg" g >/dev/null 2>"$tmp/em1"; rc=$?
t "  an arm already there: status 1, named" sh -c "[ $rc = 1 ] && grep -q 'arm g already in' '$tmp/em1'"
cp -a "$tmp/withg" "$tmp/othseq" && sed -i '1d' "$tmp/othseq/pilot/sequence.txt"
cp -a "$fixture" "$tmp/into2"
"$MG" "$tmp/into2" "$tmp/othseq" g >/dev/null 2>"$tmp/em2"; rc=$?
t "  another request sequence: status 1, named" sh -c "[ $rc = 1 ] && grep -q 'pilot/sequence.txt differs' '$tmp/em2'"
"$MG" "$tmp/into2" "$tmp/withg" h >/dev/null 2>"$tmp/em3"; rc=$?
t "  not an arm: status 2, named" sh -c "[ $rc = 2 ] && grep -q \"'h' is not an arm\" '$tmp/em3'"

# bad input: named, status non-zero
cp -a "$fixture" "$tmp/bad1" && rm "$tmp/bad1/arm-c/run1/join.csv"
"$S" "$tmp/bad1" >/dev/null 2>"$tmp/err1"; rc=$?
t "a missing join.csv: status 1 and the file named" sh -c "[ $rc = 1 ] && grep -q 'arm c run 1: .*arm-c/run1/join.csv missing' '$tmp/err1'"
cp -a "$fixture" "$tmp/bad2" && sed -i '1s/service_us/svc_us/' "$tmp/bad2/arm-a/run1/join.csv"
"$S" "$tmp/bad2" >/dev/null 2>"$tmp/err2"; rc=$?
t "a renamed column: status 1 and the column named" sh -c "[ $rc = 1 ] && grep -q 'service_us' '$tmp/err2'"
"$S" "$tmp/nothing" >/dev/null 2>"$tmp/err3"; rc=$?
t "not a run tree: status 2, named" sh -c "[ $rc = 2 ] && grep -q 'run-env.txt missing' '$tmp/err3'"

# hc-mkfiles (hint none: the host kernel has no O_HOT), on the scratch folder
M=$BTOOLS/hc-mkfiles
if [ -x "$M" ]; then
	printf '# a comment\n%s/f1 4096 none\n\n%s/f2 3m none\n%s/f5 8k none extreme\n' "$tmp" "$tmp" "$tmp" >"$tmp/list"
	t "hc-mkfiles makes the list" sh -c "'$M' '$tmp/list' >'$tmp/mk.csv'"
	is "  sizes as asked" "$(stat -c %s "$tmp/f1") $(stat -c %s "$tmp/f2") $(stat -c %s "$tmp/f5")" "4096 3145728 8192"
	is "  its CSV: a header and a row per file, with the inode, no lifetime (-)" "$(sed -n 3p "$tmp/mk.csv")" "$tmp/f2,3145728,none,$(stat -c %i "$tmp/f2"),-"
	is "  a lifetime column: set with F_SET_RW_HINT, named in the CSV" "$(sed -n 4p "$tmp/mk.csv")" "$tmp/f5,8192,none,$(stat -c %i "$tmp/f5"),extreme"
	"$M" "$tmp/list" >/dev/null 2>"$tmp/e1"; rc=$?
	t "  a file that exists: status 1, named (O_EXCL)" sh -c "[ $rc = 1 ] && grep -q '$tmp/f1: openat2(none): File exists' '$tmp/e1'"
	printf '%s/f3 12 warm\n' "$tmp" >"$tmp/l2"; "$M" "$tmp/l2" >/dev/null 2>"$tmp/e2"; rc=$?
	t "  a bad hint: status 2, named" sh -c "[ $rc = 2 ] && grep -q \"line 1: hint 'warm'\" '$tmp/e2'"
	printf '%s/f4 12x none\n' "$tmp" >"$tmp/l3"; "$M" "$tmp/l3" >/dev/null 2>"$tmp/e3"; rc=$?
	t "  a bad size: status 2, the line named" sh -c "[ $rc = 2 ] && grep -q 'line 1: want \"PATH SIZE HINT \[LIFETIME\]\"' '$tmp/e3'"
	printf '%s/f6 12 none\n%s/f7 12 none forever\n' "$tmp" "$tmp" >"$tmp/l4"; "$M" "$tmp/l4" >/dev/null 2>"$tmp/e4"; rc=$?
	t "  a bad lifetime: status 2, the line and the word named" sh -c "[ $rc = 2 ] && grep -q \"line 2: lifetime 'forever'\" '$tmp/e4'"
	printf '%s/f8 12 none long extra\n' "$tmp" >"$tmp/l5"; "$M" "$tmp/l5" >/dev/null 2>"$tmp/e5"; rc=$?
	t "  a fifth field: status 2, the line named" sh -c "[ $rc = 2 ] && grep -q 'line 1: want' '$tmp/e5'"
	"$M" "$tmp/none" >/dev/null 2>&1; rc=$?
	is "  a missing list: status 2" "$rc" 2
else
	not_ok "hc-mkfiles missing: make bench-tools"
fi
tap_done
