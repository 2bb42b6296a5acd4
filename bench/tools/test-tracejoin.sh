#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test-tracejoin.sh - host tests of hc-tracejoin (bench/tools/hc-tracejoin.c) on
# synthetic traces and seek logs: columns found by name, 4 KiB and split
# 1 MiB reads, repeated reads in order, nearest-rank percentiles by hand,
# the match-fraction check, CDF thinning, bad input, and rows merged by the
# guest's block layer, mixed merges, reads straddling an extent boundary
# (partial coverage) and reads with no row at their LBA.
#
# Usage: BTOOLS=build/bench-tools bench/tools/test-tracejoin.sh
#        HC_TRACEJOIN_PERF=1 also times 1,000,000 trace rows x 500,000 reads
#        (4 KiB) and 512,000 merged 1 MiB reads of one small file.
# Prints `ok N - ...` / `not ok N - ...`; exit 1 if any failed.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BTOOLS=${BTOOLS:-$top/build/bench-tools}
tj=$BTOOLS/hc-tracejoin
[ -x "$tj" ] || { echo "not ok 1 - $tj not built (make bench-tools)"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracejoin-test.XXXXXX")
trap '[ -n "${HC_TRACEJOIN_KEEP:-}" ] && echo "# kept $tmp" || rm -rf "$tmp"' EXIT

. "$top/vm/lib/tap.sh"

# run NAME args...: hc-tracejoin with stdout/stderr in $tmp/NAME.{out,err},
# its exit status in $rc
run() {
	local name=$1
	shift
	timeout 120 "$tj" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	rc=$?
}

# get FILE 'col=val,col=val' COL: COL of the first row matching all pairs,
# columns by header name
get() {
	awk -F, -v cond="$2" -v want="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		{
			nc = split(cond, c, ",")
			for (k = 1; k <= nc; k++) {
				split(c[k], kv, "=")
				if ($(col[kv[1]]) != kv[2])
					next
			}
			print $(col[want]); exit
		}' "$1"
}

# --- 1: 4 KiB reads of two jobs, trace columns shuffled + extra column,
# metadata rows in between; values computed by hand below
cat >"$tmp/t1.csv" <<'EOF'
op,lba,sectors,end_us,start_us,arrival_us,queue_depth,cyl_distance,transfer_us,rotation_us,seek_us
read,1000,8,1100.500,100.000,100.000,1,10,50.000,450.500,500.000
write,50,8,1150.000,1100.500,1100.000,2,0,10.000,10.000,10.000
read,10000,8,3000.750,1100.500,150.250,2,1234,200.000,900.250,800.000
read,2000,8,5000.000,3000.750,1200.000,1,20,100.000,900.000,999.250
read,16,8,5050.000,5000.000,5000.000,3,0,10.000,20.000,20.000
read,11000,8,5500.000,5000.000,3100.000,1,5,50.000,250.000,200.000
read,3000,8,9500.000,5500.000,5100.000,1,30,100.000,1900.000,2000.000
read,12000,8,10100.000,9500.000,5600.000,1,6,100.000,300.000,200.000
flush,0,0,10100.000,10100.000,10100.000,1,0,0.000,0.000,0.000
read,4000,8,10600.000,10100.000,9600.000,1,40,100.000,200.000,200.000
read,13000,8,20200.000,10600.000,10200.000,1,7,100.000,4900.000,5000.000
EOF
cat >"$tmp/s1.csv" <<'EOF'
job,seq,file,ddir,offset,len,lba,seek_sectors,lat_ns,hotness
A,0,/mnt/a.0,read,0,4096,1000,,6000000,hot
A,1,/mnt/a.0,write,4096,4096,1008,0,1000000,hot
A,2,/mnt/a.0,read,8192,4096,2000,992,7000000,hot
A,3,/mnt/a.0,read,12288,4096,3000,992,8000000,hot
A,4,/mnt/a.0,read,16384,4096,4000,992,5000000,hot
B,0,/mnt/b.0,read,0,4096,10000,,9000000,cold
B,1,/mnt/b.0,read,4096,4096,11000,992,9000000,cold
B,2,/mnt/b.0,read,8192,4096,12000,992,9000000,cold
B,3,/mnt/b.0,read,12288,4096,13000,992,,cold
EOF
run t1 --out "$tmp/j1.csv" --summary "$tmp/sum1.csv" "$tmp/t1.csv" "$tmp/s1.csv"
is "4k: exit 0" "$rc" 0
is "4k: joined CSV header" "$(head -1 "$tmp/j1.csv")" \
	"job,seq,file,hotness,lba,len,matched,coverage,engine_lat_us,arrival_us,end_us,service_us,queue_us,seek_us,rotation_us,transfer_us,cyl_distance,guest_overhead_us"
