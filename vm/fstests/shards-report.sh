#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# results/fstests/RESULTS.md from whatever shard CSVs exist there
# (vm/fstests/shard.sh writes them: MODE/shard-K-of-N.csv, .txt beside it,
# failing tests' output in MODE/shard-K-of-N/): per mode the counts, the
# results that differ from stock, the patched failures stock does not show
# (with their output), the stock failures, why tests did not run (grouped:
# ext4's own, the guest kernel's config, missing tools, the test setup),
# the tests not yet run, the wall time spent, and a warning for patched
# results from an older series than the current kernel-patches/.
# A test found in several CSVs of a mode (runs with different N) counts once,
# with its latest row.
# Usage: vm/fstests/shards-report.sh [RESDIR]   (default results/fstests;
#        writes RESDIR/RESULTS.md; GROUP, default quick, the group compared against)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
res=${1:-$top/results/fstests}
group=${GROUP:-quick}
die() { echo "fstests-report: $*" >&2; exit 2; }
[ -d "$res" ] || die "no folder '$res' (run a shard first: make fstests GROUP=quick SHARD=1/N MODE=stock)"
res=$(cd "$res" && pwd)
rel=${res#"$top"/}
page=$res/RESULTS.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the modes, in this order, then any other folder with shard CSVs
modes=""
for m in stock patched patched-hot patched-colddir $(cd "$res" && ls -d */ 2>/dev/null | tr -d / | LC_ALL=C sort); do
	case " $modes " in *" $m "*) continue ;; esac
	ls "$res/$m"/shard-*-of-*.csv >/dev/null 2>&1 && modes="$modes $m"
