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
exit $rc
