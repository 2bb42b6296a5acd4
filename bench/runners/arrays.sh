#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# O_HOT/O_COLD on ext4 over arrays of modelled disks: md RAID0 (chunk 512
# KiB) and dm-linear over 2 and 4 members, RUNS runs of each.  A run is one
# guest on the patched kernel with the members as modelled disks
# (vm/runner/run --hdd, one trace per member, time-scale=1), the array
# built by hc-array, a fresh ext4 on it and hc-arrayload's files: FILES
# files of FILE_SIZE per class (O_HOT, O_COLD, unhinted), each class read
# sequentially (2 MiB O_DIRECT reads) and then RAND random 4 KiB O_DIRECT
# reads over its files, one request at a time everywhere
# (vm/arrays/hc-arrayload.c).  The members' traces, cut into those phases
# by hc-arraytrace, give every number on the page:
#   - where each class's data is: bytes per third of each member;
#   - sequential MB/s on the disk's clock: the phase's bytes over the
#     busiest member's drive time (seek_us + rotation_us + transfer_us of
#     its rows; hc-arraytrace.c says why not end_us - start_us);
#   - random 4 KiB read service time: end_us - start_us of each read's row,
#     all members' reads pooled.
#
# Usage: bench/runners/arrays.sh OUT      (make arrays-bench: results/arrays)
# OUT gets arrays-env.txt (the settings); bench/measures/arrays-summarise.sh then
# reads the runs' traces (hc-arraytrace) into arrays-runs.csv and writes
# arrays-agree.csv, arrays-placement.csv, arrays-perf.csv (median, min, max over the runs),
# figures/arrays-seq.png, figures/arrays-rand.png and RESULTS.md.  The raw
# runs (traces, the guest's files and vm/lib/guest-run.sh's guest.out,
# vmrun.err, console.log, vm.env) stay in $BUILD/bench/arrays/$(basename OUT)/
# LAYOUT-N/runR/ (ARRAYS_RAW overrides the folder)
# (an "ok" file in each run the guest finished); bench/measures/arrays-summarise.sh
# OUT alone redoes everything after the guests from them.
# Variables: RUNS (3), ARRAY_MEMBERS ("2 4"), ARRAY_LAYOUTS ("raid0:512
#   linear"), DISK_SIZE (4G, each member), FILES (8), FILE_SIZE (32M), RAND
#   (400), PROFILE (desktop7200), BZIMAGE_PATCHED, VM_TIMEOUT (900),
#   ARRAYS_RAW
# Exit status: 0; 1 when a run failed (named); 2 on bad input.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
out=${1:?usage: bench/runners/arrays.sh OUT}
RUNS=${RUNS:-3}
ARRAY_MEMBERS=${ARRAY_MEMBERS:-2 4}
ARRAY_LAYOUTS=${ARRAY_LAYOUTS:-raid0:512 linear}
DISK_SIZE=${DISK_SIZE:-4G}
FILES=${FILES:-8}
FILE_SIZE=${FILE_SIZE:-32M}
RAND=${RAND:-400}
PROFILE=${PROFILE:-desktop7200}
BZIMAGE_PATCHED=${BZIMAGE_PATCHED:-$build/kbuild-patched/arch/x86/boot/bzImage}
VM_TIMEOUT=${VM_TIMEOUT:-900}
raw=${ARRAYS_RAW:-$build/bench/arrays/$(basename "$out")}
bin=$build/arrays/root/tests/arrays
trace_tool=$build/arrays/hc-arraytrace

. "$top/bench/measures/lib.sh" && lib_init ARRAYS bench/runners/arrays.sh
# the code the run measures, recorded when it starts (as bench/runners/run.sh does)
commit=$(code_commit)
. "$top/vm/lib/guest-run.sh"

case $RUNS in ''|*[!0-9]*|0) die "RUNS='$RUNS': give a number of runs, 1 or more" ;; esac
for m in $ARRAY_MEMBERS; do
	case $m in 2|3|4|5|6|7|8) ;; *) die "ARRAY_MEMBERS: '$m' is not a member count from 2 to 8" ;; esac
done
for l in $ARRAY_LAYOUTS; do
	case $l in raid0:[0-9]*|linear) ;; *) die "ARRAY_LAYOUTS: '$l' is not raid0:CHUNK_KIB or linear" ;; esac
