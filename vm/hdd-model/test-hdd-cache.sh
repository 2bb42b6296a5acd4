#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The write cache's extents (hdd-cache.c) without a server: random
# overlapping writes, zeroes and destages in any order against a byte
# array of what was written last; a write in the middle of a cached one
# splits it; a flush's sequence numbers; a power cut's drop.
. "$(dirname "$0")/hdd-test-lib.sh"
t=$HDD_BUILD/test-hdd-cache
[ -x "$t" ] || fail "$t not built (make hdd)"
timeout 60 "$t" || fail "cache unit tests"
