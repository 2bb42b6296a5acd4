#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# One shard of an fstests group in one mode: the K-th of N fixed slices of
# the group (vm/fstests/group-list.sh), run as one guest by vm/fstests/run.sh,
# its per-test results kept as a small CSV under results/fstests/MODE/ so
# that shards run in different sessions add up (vm/fstests/shards-report.sh
# merges them into results/fstests/RESULTS.md).
#
# Usage: vm/fstests/shard.sh MODE K/N
#        vm/fstests/shard.sh --check "MODE..." K/N   (only checks the arguments)
#   MODE   stock        the stock kernel, unhinted
#          patched      the patched kernel, unhinted
#          patched-hot  the patched kernel, check and all it runs under the
#                       preload library with HOTCOLD=hot (every create hinted
#                       hot), TEST_DEV and SCRATCH_DEV mounted with
#                       region_reserve=1
#          patched-colddir  the patched kernel, unhinted, TEST_DIR's root
#                       directory marked cold (system.hotcold, patch 12):
#                       what the tests create under TEST_DIR is hinted cold
#   K/N    the K-th (1..N) of N slices
# Writes RESULTS_DIR/MODE/shard-K-of-N.csv, one row per test:
#   test,mode,result,reason,seconds,kernel,fstests,finished
#   result  pass|fail|notrun; reason: fstests' notrun reason or failure summary
#   kernel  "stock", or "patched@TREE": TREE the git tree hash (12 digits)
#           of kernel-patches/ (the series and vm.config) as the kernel was
#           built from it, uncommitted changes included (series_tree);
#           finished: UTC, ISO 8601
# RESULTS_DIR/MODE/shard-K-of-N.txt: the run's facts (wall time, commit,
#   kernel release, guest exit, tests planned and reported, host load);
# RESULTS_DIR/MODE/shard-K-of-N/TEST.txt for each failing test: its diff,
#   the tail of its .full and its dmesg, cut at FSTESTS_FAIL_BYTES.
# The guest's own files stay in BUILD/fstests/shards/MODE-shard-K-of-N/.
# Environment: GROUP (default quick), EXCLUDE (tests left out), RESULTS_DIR
#   (default results/fstests), FSTESTS_TIMEOUT (default 3600 + 120 s a
#   test), FSTESTS_FAIL_BYTES (default 4096), and vm/fstests/run.sh's.
# Exit: 0 when the shard ran whole and its CSV was written; 1 when the guest
# stopped early (timeout, a hung test, killed): the CSV then holds the tests
# that finished and shard-K-of-N.txt says "complete no" (nothing is written
# when none finished); 2 on bad arguments.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}
die() { echo "fstests shard: $*" >&2; exit 2; }
usage="usage: vm/fstests/shard.sh stock|patched|patched-hot|patched-colddir K/N"

checkonly=0
[ "${1:-}" = --check ] && { checkonly=1; shift; }
mode=${1:-} shard=${2:-}
[ $# = 2 ] || die "$usage"
GROUP=${GROUP:-quick} EXCLUDE=${EXCLUDE:-}
resdir=${RESULTS_DIR:-$top/results/fstests}
failbytes=${FSTESTS_FAIL_BYTES:-4096}
case $shard in
	[1-9]/[1-9]|[1-9]/[1-9][0-9]|[1-9][0-9]/[1-9][0-9]|[1-9]/[1-9][0-9][0-9]|[1-9][0-9]/[1-9][0-9][0-9]|[1-9][0-9][0-9]/[1-9][0-9][0-9]) ;;
	*) die "SHARD='$shard': give K/N, the K-th of N slices, 1 <= K <= N <= 999 (e.g. SHARD=3/10)" ;;
esac
k=${shard%/*} n=${shard#*/}
[ "$k" -le "$n" ] || die "SHARD='$shard': K ($k) is larger than N ($n); give 1 <= K <= N"
[ -n "$mode" ] || die "no MODE: give stock, patched, patched-hot or patched-colddir ($usage)"
for m in $mode; do
	case $m in
	stock) kernel=stock hint=none mntopts="" dirmark=none ;;
	patched) kernel=patched hint=none mntopts="" dirmark=none ;;
	patched-hot) kernel=patched hint=hot mntopts=region_reserve=1 dirmark=none ;;
	patched-colddir) kernel=patched hint=none mntopts="" dirmark=cold ;;
	*) die "MODE='$m': use stock, patched, patched-hot or patched-colddir ($usage)" ;;
	esac
