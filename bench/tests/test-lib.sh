#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of bench/measures/lib.sh, the library the benchmark's stages source:
# die and stage, ok_run, stats, the one "median (min-max)" formatter, ratio
# with its empty-value checks, csv_get by column name.
# Usage: bench/tests/test-lib.sh   (part of make bench-pages-check; KEEP=1 keeps $tmp)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib/tap.sh"
tap_init test-lib
. "$top/bench/measures/lib.sh"

# stage's seconds count from lib_init (12 s ago here; 13 if a second ticks)
lib_init ARRAYS bench/runners/arrays.sh
bench_t0=$(($(date +%s) - 12))
l=$(stage hello)
check "stage: the tag, the seconds, the message ($l)" [ "$l" = "  ARRAYS  [  12s] hello" -o "$l" = "  ARRAYS  [  13s] hello" ]
lib_init BENCH bench/runners/run.sh
l=$(stage two words)
check "stage: BENCH lines as bench/runners/run.sh printed them ($l)" [ "$l" = "  BENCH   [   0s] two words" -o "$l" = "  BENCH   [   1s] two words" ]
( die "RUNS='x': bad" ) 2>"$tmp/die.err"
rc=$?
is "die: exit 2" "$rc" 2
is "die: the message, named" "$(cat "$tmp/die.err")" "bench/runners/run.sh: RUNS='x': bad"

mkdir -p "$tmp/out/s/run1" "$tmp/out/s/run2" "$tmp/out/s-2/run1"
printf 's 1 ok\ns 2 FAIL status=1\n' >"$tmp/out/status"
check "ok_run: a run the status file calls ok" ok_run "$tmp/out/s/run1"
check "ok_run: a failed run is not" bash -c "! { . '$top/bench/measures/lib.sh'; ok_run '$tmp/out/s/run2'; }"
check "ok_run: a run of another scenario (s-2) is not s's" bash -c "! { . '$top/bench/measures/lib.sh'; ok_run '$tmp/out/s-2/run1'; }"

is "stats: median (even count: the mean of the middle two), min, max, count per key" \
	"$(printf 'a,3\nb,5\na,1\na,10\na,2\n' | stats)" "$(printf 'a,2.5,1,10,4\nb,5,5,5,1')"
is "stats: numbers sort as numbers" "$(printf 'k,9\nk,10\nk,100\n' | stats)" "k,10,9,100,3"

printf 'scenario,job,run,v\na,x,1,3\na,x,2,1\nb,x,1,5\na,y,1,2\n' >"$tmp/m.csv"
printf 'scenario,run,v,w\na,1,3,\na,2,1,7\n' >"$tmp/m2.csv"
is "median_table: several columns, an empty value left out" "$(median_table "$tmp/m2.csv" scenario "v w")" \
	"$(printf 'scenario,v_median,v_min,v_max,w_median,w_min,w_max,runs\na,2,1,3,7,7,7,2')"
is "median_table: grouped by the key columns, with its header" "$(median_table "$tmp/m.csv" "scenario job" v)" \
	"$(printf 'scenario,job,v_median,v_min,v_max,runs\na,x,2,1,3,2\na,y,2,2,2,1\nb,x,5,5,5,1')"
median_table "$tmp/m.csv" "scenario nosuch" v >/dev/null 2>"$tmp/mt.err"
rc=$?
check "median_table: a missing column is named, status 2 ($rc)" sh -c "[ $rc = 2 ] && grep -q 'm.csv: no column nosuch' '$tmp/mt.err'"
is "mmm: min = max gives the median alone" "$(mmm 4.256 4.256 4.256)" "4.26"
is "mmm: median (min-max), %.2f" "$(mmm 2 1 3.456)" "2.00 (1.00-3.46)"
is "mmm: no median gives the placeholder" "$(mmm "" 1 2 n/a)" "n/a"
is "mmm: min and max equal at two decimals give the median alone" "$(mmm 1.001 1.0011 1.0049)" "1.00"
is "csv_mmm: a median_table's COLUMN_median (min-max), by column name" "$(csv_mmm <(median_table "$tmp/m.csv" "scenario job" v) v scenario=a job=x)" "2.00 (1.00-3.00)"
is "csv_mmm: no such row, -" "$(csv_mmm <(median_table "$tmp/m.csv" "scenario job" v) v scenario=nosuch)" "-"
is "aim: the whole range at or below the limit" "$(aim 0.5 0.4 0.55 le 0.55)" "met"
is "aim: a range across the limit" "$(aim 0.5 0.4 0.6 le 0.55)" "not met: the range straddles 0.55"
is "aim: all of it above" "$(aim 0.7 0.6 0.8 le 0.55)" "not met"
is "aim: ge, one value" "$(aim 0.93 "" "" ge 0.9)" "met"
is "aim: nothing measured" "$(aim "" "" "" ge 0.9)" "not measured"
is "tab: a program over a CSV by column name" "$(tab "$tmp/m.csv" "scenario v" '$C["scenario"] == s { t += $C["v"] } END { print t }' -v s=a)" 6
is "mmm: the awk function is the same formatter" "$(awk "$STATS_AWK"'BEGIN { printf "%s", mmm(2, 1, 3.456) }')" "2.00 (1.00-3.46)"