is "4k: one joined row per read, writes left out" "$(($(wc -l <"$tmp/j1.csv") - 1))" 8
is "4k: every read matched" "$(awk -F, 'NR > 1 && $7 != 1' "$tmp/j1.csv" | wc -l)" 0
is "4k: A seq 0 service = 1100.5 - 100" "$(get "$tmp/j1.csv" job=A,seq=0 service_us)" 1000.500
is "4k: A seq 0 overhead = 6000 - 1000.5" "$(get "$tmp/j1.csv" job=A,seq=0 guest_overhead_us)" 4999.500
is "4k: A seq 2 queue = 3000.75 - 1200" "$(get "$tmp/j1.csv" job=A,seq=2 queue_us)" 1800.750
is "4k: B seq 0 service, queue" \
	"$(get "$tmp/j1.csv" job=B,seq=0 service_us) $(get "$tmp/j1.csv" job=B,seq=0 queue_us)" \
	"2850.500 950.250"
is "4k: B seq 0 seek, rotation, transfer, cyl_distance by name" \
	"$(get "$tmp/j1.csv" job=B,seq=0 seek_us) $(get "$tmp/j1.csv" job=B,seq=0 rotation_us) $(get "$tmp/j1.csv" job=B,seq=0 transfer_us) $(get "$tmp/j1.csv" job=B,seq=0 cyl_distance)" \
	"800.000 900.250 200.000 1234"
is "4k: B seq 3 without lat_ns: engine and overhead empty" \
	"[$(get "$tmp/j1.csv" job=B,seq=3 engine_lat_us)][$(get "$tmp/j1.csv" job=B,seq=3 guest_overhead_us)] $(get "$tmp/j1.csv" job=B,seq=3 service_us)" \
	"[][] 10000.000"
# A: service 1000.5 3800 4400 1000 -> p50 (rank 2) 1000.5, p99 (rank 4) 4400,
# mean 2550.125; overhead 4999.5 3200 3600 4000 -> p50 3600
is "4k: A reads/matched/frac" \
	"$(get "$tmp/sum1.csv" job=A reads) $(get "$tmp/sum1.csv" job=A matched) $(get "$tmp/sum1.csv" job=A match_frac)" \
	"4 4 1.000000"
is "4k: A service mean/p50/p99 ms" \
	"$(get "$tmp/sum1.csv" job=A service_mean_ms) $(get "$tmp/sum1.csv" job=A service_p50_ms) $(get "$tmp/sum1.csv" job=A service_p99_ms)" \
	"2.550125 1.000500 4.400000"
is "4k: A engine p50/p99, overhead p50 ms" \
	"$(get "$tmp/sum1.csv" job=A engine_p50_ms) $(get "$tmp/sum1.csv" job=A engine_p99_ms) $(get "$tmp/sum1.csv" job=A overhead_p50_ms)" \
	"6.000000 8.000000 3.600000"
# B: service 2850.5 2400 4500 10000 -> p50 2850.5, p99 10000
is "4k: B service p50/p99 ms, hotness" \
	"$(get "$tmp/sum1.csv" job=B service_p50_ms) $(get "$tmp/sum1.csv" job=B service_p99_ms) $(get "$tmp/sum1.csv" job=B hotness)" \
	"2.850500 10.000000 cold"
check "4k: stdout has one line per job" \
	grep -qx 'job=A reads=4 matched=4 .*service_p50_ms=1.000500 .*' "$tmp/t1.out"
is "4k: stdout lines" "$(grep -c '^job=' "$tmp/t1.out")" 2

# --- 2: the same LBA read three times: matched in order
cat >"$tmp/t2.csv" <<'EOF'
arrival_us,start_us,end_us,lba,sectors,op,cyl_distance,seek_us,rotation_us,transfer_us
10.000,10.000,15.000,500,8,read,0,1.000,1.000,1.000
17.000,17.000,18.000,900,8,read,0,1.000,1.000,1.000
20.000,20.000,40.000,500,8,read,0,1.000,1.000,1.000
41.000,41.000,42.000,500,8,write,0,1.000,1.000,1.000
50.000,50.000,51.000,500,8,read,0,1.000,1.000,1.000
EOF
cat >"$tmp/s2.csv" <<'EOF'
job,seq,file,ddir,offset,len,lba,seek_sectors,lat_ns,hotness
R,0,f,read,0,4096,500,,1000000,none
R,1,f,read,0,4096,500,0,1000000,none
R,2,f,write,0,4096,500,0,1000000,none
R,3,f,read,0,4096,500,0,1000000,none
EOF
run t2 --out "$tmp/j2.csv" "$tmp/t2.csv" "$tmp/s2.csv"
is "repeat: exit 0" "$rc" 0
is "repeat: first, second, third read get the trace rows in order" \
	"$(get "$tmp/j2.csv" seq=0 service_us) $(get "$tmp/j2.csv" seq=1 service_us) $(get "$tmp/j2.csv" seq=3 service_us)" \
	"5.000 20.000 1.000"

