#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Draw the figures of a benchmark run with plots/bench-*.gp, PNG and SVG,
# into OUT/figures/ from the CSVs of OUT/summary/ (bench/measures/summarise.sh):
# each measure of the run's scenarios draws its own (NAME_plots,
# bench/measures/measures.sh).  A figure whose input the run did not make is
# skipped with a note.
# Usage: bench/measures/plots.sh OUT
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: bench/measures/plots.sh OUT}
fig=$out/figures
mkdir -p "$fig"
command -v gnuplot >/dev/null || { echo "plots: gnuplot missing (vm/lib/install-deps.sh plot)" >&2; exit 2; }
. "$top/bench/measures/lib.sh" || exit 2
. "$top/bench/measures/scen.sh" && scen_init "$out" || exit 2
. "$top/bench/measures/measures.sh" || exit 2
rc=0

# draw NAME SCRIPT GNUPLOT-ASSIGNMENTS...: figures/NAME.png and .svg
draw() {
	local name=$1 gp=$2 t; shift 2
	for t in png svg; do
		gnuplot -e "set loadpath '$top/plots'" "$@" -e "out='$fig/$name'" -e "fmt='$t'" \
			"$top/plots/$gp" 2>"$fig/$name.$t.log" ||
			{ echo "plots: plots/$gp failed for $name.$t:" >&2; cat "$fig/$name.$t.log" >&2; rc=1; continue; }
		[ -s "$fig/$name.$t.log" ] || rm -f "$fig/$name.$t.log"
	done
}
# skip NAME INPUT: a figure the run has no input for
skip() { echo "  PLOT    $1: skipped (no $2 in this run)"; }
# plot_of CSV NAME SCRIPT GNUPLOT-ASSIGNMENTS...: draw, when CSV has rows
plot_of() { local f=$1; shift; if has "$f"; then draw "$@"; else skip "$1" "${f##*/}"; fi; }

measures_load "$out" || rc=1
measure_call plots "$out" || rc=1
ls "$fig"/*.png "$fig"/*.svg 2>/dev/null | sed 's/^/  PLOT    /'
exit $rc
