#!/bin/bash
# bench/arrays-summarise.sh OUT: bench/arrays.sh's runs ($BUILD/bench/arrays/
# $(basename OUT)/LAYOUT-N/runR/ or ARRAYS_RAW, the members' traces;
# OUT/arrays-env.txt) into medians with
# min-max over the runs, the figures and the page:
#   arrays-runs.csv       layout,members,run, then hc-arraytrace's columns:
#                         every run, member, class and phase
#   arrays-agree.csv      layout,members,run,agree: 1 when the run's traces
#                         and its FIEMAP through the layout give the same
#                         bytes per class, member and third
#   arrays-placement.csv  layout,members,class,member,mib_t0,mib_t1,mib_t2,...
#                         MiB of each class per third of each member (seq
#                         phase, members' traces); member "all" adds them;
#                         mb_s_tN: MB/s of the sequential reads there
#                         (bytes_tN / drive_tN_us; empty under 1 MiB)
#   arrays-perf.csv       layout,members,class,seq_mb_s(,_min,_max),
#                         rand_p50_ms(,_min,_max),rand_p99_ms,rand_mean_ms,
#                         rand_seek_ms,rand_cyl (mean seek time and distance
#                         of the random reads),runs
#                         seq: the phase's bytes over the array's drive
#                         time: the busiest member's drive_us on RAID0,
#                         the members' added on dm-linear; rand: service (end_us - start_us) of
#                         every member's reads pooled, per run, then the
#                         median over the runs
#   arrays-guest.csv      layout,members,class,phase,guest_med,_min,_max,runs:
#                         the guest's clock (hc-arrayload): seq MB/s, rand
#                         mean ms per read, beside the disk's
#   arrays-fig-{seq,rand}.csv, figures/arrays-{seq,rand}.png (plots/arrays.gp)
#   RESULTS.md            bench/arrays-results.sh
# Exit status 0; 1 when a stage failed (named); 2 on bad input.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/lib.sh" || exit 2
out=${1:?usage: bench/arrays-summarise.sh OUT}
runs_csv=$out/arrays-runs.csv
raw=${ARRAYS_RAW:-${BUILD:-$top/build}/bench/arrays/$(basename "$out")}
trace_tool=${BUILD:-$top/build}/arrays/hc-arraytrace
[ -s "$out/arrays-env.txt" ] || { echo "bench/arrays-summarise.sh: '$out/arrays-env.txt' missing (bench/arrays.sh writes it)" >&2; exit 2; }
[ -x "$trace_tool" ] || { echo "bench/arrays-summarise.sh: $trace_tool missing: make arrays-tools" >&2; exit 2; }
disk_size=$(sed -n 's/^disk_size=//p' "$out/arrays-env.txt")
[ -n "$disk_size" ] || { echo "bench/arrays-summarise.sh: no disk_size= in '$out/arrays-env.txt'" >&2; exit 2; }
command -v gnuplot >/dev/null || { echo "bench/arrays-summarise.sh: gnuplot missing (vm/lib/install-deps.sh plot)" >&2; exit 2; }
mkdir -p "$out/figures" "$raw"
failed=0

# The members' traces of every finished run, cut into phases.
# In the order of the run: members, then layouts (arrays-env.txt).
cfgs=""
for n in $(sed -n 's/^members=//p' "$out/arrays-env.txt"); do
	for l in $(sed -n 's/^layouts=//p' "$out/arrays-env.txt"); do cfgs="$cfgs ${l%%:*}-$n"; done
