#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run fstests shards from a queue, one after another, and commit each one
# that ran whole (results/fstests/MODE/shard-K-of-N.*) in the checkout the
# worker runs in: a worktree on its own branch, merged into main between
# shards, so that a session that ends keeps every shard it finished.
#
# Usage: vm/fstests/shard-worker.sh QUEUE [STOPFILE]
#   QUEUE     a file of lines "MODE K/N" (e.g. "patched 4/30"); the worker
#             takes the first line off it under a lock (two workers may
#             share a queue: two guests at once, about 16 min a shard each
#             under TCG on 2 cores, against 12-13 min for one alone)
#   STOPFILE  if this file exists, the worker stops before its next shard
#             (touch it to stop after the shard that is running)
# What a shard needs (kernels, preload library, initramfs, root image) is
# built first by make fstests-prep under a lock on build/.shard-worker.lock,
# so two workers never extract or build into the tree at once (a worktree
# whose build/ is a link to another checkout's shares that lock); the
# shard then runs with make fstests FSTESTS_PREP=, which builds nothing.
# A shard that did not run whole (shard.sh exit 1: a timeout, a crash) is
# not committed; its line goes to QUEUE.failed and the worker goes on.  A
# line shard.sh refuses (exit 2) or a failed make puts the line back at the
# head of the queue and stops the worker with that exit status; so does a
# failed commit, without putting it back.  GROUP (default quick) and the make
# variables of vm/fstests/fstests.mk apply.
set -u
die() { echo "shard-worker: $*" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: vm/fstests/shard-worker.sh QUEUE [STOPFILE]"
queue=$1 stop=${2:-}
[ -f "$queue" ] || die "no queue file $queue"
top=$(git rev-parse --show-toplevel 2>/dev/null) ||
	die "not in a git checkout: run it in the worktree whose branch gets the results"
cd "$top" || exit 2
GROUP=${GROUP:-quick}

# the first line of the queue, removed from it; empty when there is none
take() {
	local line
	exec 9>>"$queue.lock"
	flock 9
	line=$(grep -m1 -v '^[[:space:]]*\(#.*\)\?$' "$queue")
	if [ -n "$line" ]; then
		awk -v l="$line" '!done && $0 == l { done = 1; next } { print }' \
			"$queue" > "$queue.tmp" && mv "$queue.tmp" "$queue"
	fi
	flock -u 9
	exec 9>&-
	printf '%s\n' "$line"
}

# put line back at the head of the queue (the shard did not run)
giveback() {
	exec 9>>"$queue.lock"
	flock 9
	{ printf '%s\n' "$1"; cat "$queue"; } > "$queue.tmp" && mv "$queue.tmp" "$queue"
	flock -u 9
	exec 9>&-
}

while :; do
	if [ -n "$stop" ] && [ -e "$stop" ]; then
		echo "shard-worker: $stop exists: stopping"
		exit 0
	fi
	line=$(take)
	[ -n "$line" ] || { echo "shard-worker: $queue is empty: done"; exit 0; }
	read -r mode shard rest <<< "$line"
	[ -z "$rest" ] && [ -n "$shard" ] ||
		{ giveback "$line"; die "queue line '$line': want 'MODE K/N' (left on $queue)"; }
	k=${shard%/*} n=${shard#*/}
	echo "shard-worker: $(date -u +%FT%TZ) $mode $k/$n"
	base=results/fstests/$mode/shard-$k-of-$n
	csv=$base.csv txt=$base.txt
	start=$(date +%s)
	# build what the shard needs under a lock on the build tree: two
	# workers building at once would extract a kernel over each other;
	# then run it with FSTESTS_PREP= (empty), which builds nothing, so
	# that no build runs outside the lock (even a kernel build with
	# nothing to do rewrites include/generated/: two at once fail)
	build=$top/build
	mkdir -p "$build" || die "cannot make $build"
	flock "$build/.shard-worker.lock" \
		make -s fstests-prep GROUP="$GROUP" SHARD="$k/$n" MODE="$mode" &&
		make -s fstests FSTESTS_PREP= GROUP="$GROUP" SHARD="$k/$n" MODE="$mode"
	rc=$?
	if [ $rc != 0 ]; then
		# make says 2 for any failed recipe: the shard's own facts tell
		# a shard that stopped early from a build or argument error
		if [ -f "$txt" ] && [ "$(stat -c %Y "$txt")" -ge "$start" ] &&
		   grep -qx 'complete no' "$txt"; then
			echo "shard-worker: $mode $k/$n did not run whole: to $queue.failed"
			echo "$line" >> "$queue.failed"
			continue
		fi
		echo "shard-worker: make fstests $mode $k/$n: exit $rc; '$line' back on $queue" >&2
		giveback "$line"
		exit $rc
	fi
	[ -f "$csv" ] && [ -f "$txt" ] || die "$mode $k/$n: exit 0 but no $csv or $txt"
	count() { awk -F, -v r="$1" 'NR > 1 && $3 == r { n++ } END { print n + 0 }' "$csv"; }
	wall=$(awk '$1 == "wall_seconds" { print $2 }' "$txt")
	paths=("$csv" "$txt")
	[ -d "$base" ] && paths+=("$base")
	git add -A -- "${paths[@]}" || die "git add ${paths[*]} failed"
	git commit -q -m "results/fstests: $mode shard $k/$n of the $GROUP group ($(count pass) pass, $(count fail) fail, $(count notrun) notrun; ${wall:-?} s wall)" ||
		die "git commit of $mode $k/$n failed"
	git log --oneline -1
done
