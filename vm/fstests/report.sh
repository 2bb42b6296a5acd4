#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The fstests report (markdown, on stdout) from a vm/fstests/run.sh folder:
# per mode the counts and the time, the tests whose result differs between
# modes, the patched failures that stock does not show, the hint events and
# counters of the hinted modes, why tests did not run, and every test's
# result side by side.
# Usage: vm/fstests/report.sh OUTDIR >OUTDIR/report.md
set -u
out=${1:?usage: report.sh OUTDIR}
[ -d "$out" ] || { echo "report.sh: no folder '$out'" >&2; exit 2; }
modes=""
for m in patched-none patched-hot patched-cold stock-none; do
	[ -f "$out/$m/results.tsv" ] && modes="$modes $m"
done
modes=${modes# }
[ -n "$modes" ] || { echo "report.sh: no MODE/results.tsv in '$out' (run vm/fstests/run.sh first)" >&2; exit 2; }

env1=$(for m in $modes; do echo "$out/$m/env.txt"; done | head -n 1)
echo "# fstests on ext4: patched vs stock, unhinted and hinted"
echo
echo "Written by \`vm/fstests/report.sh\` from the run in \`$out\` ($(date -r "$out/$(echo $modes | cut -d' ' -f1)/results.tsv" '+%Y-%m-%d %H:%M')),"
echo "made by \`make fstests\` (vm/fstests/run.sh). Each mode is one QEMU guest booted on the fstests"
echo "root image (Debian 12, fstests $(sed -n 's/^fstests //p' "$env1" | sed 's/ *$//'));"
echo "TEST_DEV and SCRATCH_DEV are ext4 made with mke2fs's defaults:"
echo
sed -n 's/^\(\/dev\/.*\)/- `\1`/p; s/^\(Block size\|Filesystem features\):[ ]*\(.*\)/- \1: `\2`/p' "$env1"
echo
echo "Modes: \`patched-none\` the patched kernel, \`patched-hot\`/\`patched-cold\` the same with"
echo "check and all it runs under \`LD_PRELOAD=hotcold-preload.so HOTCOLD=hot|cold\` (every creating open"
echo "gets the hint), \`stock-none\` the unpatched kernel."
echo
echo "## Counts"
echo
echo "| mode | tests | pass | fail | notrun | check's time | guest's time | mean per test run |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for m in $modes; do
	awk -F'\t' -v m="$m" -v cs="$(sed -n 's/^check_seconds //p' "$out/$m/env.txt" 2>/dev/null)" \
		-v gs="$(cat "$out/$m/seconds" 2>/dev/null)" '
		{ n++; c[$2]++; if ($2 != "notrun") { r++; t += $3 } }
		END { printf "| %s | %d | %d | %d | %d | %s s | %s s | %s |\n", m, n, c["pass"], c["fail"], c["notrun"],
			cs == "" ? "?" : cs, gs == "" ? "?" : gs, r ? sprintf("%.1f s", t / r) : "-" }' "$out/$m/results.tsv"
	st=$(cat "$out/$m/status" 2>/dev/null)
	[ "${st:-0}" = 0 ] || echo "| $m: **the guest run failed (vm/runner/run exit $st)**; the counts are what it reported |||||||"
done
echo

# one table: test, then status per mode
join_all() {
	awk -F'\t' -v modes="$modes" '
		BEGIN { nm = split(modes, M, " ") }
		FNR == 1 { fi++ }
		{ t[$1] = 1; s[$1, fi] = $2; sec[$1, fi] = $3; if ($4 != "") why[$1, fi] = $4 }
		END {
			for (x in t) {
				line = x
				for (i = 1; i <= nm; i++) line = line "\t" ((x, i) in s ? s[x, i] : "missing") "\t" sec[x, i] "\t" why[x, i]
				print line
			}
		}' $(for m in $modes; do echo "$out/$m/results.tsv"; done) | sort
}
join_all >"$out/joined.tsv"
nm=$(echo $modes | wc -w)

echo "## Results that differ between modes"
echo
awk -F'\t' -v nm="$nm" '{ d = 0; for (i = 2; i <= 3 * nm; i += 3) if ($i != $2) d = 1; if (d) print }' "$out/joined.tsv" >"$out/differ.tsv"
if [ -s "$out/differ.tsv" ]; then
	printf '| test |'; for m in $modes; do printf ' %s |' "$m"; done; echo
	printf '|---|'; for m in $modes; do printf -- '---|'; done; echo
	awk -F'\t' -v nm="$nm" '{ printf "| %s |", $1; for (i = 2; i <= 3 * nm; i += 3) printf " %s%s |", $i, ($(i + 2) != "" ? ": " $(i + 2) : ""); print "" }' "$out/differ.tsv" |
		sed 's/|/\\|/g; s/^\\|/|/; s/\\|$/|/; s/ \\| / | /g'
else
	echo "None: every test has the same result in every mode."
fi
echo

echo "## Patched failures that stock does not show"
echo
si=0 i=0
for m in $modes; do i=$((i + 1)); [ $m = stock-none ] && si=$i; done
if [ $si = 0 ]; then
	echo "No stock run in this folder: nothing to compare against."
else
	awk -F'\t' -v nm="$nm" -v si="$si" -v modes="$modes" '
		BEGIN { split(modes, M, " ") }
		{ for (i = 1; i <= nm; i++) if (M[i] != "stock-none" && $(3 * i - 1) == "fail" && $(3 * si - 1) != "fail")
			printf "- %s on %s (stock: %s)%s\n", $1, M[i], $(3 * si - 1), ($(3 * i + 1) != "" ? ": " $(3 * i + 1) : "") }' "$out/joined.tsv" >"$out/regressions.txt"
	if [ -s "$out/regressions.txt" ]; then cat "$out/regressions.txt"; else echo "None."; fi
	awk -F'\t' -v si="$si" '$(3 * si - 1) == "fail" { printf "%s ", $1 }' "$out/joined.tsv" >"$out/stock-fails.txt"
	[ -s "$out/stock-fails.txt" ] && { echo; echo "Failing on stock too (not the series): $(cat "$out/stock-fails.txt")"; }
fi
echo

echo "## The hints in play"
echo
hinted=0
for m in $modes; do
	case $m in patched-hot|patched-cold) ;; *) continue ;; esac
	hinted=1
	echo "**$m**: every hinted create is one \`ext4:ext4_hotcold_alloc\` trace event (the outcome the"
	echo "kernel counted in \`hint_*\`), per device (vda TEST_DEV, vdb SCRATCH_DEV, vdc the root image):"
	echo
	if [ -s "$out/$m/hint-events.txt" ]; then
		echo "| event | device | hint | outcome | count |"
		echo "|---|---|---|---|---:|"
		awk '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$out/$m/hint-events.txt"
	else
		echo "(no events recorded)"
	fi
	echo
	if [ -s "$out/$m/hint-counters.txt" ]; then
		echo "Counters of the ext4s still mounted when check ended (/sys/fs/ext4/DEV/hint_*, since their mount):"
		echo
		awk '{ split($1, p, "/"); printf "%s%s=%s", (p[1] != last ? (last != "" ? "\n" : "") "- " p[1] ": " : ", "), p[2], $2; last = p[1] } END { print "" }' "$out/$m/hint-counters.txt"
		echo
	fi
