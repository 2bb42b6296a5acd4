#!/bin/sh
# Model unit tests (no server): seek curve continuous, non-decreasing,
# track-to-track and full stroke as configured, mean seek over random
# cylinder pairs within 5% of the stated average, zone ratio, LBA
# mapping, rotational latency; at the default 64G and at 1G.
. "$(dirname "$0")/hdd-test-lib.sh"
t=$HDD_BUILD/hdd-model-test
[ -x "$t" ] || fail "$t not built (make hdd)"
for size in 68719476736 1073741824; do
    timeout 60 "$t" "$profiles" $size || fail "model tests at $size bytes"
done
