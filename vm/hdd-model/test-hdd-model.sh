#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Model unit tests (no server): seek curve continuous, non-decreasing,
# track-to-track and full stroke as configured, mean seek over random
# cylinder pairs within 5% of the stated average, zone ratio, LBA
# mapping, rotational latency, sequential rate independent of the
# request size (4 KiB to 1 MiB within 1%) and equal to the per-cylinder
# formula with its switches and skews, the rotational target on skewed
# tracks; a stream across each zone boundary costs one cylinder switch
# and the new zone's skew; for the shipped profiles at the default 64G
# and at 1G, and for three profiles with explicit skews: one larger
# than the switch times (each switch costs its skew), one smaller (each
# switch misses the next track's first sector and costs about a
# revolution), and one whose inner zones skew by more than its outer.
. "$(dirname "$0")/hdd-test-lib.sh"
t=$HDD_BUILD/test-hdd-model
[ -x "$t" ] || fail "$t not built (make hdd)"
cat >"$tmp/skew.conf" <<'PROFILES'
[skewed]
rpm = 7200
heads = 4
zones = 8
spt-outer = 1000
spt-inner = 500
track-to-track-ms = 0.5
average-seek-ms = 8
full-stroke-ms = 16
head-switch-ms = 1.0
track-skew-ms = 1.5
cylinder-skew-ms = 2.5
write-settle-ms = 0
[underskewed]
rpm = 7200
heads = 4
zones = 8
spt-outer = 1000
spt-inner = 500
track-to-track-ms = 0.5
average-seek-ms = 8
full-stroke-ms = 16
head-switch-ms = 1.0
track-skew-ms = 0
cylinder-skew-ms = 0.3
write-settle-ms = 0
[innerskewed]
rpm = 7200
heads = 4
zones = 8
spt-outer = 1000
spt-inner = 500
track-to-track-ms = 0.5
average-seek-ms = 8
full-stroke-ms = 16
head-switch-ms = 0.5
track-skew-ms = 1.0
track-skew-inner-ms = 2.5
cylinder-skew-ms = 1.5
cylinder-skew-inner-ms = 3.0
write-settle-ms = 0
PROFILES
for size in 68719476736 1073741824; do
    timeout 60 "$t" "$profiles" $size || fail "model tests at $size bytes"
    timeout 60 "$t" "$tmp/skew.conf" $size ||
        fail "model tests of explicit skews at $size bytes"
done
# The skews really cost: with each switch costing its skew (skewed) or
# a missed sector and most of a turn (underskewed), the outer 64 KiB
# rates are those of the formula, far apart.
timeout 60 "$t" "$tmp/skew.conf" 68719476736 |
    awk '{ sub(/^(not )?ok [0-9]+ - /, ""); $0 = $0 }
        /64 KiB sequential rate/ && !seen[$1]++ { r[$1] = $6 }
        END {
            printf "outer 64 KiB rate: skewed %s MB/s, underskewed %s MB/s\n", r["skewed:"], r["underskewed:"]
            exit !(r["underskewed:"] > 0 && r["skewed:"] > 1.4 * r["underskewed:"])
        }' || fail "a skew smaller than the switch does not cost a revolution"
