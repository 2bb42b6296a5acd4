#!/bin/bash
# Write RESULTS.md from what a benchmark run left in OUT (default
# build/bench).  Every number on the page comes from a file of that run.
# Usage: bench/results.sh [OUT] [RESULTS.md]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/build/bench}
page=${2:-$top/RESULTS.md}
tmp=$page.tmp

rate() { awk -F, -v m="$2" '$1 == m { print $4 }' "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "n/a" }'; }

{
	echo "# Results"
	echo
	echo "Written by \`make bench\` on $(date -u '+%Y-%m-%d %H:%M UTC') from the files in"
	echo "\`${out#"$top"/}/\`; nothing here is typed by hand."
	echo
	echo "## Environment"
	echo
	echo "- host: $(uname -m), $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
	echo "- kernel source: linux-source-6.1 $(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null)"
	echo "- series: $(ls "$top"/kernel-patches/0*.patch 2>/dev/null | grep -vc cover-letter) patches in kernel-patches/"
	if [ -f "$out/create-unlink-env.txt" ]; then
		sed 's/^/- guest run: /' "$out/create-unlink-env.txt"
	fi
	if [ -f "$out/create-unlink-patched.csv" ] && [ -f "$out/create-unlink-stock.csv" ]; then
		p=$out/create-unlink-patched.csv s=$out/create-unlink-stock.csv
		echo
		echo "## create()+unlink() rate"
		echo
		echo "One guest run per kernel on a 64 GiB ext4 (defaults, flex_bg=16) on a"
		echo "plain virtio disk; files created and unlinked in one directory"
		echo "(\`vm/tests/create_bench.c\`). Rates are creates+unlinks per second."
		echo
		echo "| flag | patched (/s) | stock (/s) | patched / stock | vs no flag (patched) |"
		echo "|---|---|---|---|---|"
		for m in none hot cold; do
			echo "| $m | $(rate "$p" $m) | $(rate "$s" $m) | $(ratio "$(rate "$p" $m)" "$(rate "$s" $m)") | $(ratio "$(rate "$p" $m)" "$(rate "$p" none)") |"
		done
		echo
		echo "On the stock kernel open() ignores the unknown bits, so its three rows"
		echo "measure the same code path and show the run-to-run noise."
	fi
} >"$tmp"
mv "$tmp" "$page"
echo "  RESULTS $page"
