# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm/lib/guest-run.sh - sourced (bash) by every stage that boots a guest for
# its results: the one way to run that guest, keep what it made, and say
# why it failed.
#
#   guest_run LABEL DIR FLAVOUR [vm/runner/run options] -- COMMAND
#
# Boots vm/runner/run with the options given (--kernel, --disk, --hdd,
# --initrd-extra, --rootfs, --timeout ...) and --out DIR: the files COMMAND
# writes in the guest's /out land in DIR, with the run's own files:
#   DIR/guest.out    the command's output (stdout and stderr, the guest's
#                    result port)
#   DIR/vmrun.err    vm/runner/run's own messages
#   DIR/console.log  the guest's kernel console
#   DIR/vm.env       key=value: label, flavour (patched, stock, ...), accel
#                    (tcg or kvm), kernel (the image), kernel_release, status
#                    (vm/runner/run's), seconds, run (its run folder)
# so COMMAND must not write /out files of those names.  Those four are
# removed first; the caller empties DIR of anything else it would misread.
# Returns vm/runner/run's status.  On a non-zero one it prints, on stderr,
# "LABEL: " and what failed (the command's status, a timeout, a crash or
# results not brought back, the disk model), the flavour and accel, the
# files, and the last lines of vmrun.err, guest.out and console.log.
# GUEST_NICE=N runs vm/runner/run under nice -n N; VM_* variables (VM_MEM,
# VM_QUIET is ignored: vm.env needs the runner's accel line) reach the
# runner as usual.
guest_run_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

guest_run() {
	local label=$1 dir=$2 flavour=$3 kernel="" a prev="" st t0 accel rundir why n
	shift 3
	for a in "$@"; do
		[ "$a" = -- ] && break
		[ "$prev" = --kernel ] && kernel=$a
		prev=$a
	done
	mkdir -p -- "$dir" || { echo "$label: cannot create '$dir'" >&2; return 2; }
	rm -f -- "$dir/guest.out" "$dir/vmrun.err" "$dir/console.log" "$dir/vm.env"
	t0=$(date +%s)
	VM_QUIET=0 ${GUEST_NICE:+nice -n "$GUEST_NICE"} "$guest_run_top/vm/runner/run" --out "$dir" "$@" \
		>"$dir/guest.out" 2>"$dir/vmrun.err"
	st=$?
	accel=$(sed -n 's/^vm\/runner\/run: accel=\([a-z]*\) .*/\1/p' "$dir/vmrun.err" | head -n 1)
	rundir=$(sed -n 's/^vm\/runner\/run: accel=[a-z]* run=//p' "$dir/vmrun.err" | head -n 1)
	[ -n "$rundir" ] && [ -f "$rundir/console.log" ] && cp "$rundir/console.log" "$dir/console.log"
	{
		echo "label=$label"
		echo "flavour=$flavour"
		echo "accel=${accel:-unknown}"
		echo "kernel=$kernel"
		echo "kernel_release=$(file -b "$kernel" 2>/dev/null | sed -n 's/.*version \([^ ]*\) .*/\1/p')"
		echo "status=$st"
		echo "seconds=$(($(date +%s) - t0))"
		echo "run=$rundir"
	} >"$dir/vm.env"
	[ $st = 0 ] && return 0
	case $st in
	124) why="the guest did not finish in time and was killed" ;;
	125) why="the guest crashed, or its /out did not come back (vm/runner/run 125)" ;;
	126) why="the disk model died under the guest" ;;
	*) why="the command exited $st"
	   grep -q '^vm/runner/run: ' "$dir/vmrun.err" && [ -z "$accel" ] &&
		why="vm/runner/run refused to start ($st)" ;;
	esac
	echo "$label: $why; $flavour kernel, accel ${accel:-unknown}; files: $dir/guest.out, $dir/vmrun.err, $dir/console.log" >&2
	for n in vmrun.err guest.out console.log; do
		[ -s "$dir/$n" ] || continue
		echo "  --- last lines of $n" >&2
		tail -n 8 "$dir/$n" | sed 's/^/    /' >&2
	done
	return $st
}
