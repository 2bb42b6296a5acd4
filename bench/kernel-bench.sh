#!/bin/bash
# The create()+unlink() micro-benchmark: O_HOT, O_COLD and no flag, on the
# patched and on the stock kernel, each in one guest run.  Writes
# OUT/create-unlink-{patched,stock}.csv (mode,files,seconds,rate) and
# OUT/create-unlink-env.txt.
# Usage: bench/kernel-bench.sh OUT PATCHED_BZIMAGE STOCK_BZIMAGE TESTROOT
set -eu
out=${1:?} patched=${2:?} stock=${3:?} root=${4:?}
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
for k in patched stock; do
	eval "img=\$$k"
	start=$(date +%s)
	echo "  BENCH   create+unlink on the $k kernel ($(date +%T))" >&2
	"$top/vm/runner/run" --kernel "$img" --disk 64G --initrd-extra "$root" \
		-- "KERNEL_FLAVOUR=$k /tests/guest-bench.sh" >"$out/create-unlink-$k.raw" \
		2>"$out/create-unlink-$k.err" ||
		{ echo "kernel-bench: the guest run on the $k kernel failed" >&2; exit 1; }
	grep -E '^(mode|hot|cold|none),' "$out/create-unlink-$k.raw" >"$out/create-unlink-$k.csv" || true
	[ "$(head -n 1 "$out/create-unlink-$k.csv")" = mode,files,seconds,rate ] && [ "$(wc -l <"$out/create-unlink-$k.csv")" -ge 4 ] ||
		{ echo "kernel-bench: no results from the $k kernel (see $out/create-unlink-$k.raw)" >&2; exit 1; }
	accel=$(sed -n 's/^vm\/runner\/run: accel=\([a-z]*\).*/\1/p' "$out/create-unlink-$k.err")
	echo "$k accel=$accel seconds=$(( $(date +%s) - start ))" >>"$out/create-unlink-env.txt"
done
