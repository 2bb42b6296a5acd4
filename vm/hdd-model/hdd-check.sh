#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the hdd host tests (test-hdd-*.sh but test-hdd-guest*.sh, which boot
# guests: make hdd-guest-check), one TAP line each.
# Exit status 77 (a tool is missing) is reported as "ok N - name # SKIP":
# a skip, counted as such by make check, never as a pass.  Each test is
# bounded by a timeout.
srcdir=$(cd "$(dirname "$0")" && pwd)
HDD_BUILD=${HDD_BUILD:-$srcdir/../../build/hdd}
export HDD_BUILD
. "$srcdir/../lib/tap.sh"
tap_name=hdd
for t in "$srcdir"/test-hdd-*.sh; do
    case ${t##*/} in test-hdd-guest*.sh) continue ;; esac
    name=$(basename "$t" .sh)
    log=$HDD_BUILD/$name.log
    timeout 120 "$t" >"$log" 2>&1
    rc=$?
    case $rc in
    0)  ok "$name" ;;
    77) skip "$name" "a tool is missing (see $log)" ;;
    124) not_ok "$name (timed out after 120 s)" ;;
    *)  not_ok "$name (exit $rc)" ;;
    esac
    # show what the test measured; its failure message if any
    sed 's/^/#   /' "$log" | grep -Ev '^#   ok [0-9]+ - ' | tail -n 20
done
echo "# logs in $HDD_BUILD/"
tap_done
