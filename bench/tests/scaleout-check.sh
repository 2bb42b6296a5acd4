#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make scaleout-check: bench/runners/scaleout.sh end to end with two guests (patched
# and stock) driven by one fio client over forwarded ports, a small job and
# a small time scale; then the ways it must fail cleanly: a bad job option,
# a guest whose QEMU dies under the run, bad input.  TAP-style output;
# exit 0 when all passed.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
out=$build/scaleout-check
. "$top/vm/lib/tap.sh"
tap_init scaleout-check
export QUICK=1 TIME_SCALE=0.1 VM_TIMEOUT=600 READY_TIMEOUT=300
command -v jq >/dev/null || { not_ok "jq missing (vm/lib/install-deps.sh plot)"; exit 1; }
# no QEMU of an earlier run may be taken for one of ours
# a QEMU still forwarding one of the ports of DIR/hosts.list
running() {
	local p
	for p in $(cut -d, -f2 "$1/hosts.list" 2>/dev/null); do
		pgrep -f "^qemu-system-x86_64 .*hostfwd=tcp:127.0.0.1:$p-" >/dev/null && return 0
	done
	return 1
}

# A small job: 16 MiB per file (QUICK), read and written, hot/cold/none.
rm -rf "$out"
timeout 1200 "$top/bench/runners/scaleout.sh" "$out" "$top/bench/jobs/seq.fio" >"$tmp/run.out" 2>"$tmp/run.err"
rc=$?
sed 's/^/# /' "$tmp/run.out"
t "two guests, one client: exit 0 (got $rc)" [ $rc = 0 ]
t "the hosts file names two servers on 127.0.0.1" \
	sh -c "[ \$(grep -c '^127\.0\.0\.1,[0-9][0-9]*\$' '$out/hosts.list') = 2 ]"
j=$out/fio.json
t "fio's JSON parses and has client_stats" jq -e '.client_stats | length > 0' "$j"
for h in patched stock; do
	port=$(sed -n "s/^$h,//p" "$out/ports.csv")
	t "$h: all six jobs in the JSON, each moved 16 MiB without error" jq -e --argjson p "${port:-0}" \
		'[.client_stats[] | select(.port == $p and .jobname != "All clients")] as $j |
		 ($j | map(.jobname) | sort) == ["cold-read","cold-write","hot-read","hot-write","none-read","none-write"] and
		 ($j | all(.error == 0 and (.read.io_bytes + .write.io_bytes) == 16777216))' "$j"
	t "$h: its disk model traced the guest's I/O" sh -c "[ \$(grep -c ',read,\|,write,' '$out/$h/trace.csv') -gt 50 ]"
	t "$h: the guest's env.txt came back and names its kernel flavour" grep -qx "kernel_flavour=$h" "$out/$h/env.txt"
done
t "scaleout.csv: 12 rows, MB/s > 0 for each" \
	awk -F, 'NR > 1 { r++; if ($4 <= 0) bad = 1 } END { exit !(r == 12 && !bad) }' "$out/scaleout.csv"
t "patched: O_HOT and O_COLD honoured (counters 2, 0 dropped)" \
	sh -c "grep -qx hint_honoured=2 '$out/patched/env.txt' && grep -qx knows_flags=1 '$out/patched/env.txt'"
t "patched: hot data in the first third, cold in the last (placement log)" \
	awk -F, '$1 == "file" && $5 == 1 { t[$4] = $24 } END { exit !(t["hot"] == "first" && t["cold"] == "last") }' "$out/patched/placement.csv"
t "stock: the kernel does not know the flags" grep -qx knows_flags=0 "$out/stock/env.txt"
t "stock: the engine logs the hints as unsupported" \
	awk -F, '$1 == "file" && $5 == 1 && $4 != "none" { s++; if ($9 != "unsupported") bad = 1 } END { exit !(s == 2 && !bad) }' "$out/stock/placement.csv"
t "no guest left running" eval "! running '$out'"

