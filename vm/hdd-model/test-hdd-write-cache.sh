#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# write-cache=on, through a real NBD client (qemu-io in writeback mode, so
# that it sends plain writes, FUA only when asked, and flushes): on the
# model's clock (the trace) a cached 4 KiB random write costs its transfer
# only, where write-cache=off pays a seek and a rotation; every cached
# write is destaged once, shortest positioning time first, faster per
# write than in arrival order; a FLUSH completes only once every earlier
# write is on the media; a FUA write goes to the media itself; a full
# cache makes writes wait for destage and never holds more than its size;
# reads see the cache (read-your-writes, also over a write split by a
# later one), and what reaches the plugin is the data written, also with
# four clients writing (some with FUA) and reading back at once while
# destages race them; clients and destages share one actuator, at
# queue-depth 1 and 32.  The filter advertises flush and FUA with the
# cache on, and no block status; without it, what the plugin has.
. "$(dirname "$0")/hdd-test-lib.sh"
requires nbdkit nbdinfo qemu-io awk od
requires_nbdio
size=68719476736
n=100
# N random 4K-aligned offsets, distinct, over SIZE (seed 7)
awk -v n=$n -v size=$size 'BEGIN { srand(7); b = size / 4096
    while (k < n) { o = int(rand() * b) * 4096; if (!(o in s)) { s[o]; k++; printf "%.0f\n", o } } }' >"$tmp/offs"
export tmp

# 1. NBD flags as the client sees them, over nbdkit's full plugin, which
#    has neither flush nor FUA: the cache adds both (and hides block
#    status, which the cache would make wrong), off passes the plugin's.
for wc in off on; do
    timeout 30 nbdkit -U - --filter="$filter" full 1G write-cache=$wc \
        --run 'nbdinfo "$uri"' >"$tmp/info.$wc" || fail "nbdinfo, write-cache=$wc"
done
grep -q 'can_flush: true' "$tmp/info.on" && grep -q 'can_fua: true' "$tmp/info.on" ||
    { cat "$tmp/info.on"; fail "write-cache=on: flush and FUA not advertised"; }
for wc in off on; do
    timeout 30 nbdkit -U - --filter="$filter" memory 1G write-cache=$wc \
        --run 'nbdinfo --map "$uri"' >"$tmp/map.$wc" || fail "nbdinfo --map, write-cache=$wc"
done
grep -q 'hole' "$tmp/map.off" && [ "$(awk '{ print $3 }' "$tmp/map.on")" = 0 ] ||
    { cat "$tmp/map.off" "$tmp/map.on"; fail "write-cache=on: the plugin's holes shown (block status would miss the cache)"; }
echo "empty memory plugin, block status: write-cache=off: $(awk '{ print $4 }' "$tmp/map.off"); on: $(awk '{ print $4 }' "$tmp/map.on")"
grep -q 'can_flush: false' "$tmp/info.off" && grep -q 'can_fua: false' "$tmp/info.off" ||
    { cat "$tmp/info.off"; fail "write-cache=off: not the plugin's flags (no flush, no FUA)"; }
echo "write-cache=off: $(grep -E 'can_(flush|fua)' "$tmp/info.off" | tr -d '\t' | tr '\n' ' ')"
echo "write-cache=on:  $(grep -E 'can_(flush|fua)' "$tmp/info.on" | tr -d '\t' | tr '\n' ' ')"

# 2. Latency on and off: N random 4K writes, then a flush, then one FUA
#    write far away (64 GiB - 4 KiB).
for wc in off on; do
    { awk '{ printf "write -P 0x5a %s 4k\n", $1 }' "$tmp/offs"
      echo flush; echo "write -f -P 0x5b $((size - 4096)) 4k"; } >"$tmp/cmds"
    timeout 100 nbdkit -U - --filter="$filter" memory $size write-cache=$wc \
        trace="$tmp/t.$wc.csv" \
        --run 'qemu-io -t writeback -f raw "$uri" <"$tmp/cmds"' >"$tmp/out.$wc" 2>&1 ||
        { cat "$tmp/out.$wc"; fail "qemu-io, write-cache=$wc"; }
    ! grep -q failed "$tmp/out.$wc" || { cat "$tmp/out.$wc"; fail "a request failed"; }
done
head -1 "$tmp/t.off.csv" | grep -q ',transfer_us,queue_us$' ||
    fail "write-cache=off: the trace's columns changed"
head -1 "$tmp/t.on.csv" | grep -q ',transfer_us,queue_us,cached,cache_bytes$' ||
    fail "write-cache=on: the trace does not end in cached,cache_bytes"
