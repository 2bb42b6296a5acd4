# SPDX-License-Identifier: GPL-2.0
# bench/measures/lib.sh - sourced (bash) by the benchmark's host stages: the runners
# (run.sh, arrays.sh, scaleout.sh), the summarisers and the page writers.
# The one copy of what they share:
#
#   lib_init TAG NAME  TAG heads stage's lines (BENCH, ARRAYS, SCALE), NAME
#                      die's messages (bench/runners/run.sh); the clock starts
#   die MSG            "NAME: MSG" on stderr, exit 2 (bad input)
#   stage MSG          "  TAG     [  12s] MSG" on stdout: seconds since lib_init
#   ok_run OUT/SCEN/runN
#                      true when bench/runners/run.sh finished that run (OUT/status
#                      has "SCEN N ok"); a failed run's files are not read
#   stats              "key,value" lines in, "key,median,min,max,n" out, a
#                      line per key, sorted by key (%.6g)
#   median_table FILE KEYS COLUMNS
#                      FILE's rows grouped by the KEYS columns (space-
#                      separated names): "KEYS...,C_median,C_min,C_max" for
#                      each C of COLUMNS (space-separated; empty values left
#                      out), then "runs" (the group's rows), with its
#                      header, sorted, on stdout; a missing column is
#                      named, status 2
#   mmm MED MIN MAX [NONE]
#                      the one "median (min-max)" of the pages: "%.2f", or
#                      "%.2f (%.2f-%.2f)" when MIN and MAX differ at %.2f;
#                      NONE (default empty) when MED is empty
#   csv_mmm FILE COLUMN [KEY=VALUE]...
#                      mmm of COLUMN_median, _min, _max (a median_table's)
#                      of the first row with those values; "-" when none
#   aim MED MIN MAX le|ge LIMIT
#                      "met" when the whole range MIN-MAX is at or below
#                      (le) / at or above (ge) LIMIT, "not met" when none
#                      of it is, "not met: the range straddles LIMIT",
#                      "not measured" when MED is empty
#   has FILE           true when the CSV FILE exists with a row under its header
#   r2 V               V as "%.2f"; "n/a" when V is empty
#   ratio A B          A / B as "%.3f"; "n/a" when A or B is empty or B <= 0
#   csv_get FILE COLUMN [KEY=VALUE]...
#                      COLUMN of the first row whose KEY columns have those
#                      values, by column name (bench/measures/csv.awk); nothing when
#                      FILE does not exist (a partial run still gets its
#                      page); a missing column is named, status 2
#   tab FILE NEED PROGRAM [AWK OPTIONS]
#                      an awk PROGRAM over FILE read by column name ($C[name],
#                      bench/measures/csv.awk; NEED: the columns it must have), with
#                      STATS_AWK's functions; a missing column is named,
#                      status 2
#   progress_init FILE  the plan of a whole `make bench` (bench/runners/plan's costs)
#                      and the time left (a log, below); a FILE that exists
#                      is kept (bench/runners/bench.sh made it, run.sh adds to it)
#   progress_plan KEY S  one more planned step, expected to take S seconds
#   progress_begin KEY MSG
#                      stage's line, with the step's place in the plan and the
#                      time left: the expected seconds of the steps not done,
#                      times (actual / expected) of the steps done so far
#   progress_table     "step,expected_min,actual_min" of the plan so far
#   progress_end KEY [DIVISOR]
#                      the step took (now - its begin) / DIVISOR seconds (a
#                      DIVISOR of 2 for a step that shared the wall clock)
#   plan_cost KIND [GIB]  bench/runners/plan's seconds for one KIND step (GIB: the
#                      GiB of data an ageing step writes, for the per-GiB rows)
#   CSV_AWK            bench/measures/csv.awk's text, for awk programs of one's own
#   STATS_AWK          the same statistics as awk functions, for programs of
#                      one's own: stats_sort(a, n) sorts a[1..n] as numbers;
#                      stats_med(a, n) the median of a sorted a[1..n];
#                      mmm(med, min, max) the formatter above
bench_lib_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CSV_AWK=$(cat "$bench_lib_dir/csv.awk") || { echo "bench/measures/lib.sh: $bench_lib_dir/csv.awk missing" >&2; exit 2; }
STATS_AWK='
function stats_sort(a, n,	i, j, t) {
	for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
}
function stats_med(a, n) { return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
function mmm(m, lo, hi) { return mmmf(m, lo, hi, "%.2f") }
function mmmf(m, lo, hi, f) { return (sprintf(f, lo) == sprintf(f, hi)) ? sprintf(f, m) : sprintf(f " (" f "-" f ")", m, lo, hi) }
'
bench_tag=BENCH bench_name=$(basename "$0") bench_t0=$(date +%s)

lib_init() {
	bench_tag=$1 bench_name=$2 bench_t0=$(date +%s)
}
die() { echo "$bench_name: $*" >&2; exit 2; }
stage() { printf '  %-7s [%4ds] %s\n' "$bench_tag" $(($(date +%s) - bench_t0)) "$*"; }

ok_run() {
	local d=${1%/} n r
	n=$(basename "$(dirname "$d")") r=${d##*/run}
	grep -qx "$n $r ok" "$(dirname "$(dirname "$d")")/status" 2>/dev/null
}

stats() {
	sort -t, -k1,1 -k2,2g | awk -F, "$STATS_AWK"'
		function flush() { if (n) printf "%s,%.6g,%.6g,%.6g,%d\n", k, stats_med(v, n), v[1], v[n], n }
		$1 != k { flush(); k = $1; n = 0 } { v[++n] = $2 } END { flush() }'
}

median_table() {
	local f=$1 keys=$2 v=$3
	awk -F, -v need="$keys $v" -v keys="$keys" -v vals="$v" "$CSV_AWK$STATS_AWK"'
		BEGIN { nk = split(keys, K, " "); nv = split(vals, V, " ") }
		{ k = $C[K[1]]; for (i = 2; i <= nk; i++) k = k "," $C[K[i]]
			n[k]++; for (i = 1; i <= nv; i++) x[k, i, n[k]] = $C[V[i]] }
		END { if (csv_bad) exit 2
			h = keys; gsub(/ /, ",", h); for (i = 1; i <= nv; i++) h = h "," V[i] "_median," V[i] "_min," V[i] "_max"
			print h ",runs"; fflush()
			for (k in n) { l = k
				for (i = 1; i <= nv; i++) { m = 0; delete a
					for (r = 1; r <= n[k]; r++) if (x[k, i, r] != "") a[++m] = x[k, i, r] + 0
					stats_sort(a, m); l = l (m ? sprintf(",%.6g,%.6g,%.6g", stats_med(a, m), a[1], a[m]) : ",,,") }
				print l "," n[k] | "LC_ALL=C sort -t, -k1,1 -k2,2 -k3,3 -k4,4" }
			close("LC_ALL=C sort -t, -k1,1 -k2,2 -k3,3 -k4,4") }' "$f"
}

mmm() {
	[ -n "$1" ] || { printf '%s' "${4:-}"; return 0; }
	awk -v a="$1" -v b="$2" -v c="$3" "$STATS_AWK"'BEGIN { printf "%s", mmm(a, b, c) }'
}

csv_mmm() {
	local f=$1 c=$2 kv need="$2_median $2_min $2_max"
	shift 2
	for kv in "$@"; do need="$need ${kv%%=*}"; done
	[ -e "$f" ] || { printf -- -; return 0; }
	awk -F, -v need="$need" -v c="$c" -v cond="$*" "$CSV_AWK$STATS_AWK"'
		BEGIN { nc = split(cond, cs, " ")
			for (i = 1; i <= nc; i++) { p = index(cs[i], "="); ck[i] = substr(cs[i], 1, p - 1); cv[i] = substr(cs[i], p + 1) } }
		{ for (i = 1; i <= nc; i++) if ($C[ck[i]] != cv[i]) next
			if ($C[c "_median"] != "") { printf "%s", mmm($C[c "_median"], $C[c "_min"], $C[c "_max"]); f = 1 }; exit }
		END { if (csv_bad) exit 2; if (!f) printf "-" }' "$f"
}

aim() {
	awk -v m="$1" -v lo="$2" -v hi="$3" -v o="$4" -v l="$5" 'BEGIN { if (m == "" || m == "n/a") { print "not measured"; exit }
		if (lo == "") lo = m; if (hi == "") hi = m
		if ((o == "le" && hi <= l) || (o == "ge" && lo >= l)) print "met"
		else if ((o == "le" && lo > l) || (o == "ge" && hi < l)) print "not met"
		else print "not met: the range straddles " l }'
}

has() { [ "$(wc -l 2>/dev/null <"$1" || echo 0)" -gt 1 ]; }

r2() { awk -v a="$1" 'BEGIN { if (a == "") print "n/a"; else printf "%.2f", a }'; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b != "" && b > 0) printf "%.3f", a / b; else print "n/a" }'; }

