# SPDX-License-Identifier: GPL-2.0
# bench/measures.sh - sourced (bash) by bench/summarise.sh, plots.sh and
# results.sh, after bench/lib.sh and bench/scen.sh: the measures that have
# a file of their own.  A measure is a name in the measures column of
# bench/scenarios; bench/measure-NAME.sh, when it exists, is all of it:
#
#   NAME_summarise OUT   its summaries in OUT/summary/, CSV with a header
#                        row, from the finished runs (ok_run) of the
#                        scenarios that measure NAME (scen OUT NAME); a
#                        missing input is said by summarise.sh's need;
#                        non-zero when something failed
#   NAME_files           the summaries (in OUT/summary/) a finished scenario
#                        of NAME must have made: FILE, a row whose scenario
#                        column names it; FILE:any, any row at all
#   NAME_plots OUT       its figures, with plots.sh's draw and skip (optional)
#   NAME_headline OUT    its lines of the page's headline numbers (optional)
#   NAME_page OUT        its section of the page, Markdown on stdout, with
#                        results.sh's fig and tab (optional)
#
# The measures without a file are still summarise.sh's, plots.sh's and
# results.sh's own code.

# measures_of OUT: the measures of the run's scenarios (OUT/scenarios) that
# have a file, in the order of the table
measures_of() {
	local m
	for m in $(awk '!/^#/ && NF == 6 { n = split($6, a, ","); for (i = 1; i <= n; i++) if (a[i] !~ /=/ && !seen[a[i]]++) print a[i] }' "$1/scenarios"); do
		[ ! -f "$bench_lib_dir/measure-$m.sh" ] || echo "$m"
	done
}
# measure_load NAME: define NAME's functions
measure_load() {
	# shellcheck disable=SC1090
	. "$bench_lib_dir/measure-$1.sh" || { echo "bench/measures.sh: bench/measure-$1.sh does not load" >&2; return 2; }
	declare -F "$1_summarise" "$1_files" >/dev/null ||
		{ echo "bench/measures.sh: bench/measure-$1.sh defines no $1_summarise or $1_files" >&2; return 2; }
}
# measure_missing OUT NAME: a line for each summary NAME's finished
# scenarios should have made and did not
measure_missing() {
	local s f
	for s in $(scen "$1" "$2"); do
		grep -q "^$s [0-9]* ok$" "$1/status" 2>/dev/null || continue
		for f in $("$2_files"); do
			case $f in
			*:any) [ "$(wc -l 2>/dev/null <"$1/summary/${f%:any}" || echo 0)" -gt 1 ] ;;
			*) [ -n "$(csv_get "$1/summary/$f" scenario scenario="$s" 2>/dev/null)" ] ;;
			esac || echo "summary/${f%:any}: nothing for scenario $s ($2), which finished"
		done
	done
}
