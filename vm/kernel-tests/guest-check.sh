#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# guest-check.sh - O_HOT/O_COLD test suite, runs INSIDE the guest (busybox sh)
#
#   KERNEL_FLAVOUR=patched|stock /tests/guest-check.sh
#
# Disks: /dev/vda 64 GiB, /dev/vdb 1 GiB, /dev/vdc 256 MiB (all rotational,
# all contents destroyed).  Prints TAP lines (ok N - name / not ok N - name,
# "# " diagnostics); every program numbers its own lines, the host counts
# the prefixes.  Exit status 0 iff nothing failed.
#
# Scenarios (patched | stock expectations):
#  vda, ext4 defaults: hc_place honour|stock (placement of small, 64 MiB and
#    O_TMPFILE files from dirs in the hot/middle/cold thirds + counters),
#    hc_trace honour|stock (ext4_hotcold_alloc lines), hc_abi (flag ABI)
#  vda, queue/rotational=0: hc_place nonrot|stock-nonrot, hc_trace nonrot
#  vda, uid/gid 65534: hc_unpriv drop|stock; hc_fuse patched|stock (a
#    passthrough FUSE server as root with allow_other, backed by the ext4,
#    never sees O_HOT/O_COLD from a uid 65534 client, and its backing files
#    are not placed hot or cold); tune2fs -g 65534, hc_unpriv resgid|stock
#  vdc, 2 groups: hc_place small|stock-small
#  vdb, -N 2048 -g 8192: hc_fallback (patched) | hc_abi (stock)
#  vdb, -g 8192 -m 0: hc_region mountopts, tunables; hc-age to 80% and
#    95% with region_reserve off and on, hc_region verify (counters ==
#    FIEMAP; reserve: hot set in its region), enospc | hc_region stock
#  vdb, -g 8192 -m 0, region_reserve=1: hc-move hot / cold / --rank (data
#    moved online, same inode and contents, a concurrent reader) | -
#  vdb, -g 8192 -G 4: hc_dirmark mark, remount, persist (system.hotcold
#    directory marks) | hc_dirmark stock, a marked dir (debugfs) keeps its flags
#  vdb, -g 8192 -G 4, region_reserve=1: hc_dirmark escape (uid 65534 and a
#    hot mark), hc_dirmark overlay (the same through an overlay root
#    mounted) | -
#  vdb, 256 MiB of 1 GiB, -g 4096: hc_resize (hints read back after an
#    online grow to 2x and 3x and an offline shrink; appends stay in the
#    region) | hc_resize stock (grow and shrink keep the files)
#  vdb, 256 MiB, -g 4096: hc_count evict, quota (-O quota, usrquota),
#    enospc (commit=300), noregion: the hint counters count a create once
#    when it succeeded and a spill once (== FIEMAP) | -
#  vdb, -g 8192 -G 4: hc_writehint (fcntl F_SET_RW_HINT EXTREME puts a
#    file's data in the cold region; other hints, O_HOT/O_COLD files, the
#    write_hint_cold tunable off and queue/rotational 0 do not) | skipped
#  vdb, -g 8192 (-O fast_commit): hc_race mark, hc_race region | -
#  vda, -b 1024 -g 2048 (32,768 groups): hc_race recount (region_reserve
#    keeps unhinted files out of the hot region while the regions' free
#    totals are counted again) | -
#  vdb, -g 8192 -G 4: hc_scanorder (an unhinted allocation that misses its
#    full goal group in the middle goes to the middle, not the hot region,
#    with mb_max_linear_groups=0) | -
#  vdb, -b 1024 -g 1024: hc_findcost (in a full hot region of 512 groups,
#    a hinted create's group search passes fewer than 64 groups on
#    average; counted by the function profiler: debug kernel only, a SKIP
#    line elsewhere) | -
#  vdb, -g 8192 -O fast_commit, commit=300: hc_replay write, shutdown
#    (NOLOGFLUSH), umount, mount: hc_replay check (the files come back from
#    the fast-commit log) | the same
#  tmpfs, /tmp and ext2 on vdc: hc_otherfs
#  e2fsck -fn after every ext4/ext2 scenario
#  openat2 selftests built from the patched tree (tests/openat2/*)
#  vdb, -g 8192: the ext4 placement selftest from the patched tree
#    (tests/ext4-selftests/hotcold_test) passes | skips itself; and it
#    skips without EXT4_HOTCOLD_DIR, off ext4 and on a non-rotational disk
set -u
T=$(cd "$(dirname "$0")" && pwd)
PATH=$T:$PATH:/sbin:/usr/sbin:/bin:/usr/bin
export PATH
FLAVOUR=${KERNEL_FLAVOUR:-}
VDA=${HC_VDA:-/dev/vda}
VDB=${HC_VDB:-/dev/vdb}
VDC=${HC_VDC:-/dev/vdc}
TMO=${HC_TIMEOUT:-900}

# the project's TAP helper (vm/lib/tap.sh), staged next to this script
. "$T/tap.sh"
tap_name=guest-check
TAP_PREFIX="guest: "
# kmark TEXT: a "guest-check: TEXT" record in the kernel log, so that a
# splat in it can be put down to the test that was running
# (vm/kernel-tests/splat-scan.sh, make guest-check-debug)
kmark() { echo "guest-check: $*" >/dev/kmsg 2>/dev/null; }
diag() {
	echo "# $*"
	case $1 in ===*) kmark "$*" ;; esac
}

case $FLAVOUR in
patched|stock) ;;
*)	not_ok "KERNEL_FLAVOUR must be patched or stock (got '$FLAVOUR')"
	exit 2 ;;