done
case $DISK_SIZE in [0-9]*[MG]) ;; *) die "DISK_SIZE='$DISK_SIZE': give a size like 4G" ;; esac
case $FILE_SIZE in [0-9]*[KMG]) ;; *) die "FILE_SIZE='$FILE_SIZE': give a size like 32M" ;; esac
case $FILES$RAND in *[!0-9]*) die "FILES='$FILES', RAND='$RAND': give numbers" ;; esac
grep -q "^\[$PROFILE\]" "$top/vm/hdd-model/profiles.conf" ||
	die "PROFILE='$PROFILE' is not in vm/hdd-model/profiles.conf"
[ -r "$BZIMAGE_PATCHED" ] || die "patched kernel '$BZIMAGE_PATCHED' missing: make kernel-patched"
for f in "$bin/hc-array" "$bin/hc-arrayload" "$bin/guest-arrays.sh" "$trace_tool"; do
	[ -x "$f" ] || die "$f missing: make arrays-tools"
done

letters=abcdefgh
failed=0
rm -rf "$raw"
mkdir -p "$raw" "$out/figures"
for n in $ARRAY_MEMBERS; do
	for layout in $ARRAY_LAYOUTS; do
		kind=${layout%%:*}
		for r in $(seq 1 "$RUNS"); do
			d=$raw/$kind-$n/run$r
			mkdir -p "$d"
			hdds=() members=()
			for i in $(seq 0 $((n - 1))); do
				hdds+=(--hdd "$DISK_SIZE,profile=$PROFILE,time-scale=1,trace=$d/trace$i.csv")
				members+=("/dev/vd${letters:$i:1}")
			done
			stage "$layout over $n x $DISK_SIZE, run $r/$RUNS"
			guest_run "bench/runners/arrays.sh: $layout x $n run $r" "$d" patched \
				--kernel "$BZIMAGE_PATCHED" --timeout "$VM_TIMEOUT" \
				"${hdds[@]}" --initrd-extra "$build/arrays/root" -- \
				"sh /tests/arrays/guest-arrays.sh $kind $layout '--files $FILES --size $FILE_SIZE --rand $RAND --seed $r' ${members[*]}" ||
				{ failed=1; continue; }
			touch "$d/ok"
		done
	done
done
stage "runs done; summaries, figures, page"

{ echo "run_date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "commit=$commit"
  echo "kernel=$(basename "$BZIMAGE_PATCHED") (the patched series)"
  echo "kernel_version=$(file -b "$BZIMAGE_PATCHED" | sed -n 's/.*version \([^ ]*\) .*/\1/p')"
  echo "accel=$(sed -n 's/^accel=//p' "$raw"/*/run1/vm.env 2>/dev/null | sort -u | tr '\n' ' ')"
  echo "runs=$RUNS"; echo "members=$ARRAY_MEMBERS"; echo "layouts=$ARRAY_LAYOUTS"
  echo "disk_size=$DISK_SIZE"; echo "profile=$PROFILE"; echo "files=$FILES"
  echo "file_size=$FILE_SIZE"; echo "rand=$RAND"; echo "elapsed_s=$(($(date +%s) - bench_t0))"
  echo "mkfs=$(sed -n 's/^mkfs=//p' "$raw"/*/run1/*-array.txt 2>/dev/null | sort -u | head -n 1)"
  # what the kernel made of the arrays, every run: queue/rotational, hints
  echo "rotational=$(sed -n 's/^rotational=//p' "$raw"/*/run*/*-array.txt 2>/dev/null | sort -u | tr '\n' ' ')"
  cat "$raw"/*/run*/*-counters.csv 2>/dev/null | awk -F, '$1 ~ /^hint_/ { d[$1] += $3 - $2 }
	END { printf "hints="; for (k in d) printf "%s:%d ", k, d[k]; print "" }'
  echo "hints_expected=hint_honoured:$(( $(ls -d "$raw"/*/run* | wc -l) * 2 * FILES ))"
} >"$out/arrays-env.txt"
"$top/bench/measures/arrays-summarise.sh" "$out" || failed=1
stage "done: $out/RESULTS.md"
exit $failed
