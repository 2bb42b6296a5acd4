#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests on ext4 in QEMU guests: the patched and/or the stock kernel, with
# and without the O_HOT/O_COLD hints in play (the preload library), each mode
# one guest booted on the fstests root image (vm/runner/run --rootfs); per-test
# results out of fstests' own xunit report, then the side-by-side report.
#
# Usage: vm/fstests/run.sh OUTDIR
#   OUTDIR/MODE/ (MODE = patched-none, patched-hot, stock-none, ...) keeps
#   the guest's files (its /out, vm/runner/run --out, through
#   vm/lib/guest-run.sh: guest.out, vmrun.err, console.log, vm.env with
#   the accel and the kernel), result.xml (or, when the guest stopped
#   before check ended and so brought no files back, result-partial.xml and
#   a file "partial": the tests that finished, from the xunit entries the
#   guest streamed on its console as @@XUNIT@@ lines), check.log, env.txt,
#   hint-events.txt, hint-counters.txt, fail-*.txt, results.tsv
#   (test, status pass|fail|notrun, seconds, reason); OUTDIR/report.md is
#   vm/fstests/report.sh's page.
# Environment (the Makefile's `make fstests` sets these from its variables):
#   KERNEL           patched|stock|both (default both)
#   HINT             modes on the patched kernel, a list of none|hot|cold
#                    (default none); the stock kernel runs unhinted only
#   TESTS            tests to run ("generic/001 ext4/001 ..."), or
#   GROUP            an fstests group (default quick when TESTS is empty)
#   EXCLUDE          tests to leave out
#   PATCHED_BZIMAGE, STOCK_BZIMAGE   the kernels (default: BUILD's)
#   ROOTFS           the root image (default: vm/fstests/mkrootfs.sh BUILD/fstests)
#   PRELOAD_SO       hotcold-preload.so (needed for HINT hot or cold)
#   FSTESTS_DISK     plain (sparse virtio disks; rotational=1 in the guest)
#                    or hdd (vm/hdd-model's disk model, time-scale=$FSTESTS_HDD_SCALE)
#   FSTESTS_DISK_SIZE  TEST_DEV and SCRATCH_DEV size (default 8G)
#   FSTESTS_TIMEOUT  seconds for one guest (default 600 + 900 per test in
#                    TESTS, 48 h for a group)
#   VM_MEM           guest memory, MiB (default 2048 here)
#   FSTESTS_GUESTS   modes run at once, one guest each (default 1)
#   FSTESTS_MOUNT_OPTIONS  extra ext4 mount options for TEST_DEV and SCRATCH_DEV
#                    (e.g. region_reserve=1; the guest sets fstests' EXT_MOUNT_OPTIONS)
#   FSTESTS_DIRMARK  none (default), hot or cold: on the patched kernel, TEST_DIR's
#                    root directory is marked so (system.hotcold) before check runs
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}
die() { echo "fstests: $*" >&2; exit 2; }
. "$top/vm/lib/guest-run.sh"

out=${1:?usage: vm/fstests/run.sh OUTDIR (see its header)}
KERNEL=${KERNEL:-both} HINT=${HINT:-none}
TESTS=${TESTS:-} GROUP=${GROUP:-} EXCLUDE=${EXCLUDE:-}
[ -n "$TESTS" ] || GROUP=${GROUP:-quick}
[ -n "$TESTS" ] && GROUP=""
PATCHED_BZIMAGE=${PATCHED_BZIMAGE:-$build/kbuild-patched/arch/x86/boot/bzImage}
STOCK_BZIMAGE=${STOCK_BZIMAGE:-$build/kbuild-stock/arch/x86/boot/bzImage}
disk=${FSTESTS_DISK:-plain} size=${FSTESTS_DISK_SIZE:-8G}
mntopts=${FSTESTS_MOUNT_OPTIONS:-}
dirmark=${FSTESTS_DIRMARK:-none}
export VM_MEM=${VM_MEM:-2048}

case $KERNEL in patched) kernels=patched ;; stock) kernels=stock ;; both) kernels="patched stock" ;;
	*) die "KERNEL='$KERNEL': use patched, stock or both" ;; esac
