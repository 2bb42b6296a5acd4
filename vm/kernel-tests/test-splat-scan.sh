#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Host unit test of splat-scan.sh, the check behind make guest-check-debug:
# a clean kernel log passes; the same log with a KASAN report, a lockdep
# report, a sleep in atomic context, a WARNING, a list corruption or a bare
# Call Trace in it fails, names the test that was running and prints the
# report's first lines; bad input is refused.  No VM.
# Usage: test-splat-scan.sh DATADIR (vm/kernel-tests/testdata)
set -u
DATA=${1:?usage: test-splat-scan.sh DATADIR}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
TAP_PREFIX="splat-scan: "
tap_init splat-scan
SCAN=$here/splat-scan.sh
clean=$DATA/clean.kmsg
[ -s "$clean" ] || { not_ok "fixture $clean missing"; exit 1; }
marker='guest-check: hc_race mark'
grep -q "$marker" "$clean" || { not_ok "fixture $clean has no '$marker' record"; exit 1; }

# scan FILE [OPTIONS...]: splat-scan.sh's output in $tmp/out, status in $rc
scan() {
	f=$1
	shift
	"$SCAN" --prefix 'kmsg: ' "$@" "$f" >"$tmp/out" 2>&1
	rc=$?
}
# with_splat TXT: the clean log with TXT's lines as /dev/kmsg records
# (priority 4, as printk's warnings) right after the hc_race marker
with_splat() {
	awk -v m="$marker" -v txt="$1" '
		{ print }
		index($0, m) {
			seq = 900000
			while ((getline l < txt) > 0) printf "kmsg: 4,%d,88000000,-;%s\n", seq++, l
		}' "$clean" >"$tmp/log"
}

# a clean log passes, and has the boot lines guest-check-debug requires
scan "$clean" --require 'KernelAddressSanitizer initialized' \
	--require 'Lock dependency validator' --require 'guest-kmsg: end of'
if [ $rc = 0 ] && grep -q '^ok - debug: no splat' "$tmp/out" && ! grep -q '^not ok' "$tmp/out"; then
	ok "a clean kernel log passes (exit 0)"
else
	not_ok "a clean kernel log: exit $rc"; sed 's/^/# /' "$tmp/out"
fi

# each kind of splat fails the scan: kind, its file, a line the printed
# first lines must hold
while read -r kind txt want; do
	with_splat "$DATA/$txt"
	scan "$tmp/log"
	if [ $rc = 1 ] && grep -q "^not ok - debug: splat 1 of 1 in the kernel log, during hc_race mark" "$tmp/out" &&
	   grep -qF "#   $want" "$tmp/out"; then
		ok "$kind fails the scan, put down to hc_race, first lines printed ($want)"
	else
		not_ok "$kind: exit $rc (want 1), or no 'during hc_race' line or no '$want'"
		sed 's/^/# /' "$tmp/out"
	fi
done <<'EOF'
KASAN-use-after-free kasan.txt BUG: KASAN: use-after-free in ext4_mb_new_blocks
lockdep-circular lockdep-circular.txt WARNING: possible circular locking dependency detected
lockdep-inconsistent inconsistent.txt WARNING: inconsistent lock state
lockdep-RCU rcu.txt WARNING: suspicious RCU usage
sleep-in-atomic atomic-sleep.txt BUG: sleeping function called from invalid context
WARN_ON warn.txt WARNING: CPU: 1 PID: 349 at fs/ext4/mballoc.c
DEBUG_LIST list-corruption.txt list_del corruption.
bare-Call-Trace call-trace.txt Call Trace:
EOF

# the KASAN report: its header and the top of its stack are printed, not
# all 60 lines of it
with_splat "$DATA/kasan.txt"
scan "$tmp/log"
if grep -qF '#   Call Trace:' "$tmp/out" && grep -qF '#   Read of size 8 at addr' "$tmp/out" &&
   ! grep -qF 'Memory state around' "$tmp/out"; then
	ok "a KASAN report: its first lines printed (header, Call Trace), not all of it"
else
	not_ok "a KASAN report's printed lines"; sed 's/^/# /' "$tmp/out"
