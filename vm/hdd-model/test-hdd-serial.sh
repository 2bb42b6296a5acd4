#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# One actuator: two clients reading at random in parallel are served one
# request at a time.  In the trace no two requests overlap and some had
# to queue; the real elapsed time is about the sum of the service times
# (not the time of one client).  Also with queue-depth=32: the drive
# reorders the requests but still serves one at a time.
. "$(dirname "$0")/hdd-test-lib.sh"
requires nbdkit qemu-io awk
size=68719476736
random_reads 60 $size 1 >"$tmp/a"
random_reads 60 $size 2 >"$tmp/b"
for depth in 1 32; do
    timeout 60 nbdkit -U - --filter="$filter" memory $size \
        queue-depth=$depth trace="$tmp/trace.csv" \
        --run 'start=$(date +%s%N)
               qemu-io -f raw -r "$uri" <"$tmp/a" >/dev/null & a=$!
               qemu-io -f raw -r "$uri" <"$tmp/b" >/dev/null & b=$!
               wait $a && wait $b || exit 1
               echo $(( $(date +%s%N) - start )) >"$tmp/elapsed"' ||
        fail "nbdkit/qemu-io failed"
    sort -t, -k2,2n "$tmp/trace.csv" | grep -v '^arrival' |
        awk -F, -v depth=$depth -v ns="$(cat "$tmp/elapsed")" '
        $6 == "read" {
            n++; busy += $3 - $2
            if (n > 1 && $2 < prev_end - 0.001) { overlap++; print "overlap:", $0 }
            if ($2 - $1 > 100) queued++
            prev_end = $3
        }
        END {
            el = ns / 1e3
            printf "queue-depth=%d: %d reads, %d queued behind the other client, %d overlaps; ", depth, n, queued, overlap
            printf "service sum %.0f us, elapsed %.0f us\n", busy, el
            # No upper bound on elapsed time: a loaded host only adds to it.
            exit !(n == 120 && overlap == 0 && queued >= 10 && el >= 0.9 * busy)
        }' || fail "requests not served one at a time"
done
