#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench/measures/arrays-summarise.sh OUT: the summaries, figures and page of a run of
# bench/runners/arrays.sh (raw runs in $BUILD/bench/arrays/$(basename OUT)/ or
# ARRAYS_RAW), with the measure "arrays" (bench/measures/measure-arrays.sh, which
# says what each file holds): OUT/arrays-*.csv, OUT/figures/, OUT/RESULTS.md.
# Exit status 0; 1 when a stage failed (named); 2 on bad input.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/bench/measures/lib.sh" || exit 2
. "$top/bench/measures/measures.sh" || exit 2
out=${1:?usage: bench/measures/arrays-summarise.sh OUT}
measure_load arrays || exit 2
failed=0
arrays_summarise "$out"
arrays_plots "$out"
arrays_page "$out" >"$out/RESULTS.md.tmp" && mv "$out/RESULTS.md.tmp" "$out/RESULTS.md" ||
	{ echo "bench/measures/arrays-summarise.sh: the page is not written" >&2; failed=1; }
exit $failed