csv_get() {
	local f=$1 want=$2 kv need=$2
	shift 2
	for kv in "$@"; do need="$need ${kv%%=*}"; done
	[ -e "$f" ] || return 0
	awk -F, -v need="$need" -v want="$want" -v cond="$*" "$CSV_AWK"'
		BEGIN { nc = split(cond, cs, " ")
			for (i = 1; i <= nc; i++) { p = index(cs[i], "="); ck[i] = substr(cs[i], 1, p - 1); cv[i] = substr(cs[i], p + 1) } }
		{ for (i = 1; i <= nc; i++) if ($C[ck[i]] != cv[i]) next
			print $C[want]; exit }
		END { if (csv_bad) exit 2 }' "$f"
}

tab() {
	local f=$1 need=$2 prog=$3
	shift 3
	awk -F, -v need="$need" "$@" "$CSV_AWK$STATS_AWK$prog"' END { if (csv_bad) exit 2 }' "$f"
}

# cu_summary RUNS_CSV: the create()+unlink() benchmark (bench/runners/kernel-bench.sh)
# summarised per mode, a CSV on stdout: the rates of each kernel, median min
# max across boots; patched/stock, the ratio within each boot pair; vs_none,
# the patched kernel's rate for the mode over its unhinted rate in the same
# boot; boots (pairs), files per mode and boot (measured) and their rounds.
cu_summary() {
	tab "$1" "boot kernel mode files rounds rate" '
		{ r[$C["boot"] "," $C["kernel"] "," $C["mode"]] = $C["rate"]; b[$C["boot"]] = 1; m[$C["mode"]] = 1; fl[$C["mode"]] = $C["files"]; rd[$C["mode"]] = $C["rounds"] }
		function put(a, n) { stats_sort(a, n); return n ? sprintf("%.6g,%.6g,%.6g", stats_med(a, n), a[1], a[n]) : ",," }
		END { if (csv_bad) exit 2
			print "mode,patched_median,patched_min,patched_max,stock_median,stock_min,stock_max,ps_median,ps_min,ps_max,vs_none_median,vs_none_min,vs_none_max,boots,files,rounds"
			split("none hot cold", M, " ")
			for (i = 1; i <= 3; i++) { x = M[i]; if (!(x in m)) continue
				np = ns = nr = nv = 0; delete P; delete S; delete R; delete V
				for (k in b) {
					p = r[k ",patched," x]; s = r[k ",stock," x]; p0 = r[k ",patched,none"]
					if (p != "") P[++np] = p; if (s != "") S[++ns] = s
					if (p != "" && s > 0) R[++nr] = p / s; if (p != "" && p0 > 0) V[++nv] = p / p0 }
				printf "%s,%s,%s,%s,%s,%d,%s,%s\n", x, put(P, np), put(S, ns), put(R, nr), put(V, nv), nr, fl[x], rd[x] } }'
}

