#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The power cut (SIGUSR1 to nbdkit) with write-cache=on, over a file: one
# client session (hdd-nbdio) writes set A (random 4K blocks) and flushes, writes one
# FUA block, then writes set B and stays connected while nbdkit gets
# SIGUSR1.  Afterwards, in the file: every block of A and the FUA block
# hold their data; a block of B holds its data if and only if the trace
# has its destage ending before the cut (and some of B, cached and not
# yet destaged, is absent); the trace's powercut row counts the lost
# bytes.  Every request after the cut fails with EIO, on that connection
# and on a new one.  The same cut with write-cache=off loses nothing
# that was written (each write completed on the media).  At time-scale=4 the 40
# blocks of B take over a second of real time to destage: the cut, 0.1 s
# after B, lands among them even on a loaded host.
. "$(dirname "$0")/hdd-test-lib.sh"
requires nbdkit awk od
requires_nbdio
size=1073741824
# 60 distinct random 4K blocks (seed 11): the first 20 are A, the rest B;
# the FUA block is at 1020M, apart from both.
awk -v size=$size 'BEGIN { srand(11); b = size / 4096 - 1024
    while (k < 60) { o = int(rand() * b) * 4096; if (!(o in s)) { s[o]; k++; printf "%.0f\n", o } } }' >"$tmp/offs"
head -20 "$tmp/offs" >"$tmp/a"
tail -40 "$tmp/offs" >"$tmp/b"
fua=$((1020 * 1048576))
export tmp

# block_byte FILE OFFSET: the one byte value a 4K block holds ("mixed"
# if not uniform), in hex.
block_byte ()
{
    od -An -v -tx1 -j "$2" -N 4096 "$1" | tr -s ' \n' '\n' | grep . | sort -u |
        awk '{ v = $1; n++ } END { print n == 1 ? v : "mixed" }'
}

for wc in on off; do
    rm -f "$tmp/disk" "$tmp/pid"
    truncate -s $size "$tmp/disk"
    # The session (hdd-nbdio: it reads a command only when it needs it,
    # and never flushes on its own): A, flush, FUA, B; once B is done,
    # still connected, the cut; then a read, a write and a flush that
    # must fail, and a read on a new connection.
    timeout 60 nbdkit -U - -P "$tmp/pid" --filter="$filter" file "$tmp/disk" \
        write-cache=$wc trace="$tmp/t.csv" time-scale=4 \
        --run '{ awk "{ printf \"write %s 4096 161\\n\", \$1 }" "$tmp/a"
                 echo flush
                 echo "fua '$fua' 4096 245"
                 awk "{ printf \"write %s 4096 178\\n\", \$1 }" "$tmp/b"
                 echo "say B done"
                 i=0
                 until grep -q "^B done" "$tmp/session"; do
                     sleep 0.01; i=$((i + 1)); [ $i -lt 1000 ] || break
                 done
                 sleep 0.1
                 kill -USR1 "$(cat "$tmp/pid")"
                 sleep 0.2
                 echo "read 0 4096 0"; echo "write 0 4096 195"; echo flush
               } | "$nbdio" "$uri" >"$tmp/session" 2>&1
               echo "read 0 4096 0" | "$nbdio" "$uri" >"$tmp/after" 2>&1
               exit 0' ||
        fail "write-cache=$wc: nbdkit failed"
    grep -q '^error read 0: .*Input/output error' "$tmp/after" ||
        { cat "$tmp/after"; fail "write-cache=$wc: a new connection's read did not fail with EIO"; }
    fails=$(sed -n '/^B done/,$p' "$tmp/session" | grep -c '^error .*Input/output error')
    [ "$fails" -eq 3 ] ||
        { cat "$tmp/session"; fail "write-cache=$wc: the 3 requests after the cut did not all fail with EIO"; }
    [ "$(sed -n '/^B done/q;p' "$tmp/session" | grep -c '^ok ')" -eq 62 ] ||
        { cat "$tmp/session"; fail "write-cache=$wc: the 62 requests before the cut did not all succeed"; }
    # Blocks of A and the FUA block hold their data.
    for o in $(cat "$tmp/a"); do
        [ "$(block_byte "$tmp/disk" "$o")" = a1 ] ||
            fail "write-cache=$wc: block $o written and flushed before the cut is not in the file"
    done
    [ "$(block_byte "$tmp/disk" $fua)" = f5 ] ||
        fail "write-cache=$wc: the FUA block is not in the file"
    # B: present iff destaged (or, cache off, written) before the cut.
    for o in $(cat "$tmp/b"); do echo "$o,$(block_byte "$tmp/disk" "$o")"; done >"$tmp/bstate"
    awk -F, -v wc=$wc '
        FNR == NR { state[$1 / 512] = $2; next }
        FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["op"] == "powercut" { cut = $col["start_us"]; lost = $col["sectors"] * 512; next }
        $col["op"] == (wc == "on" ? "destage" : "write") && ($col["lba"] in state) { end[$col["lba"]] = $col["end_us"] }
        END {
            for (l in state) {
                n++
                on_media = (l in end) && end[l] <= cut
                if (state[l] == "b2") present++
                else if (state[l] != "00") { printf "block at LBA %d: %s\n", l, state[l]; bad++ }
                if (on_media != (state[l] == "b2")) {
                    printf "block at LBA %d: %s in the file, %s on the media at the cut (%.0f us)\n", l, state[l], on_media ? "" : "not", cut; bad++ }
            }
            printf "write-cache=%s: cut at %.0f us; B: %d of %d blocks on the media and in the file, %d lost; the cut reports %d bytes lost\n", wc, cut, present, n, n - present, lost
            if (!cut) { print "no powercut row"; exit 1 }
            if (wc == "on" && !(n - present > 0 && lost == (n - present) * 4096)) { print "the cut lost nothing, or not what it reports"; exit 1 }
            if (wc == "off" && !(present == n && lost == 0)) { print "write-cache=off lost a completed write"; exit 1 }
            exit bad > 0
        }' "$tmp/bstate" "$tmp/t.csv" || fail "write-cache=$wc: the file does not match the media at the cut"
    echo "write-cache=$wc: A (20 blocks, flushed) and the FUA block intact; $fails requests after the cut failed with EIO, and a new connection's read"
done
