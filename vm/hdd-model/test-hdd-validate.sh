#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The model against published drives (hdd-validate): the HP 97560
# against the Ruemmler-Wilkes formulas (seek at 1, 10, 100, 383, 384,
# 1000 and 1961 cylinders, mean random 4 KiB read, per-track rate),
# every figure within 2%; the Seagate Cheetah 9LP against DiskSim's
# validated extraction (track-to-track, average and full-stroke seek,
# mean random 4 KiB read, outer and inner sequential rate) within 5%.  The CSV is
# read by column name and the errors recomputed here, so a wrong
# error_pct or a missing row fails too.
. "$(dirname "$0")/hdd-test-lib.sh"
v=$HDD_BUILD/hdd-validate
[ -x "$v" ] || fail "$v not built (make hdd)"
timeout 60 "$v" "$profiles" "$tmp/v.csv" "$tmp/v.md" ||
    fail "hdd-validate: an error above its tolerance (see above)"
awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i
              if (!("drive" in col && "metric" in col && "published" in col &&
                    "measured" in col && "error_pct" in col && "source" in col)) {
                  print "bad header: " $0; exit 1 }
              next }
    {
        d = $col["drive"]; m = $col["metric"]
        p = $col["published"]; x = $col["measured"]
        e = 100 * (x - p) / p
        if (e - $col["error_pct"] > 0.01 || $col["error_pct"] - e > 0.01) {
            printf "%s %s: error_pct %s, recomputed %.3f\n", d, m, $col["error_pct"], e; bad = 1 }
        tol = -1
        if (d == "hp97560") tol = 2
        if (d == "cheetah9lp" && m !~ /^seek_third_stroke_/) tol = 5
        if (tol < 0) { printf "shown: %s %s %+.2f%%\n", d, m, e; next }
        if (e > tol || e < -tol) { printf "FAIL %s %s: %+.2f%% (tolerance %s%%)\n", d, m, e, tol; bad = 1 }
        else printf "ok %s %s: %+.2f%% (tolerance %s%%)\n", d, m, e, tol
        n[d]++
    }
    END {
        if (n["hp97560"] != 9) { printf "hp97560: %d rows held, expected 9\n", n["hp97560"]; bad = 1 }
        if (n["cheetah9lp"] != 6) { printf "cheetah9lp: %d rows held, expected 6\n", n["cheetah9lp"]; bad = 1 }
        exit bad
    }' "$tmp/v.csv" || fail "validation errors above tolerance or rows missing"
grep -q '^| drive | metric |' "$tmp/v.md" || fail "no markdown table"
