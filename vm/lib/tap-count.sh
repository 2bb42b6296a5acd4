#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Count TAP-style result lines ("ok ..." / "not ok ...") in the given files and
# print the closing line "N passed, M failed, K skipped".  A line
# "ok ... # SKIP reason" is a skip: counted on its own, never as a pass and
# never as a failure.  ("not ok ... # SKIP" is a failure.)  Exit non-zero if
# anything failed or nothing passed.
cat "$@" 2>/dev/null | awk '
	/^not ok/ { failed++; next }
	/^ok .*# *SKIP/ { skipped++; next }
	/^ok/ { passed++ }
	END {
		printf "%d passed, %d failed, %d skipped\n", passed, failed, skipped
		if (failed || passed == 0) exit 1
	}'