done
case $failbytes in ''|*[!0-9]*) die "FSTESTS_FAIL_BYTES='$failbytes' is not a number of bytes" ;; esac
for t in $EXCLUDE; do case $t in */[0-9]*) ;; *) die "EXCLUDE: '$t' is not a test name like generic/001" ;; esac; done
[ $checkonly = 1 ] && exit 0
[ "$(echo $mode | wc -w)" = 1 ] || die "MODE='$mode': one mode a run"

# The split.  A test's shard is a hash of its name alone: a test added to
# or dropped from the group elsewhere moves no other, unlike slices of the
# sorted list, whose boundaries all shift.  The hash is polynomial over the
# name's bytes, base 65599 modulo the prime 2^31-1 (exact in awk's doubles),
# then mod N: even for every N (djb2's base 33 is not: 33 = 3 x 11, so
# with N = 3, 11 or their multiples only the last character counted).  N is
# part of the file name, so a run with another N overwrites nothing; the
# merge takes each test's latest row.
shard_of() { # N: reads test names, prints "shard name" (shards 1..N)
	awk -v n="$1" 'BEGIN { for (i = 32; i < 127; i++) ord[sprintf("%c", i)] = i }
		function hash(s,   h, i) { h = 0; for (i = 1; i <= length(s); i++) h = (h * 65599 + ord[substr(s, i, 1)]) % 2147483647; return h }
		{ print hash($1) % n + 1, $1 }'
}
all=$("$here/group-list.sh" "$GROUP") || exit 2
tests=$(echo "$all" | shard_of "$n" | awk -v k="$k" -v ex=" $EXCLUDE " '$1 == k && index(ex, " " $2 " ") == 0 { print $2 }' | xargs)
ntests=$(echo $tests | wc -w)
[ "$ntests" -gt 0 ] || die "shard $k/$n of group $GROUP has no test (of $(echo "$all" | wc -l)) left to run"

# The kernel the shard runs: for patched, the tree hash of kernel-patches/
# as it is on disk (the files the kernel was built from), committed or not.
series_tree() {
	local idx
	idx=$(mktemp)
	rm -f "$idx"
	(cd "$top" && GIT_INDEX_FILE=$idx git add kernel-patches && GIT_INDEX_FILE=$idx git write-tree --prefix=kernel-patches/) | cut -c1-12
	rm -f "$idx"
}
if [ $kernel = stock ]; then kcol=stock; else
	tree=$(series_tree) && [ -n "$tree" ] || die "cannot hash kernel-patches/ (not a git checkout?)"
	kcol=patched@$tree
