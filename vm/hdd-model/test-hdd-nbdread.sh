#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# hdd-nbdread's random mode (used by make hdd-overhead): LENGTH /
# REQUEST_SIZE reads, each REQUEST_SIZE-aligned, between OFFSET and the
# end of the export, spread over it (the filter's trace records them);
# an OFFSET that leaves no room is refused with a message.
. "$(dirname "$0")/hdd-test-lib.sh"
requires nbdkit
requires_nbdread
timeout 60 nbdkit -U - --filter="$filter" memory 1G time-scale=0 \
    trace="$tmp/trace.csv" \
    --run '"$nbdread" "$uri" 536870912 4096000 4096 random' >"$tmp/out" ||
    fail "random reads: $(cat "$tmp/out")"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["op"] == "read" {
        n++; l = $col["lba"]
        if (l < 1048576 || l % 8 || $col["sectors"] != 8) { print "bad read: " $0; bad = 1 }
        if (!(l in seen)) { seen[l] = 1; distinct++ }
        if (l < 1572864) low++
    }
    END {
        printf "%d reads, %d distinct, %d in the first half of the range\n", n, distinct, low
        exit bad || n != 1000 || distinct < 990 || low < 400 || low > 600
    }' "$tmp/trace.csv" || fail "random reads not 1000 aligned, spread reads in range"
timeout 60 nbdkit -U - memory 1G \
    --run '"$nbdread" "$uri" 1073741824 4096 4096 random' >"$tmp/out" 2>&1 &&
    fail "an offset at the end of the export accepted"
grep -q "no room" "$tmp/out" || fail "no message for a bad offset: $(cat "$tmp/out")"
echo "bad offset: $(cat "$tmp/out")"