# --- 3: 1 MiB reads split into two 512 KiB rows (one pair served out of
# order), a 4 KiB read at the first read's LBA arriving with it: it contains
# L and is the earliest, so it joins as that read's first piece (the rule
# cannot tell it from a piece of the read); seek log columns shuffled
awk 'BEGIN {
	OFS = ","
	print "sectors,op,lba,arrival_us,start_us,end_us,transfer_us,rotation_us,seek_us,cyl_distance"
	print 8, "read", 0, "0.000", "0.000", "5.000", "1.000", "1.000", "1.000", 0
	for (k = 0; k < 4; k++) {
		t = k * 10000
		a = sprintf("%d,read,%d,%d.000,%d.000,%d.000,1000.000,100.000,50.000,%d", 1024, k * 2048, t, t + 10, t + 4000, k)
		b = sprintf("%d,read,%d,%d.000,%d.000,%d.000,1000.000,0.000,0.000,0", 1024, k * 2048 + 1024, t + 100, t + 4000, t + 8000)
		if (k == 2) { print b; print a } else { print a; print b }
	}
}' >"$tmp/t3.csv"
awk 'BEGIN {
	print "hotness,lat_ns,lba,len,seq,job,ddir,file,offset,seek_sectors,extra"
	for (k = 0; k < 4; k++)
		printf "none,%d,%d,1048576,%d,S,read,big,%d,0,x\n", 9000000, k * 2048, k, k * 1048576
}' >"$tmp/s3.csv"
run t3 --out "$tmp/j3.csv" --summary "$tmp/sum3.csv" "$tmp/t3.csv" "$tmp/s3.csv"
is "1m: exit 0" "$rc" 0
is "1m: all four matched" "$(get "$tmp/sum3.csv" job=S matched)" 4
is "1m: service = max end - min arrival" \
	"$(get "$tmp/j3.csv" seq=0 service_us) $(get "$tmp/j3.csv" seq=2 service_us)" "8000.000 8000.000"
is "1m: seek/transfer summed, queue and cyl of the first row" \
	"$(get "$tmp/j3.csv" seq=1 seek_us) $(get "$tmp/j3.csv" seq=1 transfer_us) $(get "$tmp/j3.csv" seq=1 queue_us) $(get "$tmp/j3.csv" seq=1 cyl_distance)" \
	"50.000 2000.000 10.000 1"
is "1m: the 4 KiB row at L joins seq 0: seek 1 + 50, its queue and cyl" \
	"$(get "$tmp/j3.csv" seq=0 seek_us) $(get "$tmp/j3.csv" seq=0 queue_us) $(get "$tmp/j3.csv" seq=0 cyl_distance) $(get "$tmp/j3.csv" seq=0 coverage)" \
	"51.000 0.000 0 1.000000"
# the drive's rate: the 9 rows' bytes (8 + 8 x 1024 sectors) over their
# seek + rotation + transfer (3 + 4 x (1150 + 1000) us): 4198400 / 8603 us
is "1m: disk_mb_s = row bytes over the rows' drive time, drive_ms, row_bytes" \
	"$(get "$tmp/sum3.csv" job=S disk_mb_s) $(get "$tmp/sum3.csv" job=S drive_ms) $(get "$tmp/sum3.csv" job=S row_bytes)" \
	"488.016 8.603000 4198400"
# the span, idle included: 4 MiB in 38000 us: 4194304 / 38000 = 110.376 MB/s
is "1m: span_mb_s over first arrival .. last end, and bytes" \
	"$(get "$tmp/sum3.csv" job=S span_mb_s) $(get "$tmp/sum3.csv" job=S bytes)" "110.376 4194304"
is "1m: first_arrival_us, last_end_us" \
	"$(get "$tmp/sum3.csv" job=S first_arrival_us) $(get "$tmp/sum3.csv" job=S last_end_us)" "0.000 38000.000"

# --- 4: 2 of 100 reads missing from the trace
awk 'BEGIN {
	print "arrival_us,start_us,end_us,lba,sectors,op,cyl_distance,seek_us,rotation_us,transfer_us"
	for (i = 0; i < 100; i++)
		if (i != 17 && i != 55)
			printf "%d.000,%d.000,%d.000,%d,8,read,0,1.000,1.000,1.000\n", i * 100, i * 100, i * 100 + 50, i * 64
}' >"$tmp/t4.csv"
awk 'BEGIN {
	print "job,seq,file,ddir,offset,len,lba,seek_sectors,lat_ns,hotness"
	for (i = 0; i < 100; i++)
		printf "M,%d,f,read,0,4096,%d,,100000,none\n", i, i * 64
}' >"$tmp/s4.csv"
run t4 --summary "$tmp/sum4.csv" "$tmp/t4.csv" "$tmp/s4.csv"
is "missing: exit 3 at the default --min-match 0.99" "$rc" 3
is "missing: match_frac 0.98" "$(get "$tmp/sum4.csv" job=M match_frac)" 0.980000
check "missing: the message names the job and the counts" \
	grep -q "^hc-tracejoin: job M: only 98 of 100 reads (98.0%) found in $tmp/t4.csv; the trace and the seek log do not belong together\$" "$tmp/t4.err"