for h in $HINT; do case $h in none|hot|cold) ;; *) die "HINT='$HINT': a list of none, hot, cold" ;; esac; done
[ -n "$HINT" ] || die "HINT is empty: give none, hot and/or cold"
case $dirmark in none|hot|cold) ;; *) die "FSTESTS_DIRMARK='$dirmark': use none, hot or cold" ;; esac
case $disk in plain|hdd) ;; *) die "FSTESTS_DISK='$disk': use plain or hdd" ;; esac
case $size in *[!0-9KMGT]*|'') die "FSTESTS_DISK_SIZE='$size': give a size like 8G" ;; esac
for t in $TESTS; do case $t in */[0-9]*) ;; *) die "TESTS: '$t' is not a test name like generic/001" ;; esac; done
for t in $EXCLUDE; do case $t in */[0-9]*) ;; *) die "EXCLUDE: '$t' is not a test name like generic/001" ;; esac; done
case "$TESTS$EXCLUDE" in *[!a-z0-9/\ _-]*) die "TESTS/EXCLUDE: only test names like generic/001" ;; esac
case $GROUP in *[!a-z0-9_,-]*) die "GROUP='$GROUP' is not a group name" ;; esac
case $mntopts in *[!a-z0-9_=,.-]*) die "FSTESTS_MOUNT_OPTIONS='$mntopts': only mount options like region_reserve=1,nodelalloc" ;; esac
ntests=$(echo $TESTS | wc -w)
jobs=${FSTESTS_GUESTS:-1}
case $jobs in ''|*[!0-9]*|0) die "FSTESTS_GUESTS='$jobs': give how many guests may run at once (1 or more)" ;; esac
if [ -n "$TESTS" ]; then timeout=${FSTESTS_TIMEOUT:-$((600 + 900 * ntests))}; else timeout=${FSTESTS_TIMEOUT:-172800}; fi
case $timeout in ''|*[!0-9]*) die "FSTESTS_TIMEOUT='$timeout' is not a number of seconds" ;; esac
for k in $kernels; do
	bz=$PATCHED_BZIMAGE; [ $k = stock ] && bz=$STOCK_BZIMAGE
	[ -r "$bz" ] || die "no $k kernel at '$bz' (make kernel-$k, or set ${k^^}_BZIMAGE)"
done
case " $HINT " in *" hot "*|*" cold "*)
	case " $kernels " in *" patched "*)
		[ -r "${PRELOAD_SO:-}" ] || die "HINT=$HINT needs PRELOAD_SO=hotcold-preload.so (make engine)" ;;
	esac ;;
esac
[ "$disk" = hdd ] && [ ! -f "$build/hdd/nbdkit-hdd-filter.so" ] && die "FSTESTS_DISK=hdd: no $build/hdd/nbdkit-hdd-filter.so (make hdd)"

if [ -z "${ROOTFS:-}" ]; then
	ROOTFS=$("$here/mkrootfs.sh" "$build/fstests") || die "building the root image failed"
fi
[ -r "$ROOTFS" ] || die "ROOTFS '$ROOTFS' not found"

mkdir -p "$out"
extra=$out/extra
rm -rf "$extra" && mkdir -p "$extra/fstests"
install -m 0755 "$here/guest.sh" "$extra/fstests/guest.sh"
[ -n "${PRELOAD_SO:-}" ] && [ -r "$PRELOAD_SO" ] && cp "$PRELOAD_SO" "$extra/fstests/hotcold-preload.so"
# each kernel's .config (beside its build's arch/x86/boot/bzImage), for
# fstests' _has_kernel_config (guest.sh points KCONFIG_PATH at it)
for k in $kernels; do
	bz=$PATCHED_BZIMAGE; [ $k = stock ] && bz=$STOCK_BZIMAGE
	kc=${bz%/arch/x86/boot/bzImage}/.config
	[ -r "$kc" ] && cp "$kc" "$extra/fstests/kconfig-$k"
done

disk_args=()
for _ in test scratch; do
	if [ "$disk" = hdd ]; then disk_args+=(--hdd "$size,time-scale=${FSTESTS_HDD_SCALE:-0.1}")
	else disk_args+=(--disk "$size"); fi
done

