#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make aged-check: a tiny aged-filesystem run through bench/runners/run.sh (a 4 GiB
# modelled disk aged to 50%, small sets, time-scale 0.1), then assert what
# the full scenario relies on: hc-age reached its target within 2 points,
# the disk trace accounts for >= 99% of the engine's reads in every job,
# every set's placement was read back and reported, the page has the
# section; and ageing the same seed again gives the same operations (the
# manifest digests agree; that another seed gives others is a host test of
# hc-age, bench/tools/test-age.sh); then aged-80 with the kernel's region reserve
# off and on; then promote-80 on that aged-80 image (hc-move, and every
# O_DIRECT read joined with a trace row of its own despite the checksums'
# readahead over the same sectors).
# Prints `ok N - ...` / `not ok N - ...`; exit 0 when all passed.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
out=$build/aged-check
. "$top/vm/lib/tap.sh"
# csv_get, tab: the summaries read by column name
. "$top/bench/measures/lib.sh"
tap_init aged-check
sets=H:hot:2:2M,H2:hot:2:2M,C:cold:2:2M,N:none:2:2M,N2:none:2:2M,HS:hot:1:8M,CS:cold:1:8M,NS:none:1:8M
run() { # cache-dir seed out results
	env QUICK=1 RUNS=1 SCENARIO=aged-50 TIME_SCALE=0.1 BENCH_DISK=4G AGED_SETS=$sets AGED_CHURN=0.5 \
		AGED_IO=256k AGED_CACHE="$1" AGED_SEED="$2" RESULTS="$4" VM_TIMEOUT=900 AGED_TIMEOUT=900 \
		timeout 1800 "$top/bench/runners/run.sh" "$3"
}
state() { sed -n "s/^$2=//p" "$1/aged-50/aging/state.txt" 2>/dev/null; }
within() { awk -v a="$1" -v b="$2" -v d="$3" 'BEGIN { exit !(a != "" && a - b <= d && b - a <= d) }'; }

rm -rf "$out" "$out-2"
t "aged pipeline runs: 4G disk, aged to 50%, SCENARIO=aged-50" run "$tmp/cache" 7 "$out" "$tmp/RESULTS.md"
f=$(state "$out" fullness_pct)
t "hc-age reached 50% within 2 points (got ${f:-nothing})" within "$f" 50 2
t "the aged image passed e2fsck -fn" grep -qx fsck_rc=0 "$out/aged-50/aging/env.txt"
t "top-level directories: at least 32, spread by Orlov" sh -c "[ \"\$(sed -n 's/^dirs=//p' '$out/aged-50/aging/state.txt')\" -ge 32 ]"
t "e2freefrag histogram recorded" [ -n "$(csv_get "$out/summary/aged-freefrag.csv" range scenario=aged-50)" ]
js=$out/aged-50/run1/join-summary.csv
t "trace join: every job of aged.fio has reads" sh -c "[ \$(awk -F, 'NR > 1 && \$3 > 0' '$js' | wc -l) -eq 12 ]"
t "trace join: >= 99% of each job's reads matched" awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["reads"] > 0 && $c["match_frac"] < 0.99 { bad = 1 } END { exit bad || NR < 2 }' "$js"
for x in H H2 C N N2 HS CS NS; do
	t "set $x: placement read back and reported" tab "$out/summary/aged-sets.csv" "scenario set files frac_first frac_middle frac_last" '
		$C["scenario"] == "aged-50" && $C["set"] == x && $C["files"] > 0 && (f = $C["frac_first"] + $C["frac_middle"] + $C["frac_last"]) > 0.99 && f < 1.01 { ok = 1 }
		END { exit !ok }' -v x="$x"
done
t "set files were honoured hints while ageing (hot and cold)" sh -c "[ \"\$(sed -n 's/^age_hint_honoured=//p' '$out/aged-50/aging/env.txt')\" -ge 7 ]"
t "RESULTS.md has the aged section with the set table" sh -c "grep -q '^## Aged filesystem' '$tmp/RESULTS.md' && grep -q '^| HS | hot |' '$tmp/RESULTS.md'"
t "RESULTS.md aged section names the service time on the disk's clock" grep -q 'service p50' "$tmp/RESULTS.md"

