# SPDX-License-Identifier: GPL-2.0
# bench/measures/measure-promote.sh - the measure "promote" (bench/measures/measures.sh): a
# set moved to the hot region by hc-move between two reads of it
# (bench/jobs/promote.fio, bench/guest/guest-promote.sh).  Per run, where the moved
# set was before and after (hc-move's rows, fraction of its bytes in the
# first third), the move's time and I/O, and whether every file kept its
# inode and contents; all from the lines bench/guest/guest-promote.sh added to
# the run's env.txt (promote_move=, promote_sum_before/after=, move_*=).
# The reads before and after are the measure "rand"'s (N-before, N-after).
#   summary/promote-runs.csv  scenario,run,files,moved,moved_mib,first_before,
#                             first_after,move_seconds,read_mib,write_mib,
#                             same_inode,same_sha256

promote_files() { echo promote-runs.csv; }

promote_summarise() {
	local out=$1 sum=$1/summary n d e mv_ sm ev rc=0
	echo "scenario,run,files,moved,moved_mib,first_before,first_after,move_seconds,read_mib,write_mib,same_inode,same_sha256" \
		>"$sum/promote-runs.csv"
	for d in $(finished_runs "$out" promote); do
		n=$(basename "$(dirname "$d")")
		need "$d/env.txt" || continue
		e=$d/env.txt
		grep -qx 'move_rc=0' "$e" || { echo "summarise: $e: the move failed or did not run ($(grep -m1 '^move_rc=' "$e" || echo 'no move_rc'))" >&2; rc=1; continue; }
		sed -n 's/^promote_move_header=//p; s/^promote_move=//p' "$e" >"$d/move.csv"
		mv_=$(awk -F, -v need="file outcome moved_bytes first_before first_after" "$CSV_AWK"'
			{ f++; if ($C["outcome"] == "moved") m++; b += $C["moved_bytes"]; fb += $C["first_before"]; fa += $C["first_after"] }
			END { if (csv_bad) exit 2; if (f) printf "%d,%d,%.1f,%.3f,%.3f", f, m, b / 1048576, fb / f, fa / f }' "$d/move.csv") || rc=1
		sm=$(awk -F, '/^promote_sum_before=/ { sub(/^[^=]*=/, ""); b[$1] = $2 "," $3; next }
			/^promote_sum_after=/ { sub(/^[^=]*=/, ""); f++; split(b[$1], x, ","); if (x[1] == $2) i++; if (x[2] == $3 && $3 != "") s++ }
			END { if (f) printf "%d of %d,%d of %d", i, f, s, f }' "$e")
		ev=$(awk -F= '$1 == "move_seconds" { t = $2 } $1 == "move_read_sectors" { rd = $2 } $1 == "move_write_sectors" { wr = $2 }
			END { if (t != "") printf "%s,%.1f,%.1f", t, rd / 2048, wr / 2048 }' "$e")
		[ -n "$mv_" ] && [ -n "$ev" ] && [ -n "$sm" ] ||
			{ echo "summarise: $e: no promote_move rows, move_* or promote_sum lines" >&2; rc=1; continue; }
		echo "$n,$(basename "$d"),$mv_,$ev,$sm"
	done >>"$sum/promote-runs.csv"
	return $rc
}

promote_page() {
	local out=$1 sum=$1/summary s j
	has "$sum/promote-runs.csv" || return 0
	echo
	echo "## Promotion: a set whose hotness changed ($(scen_jobs "$out" promote), hc-move)"
	echo
	echo "On the image aged to $(scen_col "$out" "$(scen "$out" promote | head -n 1)" fill)% (the image of the aged scenario at that fullness), the unhinted set N is read at"
	echo "random (N-before), then \`hc-move hot\` moves its files into the hot region online"
	echo "(EXT4_IOC_MOVE_EXT into a donor created with O_HOT; bench/tools/hc-move.c), and the same"
	echo "reads run again (N-after), one job at a time in both. Service time on the disk's"
	echo "clock (the model's trace joined with the seek log), median of the runs (min-max), ms."
	echo
	echo "| scenario | job | service p50 (disk) | service p99 (disk) | engine p50 (fio clat) | runs |"
	echo "|---|---|---|---|---|---|"
	for s in $(scen "$out" promote); do
		for j in N-before N-after; do
			echo "| $s | $j | $(csv_mmm "$sum/disk.csv" value scenario="$s" job="$j" metric=service_p50_ms) | $(csv_mmm "$sum/disk.csv" value scenario="$s" job="$j" metric=service_p99_ms) |" \
				"$(csv_mmm "$sum/rand.csv" p50_ms scenario="$s" job="$j") | $(csv_get "$sum/rand.csv" runs scenario="$s" job="$j") |"
		done
	done
	echo
	echo "The move, per run: files moved, MiB, the set's bytes in the first third before and"
	echo "after (hc-move's FIEMAP), the move's time on the guest's clock and its I/O"
	echo "(/sys/block/vda/stat in the guest), and what stayed (inode; SHA-256 of the"
	echo "contents read back from the disk before and after)."
	echo
	echo "| scenario | run | files moved | MiB | first third before | after | seconds (guest) | read MiB | written MiB | same inode | same contents |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	tab "$sum/promote-runs.csv" "scenario run files moved moved_mib first_before first_after move_seconds read_mib write_mib same_inode same_sha256" '{
		printf "| %s | %s | %s of %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $C["scenario"], $C["run"], $C["moved"], $C["files"], $C["moved_mib"],
			$C["first_before"], $C["first_after"], $C["move_seconds"], $C["read_mib"], $C["write_mib"], $C["same_inode"], $C["same_sha256"] }'
	echo
	for s in $(scen "$out" promote); do fig "service-cdf-$s" "service-time CDF at the disk, $s (N-before, N-after)"; done
}