# results.tsv from fstests' xunit report
xunit_tsv() {
	awk '
	function attr(s, a,   m) { if (match(s, "[ \t]" a "=\"[^\"]*\"")) { m = substr(s, RSTART + length(a) + 3, RLENGTH - length(a) - 4); return m } return "" }
	function unxml(s) { gsub(/&quot;/, "\"", s); gsub(/&apos;/, "\047", s); gsub(/&lt;/, "<", s); gsub(/&gt;/, ">", s); gsub(/&amp;/, "\\&", s); gsub(/[\t\n]/, " ", s); return s }
	/^[ \t]*<testcase / { name = attr($0, "name"); tm = attr($0, "time"); st = "pass"; why = ""; next }
	name != "" && /^[ \t]*<skipped/ { st = "notrun"; why = unxml(attr($0, "message")); next }
	name != "" && /^[ \t]*<(failure|error)/ { st = "fail"; why = unxml(attr($0, "message")); next }
	name != "" && /^[ \t]*<\/testcase>/ { printf "%s\t%s\t%s\t%s\n", name, st, tm, why; name = "" }
	' "$1"
}

# run_mode KERNEL HINT: one guest, its files in OUTDIR/KERNEL-HINT/; its
# exit status in OUTDIR/KERNEL-HINT/status
run_mode() {
	local k=$1 h=$2 bz=$PATCHED_BZIMAGE m=$out/$1-$2 st t0 t1 dm=$dirmark
	[ "$k" = stock ] && bz=$STOCK_BZIMAGE dm=none
	rm -rf "$m" && mkdir -p "$m"
	echo "fstests: $k kernel, hint $h, ${mntopts:+mount options $mntopts, }$([ $dm != none ] && echo "TEST_DIR marked $dm, ")${TESTS:+$ntests tests}${GROUP:+group $GROUP} ($(date +%T); guest limit ${timeout}s)" >&2
	t0=$(date +%s)
	GUEST_NICE=19 guest_run "fstests: $k-$h" "$m" "$k" --kernel "$bz" --timeout "$timeout" "${disk_args[@]}" \
		--rootfs "$ROOTFS" --initrd-extra "$extra" -- \
		"FLAVOUR=$k HINT=$h DIRMARK=$dm TESTS='$TESTS' GROUP='$GROUP' EXCLUDE='$EXCLUDE' MOUNT_OPTIONS='$mntopts' bash /initrd/fstests/guest.sh"
	st=$?
	t1=$(date +%s)
	echo "$((t1 - t0))" >"$m/seconds"
	rm -f "$m/partial"
	if [ -s "$m/result.xml" ]; then
		xunit_tsv "$m/result.xml" >"$m/results.tsv"
	elif grep -q '@@XUNIT@@ ' "$m/guest.out"; then
		# check did not end: the tests that finished, from the xunit
		# entries the guest streamed (guest.sh); $m/partial says so
		sed -n 's/\r$//; s/.*@@XUNIT@@ //p' "$m/guest.out" >"$m/result-partial.xml"
		xunit_tsv "$m/result-partial.xml" >"$m/results.tsv"
		echo "$(wc -l <"$m/results.tsv") tests finished before the guest stopped" >"$m/partial"
	else
		: >"$m/results.tsv"
	fi
	echo "$st" >"$m/status"
	# a failed guest_run has said why, with the console's tail
	[ $st = 0 ] && [ ! -s "$m/results.tsv" ] &&
		echo "fstests: $k-$h: the guest ended well but no test result came back (see $m/guest.out)" >&2
	echo "fstests: $k-$h: $(cut -f2 "$m/results.tsv" | sort | uniq -c | awk '{ printf "%s%s %s", s, $1, $2; s = ", " }') in $((t1 - t0)) s" >&2
}

# The modes are independent guests: FSTESTS_GUESTS of them at once (each
# TCG guest keeps one host core busy).
rc=0
t_all=$(date +%s)
modes=""
for k in $kernels; do
	hints=$HINT; [ $k = stock ] && hints=none
	for h in $hints; do modes="$modes $k-$h"; done
done
for km in $modes; do
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
	run_mode "${km%%-*}" "${km#*-}" &
done
wait
for km in $modes; do
	[ "$(cat "$out/$km/status" 2>/dev/null)" = 0 ] && [ -s "$out/$km/results.tsv" ] || rc=1
done
echo "$(($(date +%s) - t_all))" >"$out/seconds"
"$here/report.sh" "$out" >"$out/report.md" || { echo "fstests: report.sh failed" >&2; rc=1; }
echo "fstests: report $out/report.md" >&2
exit $rc