# The same seed ages to the same operations.
t "same seed again (fresh cache)" run "$tmp/cache2" 7 "$out-2" "$tmp/R2.md"
t "same seed: same manifest digest" sh -c "d1=\$(sed -n 's/^digest=//p' '$out/aged-50/aging/state.txt'); d2=\$(sed -n 's/^digest=//p' '$out-2/aged-50/aging/state.txt'); [ -n \"\$d1\" ] && [ \"\$d1\" = \"\$d2\" ]"
t "same seed: same set files and sizes" cmp "$out/aged-50/aging/sets.csv" "$out-2/aged-50/aging/sets.csv"
# A cached image is reused, not made again.
t "the cache is reused for the same parameters" sh -c "env QUICK=1 RUNS=1 SCENARIO=aged-50 TIME_SCALE=0.1 BENCH_DISK=4G AGED_SETS=$sets AGED_CHURN=0.5 AGED_IO=256k AGED_CACHE='$tmp/cache' AGED_SEED=7 RESULTS='$tmp/R4.md' timeout 1800 '$top/bench/runners/run.sh' '$out-2' 2>&1 | grep -q 'aged image 50%, seed 7, patched kernel: cached'"

# The kernel's region reserve: SCENARIO=aged-80 runs aged-80 and
# aged-80-reserve (region_reserve=1 while ageing and measuring) side by side.
rm -rf "$out-r"
# the two rows alone (SCENARIO=aged-80 also selects aged-80-stock), one seed
# (both marked for QUICK=1, which runs only the rows marked q)
grep -E '^aged-80(-reserve)? ' "$top/bench/jobs/scenarios" | awk '{ $5 = "q"; print }' >"$tmp/scen-80"
t "aged-80 and aged-80-reserve run (4G, 80%)" env QUICK=1 RUNS=1 SCENARIOS="$tmp/scen-80" AGED_SEEDS=1 TIME_SCALE=0.1 BENCH_DISK=4G \
	AGED_SETS=$sets AGED_CHURN=0.5 AGED_IO=256k AGED_CACHE="$tmp/cache3" AGED_SEED=7 RESULTS="$tmp/R3.md" \
	VM_TIMEOUT=900 AGED_TIMEOUT=900 timeout 2400 "$top/bench/runners/run.sh" "$out-r"
# Both images are made before either scenario runs, at once (AGED_JOBS=2):
# each "ageing" line comes before the first "made" line and the first run.
t "the two images were aged at once, before any run" awk '
	/aged image 80(\+reserve)?%, seed 7, patched kernel: ageing/ { a[++na] = NR }
	/aged image 80(\+reserve)?%, seed 7, patched kernel: made/ && !m { m = NR }
	/aged-80(-reserve)? run 1\/1/ && !r { r = NR }
	END { exit !(na == 2 && m && r && a[1] < m && a[2] < m && m < r) }' "$tmp/log"
t "aged-80-reserve was aged and measured with region_reserve=1" sh -c "grep -qx mount_opts=region_reserve=1 '$out-r/aged-80-reserve/aging/env.txt' &&
	grep -qx region_reserve=1 '$out-r/aged-80-reserve/aging/env.txt' && grep -qx region_reserve=1 '$out-r/aged-80-reserve/run1/env.txt'"
t "aged-80 was aged without it" sh -c "grep -qx mount_opts=none '$out-r/aged-80/aging/env.txt' && grep -qx region_reserve=0 '$out-r/aged-80/aging/env.txt'"
# (the answer at the top has its own off/on rows: count the section's)
t "RESULTS.md sets the reserve off and on side by side" sh -c "grep -q '^### The region reserve: off vs on' '$tmp/R3.md' &&
	[ \$(awk '/^### The region reserve: off vs on/ { in_s = 1; next } /^##/ { in_s = 0 } in_s && /^\\| 80% \\| o(n|ff) \\|/' '$tmp/R3.md' | wc -l) = 2 ]"
h=$(csv_get "$out-r/summary/aged-sets.csv" frac_first scenario=aged-80-reserve set=H 2>/dev/null)
t "with the reserve on, >= 90% of the hot set in the first third at 80% (got ${h:-nothing})" \
	awk -v h="$h" 'BEGIN { exit !(h != "" && h >= 0.9) }'

