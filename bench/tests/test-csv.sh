#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of bench/measures/csv.awk, the reader of the CSV files passed between
# the benchmark's stages: columns by name, a missing column named, and
# RFC 4180 quoted fields (the engine's placement log quotes its `note`:
# ioengines/hotcold.md) holding commas and doubled quotes.
# Usage: bench/tests/test-csv.sh   (part of make bench-tools-check; KEEP=1 keeps $tmp)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib/tap.sh"
tap_init test-csv
CSV_AWK=$(cat "$top/bench/measures/csv.awk")

# rows as the engine writes them: a note with a comma and a quote, an
# empty note, the summary row's note
cat >"$tmp/p.csv" <<'ROWS'
kind,job,file,note,third
file,j1,/mnt/a,"/dev/x,1 ""odd"" name: no ext4 superblock magic",first
file,j2,/mnt/b,"",last
file,j3,/mnt/c,,middle
summary,j1,*,"3 of 3 files placed",
ROWS
# get KIND COLUMN: that column of the row of that kind and job j1..j3
col() {
	awk -F, -v need="kind job $2" -v k="$1" -v want="$2" "$CSV_AWK"'
		$C["job"] == k || ($C["kind"] == k && k == "summary") { print $C[want]; exit }
		END { if (csv_bad) exit 2 }' "$tmp/p.csv"
}
is "a quoted note keeps its comma and its quote (one \"\" is one \")" \
	"$(col j1 note)" '/dev/x,1 "odd" name: no ext4 superblock magic'
is "the column after a quoted field keeps its name" "$(col j1 third)" first
is "\"\" is an empty field" "$(col j2 note)|$(col j2 third)" "|last"
is "an unquoted empty field is empty" "$(col j3 note)|$(col j3 third)" "|middle"
is "the summary row's quoted note" "$(col summary note)" "3 of 3 files placed"
t "every row has the header's 5 fields" awk -F, -v need=note "$CSV_AWK"'
	NF != 5 { bad = 1 } END { exit csv_bad || bad }' "$tmp/p.csv"
# a row without a quote is split by commas as before
printf 'a,b\n1,2\n' >"$tmp/plain.csv"
is "a file without quotes reads as before" \
	"$(awk -F, -v need="a b" "$CSV_AWK"'{ print $C["b"] $C["a"] }' "$tmp/plain.csv")" 21
awk -F, -v need="kind nosuch" "$CSV_AWK"'END { if (csv_bad) exit 2 }' "$tmp/p.csv" 2>"$tmp/err"
rc=$?
t "a missing column: exit 2, named ($rc)" sh -c "[ $rc = 2 ] && grep -q 'p.csv: no column nosuch' '$tmp/err'"
tap_done
