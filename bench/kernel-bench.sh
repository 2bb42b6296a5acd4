#!/bin/bash
# The create()+unlink() micro-benchmark: O_HOT, O_COLD and no flag, on the
# patched and on the stock kernel, each in one guest run
# (vm/lib/guest-run.sh).  Writes OUT/create-unlink-{patched,stock}.csv
# (mode,files,seconds,rate) and OUT/create-unlink-env.txt ("KERNEL
# accel=tcg seconds=N" a line); each guest's own files (guest.out,
# vmrun.err, console.log, vm.env, create-unlink.csv) stay in
# OUT/kernel-bench/KERNEL/.
# Usage: bench/kernel-bench.sh OUT PATCHED_BZIMAGE STOCK_BZIMAGE TESTROOT
set -u
out=${1:?} patched=${2:?} stock=${3:?} root=${4:?}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/vm/lib/guest-run.sh"
mkdir -p "$out" || exit 1
rm -f "$out/create-unlink-env.txt"
for k in patched stock; do
	eval "img=\$$k"
	d=$out/kernel-bench/$k
	rm -rf "$d"
	echo "  BENCH   create+unlink on the $k kernel ($(date +%T))" >&2
	guest_run "kernel-bench: create+unlink on the $k kernel" "$d" $k --kernel "$img" --disk 64G \
		--initrd-extra "$root" -- "KERNEL_FLAVOUR=$k /tests/guest-bench.sh" || exit 1
	csv=$d/create-unlink.csv
	[ "$(head -n 1 "$csv" 2>/dev/null)" = mode,files,seconds,rate ] && [ "$(wc -l <"$csv")" -ge 4 ] ||
		{ echo "kernel-bench: no results from the $k kernel ($csv missing or short; see $d/guest.out)" >&2; exit 1; }
	cp "$csv" "$out/create-unlink-$k.csv" || exit 1
	echo "$k accel=$(sed -n 's/^accel=//p' "$d/vm.env") seconds=$(sed -n 's/^seconds=//p' "$d/vm.env")" >>"$out/create-unlink-env.txt"
done