esac
export KERNEL_FLAVOUR="$FLAVOUR"

# HC_SECTIONS="NAME ...": run only these sections of the suite (make
# guest-check-debug's subset on the slow debug kernel); unset or empty:
# all of them.  A section left out prints a SKIP line, never a pass.
SECTIONS="place nonrot unpriv small fallback region scanorder findcost move dirmark escape resize count writehint race replay otherfs openat2"
for sec in ${HC_SECTIONS:-}; do
	case " $SECTIONS " in
	*" $sec "*) ;;
	*)	not_ok "HC_SECTIONS: no section '$sec' (sections: $SECTIONS)"
		exit 2 ;;
	esac
done
[ -n "${HC_SECTIONS:-}" ] && diag "HC_SECTIONS: only $HC_SECTIONS"
# section NAME: whether to run it
section() {
	case " ${HC_SECTIONS:-$SECTIONS} " in *" $1 "*) return 0 ;; esac
	skip "section $1" "not in HC_SECTIONS"
	return 1
}

# busybox (standalone shell, applets preferred) has its own mke2fs and
# tune2fs: always call the e2fsprogs binaries by absolute path.
e2prog() {
	for d in /sbin /usr/sbin /bin /usr/bin; do
		if [ -x "$d/$1" ] && [ ! -L "$d/$1" ]; then
			echo "$d/$1"
			return 0
		fi
	done
	echo "/sbin/$1"
	return 1
}
MKE2FS=$(e2prog mke2fs) || { not_ok "e2fsprogs mke2fs not found"; exit 2; }
E2FSCK=$(e2prog e2fsck) || { not_ok "e2fsprogs e2fsck not found"; exit 2; }
TUNE2FS=$(e2prog tune2fs) || { not_ok "e2fsprogs tune2fs not found"; exit 2; }

diag "guest-check: flavour $FLAVOUR, kernel $(uname -r), $(uname -v)"
diag "tools: $MKE2FS $E2FSCK $TUNE2FS"
for d in $VDA $VDB $VDC; do
	[ -b "$d" ] || { not_ok "block device $d present"; exit 1; }
done

# run PROG ARGS...: the program prints its own TAP lines and exits 0/1
# (or 2 after printing a "not ok ... setup:" line); anything else (timeout,
# crash) is reported here.
run() {
	prog=$1
	shift
	kmark "$prog $*"
	timeout "$TMO" "$T/$prog" "$@"
	rc=$?
	case $rc in
	0) ;;
	1|2) failed=$((failed + 1)) ;;
	*) not_ok "$prog $*: exited with status $rc (124 = timeout ${TMO}s)" ;;
	esac
}

mkfs_ext4() {	# DEV [mke2fs options]
	dev=$1
	shift
	if timeout 300 "$MKE2FS" -q -F -t ext4 -E lazy_itable_init=1,lazy_journal_init=1 \
		"$@" "$dev" >/tmp/mkfs.log 2>&1; then
		return 0
	fi
	not_ok "mke2fs -t ext4 $* $dev: $(cat /tmp/mkfs.log)"
	return 1
}

mnt() {		# DEV DIR [fstype]
	mkdir -p "$2"
	if timeout 120 mount -t "${3:-ext4}" -o noinit_itable "$1" "$2" 2>/tmp/mount.log ||
	   { [ "${3:-ext4}" != ext4 ] &&
	     timeout 120 mount -t "$3" "$1" "$2" 2>/tmp/mount.log; }; then
		return 0
	fi
	not_ok "mount -t ${3:-ext4} $1 $2: $(cat /tmp/mount.log)"
	return 1
}

# umount and e2fsck -fn (test 9)
umnt_fsck() {	# DEV DIR LABEL
	sync
	if ! timeout 120 umount "$2" 2>/tmp/umount.log; then
		not_ok "umount $2 ($3): $(cat /tmp/umount.log)"
		return
	fi
	timeout 600 "$E2FSCK" -fn "$1" >/tmp/fsck.log 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		ok "e2fsck -fn $1 clean after $3"
	else
		not_ok "e2fsck -fn $1 after $3: exit $rc"
		sed 's/^/#   /' /tmp/fsck.log | head -40
	fi
}

# ea_value: the value of debugfs ea_get's 'system.hotcold (4) = "cold"'
ea_value() { sed -n 's/^system\.hotcold ([0-9]*) = "\(.*\)"$/\1/p'; }

rot() {		# DEV -> rotational flag file
	echo "/sys/block/$(basename "$1")/queue/rotational"
}

set_rot() {	# DEV 0|1
	echo "$2" >"$(rot "$1")" 2>/dev/null
	[ "$(cat "$(rot "$1")" 2>/dev/null)" = "$2" ]
}

##### 1 + 7 + 5: placement, tracepoint and ABI on the 64 GiB disk
diag "=== placement on $VDA (ext4 defaults) ==="
set_rot "$VDA" 1 || not_ok "$(rot "$VDA") could not be set to 1"
if section place && mkfs_ext4 "$VDA" && mnt "$VDA" /mnt/a; then
	if [ "$FLAVOUR" = patched ]; then
		run hc_place honour "$VDA" /mnt/a
		run hc_trace honour "$VDA" /mnt/a
	else
		run hc_place stock "$VDA" /mnt/a
		run hc_trace stock "$VDA" /mnt/a
	fi
	mkdir -p /mnt/a/abi
	run hc_abi /mnt/a/abi
	umnt_fsck "$VDA" /mnt/a "placement/trace/abi tests"
