#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# engine-guest-check.sh - the hotcold fio engine on a real ext4, in a guest.
#
# Runs inside a vm/runner/run guest (busybox sh, root, /dev/vda a fresh 64 GiB
# rotational disk) from the tree `make engine-guest-root` stages:
#   vm/runner/run --kernel BZIMAGE --initrd-extra build/fio-guest/root -- \
#       'KERNEL_FLAVOUR=patched sh /tests/hotcold/engine-guest-check.sh'
# KERNEL_FLAVOUR=patched: hot files must sit in the first third of the
# disk, cold files in the last third, unhinted files next to their
# directory; the ext4 counters must count the hinted creations; debugfs
# must agree with the placement log.  KERNEL_FLAVOUR=stock: the engine must
# run and say the hints are not honoured.  Prints TAP lines; exit 1 on failure.
set -u

FLAVOUR=${KERNEL_FLAVOUR:-}
DEV=${HOTCOLD_DEV:-/dev/vda}
MNT=/mnt
LOGS=/tmp/hotcold
HERE=$(cd "$(dirname "$0")" && pwd)
FIO=${FIO:-/usr/bin/fio}
SO=${HOTCOLD_ENGINE:-/usr/lib/fio/hotcold.so}

# the project's TAP helper (vm/lib/tap.sh), staged next to this script
. "$HERE/tap.sh"
tap_name="engine-guest-check (KERNEL_FLAVOUR=$FLAVOUR)"
finish() {
	tap_done
	exit $?
}

case $FLAVOUR in
patched|stock) ;;
*)	echo "engine-guest-check: set KERNEL_FLAVOUR=patched or stock (got '$FLAVOUR')" >&2
	exit 2 ;;
esac
# e2fsprogs' tools, not busybox's applets of the same name (busybox sh
# prefers its applets over $PATH)
e2tool() {
	for d in /sbin /usr/sbin /bin /usr/bin; do
		if [ -x "$d/$1" ] && [ ! -L "$d/$1" ]; then
			echo "$d/$1"
			return
		fi
	done
	echo "$1"
}
MKE2FS=$(e2tool mke2fs)
DEBUGFS=$(e2tool debugfs)
DUMPE2FS=$(e2tool dumpe2fs)
for t in "$FIO" "$SO" "$MKE2FS" "$DEBUGFS" "$DUMPE2FS"; do
	command -v "$t" >/dev/null 2>&1 || [ -e "$t" ] ||
		{ echo "engine-guest-check: $t missing (make engine-guest-root)" >&2; exit 2; }
