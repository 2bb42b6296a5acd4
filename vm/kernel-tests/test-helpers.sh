#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Host unit tests of the guest test helpers (no mounting, no root needed):
#  - hc_unit: synthetic superblocks
#  - hc_sbdump vs dumpe2fs on images made with mke2fs -F on plain files
#  - FIEMAP walk (hc_sbdump IMG FILE) vs filefrag on a many-extent host file
# Usage: test-helpers.sh BINDIR WORKDIR
set -u
BIN=${1:?usage: test-helpers.sh BINDIR WORKDIR}
WORK=${2:?usage: test-helpers.sh BINDIR WORKDIR}
PATH=$PATH:/usr/sbin:/sbin
. "$(dirname "$0")/../lib/tap.sh"
tap_name=helpers
TAP_PREFIX="helpers: "

for t in mke2fs dumpe2fs filefrag; do
	command -v $t >/dev/null || { not_ok "tool $t missing (e2fsprogs)"; exit 1; }
done
mkdir -p "$WORK" || exit 1

timeout 60 "$BIN/hc_unit" || failed=$((failed + 1))

# name size mke2fs-options
check_img() {
	name=$1 size=$2
	shift 2
	img=$WORK/$name.img
	rm -f "$img"
	truncate -s "$size" "$img" || { not_ok "$name: truncate"; return; }
	if ! mke2fs -q -F -E lazy_itable_init=1,lazy_journal_init=1 "$@" \
		"$img" >"$WORK/$name.mkfs" 2>&1; then
		not_ok "$name: mke2fs $* failed: $(cat "$WORK/$name.mkfs")"
		return
	fi
	dumpe2fs "$img" >"$WORK/$name.dump" 2>/dev/null
	"$BIN/hc_sbdump" "$img" >"$WORK/$name.sb" || { not_ok "$name: hc_sbdump"; return; }
	get() { sed -n "s/^$1: *//p" "$WORK/$name.dump" | head -1 | awk '{print $1}'; }
	sb() { sed -n "s/^$1=//p" "$WORK/$name.sb"; }
	flex=$(get "Flex block group size"); [ -n "$flex" ] || flex=1
	resgid=$(get "Reserved blocks gid")
	first_ino=$(get "First inode"); [ -n "$first_ino" ] || first_ino=11
	ngroups=$(grep -c '^Group [0-9]*:' "$WORK/$name.dump")
	bad=""
	for pair in "inodes_count:$(get 'Inode count')" \
		"blocks_count:$(get 'Block count')" \
		"first_data_block:$(get 'First block')" \
		"block_size:$(get 'Block size')" \
		"blocks_per_group:$(get 'Blocks per group')" \
		"inodes_per_group:$(get 'Inodes per group')" \
		"first_ino:$first_ino" "flex_size:$flex" "resgid:$resgid" \
		"ngroups:$ngroups"; do
		k=${pair%%:*} v=${pair#*:}
		[ "$(sb "$k")" = "$v" ] || bad="$bad $k(parsed $(sb "$k") dumpe2fs $v)"
	done
	if [ -z "$bad" ]; then
		ok "$name ($*): superblock fields match dumpe2fs (ngroups $ngroups, flex $flex)"
	else
		not_ok "$name ($*): mismatch:$bad"
	fi
	# free inodes per group from the group descriptors
	sed -n 's/^ *\([0-9]*\) free blocks, \([0-9]*\) free inodes.*/\2/p' \
		"$WORK/$name.dump" >"$WORK/$name.fi.dump"
	sed -n 's/^group [0-9]* free_inodes //p' "$WORK/$name.sb" >"$WORK/$name.fi.sb"
	if cmp -s "$WORK/$name.fi.dump" "$WORK/$name.fi.sb" &&
	   [ -s "$WORK/$name.fi.sb" ]; then
		ok "$name: per-group free inode counts match dumpe2fs ($(wc -l <"$WORK/$name.fi.sb") groups)"
	else
		not_ok "$name: per-group free inode counts differ from dumpe2fs"
		diff "$WORK/$name.fi.dump" "$WORK/$name.fi.sb" | head -5 | sed 's/^/# /'
	fi
	rm -f "$img"
}

check_img vda-64G 64G -t ext4
check_img vdb-fallback 1G -t ext4 -b 4096 -N 2048 -g 8192
check_img vdc-256M 256M -t ext4 -b 4096
check_img small-1k 256M -t ext4
check_img ext2 1G -t ext2
check_img no64bit 8G -t ext4 -O ^64bit
check_img resgid 1G -t ext4 -g 8192 -G 4 -N 4096
# tune2fs -g is what the guest test uses to set the reserved gid
img=$WORK/tune.img
if truncate -s 256M "$img" && mke2fs -q -F -t ext4 -b 4096 "$img" &&
	tune2fs -g 65534 "$img" >/dev/null 2>&1 &&
	[ "$("$BIN/hc_sbdump" "$img" | sed -n 's/^resgid=//p')" = 65534 ]; then
	ok "tune2fs -g 65534 is seen as s_def_resgid 65534"
else
	not_ok "tune2fs -g 65534 not seen in s_def_resgid"
fi
rm -f "$img"

# FIEMAP walk: >256 extents forces several FS_IOC_FIEMAP rounds
f=$WORK/fiemap.dat
rm -f "$f"
i=0
while [ $i -lt 300 ]; do
	dd if=/dev/urandom of="$f" bs=4096 count=1 seek=$((i * 2)) conv=notrunc 2>/dev/null
	i=$((i + 1))
done
sync
img=$WORK/geom.img
truncate -s 64G "$img" && mke2fs -q -F -t ext4 "$img"
out=$("$BIN/hc_sbdump" "$img" "$f" | grep '^extents=')
rm -f "$img"
ext=${out#extents=}; ext=${ext%% *}
blk=${out#*blocks=}; blk=${blk%% *}
# filefrag's summary merges extents that are contiguous modulo holes: count
# the rows of its -v table instead (one per FIEMAP extent)
ff=$(filefrag -v "$f" | grep -c '^ *[0-9][0-9]*:')
if [ -n "$ext" ] && [ "$ext" = "$ff" ] && [ "$blk" = 300 ]; then
	ok "FIEMAP walk: $ext extents, $blk blocks (filefrag: $ff)"
else
	not_ok "FIEMAP walk: got '$out', filefrag says $ff extents, want 300 blocks"
fi
rm -f "$f"

tap_done
