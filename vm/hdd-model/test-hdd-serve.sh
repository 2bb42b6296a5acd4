#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# serve.sh starts the filter on a Unix socket for QEMU, a client can
# read it, the trace survives a kill -9 of the server, and a bad
# setting makes serve.sh fail with nbdkit's message.
. "$(dirname "$0")/hdd-test-lib.sh"
requires nbdkit qemu-io
serve=$srcdir/serve.sh
sock=$tmp/d.sock pid=$tmp/d.pid
cleanup_fns="[ -s $pid ] && kill \$(cat $pid) 2>/dev/null; $cleanup_fns"

HDD_SIZE=1G HDD_FILTER=$filter timeout 20 "$serve" "$sock" "$pid" \
    time-scale=0.1 trace="$tmp/trace.csv" || fail "serve.sh failed"
[ -S "$sock" ] || fail "no socket"
timeout 20 qemu-io -f raw "nbd+unix:///?socket=$sock" \
    -c 'write -P 0x55 1M 64k' -c 'read -P 0x55 1M 64k' >"$tmp/out" ||
    { cat "$tmp/out"; fail "qemu-io through the socket failed"; }
kill -9 "$(cat "$pid")"
# SIGKILL takes effect when the process next runs, which on a loaded host
# can be after serve.sh's "already running" check below: wait (10 s at
# most) until it is gone or a zombie, as serve.sh counts it
n=0
while kill -0 "$(cat "$pid")" 2>/dev/null &&
    ! grep -q '^[0-9]* ([^)]*) Z' "/proc/$(cat "$pid")/stat" 2>/dev/null; do
    n=$((n + 1))
    [ $n -le 100 ] || fail "nbdkit (pid $(cat "$pid")) still running 10 s after kill -9"
    sleep 0.1
done
lines=$(grep -c -E '^[0-9.]+,[0-9.]+,[0-9.]+,2048,128,(read|write),' \
    "$tmp/trace.csv" || true)
[ "$lines" -eq 2 ] || { cat "$tmp/trace.csv"; fail "trace lost after kill -9"; }
# a stale socket (server killed) does not stop the next start
HDD_SIZE=1G HDD_FILTER=$filter timeout 20 "$serve" "$sock" "$pid" \
    time-scale=0 || fail "serve.sh did not restart over a stale socket"
HDD_SIZE=1G HDD_FILTER=$filter timeout 20 "$serve" "$sock" "$pid" \
    2>"$tmp/err2" && fail "serve.sh started a second server on $pid"
cat "$tmp/err2"
kill "$(cat "$pid")"

if HDD_FILTER=$filter timeout 20 "$serve" "$tmp/e.sock" "$tmp/e.pid" \
        time-scale=oops 2>"$tmp/err"; then
    kill "$(cat "$tmp/e.pid")"; fail "serve.sh accepted time-scale=oops"
fi
grep -q 'time-scale=oops' "$tmp/err" ||
    { cat "$tmp/err"; fail "serve.sh did not show nbdkit's error"; }
echo "serve.sh ok; bad setting reported: $(grep time-scale "$tmp/err")"

# A profile that does not fit the plugin's size stops the server once it
# has forked: serve.sh fails and shows the filter's message.
if HDD_SIZE=20M HDD_FILTER=$filter timeout 30 "$serve" "$tmp/s.sock" \
        "$tmp/s.pid" 2>"$tmp/err3"; then
    kill "$(cat "$tmp/s.pid")"; fail "serve.sh served a 20M disk it cannot model"
fi
grep -q "over the plugin's 20971520 bytes" "$tmp/err3" ||
    { cat "$tmp/err3"; fail "serve.sh did not show why the server stopped"; }
echo "size refused: $(grep 'over the plugin' "$tmp/err3")"
