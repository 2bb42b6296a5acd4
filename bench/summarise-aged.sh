#!/bin/bash
# The aged-filesystem scenarios of a benchmark run (those that measure
# "aged" in OUT/scenarios; a scenario whose first run failed is left to the
# page's list of failures): the state of each aged image and where each
# set of files landed, into OUT/summary/:
#   aged-state.csv     scenario,key,value: hc-age's state.txt, the ageing
#                      guest's env.txt (hint counters, e2fsck, df), the
#                      totals of e2freefrag
#   aged-freefrag.csv  scenario,range,extents,blocks,pct: e2freefrag's
#                      histogram of free extent sizes
#   aged-sets.csv      one row per scenario and set (from run 1's placement
#                      log; a set is the files named SET.K by hc-age):
#                      scenario,set,hint,files,extents_per_file,frac_first,
#                      frac_middle,frac_last,span_gib,pos_mean
# Inputs are read by column name.  Usage: bench/summarise-aged.sh OUT
set -u
out=${1:?usage: bench/summarise-aged.sh OUT}
sum=$out/summary
gib=$(sed -n 's/^disk=\([0-9]*\)G$/\1/p' "$out/run-env.txt" 2>/dev/null)
. "$(dirname "$0")/scen.sh" && scen_init "$out" || exit 2
. "$(dirname "$0")/lib.sh" || exit 2
rc=0
: >"$sum/aged-state.tmp" && : >"$sum/aged-freefrag.tmp" && : >"$sum/aged-sets.tmp"
for n in $(scen "$out" aged); do
	s=$out/$n a=$out/$n/aging
	ok_run "$s/run1" || continue
	for f in "$a/state.txt" "$a/env.txt" "$a/freefrag.txt" "$s/run1/placement.csv"; do
		[ -s "$f" ] || { echo "summarise-aged: $f missing or empty" >&2; rc=1; continue 2; }
	done
	cat "$a/state.txt" "$a/env.txt" | awk -F= -v n="$n" 'NF >= 2 { k = $1; sub(/^[^=]*=/, ""); gsub(/,/, ";"); print n "," k "," $0 }' >>"$sum/aged-state.tmp"
	awk -v n="$n" '
		/^Num\. free extent:/ { print n ",freefrag_extents," $4 }
		/^Avg\. free extent:/ { print n ",freefrag_avg_kib," $4 }
		/^Max\. free extent:/ { print n ",freefrag_max_kib," $4 }
		/^Free blocks:/ { print n ",freefrag_free_blocks," $3 }' "$a/freefrag.txt" >>"$sum/aged-state.tmp"
	awk -v n="$n" '/^HISTOGRAM/ { h = 1; next } h && /\.\.\./ && /:/ {
		split($0, p, ":"); r = p[1]; gsub(/ /, "", r); split(p[2], v, " ")
		print n "," r "," v[1] "," v[2] "," v[3] }' "$a/freefrag.txt" >>"$sum/aged-freefrag.tmp"
	awk -F, -v n="$n" -v g="${gib:-64}" '
		FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
			split("kind file hotness extents bytes_first bytes_middle bytes_last pos_start pos_end", m, " ")
			for (k in m) if (!(m[k] in c)) { print "summarise-aged: " FILENAME ": no column " m[k] > "/dev/stderr"; bad = 1; exit 1 }
			next }
		$c["kind"] != "file" || $c["extents"] == "" || ($c["file"] in seen) { next }
		{ seen[$c["file"]] = 1; b = $c["file"]; sub(/.*\//, "", b); set = b; sub(/\.[0-9]+$/, "", set)
			if (set == b) next
			h[set] = $c["hotness"]; nf[set]++; ex[set] += $c["extents"]
			f[set] += $c["bytes_first"]; m2[set] += $c["bytes_middle"]; l[set] += $c["bytes_last"]
			if (!(set in lo) || $c["pos_start"] < lo[set]) lo[set] = $c["pos_start"]
			if ($c["pos_end"] > hi[set]) hi[set] = $c["pos_end"]
			pm[set] += ($c["pos_start"] + $c["pos_end"]) / 2 }
		END { if (bad) exit 1
			for (x in nf) { t = f[x] + m2[x] + l[x]; if (t == 0) t = 1
			printf "%s,%s,%s,%d,%.2f,%.3f,%.3f,%.3f,%.2f,%.4f\n", n, x, h[x], nf[x], ex[x] / nf[x],
				f[x] / t, m2[x] / t, l[x] / t, (hi[x] - lo[x]) * g, pm[x] / nf[x] } }' \
		"$s/run1/placement.csv" >>"$sum/aged-sets.tmp" || rc=1
done
{ echo "scenario,key,value"; cat "$sum/aged-state.tmp"; } >"$sum/aged-state.csv"
{ echo "scenario,range,extents,blocks,pct"; cat "$sum/aged-freefrag.tmp"; } >"$sum/aged-freefrag.csv"
{ echo "scenario,set,hint,files,extents_per_file,frac_first,frac_middle,frac_last,span_gib,pos_mean"
	sort -t, -k1,1 -k2,2 "$sum/aged-sets.tmp"; } >"$sum/aged-sets.csv"
rm -f "$sum"/aged-*.tmp

# For the figures, one row per fullness (fill = the scenario's number; the
# aged-FILL-reserve scenarios are not in them, RESULTS.md sets them beside
# aged-FILL in a table):
#   aged-thirds.csv  fill, then SET_first and SET_last (fraction of the
#                    set's bytes in the first / last third) for H C N H2 N2
#   aged-seq.csv     fill, then HS CS NS sequential MB/s on the disk's clock
#                    (median, min, max of the runs; hc-tracejoin) and fio's
awk -F, 'NR > 1 { f = $1; sub(/^aged-/, "", f); if (f !~ /^[0-9]+$/) next; v[f "," $2 ",first"] = $6; v[f "," $2 ",last"] = $8; fills[f] = 1 }
	END { printf "fill"; split("H C N H2 N2", S, " ")
		for (i = 1; i <= 5; i++) printf ",%s_first,%s_last", S[i], S[i]; print ""
		for (f in fills) { printf "%s", f; for (i = 1; i <= 5; i++) printf ",%s,%s", v[f "," S[i] ",first"], v[f "," S[i] ",last"]; print "" } }' \
	"$sum/aged-sets.csv" | { read -r h; echo "$h"; sort -n; } >"$sum/aged-thirds.csv"
awk -F, 'FILENAME ~ /disk.csv$/ && $1 ~ /^aged-/ && $4 == "disk_mb_s" && $2 ~ /^[HCN]S-read$/ {
		f = $1; sub(/^aged-/, "", f); if (f !~ /^[0-9]+$/) next; j = substr($2, 1, 2); d[f "," j] = $5 "," $6 "," $7; fills[f] = 1 }
	FILENAME ~ /seq.csv$/ && $1 ~ /^aged-/ && $2 ~ /^[HCN]S-read$/ {
		f = $1; sub(/^aged-/, "", f); if (f !~ /^[0-9]+$/) next; j = substr($2, 1, 2); q[f "," j] = $3 }
	END { print "fill,HS_disk,HS_min,HS_max,CS_disk,CS_min,CS_max,NS_disk,NS_min,NS_max,HS_fio,CS_fio,NS_fio"
		for (f in fills) printf "%s,%s,%s,%s,%s,%s,%s\n", f, d[f ",HS"], d[f ",CS"], d[f ",NS"], q[f ",HS"], q[f ",CS"], q[f ",NS"] }' \
	"$sum/disk.csv" "$sum/seq.csv" | { read -r h; echo "$h"; sort -n; } >"$sum/aged-seq.csv"