fi

##### 3: rotational flag cleared
diag "=== $VDA with queue/rotational = 0 ==="
if section nonrot && mkfs_ext4 "$VDA"; then
	if set_rot "$VDA" 0; then
		ok "$(rot "$VDA") set to 0"
		if mnt "$VDA" /mnt/a; then
			if [ "$FLAVOUR" = patched ]; then
				run hc_place nonrot "$VDA" /mnt/a
				run hc_trace nonrot "$VDA" /mnt/a
			else
				# stock: flags are ignored regardless
				run hc_place stock-nonrot "$VDA" /mnt/a
			fi
			umnt_fsck "$VDA" /mnt/a "rotational=0 tests"
		fi
	else
		not_ok "$(rot "$VDA") could not be set to 0"
	fi
	if set_rot "$VDA" 1; then
		ok "$(rot "$VDA") restored to 1"
	else
		not_ok "$(rot "$VDA") could not be restored to 1"
	fi
fi

##### 4: unprivileged user, then reserved gid
diag "=== unprivileged creates on $VDA ==="
if section unpriv && mkfs_ext4 "$VDA" && mnt "$VDA" /mnt/a; then
	if [ "$FLAVOUR" = patched ]; then
		run hc_unpriv drop "$VDA" /mnt/a
	else
		run hc_unpriv stock "$VDA" /mnt/a
	fi
	# the hints must not travel through FUSE to a server running as root
	run hc_fuse "$FLAVOUR" "$VDA" /mnt/a
	timeout 120 umount /mnt/a || not_ok "umount /mnt/a"
	if timeout 120 "$TUNE2FS" -g 65534 "$VDA" >/tmp/tune2fs.log 2>&1; then
		ok "tune2fs -g 65534 $VDA"
		if mnt "$VDA" /mnt/a; then
			if [ "$FLAVOUR" = patched ]; then
				run hc_unpriv resgid "$VDA" /mnt/a
			else
				run hc_unpriv stock "$VDA" /mnt/a
			fi
			umnt_fsck "$VDA" /mnt/a "unprivileged tests"
		fi
	else
		not_ok "tune2fs -g 65534 $VDA: $(cat /tmp/tune2fs.log)"
	fi
fi

##### 2: small filesystem (<= 3 groups)
diag "=== small fs on $VDC ==="
if section small && mkfs_ext4 "$VDC" -b 4096 && mnt "$VDC" /mnt/c; then
	if [ "$FLAVOUR" = patched ]; then
		run hc_place small "$VDC" /mnt/c
	else
		run hc_place stock-small "$VDC" /mnt/c
	fi
	umnt_fsck "$VDC" /mnt/c "small-fs tests"
fi

##### 6: fallback when the hot third has no free inodes
diag "=== fallback on $VDB (few inodes) ==="
if section fallback && mkfs_ext4 "$VDB" -b 4096 -N 2048 -g 8192 && mnt "$VDB" /mnt/b; then
	if [ "$FLAVOUR" = patched ]; then
		run hc_fallback "$VDB" /mnt/b
	else
		run hc_abi /mnt/b
	fi
	umnt_fsck "$VDB" /mnt/b "fallback tests"
fi

##### 11: the regions as the disk fills (vdb: 32 groups of 32 MiB, no
##### root reserve): tunables, cold from the inner end, counters == FIEMAP
##### on aged filesystems, the reserve keeps the hot region, no early ENOSPC
diag "=== regions on $VDB as it fills ==="
if ! section region; then
	:
