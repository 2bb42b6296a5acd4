#!/bin/sh
# Count TAP-style result lines ("ok ..." / "not ok ...") in the given files and
# print the closing line "N passed, M failed".  A line "ok ... # SKIP" is a skip,
# not a pass.  Exit non-zero if anything failed, was skipped, or nothing ran.
cat "$@" 2>/dev/null | awk '
	/^not ok/ { failed++; next }
	/^ok .*# *SKIP/ { skipped++; next }
	/^ok/ { passed++ }
	END {
		line = sprintf("%d passed, %d failed", passed, failed)
		if (skipped) line = line sprintf(", %d skipped", skipped)
		print line
		if (failed || skipped || passed == 0) exit 1
	}'
