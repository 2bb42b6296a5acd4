# SPDX-License-Identifier: GPL-2.0
# vm/lib/tap.sh - the project's one TAP helper for shell tests.  POSIX sh:
# sourced by bash on the host and by the guest's sh (dash, busybox ash);
# the guest test roots carry a copy next to the scripts that use it.
#
#   tap_init NAME      $tmp: a scratch folder, removed at exit unless KEEP=1
#                      (a script that sets its own EXIT trap calls
#                      tap_cleanup in it); $tmp/log collects t's output
#   ok DESC            print "ok N - DESC"
#   not_ok DESC        print "not ok N - DESC": a failure
#   skip DESC [REASON] print "ok N - DESC # SKIP REASON": a skip, counted on
#                      its own by make check (vm/lib/tap-count.sh), never a
#                      pass, never a failure
#   check DESC CMD...  run CMD (its output where it goes): ok or not ok
#   t DESC CMD...      the same, CMD's output appended to $tmp/log
#   is DESC GOT WANT   ok if GOT = WANT, else not ok naming both
#   tap_done           print "1..N" and a "# NAME: ..." count line; its
#                      status is non-zero iff something failed (end a
#                      script with it, or `tap_done; exit $?`)
#
# Counters: $n (tests so far), $failed, $skipped.  TAP_PREFIX, if set, goes
# before every description ("guest: ").
n=0 failed=0 skipped=0
tap_name=${tap_name:-$(basename "$0" .sh)}
tmp=${tmp:-}

tap_init() {
	tap_name=$1
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || { echo "not ok 1 - $1: mktemp failed"; exit 1; }
	trap tap_cleanup EXIT
}
tap_cleanup() {
	[ -z "$tmp" ] || [ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
ok() {
	n=$((n + 1))
	echo "ok $n - ${TAP_PREFIX:-}$1"
}
not_ok() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - ${TAP_PREFIX:-}$1"
}
skip() {
	n=$((n + 1))
	skipped=$((skipped + 1))
	echo "ok $n - ${TAP_PREFIX:-}$1 # SKIP${2:+ $2}"
}
check() {
	_tap_d=$1
	shift
	if "$@"; then ok "$_tap_d"; else not_ok "$_tap_d"; fi
}
t() {
	_tap_d=$1
	shift
	_tap_log=${tmp:+$tmp/log}
	if "$@" >>"${_tap_log:-/dev/null}" 2>&1; then ok "$_tap_d"; else not_ok "$_tap_d"; fi
}
is() {
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1 (got '$2', want '$3')"; fi
}
tap_done() {
	echo "1..$n"
	echo "# $tap_name: $((n - failed - skipped)) passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ]
}