elif [ "$FLAVOUR" = patched ]; then
	if mkfs_ext4 "$VDB" -b 4096 -g 8192 -m 0; then
		mkdir -p /mnt/b
		run hc_region mountopts "$VDB" /mnt/b
		if mnt "$VDB" /mnt/b; then
			run hc_region tunables "$VDB" /mnt/b
			umnt_fsck "$VDB" /mnt/b "region tunables"
		fi
	fi
	for spec in 80:noreserve 80:reserve 95:reserve 95:noreserve; do
		pct=${spec%%:*}
		mode=${spec#*:}
		opts=noinit_itable
		[ "$mode" = reserve ] && opts=$opts,region_reserve=1
		mkfs_ext4 "$VDB" -b 4096 -g 8192 -m 0 || continue
		if ! timeout 120 mount -t ext4 -o "$opts" "$VDB" /mnt/b 2>/tmp/mount.log; then
			not_ok "mount -o $opts $VDB: $(cat /tmp/mount.log)"
			continue
		fi
		kmark "hc-age to $pct% ($mode)"
		if timeout "$TMO" "$T/hc-age" --seed 1 --target "$pct" --churn 0.5 \
			--dirs 32 --sets H:hot:8:4M,C:cold:8:4M,N:none:8:4M --quiet \
			/mnt/b >/tmp/age.log 2>&1; then
			ok "hc-age to $pct% on $VDB ($mode): $(grep -E '^(fullness_pct|files_live|elapsed_s)=' /tmp/age.log | tr '\n' ' ')"
			run hc_region verify "$VDB" /mnt/b /mnt/b/.aging/manifest.csv "$mode"
			[ "$spec" = 95:reserve ] && run hc_region enospc "$VDB" /mnt/b
			# the hint outlives the in-memory inode: on the aged
			# fs the free space right after a file is often taken,
			# and after a mount the stream goal is group 0
			if [ "$spec" = 80:noreserve ]; then
				run hc_region persist-write "$VDB" /mnt/b
				if timeout 120 umount /mnt/b && mnt "$VDB" /mnt/b; then
					run hc_region persist-append "$VDB" /mnt/b
				else
					not_ok "umount + mount $VDB for the persistence test"
				fi
			fi
		else
			not_ok "hc-age to $pct% on $VDB ($mode): $(tail -5 /tmp/age.log)"
		fi
		umnt_fsck "$VDB" /mnt/b "regions at $pct% ($mode)"
	done
elif mkfs_ext4 "$VDB" -b 4096 -g 8192 -m 0; then
	mkdir -p /mnt/b
	run hc_region stock "$VDB" /mnt/b
	# a file the patched kernel placed cold carries system.hotcold
	# ("cold", in the inode): the stock kernel does not know the name
	# (EOPNOTSUPP, not listed), appends to the file, rewrites its
	# in-inode xattrs for another one, and keeps it
	DEBUGFS=$(e2prog debugfs)
	if mnt "$VDB" /mnt/b && dd if=/dev/zero of=/mnt/b/flagged bs=1M count=4 2>/dev/null &&
	   timeout 120 umount /mnt/b &&
	   timeout 60 "$DEBUGFS" -w -R "ea_set /flagged system.hotcold cold" "$VDB" >/tmp/dbg.log 2>&1 &&
	   mnt "$VDB" /mnt/b; then
		dmesg -c >/dev/null 2>&1
		run hc_resize keep /mnt/b/flagged
		if [ "$(stat -c %s /mnt/b/flagged)" = 8388608 ] &&
		   ! dmesg | grep -q 'EXT4-fs .*error'; then
			ok "stock: a file with system.hotcold appends without an ext4 error"
		else
			not_ok "stock: append to a file with system.hotcold: $(dmesg | grep EXT4 | tail -3)"
		fi
		timeout 120 umount /mnt/b
		got=$(timeout 60 "$DEBUGFS" -R "ea_get /flagged system.hotcold" "$VDB" 2>/dev/null | ea_value)
		acl=$(timeout 60 "$DEBUGFS" -R "stat /flagged" "$VDB" 2>/dev/null | sed -n 's/.*File ACL: \([0-9]*\).*/\1/p')
		if [ "$got" = cold ] && [ "$acl" = 0 ]; then
			ok "stock: system.hotcold kept in the inode after the stock kernel rewrote its xattrs"
		else
			not_ok "stock: system.hotcold '$got' (want cold), File ACL '$acl' (want 0)"
		fi
		timeout 600 "$E2FSCK" -fn "$VDB" >/tmp/fsck.log 2>&1 &&
			ok "e2fsck -fn $VDB clean with system.hotcold set" ||
			not_ok "e2fsck -fn $VDB with system.hotcold set: $(tail -5 /tmp/fsck.log)"
	else
		not_ok "stock: set system.hotcold with debugfs: $(cat /tmp/dbg.log)"
	fi
fi

##### 12: hotness that changes: hc-move moves a file's data into the hot or
##### cold region online (EXT4_IOC_MOVE_EXT), same inode, same contents,
##### while another process reads it (vdb: 32 groups of 32 MiB)
diag "=== hc-move on $VDB ==="
# csv_get CSV FILE COLUMN: a named column of hc-move's row for FILE
csv_get() { awk -F, -v f="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
	$k["file"] == f { print $k[c]; exit }' "$1"; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a + 0 >= b + 0) }'; }
# sum_of FILE: its SHA-256 (never empty: a missing tool or file fails the test)
sum_of() { s=$(sha256sum <"$1" 2>/dev/null | cut -d" " -f1); echo "${s:-none}"; }
if ! section move; then
	:
elif [ "$FLAVOUR" = patched ] && mkfs_ext4 "$VDB" -b 4096 -g 8192 -m 0 && mkdir -p /mnt/b &&
   timeout 120 mount -t ext4 -o noinit_itable,region_reserve=1 "$VDB" /mnt/b 2>/tmp/mount.log; then
	mkdir -p /mnt/b/d
	for f in f1 f2 f3; do
		dd if=/dev/urandom of=/mnt/b/d/$f bs=1M count=16 2>/dev/null
	done
	sync
	sum1=$(sum_of /mnt/b/d/f1) ino1=$(stat -c %i /mnt/b/d/f1)
	sum2=$(sum_of /mnt/b/d/f2) ino2=$(stat -c %i /mnt/b/d/f2)
	case $sum1$sum2 in *none*) not_ok "sha256sum of the test files (busybox sha256sum?)" ;; esac
	# a reader that checksums f1 over and over while it moves
	rm -f /tmp/mv.stop /tmp/mv.sums
	( while [ ! -e /tmp/mv.stop ]; do sum_of /mnt/b/d/f1 >>/tmp/mv.sums; done ) &
	reader=$!
	sleep 1
	timeout 300 "$T/hc-move" hot /mnt/b/d/f1 >/tmp/mv1.csv 2>/tmp/mv1.err
	rc=$?
	sleep 1
	touch /tmp/mv.stop
	wait $reader
	diag "hc-move hot f1: $(tail -n 1 /tmp/mv1.csv)"
	fb=$(csv_get /tmp/mv1.csv /mnt/b/d/f1 first_before) fa=$(csv_get /tmp/mv1.csv /mnt/b/d/f1 first_after)
	if [ $rc = 0 ] && [ "$(csv_get /tmp/mv1.csv /mnt/b/d/f1 outcome)" = moved ] && ge "$fa" 0.99 &&
	   ! ge "$fb" 0.5; then
		ok "hc-move hot: f1's data moved from outside the hot third ($fb) into it ($fa)"
	else
		not_ok "hc-move hot f1: exit $rc, first third $fb -> $fa: $(cat /tmp/mv1.err)"
	fi
	[ "$(stat -c %i /mnt/b/d/f1)" = "$ino1" ] && ok "hc-move hot: same inode number ($ino1)" ||
		not_ok "hc-move hot: inode $ino1 became $(stat -c %i /mnt/b/d/f1)"
	[ "$sum1" != none ] && [ "$(sum_of /mnt/b/d/f1)" = "$sum1" ] && ok "hc-move hot: contents unchanged (sha256sum)" ||
		not_ok "hc-move hot: contents changed"
	nr=$(wc -l </tmp/mv.sums) bad=$(grep -vcx "$sum1" /tmp/mv.sums)
	[ "$nr" -ge 2 ] && [ "$bad" = 0 ] &&
		ok "hc-move hot: a concurrent reader read f1 $nr times, always the same contents" ||
		not_ok "hc-move hot: concurrent reader: $bad of $nr reads differ"
	timeout 300 "$T/hc-move" cold /mnt/b/d/f2 >/tmp/mv2.csv 2>/tmp/mv2.err
	rc=$? la=$(csv_get /tmp/mv2.csv /mnt/b/d/f2 last_after)
	[ $rc = 0 ] && ge "$la" 0.99 && [ "$sum2" != none ] && [ "$(sum_of /mnt/b/d/f2)" = "$sum2" ] &&
	   [ "$(stat -c %i /mnt/b/d/f2)" = "$ino2" ] &&
		ok "hc-move cold: f2 in the cold third ($la), same inode and contents" ||
		not_ok "hc-move cold f2: exit $rc, last third $la: $(cat /tmp/mv2.err)"
	timeout 300 "$T/hc-move" hot /mnt/b/d/f1 >/tmp/mv3.csv 2>&1
	[ "$(csv_get /tmp/mv3.csv /mnt/b/d/f1 outcome)" = already ] &&
		ok "hc-move hot on a file already in the hot third does nothing" ||
		not_ok "hc-move hot again: $(cat /tmp/mv3.csv)"
	# policy mode: the most-read file to hot, the others to cold
	printf '# reads path\n500 /mnt/b/d/f3\n20 /mnt/b/d/f1\n' >/tmp/rank.txt
	timeout 300 "$T/hc-move" --rank /tmp/rank.txt --top 1 --demote hot >/tmp/mv4.csv 2>/tmp/mv4.err
	rc=$?
	f3=$(csv_get /tmp/mv4.csv /mnt/b/d/f3 first_after)
	f1=$(csv_get /tmp/mv4.csv /mnt/b/d/f1 last_after)
	[ $rc = 0 ] && ge "$f3" 0.99 && ge "$f1" 0.99 &&
		ok "hc-move --rank --top 1 --demote: f3 (500 reads) hot ($f3), f1 (20) cold ($f1)" ||
		not_ok "hc-move --rank: exit $rc, f3 first $f3, f1 last $f1: $(cat /tmp/mv4.err)"
	# bad input: a directory, a file that is not there, a bad target
	"$T/hc-move" hot /mnt/b/d >/dev/null 2>/tmp/mv5.err; rc=$?
	[ $rc = 1 ] && grep -q 'not a regular file' /tmp/mv5.err &&
		ok "hc-move on a directory: exit 1, 'not a regular file'" ||
		not_ok "hc-move on a directory: exit $rc: $(cat /tmp/mv5.err)"
	"$T/hc-move" warm /mnt/b/d/f1 >/dev/null 2>/tmp/mv6.err; rc=$?
	[ $rc = 2 ] && grep -q "'warm'" /tmp/mv6.err &&
		ok "hc-move with target 'warm': exit 2, names it" ||
		not_ok "hc-move warm: exit $rc: $(cat /tmp/mv6.err)"
	umnt_fsck "$VDB" /mnt/b "hc-move"
