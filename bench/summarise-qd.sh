#!/bin/bash
# The queueing scenarios of a benchmark run (those that measure "qd" in
# OUT/scenarios: bench/mixed-qd.fio and randread-qd.fio with the disk
# model's queue-depth, the job's iodepth and the guest's I/O scheduler
# from the job column), into OUT/summary/.  Everything but clat_p50_ms is
# on the disk's clock: hc-tracejoin's join.csv (each engine read's trace
# rows) and the model's trace.
#   qd-runs.csv    scenario,run,qd,scheduler,job,reads,resp_p50_ms,
#                  resp_mean_ms,queue_mean_ms,pos_mean_ms,clat_p50_ms
#                  resp = arrival at the drive to end (queue + service);
#                  pos = seek + rotation, what the drive's choice of the
#                  next request saves; clat = fio's clat p50 (guest clock)
#   qd.csv         scenario,qd,scheduler,job, then median,min,max of each
#                  of those six numbers, runs
#   qd-pairs-runs.csv
#                  scenario,run,qd,scheduler,pair,jobs,reads,iops,
#                  pos_mean_ms,resp_mean_ms,max_at_drive
#                  a pair is the jobs read at once (a job name's part
#                  before "-": hc, nn, hh; randread's hot, none);
#                  iops = its reads / (last end - first arrival);
#                  max_at_drive = most of the pair's reads at the drive
#                  at once (queued + in service), from their trace rows
#   qd-pairs.csv   scenario,qd,scheduler,pair,jobs, then median,min,max of
#                  iops, pos_mean_ms, resp_mean_ms and max_at_drive, runs
# Inputs are read by column name (bench/csv.awk).
# Usage: bench/summarise-qd.sh OUT
set -u
out=${1:?usage: bench/summarise-qd.sh OUT}
sum=$out/summary
. "$(dirname "$0")/scen.sh" && scen_init "$out" || exit 2
. "$(dirname "$0")/lib.sh" || exit 2
rc=0

echo "scenario,run,qd,scheduler,job,reads,resp_p50_ms,resp_mean_ms,queue_mean_ms,pos_mean_ms,clat_p50_ms" >"$sum/qd-runs.csv"
echo "scenario,run,qd,scheduler,pair,jobs,reads,iops,pos_mean_ms,resp_mean_ms,max_at_drive" >"$sum/qd-pairs-runs.csv"
for n in $(scen "$out" qd); do
	for d in "$out/$n"/run*; do
		ok_run "$d" || continue
		for f in env.txt join.csv trace.csv fio.json; do
			[ -s "$d/$f" ] || { echo "summarise-qd: $d/$f missing or empty" >&2; rc=1; continue 2; }
		done
		r=$(basename "$d")
		qd=$(sed -n 's/^qd=//p' "$d/env.txt" | head -n 1)
		sch=$(sed -n 's/^scheduler=//p' "$d/env.txt" | head -n 1)
		[ -n "$qd" ] && [ -n "$sch" ] ||
			{ echo "summarise-qd: $d/env.txt: no qd= or scheduler= (bench/guest-scenario.sh writes them)" >&2; rc=1; continue; }
		# per pair, the most of its reads at the drive at once (queued or in
		# service): +1 at arrival, -1 at end, over the pair's joined reads
		awk -F, -v need="job arrival_us end_us matched" "$CSV_AWK"'
			$C["matched"] == 1 { p = $C["job"]; sub(/-.*/, "", p); print p "," $C["arrival_us"] ",1"; print p "," $C["end_us"] ",-1" }
			END { if (csv_bad) exit 2 }' "$d/join.csv" | sort -t, -k1,1 -k2,2g -k3,3n |
			awk -F, '$1 != p { if (p != "") printf "%s=%d ", p, m; p = $1; q = m = 0 }
				{ q += $3; if (q > m) m = q } END { if (p != "") printf "%s=%d", p, m }' >"$d/qd-atd.tmp" || { rc=1; continue; }
		atd=$(cat "$d/qd-atd.tmp")
		# fio's clat p50 per job (ns, guest clock)
		clat=$(jq -r '.jobs[] | "\(.jobname)=\(.read.clat_ns.percentile["50.000000"] // "")"' "$d/fio.json" | tr '\n' ' ')
		# per job: the response times sorted, for the median
		awk -F, -v need="job service_us queue_us seek_us rotation_us matched" "$CSV_AWK"'
			$C["matched"] == 1 { print $C["job"] "," $C["service_us"] "," $C["queue_us"] "," $C["seek_us"] + $C["rotation_us"] }
			END { if (csv_bad) exit 2 }' "$d/join.csv" >"$d/qd-reads.tmp" || { rc=1; continue; }
		sort -t, -k1,1 -k2,2g "$d/qd-reads.tmp" | awk -F, -v n="$n" -v r="$r" -v qd="$qd" -v s="$sch" -v clat="$clat" "$STATS_AWK"'
			BEGIN { m = split(clat, c, " "); for (i = 1; i <= m; i++) { split(c[i], kv, "="); cl[kv[1]] = kv[2] } }
			function flush() { if (!k) return
				printf "%s,%s,%s,%s,%s,%d,%.4f,%.4f,%.4f,%.4f,%s\n", n, r, qd, s, k, cnt,
					stats_med(v, cnt) / 1000,
					sv / cnt / 1000, sq / cnt / 1000, sp / cnt / 1000,
					(cl[k] != "" ? sprintf("%.4f", cl[k] / 1e6) : "") }
			$1 != k { flush(); k = $1; cnt = 0; sv = sq = sp = 0 }
			{ v[++cnt] = $2; sv += $2; sq += $3; sp += $4 }
			END { flush() }' >>"$sum/qd-runs.csv"
		# per pair: reads over the disk-clock span from the first arrival to the last end
		awk -F, -v need="job arrival_us end_us service_us seek_us rotation_us matched" "$CSV_AWK"'
			$C["matched"] == 1 { p = $C["job"]; sub(/-.*/, "", p)
				if (!(p in a) || $C["arrival_us"] < a[p]) a[p] = $C["arrival_us"]
				if ($C["end_us"] > e[p]) e[p] = $C["end_us"]
				cnt[p]++; pos[p] += $C["seek_us"] + $C["rotation_us"]; resp[p] += $C["service_us"]
				if (!(($C["job"]) in seen)) { seen[$C["job"]] = 1; nj[p]++ } }
			END { if (csv_bad) exit 2
				m = split(atd, kv, " "); for (i = 1; i <= m; i++) { split(kv[i], x, "="); at[x[1]] = x[2] }
				for (p in cnt) printf "%s,%s,%s,%s,%s,%d,%d,%.2f,%.4f,%.4f,%d\n", n, r, qd, s, p, nj[p], cnt[p],
					(e[p] > a[p] ? cnt[p] / ((e[p] - a[p]) / 1e6) : 0), pos[p] / cnt[p] / 1000, resp[p] / cnt[p] / 1000, at[p] }' \
			n="$n" r="$r" qd="$qd" s="$sch" atd="$atd" "$d/join.csv" >>"$sum/qd-pairs-runs.csv" || rc=1
		rm -f "$d/qd-reads.tmp" "$d/qd-atd.tmp"
	done
