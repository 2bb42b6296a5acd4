# SPDX-License-Identifier: GPL-2.0
# bench/measures/measure-qd.sh - the measure "qd" (bench/measures/measures.sh): reads with
# several in flight (bench/jobs/mixed-qd.fio and randread-qd.fio with the disk
# model's queue-depth, the job's iodepth and the guest's I/O scheduler from
# the job column, JOB.fio:qd=N,sched=NAME).  Everything but clat_p50_ms is
# on the disk's clock: hc-tracejoin's join.csv (each engine read's trace
# rows) and the model's trace.
#   summary/qd-runs.csv    scenario,run,qd,scheduler,job,reads,resp_p50_ms,
#                          resp_mean_ms,queue_mean_ms,pos_mean_ms,clat_p50_ms
#                          resp = arrival at the drive to end (queue +
#                          service); pos = seek + rotation, what the drive's
#                          choice of the next request saves; clat = fio's
#                          clat p50 (guest clock)
#   summary/qd.csv         scenario,qd,scheduler,job, then _median,_min,_max
#                          of each of those six numbers, runs
#   summary/qd-pairs-runs.csv
#                          scenario,run,qd,scheduler,pair,jobs,reads,iops,
#                          pos_mean_ms,resp_mean_ms,max_at_drive
#                          a pair is the jobs read at once (a job name's
#                          part before "-": hc, nn, hh; randread's hot,
#                          none); iops = its reads / (last end - first
#                          arrival); max_at_drive = most of the pair's reads
#                          at the drive at once (queued + in service)
#   summary/qd-pairs.csv   scenario,qd,scheduler,pair,jobs, then _median,
#                          _min,_max of iops, pos_mean_ms, resp_mean_ms and
#                          max_at_drive, runs
#   summary/qd-wide-KIND.csv  plots/bench-qd.gp's input, one per job file
#   figures/qd-mixed, qd-randread

# the job files and their pairs: KIND:PAIRS:TITLES (KIND.fio or KIND-qd.fio)
QD_KINDS="mixed:hc,nn,hh:hot+cold,unhinted+unhinted,hot+hot randread:hot,none:hot,unhinted"

qd_files() { echo qd-runs.csv qd-pairs.csv; }