elif [ "$FLAVOUR" = patched ]; then
	not_ok "mount -o region_reserve=1 $VDB for hc-move: $(cat /tmp/mount.log 2>/dev/null)"
fi

##### 13: directories marked hot or cold (system.hotcold): plain open()s
##### and busybox cp/dd/tar inherit the mark, also after a remount
##### (vdb: 32 groups of 32 MiB, flex groups of 4)
diag "=== directory marks on $VDB ==="
if section dirmark && mkfs_ext4 "$VDB" -b 4096 -g 8192 -G 4 -m 0 && mnt "$VDB" /mnt/b; then
	if [ "$FLAVOUR" = patched ]; then
		run hc_dirmark mark "$VDB" /mnt/b
		if timeout 120 umount /mnt/b && mnt "$VDB" /mnt/b; then
			run hc_dirmark persist "$VDB" /mnt/b
		else
			not_ok "umount + mount $VDB for the directory marks"
		fi
	else
		run hc_dirmark stock "$VDB" /mnt/b
		# a directory the patched kernel marked cold (system.hotcold
		# "cold" in its inode): the stock kernel creates in it and keeps it
		DEBUGFS=$(e2prog debugfs)
		mkdir -p /mnt/b/marked
		if timeout 120 umount /mnt/b &&
		   timeout 60 "$DEBUGFS" -w -R "ea_set /marked system.hotcold cold" "$VDB" >/tmp/dbg.log 2>&1 &&
		   mnt "$VDB" /mnt/b && echo data >/mnt/b/marked/f && sync && timeout 120 umount /mnt/b &&
		   [ "$(timeout 60 "$DEBUGFS" -R "ea_get /marked system.hotcold" "$VDB" 2>/dev/null | ea_value)" = cold ]; then
			ok "stock: a directory marked cold (system.hotcold) takes a create and keeps its mark"
		else
			not_ok "stock: directory marked cold: $(cat /tmp/dbg.log; "$DEBUGFS" -R "ea_list /marked" "$VDB" 2>&1)"
		fi
		grep -q ' /mnt/b ' /proc/mounts || mnt "$VDB" /mnt/b
	fi
	umnt_fsck "$VDB" /mnt/b "directory marks"