# ---- the page's answer (bench/results-answer.sh): per aged scenario and
# run (= ageing seed), the random-read service time p50 on the disk's clock
# of each set alone and of the pairs, and their ratios; the scenario's
# kernel and fullness from OUT/scenarios, never from its name.
#   aged-ratios-runs.csv  scenario,kernel,fill,reserve,run,seed,reads,H_ms,C_ms,N_ms,
#                         pair_hc_ms,pair_nn_ms,hn,cn,pair
#   aged-ratios.csv       kernel,fill,reserve,metric,median,min,max,seeds
#                         (metric: hn, cn, pair, H_ms, C_ms, N_ms)
{ echo "scenario,kernel,fill,reserve,run,seed,reads,H_ms,C_ms,N_ms,pair_hc_ms,pair_nn_ms,hn,cn,pair"
for n in $(scen "$out" aged); do
	read -r kern fill <<<"$(awk -v n="$n" '!/^#/ && $1 == n { print $2, $4 }' "$out/scenarios")"
	res=off; case $fill in *+reserve) res=on ;; esac
	for d in "$out/$n"/run*; do
		ok_run "$d" || continue
		r=$(basename "$d")
		seed=$(sed -n 's/^aged_seed=//p' "$d/aging/env.txt" 2>/dev/null | tail -n 1)
		[ -n "$seed" ] || seed=$(sed -n 's/^seed=//p' "$out/$n/aging/state.txt" 2>/dev/null | head -n 1)
		awk -F, -v n="$n" -v r="$r" -v k="$kern" -v f="${fill%%+*}" -v res="$res" -v seed="$seed" '
			$1 == n && $2 == r && $5 == "service_p50_ms" { v[$3] = $6 }
			END { if (!("H" in v) || !("N" in v) || !("C" in v)) exit 0
				hc = (v["hc-hot"] + v["hc-cold"]) / 2; nn = (v["nn-a"] + v["nn-b"]) / 2
				printf "%s,%s,%s,%s,%s,%s,,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%s\n", n, k, f, res, r, seed,
					v["H"], v["C"], v["N"], hc, nn, v["H"] / v["N"], v["C"] / v["N"], (nn > 0 ? sprintf("%.4f", hc / nn) : "") }' \
			"$sum/disk-runs.csv" | awk -F, -v OFS=, -v rd="$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["job"] == "N" { print $c["reads"] }' "$d/join-summary.csv" 2>/dev/null)" '{ $7 = rd; print }'
	done
