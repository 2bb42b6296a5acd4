#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# guest-kmsg.sh CMD [ARGS...] - runs INSIDE the guest (busybox sh): CMD with
# the whole kernel log captured, for make guest-check-debug.
#
# A reader of /dev/kmsg of its own, opened before CMD starts, sees every
# record from the first one of the boot on: a test's `dmesg -c` clears only
# what syslog(2) and a new reader see, not an open reader's position.  After
# CMD, the log goes to stdout, each line prefixed with "kmsg: " (raw
# /dev/kmsg records: "PRI,SEQ,USEC,FLAGS;text"), between the lines
# "kmsg: --- begin" and "kmsg: --- end N records"; the host cuts it out
# (vm/kernel-tests/guest-check-debug.sh) and scans it for splats.  If the reader
# died (it fell so far behind that the ring overwrote records it had not
# read: read() fails with EPIPE and cat stops), the end line says
# "kmsg: --- incomplete", which the host counts as a failure.
# Exit status: CMD's.
[ $# -ge 1 ] || { echo "usage: guest-kmsg.sh CMD [ARGS...]" >&2; exit 2; }
log=/tmp/guest-kmsg.log
[ -r /dev/kmsg ] || { echo "not ok - guest-kmsg: /dev/kmsg cannot be read"; exit 2; }
cat /dev/kmsg >"$log" &
reader=$!
"$@"
rc=$?
# let the last records of CMD reach the reader
echo "guest-kmsg: end of $1 (exit $rc)" >/dev/kmsg
sleep 2
end="kmsg: --- end"
if kill "$reader" 2>/dev/null; then
	wait "$reader" 2>/dev/null
else
	end="kmsg: --- incomplete"
fi
echo "kmsg: --- begin"
sed 's/^/kmsg: /' "$log"
echo "$end $(wc -l <"$log") records"
exit $rc