fi

##### 13b: a hot mark lends no right: uid 65534's subdirectory of a hot
##### dir is not marked, renamed out it gives no hot files, nor do its
##### creates in the hot dir (region_reserve=1 keeps unhinted files out
##### of the hot region, so FIEMAP tells)
if [ "$FLAVOUR" = patched ] && section escape; then
	diag "=== directory mark escape on $VDB ==="
	if mkfs_ext4 "$VDB" -b 4096 -g 8192 -G 4 -m 0 && mkdir -p /mnt/b &&
	   timeout 120 mount -t ext4 -o noinit_itable,region_reserve=1 "$VDB" /mnt/b 2>/tmp/mount.log; then
		run hc_dirmark escape "$VDB" /mnt/b
		run hc_dirmark overlay "$VDB" /mnt/b
		umnt_fsck "$VDB" /mnt/b "directory mark escape and overlay"
	else
		not_ok "mount -o region_reserve=1 $VDB for the mark escape: $(cat /tmp/mount.log 2>/dev/null)"
	fi
fi

##### 13c: a file keeps the hint it was created with when the filesystem
##### is resized: grown online to 2x and 3x, shrunk offline back (vdb: a
##### 256 MiB ext4 of 16 groups of 16 MiB on the 1 GiB disk)
diag "=== resize keeps the hints on $VDB ==="
RESIZE2FS=$(e2prog resize2fs) || not_ok "e2fsprogs resize2fs not found"
if ! section resize; then
	:
elif timeout 300 "$MKE2FS" -q -F -t ext4 -E lazy_itable_init=1,lazy_journal_init=1 \
	-b 4096 -g 4096 -G 4 -m 0 "$VDB" 65536 >/tmp/mkfs.log 2>&1; then
	if mnt "$VDB" /mnt/b; then
		run hc_resize "$VDB" /mnt/b "$RESIZE2FS"
		grep -q ' /mnt/b ' /proc/mounts || mnt "$VDB" /mnt/b
		umnt_fsck "$VDB" /mnt/b "grow and shrink"
		# what e2fsprogs sees: the record is an in-inode xattr
		DEBUGFS=$(e2prog debugfs)
		if [ "$FLAVOUR" = patched ]; then
			for fv in hdir:hot cdir:cold cold1:cold hot1:hot cold3:cold; do
				f=${fv%%:*} v=${fv#*:}
				got=$(timeout 60 "$DEBUGFS" -R "ea_get /$f system.hotcold" "$VDB" 2>/dev/null | ea_value)
				acl=$(timeout 60 "$DEBUGFS" -R "stat /$f" "$VDB" 2>/dev/null | sed -n 's/.*File ACL: \([0-9]*\).*/\1/p')
				[ "$got" = "$v" ] && [ "$acl" = 0 ] &&
					ok "debugfs: /$f has system.hotcold = $v in the inode (no xattr block)" ||
					not_ok "debugfs: /$f system.hotcold '$got' (want $v), File ACL '$acl' (want 0)"
			done
		fi
	fi
else
	not_ok "mke2fs -t ext4 -b 4096 -g 4096 -G 4 -m 0 $VDB 65536: $(cat /tmp/mkfs.log)"
fi

##### 13d: the hint counters count a create once, when it succeeded, and
##### a file's spill once (vdb: 256 MiB, 16 groups of 16 MiB)
if [ "$FLAVOUR" = patched ] && section count; then
	diag "=== hint counters on $VDB ==="
	for m in evict quota enospc noregion; do
		case $m in
		quota) o="-O quota"; mo="noinit_itable,usrquota" ;;
		enospc) o=""; mo="noinit_itable,commit=300" ;;
		*) o=""; mo="noinit_itable" ;;
		esac
		# shellcheck disable=SC2086
		if timeout 300 "$MKE2FS" -q -F -t ext4 -E lazy_itable_init=1,lazy_journal_init=1 \
			-b 4096 -g 4096 -G 4 -m 0 $o "$VDB" 65536 >/tmp/mkfs.log 2>&1 &&
		   mkdir -p /mnt/b && timeout 120 mount -t ext4 -o "$mo" "$VDB" /mnt/b 2>/tmp/mount.log; then
			run hc_count "$m" "$VDB" /mnt/b
			umnt_fsck "$VDB" /mnt/b "hint counters ($m)"
		else
			not_ok "mke2fs $o + mount -o $mo $VDB for hc_count $m: $(cat /tmp/mkfs.log /tmp/mount.log 2>/dev/null)"
		fi
	done
fi

##### 13e: write-lifetime hints: a file whose fcntl(F_SET_RW_HINT) hint
##### is RWH_WRITE_LIFE_EXTREME gets its data in the cold region (vdb: 32
##### groups of 32 MiB, flex groups of 4, so a middle directory exists)
if section writehint; then
diag "=== write-lifetime hints on $VDB ==="
if [ "$FLAVOUR" = patched ]; then
	if mkfs_ext4 "$VDB" -b 4096 -g 8192 -G 4 -m 0 && mnt "$VDB" /mnt/b; then
		run hc_writehint "$VDB" /mnt/b
		set_rot "$VDB" 1 || not_ok "$(rot "$VDB") could not be restored to 1"
		umnt_fsck "$VDB" /mnt/b "write-lifetime hints"
	fi
