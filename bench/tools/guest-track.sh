#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# guest-track.sh - hc-track's tests, run INSIDE a guest on the patched
# kernel (bench/tools/track-check.sh boots it: make track-check).
#
#   sh /tests/track/guest-track.sh DEV
#
# DEV (all contents destroyed) gets a small ext4 (4 KiB blocks, 32 MiB
# groups, no root reserve) mounted with region_reserve=1, so that unhinted
# files stay out of the hot and cold regions.  20 files of mixed sizes are
# written unhinted; a reader reads them with read(2) (busybox dd) in a
# skewed pattern while hc-track watches with fanotify and moves:
#   phase A: f00-f03 read 8 times a round, one of f05-f15 once a round,
#            f16-f19 never;
#   phase B: f01-f04 read 8 times a round (f00 no longer), the rest as in A.
# hc-track --top 4 --budget 3M (the four phase-A files are 4.5 MiB: they
# cannot all move in one interval) --half-life 1 (f00 cools within a few
# intervals of phase B) --demote none --scan; g00, put in the hot region
# with hc-move before and never read, stands for a wrong hot hint.  Then,
# from FIEMAP (hc-where) and hc-track's log: f01-f04 in the hot third, f00
# moved back out of it, g00 moved out of it, f05-f19 never moved and still
# outside it, every file's inode number and SHA-256 unchanged, no
# interval over the budget, the budget deferring a move; a SIGTERM stops hc-track cleanly; bad options are refused with
# their names; e2fsck -fn is clean.  TAP on stdout ("guest: " prefix).
set -u
T=$(cd "$(dirname "$0")" && pwd)
PATH=$T:$PATH:/sbin:/usr/sbin:/bin:/usr/bin
. "$T/tap.sh"
tap_name=guest-track
TAP_PREFIX="guest: "
DEV=${1:-/dev/vda}
M=/mnt/t
D=$M/data
BUDGET=3145728
diag() { echo "# $*"; }
up() { cut -d. -f1 /proc/uptime; }
# col CSV KEYCOL KEY COL: COL of the first row whose KEYCOL is KEY
col() { awk -F, -v kc="$2" -v k="$3" -v c="$4" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	$h[kc] == k { print $h[c]; exit }' "$1"; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a + 0 >= b + 0) }'; }
sum_of() { s=$(sha256sum <"$1" 2>/dev/null | cut -d" " -f1); echo "${s:-none}"; }

MKE2FS=/sbin/mke2fs E2FSCK=/sbin/e2fsck
[ -b "$DEV" ] || { not_ok "setup: block device $DEV"; tap_done; exit 1; }
for p in hc-track hc-where; do
	[ -x "$T/$p" ] || { not_ok "setup: $T/$p missing"; tap_done; exit 1; }
done

# ---- bad input: refused before anything is watched, the option named
mkdir -p /tmp/notext4
badopt() { # DESC WANT-IN-MESSAGE ARGS...
	d=$1 w=$2
	shift 2
	"$T/hc-track" "$@" >/tmp/bad.out 2>/tmp/bad.err
	rc=$?
	if [ $rc = 2 ] && grep -q -- "$w" /tmp/bad.err; then
		ok "hc-track $d: exit 2, names $w"
	else
		not_ok "hc-track $d: exit $rc, want 2 and '$w' in: $(cat /tmp/bad.err)"
	fi
}
badopt "--top abc" "--top 'abc'" --top abc /tmp
badopt "--budget 3Q" "--budget '3Q'" --top 2 --budget 3Q /tmp
badopt "--interval 0" "--interval '0'" --top 2 --interval 0 /tmp
badopt "--demote warm" "--demote 'warm'" --top 2 --demote warm /tmp
badopt "--min-frac 2" "--min-frac '2'" --top 2 --min-frac 2 /tmp
badopt "an unknown option" "frob" --top 2 --frob /tmp
badopt "--top and --hot-bytes together" "exactly one of --top N and --hot-bytes B" --top 2 --hot-bytes 1M /tmp
badopt "without a MOUNT" "give one MOUNT" --top 2
badopt "on a directory not on ext4" "'/tmp/notext4': not on ext4" --top 2 /tmp/notext4
"$T/hc-track" --help >/tmp/help.txt 2>&1
rc=$? missing=
for o in top hot-bytes interval budget min-reads half-life demote hysteresis min-frac scan log duration quiet help; do
	grep -q -- "--$o" /tmp/help.txt || missing="$missing --$o"
done
[ $rc = 0 ] && [ -z "$missing" ] && ok "hc-track --help: exit 0, documents every option" ||
	not_ok "hc-track --help: exit $rc, undocumented:$missing"

# ---- the filesystem and the files
if ! timeout 300 "$MKE2FS" -q -F -t ext4 -b 4096 -g 8192 -m 0 \
	-E lazy_itable_init=1,lazy_journal_init=1 "$DEV" >/tmp/mkfs.log 2>&1; then
	not_ok "setup: mke2fs $DEV: $(cat /tmp/mkfs.log)"
	tap_done
	exit 1
