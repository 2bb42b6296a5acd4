#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The summaries of an alternatives run (bench/runners/alternatives.sh), from its run
# tree OUT, all on the disk model's clock (its trace, joined read by read
# with the engine's seek log by hc-tracejoin: OUT/arm-X/runN/join.csv):
#
#   OUT/summary/windows.csv  arm,run,window,t_s,reads,p50_ms,p99_ms,bg_mb
#       the foreground reads by WINDOW seconds of the disk's clock from the
#       run's first read; bg_mb: what the disk served in the window that was
#       not a foreground read (the tracker's moves; nothing else writes
#       while fio reads: noatime)
#   OUT/summary/runs.csv     a row per finished run (columns: the header;
#       steady = the last third of the request sequence; t_within10_s: the
#       start of the first window from which on every window's p50 is
#       within 10% of arm c's steady p50 in the same round, empty when it
#       never is or there is no arm c; moving_*: the foreground reads in the
#       1 s slots of the disk's clock in which it also served background
#       I/O; hot_*: where hc-where found the hot set after the run, its bytes
#       per third of the file's own filesystem; reads_first_third: the
#       steady reads' share served in the disk's first third, by LBA;
#       steady_seek_p50_ms: the steady reads' median seek (the trace's
#       seek_us: how far apart the files read most are); same_sequence: 1 when the seek log's files and offsets are the
#       pilot's, in order; rest_first, rest_last: the bytes of the files
#       outside the hot set (arm g's write-hinted ones) in the first and
#       the last third after the run)
#   OUT/summary/arms.csv     arm,metric,median,min,max,runs over the runs
#   OUT/summary/fig-windows-ARM.csv  t_s,p50_ms,p99_ms,runs: each window's
#       p50 and p99, medians over the runs (plots/alternatives.gp)
#
# Only runs OUT/status calls ok are read; a run whose join.csv or columns
# are missing is named and the status is 1 (bad input: 2).
# Usage: bench/measures/summarise-alternatives.sh OUT
set -u
out=${1:?usage: bench/measures/summarise-alternatives.sh OUT}
. "$(dirname "$0")/lib.sh" && lib_init ALT bench/measures/summarise-alternatives.sh
[ -r "$out/run-env.txt" ] || die "$out/run-env.txt missing: not a run tree of bench/runners/alternatives.sh"
[ -r "$out/pilot/files.csv" ] || die "$out/pilot/files.csv missing"
env_of() { sed -n "s/^$1=//p" "$out/run-env.txt" | head -n 1; }
WINDOW=$(env_of WINDOW) SIZE=$(env_of SIZE)
[ -n "$WINDOW" ] && [ -n "$SIZE" ] || die "$out/run-env.txt: no WINDOW= or SIZE="
sectors=$(( $(numfmt --from=iec "$SIZE") / 512 ))
sum=$out/summary
mkdir -p "$sum"
bad=0

# pct: "key,value" lines in; "key,n,p50,p99" out (nearest rank), sorted by key
pct() {
	sort -t, -k1,1 -k2,2g | awk -F, '
		function flush(	i50, i99) { if (!n) return; i50 = int(0.5 * n); if (i50 < 0.5 * n) i50++
			i99 = int(0.99 * n); if (i99 < 0.99 * n) i99++
			printf "%s,%d,%.3f,%.3f\n", k, n, v[i50], v[i99] }
		$1 != k { flush(); k = $1; n = 0 } { v[++n] = $2 } END { flush() }'
}

echo "arm,run,window,t_s,reads,p50_ms,p99_ms,bg_mb" >"$sum/windows.csv"
runs_hdr="arm,run,kernel,layout,tracker,reads,matched_frac,same_sequence,disk_seconds,p50_ms,p99_ms,steady_p50_ms,steady_p99_ms,reads_first_third,hot_first_before,hot_first,hot_middle,hot_last,moves,moved_mb,bg_read_mb,bg_write_mb,moving_reads,moving_p50_ms,moving_p99_ms,quiet_p50_ms,steady_seek_p50_ms,rest_first,rest_last,guest_p50_ms,t_within10_s"
: >"$sum/runs.tmp"
hotlist=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["hot"] == 1 { printf "%s ", $c["file"] }' "$out/pilot/files.csv")
[ -n "$hotlist" ] || die "$out/pilot/files.csv: no file with hot=1"