else
	skip "hc_writehint" "stock kernel: it does not place files by their write-lifetime hint"
fi
fi

##### 14: races a review found (TCG rarely hits them: a pass says little,
##### a failure is a bug): the system.hotcold setter against fast
##### commits of the same directory; the region tunables written while
##### O_HOT/O_COLD files allocate (vdb); and one whose window is a walk
##### of every group: a recount of the regions' free totals while
##### unhinted files are kept out of the hot region (vda)
if [ "$FLAVOUR" = patched ] && section race; then
	diag "=== races on $VDB ==="
	if mkfs_ext4 "$VDB" -b 4096 -g 8192 -O fast_commit && mnt "$VDB" /mnt/b; then
		run hc_race mark "$VDB" /mnt/b 30
		umnt_fsck "$VDB" /mnt/b "system.hotcold vs fast commit"
	fi
	if mkfs_ext4 "$VDB" -b 4096 -g 8192 && mnt "$VDB" /mnt/b; then
		run hc_race region "$VDB" /mnt/b 30
		umnt_fsck "$VDB" /mnt/b "region tunables vs allocations"
	fi
	# 32,768 groups of 2 MiB: a recount of the parts' free clusters
	# walks them all, long enough for the other creator to run meanwhile
	set_rot "$VDA" 1 || not_ok "$(rot "$VDA") could not be set to 1"
	if mkfs_ext4 "$VDA" -b 1024 -g 2048 -J size=16 && mnt "$VDA" /mnt/a; then
		run hc_race recount "$VDA" /mnt/a 30
		umnt_fsck "$VDA" /mnt/a "region recount vs unhinted creates"
	fi
fi

##### 14c: mb_optimize_scan's lists per part of the disk: an unhinted
##### allocation that misses its goal tries the goal's part first, not
##### the hot region's groups (vdb: 32 groups; see hc_scanorder.c)
if [ "$FLAVOUR" = patched ] && section scanorder; then
	diag "=== scan order of the parts on $VDB ==="
	if mkfs_ext4 "$VDB" -b 4096 -g 8192 -G 4 -m 0 && mnt "$VDB" /mnt/b; then
		run hc_scanorder "$VDB" /mnt/b
		umnt_fsck "$VDB" /mnt/b "scan order"
	fi
fi

##### what a hinted create's group search costs in a full hot region
##### (vdb: 1024 groups of 1 MiB; see hc_findcost.c; needs the function
##### profiler, which only the debug kernel has: a SKIP line elsewhere)
if [ "$FLAVOUR" = patched ] && section findcost; then
	diag "=== group search cost in a full region on $VDB ==="
	if [ ! -w /sys/kernel/tracing/function_profile_enabled ]; then
		skip "hc_findcost" "no function profiler in this kernel: the debug kernel runs it"
	elif ! set_rot "$VDB" 1; then
		not_ok "$(rot "$VDB") could not be set to 1"
	elif mkfs_ext4 "$VDB" -b 1024 -g 1024 -m 0 && mnt "$VDB" /mnt/b; then
		run hc_findcost "$VDB" /mnt/b
		umnt_fsck "$VDB" /mnt/b "group search cost"
	fi
fi

##### 14b: fast-commit replay at mount, before the per-CPU counters exist
##### (vdb: 4 files exist only in the fast-commit log when the filesystem
##### is shut down; the replay at the next mount brings them back)
if section replay; then
	diag "=== fast-commit replay on $VDB ==="
	if mkfs_ext4 "$VDB" -b 4096 -g 8192 -O fast_commit && mkdir -p /mnt/b &&
	   timeout 120 mount -t ext4 -o noinit_itable,commit=300 "$VDB" /mnt/b 2>/tmp/mount.log; then
		run hc_replay write "$VDB" /mnt/b
		if timeout 120 umount /mnt/b && mnt "$VDB" /mnt/b; then
			run hc_replay check "$VDB" /mnt/b
		else
			not_ok "umount + mount $VDB after the shutdown (the replay)"
		fi
		# the shutdown recorded an error in the journal: let e2fsck
		# clear the flag before the check that must be clean
		if timeout 120 umount /mnt/b; then
			timeout 600 "$E2FSCK" -fy "$VDB" >/tmp/fsck-y.log 2>&1
			mnt "$VDB" /mnt/b && umnt_fsck "$VDB" /mnt/b "fast-commit replay"
		else
			not_ok "umount $VDB after the replay"
		fi
	else
		not_ok "mount -o commit=300 $VDB for the replay: $(cat /tmp/mount.log 2>/dev/null)"
	fi
fi

##### 8: tmpfs and ext2 accept the flags
diag "=== tmpfs and ext2 ==="
if section otherfs; then
	mkdir -p /mnt/t
	if timeout 60 mount -t tmpfs hctmp /mnt/t; then
		run hc_otherfs tmpfs /mnt/t
		timeout 60 umount /mnt/t || not_ok "umount tmpfs /mnt/t"
	else
		not_ok "mount tmpfs on /mnt/t"
	fi
	mkdir -p /tmp/hc-tmp && run hc_otherfs tmp /tmp/hc-tmp
	if timeout 300 "$MKE2FS" -q -F -t ext2 "$VDC" >/tmp/mkfs.log 2>&1; then
		if mnt "$VDC" /mnt/c ext2; then
			diag "ext2 mount: $(grep ' /mnt/c ' /proc/mounts)"
			run hc_otherfs ext2 /mnt/c
			umnt_fsck "$VDC" /mnt/c "ext2 tests"
		fi
	else
		not_ok "mke2fs -t ext2 $VDC: $(cat /tmp/mkfs.log)"
	fi
