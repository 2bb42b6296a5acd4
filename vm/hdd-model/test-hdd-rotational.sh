#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The filter tells clients the disk is rotational.
. "$(dirname "$0")/hdd-test-lib.sh"
requires nbdkit nbdinfo
timeout 30 nbdkit -U - --filter="$filter" memory 1G \
    --run 'nbdinfo "$uri"' >"$tmp/info" || fail "nbdkit/nbdinfo failed"
grep -E 'is_rotational: *true' "$tmp/info" || {
    cat "$tmp/info"; fail "is_rotational is not true"; }