done
[ $hinted = 1 ] || { echo "No hinted mode in this run (HINT=hot or HINT=cold runs one)."; echo; }

echo "## Why tests did not run"
echo
for m in $modes; do
	awk -F'\t' -v m="$m" '$2 == "notrun" { r = $4 == "" ? "(no reason given)" : $4; c[r]++; l[r] = l[r] " " $1 }
		END { for (r in c) printf "- %s, %d: %s —%s\n", m, c[r], r, l[r] }' "$out/$m/results.tsv" | sort
done
echo

echo "## Every test"
echo
printf '| test |'; for m in $modes; do printf ' %s |' "$m"; done; echo " note |"
printf '|---|'; for m in $modes; do printf -- '---|'; done; echo "---|"
awk -F'\t' -v nm="$nm" '{
	printf "| %s |", $1; note = ""
	for (i = 2; i <= 3 * nm; i += 3) {
		printf " %s%s |", $i, ($i != "notrun" && $(i + 1) != "" ? " (" $(i + 1) " s)" : "")
		if ($(i + 2) != "" && index(note, $(i + 2)) == 0) note = note (note != "" ? "; " : "") $(i + 2)
	}
	printf " %s |\n", note }' "$out/joined.tsv" | sed 's/\([^ ]\)|\([^ ]\)/\1\\|\2/g'
echo
fails=$(ls "$out"/*/fail-*.txt 2>/dev/null)
if [ -n "$fails" ]; then
	echo "Failure details (diff of the output, tail of .full, dmesg): $(echo "$fails" | sed "s|^$out/||" | sed 's/.*/`&`/' | paste -sd' ')"
fi