check "missing: the summary is written anyway" test -s "$tmp/sum4.csv"
run t4b --min-match 0.95 "$tmp/t4.csv" "$tmp/s4.csv"
is "missing: --min-match 0.95: exit 0" "$rc" 0
# an engine read without an LBA counts as unmatched
sed 's/^M,3,f,read,0,4096,192,/M,3,f,read,0,4096,,/' "$tmp/s4.csv" >"$tmp/s4c.csv"
run t4c --min-match 0.95 --summary "$tmp/sum4c.csv" "$tmp/t4.csv" "$tmp/s4c.csv"
is "missing: a read without an LBA is unmatched" "$(get "$tmp/sum4c.csv" job=M matched)" 97

# --- 5: missing columns
cut -d, -f1-8,10 "$tmp/t2.csv" >"$tmp/t5.csv"	# no rotation_us
run t5 "$tmp/t5.csv" "$tmp/s2.csv"
is "no trace column: exit 2" "$rc" 2
check "no trace column: names rotation_us and the file" \
	grep -q "$tmp/t5.csv: no column 'rotation_us'" "$tmp/t5.err"
cut -d, -f1-8,10 "$tmp/s2.csv" >"$tmp/s5.csv"	# no lat_ns
run t5b "$tmp/t2.csv" "$tmp/s5.csv"
is "no seek log column: exit 2" "$rc" 2
check "no seek log column: names lat_ns and the file" \
	grep -q "$tmp/s5.csv: no column 'lat_ns'" "$tmp/t5b.err"

# --- 6: CDF of a 10000-read job, thinned
awk 'BEGIN {
	srand(7)
	print "arrival_us,start_us,end_us,lba,sectors,op,cyl_distance,seek_us,rotation_us,transfer_us"
	for (i = 0; i < 10000; i++)
		printf "%d.000,%d.000,%.3f,%d,8,read,0,1.000,1.000,1.000\n", i * 1000, i * 1000, i * 1000 + 100 + rand() * 20000, i * 8
}' >"$tmp/t6.csv"
awk 'BEGIN {
	print "job,seq,file,ddir,offset,len,lba,seek_sectors,lat_ns,hotness"
	for (i = 0; i < 10000; i++)
		printf "C/x,%d,f,read,0,4096,%d,,,none\n", i, i * 8
}' >"$tmp/s6.csv"
run t6 --cdf-dir "$tmp/cdf" --out "$tmp/j6.csv" "$tmp/t6.csv" "$tmp/s6.csv"
cdf=$tmp/cdf/C_x.csv
is "cdf: exit 0" "$rc" 0
is "cdf: header" "$(head -1 "$cdf" 2>/dev/null)" "service_ms,frac"
check "cdf: at most 2000 points + header" test "$(wc -l <"$cdf")" -le 2001 -a "$(wc -l <"$cdf")" -ge 1000
check "cdf: sorted by service_ms and frac" \
	awk -F, 'NR > 2 && ($1 < p1 || $2 <= p2) { bad = 1 } NR > 1 { p1 = $1; p2 = $2 } END { exit bad }' "$cdf"
is "cdf: ends at frac 1" "$(tail -1 "$cdf" | cut -d, -f2)" 1.000000
is "cdf: first and last points are the min and max service" \
	"$(sed -n 2p "$cdf" | cut -d, -f1) $(tail -1 "$cdf" | cut -d, -f1)" \
	"$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "service_us") s = i; next }
		{ v = $s / 1000; if (min == "" || v < min) min = v; if (v > max) max = v } END { printf "%.6f %.6f", min, max }' "$tmp/j6.csv")"