awk -F, -v n=$n -v fua=$((size / 512 - 8)) '
    FNR == 1 { f++; delete col; for (i = 1; i <= NF; i++) col[$i] = i; next }
    { op = $col["op"]; lat = $col["end_us"] - $col["arrival_us"] }
    op == "write" && $col["lba"] == fua { fua_lat[f] = lat; fua_seek[f] = $col["seek_us"]; fua_cached[f] = $col["cached"]; next }
    op == "write" { w[f]++; wlat[f] += lat; svc[f] += $col["end_us"] - $col["start_us"]
        if (f == 2 && $col["cached"] != 1) notcached++
        if (f == 2 && !flush_arr) last_w = $col["arrival_us"] }
    op == "destage" { d++; dsvc += $col["end_us"] - $col["start_us"]; if ($col["end_us"] > dend) dend = $col["end_us"]
        if ($col["arrival_us"] <= last_w) dfl++ }
    op == "flush" && f == 2 && !flush_arr { flush_arr = $col["arrival_us"]; flush_start = $col["start_us"]; flush_end = $col["end_us"]; dend_at_flush = dend }
    END {
        printf "write-cache=off: %d writes, mean %.3f ms from arrival to completion (media)\n", w[1], wlat[1] / w[1] / 1000
        printf "write-cache=on:  %d writes, mean %.3f ms (cache: transfer only), %d not cached\n", w[2], wlat[2] / w[2] / 1000, notcached
        printf "media time per write: %.3f ms in arrival order (off), %.3f ms per destage in positioning order (on), %d destages\n", svc[1] / w[1] / 1000, dsvc / d / 1000, d
        printf "flush: waited %.1f ms for the destages (arrived %.0f, last destage ended %.0f, flush done %.0f us)\n", (flush_start - flush_arr) / 1000, flush_arr, dend_at_flush, flush_end
        printf "FUA write: %.3f ms (seek %.3f ms, cached=%s) with the cache on, %.3f ms off\n", fua_lat[2] / 1000, fua_seek[2] / 1000, fua_cached[2], fua_lat[1] / 1000
        bad = 0
        if (w[1] != n || w[2] != n || notcached) { print "FAIL: writes missing or not cached"; bad = 1 }
        if (!(wlat[2] / n < 500 && wlat[1] / n > 3000)) { print "FAIL: cached writes not faster than media writes"; bad = 1 }
        if (d != n) { print "FAIL: not one destage per write"; bad = 1 }
        if (!(dsvc / d < svc[1] / n)) { print "FAIL: positioning order not faster per write than arrival order"; bad = 1 }
        if (!(flush_arr > 0 && dend_at_flush <= flush_start + 0.001 && dfl == n && flush_start - flush_arr > 10000)) { print "FAIL: the flush did not wait for every write on the media"; bad = 1 }
        if (!(fua_cached[2] == "0" && fua_seek[2] > 1000 && fua_lat[2] > 1000)) { print "FAIL: the FUA write did not go to the media"; bad = 1 }
        exit bad
    }' "$tmp/t.off.csv" "$tmp/t.on.csv" || fail "write cache on vs off"

# 3. A full cache: 64K and 64 random 4K writes; the writes after the
#    first 16 wait for destage, and the cache never holds more than 64K.
#    At time-scale=5 a destage lasts 25 ms of real time or more, so
#    that a client slowed by a loaded host still finds the cache full.
head -64 "$tmp/offs" | awk '{ printf "write -P 0x33 %s 4k\n", $1 }' >"$tmp/cmds"
timeout 100 nbdkit -U - --filter="$filter" memory $size write-cache=on \
    write-cache-size=64K trace="$tmp/full.csv" time-scale=5 \
    --run 'qemu-io -t writeback -f raw "$uri" <"$tmp/cmds"' >"$tmp/out" 2>&1 ||
    { cat "$tmp/out"; fail "qemu-io, write-cache-size=64K"; }
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { b = $col["cache_bytes"]; if (b > max) max = b }
    $col["op"] == "write" { w++; q = $col["queue_us"]
        if (w <= 16 && q > 1000) early++
        if (w > 16 && q > 1000) { waited++; wait += q } }
    END {
        printf "write-cache-size=64K: %d writes, %d of the last 48 waited for destage (mean %.1f ms), %d of the first 16; most held %d bytes\n", w, waited, waited ? wait / waited / 1000 : 0, early, max
        exit !(w == 64 && max <= 65536 && max >= 61440 && early == 0 && waited >= 40)
    }' "$tmp/full.csv" || fail "cache full"

# 4. Read-your-writes and the data: 64K of 0x11 with 4K of 0x22 in its
#    middle (a later write splits the cached extent), read back from the
#    cache, then in the plugin (a file) once the server is gone.  A far
#    write first keeps the drive busy (time-scale=5: 50 ms of real time
#    or more), so that the rest is still in the cache when read.
truncate -s 1G "$tmp/disk"
timeout 60 nbdkit -U - --filter="$filter" file "$tmp/disk" write-cache=on \
    trace="$tmp/ryw.csv" time-scale=5 \
    --run 'qemu-io -t writeback -f raw "$uri" -c "write -P 0x77 900M 4k" \
               -c "write -P 0x11 1M 64k" \
               -c "write -P 0x22 1028k 4k" -c "read -P 0x11 1M 4k" \
               -c "read -P 0x22 1028k 4k" -c "read -P 0x11 1032k 56k" \
               -c "write -P 0x44 1036k 1k"  -c "read -P 0x44 1036k 1k"' >"$tmp/out" 2>&1 ||
    { cat "$tmp/out"; fail "qemu-io: read-your-writes"; }
