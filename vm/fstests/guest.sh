#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# In the guest (vm/runner/run --rootfs, the image of vm/fstests/mkrootfs.sh): make
# ext4 on TEST_DEV and SCRATCH_DEV, run fstests' check, and leave its
# results in /out (vm/runner/run --out brings them back to the host):
# env.txt, result.xml, check.log, hint-counters.txt, hint-events.txt and
# fail-TEST.txt for each failing test.  Run by vm/fstests/run.sh; not by hand.
#
# Environment:
#   FLAVOUR    patched|stock (only printed)
#   HINT       none|hot|cold: with hot or cold, check and everything it runs
#              has LD_PRELOAD=hotcold-preload.so HOTCOLD=$HINT
#   TESTS      tests to run (e.g. "generic/001 ext4/001"), or
#   GROUP      a group (e.g. quick); TESTS wins when both are set
#   EXCLUDE    tests to leave out (check -e)
#   DIRMARK    none|hot|cold: with hot or cold, TEST_DIR's root directory
#              carries the directory mark (system.hotcold, patch 12) before
#              check starts, so that what the tests create under TEST_DIR
#              is hinted with it (SCRATCH_DEV, made anew by the tests, is not)
#   MOUNT_OPTIONS  extra ext4 mount options (e.g. region_reserve=1) for TEST_DEV
#              and SCRATCH_DEV: fstests' EXT_MOUNT_OPTIONS, which its ext4
#              MOUNT_OPTIONS and TEST_FS_MOUNT_OPTS both carry
#   TEST_DEV, SCRATCH_DEV (default /dev/vda, /dev/vdb)
set -u
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
here=$(cd "$(dirname "$0")" && pwd)
FLAVOUR=${FLAVOUR:-unknown} HINT=${HINT:-none} DIRMARK=${DIRMARK:-none}
# fstests reads MOUNT_OPTIONS from the environment too, and a set one
# stands in for its own "-o acl,user_xattr $EXT_MOUNT_OPTIONS": keep ours
# under another name and take it out of the environment check inherits
mntopts=${MOUNT_OPTIONS:-}
unset MOUNT_OPTIONS
TEST_DEV=${TEST_DEV:-/dev/vda} SCRATCH_DEV=${SCRATCH_DEV:-/dev/vdb}
fst=/var/lib/xfstests
die() { echo "guest-fstests: $*"; exit 2; }
keep() { # NAME FILE: FILE for the host, as /out/NAME (a missing FILE: none)
	[ -f "$2" ] || return 0
	cp "$2" "/out/$1" || die "cannot copy $2 to /out/$1"
}

[ -x $fst/check ] || die "no fstests in this root ($fst/check): boot with vm/runner/run --rootfs IMAGE"
[ -d /out ] && [ -w /out ] || die "no writable /out: boot with vm/runner/run --out DIR"
for d in "$TEST_DEV" "$SCRATCH_DEV"; do [ -b "$d" ] || die "no block device $d"; done
case $HINT in none|hot|cold) ;; *) die "HINT='$HINT': use none, hot or cold" ;; esac
case $DIRMARK in none|hot|cold) ;; *) die "DIRMARK='$DIRMARK': use none, hot or cold" ;; esac
case $mntopts in *[!a-z0-9_=,.-]*) die "MOUNT_OPTIONS='$mntopts': only options like region_reserve=1" ;; esac
preload=""
if [ "$HINT" != none ]; then
	[ -r "$here/hotcold-preload.so" ] || die "HINT=$HINT but no $here/hotcold-preload.so"
	install -m 0644 "$here/hotcold-preload.so" /usr/local/lib/hotcold-preload.so
	preload=/usr/local/lib/hotcold-preload.so
	LD_PRELOAD=$preload HOTCOLD=$HINT true || die "the preload library does not load in the guest"
fi

# fstests uses bash's process substitution (common/verity: "< <(...)"),
# which needs the /dev/fd that vm/runner/guest-init links in the root
[ "$(cat <(echo ok) 2>/dev/null)" = ok ] || die "bash process substitution does not work (no /dev/fd?)"
# The encryption tests with v1 policies add their keys to a keyring they
# make in the session keyring (common/encrypt: keyctl newring xfstests @s).
# The guest's first process has none, so @s is root's user-session keyring,
# which it does not possess: adding a key to the new ring fails (generic/576
# failed with "add_key: Required key not available" on any kernel).  Give
# this shell, and so check and its tests, a session keyring of their own.
if command -v keyctl >/dev/null; then
	keyctl new_session >/dev/null || die "keyctl new_session failed: no session keyring for the encryption tests"
	keyctl rdescribe @s | grep -q ';_ses$' || die "no session keyring after keyctl new_session: $(keyctl rdescribe @s 2>&1)"
fi

