#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# hdd-curves' rate table (the benchmark's "model's rate" and zone ratio,
# bench/measures/summarise.sh) is what a long sequential read gets from the model:
# the media rate (bytes over the trace's transfer times, which include
# every head and cylinder switch) of 64 cylinders read through a real
# NBD client at the outer edge and at the inner edge of a 64G disk, within
# 0.1% of the table's first and last rows (where the read starts and ends
# inside a cylinder adds at most one switch, 0.03%; the table has two
# decimals, 0.03% at 15 MB/s).  A table of whole cylinders without
# the switch into the next one is 0.2% too fast for desktop7200.
. "$(dirname "$0")/hdd-test-lib.sh"
requires nbdkit awk
requires_nbdread
curves=$HDD_BUILD/hdd-curves
[ -x "$curves" ] || fail "$curves not built (make hdd)"
size=68719476736

# stream NAME OFFSET LEN: the modelled media rate (MB/s) of LEN bytes
# read from OFFSET in 1 MiB requests.
stream ()
{
    timeout 60 nbdkit -U - --filter="$filter" memory $size \
        profile=$profile time-scale=0 trace="$tmp/$1.csv" \
        --run "\"\$nbdread\" \"\$uri\" $2 $3 1048576 >/dev/null" ||
        fail "nbdkit/hdd-nbdread failed at offset $2"
    awk -F, 'NR > 1 { t += $10; b += $5 * 512 } END { printf "%.3f\n", b / t }' "$tmp/$1.csv"
}

for profile in desktop7200 cheetah9lp; do
    "$curves" "$profiles" $profile 64G "$tmp/$profile" >/dev/null ||
        fail "hdd-curves failed for $profile"
    # 64 cylinders at each edge (sectors per cylinder: heads x spt)
    heads=$(profile_value $profile heads)
    lo=$((64 * heads * $(profile_value $profile spt-outer) * 512 / 1048576 * 1048576))
    li=$((64 * heads * $(profile_value $profile spt-inner) * 512 / 1048576 * 1048576))
    so=$(stream outer 0 $lo) si=$(stream inner $((size - li)) $li)
    to=$(awk -F, 'NR == 2 { print $3 }' "$tmp/$profile-rate.csv")
    ti=$(awk -F, 'END { print $3 }' "$tmp/$profile-rate.csv")
    awk -v p=$profile -v so="$so" -v si="$si" -v to="$to" -v ti="$ti" 'BEGIN {
        printf "%s: outer stream %.3f MB/s, table %.2f; inner stream %.3f MB/s, table %.2f\n", p, so, to, si, ti
        exit !(to / so - 1 < 0.001 && so / to - 1 < 0.001 && ti / si - 1 < 0.001 && si / ti - 1 < 0.001)
    }' || fail "$profile: hdd-curves' rate table is not a long read's media rate (within 0.1%)"
done