qd_summarise() {
	local out=$1 sum=$1/summary n d f r qd sch atd clat kinds kind k pairs rc=0
	echo "scenario,run,qd,scheduler,job,reads,resp_p50_ms,resp_mean_ms,queue_mean_ms,pos_mean_ms,clat_p50_ms" >"$sum/qd-runs.csv"
	echo "scenario,run,qd,scheduler,pair,jobs,reads,iops,pos_mean_ms,resp_mean_ms,max_at_drive" >"$sum/qd-pairs-runs.csv"
	for d in $(finished_runs "$out" qd); do
		n=$(basename "$(dirname "$d")")
		for f in env.txt join.csv trace.csv fio.json; do
			need "$d/$f" || continue 2
		done
		r=$(basename "$d")
		qd=$(sed -n 's/^qd=//p' "$d/env.txt" | head -n 1)
		sch=$(sed -n 's/^scheduler=//p' "$d/env.txt" | head -n 1)
		[ -n "$qd" ] && [ -n "$sch" ] ||
			{ echo "summarise: $d/env.txt: no qd= or scheduler= (bench/guest/guest-scenario.sh writes them)" >&2; rc=1; continue; }
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
	median_table "$sum/qd-runs.csv" "scenario qd scheduler job" "reads resp_p50_ms resp_mean_ms queue_mean_ms pos_mean_ms clat_p50_ms" >"$sum/qd.csv" || rc=1
	median_table "$sum/qd-pairs-runs.csv" "scenario qd scheduler pair jobs" "iops pos_mean_ms resp_mean_ms max_at_drive" >"$sum/qd-pairs.csv" || rc=1
	# for plots/bench-qd.gp, one file per job file (the scenarios' job column:
	# mixed-qd.fio -> qd-wide-mixed.csv with pairs hc nn hh; randread-qd.fio ->
	# qd-wide-randread.csv, hot none), a row per scenario: label, then for
	# each pair the median,min,max of pos_mean_ms, then of iops
	kinds=$(for n in $(scen "$out" qd); do j=$(scen_col "$out" "$n" job); j=${j%%:*} j=${j%.fio}; printf '%s=%s ' "$n" "${j%-qd}"; done)
	for kind in $QD_KINDS; do
		k=${kind%%:*} pairs=${kind#*:} pairs=${pairs%%:*}
		awk -F, -v k="$k" -v pairs="$pairs" -v kinds="$kinds" -v need="scenario qd scheduler pair iops_median iops_min iops_max pos_mean_ms_median pos_mean_ms_min pos_mean_ms_max" "$CSV_AWK"'
			BEGIN { np = split(pairs, P, ",")
				nk = split(kinds, K, " "); for (i = 1; i <= nk; i++) { split(K[i], kv, "="); kind[kv[1]] = kv[2] }
				printf "label"; for (i = 1; i <= np; i++) printf ",%s_pos,%s_pos_min,%s_pos_max", P[i], P[i], P[i]
				for (i = 1; i <= np; i++) printf ",%s_iops,%s_iops_min,%s_iops_max", P[i], P[i], P[i]; print "" }
			kind[$C["scenario"]] == k { n = $C["scenario"]; p = $C["pair"]; s[n] = "qd" $C["qd"] " " $C["scheduler"]
				pos[n, p] = $C["pos_mean_ms_median"] "," $C["pos_mean_ms_min"] "," $C["pos_mean_ms_max"]; io[n, p] = $C["iops_median"] "," $C["iops_min"] "," $C["iops_max"] }
			END { if (csv_bad) exit 2
				for (n in s) { printf "%s", s[n]
					for (i = 1; i <= np; i++) printf ",%s", ((n, P[i]) in pos) ? pos[n, P[i]] : ",,"
					for (i = 1; i <= np; i++) printf ",%s", ((n, P[i]) in io) ? io[n, P[i]] : ",,"
					print "" } }' "$sum/qd-pairs.csv" | { read -r h; echo "$h"; sort -t, -k1,1V; } >"$sum/qd-wide-$k.csv"
	done
	return $rc
}

qd_plots() {
	local k kind pairs titles
	for k in $QD_KINDS; do
		IFS=: read -r kind pairs titles <<<"$k"
		plot_of "$1/summary/qd-wide-$kind.csv" "qd-$kind" bench-qd.gp -e "dir='$1/summary'" -e "kind='$kind'" \
			-e "pairs='${pairs//,/ }'" -e "titles='${titles//,/ }'"
	done
}

qd_page() {
	local out=$1 sum=$1/summary sz io sch c1 h1 c32 h32 i1 j1 i32 j32 lines
	has "$sum/qd-pairs.csv" || return 0
	# qtab FILE NEED PROGRAM: tab with m(C), the "median (min-max)" of C
	qtab() { local f=$1 n=$2 p=$3; shift 3; tab "$f" "$n" 'function m(c) { return mmm($C[c "_median"], $C[c "_min"], $C[c "_max"]) } '"$p" "$@"; }
	echo
	echo "## Command queueing: queue depth 1 vs 32 ($(scen_jobs "$out" qd))"
	echo
	echo "The drive model serves in arrival order at queue depth 1; at queue depth"
	echo "32 it picks, among the first 32 requests waiting, the one with the"
	echo "shortest positioning time (seek + rotational wait), and serves first any"
	echo "request that has waited the aging bound (queue-age, 200 ms by default)."
	echo "The job keeps as many reads in flight (fio iodepth, libaio, O_DIRECT,"
	echo "4 KiB random reads) and the guest's I/O scheduler is set as named. In"
	echo "bench/jobs/mixed-qd.fio two jobs run at once in each pair (hot + cold,"
	echo "unhinted + unhinted, hot + hot), so every pair is compared with pairs."
	if [ "$(sed -n 's/^quick=//p' "$out/run-env.txt" 2>/dev/null | tail -n 1)" = 1 ]; then sz="16 MiB" io="1 MiB"; else sz="64 MiB" io="8 MiB"; fi
	echo "A fresh ext4 per run; each set is 4 files of $sz (bench/guest/job-env.sh's"
	echo "BENCH_SIZE), each job reads $io of it (BENCH_IO). All numbers but"
	echo "fio's clat are on the disk model's clock (its trace, joined read by read"
	echo "with the engine's log). Positioning = seek + rotation per read; response"
	echo "= arrival at the drive to end (queue wait + service); \"most at the drive\""
	echo "= the most reads the trace shows queued or in service at once, which is"
	echo "what the host really gave the drive to choose from. It is at most 16 at"
	echo "queue depth 32: QEMU's NBD client, which carries the guest's disk to the"
	echo "model, sends at most 16 requests at once (MAX_NBD_REQUESTS in QEMU's"
	echo "block/nbd.c, a constant with no setting; nbdkit's own limit, 16 threads"
	echo "per connection, is lifted by vm/hdd-model/serve.sh). Median of the runs"
	echo "(min-max)."
	echo
	echo "| scenario | queue depth | scheduler | pair | reads/s of the pair | positioning per read (ms) | response mean (ms) | most at the drive | runs |"
	echo "|---|---|---|---|---|---|---|---|---|"
	qtab "$sum/qd-pairs.csv" "scenario qd scheduler pair jobs iops_median pos_mean_ms_median resp_mean_ms_median max_at_drive_max runs" '{
		printf "%s,%s,| %s | %s | %s | %s (%s job%s) | %s | %s | %s | %s | %s |\n", $C["scenario"], $C["pair"], $C["scenario"], $C["qd"], $C["scheduler"],
			$C["pair"], $C["jobs"], $C["jobs"] == 1 ? "" : "s", m("iops"), m("pos_mean_ms"), m("resp_mean_ms"), $C["max_at_drive_max"], $C["runs"] }' |
		sort -t, -k1,1V -k2,2 | cut -d, -f3-
	echo
	# What queueing takes back of the cost of reading hot and cold at once:
	# positioning per read of the hot+cold pair (hc) minus that of the hot+hot
	# pair (hh), at queue depth 1 and 32, same scheduler (the scenarios are
	# found by their qd and scheduler columns)
	# pcol QD SCHEDULER PAIR COLUMN: a column of qd-pairs.csv
	pcol() { csv_get "$sum/qd-pairs.csv" "$4" qd="$1" scheduler="$2" pair="$3"; }
	lines=$(for sch in $(qtab "$sum/qd-pairs.csv" scheduler '!s[$C["scheduler"]]++ { print $C["scheduler"] }' | sort -r); do
		c1=$(pcol 1 "$sch" hc pos_mean_ms_median) h1=$(pcol 1 "$sch" hh pos_mean_ms_median) c32=$(pcol 32 "$sch" hc pos_mean_ms_median) h32=$(pcol 32 "$sch" hh pos_mean_ms_median)
		i1=$(pcol 1 "$sch" hc iops_median) j1=$(pcol 1 "$sch" hh iops_median) i32=$(pcol 32 "$sch" hc iops_median) j32=$(pcol 32 "$sch" hh iops_median)
		[ -n "$c1" ] && [ -n "$h1" ] && [ -n "$c32" ] && [ -n "$h32" ] || continue
		awk -v sch="$sch" -v c1="$c1" -v h1="$h1" -v c32="$c32" -v h32="$h32" -v i1="$i1" -v j1="$j1" -v i32="$i32" -v j32="$j32" 'BEGIN {
			d1 = c1 - h1; d32 = c32 - h32
			printf "- scheduler %s: reading hot and cold at once costs **%.2f ms** more positioning per read than hot and hot at queue depth 1 (%.2f vs %.2f ms), **%.2f ms** at queue depth 32 (%.2f vs %.2f ms)", sch, d1, c1, h1, d32, c32, h32
			if (d1 > 0) printf ": queueing takes back **%.0f%%** of it", 100 * (d1 - d32) / d1
			printf ". Reads per second, hot+cold / hot+hot: %.3f at depth 1, %.3f at depth 32.\n", (j1 > 0 ? i1 / j1 : 0), (j32 > 0 ? i32 / j32 : 0) }'
	done)
	if [ -n "$lines" ]; then echo "$lines"; echo; fi
	echo "Per job (the disk's clock but the last column, fio's clat p50 in the guest):"
	echo
	echo "| scenario | job | reads | response p50 (ms) | response mean (ms) | queue wait mean (ms) | positioning mean (ms) | fio clat p50 (guest, ms) | runs |"
	echo "|---|---|---|---|---|---|---|---|---|"
	qtab "$sum/qd.csv" "scenario job reads_median resp_p50_ms_median resp_mean_ms_median queue_mean_ms_median pos_mean_ms_median clat_p50_ms_median runs" '{
		printf "%s,%s,| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $C["scenario"], $C["job"], $C["scenario"], $C["job"], $C["reads_median"],
			m("resp_p50_ms"), m("resp_mean_ms"), m("queue_mean_ms"), m("pos_mean_ms"), m("clat_p50_ms"), $C["runs"] }' |
		sort -t, -k1,1V -k2,2 | cut -d, -f3-
	echo
	fig qd-mixed "positioning per read and reads/s per pair, bench/jobs/mixed-qd.fio"
	fig qd-randread "positioning per read and reads/s, bench/jobs/randread-qd.fio"
}