# --- 7: bad command lines and inputs
run t7a --min-match 1.5 "$tmp/t2.csv" "$tmp/s2.csv"
is "bad --min-match 1.5: exit 2" "$rc" 2
check "bad --min-match: message names it" grep -q -- "--min-match '1.5'" "$tmp/t7a.err"
run t7b --min-match abc "$tmp/t2.csv" "$tmp/s2.csv"
is "bad --min-match abc: exit 2" "$rc" 2
run t7c --bogus "$tmp/t2.csv" "$tmp/s2.csv"
is "unknown option: exit 2" "$rc" 2
check "unknown option: message names it" grep -q -- "unknown option '--bogus'" "$tmp/t7c.err"
run t7d "$tmp/t2.csv"
is "one file only: exit 2" "$rc" 2
run t7e "$tmp/none.csv" "$tmp/s2.csv"
is "missing trace file: exit 2" "$rc" 2
check "missing trace file: named" grep -q "$tmp/none.csv" "$tmp/t7e.err"
grep -v ',read,' "$tmp/s2.csv" >"$tmp/s7.csv"
run t7f "$tmp/t2.csv" "$tmp/s7.csv"
is "seek log without reads: exit 2" "$rc" 2
check "seek log without reads: says so" grep -q "no reads" "$tmp/t7f.err"
sed '4s/,20.000,40.000,/,20.000,4x0,/' "$tmp/t2.csv" >"$tmp/t7g.csv"
run t7g "$tmp/t7g.csv" "$tmp/s2.csv"
is "unparsable number: exit 2" "$rc" 2
check "unparsable number: file:line and column" \
	grep -q "$tmp/t7g.csv:4: column 'end_us': '4x0'" "$tmp/t7g.err"
sed '2s/,1000000,/,1e6,/' "$tmp/s2.csv" >"$tmp/s7h.csv"
run t7h "$tmp/t2.csv" "$tmp/s7h.csv"
is "unparsable lat_ns: exit 2" "$rc" 2

# --- 8: merge: one 4 MiB row (8192 sectors) serves four 1 MiB engine reads
# at consecutive LBAs (the guest's block layer merged them, iodepth 4); a
# fifth read of the first LBA again finds the row already used for it
cat >"$tmp/t8.csv" <<'EOF'
arrival_us,start_us,end_us,lba,sectors,op,cyl_distance,seek_us,rotation_us,transfer_us
1000.000,1200.000,40000.000,851968,8192,read,77,3000.000,2000.000,33800.000
EOF
cat >"$tmp/s8.csv" <<'EOF'
job,seq,file,ddir,offset,len,lba,seek_sectors,lat_ns,hotness
Q,0,f,read,0,1048576,851968,,50000000,none
Q,1,f,read,1048576,1048576,854016,0,50000000,none
Q,2,f,read,2097152,1048576,856064,0,50000000,none
Q,3,f,read,3145728,1048576,858112,0,50000000,none
EOF
run t8 --out "$tmp/j8.csv" --summary "$tmp/sum8.csv" "$tmp/t8.csv" "$tmp/s8.csv"
is "merge: exit 0" "$rc" 0
is "merge: all 4 matched, coverage 1" \
	"$(get "$tmp/sum8.csv" job=Q matched) $(awk -F, 'NR > 1 { printf "%s ", $8 }' "$tmp/j8.csv")" \
	"4 1.000000 1.000000 1.000000 1.000000 "
is "merge: each service = the row's end - arrival" \
	"$(awk -F, 'NR > 1 { printf "%s ", $12 }' "$tmp/j8.csv")" \
	"39000.000 39000.000 39000.000 39000.000 "
is "merge: the row's seek/rotation/transfer/queue/cyl whole for each read" \
	"$(get "$tmp/j8.csv" seq=3 seek_us) $(get "$tmp/j8.csv" seq=3 rotation_us) $(get "$tmp/j8.csv" seq=3 transfer_us) $(get "$tmp/j8.csv" seq=3 queue_us) $(get "$tmp/j8.csv" seq=3 cyl_distance)" \
	"3000.000 2000.000 33800.000 200.000 77"
# the one row counted once: 4 MiB over 3000 + 2000 + 33800 us = 108.101
# MB/s (not four times); its span 4 MiB in 39000 us = 107.546 MB/s
is "merge: coverage_mean, disk_mb_s, span_mb_s, bytes" \
	"$(get "$tmp/sum8.csv" job=Q coverage_mean) $(get "$tmp/sum8.csv" job=Q disk_mb_s) $(get "$tmp/sum8.csv" job=Q span_mb_s) $(get "$tmp/sum8.csv" job=Q bytes)" \
	"1.000000 108.101 107.546 4194304"
{ cat "$tmp/s8.csv"; echo "Q,4,f,read,0,1048576,851968,0,50000000,none"; } >"$tmp/s8b.csv"
run t8b --min-match 0 --out "$tmp/j8b.csv" "$tmp/t8.csv" "$tmp/s8b.csv"
is "merge: a re-read of the first LBA is unmatched (the row served it)" \
	"$rc $(get "$tmp/j8b.csv" seq=0 matched) $(get "$tmp/j8b.csv" seq=4 matched) [$(get "$tmp/j8b.csv" seq=4 coverage)]" \
	"0 1 0 []"

