#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Add arms from one run tree of bench/runners/alternatives.sh to another, when both
# ran the same comparison: the same pilot (pilot/files.csv and the request
# sequence pilot/sequence.txt byte for byte) and the same parameters in
# run-env.txt (disk, ageing, workload, hot set, window, disk model).  The
# arms' run folders and status lines are copied into INTO, and INTO's
# run-env.txt gets a "merged=" line naming FROM's date, commit and command
# (the page prints it), plus NOTE if given.  Then summarise INTO again.
# Usage: bench/runners/alternatives-merge.sh INTO FROM ARM... [-- NOTE]
# Exit: 0 merged; 1 the runs differ (what differs is named); 2 bad input.
set -u
into=${1:-} from=${2:-}
[ -n "$into" ] && [ -n "$from" ] && [ $# -ge 3 ] || { echo "usage: bench/runners/alternatives-merge.sh INTO FROM ARM... [-- NOTE]" >&2; exit 2; }
shift 2
arms="" note=""
while [ $# -gt 0 ]; do
	[ "$1" = -- ] && { shift; note="$*"; break; }
	case $1 in [a-g]) arms="$arms $1" ;; *) echo "bench/runners/alternatives-merge.sh: '$1' is not an arm (a-g)" >&2; exit 2 ;; esac
	shift
done
[ -n "$arms" ] || { echo "bench/runners/alternatives-merge.sh: no arm given" >&2; exit 2; }
for d in "$into" "$from"; do
	for f in run-env.txt status pilot/files.csv pilot/sequence.txt; do
		[ -r "$d/$f" ] || { echo "bench/runners/alternatives-merge.sh: $d/$f missing: not a run tree of bench/runners/alternatives.sh" >&2; exit 2; }
	done
done
for f in pilot/files.csv pilot/sequence.txt; do
	cmp -s "$into/$f" "$from/$f" || { echo "bench/runners/alternatives-merge.sh: $f differs between $into and $from: not the same pilot" >&2; exit 1; }
done
env_of() { sed -n "s/^$2=//p" "$1/run-env.txt" | head -n 1; }
for k in SIZE FILL AGED_SEED AGED_CHURN PROFILE TIME_SCALE ZIPF_SEED ZIPF_NRFILES ZIPF_THETA ZIPF_SIZE ALT_IOS HOT_FRAC \
	HOT_BYTES HOT_FILES WINDOW; do
	[ "$(env_of "$into" $k)" = "$(env_of "$from" $k)" ] ||
		{ echo "bench/runners/alternatives-merge.sh: $k is '$(env_of "$into" $k)' in $into, '$(env_of "$from" $k)' in $from" >&2; exit 1; }
done
for a in $arms; do
	grep -q "^$a " "$from/status" || { echo "bench/runners/alternatives-merge.sh: arm $a did not run in $from (its status)" >&2; exit 1; }
	[ -d "$from/arm-$a" ] || { echo "bench/runners/alternatives-merge.sh: $from/arm-$a missing" >&2; exit 1; }
	grep -q "^$a " "$into/status" && { echo "bench/runners/alternatives-merge.sh: arm $a already in $into" >&2; exit 1; }
done
for a in $arms; do
	cp -a "$from/arm-$a" "$into/" && grep "^$a " "$from/status" >>"$into/status" || exit 1
	echo "track_$a=$(env_of "$from" "track_$a")" >>"$into/run-env.txt"
done
echo "merged=Arm(s)$arms come from another run of the same pilot and parameters (checked): the run of $(env_of "$from" date) at commit \`$(env_of "$from" commit)\`, the command \`$(env_of "$from" command)\`.${note:+ $note}" >>"$into/run-env.txt"
