#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The modelled spinning disk as a guest sees it, through vm/runner/run --hdd:
# rotational, and O_DIRECT sequential reads at the start vs the end of the
# disk differ by the profile's zone ratio.  Also: a dead nbdkit and a bad
# profile stop the run with a message.  TAP-style output.
# Usage: vm/hdd-model/test-hdd-guest.sh BZIMAGE [PROFILE]
kernel=${1:?usage: test-hdd-guest.sh BZIMAGE [PROFILE]}
profile=${2:-desktop7200}
here=$(cd "$(dirname "$0")" && pwd)
run=$here/../runner/run
. "$here/../lib/tap.sh"
tap_name=hdd-guest-check
pval() { awk -v p="[$profile]" -v k="$1" '$0 == p { on = 1; next } /^\[/ { on = 0 }
	on && $1 == k { print $3; exit }' "$here/profiles.conf"; }

# 128 MiB read with O_DIRECT at the first and the last 128 MiB of a 64 GiB
# disk.  The ratio is asserted from the disk model's trace of the guest's
# requests (media transfer time, whatever the host's load); the guest's own
# clock (/proc/uptime, 10 ms steps) is printed and must not beat the model.
trace=$(mktemp "${TMPDIR:-/tmp}/hdd-guest-trace.XXXXXX")
trap 'rm -f "$trace"' EXIT
out=$("$run" --kernel "$kernel" --hdd "64G,profile=$profile,time-scale=1,trace=$trace" -- '
	cat /sys/block/vda/queue/rotational
	cat /sys/devices/system/clocksource/clocksource0/current_clocksource
	cs() { tr -d . </proc/uptime | cut -d" " -f1; }
	mark() { dd if=/dev/vda of=/dev/null bs=4096 count=1 iflag=direct skip=$1 2>/dev/null; }
	t() { s=$(cs); dd if=/dev/vda of=/dev/null bs=1M count=128 iflag=direct skip=$1 2>/dev/null; e=$(cs); echo $(( (e - s) * 10000 )); }
	mark 4194304; echo outer_us $(t 0)
	mark 8388608; echo inner_us $(t 65408)' 2>&1)
st=$?
check "guest on the modelled disk ran (exit $st)" [ $st = 0 ]
echo "$out" | sed 's/^/#   /'
[ "$(echo "$out" | sed -n 2p)" = 1 ]
check "the guest sees the modelled disk as rotational" [ $? = 0 ]
outer=$(echo "$out" | awk '$1 == "outer_us" { print $2 }')
inner=$(echo "$out" | awk '$1 == "inner_us" { print $2 }')
want=$(awk -v o="$(pval spt-outer)" -v i="$(pval spt-inner)" 'BEGIN { printf "%.3f", o / i }')
# Trace columns: arrival_us,start_us,end_us,lba,sectors,op,...  Before each
# dd the guest reads one 4 KiB marker block (16 GiB for the outer run, 32 GiB
# for the inner one); the edge reads that arrive after their marker are dd's,
# whatever their size or order (the kernel splits dd's 1 MiB requests, and
# its partition probes at boot read the same edges).
sort -t, -k1,1n "$trace" >"$trace.sorted"
awk -F, -v o="${outer:-0}" -v i="${inner:-0}" -v w="$want" -v last=$((64 * 2097152 - 262144)) '
	$1 != "arrival_us" && $6 == "read" {
		if ($4 == 33554432) { on["o"] = 1; next }
		if ($4 == 67108864) { on["i"] = 1; next }
		z = ($4 < 262144) ? "o" : ($4 >= last) ? "i" : ""
		if (z == "" || !on[z]) next
		t[z] += $10
		b[z] += $5 * 512
	}
	END {
		if (b["o"] != 134217728 || b["i"] != 134217728 || o <= 0 || i <= 0) {
			printf "#   trace: %d and %d bytes read at the edges\n", b["o"], b["i"]; exit 1 }
		# Media rate: bytes over the modelled transfer time.  Time between
		# requests depends on how fast the (emulated) guest issues them.
		mo = b["o"] / t["o"]; mi = b["i"] / t["i"]
		printf "#   disk model: outer %.1f MB/s, inner %.1f MB/s, ratio %.3f; zone ratio %.3f\n", mo, mi, mo / mi, w
		printf "#   guest clock: outer %.1f MB/s, inner %.1f MB/s, ratio %.3f\n", 134.217728e6 / o, 134.217728e6 / i, i / o
		r = mo / mi
		exit !(r > w * 0.95 && r < w * 1.05 && 134.217728e6 / o <= 1.05 * mo && 134.217728e6 / i <= 1.05 * mi)
	}' "$trace.sorted"
st=$?
rm -f "$trace.sorted"
check "O_DIRECT sequential read outer/inner within 5% of the zone ratio, not faster than the model" [ $st = 0 ]

# nbdkit killed under a running guest: the run stops at once (126).
tag=hddtest$$
"$run" --kernel "$kernel" --timeout 300 --append "$tag" --hdd "1G,profile=$profile" \
	-- 'while :; do dd if=/dev/vda of=/dev/null bs=1M count=8 iflag=direct 2>/dev/null; done' \
	>/dev/null 2>"$here/../../build/hdd-guest-kill.err" &
rp=$!
i=0
until [ $i -ge 60 ] || pgrep -f "^qemu-system-x86_64 .*$tag" >/dev/null; do sleep 1; i=$((i + 1)); done
sleep 3
pkill -KILL -f "^nbdkit .*hdd[0-9]*\.sock" -n
wait $rp
st=$?
[ $st = 126 ] && grep -q "nbdkit serving the disk model" "$here/../../build/hdd-guest-kill.err"
check "a dead nbdkit stops the run with a message (exit $st)" [ $? = 0 ]

err=$("$run" --kernel "$kernel" --hdd "1G,profile=nosuchdrive" -- true 2>&1)
st=$?
[ $st -ne 0 ] && echo "$err" | grep -q nosuchdrive
check "an unknown drive profile is refused and named (exit $st)" [ $? = 0 ]
tap_done