# Hotness that changes: promote-80 on the aged-80 image just made (cached:
# nothing is aged again) reads N, moves it to the hot region with hc-move,
# reads it again.  guest-promote.sh's sha256sum reads N's sectors before
# N-before and after N-after; each O_DIRECT read must still be joined with
# a trace row of its own (its LBA, 8 sectors, the same arrival), not with
# the checksum's readahead rows.
rm -rf "$out-p"
t "promote-80 and dirmark-80 run on the cached aged-80 image (4G)" env QUICK=1 RUNS=1 SCENARIO="promote-80 dirmark-80" TIME_SCALE=0.1 BENCH_DISK=4G \
	AGED_SETS=$sets AGED_CHURN=0.5 AGED_IO=256k AGED_CACHE="$tmp/cache3" AGED_SEED=7 RESULTS="$tmp/R5.md" \
	VM_TIMEOUT=900 AGED_TIMEOUT=900 timeout 1800 "$top/bench/runners/run.sh" "$out-p"
t "promote-80 reused the aged-80 image" grep -q 'aged image 80%, seed 7, patched kernel: cached' "$tmp/log"
pd=$out-p/promote-80/run1
t "promote: every N-before and N-after read was joined with a row of its own (LBA, 8 sectors)" \
	awk -F, 'FNR == 1 { f++; delete H; for (i = 1; i <= NF; i++) H[$i] = i; next }
	f == 1 { if ($H["op"] == "read") own[$H["arrival_us"] "," $H["lba"] "," $H["sectors"]] = 1; next }
	$H["job"] ~ /^N-(before|after)$/ { n[$H["job"]]++
		if ($H["matched"] == 1 && (($H["arrival_us"] "," $H["lba"] ",8") in own)) k[$H["job"]]++ }
	END { exit !(n["N-before"] > 0 && n["N-after"] > 0 && k["N-before"] == n["N-before"] && k["N-after"] == n["N-after"]) }' \
	"$pd/trace.csv" "$pd/join.csv"
t "promote: the move put N in the first third, same inodes and contents" tab "$out-p/summary/promote-runs.csv" \
	"scenario files moved first_after same_inode same_sha256" '$C["scenario"] == "promote-80" { f = $C["files"]
		ok = ($C["moved"] > 0 && $C["first_after"] >= 0.9 && $C["same_inode"] == f " of " f && $C["same_sha256"] == f " of " f) } END { exit !ok }'
t "RESULTS.md has the promotion section with N-before and N-after" sh -c "grep -q '^## Promotion' '$tmp/R5.md' &&
	grep -q '^| promote-80 | N-before |' '$tmp/R5.md' && grep -q '^| promote-80 | N-after |' '$tmp/R5.md'"
# dirmark-80: files created with a plain open() in a directory marked hot
# (patch 12) land where O_HOT files do, and the kernel counts them
dm() { csv_get "$out-p/summary/dirmark-runs.csv" "$2" scenario=dirmark-80 job="$1"; }
t "dirmark: the directory read back as marked hot" [ "$(dm marked marks)" = "dm-marked=hot" ]
t "dirmark: a plain open() in the marked directory: $(dm marked frac_first) of the bytes in the first third (>= 0.9)" \
	awk -v f="$(dm marked frac_first)" 'BEGIN { exit !(f != "" && f >= 0.9) }'
t "dirmark: O_HOT at open(): $(dm o_hot frac_first) in the first third (>= 0.9)" awk -v f="$(dm o_hot frac_first)" 'BEGIN { exit !(f != "" && f >= 0.9) }'
t "dirmark: hint_inherited counts the marked job's 8 creates ($(dm marked hint_inherited))" [ "$(dm marked hint_inherited)" = 8 ]
t "RESULTS.md has the directory-mark section with its three jobs" sh -c "grep -q '^## Unmodified applications: a directory marked hot (dirmark-80' '$tmp/R5.md' &&
	grep -q '^| marked | 8 |' '$tmp/R5.md' && grep -q '^| unmarked | 8 |' '$tmp/R5.md' && grep -q '^| o_hot | 8 |' '$tmp/R5.md'"
[ $failed = 0 ] || { echo "aged-check: details in the log below" >&2; tail -n 40 "$tmp/log" >&2; }
tap_done
