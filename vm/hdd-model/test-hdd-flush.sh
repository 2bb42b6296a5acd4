#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Flush occupies the drive for flush-cost ms (free by default); writes
# that move the head pay the write settle time; zero is a write.
. "$(dirname "$0")/hdd-test-lib.sh"
requires nbdkit qemu-io awk
for cost in 0 20; do
    timeout 30 nbdkit -U - --filter="$filter" memory 1G \
        flush-cost=$cost trace="$tmp/t$cost.csv" \
        --run 'qemu-io -f raw "$uri" -c "write 512M 4k" -c flush \
                  -c "write -z 100M 64k" -c "read 0 4k" >/dev/null' ||
        fail "nbdkit/qemu-io failed"
    awk -F, -v cost=$cost -v settle="$(profile_value desktop7200 write-settle-ms)" '
        $6 == "flush" { f++; d = $3 - $2; if (d < cost * 1000 - 1 || d > cost * 1000 + 1) badf++ }
        $6 == "write" && $8 >= settle * 1000 { w++ }
        $6 == "zero" && $5 == 128 { z++ }
        END {
            printf "flush-cost=%s: %d flush(es), last took %.1f us; %d write(s) moved (seek incl. settle), %d zero(s)\n", cost, f, d, w, z
            exit !(f >= 1 && badf == 0 && w == 1 && z == 1)
        }' "$tmp/t$cost.csv" || { cat "$tmp/t$cost.csv"; fail "flush-cost=$cost"; }
done
