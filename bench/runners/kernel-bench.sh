#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The create()+unlink() micro-benchmark: O_HOT, O_COLD and no flag, on the
# patched and on the stock kernel, CU_BOOTS boot pairs (default 5): pair B
# boots the stock kernel first when B is odd, the patched one first when B
# is even, one guest each (vm/lib/guest-run.sh).  In each guest a warm-up
# round is run and discarded, then BENCH_ROUNDS rounds of BENCH_FILES files
# per mode (bench/guest/guest-bench.sh, bench/tools/create_bench.c).  Writes
#   OUT/create-unlink-runs.csv   boot,kernel,mode,files,rounds,seconds,rate
#                                (files: the measured rounds' files per mode)
#   OUT/create-unlink-env.txt    "KERNEL boot=B accel=A seconds=N" a line
# Each guest's own files (guest.out, vmrun.err, console.log, vm.env,
# create-unlink.csv) stay in OUT/kernel-bench/B-KERNEL/.
# Usage: bench/runners/kernel-bench.sh OUT PATCHED_BZIMAGE STOCK_BZIMAGE TESTROOT
#   CU_BOOTS (default 5), CU_FILES (default 2000), CU_ROUNDS (default 5)
set -u
out=${1:?} patched=${2:?} stock=${3:?} root=${4:?}
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/vm/lib/guest-run.sh"
boots=${CU_BOOTS:-5} files=${CU_FILES:-2000} rounds=${CU_ROUNDS:-5}
for v in "CU_BOOTS=$boots" "CU_FILES=$files" "CU_ROUNDS=$rounds"; do
	case ${v#*=} in ''|*[!0-9]*|0) echo "kernel-bench: $v: give a whole number >= 1" >&2; exit 2 ;; esac
done
mkdir -p "$out" || exit 1
rm -f "$out/create-unlink-env.txt" "$out/create-unlink-runs.csv"
rm -rf "$out/kernel-bench"
runs=$out/create-unlink-runs.csv
echo "boot,kernel,mode,files,rounds,seconds,rate" >"$runs.tmp"
for b in $(seq 1 "$boots"); do
	order="stock patched"
	[ $((b % 2)) = 1 ] || order="patched stock"
	for k in $order; do
		eval "img=\$$k"
		d=$out/kernel-bench/$b-$k
		echo "  BENCH   create+unlink, boot pair $b/$boots, the $k kernel ($(date +%T))" >&2
		guest_run "kernel-bench: create+unlink on the $k kernel (boot pair $b)" "$d" $k --kernel "$img" --disk 64G \
			--initrd-extra "$root" -- "KERNEL_FLAVOUR=$k BENCH_FILES=$files BENCH_ROUNDS=$rounds /tests/guest-bench.sh" || exit 1
		csv=$d/create-unlink.csv
		[ "$(head -n 1 "$csv" 2>/dev/null)" = mode,files,seconds,rate ] && [ "$(wc -l <"$csv")" -ge 4 ] ||
			{ echo "kernel-bench: no results from the $k kernel ($csv missing or short; see $d/guest.out)" >&2; exit 1; }
		awk -F, -v b="$b" -v k="$k" -v r="$rounds" 'NR > 1 { print b "," k "," $1 "," $2 "," r "," $3 "," $4 }' "$csv" >>"$runs.tmp" || exit 1
		echo "$k boot=$b accel=$(sed -n 's/^accel=//p' "$d/vm.env") seconds=$(sed -n 's/^seconds=//p' "$d/vm.env")" >>"$out/create-unlink-env.txt"
	done
done
mv "$runs.tmp" "$runs"
