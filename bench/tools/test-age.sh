#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of hc-age (bench/tools/hc-age.c), part of make bench-tools-check.
# Only --dry-run runs: no filesystem is aged, nothing is mounted.  The
# bad-input checks that take the real-run path fail before hc-age touches
# anything (ROOT missing or a regular file).  Each dry run is bounded by
# timeout.  Prints `ok N - ...` / `not ok N - ...`; exit 0 when all passed.
# Usage: BTOOLS=build/bench-tools bash bench/tools/test-age.sh  (KEEP=1 keeps $tmp)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
age=${BTOOLS:-$top/build/bench-tools}/hc-age
. "$top/vm/lib/tap.sh"
tap_init test-age
# dry NAME ARGS...: a dry run writing $tmp/NAME/manifest.csv and state.txt
dry() {
	local name=$1; shift
	mkdir -p "$tmp/$name"
	timeout 60 "$age" --quiet "$@" --manifest "$tmp/$name/manifest.csv" root \
		>"$tmp/$name/stdout" 2>"$tmp/$name/stderr"
}
key() { sed -n "s/^$2=//p" "$tmp/$1/state.txt"; }
ops() { grep -c "^$2," "$tmp/$1/manifest.csv"; }
# bad DESCRIPTION WORD ARGS...: exit 2 and WORD in the message
bad() {
	local d=$1 word=$2 rc; shift 2
	timeout 20 "$age" "$@" >"$tmp/bad.out" 2>"$tmp/bad.err"
	rc=$?
	if [ $rc = 2 ] && grep -qF -- "$word" "$tmp/bad.err"; then
		ok "$d: exit 2, names $word"
	else
		not_ok "$d: exit $rc (want 2), message: $(head -c 200 "$tmp/bad.err")"
	fi
}

[ -x "$age" ] || { not_ok "$age missing (make bench-tools)"; exit 1; }
sets=H:hot:8:32M,C:cold:8:32M,N:none:4:1M

t "--help prints the usage, exit 0" sh -c "'$age' --help | grep -q '^usage: hc-age'"

# Determinism: same seed -> same bytes; another seed -> another digest.
dry a --dry-run 8G --seed 7 --target 80 --churn 0.5 --sets $sets
dry b --dry-run 8G --seed 7 --target 80 --churn 0.5 --sets $sets
dry c --dry-run 8G --seed 8 --target 80 --churn 0.5 --sets $sets
t "same seed: identical manifests" cmp "$tmp/a/manifest.csv" "$tmp/b/manifest.csv"
t "same seed: same digest in state.txt" [ "$(key a digest)" = "$(key b digest)" -a -n "$(key a digest)" ]
t "other seed: other digest" [ "$(key a digest)" != "$(key c digest)" ]
t "state on stdout too" grep -q "^digest=$(key a digest)\$" "$tmp/a/stdout"
t "manifest header" [ "$(head -n 1 "$tmp/a/manifest.csv")" = "op,seq,path,size,set,hint,note" ]
t "every row has 7 fields, seq counts from 0" awk -F, '
	NR == 1 { next }
	NF != 7 { exit 1 }
	$1 == "digest" { last = 1; next }
	last || $2 != NR - 2 || $1 !~ /^(create|delete|setfile)$/ { exit 1 }
	END { exit !last }' "$tmp/a/manifest.csv"
t "digest row is last and matches state.txt" \
	[ "$(tail -n 1 "$tmp/a/manifest.csv")" = "digest,,,,,,$(key a digest)" ]
if command -v python3 >/dev/null; then
	t "digest is FNV-1a 64 of the op rows" python3 -c '
import sys
h = 0xcbf29ce484222325
rows = open(sys.argv[1], "rb").read().splitlines(True)
for r in rows[1:-1]:
	for c in r:
		h = ((h ^ c) * 0x100000001b3) & (2**64 - 1)
sys.exit(rows[-1].decode().strip() != "digest,,,,,,%016x" % h)' "$tmp/a/manifest.csv"
else
	skip "digest is FNV-1a 64 of the op rows" "no python3"
fi
dry u --dry-run 8G:100000 --seed 7 --target 80 --churn 0.5 --sets $sets
t "--dry-run SIZE:USED: start used counted, other sequence" \
	[ "$(key u start_used_blocks)" = 100000 -a "$(key u digest)" != "$(key a digest)" ]