done
modes=${modes# }
[ -n "$modes" ] || die "no MODE/shard-K-of-N.csv under '$res' (make fstests GROUP=$group SHARD=K/N MODE=stock)"

"$here/group-list.sh" "$group" >"$tmp/group" || exit 2
ngroup=$(wc -l <"$tmp/group")

# every CSV row as TSV: mode test result reason seconds kernel fstests finished file
for m in $modes; do
	for f in "$res/$m"/shard-*-of-*.csv; do
		awk -v file="${f#"$res"/}" '
		function csv(line, f,   n, i, c, q, cur) {
			n = 0; cur = ""; q = 0
			for (i = 1; i <= length(line); i++) {
				c = substr(line, i, 1)
				if (q) { if (c == "\"") { if (substr(line, i + 1, 1) == "\"") { cur = cur c; i++ } else q = 0 } else cur = cur c }
				else if (c == "\"") q = 1
				else if (c == ",") { f[++n] = cur; cur = "" }
				else cur = cur c
			}
			f[++n] = cur
			return n
		}
		FNR == 1 { if ($0 != "test,mode,result,reason,seconds,kernel,fstests,finished") { print "fstests-report: " file ": not a shard CSV (header: " $0 ")" > "/dev/stderr"; exit 2 } next }
		{ if (csv($0, f) != 8) { print "fstests-report: " file ":" FNR ": " csv($0, f) " fields, not 8" > "/dev/stderr"; exit 2 }
		  gsub(/\t/, " ", f[4]); printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", f[2], f[1], f[3], f[4], f[5], f[6], f[7], f[8], file }' "$f" ||
			die "cannot read $f"
	done
done >"$tmp/rows"
# one row per mode and test: the latest
awk -F'\t' '{ k = $1 "\t" $2; if (!(k in fin) || $8 > fin[k]) { fin[k] = $8; row[k] = $0 } } END { for (k in row) print row[k] }' "$tmp/rows" |
	LC_ALL=C sort -t"$(printf '\t')" -k1,1 -k2,2 >"$tmp/latest"

# The series the patched kernel is built from now: kernel-patches/ as on
# disk (what vm/fstests/shard.sh records), and the commits of earlier ones.
series_tree() {
	local idx
	idx=$(mktemp)
	rm -f "$idx"
	(cd "$top" && GIT_INDEX_FILE=$idx git add kernel-patches && GIT_INDEX_FILE=$idx git write-tree --prefix=kernel-patches/) | cut -c1-12
	rm -f "$idx"
}
cur=$(series_tree)
(cd "$top" && git log --format=%h -n 300 -- kernel-patches | while read -r c; do echo "$(git rev-parse "$c:kernel-patches" | cut -c1-12) $c"; done) |
	awk '!seen[$1]++' >"$tmp/trees"
tree_commit() { awk -v t="$1" '$1 == t { print $2; f = 1; exit } END { if (!f) print "a commit not on this branch" }' "$tmp/trees"; }
# What builds the patched kernel: the patches (not the cover letter) and
# vm.config.  A tree of kernel-patches/ that differs from the current one
# only in other files (the compile test, checkpatch's ignore list, the
# debug kernel's fragment) ran the same kernel: its results are current.
kernel_inputs() { # $1: a tree of kernel-patches/
	(cd "$top" && git ls-tree "$1" | awk '($4 ~ /^[0-9][0-9][0-9][0-9]-.*\.patch$/ && $4 != "0000-cover-letter.patch") || $4 == "vm.config"' | git mktree)
}
cur_kin=$(kernel_inputs "$cur")
{ echo "$cur"; while read -r t c; do if [ "$(kernel_inputs "$t")" = "$cur_kin" ]; then echo "$t"; fi; done <"$tmp/trees"; } >"$tmp/same"
commit=$(cd "$top" && git rev-parse --short=12 HEAD)
dirty=""
[ -n "$(cd "$top" && git status --porcelain -- . ':!results' 2>/dev/null)" ] && dirty=" (with uncommitted changes)"
nmodes=$(echo $modes | wc -w)

count() { # MODE RESULT
	awk -F'\t' -v m="$1" -v r="$2" '$1 == m && $3 == r { n++ } END { print n + 0 }' "$tmp/latest"
}
hms() { awk -v s="$1" 'BEGIN { printf "%d:%02d:%02d", s / 3600, (s % 3600) / 60, s % 60 }'; }
meta() { # FILE KEY
	sed -n "s/^$2 //p" "$1" 2>/dev/null | head -n 1
}
# a reason, as markdown table text
cell() { sed 's/|/\\|/g'; }

{
echo "# fstests $group group on ext4: stock vs patched, in shards"
echo
echo "Written by \`make fstests-report\` (vm/fstests/shards-report.sh) at commit $commit$dirty"
echo "from the shard results in \`$rel/\` ($(wc -l <"$tmp/rows") rows in $(ls "$res"/*/shard-*-of-*.csv | wc -l) CSVs); nothing here is typed by hand."
echo
fv=$(cut -f7 "$tmp/latest" | LC_ALL=C sort -u | paste -sd, | sed 's/,/, /g')
echo "fstests $fv, group \`$group\` on ext4: $ngroup tests ($(grep -c '^generic/' "$tmp/group") generic, $(grep -c '^ext4/' "$tmp/group") ext4)."
echo "Each shard is one QEMU guest (TCG) booted on the fstests root image"
echo "(vm/fstests/mkrootfs.sh, Debian 12), TEST_DEV and SCRATCH_DEV 8 GiB virtio disks with mke2fs's default"
echo "ext4; the guest kernel is tinyconfig plus \`kernel-patches/vm.config\`. A shard is"
echo "\`make fstests GROUP=$group SHARD=K/N MODE=...\`: the tests whose name hashes to K (a polynomial"
echo "hash of the name, mod N), so adding a test to the group moves no other. Modes: \`stock\` the unpatched"
echo "kernel; \`patched\` the series, unhinted; \`patched-hot\` the series with every create hinted"
echo "hot (the preload library) and both filesystems mounted with \`region_reserve=1\`; \`patched-colddir\`"
echo "the series, unhinted, with TEST_DIR's root directory marked cold (\`system.hotcold\`, the directory"
echo "mark) before check runs, so that what the tests create under TEST_DIR is hinted cold (the issue's"
echo "fourth mode: it runs once the preload mode passes, and is not needed for the group to be covered)."
echo

echo "## Counts"
echo
echo "| mode | results | pass | fail | notrun | not yet run | shards landed | guest wall time | tests' own time |"
echo "|---|---:|---:|---:|---:|---:|---|---:|---:|"
for m in $modes; do
	n=$(awk -F'\t' -v m="$m" '$1 == m' "$tmp/latest" | wc -l)
	notyet=$(awk -F'\t' -v m="$m" 'NR == FNR { if ($1 == m) r[$2] = 1; next } !($1 in r)' "$tmp/latest" "$tmp/group" | wc -l)
	wall=0 shards=""
	for t in "$res/$m"/shard-*-of-*.txt; do
		[ -f "$t" ] && [ -f "${t%.txt}.csv" ] || continue
		w=$(meta "$t" wall_seconds)
		wall=$((wall + ${w:-0}))
		b=$(basename "$t" .txt)
		b=${b#shard-}
		[ "$(meta "$t" complete)" = no ] && b="$b~(partial)"
		shards="$shards $b"
	done
	shards=$(echo $shards | tr ' ' '\n' | sed 's/-of-/\//' | LC_ALL=C sort -t/ -k2,2n -k1,1n | paste -sd' ' | sed 's/ /, /g; s/~/ /g')
	own=$(awk -F'\t' -v m="$m" '$1 == m { s += $5 } END { printf "%d", s }' "$tmp/latest")
	echo "| $m | $n | $(count "$m" pass) | $(count "$m" fail) | $(count "$m" notrun) | $notyet | $shards | $(hms "$wall") | $(hms "$own") |"
done
echo
echo "Guest wall time: each landed shard's guest from boot to power-off (vm/fstests/run.sh), summed;"
echo "the tests' own time is fstests' per-test seconds, summed (notrun tests take about none)."
echo "A partial shard's guest stopped before check ended (a timeout, a hung test): its tests that"
echo "finished count, the rest are not yet run. Per-shard facts (start, host load, kernel release,"
echo "commit, the test running when a guest stopped) are in \`$rel/MODE/shard-K-of-N.txt\`."
echo

echo "## Hints in play"
echo
echo "A hinted mode passing says little unless hints were given: each shard's guest traces every hinted"
echo "create (ext4_hotcold_alloc: device, hint asked for, outcome) and its \`.txt\` keeps the counts"
echo "(\`hint_events\`; vda is TEST_DEV, vdb SCRATCH_DEV, vdc the guest's root image, where check keeps its"
echo "results; MAJOR:MINOR a device gone when the trace was read, such as a dm target a test made)."
echo "Outcomes: honoured (the inode in its region), dropped_noperm (O_HOT from a user without the right"
echo "to it, such as fstests' unprivileged fsgqa), dropped_noregion (a filesystem of three groups or fewer,"
echo "as the small ones some tests make), fallback (the region had no group to take the inode); spill"
echo "counts data allocations of a hinted file made outside its region (one per allocation, not per file)."
echo "Summed over the shards that kept them:"
echo
nh=0
for m in $modes; do
	[ "$m" = stock ] && continue
	txts=$(ls "$res/$m"/shard-*-of-*.txt 2>/dev/null)
	[ -n "$txts" ] || continue
	nh=$((nh + 1))
	# shellcheck disable=SC2086
	shards=$(echo $txts | wc -w)
	# shellcheck disable=SC2086
	kept=$(awk '/^hint_events / { n++ } END { print n + 0 }' $txts)
	if [ "$kept" = 0 ]; then
		echo "- $m: none of its $shards shards kept the counts (they ran before shards kept them)"
		continue
	fi
	# shellcheck disable=SC2086
	sed -n 's/^hint_events //p' $txts | tr ';' '\n' | awk '
		NF == 4 { sub(/,/, ":", $1); if ($1 == "lost") lost += $4; else c[$1 " " $2 " " $3] += $4 }
		END { for (k in c) print k " " c[k]; print "~lost " lost + 0 }' | LC_ALL=C sort >"$tmp/hints"
	ev=$(awk '$1 != "~lost"' "$tmp/hints" | paste -sd, | sed 's/,/, /g')
	echo "- $m ($kept of $shards shards kept the counts): ${ev:-no hinted create}; trace events lost: $(sed -n 's/^~lost //p' "$tmp/hints")"
done
[ $nh = 0 ] && echo "- no patched mode has a shard yet"
echo

echo "## Series"
echo
echo "The current series (\`kernel-patches/\` as checked out): tree $cur ($(tree_commit "$cur"))."
echo "Results from a tree of \`kernel-patches/\` that differs from it only in files that do not"
echo "build the patched kernel (anything but the patches 0001- on and vm.config) count as current:"
echo "$(grep -vx "$cur" "$tmp/same" | sort -u | xargs)" | sed 's/^$/(none)/; s/^/trees with the same kernel: /'

old=0
for m in $modes; do
	[ "$m" = stock ] && continue
	awk -F'\t' -v m="$m" 'NR == FNR { same["patched@" $1] = 1; next } $1 == m && !($6 in same) { c[$6]++; s[$6, $9] = 1 } END {
		for (k in c) { sh = ""; for (x in s) { split(x, p, SUBSEP); if (p[1] == k) { f = p[2]; sub(/.*\//, "", f); sub(/\.csv$/, "", f); sh = sh " " f } } print k "\t" c[k] "\t" sh } }' "$tmp/same" "$tmp/latest" >"$tmp/old-$m"
	while IFS=$'\t' read -r k c sh; do
		old=1
		echo
		echo "- **$m: $c results come from an older series**: \`$k\` ($(tree_commit "${k#patched@}")), not the current one; rerun:$sh"
	done <"$tmp/old-$m"
done
[ $old = 1 ] || { echo; echo "Every patched result comes from the current series."; }
echo

echo "## Results that differ from stock"
echo
if ! awk -F'\t' '$1 == "stock"' "$tmp/latest" | grep -q .; then
	echo "No stock results yet: nothing to compare against."
elif [ "$nmodes" = 1 ]; then
	echo "Only stock has results so far."
else
	awk -F'\t' -v modes="$modes" '
		BEGIN { nm = split(modes, M, " ") }
		{ r[$1, $2] = $3; why[$1, $2] = $4; t[$2] = 1 }
		END {
			for (x in t) {
				if (!(("stock", x) in r)) continue
				d = 0
				for (i = 1; i <= nm; i++) if (M[i] != "stock" && (M[i], x) in r && r[M[i], x] != r["stock", x]) d = 1
				if (!d) continue
				line = "| " x " |"
				for (i = 1; i <= nm; i++) {
					v = ((M[i], x) in r) ? r[M[i], x] : "not yet run"
					if (why[M[i], x] != "" && v != "pass") v = v ": " why[M[i], x]
					gsub(/\|/, "\\|", v)
					line = line " " v " |"
				}
				print line
			}
		}' "$tmp/latest" | LC_ALL=C sort >"$tmp/differ"
	if [ -s "$tmp/differ" ]; then
		printf '| test |'; for m in $modes; do printf ' %s |' "$m"; done; echo
		printf '|---|'; for m in $modes; do printf -- '---|'; done; echo
		cat "$tmp/differ"
	else
		echo "None: every test run in stock and another mode has the same result in both."
	fi
fi
echo

echo "## Patched failures that stock does not show"
echo
reg=0
for m in $modes; do
	[ "$m" = stock ] && continue
	awk -F'\t' -v m="$m" '$1 == "stock" { s[$2] = $3; next } $1 == m && $3 == "fail" && s[$2] != "fail" { print $2 "\t" ($2 in s ? s[$2] : "not yet run") "\t" $4 "\t" $9 }' \
		<(awk -F'\t' '$1 == "stock"' "$tmp/latest"; awk -F'\t' '$1 != "stock"' "$tmp/latest") >"$tmp/reg-$m"
	while IFS=$'\t' read -r t s why file; do
		reg=1
		out=${file%.csv}/${t//\//-}.txt
		echo "### $t on $m (stock: $s)"
		echo
		echo "$why"
		echo
		echo "Output ([\`$out\`]($out)):"
		echo
		echo '```'
		cat "$res/$out" 2>/dev/null || echo "(no output kept)"
		echo '```'
		echo
	done <"$tmp/reg-$m"
done
[ $reg = 1 ] || { echo "None."; echo; }

echo "## Stock failures (listed, not fixed: the baseline, not the series)"
echo
awk -F'\t' '$1 == "stock" && $3 == "fail" { out = $9; sub(/\.csv$/, "", out); t = $2; gsub(/\//, "-", t); r = $4; gsub(/\|/, "\\|", r); printf "- %s: %s ([output](%s/%s.txt))\n", $2, r, out, t }' "$tmp/latest" >"$tmp/sfail"
if [ -s "$tmp/sfail" ]; then cat "$tmp/sfail"; else echo "None so far."; fi
echo

echo "## Why tests did not run"
echo
echo "fstests' notrun reasons, grouped by what they are about: ext4's own (the"
echo "filesystem lacks the feature: reflink, dedupe, other filesystems' ioctls), the guest"
echo "kernel's config, a tool missing from the guest's root image, or the test setup"
echo "(devices, sizes, users fstests was not given). The grouping is by the reason's words"
echo "(vm/fstests/shards-report.sh, notrun_kind)."
echo
# notrun_kind: first match wins; kept in one place, checked against the
# reasons the runs gave
awk -F'\t' -v modes="$modes" '
	function kind(r,   l) {
		l = tolower(r)
		# DAX needs a persistent-memory device, which the guest has not
		if (l ~ /dax/) return "4 the test setup (devices, sizes, users, options) or other"
		if (l ~ /reflink|dedupe|clone|not supported by this filesystem type|filesystem type.*not supported|does not support (shared|reflink)|xfs|btrfs|realtime|rtdev|fsmap|exchangerange|swapext|startupdate|atomic|extsize|casefold.*not supported by fs|idmapped.*ext4/) return "1 ext4 (or fstests on ext4): the filesystem has no such feature"
		if (l ~ /filesystem does not support|ext4 does not/) return "1 ext4 (or fstests on ext4): the filesystem has no such feature"
		if (l ~ /kernel|config_|module|fcntl|setdeleg|setlease|dm target|dm_target|device.mapper|not compiled|support is missing in the kernel|fail_make_request|debugfs|\/sys\/|\/proc\/|io_uring|hugepage|thp|cgroup|scsi_debug|zoned|namespace|old kernel/) return "2 the guest kernel (6.1) or its config"
		if (l ~ /not found|command|prog|utility|program|binary|package|python|perl module|installed|xfs_io .* support is missing|missing .* (tool|binary)/) return "3 a tool missing in the guest root image"
		return "4 the test setup (devices, sizes, users, options) or other"
	}
	BEGIN { nm = split(modes, M, " ") }
	$3 == "notrun" { r = ($4 == "" ? "(no reason given)" : $4); k = kind(r); c[k, r, $1]++; kinds[k] = 1; rs[k, r] = 1; if (index(ts[k, r] " ", " " $2 " ") == 0) ts[k, r] = ts[k, r] " " $2 }
	END {
		for (k in kinds) {
			for (x in rs) { split(x, p, SUBSEP); if (p[1] != k) continue
				line = ""
				for (i = 1; i <= nm; i++) if ((k, p[2], M[i]) in c) line = line (line != "" ? ", " : "") M[i] " " c[k, p[2], M[i]]
				print k "\t" p[2] "\t" line "\t" substr(ts[k, p[2]], 2)
			}
		}
	}' "$tmp/latest" | LC_ALL=C sort -t"$(printf '\t')" -k1,1 -k2,2 >"$tmp/notrun"
if [ -s "$tmp/notrun" ]; then
	last=""
	while IFS=$'\t' read -r k r c ts; do
		if [ "$k" != "$last" ]; then
			[ -n "$last" ] && echo
			n=$(awk -F'\t' -v k="$k" '$1 == k { n += split($4, a, " ") } END { print n }' "$tmp/notrun")
			echo "### ${k#? } ($n tests)"
			echo
			last=$k
		fi
		echo "- $(echo "$r" | sed 's/`/'"'"'/g') — $c: $ts"
	done <"$tmp/notrun"
else
	echo "No test said notrun."
fi
echo

echo "## Not yet run"
echo
# the shards still to run, for each N a mode has shards of
for m in stock patched patched-hot $(case " $modes " in *" patched-colddir "*) echo patched-colddir ;; esac); do
	ns=$(ls "$res/$m"/shard-*-of-*.csv 2>/dev/null | sed 's/.*-of-\([0-9]*\)\.csv$/\1/' | sort -un) || true
	[ -n "$ns" ] || ns=$(ls "$res"/*/shard-*-of-*.csv 2>/dev/null | sed 's/.*-of-\([0-9]*\)\.csv$/\1/' | sort -un) || true
	for n in $ns; do
		todo=""
		for k in $(seq 1 "$n"); do
			[ -f "$res/$m/shard-$k-of-$n.csv" ] && ! grep -qx 'complete no' "$res/$m/shard-$k-of-$n.txt" 2>/dev/null && continue
			todo="$todo $k"
		done
		todo=$(echo $todo | tr ' ' '\n' | awk 'NF { if ($1 == p + 1 && s != "") { p = $1; next } if (s != "") o = o (o != "" ? "," : "") (s == p ? s : s "-" p); s = p = $1 } END { if (s != "") o = o (o != "" ? "," : "") (s == p ? s : s "-" p); print o }')
		if [ -n "$todo" ]; then
			echo "- $m, N=$n: shards $todo to run (\`make fstests GROUP=$group SHARD=K/$n MODE=$m\`; a partial shard counts as to run)"
		else
			echo "- $m, N=$n: every shard landed"
		fi
	done
done
echo
for m in $modes; do
	awk -F'\t' -v m="$m" 'NR == FNR { if ($1 == m) r[$2] = 1; next } !($1 in r)' "$tmp/latest" "$tmp/group" >"$tmp/notyet"
	if [ -s "$tmp/notyet" ]; then
		echo "<details><summary>$m: $(wc -l <"$tmp/notyet") of $ngroup tests</summary>"
		echo
		paste -sd' ' "$tmp/notyet" | fold -s -w 100 | sed 's/ *$//'
		echo
		echo "</details>"
	else
		echo "$m: none, the whole group has results."
	fi
	echo
done
awk -F'\t' 'NR == FNR { g[$1] = 1; next } !($2 in g) { print $1 " " $2 }' "$tmp/group" "$tmp/latest" >"$tmp/extra"
if [ -s "$tmp/extra" ]; then
	echo "Results for tests no longer in the group (kept in their CSVs, not counted above): $(paste -sd, "$tmp/extra" | sed 's/,/, /g')"
	echo
fi
echo "Modes with no shard yet:$(for m in stock patched patched-hot; do case " $modes " in *" $m "*) ;; *) printf ' %s' "$m" ;; esac; done | sed 's/^$/ none/')."
} >"$tmp/page"

# No path of this machine on the page (the guest's own paths, as in
# fstests' messages, are not this machine's): this checkout as ".", and
# nothing else under the folder that holds it.
sed -i "s|$top|.|g" "$tmp/page"
if grep -qF "$(dirname "$top")/" "$tmp/page"; then
	grep -nF "$(dirname "$top")/" "$tmp/page" | head -n 5 >&2
	die "the page would name a path of this machine (above); not written"
fi
mv "$tmp/page" "$page"
echo "  RESULTS $rel/RESULTS.md ($modes)"
