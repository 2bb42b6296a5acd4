# SPDX-License-Identifier: GPL-2.0
# bench/measures/measure-zones.sh - the measure "zones" (bench/measures/measures.sh): busybox
# dd reads 64 MiB O_DIRECT at the start and at the end of the raw disk
# (bench/guest/guest-scenario.sh zones), timed by the guest (zones.csv,
# /proc/uptime, 10 ms) and by the disk model's trace (the rows' bytes over
# their seek + rotation + transfer: the drive's time, without the gaps in
# which it waited for the guest's next request; the dd's first request is
# left out: it carries the seek from wherever the head was, a full stroke
# for the end after the start, which a sustained rate does not pay and
# which put the trace's start/end ratio above the zone ratio); every run of
# the first scenario that measures it.
#   summary/zones-runs.csv      clock,run,zone,mb_s: a row per run, zone and clock
#   summary/zones.csv           clock,zone,mb_s_median,mb_s_min,mb_s_max,runs
#   summary/zones-position.csv  pos_frac,mb_s: the trace's rates as points of
#                               the throughput-vs-position figure (seq's)

zones_files() { echo zones.csv:any; }

zones_summarise() {
	local out=$1 sum=$1/summary z d r sectors rc=0
	z=$(scen "$out" zones | head -n 1)
	echo "clock,run,zone,mb_s" >"$sum/zones-runs.csv"
	for d in ${z:+"$out/$z"/run*}; do
		ok_run "$d" && need "$d/zones.csv" && need "$d/trace.csv" || continue
		r=$(basename "$d")
		awk -F, -v r="$r" -v need="zone mib seconds" "$CSV_AWK"'
			$C["seconds"] > 0 { printf "guest,%s,%s,%.2f\n", r, $C["zone"], $C["mib"] * 1048576 / $C["seconds"] / 1e6 }
			END { if (csv_bad) exit 2 }' "$d/zones.csv" || rc=1
		sectors=$(grep -m1 '^disk_sectors=' "$d/env.txt" | cut -d= -f2)
		awk -F, -v r="$r" -v tot="$sectors" -v need="lba sectors op seek_us rotation_us transfer_us" "$CSV_AWK"'
			$C["op"] == "read" && $C["sectors"] >= 128 {
			lba = $C["lba"] + 0; z = (lba < 131072) ? "start" : (lba >= tot - 131072 ? "end" : "")
			if (z == "" || !(z in first)) { if (z != "") first[z] = 1; next }
			t[z] += $C["seek_us"] + $C["rotation_us"] + $C["transfer_us"]
			b[z] += $C["sectors"] * 512 }
			END { if (csv_bad) exit 2; for (z in b) if (t[z] > 0) printf "trace,%s,%s,%.2f\n", r, z, b[z] / t[z] }' "$d/trace.csv" || rc=1
	done >>"$sum/zones-runs.csv"
	median_table "$sum/zones-runs.csv" "clock zone" mb_s >"$sum/zones.csv" || rc=1
	awk -F, -v need="clock zone mb_s" "$CSV_AWK"'BEGIN { print "pos_frac,mb_s" }
		$C["clock"] == "trace" { printf "%s,%s\n", ($C["zone"] == "start") ? 0.0005 : 0.9995, $C["mb_s"] }
		END { if (csv_bad) exit 2 }' "$sum/zones-runs.csv" >"$sum/zones-position.csv"
	return $rc
}

zones_headline() {
	local sum=$1/summary zs ze
	zs=$(csv_get "$sum/zones.csv" mb_s_median clock=trace zone=start) ze=$(csv_get "$sum/zones.csv" mb_s_median clock=trace zone=end)
	[ -n "$zs" ] || return 0
	echo "- raw-disk O_DIRECT read (busybox dd, 64 MiB), start / end of the disk: **$(ratio "$zs" "$ze")** ($zs / $ze MB/s, model's clock from the trace; guest clock: $(csv_get "$sum/zones.csv" mb_s_median clock=guest zone=start) / $(csv_get "$sum/zones.csv" mb_s_median clock=guest zone=end) MB/s) vs zone ratio $(csv_get "$sum/zone-ratio.csv" zone_ratio)"
}

zones_page() {
	local sum=$1/summary
	has "$sum/zones.csv" || return 0
	echo
	echo "## Raw disk, start vs end"
	echo
	echo "\`dd if=/dev/vda of=/dev/null bs=1M count=64 iflag=direct\` at the first and at"
	echo "the last 64 MiB; timed by the guest (/proc/uptime, 10 ms) and by the model's trace"
	echo "(every request but the first, which carries the seek to the zone: the sustained rate)."
	echo
	echo "| clock | zone | MB/s | runs |"
	echo "|---|---|---|---|"
	tab "$sum/zones.csv" "clock zone mb_s_median mb_s_min mb_s_max runs" '{
		printf "| %s | %s | %s | %s |\n", $C["clock"], $C["zone"], mmm($C["mb_s_median"], $C["mb_s_min"], $C["mb_s_max"]), $C["runs"] }'
}