for r in a u; do
	t "$r: replaying the manifest gives the model's fullness (start used + live blocks)" awk -F, \
		-v su="$(key $r start_used_blocks)" -v fb="$(( $(key $r fs_bytes) / 4096 ))" \
		-v m="$(key $r model_fullness_pct)" '
		$1 == "create" || $1 == "setfile" { b += int(($4 + 4095) / 4096) }
		$1 == "delete" { b -= int(($4 + 4095) / 4096) }
		END { p = 100 * (su + b) / fb; exit !(p - m < 0.006 && m - p < 0.006) }' \
		"$tmp/$r/manifest.csv"
done
t "without --quiet: progress lines on stderr" sh -c \
	"'$age' --dry-run 1G --churn 0.2 --manifest '$tmp/p.csv' root 2>&1 >/dev/null | grep -q '^hc-age: churn .*% done, model .*% full'"
t "--dry-run without --manifest: manifest on stdout" sh -c \
	"'$age' --quiet --dry-run 1G --churn 0.1 root | cmp -s - /dev/null && exit 1;
	 '$age' --quiet --dry-run 1G --churn 0.1 root | grep -q '^op,seq,path,size,set,hint,note\$'"

# The target is reached: 64G, churn 0.2.
for tg in 50 80 95; do
	s=$(date +%s)
	dry t$tg --dry-run 64G --target $tg --churn 0.2 --sets $sets
	rc=$? e=$(($(date +%s) - s))
	m=$(key t$tg model_fullness_pct)
	t "64G target $tg churn 0.2: model_fullness_pct $m within 0.5 (${e}s)" \
		awk -v m="$m" -v t=$tg -v rc=$rc 'BEGIN { exit !(rc == 0 && m != "" && m - t <= 0.5 && t - m <= 0.5) }'
	t "64G target $tg: done in under 20 s" [ $e -lt 20 ]
done

# Directories.
bad "--dirs 31" --dirs --dry-run 8G --dirs 31 root
dry d32 --dry-run 1G --dirs 32 --churn 0.1
t "--dirs 32 accepted" [ "$(key d32 dirs)" = 32 ]
t "files in all 64 top-level directories, in dNN and dNN/s0..s2" awk -F, '
	$1 == "create" { split($3, p, "/"); top[p[1]] = 1; if (p[3] != "") sub_[p[2]] = 1; else own++ }
	END { nt = 0; for (d in top) nt++; ns = 0; for (s in sub_) ns++; exit !(nt == 64 && ns == 3 && own > 0) }' \
	"$tmp/a/manifest.csv"

# Churn: deletes, set files.
t "churn 0.5: there are deletes" [ "$(ops a delete)" -gt 0 ]
dry z --dry-run 8G --target 80 --churn 0 --sets $sets
t "churn 0: no deletes" [ "$(ops z delete)" = 0 ]
t "churn 0: target reached" awk -v m="$(key z model_fullness_pct)" 'BEGIN { exit !(m >= 79.9 && m <= 80.1) }'
for r in a z; do
	t "$r: set files per set: H 8, C 8, N 4, named dNN[/sM]/NAME.K" awk -F, '
		$1 == "setfile" { c[$5]++; if ($3 !~ /^d[0-9][0-9]+\/(s[0-9]+\/)?[HCN]\.[0-9]+$/) bad = 1
			if ($6 != ($5 == "H" ? "hot" : $5 == "C" ? "cold" : "none")) bad = 1 }
		END { exit !(!bad && c["H"] == 8 && c["C"] == 8 && c["N"] == 4) }' "$tmp/$r/manifest.csv"
	t "$r: set files never deleted" awk -F, '
		$1 == "setfile" { s[$3] = 1 } $1 == "delete" && ($3 in s || $5 != "") { exit 1 }' \
		"$tmp/$r/manifest.csv"
	t "$r: set files round-robin H C N H C N ... H C H C" sh -c \
		"[ \"\$(awk -F, '\$1 == \"setfile\" { printf \"%s%s \", \$5, substr(\$3, index(\$3, \".\") + 1) }' '$tmp/$r/manifest.csv')\" = \
		'H0 C0 N0 H1 C1 N1 H2 C2 N2 H3 C3 N3 H4 C4 H5 C5 H6 C6 H7 C7 ' ]"