# --- 9: mixed merges: rows of 2048 and 4096 sectors serve 8 consecutive
# 1 MiB reads; a metadata read row in between is left unmatched
awk -v b=1000000 'BEGIN {
	OFS = ","
	print "arrival_us,start_us,end_us,lba,sectors,op,cyl_distance,seek_us,rotation_us,transfer_us"
	# reads 0 | 1+2 | 3 | 4+5 | 6+7
	split("0 2048 6144 8192 12288", at, " ")
	split("2048 4096 2048 4096 4096", len, " ")
	for (k = 1; k <= 5; k++) {
		t = (k - 1) * 20000
		print t ".000", t + 10 ".000", t + 10000 ".000", b + at[k], len[k], "read", k, "1.000", "1.000", "1.000"
		if (k == 3)
			print t + 5 ".000", t + 10000 ".000", t + 10100 ".000", 64, 8, "read", 0, "1.000", "1.000", "1.000"
	}
}' >"$tmp/t9.csv"
awk -v b=1000000 'BEGIN {
	print "job,seq,file,ddir,offset,len,lba,seek_sectors,lat_ns,hotness"
	for (k = 0; k < 8; k++)
		printf "X,%d,f,read,%d,1048576,%d,0,30000000,none\n", k, k * 1048576, b + k * 2048
}' >"$tmp/s9.csv"
run t9 --out "$tmp/j9.csv" --summary "$tmp/sum9.csv" "$tmp/t9.csv" "$tmp/s9.csv"
is "mixed merges: exit 0, all 8 matched, coverage_mean 1" \
	"$rc $(get "$tmp/sum9.csv" job=X matched) $(get "$tmp/sum9.csv" job=X coverage_mean)" "0 8 1.000000"
is "mixed merges: reads 1 and 2 share the second row, 7 the last" \
	"$(get "$tmp/j9.csv" seq=1 arrival_us) $(get "$tmp/j9.csv" seq=2 arrival_us) $(get "$tmp/j9.csv" seq=3 arrival_us) $(get "$tmp/j9.csv" seq=7 arrival_us) $(get "$tmp/j9.csv" seq=7 cyl_distance)" \
	"20000.000 20000.000 40000.000 80000.000 5"
# 8 MiB in 90000 us: 8388608 / 90000 = 93.207 MB/s
is "mixed merges: span_mb_s over first arrival .. last end" \
	"$(get "$tmp/sum9.csv" job=X span_mb_s)" 93.207
# the five rows that served X (not the metadata row): 8 MiB in 5 x 3 us
is "mixed merges: disk_mb_s over the 5 rows' drive time, the metadata row left out" \
	"$(get "$tmp/sum9.csv" job=X disk_mb_s) $(get "$tmp/sum9.csv" job=X drive_ms) $(get "$tmp/sum9.csv" job=X row_bytes)" \
	"559240.533 0.015000 8388608"

# --- 10: straddle: a 1 MiB read whose file range crosses an extent
# boundary: [L, L+1024) at L, the other 1024 sectors elsewhere; an old row
# at [L+1024, L+2048), 200 ms before, is not taken (100 ms bound), a row
# there 50 ms before is
cat >"$tmp/t10.csv" <<'EOF'
arrival_us,start_us,end_us,lba,sectors,op,cyl_distance,seek_us,rotation_us,transfer_us
100000.000,100000.000,101000.000,501024,1024,read,0,1.000,1.000,1.000
300000.000,300000.000,305000.000,500000,1024,read,9,100.000,200.000,4700.000
300010.000,305000.000,306000.000,900000,1024,read,8,10.000,20.000,970.000
350000.000,350000.000,351000.000,601024,1024,read,0,2.000,2.000,2.000
400000.000,400000.000,402000.000,600000,1024,read,0,3.000,3.000,3.000
EOF
cat >"$tmp/s10.csv" <<'EOF'
job,seq,file,ddir,offset,len,lba,seek_sectors,lat_ns,hotness
F,0,frag,read,0,1048576,500000,,8000000,none
F,1,other,read,0,1048576,600000,,8000000,none
EOF
run t10 --out "$tmp/j10.csv" --summary "$tmp/sum10.csv" "$tmp/t10.csv" "$tmp/s10.csv"
is "straddle: exit 0, both matched" "$rc $(get "$tmp/sum10.csv" job=F matched)" "0 2"
is "straddle: coverage 0.5, service and seek of the row at L alone" \
	"$(get "$tmp/j10.csv" seq=0 coverage) $(get "$tmp/j10.csv" seq=0 service_us) $(get "$tmp/j10.csv" seq=0 seek_us) $(get "$tmp/j10.csv" seq=0 cyl_distance)" \
	"0.500000 5000.000 100.000 9"
is "straddle: a row 50 ms earlier at L+1024 is taken: coverage 1" \
	"$(get "$tmp/j10.csv" seq=1 coverage) $(get "$tmp/j10.csv" seq=1 arrival_us) $(get "$tmp/j10.csv" seq=1 service_us) $(get "$tmp/j10.csv" seq=1 seek_us)" \
	"1.000000 350000.000 52000.000 5.000"
is "straddle: coverage_mean 0.75" "$(get "$tmp/sum10.csv" job=F coverage_mean)" 0.750000

