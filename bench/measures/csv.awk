# SPDX-License-Identifier: GPL-2.0
# csv.awk - read the CSV files passed between the benchmark's stages by
# column name.  Every such file starts with a header row (the engine's
# placement and seek logs: ioengines/hotcold.c; the disk model's trace:
# vm/hdd-model; hc-tracejoin's files: bench/tools/hc-tracejoin.c; the summaries:
# bench/measures/summarise.sh).  The stages put this text in front of their own
# awk program (awk -F, -v need="a b c" "$CSV_AWK"'...'):
#   - on each file's first line, C[name] becomes that column's number, the
#     line itself is skipped, and every name in `need` must be there: a
#     missing one prints "FILE: no column NAME" and awk exits 2;
#   - the program's END should begin with `if (csv_bad) exit 2`.
#   - a field in double quotes (RFC 4180, as the engine writes its
#     placement log's `note`) may hold commas, and "" in it is one quote:
#     a line with a quote is split again here, and $i is the field's text
#     without the quotes (the fields are then joined by OFS in $0).
# A file whose first line is not a header is malformed; it fails the same
# way, on the first name it lacks.
function csv_split(	csv_s, csv_f, csv_c, csv_q, csv_k, csv_nf, csv_v) {
	csv_s = $0
	csv_nf = 0
	csv_v = ""
	csv_q = 0
	for (csv_k = 1; csv_k <= length(csv_s); csv_k++) {
		csv_c = substr(csv_s, csv_k, 1)
		if (csv_q && csv_c == "\"" && substr(csv_s, csv_k + 1, 1) == "\"") {
			csv_v = csv_v "\""
			csv_k++
		} else if (csv_c == "\"")
			csv_q = !csv_q
		else if (csv_c == "," && !csv_q) {
			csv_f[++csv_nf] = csv_v
			csv_v = ""
		} else
			csv_v = csv_v csv_c
	}
	csv_f[++csv_nf] = csv_v
	$0 = ""
	for (csv_k = 1; csv_k <= csv_nf; csv_k++)
		$csv_k = csv_f[csv_k]
}
index($0, "\"") { csv_split() }
FNR == 1 {
	delete C
	for (csv_i = 1; csv_i <= NF; csv_i++)
		C[$csv_i] = csv_i
	csv_n = split(need, csv_need, " ")
	for (csv_i = 1; csv_i <= csv_n; csv_i++)
		if (!(csv_need[csv_i] in C)) {
			printf "%s: no column %s\n", FILENAME, csv_need[csv_i] > "/dev/stderr"
			csv_bad = 1
			exit 2
		}
	next
}
