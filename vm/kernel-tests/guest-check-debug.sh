#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# guest-check-debug.sh OUTDIR VMRUN [ARGS...] - make guest-check-debug's host side:
# run the guest (VMRUN ARGS..., a vm/runner/run command whose guest command
# is wrapped in /tests/guest-kmsg.sh), show its output as it comes but for
# the kernel log ("kmsg: " lines), keep everything in OUTDIR/guest.out and
# the kernel log in OUTDIR/kmsg.log, then scan the log for splats
# (vm/kernel-tests/splat-scan.sh) and require the proof that the kernel is
# the debug one and that the log reaches the end of the run.
# Exit status: 0 only if the guest's command succeeded and the log is clean.
set -u
[ $# -ge 2 ] || { echo "usage: guest-check-debug.sh OUTDIR VMRUN [ARGS...]" >&2; exit 2; }
out=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out" || exit 2
rm -f "$out/guest.out" "$out/kmsg.log" "$out/rc"
t0=$(date +%s)
{ "$@"; echo $? >"$out/rc"; } | tee "$out/guest.out" | grep --line-buffered -v '^kmsg: '
rc=$(cat "$out/rc" 2>/dev/null)
echo "# guest-check-debug: the guest ran $(($(date +%s) - t0)) s, exit ${rc:-none}"
[ "${rc:-1}" = 0 ] || echo "not ok - debug: the guest suite exited with status ${rc:-none}"
grep '^kmsg: ' "$out/guest.out" >"$out/kmsg.log"
echo "# guest-check-debug: kernel log $out/kmsg.log ($(wc -l <"$out/kmsg.log") lines)"
if [ ! -s "$out/kmsg.log" ]; then
	echo "not ok - debug: no kernel log came back from the guest (see $out/guest.out)"
	exit 1
fi
# how long each section of the suite took on this kernel (the kernel's
# timestamps of guest-check.sh's "===" markers), to choose a subset by
awk -F';' 'BEGIN { name = "boot, to the first section"; t0 = 0 }
/^kmsg: [0-9]+,[0-9]+,[0-9]+,[^;]*;(guest-check: ===|guest-kmsg: end of)/ {
	split($1, f, ","); t = f[3] / 1e6
	if (name != "") printf "# guest-check-debug: %5.0f s %s\n", t - t0, name
	name = $2; sub(/^guest-check: /, "", name); t0 = t
}' "$out/kmsg.log"
# lockdep and KASAN announce themselves at boot; the last record is the
# one guest-kmsg.sh writes after the suite (a reader that died early
# lacks it)
"$here/splat-scan.sh" --prefix 'kmsg: ' \
	--require 'KernelAddressSanitizer initialized' \
	--require 'Lock dependency validator' \
	--require 'guest-kmsg: end of' "$out/kmsg.log"
scan=$?
[ "${rc:-1}" = 0 ] && [ $scan = 0 ]
