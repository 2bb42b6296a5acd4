#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The short fstests list as TAP (make fstests-check, part of make check): the
# patched kernel unhinted and with the preload library's HOTCOLD=hot, and
# the stock kernel; one line per test and mode.  A patched failure that stock
# does not also show is "not ok"; a test that did not run is a SKIP with
# fstests' reason; a failure stock shows too is a SKIP naming it; so is every
# stock failure (the baseline, not the series).  The hinted mode must also
# show hinted creates honoured (the kernel's ext4_hotcold_alloc events).
# Usage: vm/fstests/fstests-check.sh OUTDIR   (environment: as vm/fstests/run.sh;
#        TESTS defaults to vm/fstests/short-list; FSTESTS_CHECK_REUSE=1 judges
#        the results already in OUTDIR without running the guests again)
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: fstests-check.sh OUTDIR}
export TESTS=${TESTS:-$(sed 's/#.*//' "$here/short-list" | xargs)}
export KERNEL=both HINT="none hot" GROUP=""
# the three guests at once (one host core each, shared): about half the
# time of one after another on 2 cores
export FSTESTS_GUESTS=${FSTESTS_GUESTS:-3}
. "$here/../lib/tap.sh"
tap_name=fstests-check
t0=$(date +%s)
if [ "${FSTESTS_CHECK_REUSE:-0}" = 1 ]; then rs=0; else
	mkdir -p "$(dirname "$out")"
	"$here/run.sh" "$out" >"$out.log" 2>&1
	rs=$?
fi
sed 's/^/# /' "$out.log" | grep -E '^# fstests: ' || true
[ $rs = 0 ] || { not_ok "vm/fstests/run.sh exited $rs (log: $out.log)"; tail -n 20 "$out.log" | sed 's/^/#   /'; }

status() { # MODE TEST -> "status<TAB>reason" or "missing"
	awk -F'\t' -v t="$2" '$1 == t { print $2 "\t" $4; f = 1 } END { if (!f) print "missing\t" }' "$out/$1/results.tsv" 2>/dev/null
}
for t in $TESTS; do
	IFS=$'\t' read -r sst swhy <<<"$(status stock-none "$t")"
	for m in patched-none patched-hot stock-none; do
		IFS=$'\t' read -r st why <<<"$(status $m "$t")"
		case $st in
		pass) ok "$m $t" ;;
		notrun) skip "$m $t" "notrun: ${why:-no reason given}" ;;
		fail)
			if [ $m = stock-none ]; then skip "$m $t" "fails on stock (the baseline): $why"
			elif [ "$sst" = fail ]; then skip "$m $t" "fails on stock too: $why"
			else not_ok "$m $t: fails, stock ${sst:-missing} ($why; $out/$m/fail-${t//\//-}.txt)"; fi ;;
		*) not_ok "$m $t: no result (the guest run did not report it)" ;;
		esac
	done
done

# The hints were in play: hinted creates on TEST_DEV (vda) and SCRATCH_DEV
# (vdb) that the kernel honoured.
ev=$out/patched-hot/hint-events.txt
honoured=$(awk '$1 == "alloc" && ($2 == "vda" || $2 == "vdb") && $3 == "hot" && $4 == "honoured" { s += $5 } END { print s + 0 }' "$ev" 2>/dev/null)
other=$(awk '$1 == "alloc" && ($2 == "vda" || $2 == "vdb") && $4 != "honoured" { printf "%s%s %s %s=%s", (o++ ? ", " : ""), $2, $3, $4, $5 }' "$ev" 2>/dev/null)
lost=$(awk '$1 == "lost" { print $5 }' "$ev" 2>/dev/null)
if [ "${honoured:-0}" -gt 0 ]; then
	ok "patched-hot: $honoured hot creates honoured on TEST_DEV/SCRATCH_DEV (other outcomes: ${other:-none}; trace events lost: ${lost:-?})"
else
	not_ok "patched-hot: no honoured hot create on TEST_DEV/SCRATCH_DEV ($ev: $(tr '\n' ' ' <"$ev" 2>/dev/null))"
fi
echo "# fstests-check: $(echo $TESTS | wc -w) tests x 3 modes in $(($(date +%s) - t0)) s; report $out/report.md"
tap_done
