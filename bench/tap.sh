# bench/tap.sh - sourced (bash) by the benchmark's check scripts
# (bench/check.sh, aged-check.sh, scaleout-check.sh): one way to print TAP.
#   tap_init NAME     $tmp: a scratch folder, removed at exit unless KEEP=1;
#                     $n (tests so far) and $failed (1 once one failed)
#   t DESC CMD...     run CMD with its output appended to $tmp/log, then
#                     print "ok N - DESC" or "not ok N - DESC"
tap_init() {
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || { echo "not ok 1 - $1: mktemp failed"; exit 1; }
	trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
	n=0 failed=0
}
t() {
	local d=$1; shift
	n=$((n + 1))
	if "$@" >>"$tmp/log" 2>&1; then echo "ok $n - $d"; else echo "not ok $n - $d"; failed=1; fi
}
