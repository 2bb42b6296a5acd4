#!/bin/sh
# Tests of vm/run itself, on a given kernel.  TAP-style output.
kernel=${1:?usage: test-run.sh BZIMAGE}
run="$(dirname "$0")/run"
n=0
check() { # name, expected status, actual status
	n=$((n + 1))
	if [ "$2" = "$3" ]; then echo "ok $n - $1"; else echo "not ok $n - $1 (exit $3, want $2)"; fi
}

out=$("$run" --kernel "$kernel" --disk 1G -- 'echo hello from $(uname -r); cat /sys/block/vda/queue/rotational; exit 3' 2>/dev/null)
check "guest exit status comes back" 3 $?
n=$((n + 1))
case $out in *"hello from 6.1"*) echo "ok $n - guest output comes back";;
	*) echo "not ok $n - guest output comes back (got '$out')";; esac
n=$((n + 1))
[ "$(echo "$out" | tail -n 1)" = 1 ] && echo "ok $n - virtio disk is rotational in the guest" ||
	echo "not ok $n - virtio disk is rotational in the guest (got '$out')"

err=$("$run" --kernel "$kernel" --timeout 15 -- 'sleep 600' 2>&1 >/dev/null)
check "a guest that never finishes is killed" 124 $?
n=$((n + 1))
case $err in *"did not finish within 15s"*) echo "ok $n - timeout message names the limit";;
	*) echo "not ok $n - timeout message names the limit (got '$err')";; esac

err=$("$run" --kernel "$kernel" --bogus -- true 2>&1)
check "unknown option refused" 2 $?
err=$("$run" --kernel "$kernel" --disk 12X -- true 2>&1)
check "bad disk size refused" 2 $?
n=$((n + 1))
case $err in *"12X"*) echo "ok $n - bad disk size named";; *) echo "not ok $n - bad disk size named ($err)";; esac
err=$("$run" --kernel /nonexistent -- true 2>&1)
check "missing kernel refused" 2 $?

# A guest whose kernel panics reports no status: vm/run must say so.
err=$("$run" --kernel "$kernel" --timeout 120 -- 'echo c > /proc/sysrq-trigger; sleep 600' 2>&1 >/dev/null)
check "a panicking guest fails fast" 125 $?
n=$((n + 1))
case $err in *"without reporting an exit status"*) echo "ok $n - panic is reported";;
	*) echo "not ok $n - panic is reported (got '$err')";; esac

# QEMU dying under the guest: same, and no hang.
tag=vmruntest$$
"$run" --kernel "$kernel" --timeout 120 --append "$tag" -- 'sleep 600' >/dev/null 2>&1 &
rp=$!
i=0
while ! pkill -KILL -f "^qemu-system-x86_64 .*$tag" 2>/dev/null && [ $i -lt 60 ]; do sleep 1; i=$((i + 1)); done
wait $rp
check "QEMU killed under a running guest fails fast" 125 $?
