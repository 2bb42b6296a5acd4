# SPDX-License-Identifier: GPL-2.0
# bench/measures/measures.sh - sourced (bash) by bench/measures/summarise.sh, plots.sh and
# results.sh, after bench/measures/lib.sh and bench/scen.sh.  A measure is a name in
# the measures column of bench/jobs/scenarios (a tag NAME=VALUE there is the
# measure NAME too: pair=seq is the measure "pair"); bench/measures/measure-NAME.sh
# is all of it, and the stages are loops over the measures a run selected:
#
#   NAME_summarise OUT   its summaries in OUT/summary/, CSV with a header
#                        row, from the finished runs (ok_run) of the
#                        scenarios that measure NAME (scen OUT NAME); a
#                        missing input is said by summarise.sh's need;
#                        non-zero when something failed
#   NAME_files           the summaries (in OUT/summary/) a finished scenario
#                        of NAME must have made: FILE, a row whose scenario
#                        column names it; FILE:any, any row at all
#   NAME_needs           the measures whose summaries NAME_summarise reads
#                        (summarised first when the run has them; optional)
#   NAME_plots OUT       its figures, with plots.sh's plot_of, draw and skip
#                        (optional)
#   NAME_headline OUT    its lines of the page's headline numbers (optional)
#   NAME_page OUT        its section of the page, Markdown on stdout, with
#                        results.sh's tab, fig, rows_for and env_of
#                        (optional)
#
# Every stage has already made what is common to every run (bench/
# summarise.sh): each run's fio.json, summary/disk.csv (hc-tracejoin's
# summary of every run, long format, read with csv_get/csv_mmm), the
# service-time CDFs (cdf-disk-SCENARIO-JOB.csv) and summary/zone-ratio.csv.

# measures_of OUT: the measures of the run's scenarios (OUT/scenarios) that
# have a file, in the order of the table
measures_of() {
	local m
	for m in $(awk '!/^#/ && NF == 6 { n = split($6, a, ","); for (i = 1; i <= n; i++) { sub(/=.*/, "", a[i]); if (!seen[a[i]]++) print a[i] } }' "$1/scenarios"); do
		[ ! -f "$bench_lib_dir/measure-$m.sh" ] || echo "$m"
	done
}
# measure_load NAME: define NAME's functions
measure_load() {
	# shellcheck disable=SC1090
	. "$bench_lib_dir/measure-$1.sh" || { echo "bench/measures/measures.sh: bench/measures/measure-$1.sh does not load" >&2; return 2; }
	declare -F "$1_summarise" "$1_files" >/dev/null ||
		{ echo "bench/measures/measures.sh: bench/measures/measure-$1.sh defines no $1_summarise or $1_files" >&2; return 2; }
}
# measures_load OUT: load every measure of the run; MEASURES: the ones that loaded
measures_load() {
	local m rc=0
	MEASURES=""
	for m in $(measures_of "$1"); do
		if measure_load "$m"; then MEASURES="$MEASURES $m"; else rc=2; fi
	done
	return $rc
}
# measure_call HOOK OUT...: NAME_HOOK of every loaded measure that has it
measure_call() {
	local h=$1 m rc=0
	shift
	for m in $MEASURES; do
		! declare -F "${m}_$h" >/dev/null || "${m}_$h" "$@" || rc=1
	done
	return $rc
}
# measures_summarise OUT: every loaded measure's summaries, each after the
# ones it needs
measures_summarise() {
	local m rc=0 done_=" " o=$1
	_ms_visit() {
		local d
		case $done_ in *" $1 "*) return 0 ;; esac
		done_="$done_$1 "
		if declare -F "$1_needs" >/dev/null; then
			for d in $("$1_needs"); do
				case " $MEASURES " in *" $d "*) _ms_visit "$d" ;; esac
			done
		fi
		"$1_summarise" "$o" || rc=1
	}
	for m in $MEASURES; do _ms_visit "$m"; done
	return $rc
}
# finished_runs OUT NAME: the runs (OUT/SCENARIO/runN) that bench/runners/run.sh
# finished (ok_run) of the scenarios that measure NAME, in the table's order
finished_runs() {
	local n d
	for n in $(scen "$1" "$2"); do
		for d in "$1/$n"/run*; do ! ok_run "$d" || echo "$d"; done
	done
}
# per_run OUT NAME FILE NEED PROGRAM: tab over FILE of every finished run
# of the scenarios that measure NAME, with n (the scenario) and r (runN)
# set; a FILE missing or empty is said (summarise.sh's need); non-zero
# when one failed
per_run() {
	local d rc=0
	for d in $(finished_runs "$1" "$2"); do
		need "$d/$3" || { rc=1; continue; }
		tab "$d/$3" "$4" "$5" -v n="$(basename "$(dirname "$d")")" -v r="$(basename "$d")" || rc=1
	done
	return $rc
}
# measure_missing OUT NAME: a line for each summary NAME's finished
# scenarios should have made and did not
measure_missing() {
	local s f
	for s in $(scen "$1" "$2"); do
		grep -q "^$s [0-9]* ok$" "$1/status" 2>/dev/null || continue
		for f in $("$2_files"); do
			case $f in
			*:any) has "$1/summary/${f%:any}" ;;
			*) [ -n "$(csv_get "$1/summary/$f" scenario scenario="$s" 2>/dev/null)" ] ;;
			esac || echo "summary/${f%:any}: nothing for scenario $s ($2), which finished"
		done
	done
}