! grep -qi 'fail' "$tmp/out" || { cat "$tmp/out"; fail "a read did not see the cache"; }
got=$(od -An -v -tx1 -j 1048576 -N 65536 "$tmp/disk" | tr -s ' \n' '\n' | grep . | uniq -c | awk '{ printf "%s*%s ", $2, $1 }')
echo "plugin data after the run: $got"
[ "$got" = "11*4096 22*4096 11*4096 44*1024 11*52224 " ] || fail "the plugin's data is not what was written"
awk -F, '$6 == "read" && $12 == 1 { hits++ } END { printf "%d of 4 reads served from the cache\n", hits; exit !(hits >= 3) }' "$tmp/ryw.csv" ||
    fail "reads the cache held were not served from it"

# 5. Four clients at once at time-scale=0.02 (a destage lasts a few
#    tenths of a millisecond: the clients keep the 64K cache full and a
#    rewrite finds older data of its block in it), each writes 300
#    random 4K blocks of its own 16 MiB, rewriting some, one write in
#    five with FUA (to the media, past older cached data of the block),
#    and reads every block back right after writing it (while it may be
#    in the cache, being destaged, or on the media); at the end the file
#    holds each block's last write.
truncate -s 1G "$tmp/race"
for c in 0 1 2 3; do
    awk -v c=$c 'BEGIN { srand(100 + c)
        for (i = 0; i < 300; i++) {
            o = (c * 4096 + int(rand() * 64)) * 4096; v = 1 + (i * 7 + c) % 254
            printf "%s %d 4096 %d\nread %d 4096 %d\n", i % 5 == 4 ? "fua" : "write", o, v, o, v
        } }' >"$tmp/race.$c"
done
timeout 100 nbdkit -U - --filter="$filter" file "$tmp/race" write-cache=on \
    write-cache-size=64K time-scale=0.02 trace="$tmp/race.csv" \
    --run 'for c in 0 1 2 3; do "$nbdio" "$uri" <"$tmp/race.$c" >"$tmp/race.out.$c" 2>&1 & done; wait' ||
    fail "four clients at time-scale=0: nbdkit failed"
cat "$tmp/race.out".* | grep -v '^ok ' | head -5 >"$tmp/race.bad"
[ -s "$tmp/race.bad" ] && { cat "$tmp/race.bad"; fail "a client read other data than it had just written, or a request failed"; }
cat "$tmp/race".[0-3] | awk '$1 == "write" || $1 == "fua" { last[$2] = $4 } END { for (o in last) print o, last[o] }' |
    while read -r o v; do
        got=$(od -An -v -tu1 -j "$o" -N 4096 "$tmp/race" | tr -s ' \n' '\n' | grep . | sort -u | tr '\n' ' ')
        [ "$got" = "$v " ] || echo "block at $o: $got, last written $v"
    done >"$tmp/race.file"
[ -s "$tmp/race.file" ] && { head -5 "$tmp/race.file"; fail "the file does not hold each block's last write"; }
awk -F, '$6 == "destage" { d++ } $6 == "write" && $12 == 1 { w++ } END {
    printf "four clients, time-scale=0.02: 1200 writes (%d cached, %d FUA), %d destages, every read saw its write, the file holds the last ones\n", w, 1200 - w, d }' "$tmp/race.csv"

# 6. One actuator for clients and destages, also with queue-depth=32:
#    one client writes the 100 blocks (cached), another reads 60 random
#    blocks meanwhile; in the trace no two media operations (reads,
#    destages, media writes) overlap, and every write is destaged.
awk '{ printf "write -P 0x66 %s 4k\n", $1 }' "$tmp/offs" >"$tmp/w"
random_reads 60 $size 5 >"$tmp/r"
for depth in 1 32; do
    timeout 100 nbdkit -U - --filter="$filter" memory $size write-cache=on \
        queue-depth=$depth trace="$tmp/one.csv" \
        --run 'qemu-io -t writeback -f raw "$uri" <"$tmp/w" >/dev/null & w=$!
               qemu-io -f raw -r "$uri" <"$tmp/r" >/dev/null & r=$!
               wait $w && wait $r' || fail "queue-depth=$depth: qemu-io failed"
    sort -t, -k2,2n "$tmp/one.csv" | awk -F, -v depth=$depth -v n=$n '
        $1 == "arrival_us" { next }
        $6 == "destage" { d++ }
        $6 == "read" && $12 == 0 && $2 - $1 > 100 { waited++ }
        ($6 == "destage" || $6 == "read" && $12 == 0 || $6 == "write" && $12 == 0) {
            m++; if (m > 1 && $2 < prev_end - 0.001) { overlap++; print "overlap: " $0 }
            prev_end = $3 }
        END {
            printf "queue-depth=%d: %d media operations, %d destages, %d overlaps, %d reads waited for the drive\n", depth, m, d, overlap, waited
            exit !(overlap == 0 && d == n && m >= n + 60)
        }' || fail "queue-depth=$depth: clients and destages not served one at a time"
done