hostname fstests 2>/dev/null
{
	echo "kernel $(uname -r) flavour $FLAVOUR hint $HINT dirmark $DIRMARK"
	echo "mount_options ${mntopts:-(defaults)}"
	for d in "$TEST_DEV" "$SCRATCH_DEV"; do
		b=$(basename "$d")
		echo "$d size $(($(cat /sys/block/$b/size) / 2048)) MiB rotational $(cat /sys/block/$b/queue/rotational)"
	done
	echo "mke2fs $(mke2fs -V 2>&1 | head -n 1)"
	echo "fstests $(cat $fst/TARBALL 2>/dev/null || echo '(unknown version)')"
} >/tmp/env.txt
cat /tmp/env.txt

# ext4 with mke2fs's defaults (4k blocks on these sizes)
mkfs.ext4 -q -F "$TEST_DEV" || die "mkfs.ext4 $TEST_DEV failed"
mkfs.ext4 -q -F "$SCRATCH_DEV" || die "mkfs.ext4 $SCRATCH_DEV failed"
dumpe2fs -h "$TEST_DEV" 2>/dev/null | grep -E '^(Block size|Filesystem features):' >>/tmp/env.txt
cat >$fst/local.config <<EOF
export FSTYP=ext4
export TEST_DEV=$TEST_DEV
export TEST_DIR=/mnt/test
export SCRATCH_DEV=$SCRATCH_DEV
export SCRATCH_MNT=/mnt/scratch
EOF
[ -n "$mntopts" ] && echo "export EXT_MOUNT_OPTIONS=\"-o $mntopts\"" >>$fst/local.config
# the kernel's .config, when the host shipped it (run.sh): tests that ask
# for a config option (_has_kernel_config) read it there
[ -r "$here/kconfig-$FLAVOUR" ] && echo "export KCONFIG_PATH=$here/kconfig-$FLAVOUR" >>$fst/local.config
# dm targets (flakey, snapshot, ...) without udev in the guest: libdevmapper
# makes the /dev/mapper nodes itself
export DM_DISABLE_UDEV=1
mkdir -p /mnt/test /mnt/scratch
# TEST_DEV mounted once as fstests will mount it: the kernel takes the
# options, and /proc/mounts shows which are in effect
if mount -t ext4 -o "acl,user_xattr${mntopts:+,$mntopts}" "$TEST_DEV" /mnt/test; then
	echo "test_mount $(grep "^$TEST_DEV " /proc/mounts | head -n 1)" >>/tmp/env.txt
	umount /mnt/test
else
	die "mount -o acl,user_xattr${mntopts:+,$mntopts} $TEST_DEV failed: the kernel refuses the options"
fi
# The directory mark on TEST_DIR's root: set, read back, and shown to work
# (a file created there is hinted: its own system.hotcold says so) before
# check runs; a kernel without directory marks refuses the attribute.
if [ "$DIRMARK" != none ]; then
	mount -t ext4 -o "acl,user_xattr${mntopts:+,$mntopts}" "$TEST_DEV" /mnt/test || die "mount $TEST_DEV to mark it failed"
	setfattr -n system.hotcold -v "$DIRMARK" /mnt/test ||
		{ umount /mnt/test; die "setfattr -n system.hotcold -v $DIRMARK on TEST_DIR failed: a kernel without the series' directory marks?"; }
	got=$(getfattr --absolute-names --only-values -n system.hotcold /mnt/test 2>/dev/null)
	: >/mnt/test/.dirmark-probe
	probe=$(getfattr --absolute-names --only-values -n system.hotcold /mnt/test/.dirmark-probe 2>/dev/null)
	rm -f /mnt/test/.dirmark-probe
	umount /mnt/test
	[ "$got" = "$DIRMARK" ] || die "TEST_DIR's system.hotcold reads '$got' after setting it to $DIRMARK"
	[ "$probe" = "$DIRMARK" ] || die "a file created in TEST_DIR marked $DIRMARK carries system.hotcold '$probe', not the mark's hint"
	echo "test_dir_mark $DIRMARK" >>/tmp/env.txt
fi

# Every hinted create is one ext4_hotcold_alloc event (patched kernel only):
# dev, the hint asked for and its outcome.  A reader drains the buffer
# while check runs; lost events are counted from the buffer's stats.
tr=/sys/kernel/tracing
tracing=0
if [ -d $tr/events/ext4/ext4_hotcold_alloc ]; then
	echo 8192 >$tr/buffer_size_kb
	echo >$tr/trace
	echo 1 >$tr/events/ext4/ext4_hotcold_alloc/enable
	[ -d $tr/events/ext4/ext4_hotcold_spill ] && echo 1 >$tr/events/ext4/ext4_hotcold_spill/enable
	cat $tr/trace_pipe >/tmp/hint-trace &
	tpid=$!
	tracing=1
fi

args=(-R xunit-quiet)
[ -n "${EXCLUDE:-}" ] && for e in $EXCLUDE; do args+=(-e "$e"); done
if [ -n "${TESTS:-}" ]; then
	# shellcheck disable=SC2206
	args+=($TESTS)