# --- 11: 1 MiB reads with no row containing L: read 17 has a row only
# inside its range ([L+1024, L+2048)), read 55 none at all: 98 of 100
awk 'BEGIN {
	print "arrival_us,start_us,end_us,lba,sectors,op,cyl_distance,seek_us,rotation_us,transfer_us"
	for (i = 0; i < 100; i++)
		if (i == 17)
			printf "%d.000,%d.000,%d.000,%d,1024,read,0,1.000,1.000,1.000\n", i * 10000, i * 10000, i * 10000 + 5000, i * 4096 + 1024
		else if (i != 55)
			printf "%d.000,%d.000,%d.000,%d,2048,read,0,1.000,1.000,1.000\n", i * 10000, i * 10000, i * 10000 + 8000, i * 4096
}' >"$tmp/t11.csv"
awk 'BEGIN {
	print "job,seq,file,ddir,offset,len,lba,seek_sectors,lat_ns,hotness"
	for (i = 0; i < 100; i++)
		printf "U,%d,f,read,0,1048576,%d,,9000000,none\n", i, i * 4096
}' >"$tmp/s11.csv"
run t11 --out "$tmp/j11.csv" --summary "$tmp/sum11.csv" "$tmp/t11.csv" "$tmp/s11.csv"
is "no row at L: exit 3, 98 matched" "$rc $(get "$tmp/sum11.csv" job=U matched)" "3 98"
is "no row at L: reads 17 and 55 unmatched, coverage empty" \
	"$(get "$tmp/j11.csv" seq=17 matched)[$(get "$tmp/j11.csv" seq=17 coverage)] $(get "$tmp/j11.csv" seq=55 matched)[$(get "$tmp/j11.csv" seq=55 service_us)]" \
	"0[] 0[]"
check "no row at L: the 99% message" grep -q "job U: only 98 of 100 reads" "$tmp/t11.err"

# --- 12: repeated 4 KiB reads of one LBA, the rows served out of arrival
# order: read k gets the k-th row by arrival; a 4th read has no row left;
# a metadata read next to it stays unmatched
cat >"$tmp/t12.csv" <<'EOF'
arrival_us,start_us,end_us,lba,sectors,op,cyl_distance,seek_us,rotation_us,transfer_us
10.000,10.000,15.000,700,8,read,0,1.000,1.000,1.000
50.000,50.000,51.000,700,8,read,0,1.000,1.000,1.000
12.000,12.000,13.000,708,8,read,0,1.000,1.000,1.000
20.000,51.000,60.000,700,8,read,0,1.000,1.000,1.000
EOF
cat >"$tmp/s12.csv" <<'EOF'
job,seq,file,ddir,offset,len,lba,seek_sectors,lat_ns,hotness
P,0,f,read,0,4096,700,,1000000,none
P,1,f,read,0,4096,700,0,1000000,none
P,2,f,read,0,4096,700,0,1000000,none
P,3,f,read,0,4096,700,0,1000000,none
EOF
run t12 --min-match 0 --out "$tmp/j12.csv" "$tmp/t12.csv" "$tmp/s12.csv"
is "repeat 4k: rows by arrival: 10, 20, 50; the 4th unmatched" \
	"$rc $(get "$tmp/j12.csv" seq=0 arrival_us) $(get "$tmp/j12.csv" seq=1 arrival_us) $(get "$tmp/j12.csv" seq=2 arrival_us) $(get "$tmp/j12.csv" seq=3 matched)" \
	"0 10.000 20.000 50.000 0"
is "repeat 4k: service and queue of the second" \
	"$(get "$tmp/j12.csv" seq=1 service_us) $(get "$tmp/j12.csv" seq=1 queue_us)" "40.000 31.000"

# --- 13: another reader before and between the job's reads (a checksum's
# 128 KiB readahead rows over the same sectors, as bench/guest/guest-promote.sh's
# sha256sum before N-before and after the move): each O_DIRECT 4 KiB read
# gets its own 8-sector row (pass 1), not the earlier readahead row; a read
# with no row of its own length (inside a 32 KiB row) still gets that row
cat >"$tmp/t13.csv" <<'EOF'
arrival_us,start_us,end_us,lba,sectors,op,cyl_distance,seek_us,rotation_us,transfer_us
0.000,0.000,100.000,1000,256,read,0,1.000,1.000,1.000
1000.000,1000.000,6000.000,1016,8,read,0,1.000,1.000,1.000
2000.000,2000.000,2100.000,1000,256,read,0,1.000,1.000,1.000
3000.000,3000.000,7000.000,1016,8,read,0,1.000,1.000,1.000
8000.000,8000.000,9000.000,2000,64,read,0,1.000,1.000,1.000
EOF
cat >"$tmp/s13.csv" <<'EOF'
job,seq,file,ddir,offset,len,lba,seek_sectors,lat_ns,hotness
N-before,0,f,read,0,4096,1016,,6000000,none
N-after,0,f,read,0,4096,1016,,5000000,none
X,0,g,read,0,4096,2008,,2000000,none
EOF
run t13 --out "$tmp/j13.csv" "$tmp/t13.csv" "$tmp/s13.csv"
is "other reader first: each 4 KiB read gets its own row (arrival 1000, 3000)" \
	"$rc $(get "$tmp/j13.csv" job=N-before arrival_us) $(get "$tmp/j13.csv" job=N-after arrival_us)" \
	"0 1000.000 3000.000"
