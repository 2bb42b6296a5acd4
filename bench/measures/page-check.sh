#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The checks every results page must pass (bench/runners/run.sh runs them on the
# page it wrote; bench/tests/test-pages.sh on the fixture's page, and on broken
# copies that each must fail):
#   - the page names the commit it was written at ("commit <hash>", the
#     hash plain or in backticks, on the same line or the next);
#   - it holds no absolute path of the machine that wrote it (the
#     repository's folder, /tmp/, /work/, /home/, /root/, /var/, /opt/,
#     /srv/; the guest's /mnt, /sys, /dev, /tests are not the host's);
#   - every file it links exists, relative to the page;
#   - a page with the aged answer (its "## The answer" section) opens with
#     it: the conclusion paragraph and the H/N-against-fullness table come
#     before any other section, and plots/data/summary.json next to it
#     parses and has the keys commit, run_id, command, disk, seeds, hn, cn.
# Usage: bench/measures/page-check.sh [--answer] PAGE...   (--answer: the answer is
# required, not only checked when present).  TAP lines; exit 0 when all pass.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
need_answer=0
[ "${1:-}" != --answer ] || { need_answer=1; shift; }
[ $# -ge 1 ] || { echo "usage: bench/measures/page-check.sh [--answer] PAGE..." >&2; exit 2; }
command -v jq >/dev/null || { echo "bench/measures/page-check.sh: jq missing (vm/lib/install-deps.sh plot)" >&2; exit 2; }
n=0 bad=0
res() { # ok? description
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; bad=1; fi
}
for p in "$@"; do
	[ -r "$p" ] || { res 1 "$p: no such page"; continue; }
	d=$(dirname "$p") name=${p#"$top"/}
	tr '\n' ' ' <"$p" | grep -qE 'commit +`?[0-9a-f]{7,40}'; res $? "$name names its commit"
	abs=$(grep -nE "(^|[^A-Za-z0-9_.~-])/(tmp|work|home|root|var|opt|srv)/|$top" "$p" | head -n 3)
	[ -z "$abs" ]; res $? "$name holds no absolute path of the host${abs:+: $(echo "$abs" | tr '\n' ' ' | cut -c1-200)}"
	dead=$(grep -oE '\]\([^)]+\)' "$p" | sed 's/^](//; s/)$//' | grep -vE '^(https?:|mailto:|#)' | sort -u |
		while read -r l; do [ -e "$d/${l%%#*}" ] || echo "$l"; done)
	[ -z "$dead" ]; res $? "$name: every linked file exists${dead:+ (dead: $(echo "$dead" | tr '\n' ' ' | cut -c1-200))}"
	if grep -q '^## The answer' "$p" || [ $need_answer = 1 ]; then
		first=$(grep -m1 '^## ' "$p")
		case $first in "## The answer"*) r=0 ;; *) r=1 ;; esac
		res $r "$name opens with the answer (first section: ${first:-none})"
		sec=$(sed -n '/^## The answer/,/^## /p' "$p")
		echo "$sec" | grep -q '^\*\*Conclusion\*\*' && echo "$sec" | grep -q 'H/N' && echo "$sec" | grep -q 'When it hurts'
		res $? "$name: the conclusion paragraph (what O_HOT buys, what it costs, when it hurts)"
		echo "$sec" | grep -q '^| fullness | reserve | kernel | H/N' &&
			[ "$(echo "$sec" | grep -cE '^\| [0-9]+% \| (off|on) \|')" -ge 1 ]
		res $? "$name: the H/N-against-fullness table, with rows"
		j=$d/plots/data/summary.json
		jq -e 'has("commit") and has("run_id") and has("command") and has("disk") and has("seeds") and has("hn") and has("cn")
			and (.seeds | type == "array") and (.hn | type == "array" and length > 0)' "$j" >/dev/null 2>&1
		res $? "$name: plots/data/summary.json parses and has commit, run_id, command, disk, seeds, hn, cn"
	fi
done
exit $bad