done
devname=${DEV##*/}
echo "# kernel $(uname -r), flavour $FLAVOUR, $DEV rotational=$(cat /sys/block/$devname/queue/rotational 2>/dev/null)"

# a fresh ext4, as the rest of the project makes it
timeout 300 "$MKE2FS" -q -t ext4 -E lazy_itable_init=1,lazy_journal_init=1 "$DEV"
rc=$?
check "mke2fs -t ext4 $DEV" [ $rc -eq 0 ]
mount -o noinit_itable "$DEV" "$MNT"
rc=$?
check "mount $DEV on $MNT" [ $rc -eq 0 ]
[ $rc -eq 0 ] || finish

sb=$("$DUMPE2FS" -h "$DEV" 2>/dev/null)
bpg=$(echo "$sb" | sed -n 's/^Blocks per group: *//p')
ipg=$(echo "$sb" | sed -n 's/^Inodes per group: *//p')
fdb=$(echo "$sb" | sed -n 's/^First block: *//p')
bcount=$(echo "$sb" | sed -n 's/^Block count: *//p')
bsize=$(echo "$sb" | sed -n 's/^Block size: *//p')
flex=$(echo "$sb" | sed -n 's/^Flex block group size: *//p')
: "${flex:=1}"
ngroups=$(( (bcount - fdb + bpg - 1) / bpg ))
third=$((ngroups / 3))
echo "# $ngroups groups of $bpg blocks of $bsize bytes, $ipg inodes/group, flex $flex"

ctr() { cat "/sys/fs/ext4/$devname/$1" 2>/dev/null || echo -1; }
if [ $FLAVOUR = patched ]; then
	check "patched kernel: /sys/fs/ext4/$devname/hint_honoured exists" \
		[ -e "/sys/fs/ext4/$devname/hint_honoured" ]
else
	check "stock kernel: no /sys/fs/ext4/$devname/hint_honoured" \
		[ ! -e "/sys/fs/ext4/$devname/hint_honoured" ]
fi
h0=$(ctr hint_honoured) nr0=$(ctr hint_dropped_nonrot)
np0=$(ctr hint_dropped_noperm) fb0=$(ctr hint_fallback)

mkdir -p "$LOGS" "$MNT/hot" "$MNT/cold" "$MNT/none" "$MNT/synchot"
rm -f "$LOGS/placement.csv" "$LOGS/seek.csv"
HOTCOLD_ENGINE=$SO HOTCOLD_MNT=$MNT HOTCOLD_LOGDIR=$LOGS \
	timeout 1200 "$FIO" "$HERE/guest-hotcold.fio" >"$LOGS/fio.txt" 2>&1
rc=$?
grep -E '^(hotcold|placement):' "$LOGS/fio.txt" | sed 's/^/# /'
check "fio guest-hotcold.fio (hot, cold, none, sync jobs) exits 0" [ $rc -eq 0 ]
[ $rc -eq 0 ] || sed -n '1,40s/^/# fio: /p' "$LOGS/fio.txt"

P=$LOGS/placement.csv
S=$LOGS/seek.csv
rows() {	# rows JOB AWK-CONDITION: count of that job's file rows matching
	awk -F, -v job="$1" '$1 == "file" && $2 == job && ('"$2"')' "$P" | wc -l
}
check "placement log: 4 hot, 4 cold, 4 none, 1 synchot file rows, all created by the engine" \
	[ "$(rows hot '$5 == 1')$(rows cold '$5 == 1')$(rows none '$5 == 1')$(rows synchot '$5 == 1')" = 4441 ]
check "placement log: every row has the fs's $ngroups groups" \
	[ "$(awk -F, '$1 == "file" && $14 == '"$ngroups"'' "$P" | wc -l)" -eq 13 ]
check "none files created without a hint (O_WRONLY|O_CREAT|O_EXCL|O_CLOEXEC)" \
	[ "$(rows none '$8 == "O_WRONLY|O_CREAT|O_EXCL|O_CLOEXEC" && $9 == "none"')" -eq 4 ]

if [ $FLAVOUR = patched ]; then
	check "hot files created with O_CREAT|O_HOT (0x080800c1) via openat2" \
		[ "$(rows hot '$6 == "openat2" && $7 == "0x080800c1" && $8 ~ /O_CREAT/ && $8 ~ /O_HOT/')" -eq 4 ]
	check "cold files created with O_CREAT|O_COLD (0x100800c1) via openat2" \
		[ "$(rows cold '$6 == "openat2" && $7 == "0x100800c1" && $8 ~ /O_COLD/')" -eq 4 ]
	check "engine saw hint_honoured move for every hinted create (9)" \
		[ "$(awk -F, '$1 == "file" && $9 == "honoured"' "$P" | wc -l)" -eq 9 ]
	h1=$(ctr hint_honoured)
	check "ext4 counter hint_honoured rose by 9 ($h0 -> $h1)" [ $((h1 - h0)) -eq 9 ]
	check "no hint_dropped_*/hint_fallback counted" \
		[ -s "$P" -a "$(ctr hint_dropped_nonrot) $(ctr hint_dropped_noperm) $(ctr hint_fallback)" = "$nr0 $np0 $fb0" ]
	check "hot: every file's inode in groups [0,$third)" \
		[ "$(rows hot '$12 < '$third'')" -eq 4 ]
	check "hot: every byte of every file in the first third" \
		[ "$(rows hot '$19 == 0 && $20 == 0 && $18 == $10 && $10 > 0 && $24 == "first" && $17 < '$third'')" -eq 4 ]
	check "synchot (mode=sync): file in the first third" \
		[ "$(rows synchot '$18 == $10 && $10 > 0 && $24 == "first"')" -eq 1 ]
	check "cold: every file's inode in groups [$((ngroups - third)),$ngroups)" \
		[ "$(rows cold '$12 >= '$((ngroups - third))'')" -eq 4 ]
	check "cold: every byte of every file in the last third" \
		[ "$(rows cold '$18 == 0 && $19 == 0 && $20 == $10 && $10 > 0 && $24 == "last" && $16 >= '$((ngroups - third))'')" -eq 4 ]
	check "placement summary rows: hot 4 files first third, cold 4 files last third" \
		[ "$(awk -F, '$1 == "summary" && (($2 == "hot" && $21 == 4) || ($2 == "cold" && $23 == 4))' "$P" | wc -l)" -eq 2 ]
	check "engine printed 'hot:   first  third: 4 files'" \
		grep -q 'hotcold: hot:   first  third: 4 files' "$LOGS/fio.txt"

	# hint_check=1 passes when the kernel honours the hint
	mkdir -p "$MNT/hc"
	timeout 300 "$FIO" --name=hc --ioengine=external:"$SO" --hotness=cold \
		--hint_check=1 --rw=read --size=1m --directory="$MNT/hc" >"$LOGS/hc.txt" 2>&1
	rc=$?
	check "hint_check=1 cold job passes on the patched kernel" [ $rc -eq 0 ]
else
	check "stock: 'placement: kernel does not support O_HOT/O_COLD; hints not honoured'" \
		grep -q '^placement: kernel does not support O_HOT/O_COLD; hints not honoured' "$LOGS/fio.txt"
	check "stock: hot/cold/synchot rows say unsupported, created without the hint bits" \
		[ "$(awk -F, '$1 == "file" && $4 != "none" && $9 == "unsupported" && $8 == "O_WRONLY|O_CREAT|O_EXCL|O_CLOEXEC"' "$P" | wc -l)" -eq 9 ]
	check "stock: placement still measured (bytes per third add up)" \
		[ "$(awk -F, '$1 == "file" && $18 + $19 + $20 == $10 && $10 > 0' "$P" | wc -l)" -eq 13 ]
	mkdir -p "$MNT/hc"
	timeout 300 "$FIO" --name=hc --ioengine=external:"$SO" --hotness=cold \
		--hint_check=1 --rw=read --size=1m --directory="$MNT/hc" >"$LOGS/hc.txt" 2>&1
	rc=$?
	check "stock: hint_check=1 fails the job ($rc) with the reason" \
		sh -c "[ $rc -ne 0 ] && [ $rc -lt 128 ] && grep -q 'hint_check=1 and the cold hint was not honoured' '$LOGS/hc.txt'"
fi

# unhinted files land next to their directory (same flex group as its inode)
check "none: every file's inode in its directory's flex group (flex $flex)" \
	[ "$(rows none '$13 != "" && int($12 / '$flex') == int($13 / '$flex')')" -eq 4 ]
awk -F, '$1 == "file" { printf "# %s %s ino %s grp %s dir %s data groups %s-%s thirds %s/%s/%s\n", $2, $3, $11, $12, $13, $16, $17, $18, $19, $20 }' "$P"

# seek log: one row per I/O, every LBA known, inside the file's third
check "seek log: 512 rows each for hot, cold, none; 256 for synchot" \
	[ "$(awk -F, '$1 == "hot"' "$S" | wc -l) $(awk -F, '$1 == "cold"' "$S" | wc -l) $(awk -F, '$1 == "none"' "$S" | wc -l) $(awk -F, '$1 == "synchot"' "$S" | wc -l)" = "512 512 512 256" ]
# (latency may be 0 ns: a TCG guest's clocksource can be jiffies)
check "seek log: every I/O has an LBA and a completion latency" \
	[ -s "$S" -a "$(awk -F, 'NR > 1 && ($7 == "" || $9 == "")' "$S" | wc -l)" -eq 0 ]
first_end=$(( (fdb + third * bpg) * (bsize / 512) ))
last_start=$(( (fdb + (ngroups - third) * bpg) * (bsize / 512) ))
if [ $FLAVOUR = patched ]; then
	check "seek log: hot LBAs below sector $first_end, cold LBAs from $last_start" \
		[ -s "$S" -a "$(awk -F, '($1 == "hot" && $7 >= '$first_end') || ($1 == "cold" && $7 < '$last_start')' "$S" | wc -l)" -eq 0 ]
fi
check "seek summaries printed (mean, median, p50 p90 p99) for all four jobs" \
	[ "$(grep -cE 'hotcold: (hot|cold|none|synchot):   seek sectors: mean [0-9.]+ median [0-9.]+ p50 [0-9]+ p90 [0-9]+ p99 [0-9]+' "$LOGS/fio.txt")" -eq 4 ]

# An unmodified program (fio's own psync engine, not ours) creating files
# with the preload library: HOTCOLD rules make its creates O_COLD.
PRE=${HOTCOLD_PRELOAD:-/usr/lib/hotcold-preload.so}
mkdir -p "$MNT/pre"
h1=$(ctr hint_honoured)
LD_PRELOAD=$PRE HOTCOLD="cold:$MNT/pre/*" timeout 300 "$FIO" --name=pre --ioengine=psync \
	--rw=write --size=2m --nrfiles=2 --directory="$MNT/pre" >"$LOGS/pre.txt" 2>&1
rc=$?
check "preload: fio's psync engine writes 2 files with hotcold-preload.so loaded ($rc)" [ $rc -eq 0 ]
if [ $FLAVOUR = patched ]; then
	h2=$(ctr hint_honoured)
	check "preload: hint_honoured rose by 2 ($h1 -> $h2)" [ $((h2 - h1)) -eq 2 ]
	incold=0
	for f in "$MNT"/pre/*; do
		ino=$(stat -c %i "$f")
		g=$(( (ino - 1) / ipg ))
		echo "# preload: $f ino $ino group $g"
		[ $g -ge $((ngroups - third)) ] && incold=$((incold + 1))
	done
	check "preload: both files' inodes in the cold third ($incold)" [ $incold -eq 2 ]
fi

# debugfs reads the disk: unmount so the journal is checkpointed first
umount "$MNT"
rc=$?
check "umount $MNT" [ $rc -eq 0 ]
agree=0 tried=0
for f in $(awk -F, '$1 == "file" && ($3 ~ /\.0\.0$/ || $3 ~ /\.0\.3$/) { print $3 }' "$P"); do
	tried=$((tried + 1))
	rel=${f#"$MNT"}
	row=$(awk -F, -v f="$f" '$1 == "file" && $3 == f' "$P" | tail -n 1)
	ino=$("$DEBUGFS" -R "stat $rel" "$DEV" 2>/dev/null | sed -n 's/^Inode: \([0-9]*\).*/\1/p')
	blocks=$("$DEBUGFS" -R "blocks $rel" "$DEV" 2>/dev/null)
	lo=$(echo $blocks | tr ' ' '\n' | sort -n | head -n 1)
	hi=$(echo $blocks | tr ' ' '\n' | sort -n | tail -n 1)
	if [ -z "$ino" ] || [ -z "$lo" ]; then
		echo "# debugfs: no answer for $rel"
		continue
	fi
	g_lo=$(( (lo - fdb) / bpg )) g_hi=$(( (hi - fdb) / bpg ))
	want="$ino $(( (ino - 1) / ipg )) $g_lo $g_hi"
	got=$(echo "$row" | awk -F, '{ print $11, $12, $16, $17 }')
	echo "# debugfs $rel: ino grp first last = $want; log: $got"
	[ "$want" = "$got" ] && agree=$((agree + 1))
done
check "debugfs agrees with the placement log (inode, inode group, first/last data group) for $agree of $tried files" \
	[ $tried -ge 7 -a $agree -eq $tried ]

finish