done
t "churn: set files spread over the churn (first in its first half, last in its second)" awk -F, '
	$1 == "delete" { if (fd == "") fd = $2; ld = $2 }
	$1 == "setfile" { if (fs == "") fs = $2; ls = $2 }
	END { mid = (fd + ld) / 2; exit !(fd != "" && fs >= fd && fs < mid && ls >= mid && ls <= ld) }' \
	"$tmp/a/manifest.csv"
t "no churn: set files spread over the fill" awk -F, '
	$1 == "setfile" { if (fs == "") fs = $2; ls = $2 } $1 != "digest" && NR > 1 { last = $2 }
	END { exit !(fs != "" && fs < last / 2 && ls >= last / 2) }' "$tmp/z/manifest.csv"

# File sizes: Impressions' lognormal body, median exp(9.48) ~ 13 KiB.
t "filler median between 8 and 20 KiB" sh -c "
	awk -F, '\$1 == \"create\" && \$7 == \"\" { print \$4 }' '$tmp/t80/manifest.csv' | sort -n >'$tmp/sizes'
	awk '{ v[NR] = \$1 } END { m = v[int((NR + 1) / 2)]; exit !(NR > 1000 && m >= 8192 && m <= 20480) }' '$tmp/sizes'"
dry cap --dry-run 8G --target 60 --churn 0.3 --max-file 1M
t "--max-file 1M respected, sizes >= 1" awk -F, '
	$1 == "create" { if ($4 > 1048576 || $4 < 1) exit 1; if ($4 == 1048576) hit = 1 }
	END { exit !hit }' "$tmp/cap/manifest.csv"
t "default cap 1G respected" awk -F, '$1 == "create" && $4 > 1073741824 { exit 1 }' \
	"$tmp/t95/manifest.csv"
t "state.txt has every key" sh -c "for k in seed target_pct fs_bytes block_size fullness_pct \
	model_fullness_pct files_live files_created files_deleted bytes_churned dirs set_files \
	digest size_model elapsed_s; do grep -q \"^\$k=\" '$tmp/a/state.txt' || exit 1; done;
	grep -qx size_model=impressions-fast09 '$tmp/a/state.txt'"
t "state counts add up: live = created - deleted" sh -c \
	"[ \$(( $(key a files_created) - $(key a files_deleted) )) = $(key a files_live) ]"

# Bad input: exit 2, the option named.
bad "--target 0" --target --dry-run 8G --target 0 root
bad "--target 100" --target --dry-run 8G --target 100 root
bad "--target abc" --target --dry-run 8G --target abc root
bad "--sets X:warm:1:1M" --sets --dry-run 8G --sets X:warm:1:1M root
bad "--sets X:hot:0:1M" --sets --dry-run 8G --sets X:hot:0:1M root
bad "--sets X:hot:1" --sets --dry-run 8G --sets X:hot:1 root
bad "--sets H:hot:1:1M,H:cold:1:1M" --sets --dry-run 8G --sets H:hot:1:1M,H:cold:1:1M root
bad "--sets too big for the disk" --sets --dry-run 1G --sets H:hot:100:10M root
bad "unknown option" --bogus --dry-run 8G --bogus root
bad "--seed -1" --seed --dry-run 8G --seed -1 root
bad "--churn x" --churn --dry-run 8G --churn x root
bad "--band 10 with --target 5" --band --dry-run 8G --target 5 --band 10 root
bad "--max-file 0" --max-file --dry-run 8G --max-file 0 root
bad "--dry-run 8Q" --dry-run --dry-run 8Q root
bad "--dry-run 1G:262144 (all used)" --dry-run --dry-run 1G:262144 root
bad "--seed without a value" --seed --dry-run 8G root --seed
bad "missing ROOT" ROOT --dry-run 8G
bad "ROOT does not exist (real run)" ROOT "$tmp/nonexistent"
: >"$tmp/plainfile"
bad "ROOT is a regular file (real run)" ROOT "$tmp/plainfile"
t "bad input made no manifest" [ ! -e "$tmp/nonexistent" ]

[ $failed = 0 ] || { echo "test-age: details in the log below" >&2; tail -n 30 "$tmp/log" >&2; }
tap_done