is "other reader first: services 5 ms and 4 ms, not the readahead row's 0.1 ms" \
	"$(get "$tmp/j13.csv" job=N-before service_us) $(get "$tmp/j13.csv" job=N-after service_us)" \
	"5000.000 4000.000"
is "other reader first: a read inside a longer row is still joined with it" \
	"$(get "$tmp/j13.csv" job=X arrival_us) $(get "$tmp/j13.csv" job=X coverage)" \
	"8000.000 1.000000"

# --- optional: time 1,000,000 trace rows x 500,000 engine reads
if [ -n "${HC_TRACEJOIN_PERF:-}" ]; then
	awk 'BEGIN {
		srand(1)
		print "arrival_us,start_us,end_us,lba,sectors,op,cyl_distance,seek_us,rotation_us,transfer_us"
		for (i = 0; i < 1000000; i++) {
			t = i * 100
			if (i % 2)	# metadata in between
				printf "%d.000,%d.000,%d.500,%d,8,write,3,1.000,2.000,3.000\n", t, t, t + 50, int(rand() * 1e9)
			else
				printf "%d.000,%d.000,%d.500,%d,8,read,3,1.000,2.000,3.000\n", t, t, t + 50, (i / 2 % 250000) * 8
		}
	}' >"$tmp/tp.csv"
	awk 'BEGIN {
		print "job,seq,file,ddir,offset,len,lba,seek_sectors,lat_ns,hotness"
		for (i = 0; i < 500000; i++)
			printf "job%d,%d,/mnt/f%d,read,0,4096,%d,,%d,hot\n", i % 4, i, i % 100, (i % 250000) * 8, 80000 + i % 1000
	}' | sort -t, -k1,1 -s >"$tmp/sp.csv"
	start=$(date +%s%N)
	run tp --out "$tmp/jp.csv" --summary "$tmp/sump.csv" --cdf-dir "$tmp/cdfp" "$tmp/tp.csv" "$tmp/sp.csv"
	end=$(date +%s%N)
	secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
	echo "# 1000000 trace rows x 500000 reads: $secs s"
	is "perf: exit 0, every read matched" "$rc $(awk -F, 'NR > 1 { m += $4 } END { print m }' "$tmp/sump.csv")" "0 500000"
	# a 64 MiB file read 8000 times by 1 MiB reads, rows merging 1, 2 or
	# 4 of them: every LBA is contained by thousands of rows
	awk 'BEGIN {
		srand(3)
		print "arrival_us,start_us,end_us,lba,sectors,op,cyl_distance,seek_us,rotation_us,transfer_us"
		for (pass = 0; pass < 8000; pass++)
			for (k = 0; k < 64; k += m) {
				m = 2 ^ int(rand() * 3)
				if (k + m > 64)
					m = 64 - k
				printf "%d.000,%d.000,%d.000,%d,%d,read,3,1.000,2.000,3.000\n", t, t, t + 5000, 1000000 + k * 2048, m * 2048
				t += 3000
			}
	}' >"$tmp/tq.csv"
	awk 'BEGIN {
		print "job,seq,file,ddir,offset,len,lba,seek_sectors,lat_ns,hotness"
		for (i = 0; i < 512000; i++)
			printf "S,%d,f,read,0,1048576,%d,,9000000,none\n", i, 1000000 + i % 64 * 2048
	}' >"$tmp/sq.csv"
	start=$(date +%s%N)
	run tq --out "$tmp/jq.csv" --summary "$tmp/sumq.csv" "$tmp/tq.csv" "$tmp/sq.csv"
	end=$(date +%s%N)
	secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
	echo "# $(($(wc -l <"$tmp/tq.csv") - 1)) merged trace rows x 512000 1 MiB reads of one file: $secs s"
	is "perf merged: exit 0, every read matched, coverage 1" \
		"$rc $(get "$tmp/sumq.csv" job=S matched) $(get "$tmp/sumq.csv" job=S coverage_mean)" "0 512000 1.000000"
else
	n=$((n + 1))
	echo "ok $n - perf: 1000000 trace rows x 500000 reads # SKIP set HC_TRACEJOIN_PERF=1 to time it"
fi

echo "1..$n"
[ "$failed" -eq 0 ]