done
rundirs=$(for c in $cfgs; do ls -d "$raw/$c"/run* 2>/dev/null | sort -V; done)
[ -n "$rundirs" ] || { echo "bench/arrays-summarise.sh: no runs of ($cfgs ) in '$raw'" >&2; exit 2; }
rows=0
for d in $rundirs; do
	[ -f "$d/ok" ] || { echo "bench/arrays-summarise.sh: $d: the guest did not finish; left out" >&2; failed=1; continue; }
	cfg=${d%/run*}; cfg=${cfg##*/}; run=${d##*/run}
	traces=()
	for i in $(seq 0 $((${cfg##*-} - 1))); do traces+=("$d/trace$i.csv"); done
	if ! "$trace_tool" "$disk_size" "${traces[@]}" >"$d/trace.csv" 2>"$d/trace.err"; then
		echo "bench/arrays-summarise.sh: $d: $(cat "$d/trace.err")" >&2
		rm -f "$d/trace.csv"; failed=1; continue
	fi
	[ $rows = 0 ] && sed -n '1s/^/layout,members,run,/p' "$d/trace.csv"
	sed 1d "$d/trace.csv" | sed "s/^/${cfg%-*},${cfg##*-},$run,/"
	rows=$((rows + 1))
done >"$runs_csv"
[ $rows -gt 0 ] || { echo "bench/arrays-summarise.sh: no finished runs in '$raw'" >&2; exit 1; }

# Every run's traces against its FIEMAP through the layout (hc-arrayload):
# the same bytes per class, member and third, or the run is named.
echo "layout,members,run,agree" >"$out/arrays-agree.csv"
for d in $rundirs; do
	[ -s "$d/trace.csv" ] || continue
	cfg=${d%/run*}; cfg=${cfg##*/}; run=${d##*/run}
	f=$(ls "$d"/*-fiemap.csv 2>/dev/null | head -n 1)
	[ -n "$f" ] || { echo "bench/arrays-summarise.sh: $d: no FIEMAP output" >&2; failed=1; continue; }
	a=$(awk -F, -v need="member class phase bytes_t0 bytes_t1 bytes_t2" "$CSV_AWK"'
		$C["phase"] == "seq" && $C["member"] != "all" { print $C["class"], $C["member"], $C["bytes_t0"], $C["bytes_t1"], $C["bytes_t2"] }' "$d/trace.csv" | sort)
	b=$(awk -F, -v need="class member bytes_t0 bytes_t1 bytes_t2" "$CSV_AWK"'
		{ print $C["class"], $C["member"], $C["bytes_t0"], $C["bytes_t1"], $C["bytes_t2"] }' "$f" | sort)
	[ "$a" = "$b" ] && ok=1 || { ok=0; echo "bench/arrays-summarise.sh: $d: traces and FIEMAP disagree" >&2; }
	echo "${cfg%-*},${cfg##*-},$run,$ok" >>"$out/arrays-agree.csv"
done

# Medians (min-max) over the runs, read by column name (bench/csv.awk).
# median of the space-separated list s; also sets lo and hi
stats=$STATS_AWK'function med(s,	a, n) { n = split(s, a, " "); stats_sort(a, n)
		lo = a[1]; hi = a[n]; nn = n
		return stats_med(a, n) }'
awk -F, -v need="layout members run member class phase bytes_t0 bytes_t1 bytes_t2 drive_t0_us drive_t1_us drive_t2_us" "$CSV_AWK$stats"'
	$C["phase"] == "seq" {
		k = $C["layout"] "," $C["members"] "," $C["class"] "," $C["member"]
		if (!(k in seen)) { seen[k] = 1; order[++no] = k }
		for (t = 0; t < 3; t++) {
			v[k, t] = v[k, t] " " $C["bytes_t" t] / 1048576
			# the rate where at least 1 MiB of the class sits
			if ($C["bytes_t" t] >= 1048576 && $C["drive_t" t "_us"] > 0)
				r[k, t] = r[k, t] " " $C["bytes_t" t] / $C["drive_t" t "_us"]
		}
	}
	END {
		if (csv_bad) exit 2
		print "layout,members,class,member,mib_t0,mib_t1,mib_t2,mib_t0_min,mib_t0_max,mib_t2_min,mib_t2_max,runs,mb_s_t0,mb_s_t1,mb_s_t2"
		for (i = 1; i <= no; i++) {
			k = order[i]
			m0 = med(v[k, 0]); l0 = lo; h0 = hi; m1 = med(v[k, 1]); m2 = med(v[k, 2])
			printf "%s,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%d", k, m0, m1, m2, l0, h0, lo, hi, nn
			for (t = 0; t < 3; t++) printf ",%s", r[k, t] != "" ? sprintf("%.1f", med(r[k, t])) : ""
			print ""
		}
	}' "$runs_csv" >"$out/arrays-placement.csv" || failed=1
awk -F, -v need="layout members run member class phase bytes drive_us svc_p50_us svc_p99_us svc_mean_us seek_mean_us cyl_mean" "$CSV_AWK$stats"'
	# The array time of a sequential phase, from the members rows: RAID0
	# splits each 2 MiB read over all its members, which serve their
	# parts at once (the busiest member); dm-linear sends each read to one
	# member, one after another (the members added).
	$C["member"] != "all" && $C["phase"] == "seq" {
		r = $C["layout"] "," $C["members"] "," $C["class"] "," $C["run"]
		if (!(r in rb)) rorder[++nr] = r
		rb[r] += $C["bytes"]
		rsum[r] += $C["drive_us"]
		if ($C["drive_us"] > rmax[r]) rmax[r] = $C["drive_us"]
		rlay[r] = $C["layout"]
	}
	$C["member"] == "all" {
		k = $C["layout"] "," $C["members"] "," $C["class"]
		if (!(k in seen)) { seen[k] = 1; order[++no] = k }
		if ($C["phase"] != "seq") {
			p50[k] = p50[k] " " $C["svc_p50_us"] / 1000
			p99[k] = p99[k] " " $C["svc_p99_us"] / 1000
			mean[k] = mean[k] " " $C["svc_mean_us"] / 1000
			seek[k] = seek[k] " " $C["seek_mean_us"] / 1000
			cyl[k] = cyl[k] " " $C["cyl_mean"]
		}
	}
	END {
		if (csv_bad) exit 2
		for (i = 1; i <= nr; i++) {
			r = rorder[i]; k = r; sub(/,[^,]*$/, "", k)
			t = rlay[r] == "linear" ? rsum[r] : rmax[r]
			mbs[k] = mbs[k] " " (t > 0 ? rb[r] / t : 0)
		}
		print "layout,members,class,seq_mb_s,seq_mb_s_min,seq_mb_s_max,rand_p50_ms,rand_p50_ms_min,rand_p50_ms_max,rand_p99_ms,rand_mean_ms,rand_seek_ms,rand_cyl,runs"
		for (i = 1; i <= no; i++) {
			k = order[i]
			s = med(mbs[k]); sl = lo; sh = hi; n = nn
			p = med(p50[k]); pl = lo; ph = hi
			printf "%s,%.1f,%.1f,%.1f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.1f,%d\n", k, s, sl, sh, p, pl, ph, med(p99[k]), med(mean[k]), med(seek[k]), med(cyl[k]), n
		}
	}' "$runs_csv" >"$out/arrays-perf.csv" || failed=1

# The guest's clock beside the disk's: hc-arrayload's TAG-guest.csv of
# every finished run (each phase's bytes, reads and elapsed time in the
# guest, which under TCG adds its own overhead): sequential MB/s and mean
# time per random read, median and min-max over the runs
for d in $rundirs; do
	[ -f "$d/ok" ] || continue
	cfg=${d%/run*}; cfg=${cfg##*/}
	g=$(ls "$d"/*guest.csv 2>/dev/null | head -n 1)
	[ -s "$g" ] || { echo "bench/arrays-summarise.sh: $d: no guest.csv (hc-arrayload's)" >&2; failed=1; continue; }
	awk -F, -v need="class phase bytes reads guest_us" -v k="${cfg%-*},${cfg##*-}" "$CSV_AWK"'
		$C["guest_us"] > 0 { if ($C["phase"] == "seq") print k "," $C["class"] ",seq," $C["bytes"] / $C["guest_us"]
			else if ($C["reads"] > 0) print k "," $C["class"] ",rand," $C["guest_us"] / $C["reads"] / 1000 }
		END { if (csv_bad) exit 2 }' "$g" || failed=1
done | sort -t, -k1,4 -k5,5g | awk -F, "$STATS_AWK"'
	function flush() { if (n) printf "%s,%.2f,%.2f,%.2f,%d\n", k, stats_med(v, n), v[1], v[n], n }
	BEGIN { print "layout,members,class,phase,guest_med,guest_min,guest_max,runs" }
	$1 "," $2 "," $3 "," $4 != k { flush(); k = $1 "," $2 "," $3 "," $4; n = 0 }
	{ v[++n] = $5 } END { flush() }' >"$out/arrays-guest.csv"

# figures: hot vs cold (and unhinted) per array, median with min-max; the
# plot reads a row per array (arrays-fig-WHAT.csv)
for fig in seq rand; do
	case $fig in seq) cols="seq_mb_s seq_mb_s_min seq_mb_s_max" ;; rand) cols="rand_p50_ms rand_p50_ms_min rand_p50_ms_max" ;; esac
	awk -F, -v need="layout members class $cols" -v cols="$cols" "$CSV_AWK"'
		{ k = $C["members"] " x " $C["layout"]; if (!(k in seen)) { seen[k] = 1; order[++no] = k }
		  split(cols, c, " "); v[k, $C["class"]] = $C[c[1]] "," $C[c[2]] "," $C[c[3]] }
		END { if (csv_bad) exit 2
		  print "array,hot,hot_min,hot_max,cold,cold_min,cold_max,none,none_min,none_max"
		  for (i = 1; i <= no; i++) print order[i] "," v[order[i], "hot"] "," v[order[i], "cold"] "," v[order[i], "none"] }' \
		"$out/arrays-perf.csv" >"$out/arrays-fig-$fig.csv" || failed=1
	gnuplot -e "set loadpath '$top/plots'" -e "csv='$out/arrays-fig-$fig.csv'" -e "what='$fig'" \
		-e "out='$out/figures/arrays-$fig'" -e "fmt='png'" "$top/plots/arrays.gp" 2>"$raw/gnuplot-$fig.err" ||
		{ echo "bench/arrays.sh: gnuplot $fig: $(head -c 300 "$raw/gnuplot-$fig.err")" >&2; failed=1; }
done

"$top/bench/arrays-results.sh" "$out" >"$out/RESULTS.md.tmp" && mv "$out/RESULTS.md.tmp" "$out/RESULTS.md" ||
	{ echo "bench/arrays-summarise.sh: bench/arrays-results.sh failed; the page is not written" >&2; failed=1; }
exit $failed
