#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host test of vm/fstests/shard-worker.sh, with no guest: a stand-in `make`
# (first on PATH) plays make fstests-prep and make fstests SHARD=K/N, writing
# a shard's CSV and facts as shard.sh does, in a scratch git repository.
# Checks: shards run in queue order and are committed with their counts;
# the stop file ends the worker before the next shard; a shard that stopped
# early goes to QUEUE.failed and is not committed; a failed make puts its
# line back at the head of the queue and stops with make's status; the
# shard itself runs with FSTESTS_PREP= (no build outside the lock); a bad
# line is left on the queue; a missing queue is refused.  Prints TAP.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
tap_init shard-worker
t=$tmp
# cond DESC: ok if the shell condition cond holds
chk() { if eval "$1"; then ok "$2"; else not_ok "$2"; fi; }

mkdir -p "$t/bin" "$t/repo/vm/fstests"
cp "$here/shard-worker.sh" "$t/repo/vm/fstests/"
cp "$here/../../.gitignore" "$t/repo/"	# build/, where the lock lives
# the stand-in make: FAKE_FAIL names a "MODE K/N" whose prep fails,
# FAKE_SHORT one whose guest stops early (complete no)
cat > "$t/bin/make" <<'EOF'
#!/bin/bash
target= group= shard= mode=
for a; do
	case $a in
	-s) ;;
	FSTESTS_PREP=) target="$target(noprep)" ;;
	GROUP=*) group=${a#GROUP=} ;;
	SHARD=*) shard=${a#SHARD=} ;;
	MODE=*) mode=${a#MODE=} ;;
	*) target=$a$target ;;
	esac
done
echo "$target $mode $shard" >> "$FAKE_LOG"
[ "$mode $shard" = "${FAKE_FAIL:-}" ] && { echo "make: *** prep failed" >&2; exit 2; }
[ "$target" = fstests-prep ] && exit 0
k=${shard%/*} n=${shard#*/} d=results/fstests/$mode
mkdir -p "$d"
complete=yes
[ "$mode $shard" = "${FAKE_SHORT:-}" ] && complete=no
printf 'mode %s\nshard %s\nwall_seconds 123\ncomplete %s\n' "$mode" "$shard" "$complete" > "$d/shard-$k-of-$n.txt"
{
	echo "test,mode,result,reason,seconds,kernel,fstests,finished"
	echo "generic/001,$mode,pass,\"\",10,stock,v,now"
	echo "generic/002,$mode,pass,\"\",10,stock,v,now"
	echo "generic/003,$mode,notrun,\"no\",1,stock,v,now"
	echo "generic/004,$mode,fail,\"diff\",5,stock,v,now"
} > "$d/shard-$k-of-$n.csv"
[ $complete = yes ] || exit 2
EOF
chmod +x "$t/bin/make"
export PATH="$t/bin:$PATH" FAKE_LOG="$t/make.log"
cd "$t/repo" || exit 1
git init -q . && git config user.name test && git config user.email t@t &&
	git add -A && git commit -qm init || exit 1
worker() { vm/fstests/shard-worker.sh "$@" > "$t/out" 2>&1; }

printf '# a comment\n\nstock 2/30\npatched 1/30\n' > "$t/q"
worker "$t/q"; rc=$?
chk '[ $rc = 0 ]' "two shards and an empty queue: exit 0 (got $rc)"
chk '[ "$(git log --format=%s -2 | tac | tr "\n" "|")" = "results/fstests: stock shard 2/30 of the quick group (2 pass, 1 fail, 1 notrun; 123 s wall)|results/fstests: patched shard 1/30 of the quick group (2 pass, 1 fail, 1 notrun; 123 s wall)|" ]' \
	"each shard committed in queue order, with its counts and wall time"
chk 'git ls-files results | grep -qx results/fstests/patched/shard-1-of-30.csv && [ -z "$(git status --porcelain)" ]' \
	"the shard's CSV and facts are in the commit, nothing left over"
chk '[ "$(grep -c "^fstests-prep" "$t/make.log")" = 2 ]' "make fstests-prep ran before each shard"
chk '[ "$(cut -d" " -f1 "$t/make.log" | tr "\n" "|")" = "fstests-prep|fstests(noprep)|fstests-prep|fstests(noprep)|" ]' \
	"each shard runs with FSTESTS_PREP= (it builds nothing outside the lock)"
chk '! grep -q "[^[:space:]#]" <(grep -v "^#" "$t/q")' "the queue is empty but for its comment"

printf 'stock 3/30\nstock 4/30\n' > "$t/q"
touch "$t/stop"
worker "$t/q" "$t/stop"; rc=$?
chk '[ $rc = 0 ] && [ "$(cat "$t/q" | tr "\n" "|")" = "stock 3/30|stock 4/30|" ]' \
	"a stop file present: no shard taken, exit 0"
rm -f "$t/stop"

n0=$(git rev-list --count HEAD)
printf 'stock 5/30\nstock 6/30\n' > "$t/q"
FAKE_SHORT="stock 5/30" worker "$t/q"; rc=$?
chk '[ $rc = 0 ] && [ "$(cat "$t/q.failed")" = "stock 5/30" ]' \
	"a shard that stopped early goes to QUEUE.failed and the worker goes on"
chk '[ $(git rev-list --count HEAD) = $((n0 + 1)) ] && git log -1 --format=%s | grep -q "stock shard 6/30"' \
	"only the whole shard is committed"

printf 'stock 7/30\nstock 8/30\n' > "$t/q"
FAKE_FAIL="stock 7/30" worker "$t/q"; rc=$?
chk '[ $rc = 2 ] && [ "$(cat "$t/q" | tr "\n" "|")" = "stock 7/30|stock 8/30|" ]' \
	"a failed make: exit 2, the line back at the head of the queue (rc $rc)"
chk 'grep -q "back on" "$t/out"' "a failed make says so"

printf 'patched\n' > "$t/q"
worker "$t/q"; rc=$?
chk '[ $rc = 2 ] && [ "$(cat "$t/q")" = patched ] && grep -q "want .MODE K/N." "$t/out"' \
	"a bad queue line: exit 2, named, left on the queue"
worker "$t/nonexistent"; rc=$?
chk '[ $rc = 2 ] && grep -q "no queue file" "$t/out"' "a missing queue: exit 2, named"

tap_done