fi

# the same log in dmesg's format ("[  1.234567] text"): still found
sed -n 's/^kmsg: [0-9]*,[0-9]*,\([0-9]*\)[0-9]\{6\},[^;]*;/[ \1.000000] /p' "$tmp/log" >"$tmp/dmesg"
"$SCAN" "$tmp/dmesg" >"$tmp/out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q 'not ok - debug: splat .*BUG: KASAN' "$tmp/out" &&
	ok "a KASAN report in dmesg's format fails the scan" ||
	{ not_ok "KASAN in dmesg format: exit $rc"; sed 's/^/# /' "$tmp/out"; }

# two splats far apart are two; the second one's test is named too
awk -v m="$marker" -v a="$DATA/warn.txt" -v b="$DATA/atomic-sleep.txt" '
	function put(f,   l) { while ((getline l < f) > 0) printf "kmsg: 4,%d,88000000,-;%s\n", seq++, l; close(f) }
	{ print }
	index($0, m) {
		seq = 900000; put(a)
		for (i = 0; i < 100; i++) printf "kmsg: 6,%d,88000000,-;EXT4-fs (vdb): filler %d\n", seq++, i
		printf "kmsg: 12,%d,88000000,-;guest-check: hc_dirmark mark /dev/vdb /mnt/b\n", seq++
		put(b)
	}' "$clean" >"$tmp/log"
scan "$tmp/log"
[ $rc = 1 ] && grep -q '^not ok - debug: splat 1 of 2 .*during hc_race mark.*WARNING: CPU' "$tmp/out" &&
   grep -q '^not ok - debug: splat 2 of 2 .*during hc_dirmark mark.*BUG: sleeping function' "$tmp/out" &&
	ok "two splats: two failures, each put down to its own test" ||
	{ not_ok "two splats: exit $rc"; sed 's/^/# /' "$tmp/out"; }

# a log that lacks a required line fails: a kernel without KASAN, a
# reader that died before the end of the run
grep -v 'KernelAddressSanitizer initialized' "$clean" >"$tmp/log"
scan "$tmp/log" --require 'KernelAddressSanitizer initialized'
[ $rc = 1 ] && grep -q '^not ok - debug: the kernel log lacks "KernelAddressSanitizer initialized"' "$tmp/out" &&
	ok "a log without KASAN's boot line fails --require" ||
	{ not_ok "--require on a log without it: exit $rc"; sed 's/^/# /' "$tmp/out"; }
grep -v 'guest-kmsg: end of' "$clean" >"$tmp/log"
scan "$tmp/log" --require 'guest-kmsg: end of'
[ $rc = 1 ] && ok "a log cut short (no end record) fails --require" ||
	{ not_ok "--require on a cut log: exit $rc"; sed 's/^/# /' "$tmp/out"; }

# bad input: no file, an empty log, a log with no line of the prefix
scan "$tmp/nonexistent"
[ $rc = 2 ] && grep -q "no readable kernel log '$tmp/nonexistent'" "$tmp/out" &&
	ok "a missing log: exit 2, named" || { not_ok "missing log: exit $rc"; sed 's/^/# /' "$tmp/out"; }
: >"$tmp/empty"
scan "$tmp/empty"
[ $rc = 2 ] && grep -q 'is empty' "$tmp/out" &&
	ok "an empty log: exit 2" || { not_ok "empty log: exit $rc"; sed 's/^/# /' "$tmp/out"; }
sed 's/^kmsg: //' "$clean" >"$tmp/log"
scan "$tmp/log"
[ $rc = 2 ] && ok "a log without the 'kmsg: ' prefix under --prefix: exit 2 (nothing scanned)" ||
	{ not_ok "a log without the prefix: exit $rc"; sed 's/^/# /' "$tmp/out"; }
"$SCAN" --bogus "$clean" >"$tmp/out" 2>&1
rc=$?
[ $rc = 2 ] && grep -q "unknown option '--bogus'" "$tmp/out" &&
	ok "an unknown option: exit 2, named" || { not_ok "unknown option: exit $rc"; sed 's/^/# /' "$tmp/out"; }

tap_done