fi
mkdir -p $M
if ! timeout 120 mount -t ext4 -o noinit_itable,region_reserve=1 "$DEV" $M 2>/tmp/mount.log; then
	not_ok "setup: mount -o region_reserve=1 $DEV: $(cat /tmp/mount.log)"
	tap_done
	exit 1
fi
mkdir -p $D
# sizes in KiB: the hot ones (f00-f04) first
SIZES="1024 2048 512 1024 1024 256 512 1024 2048 256 768 1536 256 512 1024 2048 256 512 1024 768"
i=0
for kb in $SIZES; do
	f=$(printf 'f%02d' $i)
	dd if=/dev/urandom of=$D/$f bs=1k count=$kb 2>/dev/null
	i=$((i + 1))
done
# g00: put in the hot region before hc-track starts (hc-move hot, as a
# file created with O_HOT would be) and never read: --scan finds it there
# and hc-track moves it out, a hot hint corrected by observation
dd if=/dev/urandom of=$D/g00 bs=1k count=512 2>/dev/null
sync
NAMES=$(i=0; while [ $i -lt 20 ]; do printf 'f%02d ' $i; i=$((i + 1)); done)
: >/tmp/before.txt
for f in $NAMES g00; do
	echo "$f $(stat -c %i $D/$f) $(sum_of $D/$f)" >>/tmp/before.txt
done
grep -q ' none$' /tmp/before.txt && not_ok "setup: sha256sum of the test files"
(cd $D && "$T/hc-where" $NAMES) >/tmp/where0.csv 2>/tmp/where0.err
inhot=$(awk -F, 'NR > 1 && $4 > 0 { printf "%s ", $1 }' /tmp/where0.csv)
nrows=$(awk 'END { print NR - 1 }' /tmp/where0.csv)
[ "$nrows" = 20 ] && [ -z "$inhot" ] &&
	ok "20 unhinted files written, none in the hot third (region_reserve=1)" ||
	not_ok "setup: 20 files outside the hot third: $nrows mapped, in it: $inhot $(cat /tmp/where0.err)"

"$T/hc-move" --quiet hot $D/g00 >/tmp/g00.csv 2>&1
g0=$("$T/hc-where" $D/g00 | awk -F, 'NR == 2 { print $4 }')
ge "$g0" 0.99 && ok "g00 moved into the hot third before hc-track starts ($g0)" ||
	not_ok "setup: hc-move hot g00: hot third $g0: $(cat /tmp/g00.csv)"

# ---- hc-track while a skewed reader runs
readf() { dd if="$D/$1" of=/dev/null bs=64k 2>/dev/null; }
phase() { # END-UPTIME HOT-FILES...
	end=$1
	shift
	while [ "$(up)" -lt "$end" ]; do
		for k in 1 2 3 4 5 6 7 8; do
			for f in "$@"; do readf $f; done
		done
		readf "$(printf 'f%02d' $((5 + r % 11)))"
		r=$((r + 1))
	done
}
r=0
"$T/hc-track" --top 4 --budget 3M --interval 2 --half-life 1 --min-reads 5 \
	--duration 32 --scan $D --log /tmp/track.csv $M 2>/tmp/track.err &
tracker=$!
sleep 1
t0=$(up)
phase $((t0 + 13)) f00 f01 f02 f03
phase $((t0 + 29)) f01 f02 f03 f04
wait $tracker
rc=$?
sed 's/^/#   /' /tmp/track.err | tail -n 25
diag "hc-track log:"
sed 's/^/#   /' /tmp/track.csv
[ $rc = 0 ] && grep -q 'stopped after' /tmp/track.err &&
	ok "hc-track --duration 32: ran and stopped, exit 0" ||
	not_ok "hc-track --duration 32: exit $rc"
n_int=$(grep -c '^hc-track: interval ' /tmp/track.err)
ge "$n_int" 12 && ok "hc-track: $n_int intervals of 2 s decided" ||
	not_ok "hc-track: only $n_int intervals decided in 32 s"

(cd $D && "$T/hc-where" $NAMES) >/tmp/where1.csv 2>/tmp/where1.err
for f in f01 f02 f03 f04; do
	fa=$(col /tmp/where1.csv file $f first)
	res=$(awk -F, -v f="$D/$f" '$3 == f && $8 == "hot" && $10 == "moved" { print "moved"; exit }' /tmp/track.csv)
	ge "$fa" 0.99 && [ "$res" = moved ] &&
		ok "read often: $f moved into the hot third by hc-track (FIEMAP: $fa of it there)" ||
		not_ok "read often: $f: hot third $fa (FIEMAP), log says '${res:-no move to hot}'"
