#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Sequential read throughput at the outer edge (LBA 0) vs the inner edge
# (end of the disk) follows the profile's zone ratio spt-outer/spt-inner
# within 5%, from the trace of the requests a real NBD client made
# (hdd-nbdread: libnbd, 1 MiB reads at queue depth 1).  The client's own
# elapsed time is printed and must not beat the model (the delays really
# happen); its ratio is not asserted: on a loaded host wall-clock time only
# grows, and the benchmark, not a test, reports it.
# A 16M read-ahead keeps the stream going when the loaded host delays
# the client (this test is about zones, not about the read-ahead).
. "$(dirname "$0")/hdd-test-lib.sh"
requires nbdkit awk
requires_nbdread
size=68719476736

# measure NAME OFFSET: MB/s of real elapsed time into $tmp/NAME.rate.
measure ()
{
    out=$tmp/$1.rate; export out
    timeout 60 nbdkit -U - --filter="$filter" memory $size \
        profile=$profile trace="$tmp/$1.csv" readahead=16M \
        --run "\"\$nbdread\" \"\$uri\" $2 $len 1048576 >\"\$out\"" ||
        fail "nbdkit/hdd-nbdread failed at offset $2"
    awk '{ print $3 }' "$out" >"$out.mbs" && mv "$out.mbs" "$out"
}

# modelled NAME: modelled media rate: bytes over the trace's transfer
# times (media time, including head and cylinder switches).
modelled ()
{
    awk -F, 'NR > 1 { t += $10; b += $5 * 512 }
        END { printf "%.3f\n", b / t }' "$tmp/$1.csv"
}

# check PROFILE MIB: read MIB (about a second) at each edge.
check ()
{
    profile=$1
    len=$(($2 * 1024 * 1024))
    measure outer 0
    measure inner $((size - len))
    want=$(awk -v o="$(profile_value $profile spt-outer)" \
               -v i="$(profile_value $profile spt-inner)" \
               'BEGIN { printf "%.4f\n", o / i }')
    awk -v o="$(cat "$tmp/outer.rate")" -v i="$(cat "$tmp/inner.rate")" \
        -v mo="$(modelled outer)" -v mi="$(modelled inner)" \
        -v w=$want -v p=$profile 'BEGIN {
        r = o / i; mr = mo / mi
        printf "%s: elapsed outer %.1f MB/s inner %.1f MB/s ratio %.3f; ", p, o, i, r
        printf "trace ratio %.3f; zone ratio %.3f\n", mr, w
        exit !(mr > 0.95 * w && mr < 1.05 * w && o <= 1.05 * mo && i <= 1.05 * mi)
    }' || fail "$profile: outer/inner ratio not within 5% of the zone ratio, or faster than the model"
}

check desktop7200 64
check laptop5400 64
check enterprise15k 128
