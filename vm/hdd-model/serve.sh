#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Serve a virtual spinning disk on a Unix socket for QEMU.
#
# Usage: vm/hdd-model/serve.sh SOCKET PIDFILE [filter-args...]
#   e.g. vm/hdd-model/serve.sh /tmp/d.sock /tmp/d.pid profile=laptop5400
# Environment:
#   HDD_SIZE    disk size (default 64G)
#   HDD_FILE    if set, serve this sparse file (created at HDD_SIZE if
#               missing) with nbdkit's file plugin instead of memory
#   HDD_BASE    if set, serve this existing raw image instead, under nbdkit's
#               cow filter: reads come from HDD_BASE, writes go to a
#               temporary overlay and HDD_BASE is never written
#   HDD_FILTER  the filter (default $BUILD/hdd/nbdkit-hdd-filter.so)
#   HDD_WAIT    seconds to wait for the socket (default 10)
# nbdkit runs in the background (its own session) with --pidfile; its
# messages go to SOCKET.log.  A bad setting, or a profile that does not
# fit the plugin's size, makes serve.sh fail and show nbdkit's message.  Stop it with: kill "$(cat PIDFILE)".
# Attach QEMU with:
#   -blockdev driver=nbd,node-name=hdd0,server.type=unix,server.path=SOCKET
#   -device virtio-blk-pci,drive=hdd0
# (the guest sees rotational=1: the filter reports it over NBD).
set -eu

if [ $# -lt 2 ]; then
    echo "usage: $0 SOCKET PIDFILE [filter-args...]" >&2
    exit 2
fi
sock=$1 pidfile=$2
shift 2
top=$(cd "$(dirname "$0")/../.." && pwd)
filter=${HDD_FILTER:-${BUILD:-$top/build}/hdd/nbdkit-hdd-filter.so}
size=${HDD_SIZE:-64G}
wait=${HDD_WAIT:-10}
log=$sock.log

command -v nbdkit >/dev/null ||
    { echo "$0: nbdkit not found (vm/lib/install-deps.sh disk)" >&2; exit 1; }
[ -f "$filter" ] ||
    { echo "$0: $filter missing: run 'make hdd' (or set HDD_FILTER)" >&2; exit 1; }
case $wait in ''|*[!0-9]*)
    echo "$0: HDD_WAIT=$wait: expected whole seconds" >&2; exit 2 ;;
esac
# alive PID: running (a killed server may linger as a zombie until its
# parent reaps it).
alive ()
{
    kill -0 "$1" 2>/dev/null &&
        ! grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat" 2>/dev/null
}

if [ -s "$pidfile" ] && alive "$(cat "$pidfile")"; then
    echo "$0: $pidfile: nbdkit already running (pid $(cat "$pidfile"));" \
        "stop it with: kill $(cat "$pidfile")" >&2
    exit 1
fi
# nbdkit leaves its socket behind when killed: a socket without a live
# server is stale.  Anything else at that path is not ours to remove.
if [ -S "$sock" ]; then
    rm -f "$sock"
elif [ -e "$sock" ]; then
    echo "$0: $sock exists and is not a socket: choose another path" >&2
    exit 1
fi
rm -f "$pidfile"

cow=""
if [ -n "${HDD_BASE:-}" ]; then
    [ -r "$HDD_BASE" ] ||
        { echo "$0: HDD_BASE=$HDD_BASE: not readable" >&2; exit 1; }
    cow=--filter=cow
    set -- file file="$HDD_BASE" "$@"
elif [ -n "${HDD_FILE:-}" ]; then
    [ -e "$HDD_FILE" ] || truncate -s "$size" "$HDD_FILE" ||
        { echo "$0: HDD_FILE=$HDD_FILE: cannot create" >&2; exit 1; }
    set -- file file="$HDD_FILE" "$@"
else
    set -- memory size="$size" "$@"
fi

# Without -f nbdkit checks its settings, binds the socket, then forks
# into the background; the parent's exit status says if that worked.
# --threads: nbdkit serves at most that many requests of a connection
# at once (default 16), so the filter's queue-depth (up to 32) would
# never see more than 16; 64 leaves the client as the only limit.
# (QEMU's NBD client, which the guests use, sends at most 16 at once:
# MAX_NBD_REQUESTS in its block/nbd.c, a constant with no setting.)
if ! nbdkit --threads 64 --unix "$sock" --pidfile "$pidfile" --log=stderr \
        --filter="$filter" $cow "$@" 2>"$log"; then
    echo "$0: nbdkit failed to start; its log ($log):" >&2
    cat "$log" >&2
    exit 1
fi

i=0
while [ ! -S "$sock" ] || [ ! -s "$pidfile" ]; do
    if [ $i -ge $((wait * 10)) ]; then
        echo "$0: no socket $sock after ${wait}s; nbdkit log ($log):" >&2
        cat "$log" >&2
        [ -s "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null
        exit 1
    fi
    sleep 0.1
    i=$((i + 1))
done
pid=$(cat "$pidfile")
# The filter lays its profile over the plugin's size once nbdkit has
# forked (the size is not known before), and a profile that does not fit
# makes the server exit then.  A handshake waits for that check and
# fails at once if the server has gone.
if command -v nbdinfo >/dev/null; then
    timeout "$wait" nbdinfo --size "nbd+unix:///?socket=$sock" \
        >/dev/null 2>&1 || sleep 0.2
else
    sleep 0.2
fi
if ! alive "$pid"; then
    # A forked nbdkit sends its stderr to /dev/null: run the same
    # command captive for a second to show why it stopped.
    timeout 20 nbdkit -U - --filter="$filter" $cow "$@" --run 'sleep 1' \
        >>"$log" 2>&1 || :
    echo "$0: nbdkit (pid $pid) exited after starting; its log ($log):" >&2
    cat "$log" >&2
    exit 1
fi
echo "$0: serving $* on $sock (pid $pid, log $log)"
