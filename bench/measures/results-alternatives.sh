#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The page of an alternatives run (issue 26): PAGE (markdown) from OUT's
# summaries (bench/measures/summarise-alternatives.sh), its figure copied to
# plots/figures/ next to PAGE and the summary CSVs to csv/ next to it.
# Everything on the page comes from OUT: the run's date, commit, command
# and parameters (OUT/run-env.txt), the arms' numbers (OUT/summary/).
# A run with fewer than 3 runs of each arm (make bench's short version) is
# labelled at the top as one run without a spread.
# Usage: bench/measures/results-alternatives.sh OUT PAGE
set -u
out=${1:?usage: bench/measures/results-alternatives.sh OUT PAGE}
page=${2:?usage: bench/measures/results-alternatives.sh OUT PAGE}
. "$(dirname "$0")/lib.sh" && lib_init ALT bench/measures/results-alternatives.sh
sum=$out/summary
for f in "$out/run-env.txt" "$sum/runs.csv" "$sum/arms.csv" "$sum/windows.csv"; do
	[ -r "$f" ] || die "$f missing: run bench/measures/summarise-alternatives.sh $out first"
done
pdir=$(dirname "$page")
mkdir -p "$pdir/plots/figures" "$pdir/csv"
e() { sed -n "s/^$1=//p" "$out/run-env.txt" | head -n 1; }
# m ARM METRIC: "median (min-max)" over the runs, "-" when none
m() {
	local md mn mx
	md=$(csv_get "$sum/arms.csv" median arm="$1" metric="$2") || exit 2
	mn=$(csv_get "$sum/arms.csv" min arm="$1" metric="$2") mx=$(csv_get "$sum/arms.csv" max arm="$1" metric="$2")
	mmm "$md" "$mn" "$mx" -
}
med() { csv_get "$sum/arms.csv" median arm="$1" metric="$2"; }
what() {
	case $1 in
	a) echo "stock kernel, no hints" ;;
	b) echo "stock kernel, fast partition (hot set on an ext4 on the outer third)" ;;
	c) echo "O_HOT at create, right (the hot set)" ;;
	d) echo "O_HOT at create, half wrong" ;;
	e) echo "no hints, hc-track moving the most read files" ;;
	f) echo "half wrong (d) + hc-track" ;;
	g) echo "write-lifetime hints: RWH_WRITE_LIFE_EXTREME on the files outside the hot set" ;;
	*) echo "$1" ;;
	esac
}
arms=$(awk -F, "$CSV_AWK"'BEGIN { need = "arm" } { print $C["arm"] } END { if (csv_bad) exit 2 }' "$sum/runs.csv" | sort -u | tr '\n' ' ')
[ -n "$arms" ] || die "$sum/runs.csv has no run"
size=$(e SIZE) runs=$(e RUNS)
dev=0
[ "$runs" -lt 3 ] && dev=1
cp "$sum"/runs.csv "$sum"/arms.csv "$sum"/windows.csv "$pdir/csv/"
[ -r "$out/pilot/files.csv" ] && cp "$out/pilot/files.csv" "$pdir/csv/files.csv"
fig=""
if [ -r "$sum/alternatives-p50.png" ]; then
	cp "$sum/alternatives-p50.png" "$pdir/plots/figures/alternatives-p50.png"
	fig=plots/figures/alternatives-p50.png
