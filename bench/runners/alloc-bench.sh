#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The allocation-cost benchmark: create + write(64 KiB) + fsync + unlink of
# small files, hinted (O_HOT, O_COLD) and not, on the patched kernel with
# region_reserve=0 and =1 and on the stock kernel, on a fresh ext4 of each
# size in SIZES (default "64G 17592186040320": 64 GiB, 512 groups, and the
# largest sparse image the host's ext4 allows, 16 TiB less 4 KiB, 131,072
# groups).  RUNS rounds (default 5); each round boots every kernel once per
# size, stock and patched alternating which goes first.  Not a test.
#
# Usage: bench/runners/alloc-bench.sh OUT PATCHED_BZIMAGE STOCK_BZIMAGE TESTROOT
#   RUNS, SIZES, ALLOC_FILES (default 1500), ALLOC_ROUNDS (default 3, the
#   first a warm-up), VM_SMP (default 1 here: see below).
# Files per mode: 1500 x 2 measured rounds, about 7 s per mode on a quiet
# host.  With 300 (2 x 300 files, 1.3 s per mode) the stock kernel's own
# rate varied 1.2x across rounds at 64 GiB and 2.8x at 16 TiB on an idle
# host: windows that short measure the testbed's jitter.  One vCPU: with
# two, under MTTCG, a vCPU thread descheduled by any host thread stalls
# the other on its locks (lock-holder preemption); the same kernels on
# two vCPUs varied 3.6x across rounds (2026-12-05, host partly busy).
# Writes OUT/alloc-runs.csv:
#   run,size,groups,kernel,reserve,mode,files,bytes,seconds,rate,sys_us_per_file,groups_scanned
# and OUT/runs/ROUND-SIZE-KERNEL/: the guest's alloc.csv, and guest.out,
# vmrun.err, console.log, vm.env (vm/lib/guest-run.sh); then
# bench/measures/alloc-results.sh OUT writes OUT/RESULTS.md.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/bench/measures/lib.sh"
. "$top/vm/lib/guest-run.sh"
lib_init ALLOC alloc-bench.sh
out=${1:-} patched=${2:-} stock=${3:-} root=${4:-}
[ $# = 4 ] || die "usage: bench/runners/alloc-bench.sh OUT PATCHED_BZIMAGE STOCK_BZIMAGE TESTROOT"
RUNS=${RUNS:-5} SIZES=${SIZES:-64G 17592186040320}
files=${ALLOC_FILES:-1500} rounds=${ALLOC_ROUNDS:-3}
export VM_SMP=${VM_SMP:-1}
case $VM_SMP in ''|*[!0-9]*|0) die "VM_SMP='$VM_SMP': give a number of vCPUs >= 1" ;; esac
case $RUNS in ''|*[!0-9]*|0) die "RUNS='$RUNS': give a number >= 1" ;; esac
case $files$rounds in *[!0-9]*) die "ALLOC_FILES='$files' ALLOC_ROUNDS='$rounds': give numbers" ;; esac
[ "$rounds" -ge 2 ] || die "ALLOC_ROUNDS='$rounds': at least 2 (the first is a warm-up)"
for s in $SIZES; do case $s in ''|*[!0-9KMGT]*) die "SIZES: '$s' is not a size like 64G" ;; esac; done
for f in "$patched" "$stock"; do [ -f "$f" ] || die "no kernel image '$f'"; done
[ -x "$root/tests/alloc_bench" ] && [ -x "$root/tests/guest-alloc.sh" ] ||
	die "'$root' has no tests/alloc_bench and tests/guest-alloc.sh (make guest-tests)"
mkdir -p "$out/runs" || die "cannot create $out"
csv=$out/alloc-runs.csv
# the settings the page states (alloc-results.sh)
printf 'key,value\nvcpus,%s\nfiles,%s\nrounds,%s\n' "$VM_SMP" "$files" "$rounds" >"$out/settings.csv"
echo "run,size,groups,kernel,reserve,mode,files,bytes,seconds,rate,sys_us_per_file,groups_scanned" >"$csv"
total=$((RUNS * $(echo $SIZES | wc -w) * 2)) n=0
for r in $(seq 1 "$RUNS"); do
	order="stock patched"
	[ $((r % 2)) = 0 ] && order="patched stock"
	for s in $SIZES; do
		for k in $order; do
			n=$((n + 1))
			stage "round $r/$RUNS size $s kernel $k (boot $n of $total)"
			d=$out/runs/$r-$s-$k
			rm -rf "$d"
			eval "img=\$$k"
			res="0 1"
			[ $k = stock ] && res=0
			guest_run "alloc-bench: round $r size $s, the $k kernel" "$d" $k --timeout 5400 \
				--kernel "$img" --disk "$s" --initrd-extra "$root" -- \
				"KERNEL_FLAVOUR=$k BENCH_RESERVES='$res' BENCH_FILES=$files BENCH_ROUNDS=$rounds /tests/guest-alloc.sh" ||
				exit 1
			# the guest's alloc.csv, by column name; one row per mode asked
			awk -F, -v need="reserve mode files bytes seconds rate sys_us_per_file groups groups_scanned" \
				-v r="$r" -v s="$s" -v k="$k" "$CSV_AWK"'
				{ printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", r, s, $C["groups"], k, $C["reserve"], $C["mode"],
					$C["files"], $C["bytes"], $C["seconds"], $C["rate"], $C["sys_us_per_file"], $C["groups_scanned"]; n++ }
				END { if (csv_bad) exit 2; if (n != want) { printf "%d rows, not %d", n, want >"/dev/stderr"; exit 3 } }' want=$(($(echo $res | wc -w) * 3)) \
				"$d/alloc.csv" >"$d/rows.csv" 2>"$d/rows.err" ||
				{ echo "alloc-bench: round $r size $s, the $k kernel: $d/alloc.csv is not what guest-alloc.sh writes ($(cat "$d/rows.err"); see $d/guest.out)" >&2; exit 1; }
			cat "$d/rows.csv" >>"$csv"
			# the runner's environment and stderr name this host's paths: kept
			# only when the boot failed (above), not in a results folder
			rm -f "$d/vm.env" "$d/vmrun.err"
		done
	done
done
stage "done: $csv"
