#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# splat-scan.sh [--require TEXT]... [--prefix P] KLOG - scan a guest's kernel
# log for splats (on the host; make guest-check-debug, and its unit test
# vm/kernel-tests/test-splat-scan.sh).
#
# KLOG holds kernel log lines as /dev/kmsg gives them ("6,1234,5678,-;text",
# what vm/kernel-tests/guest-kmsg.sh captures), as dmesg prints them
# ("[   12.345678] text") or bare.  A splat starts at a line with one of:
#   lockdep:   "possible circular locking", "possible recursive locking",
#              "inconsistent lock state", "suspicious RCU usage",
#              "DEBUG_LOCKS_WARN_ON", any "WARNING:" (lockdep's headlines are
#              WARNING: lines too), "BUG:" (KASAN: "BUG: KASAN: ...";
#              "BUG: sleeping function called from invalid context",
#              "BUG: scheduling while atomic", "BUG: MAX_LOCKDEP_...")
#   KASAN:     "KASAN:", "AddressSanitizer"... ("KernelAddressSanitizer
#              initialized" at boot is not a report)
#   and:       "sleeping function called from invalid context",
#              "kernel BUG at", "Oops:", "general protection fault",
#              "list_add corruption", "list_del corruption", "UBSAN:",
#              "rcu: INFO:", "blocked for more than", "Call Trace:"
# No test of the suite triggers a trace on purpose, so none is excused.
# Lines of a splat that follow within 80 lines of its last matching line
# belong to it.  Each splat is printed as "# " lines: its first 25 lines,
# and the test that was running (the last "guest-check: " record before it,
# written to /dev/kmsg by guest-check.sh).
#
# --require TEXT: the log must also contain TEXT (e.g. proof that the
# kernel is the debug one: "KernelAddressSanitizer initialized").
# --prefix P: only lines starting with P count, P removed ("kmsg: ").
# Prints TAP lines; exit 0 if the log is clean and has every TEXT, 1 if not,
# 2 on bad input (no such file, an empty log).
set -u
usage() { echo "usage: splat-scan.sh [--require TEXT]... [--prefix P] KLOG" >&2; exit 2; }
req=$(mktemp) || exit 2
trap 'rm -f "$req"' EXIT
prefix=""
while [ $# -gt 0 ]; do
	case $1 in
	--require) [ $# -ge 2 ] || usage; printf '%s\n' "$2" >>"$req"; shift 2 ;;
	--prefix) [ $# -ge 2 ] || usage; prefix=$2; shift 2 ;;
	--) shift; break ;;
	-*) echo "splat-scan.sh: unknown option '$1'" >&2; usage ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || usage
klog=$1
[ -f "$klog" ] && [ -r "$klog" ] || { echo "splat-scan.sh: no readable kernel log '$klog'" >&2; exit 2; }

awk -v prefix="$prefix" -v reqfile="$req" -v name="$klog" '
BEGIN {
	nreq = 0
	while ((getline r < reqfile) > 0) { nreq++; want[nreq] = r; have[nreq] = 0 }
	close(reqfile)
	nsplat = 0; lines = 0; last = -1000; during = "boot"
}
{
	line = $0
	if (prefix != "") {
		if (substr(line, 1, length(prefix)) != prefix) next
		line = substr(line, length(prefix) + 1)
	}
	# /dev/kmsg: "PRI,SEQ,USEC,FLAGS;text"; its continuation lines
	# (" KEY=value") are metadata, not text
	if (line ~ /^[0-9]+,[0-9]+,[0-9]+,[^;]*;/) sub(/^[0-9]+,[0-9]+,[0-9]+,[^;]*;/, "", line)
	else if (line ~ /^ [A-Z_]+=/) next
	# dmesg: "[   12.345678] text"
	sub(/^\[ *[0-9]+\.[0-9]+\] /, "", line)
	# the three lines guest-kmsg.sh adds around the log
	if (line ~ /^--- (begin|end|incomplete)/) next
	lines++
	for (i = 1; i <= nreq; i++) if (index(line, want[i])) have[i] = 1
	if (line ~ /^guest-check: /) { during = substr(line, 14); next }
	hit = 0
	if (line ~ /WARNING:|BUG:|kernel BUG at|Oops:|general protection fault|UBSAN:/) hit = 1
	else if (line ~ /possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|DEBUG_LOCKS_WARN_ON/) hit = 1
	else if (line ~ /sleeping function called from invalid context|list_add corruption|list_del corruption/) hit = 1
	else if (line ~ /KASAN:|AddressSanitizer/ && line !~ /KernelAddressSanitizer initialized/) hit = 1
	else if (line ~ /rcu: INFO:|blocked for more than|Call Trace:/) hit = 1
	if (hit) {
		if (lines - last > 80) {
			nsplat++
			head[nsplat] = line; when[nsplat] = during; start[nsplat] = lines
			text[nsplat] = ""; ntext[nsplat] = 0
		}
		last = lines
	}
	if (nsplat > 0 && lines - start[nsplat] < 25 && lines - last <= 80) {
		text[nsplat] = text[nsplat] "#   " line "\n"; ntext[nsplat]++
	}
}
END {
	bad = 0
	if (lines == 0) {
		print "not ok - debug: the kernel log " name " is empty"
		exit 2
	}
	for (i = 1; i <= nreq; i++) {
		if (have[i]) print "ok - debug: the kernel log has \"" want[i] "\""
		else { print "not ok - debug: the kernel log lacks \"" want[i] "\""; bad = 1 }
	}
	if (nsplat == 0) {
		print "ok - debug: no splat (lockdep, KASAN, WARNING, BUG, Call Trace) in " lines " lines of kernel log"
	} else {
		for (i = 1; i <= nsplat; i++) {
			print "not ok - debug: splat " i " of " nsplat " in the kernel log, during " when[i] ": " head[i]
			printf "%s", text[i]
		}
		bad = 1
	}
	exit bad
}' "$klog"