fi
{
	echo "# Hints against the alternatives (issue 26)"
	echo
	if [ $dev = 1 ]; then
		echo "**Short run**: a $size disk, $runs run(s) of each arm, $(e ALT_IOS) reads, seed $(e ZIPF_SEED) (the short"
		echo "version \`make bench\` runs). With fewer than 3 runs there is no spread: the numbers say"
		echo "how the arms compared in this run. \`make alternatives\` (64G, RUNS=3, or \`make bench FULL=1\`)"
		echo "gives median (min-max) over runs."
		echo
	fi
	echo "Written by \`bench/measures/results-alternatives.sh\` from the run of $(e date) at commit"
	echo "\`$(e commit)\`; the command: \`$(e command)\`. The page was written at commit"
	echo "\`$(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null)$(git -C "$(dirname "$0")" diff --quiet HEAD -- :/bench 2>/dev/null || echo '+dirty')\`."
	# arms added from another run of the same pilot and image (bench/runners/alternatives-merge.sh)
	sed -n 's/^merged=//p' "$out/run-env.txt" | while read -r l; do echo "$l"; done
	echo
	echo "The workload (\`bench/jobs/alternatives.fio\`): $(e ZIPF_NRFILES) files of $(e ZIPF_SIZE) (sizes drawn by fio's"
	echo "seed), $(e ALT_IOS) random 4 KiB O_DIRECT preads, the file of each read drawn by"
	echo "\`file_service_type=zipf:$(e ZIPF_THETA)\`, seed $(e ZIPF_SEED): the same files, sizes and request"
	echo "sequence in every arm (checked: the seek log's files and offsets equal the"
	echo "pilot's, column \`same sequence\`). Each arm creates the files (\`hc-mkfiles\`,"
	echo "the same order and sizes, its own hints) on the same image, an ext4 on a $size"
	echo "disk aged by \`hc-age\` to $(e FILL)% (seed $(e AGED_SEED), churn $(e AGED_CHURN)), served by the disk model"
	echo "(profile $(e PROFILE), time-scale $(e TIME_SCALE)) under a copy-on-write overlay, and mounted"
	echo "noatime. The hot set is the most read files of the pilot (fio's null engine on"
	echo "the host, the same seed) that fit in $(e HOT_FRAC) of the workload's bytes: $(e HOT_FILES) files,"
	echo "$(awk -v b="$(e HOT_BYTES)" 'BEGIN { printf "%.1f", b / 1048576 }') MiB. Arm b's fast partition holds exactly that set; c hints it;"
	echo "d hints every other file of it (by rank) and as many of the least read"
	echo "files; e runs \`hc-track $(e track_e) --log ... /mnt\`"
	echo "while fio reads, f the same with \`--scan /mnt/zipf\` (so the files d hinted into the"
	echo "hot region are known to be there and leave it when unread)."
	echo "Arm g gives every file outside the hot set \`fcntl(F_SET_RW_HINT,"
	echo "RWH_WRITE_LIFE_EXTREME)\` right after its create, before it is written, and no"
	echo "O_HOT/O_COLD; the series' write-hint patch places such files' data as O_COLD's"
	echo "(\`/sys/fs/ext4/<dev>/write_hint_cold\`, 1 by default)."
	echo
	echo "Every time is the disk model's **service time** (arrival to end in its trace,"
	echo "joined read by read with the engine's seek log), except one column beside it: the same"
	echo "reads' completion latency in fio on the guest's clock, which adds TCG's overhead."
	echo "Steady state: the last third of the request sequence. Windows: $(e WINDOW) s of the"
	echo "disk's clock from the first read. Median over the runs (min-max)."
	echo
	echo "| arm | what | steady p50 (ms) | steady p99 (ms) | p50, all (ms) | guest's clock: p50, all (ms) | steady seek p50 (ms) | within 10% of c from (s) | moved (MiB) | p50 while moving / quiet (ms) | hot set in the first third | steady reads in the disk's first third | same sequence |"
	echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
	for a in $arms; do
		t=$(m "$a" t_within10_s)
		[ "$t" = - ] && t="never"
		[ "$a" = c ] && t="(reference)"
		mv=$(m "$a" moved_mb) mp=$(m "$a" moving_p50_ms) q=$(m "$a" quiet_p50_ms)
		ss=$(awk -F, -v a="$a" 'NR > 1 && $1 == a { n++; s += $8 } END { printf "%d of %d", s, n }' "$sum/runs.csv")
		hf=$(m "$a" hot_first)
		[ "$a" = b ] && hf="all on vda1, the disk's outer third"
		echo "| $a | $(what "$a") | $(m "$a" steady_p50_ms) | $(m "$a" steady_p99_ms) | $(m "$a" p50_ms) | $(m "$a" guest_p50_ms) | $(m "$a" steady_seek_p50_ms) | $t | $mv | $mp / $q | $hf | $(m "$a" reads_first_third) | $ss |"
	done
	echo
	[ -n "$fig" ] && { echo "![median service time per window, one line per arm]($fig)"; echo; }
	# the verdict, from the numbers
	best=$(for a in $arms; do echo "$a $(med "$a" steady_p50_ms)"; done | awk '$2 != "" { print }' | sort -k2,2g | head -n 1)
	ba=${best%% *} bv=${best#* }
	echo "### What the numbers say"
	echo
	echo "The lowest steady p50 is arm $ba ($(what "$ba")): $bv ms."
	for a in $arms; do
		[ "$a" = "$ba" ] && continue
		echo "Arm $a's is $(ratio "$(med "$a" steady_p50_ms)" "$bv") times that (p99: $(ratio "$(med "$a" steady_p99_ms)" "$(med "$ba" steady_p99_ms)"))."
	done
	if [[ " $arms " == *" a "* ]] && [[ " $arms " == *" c "* ]]; then
		echo "Right hints (c) against doing nothing (a): steady p50 $(ratio "$(med c steady_p50_ms)" "$(med a steady_p50_ms)") of a's."
	fi
	if [[ " $arms " == *" e "* ]] && [[ " $arms " == *" c "* ]]; then
		echo "The tracker alone (e) got within 10% of c's steady p50 $(t=$(med e t_within10_s); [ -n "$t" ] && echo "from $t s of the disk's clock on" || echo "in no window"), moving $(m e moved_mb) MiB."
	fi
	if [[ " $arms " == *" d "* ]] && [[ " $arms " == *" f "* ]]; then
		echo "Half-wrong hints (d): steady p50 $(ratio "$(med d steady_p50_ms)" "$(med c steady_p50_ms)") of c's; corrected by the tracker (f): $(ratio "$(med f steady_p50_ms)" "$(med c steady_p50_ms)") of c's."
	fi
	# when hints are worth having: the tracker against right hints, and
	# the fast partition against them, by the 10% rule of the table
	has() { [[ " $arms " == *" $1 "* ]] && [ -n "$(med "$1" steady_p50_ms)" ]; }
	if has c && has e; then
		if awk -v e="$(med e steady_p50_ms)" -v c="$(med c steady_p50_ms)" 'BEGIN { exit !(e <= 1.1 * c) }'; then
			echo "At steady state observation alone (e) is within 10% of right hints (c): what the hints buy is the time before the tracker has learnt (the windows before it got within 10%) and the I/O it spends moving ($(m e moved_mb) MiB here)."
			has d && echo "Hints half wrong (d) against observation alone (e): steady p50 $(med d steady_p50_ms) against $(med e steady_p50_ms) ms."
		else
			echo "Observation alone (e) does not get within 10% of right hints (c) at steady state here ($(ratio "$(med e steady_p50_ms)" "$(med c steady_p50_ms)") of c's p50)."
		fi
	fi
	if has d && has f; then
		if awk -v f="$(med f steady_p50_ms)" -v d="$(med d steady_p50_ms)" 'BEGIN { exit !(f < d) }'; then
			echo "The tracker improved half-wrong hints: f's steady p50 is $(ratio "$(med f steady_p50_ms)" "$(med d steady_p50_ms)") of d's."
		else
			echo "The tracker did not improve half-wrong hints within this run: f's steady p50 is $(ratio "$(med f steady_p50_ms)" "$(med d steady_p50_ms)") of d's, its moves ($(m f moved_mb) MiB) costing the foreground reads more than they gained (p50 $(m f moving_p50_ms) ms in the seconds it moved, $(m f quiet_p50_ms) ms in the others)."
		fi
	fi
	[ "$ba" = c ] && echo "Right hints at create (c) win outright on this run."

	if has a && has c && awk -v a="$(med a steady_p50_ms)" -v c="$(med c steady_p50_ms)" 'BEGIN { exit !(a < c) }'; then
		echo "Doing nothing (a) beats right hints (c) here: steady p50 $(med a steady_p50_ms) against $(med c steady_p50_ms) ms, the steady reads' median seek $(med a steady_seek_p50_ms) against $(med c steady_seek_p50_ms) ms. A 4 KiB read costs its seek and rotation, not the zone's transfer rate, so what counts is how close together the files read most are, not which third holds them: in a they were written one after another by one program and lie together, in c each hot create went to whatever the aged hot region had free (see the files' positions in the engine's placement logs)."
	fi
	if has g; then
		echo -n "Write-lifetime hints (g): steady p50 $(med g steady_p50_ms) ms"
		has c && echo -n ", $(ratio "$(med g steady_p50_ms)" "$(med c steady_p50_ms)") of right O_HOT hints' (c)"
		has a && echo -n ", $(ratio "$(med g steady_p50_ms)" "$(med a steady_p50_ms)") of doing nothing's (a)"
		echo -n "; the files it hinted EXTREME ended with $(m g rest_last) of their bytes in the last third"
		has a && echo -n " (a: $(m a rest_last))"
		echo ", the hot set with $(m g hot_first) of its bytes in the first third."
	fi
	if has b && has c; then
		echo "The administrator's fast partition (b), which needs the hot set known in advance as c does, has $(ratio "$(med b steady_p50_ms)" "$(med c steady_p50_ms)") of c's steady p50."
	fi
	[ $dev = 1 ] && echo "These are one short run's numbers at $size; they say how the arms compared in this run, not yet how they compare in general."
	echo
	echo "### Per window: p50 (p99) in ms"
	echo
	printf '| window from (s) |'; for a in $arms; do printf ' %s |' "$a"; done; echo
	printf '| --- |'; for a in $arms; do printf ' --- |'; done; echo
	for t in $(awk -F, "$CSV_AWK"'BEGIN { need = "t_s" } { print $C["t_s"] } END { if (csv_bad) exit 2 }' "$sum/windows.csv" | sort -un); do
		printf '| %s |' "$t"
		for a in $arms; do
			printf ' %s |' "$(awk -F, -v a="$a" -v t="$t" '$1 == a && $4 == t { printf "%s%s (%s)", s, $6, $7; s = ", " }' "$sum/windows.csv")"
		done
		echo
	done
	echo
	echo "### Runs"
	echo
	echo "| arm | run | kernel | layout | tracker | reads | matched | disk seconds | moves | bg read / write (MiB) | hot set in the first third before |"
	echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
	awk -F, "$CSV_AWK"'BEGIN { need = "arm run kernel layout tracker reads matched_frac disk_seconds moves bg_read_mb bg_write_mb hot_first_before" }
		{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s / %s | %s |\n", $C["arm"], $C["run"], $C["kernel"], $C["layout"],
			$C["tracker"], $C["reads"], $C["matched_frac"], $C["disk_seconds"], ($C["moves"] == "" ? "-" : $C["moves"]),
			$C["bg_read_mb"], $C["bg_write_mb"], $C["hot_first_before"] }' "$sum/runs.csv"
	fails=$(grep -v ' ok$' "$out/status" 2>/dev/null)
	if [ -n "$fails" ]; then
		echo
		echo "**Failed runs** (not in the tables): $(echo "$fails" | tr '\n' ';' | sed 's/;$//; s/;/; /g')."
	fi
	echo
	echo "The CSVs: [runs](csv/runs.csv), [arms](csv/arms.csv), [windows](csv/windows.csv), [files](csv/files.csv)."
} >"$page"