# A job file with a bad option, fio's own (rw=) or the engine's (hotness=):
# the host's fio refuses it before any guest boots; exit 2, fio's words.
sed 's/^rw=read$/rw=sideways/' "$top/bench/jobs/seq.fio" >"$tmp/bad.fio"
sed 's/^hotness=hot$/hotness=warm/' "$top/bench/jobs/seq.fio" >"$tmp/badeng.fio"
SCALEOUT_VMS=stock timeout 900 "$top/bench/runners/scaleout.sh" "$tmp/bad" "$tmp/bad.fio" >"$tmp/bad.out" 2>"$tmp/bad.err"
rc=$?
t "bad job option: exit 2 (got $rc)" [ $rc = 2 ]
t "bad job option: the message names the job file" grep -q "fio refuses job file '$tmp/bad.fio'; no guest started" "$tmp/bad.err"
t "bad job option: the message passes on what fio said" grep -qx "    fio: failed parsing rw=sideways" "$tmp/bad.err"
t "bad job option: no guest was started" eval "[ ! -e '$tmp/bad/stock' ] && ! grep -q 'fio --server' '$tmp/bad.out'"
SCALEOUT_VMS=stock timeout 900 "$top/bench/runners/scaleout.sh" "$tmp/badeng" "$tmp/badeng.fio" >"$tmp/badeng.out" 2>"$tmp/badeng.err"
rc=$?
t "bad engine option: exit 2 (got $rc), fio's words (failed parsing hotness)" \
	eval "[ $rc = 2 ] && grep -qx '    fio: failed parsing hotness' '$tmp/badeng.err'"
for f in bad badeng; do
	grep -q "fio refuses job file" "$tmp/$f.err" ||
		{ echo "#   bench/runners/scaleout.sh ($f) said:"; sed 's/^/#     /' "$tmp/$f.err" | tail -n 20; }
done

# A guest whose QEMU dies once the servers are up: the run ends with a
# message naming the guest, the other guest's results are kept.
timeout 900 "$top/bench/runners/scaleout.sh" "$tmp/kill" "$top/bench/jobs/seq.fio" >"$tmp/kill.out" 2>"$tmp/kill.err" &
sp=$!
i=0
until [ $i -ge 300 ] || grep -q "servers ready" "$tmp/kill.out" 2>/dev/null; do sleep 1; i=$((i + 1)); done
port=$(sed -n 1p "$tmp/kill/hosts.list" 2>/dev/null | cut -d, -f2)
sleep 2
[ -n "$port" ] && pkill -KILL -f "^qemu-system-x86_64 .*hostfwd=tcp:127.0.0.1:$port-"
wait $sp
rc=$?
t "dead QEMU: non-zero exit ($rc), not a timeout" sh -c "[ $rc != 0 ] && [ $rc != 124 ]"
t "dead QEMU: the message names the guest that died" grep -q "guest 'patched' failed" "$tmp/kill.err"
t "dead QEMU: the other guest's results are kept" \
	jq -e --argjson p "$(sed -n 's/^stock,//p' "$tmp/kill/ports.csv")" \
		'[.client_stats[] | select(.port == $p and .jobname == "hot-read" and .read.io_bytes == 16777216)] | length == 1' "$tmp/kill/fio.json"
t "dead QEMU: no guest left running" eval "! running '$tmp/kill'"

# Bad input: named, exit 2, nothing booted.
SCALEOUT_VMS="patched nosuchkernel" timeout 60 "$top/bench/runners/scaleout.sh" "$tmp/bad2" >/dev/null 2>"$tmp/bad2.err"
rc=$?
t "unknown flavour: exit 2, names it" sh -c "[ $rc = 2 ] && grep -q nosuchkernel '$tmp/bad2.err'"
timeout 60 "$top/bench/runners/scaleout.sh" "$tmp/bad3" "$tmp/nosuch.fio" >/dev/null 2>"$tmp/bad3.err"
rc=$?
t "missing job file: exit 2, names it" sh -c "[ $rc = 2 ] && grep -q nosuch.fio '$tmp/bad3.err'"

timeout 60 "$top/bench/runners/scaleout.sh" "$tmp/bad4" "$top/bench/jobs/seq.fio" "$top/bench/jobs/randread.fio" >/dev/null 2>"$tmp/bad4.err"
rc=$?
t "two job files (fio would run only the first): exit 2, says so" sh -c "[ $rc = 2 ] && grep -q 'one job file per run' '$tmp/bad4.err'"

[ $failed = 0 ] || { echo "scaleout-check: details below" >&2; tail -n 40 "$tmp/log" "$tmp"/*.err >&2; }
tap_done