# code_commit: the repository's short HEAD, with " (with uncommitted changes)"
# when a tracked file differs; the pages and figures a run writes (RESULTS.md,
# plots/, results/) are not changes to the code that ran
code_commit() {
	local top
	top=$(cd "$bench_lib_dir/../.." && pwd)
	echo "$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$top" status --porcelain -uno 2>/dev/null | grep -vE ' (RESULTS\.md|plots/(figures|data)/.*|results/.*)$' | grep -q . && echo ' (with uncommitted changes)')"
}

# ---- progress: the plan (bench/runners/plan) and the time left.  BENCH_PROGRESS
# is a log of lines appended (so that steps run at once may write it):
# "start EPOCH", "plan KEY SECONDS", "begin KEY EPOCH", "end KEY SECONDS".
plan_cost() {
	awk -v k="$1" -v g="${2:-0}" '!/^#/ && $1 == k { if ($3 == "per-gib") printf "%d", $2 * 60 * g; else printf "%d", $2 * 60; f = 1; exit }
		END { if (!f) { print "bench/runners/plan: no stage " k > "/dev/stderr"; exit 2 } }' "$bench_lib_dir/../runners/plan"
}
progress_init() {
	BENCH_PROGRESS=$1
	export BENCH_PROGRESS
	[ -s "$BENCH_PROGRESS" ] || echo "start $(date +%s)" >"$BENCH_PROGRESS"
}
progress_plan() {
	[ -n "${BENCH_PROGRESS:-}" ] || return 0
	grep -q "^plan $1 " "$BENCH_PROGRESS" || echo "plan $1 $2" >>"$BENCH_PROGRESS"
}
# progress_left KEY: "I N LEFT_S ELAPSED_S PLAN_S": KEY's place I of N steps,
# the seconds left (the expected seconds of the steps not ended, times
# (actual + 600) / (expected + 600) of the steps ended, less what a begun one
# has run), the seconds since the start, the plan's total.  The 600 s on each
# side keep one short step from scaling the rest: a 3-minute step done in 37 s
# made the whole plan look half as long.
progress_left() {
	awk -v k="$1" -v now="$(date +%s)" '
		$1 == "start" { t0 = $2 }
		$1 == "plan" { n++; if ($2 == k) i = n; e[$2] = $3; tot += $3 }
		$1 == "begin" { b[$2] = $3 }
		$1 == "end" { a[$2] = $3 }
		END { for (x in e) if (x in a) { de += e[x]; da += a[x] }
			f = (da + 600) / (de + 600); if (f < 0.5) f = 0.5; if (f > 4) f = 4
			for (x in e) if (!(x in a)) { r = e[x] * f; if (x in b) { r -= now - b[x]; if (r < 0) r = 0 }; left += r }
			printf "%d %d %d %d %d\n", i, n, left, now - t0, tot }' "$BENCH_PROGRESS"
}
progress_begin() {
	local k=$1 i n left el tot
	shift
	if [ -z "${BENCH_PROGRESS:-}" ] || ! grep -q "^plan $k " "$BENCH_PROGRESS"; then stage "$*"; return 0; fi
	echo "begin $k $(date +%s)" >>"$BENCH_PROGRESS"
	read -r i n left el tot <<<"$(progress_left "$k")"
	printf '  %-7s [%3dm%02ds] %d/%d %s; about %d min left (plan %d min)\n' "$bench_tag" $((el / 60)) $((el % 60)) "$i" "$n" "$*" \
		$(((left + 59) / 60)) $(((tot + 59) / 60))
}
progress_end() {
	local k=$1 d=${2:-1} b
	[ -n "${BENCH_PROGRESS:-}" ] || return 0
	b=$(awk -v k="$k" '$1 == "begin" && $2 == k { t = $3 } END { print t }' "$BENCH_PROGRESS")
	[ -n "$b" ] || return 0
	echo "end $k $((($(date +%s) - b) / d))" >>"$BENCH_PROGRESS"
}
# progress_table: "step,expected_min,actual_min" for every planned step
progress_table() {
	[ -s "${BENCH_PROGRESS:-}" ] || return 0
	awk '$1 == "plan" { o[++n] = $2; e[$2] = $3 } $1 == "end" { a[$2] = $3 }
		END { print "step,expected_min,actual_min"
			for (i = 1; i <= n; i++) printf "%s,%.1f,%s\n", o[i], e[o[i]] / 60, (o[i] in a) ? sprintf("%.1f", a[o[i]] / 60) : "" }' "$BENCH_PROGRESS"
}
