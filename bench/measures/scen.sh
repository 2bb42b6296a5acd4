# SPDX-License-Identifier: GPL-2.0
# bench/measures/scen.sh - sourced by bench/measures/summarise.sh, plots.sh and results.sh:
# which of a run's scenarios measure what.  bench/runners/run.sh copies the rows of
# bench/jobs/scenarios it selected to OUT/scenarios (name kernel job fill quick
# measures); these functions read that copy, never a list of their own.

# scen_init OUT: OUT/scenarios must exist.  A run made before bench/runners/run.sh
# wrote it has its names in run-env.txt (scenarios=...): the rows are then
# taken from bench/jobs/scenarios for those names, and that is said.
scen_init() {
	local o=$1 names t
	[ -s "$o/scenarios" ] && return 0
	names=$(sed -n 's/^scenarios=//p' "$o/run-env.txt" 2>/dev/null | tail -n 1)
	t=$(cd "$(dirname "${BASH_SOURCE[0]}")/../jobs" && pwd)/scenarios
	[ -n "$names" ] && [ -r "$t" ] ||
		{ echo "bench: $o/scenarios missing (bench/runners/run.sh writes it) and no scenarios= in $o/run-env.txt" >&2; return 2; }
	echo "bench: $o/scenarios missing (a run of an older bench/runners/run.sh): rows for '$names' taken from bench/jobs/scenarios" >&2
	{ echo "# name kernel job fill quick measures (bench/jobs/scenarios, for the run's scenarios=)"
		awk -v l="$names" 'BEGIN { n = split(l, w, " "); for (i = 1; i <= n; i++) want[w[i]] = 1 }
			!/^#/ && NF == 6 && ($1 in want)' "$t"; } >"$o/scenarios"
}

# scen OUT MEASURE [fresh|aged]: the names of the scenarios that measure
# MEASURE (or carry the tag MEASURE=VALUE), on a fresh or an aged
# filesystem only, in the table's order
scen() {
	awk -v m="$2" -v f="${3:-}" '!/^#/ && NF == 6 {
		if ((f == "fresh" && $4 != "0") || (f == "aged" && $4 == "0")) next
		n = split($6, a, ","); for (i = 1; i <= n; i++) if (a[i] == m || index(a[i], m "=") == 1) { print $1; next } }' "$1/scenarios"
}

# scen_col OUT NAME COLUMN: a column of scenario NAME's row (kernel, job,
# fill, quick, measures)
scen_col() {
	awk -v n="$2" -v c="$3" 'BEGIN { split("name kernel job fill quick measures", h, " "); for (i in h) k[h[i]] = i }
		!/^#/ && NF == 6 && $1 == n { print $k[c]; exit }' "$1/scenarios"
}

# scen_pairs OUT MEASURE: "PATCHED STOCK" for each scenario that measures
# MEASURE and names its pair (pair=NAME), the patched-kernel one first
scen_pairs() {
	awk -v m="$2" '!/^#/ && NF == 6 { n = split($6, a, ","); has = 0; p = ""
		for (i = 1; i <= n; i++) { if (a[i] == m) has = 1; if (a[i] ~ /^pair=/) p = substr(a[i], 6) }
		if (has && p != "") print ($2 == "stock") ? p " " $1 : $1 " " p }' "$1/scenarios"
}

# scen_headline OUT MEASURE: "NAME A B" for the first scenario that measures
# MEASURE and names its page's headline pair (headline=A/B: the ratio of
# job A to job B, e.g. headline=hot-read/cold-read); nothing when none does
scen_headline() {
	awk -v m="$2" '!/^#/ && NF == 6 { n = split($6, a, ","); has = 0; h = ""
		for (i = 1; i <= n; i++) { if (a[i] == m) has = 1; if (a[i] ~ /^headline=[^\/]+\/[^\/]+$/) h = substr(a[i], 10) }
		if (has && h != "") { sub(/\//, " ", h); print $1 " " h; exit } }' "$1/scenarios"
}

# scen_jobs OUT MEASURE [fresh|aged]: the job files of the scenarios that
# measure MEASURE, "bench/a.fio, bench/b.fio", each once, in the table's order
scen_jobs() {
	local n
	for n in $(scen "$@"); do scen_col "$1" "$n" job; done |
		awk '{ sub(/:.*/, ""); if (!seen[$0]++) printf "%sbench/jobs/%s", (k++ ? ", " : ""), $0 }'
}
