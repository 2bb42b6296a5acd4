#!/bin/sh
# Run the hdd host tests (test-hdd-*.sh but test-hdd-guest.sh, which boots a
# guest: make hdd-guest-check), one TAP line each.
# Exit status 77 (a tool is missing) is reported as "ok N - name # SKIP":
# a skip, counted as such by make check, never as a pass.  Each test is
# bounded by a timeout.
srcdir=$(cd "$(dirname "$0")" && pwd)
HDD_BUILD=${HDD_BUILD:-$srcdir/../../build/hdd}
export HDD_BUILD
n=0 failed=0 skipped=0
for t in "$srcdir"/test-hdd-*.sh; do
    [ "${t##*/}" = test-hdd-guest.sh ] && continue
    n=$((n + 1))
    name=$(basename "$t" .sh)
    log=$HDD_BUILD/$name.log
    timeout 120 "$t" >"$log" 2>&1
    rc=$?
    case $rc in
    0)  echo "ok $n - $name" ;;
    77) echo "ok $n - $name # SKIP a tool is missing (see $log)"
        skipped=$((skipped + 1)) ;;
    124) echo "not ok $n - $name (timed out after 120 s)"
        failed=$((failed + 1)) ;;
    *)  echo "not ok $n - $name (exit $rc)"
        failed=$((failed + 1)) ;;
    esac
    # show what the test measured; its failure message if any
    sed 's/^/#   /' "$log" | grep -v '^#   # PASS' | tail -n 20
done
echo "# hdd: $((n - failed - skipped))/$n passed, $skipped skipped (logs in $HDD_BUILD/)"
[ $failed -eq 0 ]
