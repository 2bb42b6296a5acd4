#!/bin/sh
# Every bad setting is refused at start: nbdkit exits non-zero and the
# message names the key (and the value or file line).
. "$(dirname "$0")/hdd-test-lib.sh"
requires nbdkit
bad=0

# expect_error WANT ARGS...: nbdkit must fail, stderr must contain WANT.
expect_error ()
{
    want=$1; shift
    if timeout 20 nbdkit -U - --filter="$filter" memory 1G "$@" \
            --run 'exit 0' >"$tmp/out" 2>&1; then
        echo "accepted: $*"; bad=$((bad + 1)); return
    fi
    if ! grep -qF -- "$want" "$tmp/out"; then
        echo "message for '$*' does not name '$want':"; cat "$tmp/out"
        bad=$((bad + 1)); return
    fi
    echo "refused $*: $(head -1 "$tmp/out")"
}

expect_error time-scale=-1 time-scale=-1
expect_error time-scale=abc time-scale=abc
expect_error time-scale=nan time-scale=nan
expect_error time-scale=1e9 time-scale=1e9
expect_error flush-cost=-5 flush-cost=-5
expect_error flush-cost=5s flush-cost=5s
expect_error readahead=lots readahead=lots
expect_error readahead=2G readahead=2G
expect_error profile=nosuch profile=nosuch
expect_error "profile=" profile=
expect_error profiles=/nonexistent/p.conf profiles=/nonexistent/p.conf
expect_error trace=/nonexistent/t.csv trace=/nonexistent/t.csv
expect_error "trace=" trace=

# Broken profiles files: each error names the file, line or key.
# mkprofile EDIT: desktop7200 with the sed EDIT applied.
mkprofile ()
{
    sed "$1" "$profiles" >"$tmp/p.conf"
}
mkprofile 's/^rpm = 7200/rpm = fast/'
expect_error "'rpm'" profiles="$tmp/p.conf"
mkprofile 's/^rpm = 7200/rpm = 0/'
expect_error "'rpm'" profiles="$tmp/p.conf"
mkprofile 's/^heads = 10/heds = 10/'
expect_error "'heds'" profiles="$tmp/p.conf"
mkprofile '/^spt-inner = 601/d'
expect_error "spt-inner" profiles="$tmp/p.conf"
mkprofile 's/^spt-inner = 601/spt-inner = 2000/'
expect_error "spt-inner" profiles="$tmp/p.conf"
mkprofile 's/^average-seek-ms = 7.4/average-seek-ms = 14/'
expect_error "average-seek-ms=14" profiles="$tmp/p.conf"
mkprofile 's/^full-stroke-ms = 15.0/full-stroke-ms = 5/'
expect_error "full-stroke-ms" profiles="$tmp/p.conf"
mkprofile 's/^zones = 30/zones = 300/'
expect_error "zones" profiles="$tmp/p.conf"
mkprofile 's/^seek-rw = 383 .*/seek-rw = 383 3.24 0.400 8.00/'
expect_error "'seek-rw'" profiles="$tmp/p.conf" profile=hp97560
mkprofile 's/^seek-rw = 383 3.24 0.400 8.00 0.008 -1/seek-rw = 383 3.24 0.400 1.00 0.008 -1/'
expect_error "continuous" profiles="$tmp/p.conf" profile=hp97560
mkprofile 's/^\[desktop7200\]/desktop7200]/'
expect_error "p.conf:" profiles="$tmp/p.conf"

# and the defaults are accepted
timeout 20 nbdkit -U - --filter="$filter" memory 1G --run 'exit 0' ||
    { echo "defaults refused"; bad=$((bad + 1)); }
[ $bad -eq 0 ] || fail "$bad bad setting(s) not refused properly"
