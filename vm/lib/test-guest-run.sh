#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Tests of vm/lib/guest-run.sh's guest_run, on a given kernel (one guest
# boot; part of make vm-check): a stage's guest that writes files in /out
# and fails, as a stage would see it.  TAP on stdout.
# Usage: vm/lib/test-guest-run.sh BZIMAGE
set -u
kernel=${1:?usage: test-guest-run.sh BZIMAGE}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
. "$here/guest-run.sh"
tap_init test-guest-run

d=$tmp/stage
guest_run "test stage" "$d" stock --kernel "$kernel" --disk 64M --timeout 300 -- \
	'echo "some output"; echo "1,2" >/out/r.csv; echo "<3>a kernel line" >/dev/kmsg; exit 6' 2>"$tmp/err"
is "guest_run returns the command's status" $? 6
is "the command's /out file is in DIR" "$(cat "$d/r.csv" 2>&1)" 1,2
is "the command's output is DIR/guest.out" "$(cat "$d/guest.out" 2>&1)" "some output"
grep -q "a kernel line" "$d/console.log" 2>/dev/null
check "the guest's console is kept as DIR/console.log" [ $? = 0 ]
venv() { sed -n "s/^$1=//p" "$d/vm.env" 2>/dev/null; }
is "vm.env: the flavour" "$(venv flavour)" stock
case $(venv accel) in tcg|kvm) ok "vm.env: the accel ($(venv accel))";; *) not_ok "vm.env: the accel (got '$(venv accel)')";; esac
case $(venv kernel_release) in 6.1.*) ok "vm.env: the kernel's release ($(venv kernel_release))";;
	*) not_ok "vm.env: the kernel's release (got '$(venv kernel_release)')";; esac
is "vm.env: the status" "$(venv status)" 6
head -n 1 "$tmp/err" | grep -q "^test stage: the command exited 6; stock kernel, accel [a-z]*; files: $d/guest.out"
check "the failure is named: the label, the status, flavour, accel and the files" [ $? = 0 ]
grep -q -- "--- last lines of console.log" "$tmp/err" && grep -q "    .*a kernel line" "$tmp/err"
check "the failure shows the console's tail" [ $? = 0 ]
grep -q "^    some output" "$tmp/err"
check "the failure shows the command's output's tail" [ $? = 0 ]
[ "$failed" = 0 ] || sed 's/^/#   /' "$tmp/err"

# a runner refusal (no guest): named as such, status 2
guest_run "bad stage" "$tmp/bad" stock --kernel /nonexistent/bzImage -- true 2>"$tmp/err"
is "guest_run: vm/runner/run's refusal comes back as its status" $? 2
grep -q "^bad stage: vm/runner/run refused to start (2)" "$tmp/err" && grep -q "/nonexistent/bzImage" "$tmp/err"
check "guest_run: the refusal is named, with the runner's reason" [ $? = 0 ]
tap_done
