#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Command queueing through real NBD clients (qemu-io, one connection
# each): a long read A at LBA 0 keeps the drive busy; while it runs, a
# far read F (60G) and then a near one N (just past A's end) arrive.
# With queue-depth=32 the drive serves N before F, though F came first;
# with queue-depth=1 it serves them in arrival order, as it always did.
# The trace's last column, queue_us, is start_us - arrival_us.
. "$(dirname "$0")/hdd-test-lib.sh"
requires nbdkit qemu-io awk
size=68719476736
# At time-scale=20 the 8M read A lasts over two seconds: F is sent once
# A is in the trace (being served), N half a second after F.
export tmp
for depth in 32 1; do
    trace=$tmp/q$depth.csv; export trace
    timeout 60 nbdkit -U - --filter="$filter" memory $size \
        queue-depth=$depth time-scale=20 trace="$trace" \
        --run 'qemu-io -f raw -r "$uri" -c "read 0 8M" >/dev/null & a=$!
               i=0
               until grep -q "^[0-9.]*,[0-9.]*,[0-9.]*,0,16384," "$trace"; do
                   sleep 0.05; i=$((i + 1)); [ $i -lt 200 ] || exit 1
               done
               qemu-io -f raw -r "$uri" -c "read 60G 4k" >/dev/null & f=$!
               sleep 0.5
               qemu-io -f raw -r "$uri" -c "read 8256k 4k" >/dev/null & n=$!
               wait $a && wait $f && wait $n' ||
        fail "nbdkit/qemu-io failed at queue-depth=$depth"
    head -1 "$tmp/q$depth.csv" | grep -q ',transfer_us,queue_us$' ||
        fail "trace header does not end in queue_us"
    awk -F, -v depth=$depth '
        NR == 1 { next }
        { if ($11 < $2 - $1 - 0.01 || $11 > $2 - $1 + 0.01) badq++ }
        $4 == 0 && $5 == 16384 { a_end = $3 }
        $4 == 125829120 { f_arr = $1; f_start = $2 }
        $4 == 16512 && $5 == 8 { n_arr = $1; n_start = $2 }
        END {
            printf "queue-depth=%d: A ends %.0f us; far arrives %.0f starts %.0f; near arrives %.0f starts %.0f\n", depth, a_end, f_arr, f_start, n_arr, n_start
            if (badq) { print "queue_us is not start_us - arrival_us"; exit 1 }
            if (!(f_arr < a_end && n_arr < a_end)) { print "far and near did not both wait for A"; exit 1 }
            if (depth > 1) exit !(n_start < f_start)
            exit !((f_arr < n_arr) == (f_start < n_start))
        }' "$tmp/q$depth.csv" ||
        { cat "$tmp/q$depth.csv"; fail "queue-depth=$depth: wrong order"; }
done