while read -r arm r st _; do
	[ "$st" = ok ] || continue
	d=$out/arm-$arm/run$r
	j=$d/join.csv
	for f in "$j" "$d/trace.csv" "$d/seek.csv" "$d/env.txt" "$d/where-after.csv" "$d/where-before.csv"; do
		[ -r "$f" ] || { echo "bench/measures/summarise-alternatives.sh: arm $arm run $r: $f missing" >&2; bad=1; continue 2; }
	done
	# the foreground reads: relative arrival (s), service (ms), lba, seq; the
	# run's first arrival is t0
	awk -F, "$CSV_AWK"'BEGIN { need = "seq matched arrival_us end_us service_us lba seek_us engine_lat_us" }
		$C["matched"] == 1 { print $C["seq"] "," $C["arrival_us"] "," $C["end_us"] "," $C["service_us"] "," $C["lba"] "," $C["seek_us"] "," $C["engine_lat_us"] }
		END { if (csv_bad) exit 2 }' "$j" | sort -t, -k2,2n >"$d/fg.tmp" ||
		{ echo "bench/measures/summarise-alternatives.sh: $j: a column is missing" >&2; bad=1; continue; }
	nreq=$(awk -F, "$CSV_AWK"'BEGIN { need = "ddir" } $C["ddir"] == "read"' "$d/seek.csv" | wc -l)
	[ -s "$d/fg.tmp" ] || { echo "bench/measures/summarise-alternatives.sh: $j: no matched read" >&2; bad=1; continue; }
	t0=$(head -n 1 "$d/fg.tmp" | cut -d, -f2) t1=$(sort -t, -k3,3n "$d/fg.tmp" | tail -n 1 | cut -d, -f3)
	# the trace's other rows in [t0, t1]: background bytes per window and per 1 s slot
	awk -F, -v fg="$d/fg.tmp" -v t0="$t0" -v t1="$t1" -v w="$WINDOW" "$CSV_AWK"'
		BEGIN { while ((getline l < fg) > 0) { split(l, x, ","); own[x[2] "," x[5]] = 1 } need = "arrival_us lba sectors op" }
		{ a = $C["arrival_us"]; if (a < t0 || a > t1 || (($C["arrival_us"] "," $C["lba"]) in own)) next
			b = $C["sectors"] * 512; wi = int((a - t0) / (w * 1e6)); s = int((a - t0) / 1e6)
			bw[wi] += b; bs[s] += b; if ($C["op"] == "read") br += b; else bwr += b }
		END { for (k in bw) print "w," k "," bw[k]; for (k in bs) print "s," k "," bs[k]
			printf "t,read,%d\nt,write,%d\n", br, bwr; if (csv_bad) exit 2 }' "$d/trace.csv" >"$d/bg.tmp" ||
		{ echo "bench/measures/summarise-alternatives.sh: $d/trace.csv: a column is missing" >&2; bad=1; continue; }
	# per window
	awk -F, -v t0="$t0" -v w="$WINDOW" '{ print int(($2 - t0) / (w * 1e6)) "," $4 / 1000 }' "$d/fg.tmp" | pct |
		awk -F, -v arm="$arm" -v r="$r" -v w="$WINDOW" -v bg="$d/bg.tmp" '
		BEGIN { while ((getline l < bg) > 0) { split(l, x, ","); if (x[1] == "w") b[x[2]] = x[3] } }
		{ printf "%s,%s,%d,%d,%d,%.3f,%.3f,%.3f\n", arm, r, $1, $1 * w, $2, $3, $4, b[$1] / 1048576 }' |
		sort -t, -k3,3n >>"$sum/windows.csv"
	all=$(awk -F, '{ print "x," $4 / 1000 }' "$d/fg.tmp" | pct)
	# the same reads on the guest's clock: fio's completion latency (seek log)
	gall=$(awk -F, '{ print "x," $7 / 1000 }' "$d/fg.tmp" | pct)
	steady=$(awk -F, -v n="$nreq" '$1 >= 2 * n / 3 { print "x," $4 / 1000 }' "$d/fg.tmp" | pct)
	sseek=$(awk -F, -v n="$nreq" '$1 >= 2 * n / 3 { print "x," $6 / 1000 }' "$d/fg.tmp" | pct)
	moving=$(awk -F, -v t0="$t0" -v bg="$d/bg.tmp" 'BEGIN { while ((getline l < bg) > 0) { split(l, x, ","); if (x[1] == "s" && x[3] > 0) s[x[2]] = 1 } }
		{ print (int(($2 - t0) / 1e6) in s ? "m," : "q,") $4 / 1000 }' "$d/fg.tmp" | pct)
	first=$(awk -F, -v n="$nreq" -v s="$sectors" '$1 >= 2 * n / 3 { t++; if ($5 < s / 3) f++ } END { if (t) printf "%.4f", f / t }' "$d/fg.tmp")
	matched=$(wc -l <"$d/fg.tmp")
	same=$(cmp -s <(awk -F, "$CSV_AWK"'BEGIN { need = "file ddir offset" } $C["ddir"] == "read" { f = $C["file"]; sub(/.*\//, "", f); print f "," $C["offset"] }' "$d/seek.csv") \
		"$out/pilot/sequence.txt" && echo 1 || echo 0)
	# the hot set's bytes per third (hc-where; a split arm: its own filesystem's thirds)
	# (hw FILE COL rest: the same for the files outside the hot set)
	hw() { awk -F, -v hot="$hotlist" -v col="$2" -v rest="${3:-}" "$CSV_AWK"'BEGIN { n = split(hot, h, " "); for (i = 1; i <= n; i++) H[h[i]] = 1; need = "file size first middle last" }
		{ f = $C["file"]; sub(/.*\//, "", f); if ((f in H) != (rest != "")) { s += $C["size"]; v += $C["size"] * $C[col] } }
		END { if (s) printf "%.4f", v / s; if (csv_bad) exit 2 }' "$1"; }
	tr_moves="" tr_mb=""
	if [ -s "$d/track.csv" ]; then
		read -r tr_moves tr_mb < <(awk -F, "$CSV_AWK"'BEGIN { need = "result bytes" } $C["result"] == "moved" { n++; b += $C["bytes"] }
			END { printf "%d %.3f\n", n, b / 1048576 }' "$d/track.csv")
	fi
	envv() { sed -n "s/^$1=//p" "$d/env.txt" | head -n 1; }
	kern=$(case $arm in a|b) echo stock ;; *) echo patched ;; esac)
	g() { echo "$1" | awk -F, -v k="$2" -v c="$3" '$1 == k { print $c }'; }
	echo "$arm,$r,$kern,$(envv layout),$([ -s "$d/track.csv" ] && echo on || echo off),$nreq,$(ratio "$matched" "$nreq"),$same,$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1e6 }'),$(g "$all" x 3),$(g "$all" x 4),$(g "$steady" x 3),$(g "$steady" x 4),$first,$(hw "$d/where-before.csv" first),$(hw "$d/where-after.csv" first),$(hw "$d/where-after.csv" middle),$(hw "$d/where-after.csv" last),$tr_moves,$tr_mb,$(awk -F, '$1 == "t" && $2 == "read" { printf "%.3f", $3 / 1048576 }' "$d/bg.tmp"),$(awk -F, '$1 == "t" && $2 == "write" { printf "%.3f", $3 / 1048576 }' "$d/bg.tmp"),$(g "$moving" m 2),$(g "$moving" m 3),$(g "$moving" m 4),$(g "$moving" q 3),$(g "$sseek" x 3),$(hw "$d/where-after.csv" first rest),$(hw "$d/where-after.csv" last rest),$(g "$gall" x 3)" >>"$sum/runs.tmp"
	rm -f "$d/fg.tmp" "$d/bg.tmp"
done <"$out/status"

# t_within10_s: against arm c's steady p50 of the same round
{
	echo "$runs_hdr"
	awk -F, -v wf="$sum/windows.csv" '
		BEGIN { while ((getline l < wf) > 0) { split(l, x, ","); if (x[1] == "arm") continue
			k = x[1] "," x[2]; nw[k] = (x[3] + 1 > nw[k]) ? x[3] + 1 : nw[k]; p[k, x[3]] = x[6]; t[k, x[3]] = x[4] } }
		{ row[NR] = $0; arm[NR] = $1; run[NR] = $2; sp[NR] = $12; if ($1 == "c") c[$2] = $12 }
		END { for (i = 1; i <= NR; i++) { k = arm[i] "," run[i]; v = ""
			if (run[i] in c && c[run[i]] != "") { lim = 1.1 * c[run[i]]; from = -1
				for (w = nw[k] - 1; w >= 0; w--) { if ((k, w) in p && p[k, w] > lim) break; if ((k, w) in p) from = w }
				if (from >= 0) v = t[k, from] }
			print row[i] "," v } }' "$sum/runs.tmp"
} >"$sum/runs.csv"
rm -f "$sum/runs.tmp"

# arms.csv: median (min-max) of each number over the runs
{
	echo "arm,metric,median,min,max,runs"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[i] = $i; next }
		{ for (i = 6; i <= NF; i++) if ($i != "" && $i != "n/a") print $1 "|" h[i] "," $i }' "$sum/runs.csv" | stats | tr '|' ,
} >"$sum/arms.csv"
# the figure's series: per arm, each window's p50 and p99, medians over the runs
rm -f "$sum"/fig-windows-*.csv
win() { # ARM COLUMN: "t_s,value" of that arm's windows, t_s zero-padded (stats sorts by key)
	awk -F, -v a="$1" -v c="$2" "$CSV_AWK"'BEGIN { need = "arm t_s " c } $C["arm"] == a { printf "%09d,%s\n", $C["t_s"], $C[c] }' "$sum/windows.csv"
}
for a in $(awk -F, "$CSV_AWK"'BEGIN { need = "arm" } { print $C["arm"] }' "$sum/windows.csv" | sort -u); do
	{
		echo "t_s,p50_ms,p99_ms,runs"
		paste -d, <(win "$a" p50_ms | stats) <(win "$a" p99_ms | stats) |
			awk -F, '{ printf "%d,%s,%s,%s\n", $1, $2, $7, $5 }'
	} >"$sum/fig-windows-$a.csv"
done
[ "$(wc -l <"$sum/runs.csv")" -gt 1 ] || { echo "bench/measures/summarise-alternatives.sh: no finished run in $out/status" >&2; bad=1; }
exit $bad