fi

##### 10: openat2 selftests from the patched tree
diag "=== openat2 selftests ==="
if ! section openat2; then
	:
elif [ -d "$T/openat2" ] && [ -n "$(ls "$T/openat2" 2>/dev/null)" ]; then
	for b in "$T"/openat2/*; do
		[ -x "$b" ] || continue
		name=$(basename "$b")
		kmark "openat2 $name"
		(cd /tmp && timeout "$TMO" "$b") >/tmp/openat2.log 2>&1
		rc=$?
		# their own TAP lines become comments: the host counts ours
		# passes are summarised by the Totals line; show everything else
		grep -v '^ok ' /tmp/openat2.log | sed 's/^/#   /' | tail -200
		totals=$(grep -E '^# (Totals|PASSED|FAILED)' /tmp/openat2.log | tail -1)
		if [ "$FLAVOUR" = stock ] && [ "$name" = openat2_test ]; then
			# stock refuses O_HOT/O_COLD: exactly the three
			# "creation hint" cases fail, nothing else
			hints=$(grep '^not ok ' /tmp/openat2.log | grep -c 'creation hint')
			others=$(grep '^not ok ' /tmp/openat2.log | grep -vc 'creation hint')
			if [ "$rc" != 0 ] && [ "$hints" = 3 ] && [ "$others" = 0 ]; then
				ok "stock: openat2 selftest $name fails only its 3 creation-hint cases $totals"
			else
				not_ok "stock: openat2 selftest $name: exit $rc, $hints creation-hint and $others other failures (want 3 and 0) $totals"
			fi
			continue
		fi
		case $rc in
		0) ok "openat2 selftest $name passes $totals" ;;
		4) skip "openat2 selftest $name" "skipped itself $totals" ;;
		*) not_ok "openat2 selftest $name: exit $rc $totals" ;;
		esac
	done
else
	not_ok "openat2 selftests not found in $T/openat2"
fi

##### 11: the ext4 placement selftest from the patched tree
diag "=== ext4 placement selftest ==="
# hc_selftest WANT DESC [VAR=VALUE]: run it (in the environment given),
# its TAP lines as comments; WANT pass: exit 0 with every case passed and
# none skipped; skip: exit 4 (KSFT_SKIP), reported as a skip on stock and
# as a check of the skip itself elsewhere.
hc_selftest() {
	want=$1 desc=$2
	shift 2
	(unset EXT4_HOTCOLD_DIR
	 for a in "$@"; do export "$a"; done
	 cd /tmp && timeout "$TMO" "$HCST") >/tmp/hcst.log 2>&1
	rc=$?
	sed 's/^/#   /' /tmp/hcst.log | tail -60
	passed=$(grep '^ok ' /tmp/hcst.log | grep -v '# SKIP' | grep -c ' global\.')
	skips=$(grep -c '# SKIP' /tmp/hcst.log)
	why=$(sed -n 's/.*# SKIP //p' /tmp/hcst.log | head -1)
	case $want,$rc in
	pass,0)
		if [ "$passed" = 2 ] && [ "$skips" = 0 ]; then
			ok "ext4 placement selftest: $desc: both cases pass"
		else
			not_ok "ext4 placement selftest: $desc: $passed of 2 cases passed, $skips skipped"
		fi ;;
	skip,4)
		if [ "$FLAVOUR" = stock ]; then
			skip "ext4 placement selftest: $desc" "$why"
		else
			ok "ext4 placement selftest: $desc: skips ($why)"
		fi ;;
	*)	not_ok "ext4 placement selftest: $desc: exit $rc (want $want)" ;;
	esac
}
HCST=$T/ext4-selftests/hotcold_test
if [ ! -x "$HCST" ]; then
	not_ok "ext4 placement selftest not found: $HCST"
elif ! set_rot "$VDB" 1; then
	not_ok "$(rot "$VDB") could not be set to 1 for the ext4 placement selftest"
elif mkfs_ext4 "$VDB" -b 4096 -g 8192 && mnt "$VDB" /mnt/b; then
	if [ "$FLAVOUR" = patched ]; then
		hc_selftest pass "rotational ext4 of 32 groups" EXT4_HOTCOLD_DIR=/mnt/b
		hc_selftest skip "EXT4_HOTCOLD_DIR unset"
		mkdir -p /tmp/hcst && hc_selftest skip "a directory not on ext4" EXT4_HOTCOLD_DIR=/tmp/hcst
		if set_rot "$VDB" 0; then
			hc_selftest skip "a non-rotational device" EXT4_HOTCOLD_DIR=/mnt/b
		else
			not_ok "$(rot "$VDB") could not be set to 0"
		fi
		set_rot "$VDB" 1 || not_ok "$(rot "$VDB") could not be set back to 1"
	else
		hc_selftest skip "stock kernel" EXT4_HOTCOLD_DIR=/mnt/b
	fi
	umnt_fsck "$VDB" /mnt/b "the ext4 placement selftest"
fi

diag "guest-check: flavour $FLAVOUR: $failed failure(s) reported (shell lines: $n)"
tap_done
