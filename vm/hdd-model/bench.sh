#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# hdd-bench: the filter's own per-request cost.  4 KiB reads at queue
# depth 1 (hdd-nbdread, libnbd) over plain nbdkit memory and over the
# filter at time-scale=0 (model bookkeeping, no delays); rounds
# alternate and the best of each is kept.  Prints "overhead ratio X.XXX"
# (filter time / plain time; target <= 1.05).  Not a test: no verdict.
set -eu
srcdir=$(cd "$(dirname "$0")" && pwd)
HDD_BUILD=${HDD_BUILD:-$srcdir/../../build/hdd}
filter=$HDD_BUILD/nbdkit-hdd-filter.so
nbdread=$HDD_BUILD/hdd-nbdread
rounds=${HDD_BENCH_ROUNDS:-5}
len=${HDD_BENCH_BYTES:-134217728}
[ -x "$nbdread" ] || { echo "$0: $nbdread not built (libnbd-dev)" >&2; exit 1; }
export nbdread len

# run [FILTER [FILTER-ARGS...]]: seconds for len bytes of 4K reads.
run ()
{
    f=
    [ $# -gt 0 ] && { f=--filter=$1; shift; }
    timeout 120 nbdkit -U - $f memory 64G "$@" \
        --run '"$nbdread" "$uri" 0 "$len" 4096' | awk '{ print $2 }'
}

best_plain= best_hdd=
i=0
while [ $i -lt "$rounds" ]; do
    p=$(run)
    h=$(run "$filter" time-scale=0)
    echo "round $((i + 1)): plain ${p}s, hdd ${h}s ($((len / 4096)) reads each)"
    best_plain=$(awk -v b="$best_plain" -v t="$p" 'BEGIN { print (b == "" || t < b) ? t : b }')
    best_hdd=$(awk -v b="$best_hdd" -v t="$h" 'BEGIN { print (b == "" || t < b) ? t : b }')
    i=$((i + 1))
done
awk -v p="$best_plain" -v h="$best_hdd" -v n=$((len / 4096)) 'BEGIN {
    printf "plain %.1f us/read, hdd %.1f us/read\n", p / n * 1e6, h / n * 1e6
    printf "overhead ratio %.3f\n", h / p
}'