fi
commit=$(cd "$top" && git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
[ -n "$(cd "$top" && git status --porcelain -- . ':!results' 2>/dev/null)" ] && commit="$commit (with uncommitted changes)"

name=shard-$k-of-$n
work=$build/fstests/shards/$mode-$name
rm -rf "$work"
mkdir -p "$work"
load=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
echo "fstests shard: $mode $k/$n of group $GROUP: $ntests tests ($started; host load $load)" >&2
t0=$(date +%s)
KERNEL=$kernel HINT=$hint TESTS="$tests" GROUP="" EXCLUDE="" FSTESTS_MOUNT_OPTIONS=$mntopts FSTESTS_DIRMARK=$dirmark \
	FSTESTS_TIMEOUT=${FSTESTS_TIMEOUT:-$((3600 + 120 * ntests))} \
	"$here/run.sh" "$work"
rs=$?
t1=$(date +%s)
m=$work/$kernel-$hint
gexit=$(cat "$m/status" 2>/dev/null)
partial=no
if [ ! -s "$m/results.tsv" ]; then
	echo "fstests shard: $mode $k/$n: the guest run failed with no test finished (run.sh exit $rs, guest exit ${gexit:-?}); nothing written to ${resdir#"$top"/}; its files: $work" >&2
	exit 1
elif [ "$gexit" != 0 ] || [ -f "$m/partial" ]; then
	# the guest stopped before check ended: the tests that finished are
	# kept (the merge shows the rest as not yet run); the shard is partial
	partial=yes
fi

finished=$(date -u +%Y-%m-%dT%H:%M:%SZ)
# env.txt comes at the guest's end; a partial run has its first lines on the console
envf=$m/env.txt
[ -s "$envf" ] || envf=$m/guest.out
fver=$(sed -n 's/\r$//; s/^fstests //p' "$envf" | head -n 1)
out=$resdir/$mode
mkdir -p "$out"
rm -rf "${out:?}/$name" "$out/$name.csv" "$out/$name.txt"
# The CSV (RFC 4180: the reason quoted, its quotes doubled); host paths
# never reach it (fstests' own paths are the guest's).
{
	echo "test,mode,result,reason,seconds,kernel,fstests,finished"
	awk -F'\t' -v mode="$mode" -v kcol="$kcol" -v fver="$fver" -v fin="$finished" -v top="$top" '
		function q(s) { while ((i = index(s, top)) > 0) s = substr(s, 1, i - 1) "." substr(s, i + length(top)); gsub(/"/, "\"\"", s); return "\"" s "\"" }
		{ printf "%s,%s,%s,%s,%s,%s,%s,%s\n", $1, mode, $2, q($4), ($3 == "" ? 0 : $3), kcol, fver, fin }' "$m/results.tsv" | LC_ALL=C sort
} >"$out/$name.csv.tmp"
# A failing test's output, cut to a few KiB.
for t in $(awk -F'\t' '$2 == "fail" { print $1 }' "$m/results.tsv"); do
	f=$m/fail-${t//\//-}.txt
	mkdir -p "$out/$name"
	if [ -s "$f" ]; then
		size=$(wc -c <"$f")
		{ head -c "$failbytes" "$f"; [ "$size" -gt "$failbytes" ] && printf '\n[... cut at %d of %d bytes]\n' "$failbytes" "$size"; } |
			sed "s|$top|.|g" >"$out/$name/${t//\//-}.txt"
	else
		if [ $partial = yes ]; then
			echo "(no output kept for $t: the guest prints failures' output when check ends, and this run stopped before)"
		else
			echo "(the guest printed no output for $t: no .out.bad, .full or .dmesg)"
		fi >"$out/$name/${t//\//-}.txt"
	fi
done
reported=$(wc -l <"$m/results.tsv")
{
	echo "mode $mode"
	echo "shard $k/$n"
	echo "group $GROUP"
	echo "tests_planned $ntests"
	echo "tests_reported $reported"
	echo "started $started"
	echo "finished $finished"
	echo "wall_seconds $((t1 - t0))"
	echo "check_seconds $(sed -n 's/^check_seconds //p' "$m/env.txt" 2>/dev/null)"
	echo "guest_exit $gexit"
	echo "complete $([ $partial = yes ] && echo no || echo yes)"
	if [ $partial = yes ]; then
		# the test check was in when the guest stopped: check runs its
		# list in name order, so the first planned test with no result
		# (its console line is unfinished, so never reaches guest.out)
		last=$(echo $tests | tr ' ' '\n' | LC_ALL=C sort | awk -F'\t' 'NR == FNR { r[$1] = 1; next } !($1 in r) { print; exit }' "$m/results.tsv" -)
		[ -n "$last" ] && echo "running_when_stopped $last"
	fi
	echo "kernel $kcol"
	echo "kernel_release $(sed -n 's/\r$//; s/^kernel \([^ ]*\) flavour.*/\1/p' "$envf" | head -n 1)"
	echo "mount_options ${mntopts:-(defaults)}"
	echo "test_mount $(sed -n 's/^test_mount //p' "$m/env.txt" 2>/dev/null)"
	[ $dirmark != none ] && echo "test_dir_mark $(sed -n 's/^test_dir_mark //p' "$m/env.txt" 2>/dev/null)"
	# the hinted creates the guest traced (ext4_hotcold_alloc, patched
	# kernel): "DEV REQ OUTCOME COUNT" a line, vda TEST_DEV, vdb SCRATCH_DEV
	if [ -s "$m/hint-events.txt" ]; then
		awk '$1 == "alloc" { printf "%s%s %s %s %s", s, $2, $3, $4, $5; s = "; " }
			$1 == "spill" { printf "%s%s spill - %s", s, $2, $5; s = "; " }
			$1 == "lost" { printf "%slost - - %s", s, $5; s = "; " } END { print "" }' "$m/hint-events.txt" | sed 's/^/hint_events /'
	fi
	echo "fstests $fver"
	echo "commit $commit"
	echo "host_load_at_start $load"
	[ -n "$EXCLUDE" ] && echo "excluded $EXCLUDE"
} >"$out/$name.txt"
mv "$out/$name.csv.tmp" "$out/$name.csv"
missing=$(echo $tests | tr ' ' '\n' | awk -F'\t' 'NR == FNR { r[$1] = 1; next } !($1 in r)' "$m/results.tsv" - | xargs)
[ -n "$missing" ] && echo "fstests shard: $mode $k/$n: check reported no result for: $missing" >&2
echo "fstests shard: $mode $k/$n: $(awk -F'\t' '{ c[$2]++ } END { printf "%d pass, %d fail, %d notrun", c["pass"], c["fail"], c["notrun"] }' "$m/results.tsv") of $ntests in $((t1 - t0)) s$([ $partial = yes ] && echo " (PARTIAL: the guest stopped before check ended, exit $gexit)") -> ${out#"$top"/}/$name.csv" >&2
[ $partial = no ]