done
fa=$(col /tmp/where1.csv file f00 first)
hot0=$(awk -F, -v f="$D/f00" '$3 == f && $8 == "hot" && $10 == "moved"' /tmp/track.csv | wc -l)
dem0=$(awk -F, -v f="$D/f00" '$3 == f && $8 == "none" && $10 == "moved"' /tmp/track.csv | wc -l)
[ "$hot0" -ge 1 ] && [ "$dem0" -ge 1 ] && [ -n "$fa" ] && ! ge "$fa" 0.01 &&
	ok "cooled: f00 moved hot in phase A, out of the hot third again in phase B (FIEMAP: $fa)" ||
	not_ok "cooled: f00: $hot0 moves to hot, $dem0 to none, hot third now '$fa'"
bad=
for f in f05 f06 f07 f08 f09 f10 f11 f12 f13 f14 f15 f16 f17 f18 f19; do
	fa=$(col /tmp/where1.csv file $f first)
	moved=$(awk -F, -v f="$D/$f" '$3 == f && $10 == "moved"' /tmp/track.csv | wc -l)
	{ [ -n "$fa" ] && ! ge "$fa" 0.01 && [ "$moved" = 0 ]; } || bad="$bad $f($fa,$moved)"
done
[ -z "$bad" ] && ok "read rarely or never: f05-f19 not moved, none of them in the hot third" ||
	not_ok "read rarely or never: moved or in the hot third:$bad"
fa=$(col /tmp/where1.csv file g00 first)
[ "$fa" = "" ] && fa=$("$T/hc-where" $D/g00 | awk -F, 'NR == 2 { print $4 }')
dem=$(awk -F, -v f="$D/g00" '$3 == f && $8 == "none" && $10 == "moved"' /tmp/track.csv | wc -l)
[ "$dem" -ge 1 ] && [ -n "$fa" ] && ! ge "$fa" 0.01 &&
	ok "--scan: g00, in the hot third and never read, moved out of it (FIEMAP: $fa)" ||
	not_ok "--scan: g00: $dem moves to none, hot third now '$fa'"
bad=
while read -r f ino sum; do
	[ "$(stat -c %i $D/$f)" = "$ino" ] && [ "$sum" != none ] && [ "$(sum_of $D/$f)" = "$sum" ] ||
		bad="$bad $f"
done </tmp/before.txt
[ -z "$bad" ] && ok "all 21 files: same inode number and SHA-256 as before" ||
	not_ok "inode number or contents changed:$bad"
over=$(awk -F, -v b=$BUDGET 'NR > 1 && $10 == "moved" { s[$2] += $9 }
	END { for (i in s) if (s[i] > b) printf "interval %s: %d bytes; ", i, s[i] }' /tmp/track.csv)
nmoved=$(awk -F, 'NR > 1 && $10 == "moved"' /tmp/track.csv | wc -l)
[ -z "$over" ] && [ "$nmoved" -ge 7 ] &&
	ok "budget: $nmoved moves, no interval moved more than 3 MiB" ||
	not_ok "budget: $nmoved moves; over budget: $over"
ndef=$(awk -F, 'NR > 1 && $10 == "deferred" && $8 == "hot"' /tmp/track.csv | wc -l)
ge "$ndef" 1 && ok "budget: the 4.5 MiB of phase A's hot files could not all move at once ($ndef deferred)" ||
	not_ok "budget: no move was deferred"
# rows: every moved row's bytes is the file's size
badsz=$(awk -F, 'NR > 1 && $10 == "moved" && $9 != $5 { print $3 }' /tmp/track.csv)
[ -z "$badsz" ] && ok "log: every move moved the whole file" || not_ok "log: partial moves: $badsz"

# ---- SIGTERM stops it cleanly (and a log row of a file it never moved
# does not appear)
"$T/hc-track" --top 2 --interval 1 --log /tmp/track2.csv $M 2>/tmp/track2.err &
pid=$!
sleep 3
kill -TERM $pid
wait $pid
rc=$?
[ $rc = 0 ] && grep -q 'stopped by SIGTERM' /tmp/track2.err && head -n 1 /tmp/track2.csv | grep -q '^time,interval,file,inode,size,reads,events,action,bytes,result' &&
	ok "SIGTERM: hc-track stops, exit 0, the log complete" ||
	not_ok "SIGTERM: exit $rc: $(tail -n 3 /tmp/track2.err)"

sync
if timeout 120 umount $M 2>/tmp/umount.log; then
	timeout 600 "$E2FSCK" -fn "$DEV" >/tmp/fsck.log 2>&1 &&
		ok "e2fsck -fn $DEV clean after hc-track's moves" ||
		{ not_ok "e2fsck -fn $DEV after hc-track"; sed 's/^/#   /' /tmp/fsck.log | head -30; }
else
	not_ok "umount $M: $(cat /tmp/umount.log)"
fi
tap_done
