#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Mean rotational latency of random 4K reads through a real NBD client
# (qemu-io), read from the trace: about half a revolution.
. "$(dirname "$0")/hdd-test-lib.sh"
requires nbdkit qemu-io awk
size=68719476736
random_reads 400 $size 7 >"$tmp/cmds"
timeout 60 nbdkit -U - --filter="$filter" memory $size \
    profile=desktop7200 time-scale=0.1 trace="$tmp/trace.csv" \
    --run 'qemu-io -f raw -r "$uri" <"$tmp/cmds" >/dev/null' ||
    fail "nbdkit/qemu-io failed"
rpm=$(profile_value desktop7200 rpm)
awk -F, -v rpm="$rpm" 'NR > 1 && $6 == "read" { n++; sum += $9 }
    END {
        half = 60e6 / rpm / 2; mean = sum / n
        printf "%d reads: mean rotational latency %.1f us, half a revolution %.1f us\n", n, mean, half
        exit !(n >= 390 && mean > 0.9 * half && mean < 1.1 * half)
    }' "$tmp/trace.csv" || fail "mean rotational latency not within 10% of half a revolution"