done; } >"$sum/aged-ratios-runs.csv"
{ echo "kernel,fill,reserve,metric,median,min,max,seeds"
	awk -F, -v need="kernel fill reserve hn cn pair H_ms C_ms N_ms" "$CSV_AWK"'
		{ split("hn cn pair H_ms C_ms N_ms", m, " ")
			for (i = 1; i <= 6; i++) if ($C[m[i]] != "") print $C["kernel"] ":" $C["fill"] ":" $C["reserve"] ":" m[i] "," $C[m[i]] }
		END { if (csv_bad) exit 2 }' "$sum/aged-ratios-runs.csv" | stats | tr : , | sort -t, -k1,1 -k2,2n -k3,3 -k4,4; } >"$sum/aged-ratios.csv" || rc=1
# the answer's figure (plots/bench-answer.gp): one row per fullness, median
# min max of H/N and C/N with the reserve off and on (patched kernel), and
# H/N on the stock kernel; NaN where the run has no such scenario
awk -F, 'NR > 1 { k = $1 ":" $3; if ($1 == "stock") k = "stock"
		if ($4 == "hn" || $4 == "cn") { v[$2 "," $4 ":" k] = $5 "," $6 "," $7; fills[$2] = 1 } }
	END { print "fill,hn_off,hn_off_min,hn_off_max,hn_on,hn_on_min,hn_on_max,cn_off,cn_off_min,cn_off_max,cn_on,cn_on_min,cn_on_max,hn_stock,hn_stock_min,hn_stock_max"
		split("hn:patched:off hn:patched:on cn:patched:off cn:patched:on hn:stock", c, " ")
		for (f in fills) { printf "%s", f; for (i = 1; i <= 5; i++) printf ",%s", ((f "," c[i]) in v) ? v[f "," c[i]] : "NaN,NaN,NaN"; print "" } }' \
	"$sum/aged-ratios.csv" | { read -r h; echo "$h"; sort -n; } >"$sum/aged-answer.csv"
exit $rc
