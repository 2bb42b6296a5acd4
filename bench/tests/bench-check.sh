#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench-check: one tiny scenario (randread, QUICK=1, time-scale 0.1)
# through the whole pipeline of bench/runners/run.sh, then assert that every
# output exists and parses; then a broken job file and a bad variable must
# fail cleanly.  RESULTS.md goes to a temporary file, never the repo's.
# Prints `ok N - ...` / `not ok N - ...`; exit 0 when all passed.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
out=$build/bench-check
. "$top/vm/lib/tap.sh"
. "$top/bench/measures/lib.sh"
tap_init bench-check
lines() { [ "$(wc -l <"$1" 2>/dev/null || echo 0)" -ge "$2" ]; }
is_png() { [ "$(head -c 8 "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
is_svg() { grep -q '<svg' "$1" 2>/dev/null; }
repo_sum() { cksum "$top/RESULTS.md" 2>/dev/null || echo none; }

command -v jq >/dev/null || { not_ok "jq missing (vm/lib/install-deps.sh plot)"; exit 1; }
before=$(repo_sum)
rm -rf "$out"
export VM_TIMEOUT=600
t "pipeline runs: QUICK=1 SCENARIO=randread TIME_SCALE=0.1" \
	env QUICK=1 RUNS=1 SCENARIO=randread TIME_SCALE=0.1 RESULTS="$tmp/RESULTS.md" \
	timeout 900 "$top/bench/runners/run.sh" "$out"
d=$out/randread/run1
t "fio JSON parses and has both jobs" jq -e '[.jobs[].jobname] | index("hot") != null and index("none") != null' "$d/fio.json"
t "placement log has a row per file" lines "$d/placement.csv" 9
t "seek log has rows" lines "$d/seek.csv" 100
t "disk model trace has rows" lines "$d/trace.csv" 100
t "summary: latency per job" sh -c "[ -n '$(csv_get "$out/summary/rand.csv" p50_ms_median scenario=randread job=hot)' ] && [ -n '$(csv_get "$out/summary/rand.csv" p50_ms_median scenario=randread job=none)' ]"
t "summary: latency CDFs" sh -c "[ -s '$out/summary/cdf-lat-randread-hot.csv' ] && [ -s '$out/summary/cdf-lat-randread-none.csv' ]"
t "summary: trace service times" lines "$out/summary/trace-seek.csv" 50
for f in latency-cdf-randread seek-cdf-randread seek-latency; do
	t "figure $f.png is a PNG" is_png "$out/figures/$f.png"
	t "figure $f.svg is an SVG" is_svg "$out/figures/$f.svg"
done
t "RESULTS.md written to the temporary path" grep -q '^## Random 4 KiB reads' "$tmp/RESULTS.md"
t "RESULTS.md links the figures" grep -q 'figures/latency-cdf-randread.png' "$tmp/RESULTS.md"
t "every link of RESULTS.md resolves next to it" sh -c "cd '$tmp' && grep -o '](\([^)]*\))' RESULTS.md | sed 's/^](//; s/)\$//' | { ok=1; while read -r l; do [ -f \"\$l\" ] || { echo \"dead link \$l\"; ok=0; }; done; [ \$ok = 1 ]; }"
t "RESULTS.md not marked partial" sh -c "! grep -q PARTIAL '$tmp/RESULTS.md'"
t "the repo's RESULTS.md untouched" [ "$before" = "$(repo_sum)" ]
t "OUT/scenarios: the run's row of bench/jobs/scenarios" sh -c "grep -v '^#' '$out/scenarios' | awk '{ print \$1, NF }' | grep -qx 'randread 6'"

# A missing input, a renamed column, a summary without rows: the host's
# bench/tests/test-pages.sh (make bench-pages-check) on its fixture run tree.

# A broken job file: the run fails, names the scenario, keeps a partial page.
mkdir -p "$tmp/jobs"
cp "$top"/bench/jobs/*.fio "$tmp/jobs/"
sed -i 's/^rw=randread$/rw=sideways/' "$tmp/jobs/randread.fio"
env QUICK=1 RUNS=1 SCENARIO=randread TIME_SCALE=0.1 RESULTS="$tmp/PARTIAL.md" JOB_DIR="$tmp/jobs" \
	timeout 900 "$top/bench/runners/run.sh" "$tmp/bad" >"$tmp/bad.out" 2>"$tmp/bad.err"
rc=$?
t "broken job file: non-zero exit" [ $rc != 0 ]
t "broken job file: message names the scenario" grep -q "scenario 'randread'" "$tmp/bad.err"
t "broken job file: RESULTS.md marked partial" grep -q PARTIAL "$tmp/PARTIAL.md"

# Command queueing: the same pairs at queue depth 1 and 32 (QUICK sizes,
# time-scale 1: the queue forms in real time).  At 32 the drive reorders,
# so the hot+cold pair's positioning per read must fall well below depth
# 1's, and the guest's scheduler must be the one the scenario names.
q=$build/bench-check-qd
rm -rf "$q"
t "queueing scenarios run: qd-mixed-1-none and qd-mixed-32-deadline" \
	env QUICK=1 RUNS=1 SCENARIO="qd-mixed-1-none qd-mixed-32-deadline" RESULTS="$tmp/qd/RESULTS.md" \
	RESULTS_TITLE="Command queueing" timeout 900 "$top/bench/runners/run.sh" "$q"
t "qd 32: the guest's scheduler was mq-deadline" grep -qx 'scheduler=mq-deadline' "$q/qd-mixed-32-deadline/run1/env.txt"
t "qd 1: the guest's scheduler was none" grep -qx 'scheduler=none' "$q/qd-mixed-1-none/run1/env.txt"
t "qd 32: the drive served reads out of arrival order" sh -c "awk -F, 'NR > 1 && \$6 == \"read\" { if (\$1 < last) n++; last = \$1 } END { exit !(n > 10) }' '$q/qd-mixed-32-deadline/run1/trace.csv'"
# qd-pairs.csv by column name (bench/measures/measure-qd.sh)
pos() { csv_get "$q/summary/qd-pairs.csv" pos_mean_ms_median scenario="$1" pair="$2"; }
atd() { csv_get "$q/summary/qd-pairs.csv" max_at_drive_max scenario="$1" pair="$2"; }
p1=$(pos qd-mixed-1-none hc) p32=$(pos qd-mixed-32-deadline hc)
t "hot+cold positioning per read: depth 32 ($p32 ms) < half of depth 1 ($p1 ms)" \
	awk -v a="$p32" -v b="$p1" 'BEGIN { exit !(a != "" && b > 0 && a < b / 2) }'
t "depth 1: at most 2 reads of a pair at the drive ($(atd qd-mixed-1-none hc))" [ "$(atd qd-mixed-1-none hc)" = 2 ]
t "depth 32: more than 2 reads of a pair at the drive ($(atd qd-mixed-32-deadline hc))" [ "$(atd qd-mixed-32-deadline hc)" -gt 2 ]
t "queueing page: the section, its table and figure" sh -c "grep -q '^## Command queueing' '$tmp/qd/RESULTS.md' &&
	grep -q '^| qd-mixed-32-deadline | 32 | mq-deadline | hc' '$tmp/qd/RESULTS.md' && [ -f '$tmp/qd/plots/figures/qd-mixed.png' ] &&
	grep -q 'plots/figures/qd-mixed.png' '$tmp/qd/RESULTS.md'"
t "queueing page: the validation table from hdd-validate" grep -q '^| cheetah9lp | average_seek |' "$tmp/qd/RESULTS.md"
t "queueing page: titled as asked" grep -qx '# Command queueing' "$tmp/qd/RESULTS.md"
# a bad job column: exit 2, naming it, before any guest
grep -v '^#' "$top/bench/jobs/scenarios" | sed 's/mixed-qd.fio:qd=32,sched=mq-deadline/mixed-qd.fio:qd=33,sched=mq-deadline/' >"$tmp/bad-scen"
env SCENARIOS="$tmp/bad-scen" SCENARIO=qd-mixed-32-deadline RESULTS="$tmp/NO3.md" timeout 60 "$top/bench/runners/run.sh" "$tmp/bad3" >/dev/null 2>"$tmp/bad3.err"
rc=$?
t "qd=33 in a job column: exit 2, names the value" sh -c "[ $rc = 2 ] && grep -q 'qd=33' '$tmp/bad3.err' && [ ! -e '$tmp/NO3.md' ]"

env PROFILE=nosuchdrive RESULTS="$tmp/NO.md" timeout 60 "$top/bench/runners/run.sh" "$tmp/bad2" >"$tmp/bad2.out" 2>"$tmp/bad2.err"
rc=$?
t "unknown PROFILE: exit 2, names the value" sh -c "[ $rc = 2 ] && grep -q nosuchdrive '$tmp/bad2.err'"
t "unknown PROFILE: no RESULTS.md written" [ ! -e "$tmp/NO.md" ]
[ $failed = 0 ] || { echo "bench-check: details in the log below" >&2; tail -n 30 "$tmp/log" >&2; }
tap_done
