#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# serve.sh lets a client's requests reach the drive all at once: 32 random
# 4 KiB reads sent together over one connection (hdd-nbdread burst,
# libnbd) find the filter at queue-depth=32 with more than 16 of them
# queued or in service at some arrival (the trace).  nbdkit's default of
# 16 threads per connection held them to 16.  (QEMU's NBD client, which
# the guests use, still sends at most 16: see serve.sh.)
. "$(dirname "$0")/hdd-test-lib.sh"
requires nbdkit awk
requires_nbdread
serve=$srcdir/serve.sh
sock=$tmp/d.sock pid=$tmp/d.pid
cleanup_fns="[ -s $pid ] && kill \$(cat $pid) 2>/dev/null; $cleanup_fns"

HDD_SIZE=8G HDD_FILTER=$filter timeout 20 "$serve" "$sock" "$pid" \
    queue-depth=32 trace="$tmp/trace.csv" >/dev/null || fail "serve.sh failed"
timeout 60 "$nbdread" "nbd+unix:///?socket=$sock" 0 131072 4096 burst \
    >"$tmp/out" || { cat "$tmp/out"; fail "hdd-nbdread burst failed"; }
kill "$(cat "$pid")"
# the most requests outstanding (arrived, not yet ended) at any arrival
awk -F, 'NR > 1 && $6 == "read" { a[++n] = $1; e[n] = $3 }
    END { for (i = 1; i <= n; i++) { c = 0
            for (j = 1; j <= n; j++) if (a[j] <= a[i] && e[j] > a[i]) c++
            if (c > m) m = c }
        printf "reads %d, most at the drive at once %d\n", n, m
        exit !(n == 32 && m > 16) }' "$tmp/trace.csv" ||
    fail "the drive never had more than 16 of 32 requests sent at once"
