#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: the whole benchmark from a fresh clone, step by step, with the
# time left printed at every step (bench/runners/plan's costs, corrected by how long
# the steps done so far took).  The steps: the Debian packages, the two
# kernels, the tools, the create()+unlink() micro-benchmark, the hints
# against the alternatives (issue 26: the short version, or the long one
# with FULL=1), the arrays' page (FULL=1 only), then bench/runners/run.sh (ageing,
# every scenario, the page).
#
# Usage: bench/runners/bench.sh [--plan]   (make bench; make bench-plan for --plan,
#        which prints the plan, a line per step, and its total, and exits)
# Variables: QUICK=1 (a few minutes: small disk, few scenarios, no
#   create+unlink, no arrays; the page goes to build/bench-quick/ unless
#   RESULTS says otherwise), FULL=1 (the 64 GiB disk, every scenario, the
#   arrays' page: hours), BENCH_CCACHE=warm|cold (plan the kernels as
#   ccache hits or as cold builds; by default ccache's own count says),
#   BENCH_COMMAND (the command the page names), and
#   everything bench/runners/run.sh reads (RESULTS, SCENARIO, RUNS, BENCH_DISK, ...).
#   MAKE, BUILD as make sets them.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
. "$top/bench/measures/lib.sh" && lib_init BENCH bench/runners/bench.sh
QUICK=${QUICK:-0} FULL=${FULL:-0}
case $QUICK$FULL in 00|10|01) ;; 11) die "QUICK=1 and FULL=1: choose one" ;; *) die "QUICK='$QUICK' FULL='$FULL': use 0 or 1" ;; esac
export QUICK FULL
case ${BENCH_CCACHE:-} in ""|warm|cold) ;; *) die "BENCH_CCACHE='$BENCH_CCACHE': use warm or cold (or leave it unset)" ;; esac
if [ "$QUICK" = 1 ]; then out=$build/bench-quick; else out=$build/bench; fi
mk=${MAKE:-make}

# the steps before bench/runners/run.sh: "KEY KIND MAKE-TARGETS..."
# (KIND-warm when what the step makes is there already: make only checks it)
warm() { [ -e "$build/$1" ] && echo -warm; }
# a kernel not built yet: -ccache when ccache holds an earlier build (a clean
# clone on a host that built the kernels before compiles almost nothing),
# nothing when it is cold (a fresh machine).  BENCH_CCACHE=warm|cold says
# which instead of asking ccache (a kernel leaves about 3000 files there).
kwarm() {
	local w n
	w=$(warm "$1") && { echo "$w"; return; }
	case ${BENCH_CCACHE:-} in
	warm) echo -ccache ;;
	cold) ;;
	"") n=$(ccache --print-stats 2>/dev/null | awk '$1 == "files_in_cache" { print $2 }')
		[ "${n:-0}" -lt 2000 ] || echo -ccache ;;
	esac
}
# the packages: -warm when make has checked them before, -installed when
# every one is there already (a host that ran make in another clone)
dwarm() {
	warm .stamp-deps && return
	"$top/vm/lib/install-deps.sh" --check >/dev/null 2>&1 && echo -installed
}
steps() {
	echo "deps deps$(dwarm) deps"
	echo "kernel-patched kernel$(kwarm kbuild-patched/arch/x86/boot/bzImage) kernel-patched"
	echo "kernel-stock kernel$(kwarm kbuild-stock/arch/x86/boot/bzImage) kernel-stock"
	echo "tools tools$(warm bench-tools/hc-age) guest-tests engine-guest-root hdd bench-tools vm-initramfs"
	[ "$QUICK" = 1 ] || echo "create-unlink create-unlink kernel-bench-data"
	# issue 26's comparison, its page results/alternatives/ (linked from
	# RESULTS.md, which bench/runners/run.sh writes last)
	if [ "$FULL" = 1 ]; then echo "alternatives alternatives-full alternatives"
	elif [ "$QUICK" = 0 ]; then echo "alternatives alternatives alternatives-short"; fi
	[ "$FULL" = 0 ] || echo "arrays arrays arrays-bench"
}
plan() {
	steps | while read -r k kind _; do echo "plan $k $(plan_cost "$kind")"; done
	BZIMAGE_PATCHED=/dev/null BZIMAGE_STOCK=/dev/null "$top/bench/runners/run.sh" --plan "$out" || exit 2
}
if [ "${1:-}" = --plan ]; then
	p=$(plan) || exit 2
	echo "$p" | awk '{ printf "%-32s %5.1f min\n", $2, $3 / 60; t += $3 } END { printf "%-32s %5.1f min\n", "total", t / 60 }'
	exit 0
fi

mkdir -p "$out"
rm -f "$out/progress.log"
progress_init "$out/progress.log"
plan | while read -r _ k c; do progress_plan "$k" "$c"; done
stage "make bench: QUICK=$QUICK FULL=$FULL, plan $(awk '$1 == "plan" { t += $3 } END { printf "%.0f", t / 60 }' "$BENCH_PROGRESS") min (bench/runners/plan), into ${out#"$top"/}"
rc=0
while read -r k _ targets; do
	progress_begin "$k" "make $targets"
	# shellcheck disable=SC2086
	if ! "$mk" -C "$top" --no-print-directory $targets; then
		echo "bench/runners/bench.sh: make $targets failed" >&2
		# the kernels, the tools: nothing later can run without them
		case $k in create-unlink|arrays|alternatives) rc=1 ;; *) exit 1 ;; esac
	fi
	progress_end "$k"
done <<<"$(steps)"
# the create()+unlink() files go with the run's others (kernel-bench-data
# writes them into build/bench/)
[ "$QUICK" = 1 ] || [ "$out" = "$build/bench" ] || cp "$build"/bench/create-unlink-* "$out/" 2>/dev/null
BUILD=$build "$top/bench/runners/run.sh" "$out" || rc=1
stage "make bench: $(awk -v now="$(date +%s)" '$1 == "start" { printf "%.0f", (now - $2) / 60 }' "$BENCH_PROGRESS") min in all; the steps, planned and taken: ${out#"$top"/}/steps.csv"
exit $rc
