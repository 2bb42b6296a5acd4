#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make track-check: hc-track's tests.  On the host, the bad options that are
# refused before anything is watched; then one guest on the patched kernel
# with a 1 GiB plain virtio disk runs bench/tools/guest-track.sh (a skewed read
# pattern, hc-track moving the files read most into the hot region and the
# one that cooled out of it; placement from FIEMAP, inodes, contents, the
# budget, SIGTERM, bad options).  The guest's TAP lines are passed through
# and counted; a guest that stops before its closing count line fails.
# Usage: bench/tools/track-check.sh BZIMAGE_PATCHED   (TAP on stdout)
set -u
kernel=${1:?usage: bench/tools/track-check.sh BZIMAGE_PATCHED}
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
root=$build/track-check/root
. "$top/vm/lib/tap.sh"
tap_init track-check

for f in "$root/tests/track/hc-track" "$root/tests/track/hc-where" "$root/tests/track/guest-track.sh"; do
	[ -x "$f" ] || { not_ok "setup: $f missing (make track-tools)"; tap_done; exit 1; }
done
[ -r "$kernel" ] || { not_ok "setup: kernel '$kernel' missing (make kernel-patched)"; tap_done; exit 1; }

# ---- on the host: only options refused before fanotify_init (never a
# mount point: hc-track is not run against the host's filesystems)
trk=$root/tests/track/hc-track
host_bad() { # DESC WANT ARGS...
	local d=$1 w=$2 err st
	shift 2
	err=$("$trk" "$@" 2>&1 >/dev/null)
	st=$?
	[ $st = 2 ] && grep -qF -- "$w" <<<"$err"
	check "host: hc-track $d: exit 2, names it (exit $st)" [ $? = 0 ]
}
host_bad "--hot-bytes 0" "--hot-bytes '0'" --hot-bytes 0 /nonexistent
host_bad "--half-life -1" "--half-life '-1'" --top 1 --half-life -1 /nonexistent
host_bad "--hysteresis x" "--hysteresis 'x'" --top 1 --hysteresis x /nonexistent
host_bad "--duration 1h" "--duration '1h'" --top 1 --duration 1h /nonexistent
host_bad "a MOUNT that does not exist" "MOUNT '/nonexistent'" --top 1 /nonexistent
host_bad "two MOUNTs" "extra argument '/b'" --top 1 /a /b

# ---- bench/jobs/zipf.fio, the workload for the tracker, parses with the
# project's fio and engine (and a broken copy does not)
fio=${FIO_BIN:-$build/fio-src/tree/fio}
eng=${ENGINE_SO:-$build/fio-engine/hotcold.so}
if [ -x "$fio" ] && [ -r "$eng" ]; then
	zenv() { (. "$top/bench/guest/job-env.sh"; HOTCOLD_ENGINE=$eng HOTCOLD_LOGDIR=$tmp HOTCOLD_MNT=$tmp "$@"); }
	zenv "$fio" --parse-only "$top/bench/jobs/zipf.fio" >"$tmp/zipf.out" 2>&1
	check "bench/jobs/zipf.fio parses (fio --parse-only, the hotcold engine)" [ $? = 0 ]
	sed 's/^file_service_type=zipf:/file_service_type=zipfx:/' "$top/bench/jobs/zipf.fio" >"$tmp/zipf-bad.fio"
	zenv "$fio" --parse-only "$tmp/zipf-bad.fio" >"$tmp/zipf-bad.out" 2>&1
	st=$?
	[ $st != 0 ] && grep -q 'file_service_type' "$tmp/zipf-bad.out"
	check "a broken copy of bench/jobs/zipf.fio does not parse (exit $st)" [ $? = 0 ]
	grep -q '^mode=sync$' "$top/bench/jobs/zipf.fio" && ! grep -Eq '^(ioengine=libaio|mode=libaio|ioengine=mmap)' "$top/bench/jobs/zipf.fio"
	check "bench/jobs/zipf.fio reads with pread (mode=sync), a path fanotify reports" [ $? = 0 ]
else
	not_ok "setup: fio ($fio) or the engine ($eng) missing (make engine-fio engine)"
fi

# ---- the guest
VM_QUIET=1 "$top/vm/runner/run" --kernel "$kernel" --timeout 900 --disk 1G \
	--initrd-extra "$root" -- 'sh /tests/track/guest-track.sh /dev/vda' >"$tmp/guest.out" 2>&1
st=$?
grep -E '^(not )?ok |^#' "$tmp/guest.out"
grep -q '^# guest-track: [0-9]* passed' "$tmp/guest.out"
check "guest: guest-track.sh ran to its end (vm/runner/run exit $st)" [ $? = 0 ]
[ $st = 0 ] || tail -n 20 "$tmp/guest.out" | sed 's/^/#   /'
tap_done
