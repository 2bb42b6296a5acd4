#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every bad setting is refused at start: nbdkit exits non-zero and the
# message names the key (and the value or file line).  Profile keys out
# of their plausible range are refused with the range; an unknown key is
# named as unknown, with the known keys; a key given twice is refused,
# naming it.  The profile is laid over the
# plugin's real size when the server starts: a profile that does not fit
# it, or a size of 0, stops the server before any client connects.
. "$(dirname "$0")/hdd-test-lib.sh"
requires nbdkit qemu-io
bad=0

# expect_error WANT ARGS...: nbdkit must fail, stderr must contain WANT.
expect_error ()
{
    want=$1; shift
    expect_error_size "$want" 1G "$@"
}

# expect_error_size WANT SIZE ARGS...: the same over a plugin of SIZE.
# The size is checked once nbdkit has forked its captive server, so the
# --run command waits: a server that refused its size is gone by then
# (nbdkit exits with its status), one that accepted it is still there
# (nbdkit exits 0: accepted).
expect_error_size ()
{
    want=$1 size=$2; shift 2
    if timeout 20 nbdkit -U - --filter="$filter" memory "$size" "$@" \
            --run 'sleep 2' >"$tmp/out" 2>&1; then
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
expect_error "queue-depth=0: expected 1" queue-depth=0
expect_error "queue-depth=33: expected 1" queue-depth=33
expect_error queue-depth=deep queue-depth=deep
expect_error queue-age=-1 queue-age=-1
expect_error "queue-age=70000: expected milliseconds from 0 to 60000" queue-age=70000
expect_error profile=nosuch profile=nosuch
expect_error "profile=" profile=
expect_error profiles=/nonexistent/p.conf profiles=/nonexistent/p.conf
expect_error trace=/nonexistent/t.csv trace=/nonexistent/t.csv
expect_error "trace=" trace=
expect_error "write-cache=maybe: expected on or off" write-cache=maybe
expect_error "write-cache=: expected on or off" write-cache=
expect_error "write-cache-size=32K: expected a size from 64K to 1G" write-cache=on write-cache-size=32K
expect_error "write-cache-size=2G: expected a size from 64K to 1G" write-cache=on write-cache-size=2G
expect_error "write-cache-size=0: expected a size from 64K to 1G" write-cache=on write-cache-size=0
expect_error "write-cache-size=lots: expected a size from 64K to 1G" write-cache=on write-cache-size=lots
expect_error "write-cache-size=-1M: expected a size from 64K to 1G" write-cache=on write-cache-size=-1M
expect_error "write-cache-size=16M needs write-cache=on" write-cache-size=16M
expect_error "write-cache-size=16M needs write-cache=on" write-cache=off write-cache-size=16M
expect_error "queue-depth=-1: expected 1" queue-depth=-1
# a key given twice is refused, naming the key and both values
expect_error "profile=laptop5400: profile= was already given (profile=desktop7200)" \
    profile=desktop7200 profile=laptop5400
expect_error "time-scale=1: time-scale= was already given (time-scale=0)" \
    time-scale=0 time-scale=1
expect_error "write-cache=on: write-cache= was already given (write-cache=on)" \
    write-cache=on write-cache=on
expect_error "trace=$tmp/b.csv: trace= was already given (trace=$tmp/a.csv)" \
    trace="$tmp/a.csv" trace="$tmp/b.csv"

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
expect_error "unknown key 'heds' (known keys: rpm, heads," profiles="$tmp/p.conf"
mkprofile 's/^rpm = 7200/rpm = 0.001/'
expect_error "'rpm' = 0.001 is out of range: expected 3600 to 20000" profiles="$tmp/p.conf"
mkprofile 's/^head-switch-ms = 1.6/head-switch-ms = 10000/'
expect_error "'head-switch-ms' = 10000 is out of range: expected 0 to 5 ms" profiles="$tmp/p.conf"
# every key has a range: one implausible value each (PROFILE KEY VALUE RANGE)
while read -r prof key value range; do
    mkprofile "/^\[$prof\]/,/^\[/s/^$key = .*/$key = $value/"
    grep -q "^$key = $value\$" "$tmp/p.conf" || { echo "no $key in [$prof]"; bad=$((bad + 1)); continue; }
    expect_error "'$key' = $value is out of range: expected $range" \
        profiles="$tmp/p.conf" profile=$prof
done <<EOF
desktop7200 rpm 25000 3600 to 20000
desktop7200 heads 100 1 to 64
desktop7200 zones 0 1 to 256
desktop7200 spt-outer 50000 16 to 10000
desktop7200 spt-inner 8 16 to 10000
desktop7200 track-to-track-ms 0.001 0.05 to 5
desktop7200 average-seek-ms 300 1 to 30
desktop7200 full-stroke-ms 150 2 to 50
desktop7200 write-settle-ms 8 0 to 5
hp97560 cylinders 10 100 to 2000000
EOF
mkprofile 's/^seek-rw = 383 3.24 0.400 8.00 0.008 -1/seek-rw = 383 3.24 0.400 8.00 5 -1/'
expect_error "'seek-rw' = 383 3.24 0.400 8.00 5 -1: e = 5 is out of range: expected 0 to 1" \
    profiles="$tmp/p.conf" profile=hp97560
mkprofile 's/^head-switch-ms = 1.6/&\ntrack-skew-ms = 20/'
expect_error "'track-skew-ms' = 20 is out of range: expected 0 to 10 ms" profiles="$tmp/p.conf"
mkprofile 's/^head-switch-ms = 1.6/&\ncylinder-skew-ms = -1/'
expect_error "'cylinder-skew-ms' = -1 is out of range: expected 0 to 10 ms" profiles="$tmp/p.conf"
mkprofile 's/^head-switch-ms = 1.6/&\ntrack-skew-inner-ms = 11/'
expect_error "'track-skew-inner-ms' = 11 is out of range: expected 0 to 10 ms" profiles="$tmp/p.conf"
mkprofile 's/^head-switch-ms = 1.6/&\ncylinder-skew-inner-ms = -0.5/'
expect_error "'cylinder-skew-inner-ms' = -0.5 is out of range: expected 0 to 10 ms" profiles="$tmp/p.conf"
# enterprise15k turns once in 4 ms
mkprofile '/^\[enterprise15k\]/,/^\[/s/^head-switch-ms = 0.5/&\ntrack-skew-ms = 5/'
expect_error "track-skew-ms must be less than one revolution" \
    profiles="$tmp/p.conf" profile=enterprise15k
mkprofile '/^\[enterprise15k\]/,/^\[/s/^head-switch-ms = 0.5/&\ncylinder-skew-inner-ms = 4.5/'
expect_error "cylinder-skew-inner-ms must be less than one revolution" \
    profiles="$tmp/p.conf" profile=enterprise15k
mkprofile 's/^heads = 10/heads = 2.5/'
expect_error "'heads' = 2.5: expected a whole number from 1 to 64" profiles="$tmp/p.conf"
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

# The plugin's real size: 0, and sizes the profile cannot be laid over
# (4 cylinders cannot have a 7.4 ms average seek), while the same
# profile over 64G (the size it used to be checked at) is accepted.
expect_error_size "over the plugin's 0 bytes: the plugin's size is 0" 0
expect_error_size "over the plugin's 20971520 bytes: average-seek-ms=7.4 cannot be fitted" 20M
mkprofile 's/^average-seek-ms = 7.4/average-seek-ms = 5.5/'
expect_error_size "average-seek-ms=5.5 cannot be fitted" 20M profiles="$tmp/p.conf"
timeout 20 nbdkit -U - --filter="$filter" memory 64G profiles="$tmp/p.conf" \
    --run 'sleep 2' || { echo "average-seek-ms=5.5 refused at 64G"; bad=$((bad + 1)); }

# profiles= and trace= relative to the directory nbdkit was started in
# (nbdkit_absolute_path): the trace is written there
sed 's/^rpm = 7200/rpm = 5400/' "$profiles" >"$tmp/rel.conf"
(cd "$tmp" && timeout 20 nbdkit -U - --filter="$filter" memory 1G \
    profiles=rel.conf trace=rel.csv time-scale=0 \
    --run 'qemu-io -f raw -r "$uri" -c "read 0 4k" >/dev/null') ||
    { echo "relative profiles=/trace= refused"; bad=$((bad + 1)); }
grep -q '^arrival_us,' "$tmp/rel.csv" && grep -q ',read,' "$tmp/rel.csv" ||
    { echo "trace=rel.csv not written in the start directory"; bad=$((bad + 1)); }

# and the defaults are accepted
timeout 20 nbdkit -U - --filter="$filter" memory 1G --run 'exit 0' ||
    { echo "defaults refused"; bad=$((bad + 1)); }
for ok in "write-cache=on" "write-cache=on write-cache-size=64K" \
          "write-cache=on write-cache-size=1G" "write-cache=off"; do
    # shellcheck disable=SC2086
    timeout 20 nbdkit -U - --filter="$filter" memory 1G $ok --run 'sleep 1' ||
        { echo "$ok refused"; bad=$((bad + 1)); }
done
[ $bad -eq 0 ] || fail "$bad bad setting(s) not refused properly"