done

# median, min, max of each column from C on, grouped by the key columns
# (the runs of one scenario); input without its header
mmm_by() { # KEYS(awk expr) FIRST LAST
	sort -t, -k1,1 | awk -F, -v first="$2" -v last="$3" "$STATS_AWK"'
		{ k = '"$1"'; keys[k] = 1; n[k]++
			for (c = first; c <= last; c++) v[k, c, n[k]] = $c }
		END { for (k in keys) { printf "%s", k
				for (c = first; c <= last; c++) {
					m = n[k]; delete x
					for (i = 1; i <= m; i++) x[i] = v[k, c, i] + 0
					stats_sort(x, m)
					printf ",%.4g,%.4g,%.4g", stats_med(x, m), x[1], x[m] }
				printf ",%d\n", n[k] } }' | sort -t, -k1,1
}
{
	echo "scenario,qd,scheduler,job,reads_med,reads_min,reads_max,resp_p50_med,resp_p50_min,resp_p50_max,resp_mean_med,resp_mean_min,resp_mean_max,queue_mean_med,queue_mean_min,queue_mean_max,pos_mean_med,pos_mean_min,pos_mean_max,clat_p50_med,clat_p50_min,clat_p50_max,runs"
	tail -n +2 "$sum/qd-runs.csv" | mmm_by '$1 "," $3 "," $4 "," $5' 6 11
} >"$sum/qd.csv"
{
	echo "scenario,qd,scheduler,pair,jobs,iops_med,iops_min,iops_max,pos_mean_med,pos_mean_min,pos_mean_max,resp_mean_med,resp_mean_min,resp_mean_max,at_drive_med,at_drive_min,at_drive_max,runs"
	tail -n +2 "$sum/qd-pairs-runs.csv" | mmm_by '$1 "," $3 "," $4 "," $5 "," $6' 8 11
} >"$sum/qd-pairs.csv"
# for plots/bench-qd.gp, one file per job file (the scenarios' job column:
# mixed-qd.fio -> qd-wide-mixed.csv with pairs hc nn hh; randread-qd.fio ->
# qd-wide-randread.csv, hot none), a row per scenario: label, then for
# each pair the median,min,max of pos_mean_ms, then of iops
kinds=$(awk '!/^#/ && NF == 6 { j = $3; sub(/:.*/, "", j); sub(/(-qd)?\.fio$/, "", j); printf "%s=%s ", $1, j }' "$out/scenarios")
for kind in mixed:hc,nn,hh randread:hot,none; do
	k=${kind%%:*} pairs=${kind#*:}
	awk -F, -v k="$k" -v pairs="$pairs" -v kinds="$kinds" -v need="scenario qd scheduler pair iops_med iops_min iops_max pos_mean_med pos_mean_min pos_mean_max" "$CSV_AWK"'
		BEGIN { np = split(pairs, P, ",")
			nk = split(kinds, K, " "); for (i = 1; i <= nk; i++) { split(K[i], kv, "="); kind[kv[1]] = kv[2] }
			printf "label"; for (i = 1; i <= np; i++) printf ",%s_pos,%s_pos_min,%s_pos_max", P[i], P[i], P[i]
			for (i = 1; i <= np; i++) printf ",%s_iops,%s_iops_min,%s_iops_max", P[i], P[i], P[i]; print "" }
		kind[$C["scenario"]] == k { n = $C["scenario"]; p = $C["pair"]; s[n] = "qd" $C["qd"] " " $C["scheduler"]
			pos[n, p] = $C["pos_mean_med"] "," $C["pos_mean_min"] "," $C["pos_mean_max"]; io[n, p] = $C["iops_med"] "," $C["iops_min"] "," $C["iops_max"] }
		END { if (csv_bad) exit 2
			for (n in s) { printf "%s", s[n]
				for (i = 1; i <= np; i++) printf ",%s", ((n, P[i]) in pos) ? pos[n, P[i]] : ",,"
				for (i = 1; i <= np; i++) printf ",%s", ((n, P[i]) in io) ? io[n, P[i]] : ",,"
				print "" } }' "$sum/qd-pairs.csv" | { read -r h; echo "$h"; sort -t, -k1,1V; } >"$sum/qd-wide-$k.csv"
done
exit $rc