elif [ -n "${GROUP:-}" ]; then
	args+=(-g "$GROUP")
else
	die "set TESTS or GROUP"
fi
rm -rf $fst/results
# Each test's xunit entry as check appends it (to /tmp/PID.report.xunit.*.xml,
# check's $tmp) goes to the console too, every line prefixed with
# @@XUNIT@@: a guest stopped before check ends (timeout, a hung test) still
# hands the host the tests that finished (vm/fstests/run.sh).
rm -f /tmp/xunit-stream-stop
(
	n=0
	while :; do
		stop=0
		[ -e /tmp/xunit-stream-stop ] && stop=1
		for f in /tmp/[0-9]*.report.xunit.*.xml; do
			[ -f "$f" ] || continue
			total=$(wc -l <"$f")
			[ "$total" -gt "$n" ] && sed -n "$((n + 1)),${total}s/^/@@XUNIT@@ /p" "$f"
			n=$total
		done
		[ $stop = 1 ] && break
		sleep 5
	done
) &
spid=$!
t0=$(date +%s)
cd $fst || die "cd $fst"
if [ -n "$preload" ]; then
	LD_PRELOAD=$preload HOTCOLD=$HINT ./check "${args[@]}"
else
	./check "${args[@]}"
fi
rc=$?
t1=$(date +%s)
touch /tmp/xunit-stream-stop
wait $spid
echo "check exited $rc after $((t1 - t0)) s"
echo "check_exit $rc" >>/tmp/env.txt
echo "check_seconds $((t1 - t0))" >>/tmp/env.txt

# Hint counters of the filesystems still mounted (the root's, at least:
# fstests' results are created there), and the events of every one.
for f in /sys/fs/ext4/*/hint_*; do
	[ -r "$f" ] && echo "${f#/sys/fs/ext4/} $(cat "$f")"
done >/tmp/hint-counters.txt
if [ $tracing = 1 ]; then
	echo 0 >$tr/events/ext4/ext4_hotcold_alloc/enable
	[ -d $tr/events/ext4/ext4_hotcold_spill ] && echo 0 >$tr/events/ext4/ext4_hotcold_spill/enable
	sleep 2
	kill $tpid 2>/dev/null
	wait $tpid 2>/dev/null
	lost=$(cat $tr/per_cpu/cpu*/stats 2>/dev/null | awk '$1 == "overrun:" { s += $2 } END { print s + 0 }')
	# dev names from major:minor
	for b in /sys/block/*; do echo "$(cat $b/dev) $(basename $b)"; done >/tmp/devs
	awk -v lost="$lost" '
		FNR == NR { split($1, mm, ":"); name[mm[1] "," mm[2]] = $2; next }
		/ext4_hotcold_alloc:/ {
			d = ""; for (i = 1; i <= NF; i++) {
				if ($i == "dev") d = $(i + 1)
				if ($i == "req") q = $(i + 1)
				if ($i == "outcome") o = $(i + 1)
			}
			n = (d in name) ? name[d] : d
			c[n " " q " " o]++
			next
		}
		/ext4_hotcold_spill:/ { for (i = 1; i <= NF; i++) if ($i == "dev") d = $(i + 1)
			n = (d in name) ? name[d] : d; s[n]++ }
		END {
			for (k in c) print "alloc", k, c[k]
			for (k in s) print "spill", k, "-", "-", s[k]
			print "lost", "-", "-", "-", lost
		}' /tmp/devs /tmp/hint-trace | sort >/tmp/hint-events.txt
fi

r=$fst/results
keep env.txt /tmp/env.txt
keep result.xml $r/result.xml
keep check.log $r/check.log
keep hint-counters.txt /tmp/hint-counters.txt
[ $tracing = 1 ] && keep hint-events.txt /tmp/hint-events.txt
# for each failed test: its output's diff against the expected one, the tail
# of its .full and its dmesg
[ -d $r ] || die "check made no results folder (exit $rc)"
for bad in $(cd $r && find . -name '*.out.bad' -o -name '*.dmesg' | sed 's|^\./||; s/\.out\.bad$//; s/\.dmesg$//' | sort -u); do
	n=${bad//\//-}
	{
		echo "== $bad: diff -u tests/$bad.out results/$bad.out.bad"
		[ -f $r/$bad.out.bad ] && diff -u tests/$bad.out $r/$bad.out.bad | head -n 150
		echo "== tail of $bad.full"
		tail -n 60 $r/$bad.full 2>/dev/null
		if [ -f $r/$bad.dmesg ]; then echo "== $bad.dmesg"; head -n 100 $r/$bad.dmesg; fi
	} >/tmp/fail.txt
	keep "fail-$n.txt" /tmp/fail.txt
done
[ -s $r/result.xml ] || die "check wrote no result.xml (exit $rc)"
exit 0
