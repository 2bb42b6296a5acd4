#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm/fstests/shards-report.sh on made-up shard results (no guest): a test
# that passes on stock and fails on patched is listed as differing and as a
# patched failure with its output; results from an older series are
# flagged; the hinted creates the shards kept are summed per mode; a
# partial shard counts as still to run; the fourth mode (patched-colddir)
# is listed as to run only once it has a shard; a broken CSV is refused,
# naming the file; shard.sh takes the four modes and refuses others;
# run.sh refuses a bad directory mark.  TAP on stdout (host tier of make check).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
n=0 bad=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); bad=$((bad + 1)); echo "not ok $n - $1"; }
# chk CONDITION DESCRIPTION (the condition is shell, run with the page as $p)
chk() { if eval "$1"; then ok "$2"; else not_ok "$2"; fi; }

# the series' tree as shard.sh records it (kernel-patches/ as on disk)
idx=$(mktemp -u)
cur=$(cd "$top" && GIT_INDEX_FILE=$idx git add kernel-patches && GIT_INDEX_FILE=$idx git write-tree --prefix=kernel-patches/ | cut -c1-12)
rm -f "$idx"
[ -n "$cur" ] || { echo "Bail out! cannot hash kernel-patches/"; exit 1; }

hdr=test,mode,result,reason,seconds,kernel,fstests,finished
fin=2026-12-01T00:00:00Z
# shard MODE K KERNEL [complete] [hint_events]: reads CSV rows "test,result,reason"
shard() {
	local m=$1 k=$2 kcol=$3 complete=${4:-yes} hints=${5:-}
	mkdir -p "$t/res/$m"
	{
		echo "$hdr"
		while IFS=, read -r test result reason; do
			echo "$test,$m,$result,\"$reason\",3,$kcol,xfstests-v2026.01.27,$fin"
		done
	} >"$t/res/$m/shard-$k-of-30.csv"
	{
		echo "mode $m"
		echo "shard $k/30"
		echo "wall_seconds 600"
		echo "check_seconds 590"
		echo "complete $complete"
		[ -n "$hints" ] && echo "hint_events $hints"
	} >"$t/res/$m/shard-$k-of-30.txt"
}
shard stock 1 stock <<'EOF'
generic/001,pass,
generic/002,pass,
generic/004,notrun,this test requires a valid $SCRATCH_LOGDEV
EOF
shard patched 1 "patched@$cur" <<'EOF'
generic/001,pass,
generic/002,fail,- output mismatch (see /var/lib/xfstests/results//generic/002.out.bad)
generic/004,notrun,this test requires a valid $SCRATCH_LOGDEV
EOF
mkdir -p "$t/res/patched/shard-1-of-30"
echo "--- the made-up diff of generic/002" >"$t/res/patched/shard-1-of-30/generic-002.txt"
shard patched 2 "patched@$cur" yes "lost - - 0" <<'EOF'
generic/003,pass,
EOF
shard patched-hot 1 "patched@$cur" yes "vda hot honoured 100; vdb hot honoured 20; vdb spill - 3; lost - - 2" <<'EOF'
generic/001,pass,
EOF
shard patched-hot 2 "patched@0123456789ab" no "252,0 hot honoured 4; vda hot honoured 5; lost - - 0" <<'EOF'
generic/002,pass,
EOF

rep() { "$here/shards-report.sh" "$t/res" >"$t/out" 2>&1; }
rep
rc=$?
p=$t/res/RESULTS.md
chk '[ $rc = 0 ] && [ -s "$p" ]' "the report is written (exit $rc: $(head -c 300 "$t/out"))"
sect() { sed -n "/^## $1/,/^## /p" "$p"; }
chk 'sect "Results that differ from stock" | grep -q "^| generic/002 | pass | fail: - output mismatch"' \
	"a test passing on stock and failing on patched is listed as differing"
chk '! sect "Results that differ from stock" | grep -q "generic/00[14]"' \
	"tests with the same result in every mode are not listed as differing"
chk 'sect "Patched failures that stock does not show" | grep -q "^### generic/002 on patched (stock: pass)" &&
	sect "Patched failures that stock does not show" | grep -q "the made-up diff of generic/002"' \
	"the patched failure is shown with its kept output"
chk 'sect "Series" | grep -q "patched-hot: 1 results come from an older series.*patched@0123456789ab.*shard-2-of-30"' \
	"a result from another series is flagged with the shard to rerun"
chk '! sect "Series" | grep -q "\*\*patched: "' "results from the current series are not flagged"
chk 'sect "Hints in play" | grep -qx -- "- patched-hot (2 of 2 shards kept the counts): 252:0 hot honoured 4, vda hot honoured 105, vdb hot honoured 20, vdb spill - 3; trace events lost: 2"' \
	"the hinted creates the shards kept are summed per device (a gone one as MAJOR:MINOR), hint and outcome"
chk 'sect "Hints in play" | grep -qx -- "- patched (1 of 2 shards kept the counts): no hinted create; trace events lost: 0"' \
	"an unhinted mode whose shard traced no hinted create says so"
chk 'sect "Not yet run" | grep -q "^- patched-hot, N=30: shards 2-30 to run"' \
	"a partial shard (complete no) counts as still to run"
chk 'sect "Not yet run" | grep -q "^- patched, N=30: shards 3-30 to run" &&
	! grep -q "patched-colddir, N=" "$p"' \
	"the modes the group needs are listed as to run; patched-colddir not before it has a shard"

rm "$t/res/patched/shard-2-of-30".*
rep
chk 'sect "Hints in play" | grep -qx -- "- patched: none of its 1 shards kept the counts (they ran before shards kept them)"' \
	"a mode whose shards kept no counts says so, not zero"

shard patched-colddir 4 "patched@$cur" yes "vda cold honoured 7; lost - - 0" <<'EOF'
generic/004,notrun,this test requires a valid $SCRATCH_LOGDEV
EOF
rep
chk 'sect "Not yet run" | grep -q "^- patched-colddir, N=30: shards 1-3,5-30 to run" &&
	sect "Hints in play" | grep -q "^- patched-colddir (1 of 1 shards kept the counts): vda cold honoured 7;"' \
	"patched-colddir, once it has a shard, is counted, summed and listed as to run"

echo "generic/009,patched,pass" >>"$t/res/patched/shard-1-of-30.csv"
rep
rc=$?
chk '[ $rc = 2 ] && grep -q "patched/shard-1-of-30.csv:5: 3 fields, not 8" "$t/out"' \
	"a CSV row with too few fields is refused, naming the file and line (exit $rc)"

# the mode names shard.sh takes (make fstests SHARD= checks them with it)
"$here/shard.sh" --check patched-colddir 4/30 >"$t/out" 2>&1
rc=$?
chk '[ $rc = 0 ]' "shard.sh takes MODE=patched-colddir (exit $rc: $(head -c 200 "$t/out"))"
"$here/shard.sh" --check patched-cold 4/30 >"$t/out" 2>&1
rc=$?
chk '[ $rc = 2 ] && grep -q "MODE=.patched-cold.: use stock, patched, patched-hot or patched-colddir" "$t/out"' \
	"shard.sh refuses an unknown MODE, naming it and the modes it takes (exit $rc)"

FSTESTS_DIRMARK=warm KERNEL=patched TESTS=generic/001 "$here/run.sh" "$t/run" >"$t/out" 2>&1
rc=$?
chk '[ $rc = 2 ] && grep -q "FSTESTS_DIRMARK=.warm.: use none, hot or cold" "$t/out" && [ ! -e "$t/run" ]' \
	"run.sh refuses a bad FSTESTS_DIRMARK before it builds or boots anything (exit $rc)"

echo "1..$n"
echo "# $((n - bad)) passed, $bad failed"
[ $bad = 0 ]