is "ratio: %.3f" "$(ratio 3 2)" "1.500"
is "ratio: empty numerator" "$(ratio "" 2)" "n/a"
is "ratio: empty denominator" "$(ratio 3 "")" "n/a"
is "ratio: zero denominator" "$(ratio 3 0)" "n/a"

cat >"$tmp/t.csv" <<'ROWS'
scenario,job,metric,median
seq,hot,service_p50_ms,4.2
seq,cold,service_p50_ms,9.5
seq,"a,b",service_p50_ms,1
randread,hot,service_p50_ms,3.1
ROWS
is "csv_get: a column by name, rows picked by name" "$(csv_get "$tmp/t.csv" median scenario=randread job=hot)" "3.1"
is "csv_get: the first row that matches" "$(csv_get "$tmp/t.csv" job scenario=seq)" "hot"
is "csv_get: a quoted field with a comma" "$(csv_get "$tmp/t.csv" job median=1)" "a,b"
is "csv_get: no matching row, nothing" "$(csv_get "$tmp/t.csv" median scenario=nosuch)" ""
is "csv_get: a missing file, nothing and status 0 (a partial run's page)" "$(csv_get "$tmp/nosuch.csv" median; echo "rc=$?")" "rc=0"
csv_get "$tmp/t.csv" nosuch scenario=seq >/dev/null 2>"$tmp/col.err"
rc=$?
check "csv_get: a missing column is named, status 2 ($rc)" sh -c "[ $rc = 2 ] && grep -q 't.csv: no column nosuch' '$tmp/col.err'"
csv_get "$tmp/t.csv" median nokey=1 >/dev/null 2>"$tmp/key.err"
rc=$?
check "csv_get: a missing key column is named, status 2 ($rc)" sh -c "[ $rc = 2 ] && grep -q 't.csv: no column nokey' '$tmp/key.err'"

# progress: the plan's steps and the time left.  Three steps planned at 60,
# 120 and 180 s; the first took 120 s (twice its plan), so what is left is
# the plan of the other two times (120 + 600) / (60 + 600); the second,
# begun 30 s ago, counts 120 x 720/660 - 30 of it.
progress_init "$tmp/progress.log"
is "progress_init: the log starts with the clock" "$(awk '{ print $1 }' "$tmp/progress.log")" start
progress_plan a 60 && progress_plan b 120 && progress_plan c 180 && progress_plan a 60
is "progress_plan: a step planned twice is planned once" "$(grep -c '^plan a ' "$tmp/progress.log")" 1
now=$(date +%s)
printf 'begin a %d\nend a 120\nbegin b %d\n' $((now - 150)) $((now - 30)) >>"$tmp/progress.log"
read -r pi pn left _ tot <<<"$(progress_left b)"
check "progress_left: step 2 of 3, plan 360 s ($pi $pn $tot)" [ "$pi $pn $tot" = "2 3 360" ]
# step a took 120 s of 60 planned: the rest scale by (120 + 600) / (60 + 600)
check "progress_left: (120 x 720/660 - 30 s run) + 180 x 720/660 = 297 s left (-1 s if a second ticked: $left)" [ "$left" = 297 -o "$left" = 296 -o "$left" = 295 ]
l=$(progress_begin c "the third")
check "progress_begin: the step's place and the minutes left ($l)" sh -c "echo '$l' | grep -q '3/3 the third; about [0-9]* min left (plan 6 min)'"
printf 'begin x %d\n' $((now - 100)) >>"$tmp/progress.log" && progress_end x
check "progress_end: an unplanned step still ends (what it took)" grep -q '^end x 10[01]$' "$tmp/progress.log"
printf 'begin y %d\n' $((now - 100)) >>"$tmp/progress.log" && progress_end y 2
check "progress_end: a step that shared the clock with another counts half" grep -q '^end y 50$' "$tmp/progress.log"
is "progress_table: the steps, planned and taken minutes" "$(progress_table | head -n 2 | tr '\n' ' ')" "step,expected_min,actual_min a,1.0,2.0 "
is "plan_cost: bench/runners/plan's minutes in seconds" "$(plan_cost kernel)" "$(awk '$1 == "kernel" { printf "%.0f", $2 * 60 }' "$top/bench/runners/plan")"
# the per-GiB kind: its minutes in bench/runners/plan times the GiB, in seconds
check "code_commit: the short HEAD of this repository ($(code_commit))" sh -c "echo '$(code_commit)' | grep -qE '^[0-9a-f]{7,}( \(with uncommitted changes\))?$'"
is "plan_cost: per GiB" "$(plan_cost age 4)" "$(awk '$1 == "age" { printf "%.0f", $2 * 4 * 60 }' "$top/bench/runners/plan")"
plan_cost nosuch >/dev/null 2>"$tmp/plan.err"
rc=$?
check "plan_cost: an unknown step is named, status 2 ($rc)" sh -c "[ $rc = 2 ] && grep -q 'no stage nosuch' '$tmp/plan.err'"
unset BENCH_PROGRESS
tap_done
