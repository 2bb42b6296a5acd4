#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Tests of vm/runner/run itself, on a given kernel.  TAP-style output.
kernel=${1:?usage: test-run.sh BZIMAGE}
run="$(dirname "$0")/run"
. "$(dirname "$0")/../lib/tap.sh"
tap_init vm-check

out=$("$run" --kernel "$kernel" --disk 1G -- 'echo hello from $(uname -r); cat /sys/block/vda/queue/rotational; exit 3' 2>/dev/null)
is "guest exit status comes back" $? 3
case $out in *"hello from 6.1"*) ok "guest output comes back";;
	*) not_ok "guest output comes back (got '$out')";; esac
[ "$(echo "$out" | tail -n 1)" = 1 ] && ok "virtio disk is rotational in the guest" ||
	not_ok "virtio disk is rotational in the guest (got '$out')"

# --out: the files the command left in /out come back, with its status
# (non-zero here); what it printed still comes on stdout.
o=$tmp/out-ok/new
out=$("$run" --kernel "$kernel" --disk 64M --out "$o" -- \
	'echo to the console; echo one >/out/a.txt; mkdir /out/sub && printf "x,y\n1,2\n" >/out/sub/b.csv; exit 4' 2>"$tmp/err")
is "--out: the command's exit status comes back" $? 4
is "--out: a file written in /out comes back" "$(cat "$o/a.txt" 2>&1)" one
is "--out: a file in a subfolder of /out comes back" "$(cat "$o/sub/b.csv" 2>&1 | tr '\n' ' ')" "x,y 1,2 "
is "--out: nothing else lands in DIR" "$(cd "$o" 2>/dev/null && find . | sort | tr '\n' ' ')" ". ./a.txt ./sub ./sub/b.csv "
is "--out: the command's output still comes on stdout" "$out" "to the console"

# /out larger than the results disk (--out-size): a message, non-zero,
# nothing half-copied into DIR.
o=$tmp/out-big
err=$("$run" --kernel "$kernel" --disk 64M --out "$o" --out-size 1M -- \
	'echo kept >/out/small; dd if=/dev/zero of=/out/big bs=1024 count=2048 2>/dev/null' 2>&1 >/dev/null)
is "--out: a /out larger than --out-size fails" $? 125
case $err in *"could not write /out to the results disk"*"KiB"*) ok "--out: that failure is named, with the sizes";;
	*) not_ok "--out: that failure is named, with the sizes (got '$err')";; esac
is "--out: ... and nothing lands in DIR" "$(ls -A "$o")" ""

# --out DIR that cannot be written: refused before any guest boots.
err=$("$run" --kernel "$kernel" --out /proc/vmrun-out-test -- true 2>&1)
is "--out: a folder that cannot be created is refused" $? 2
case $err in *"--out '/proc/vmrun-out-test'"*) ok "--out: that folder is named";;
	*) not_ok "--out: that folder is named (got '$err')";; esac
: >"$tmp/a-file"
err=$("$run" --kernel "$kernel" --out "$tmp/a-file" -- true 2>&1)
is "--out: a path that is a file is refused" $? 2
err=$("$run" --kernel "$kernel" --out /proc/sys -- true 2>&1)
is "--out: a folder that cannot be written is refused" $? 2
case $err in *"--out '/proc/sys': that directory is not writable"*) ok "--out: ... and named";;
	*) not_ok "--out: ... and named (got '$err')";; esac
err=$("$run" --kernel "$kernel" --out "$tmp/o" --out-size 12X -- true 2>&1)
is "--out-size: a bad size is refused" $? 2
case $err in *12X*) ok "--out-size: the bad size is named";; *) not_ok "--out-size: the bad size is named ($err)";; esac

# A guest killed at its timeout: the message, and with --out nothing
# brought back (the file the command wrote before it hung stays in it).
o=$tmp/out-timeout
err=$("$run" --kernel "$kernel" --timeout 15 --out "$o" -- 'echo early >/out/early; sleep 600' 2>&1 >/dev/null)
is "a guest that never finishes is killed" $? 124
case $err in *"did not finish within 15s"*) ok "timeout message names the limit";;
	*) not_ok "timeout message names the limit (got '$err')";; esac
case $err in *"--out '$o': nothing was brought back"*) ok "--out: a killed guest brings nothing back, and says so";;
	*) not_ok "--out: a killed guest brings nothing back, and says so (got '$err')";; esac
is "--out: ... DIR stays empty" "$(ls -A "$o")" ""

err=$("$run" --kernel "$kernel" --bogus -- true 2>&1)
is "unknown option refused" $? 2
err=$("$run" --kernel "$kernel" --disk 12X -- true 2>&1)
is "bad disk size refused" $? 2
case $err in *"12X"*) ok "bad disk size named";; *) not_ok "bad disk size named ($err)";; esac
err=$("$run" --kernel /nonexistent -- true 2>&1)
is "missing kernel refused" $? 2

# A guest whose kernel panics reports no status: vm/runner/run must say so.
o=$tmp/out-panic
err=$("$run" --kernel "$kernel" --timeout 120 --out "$o" -- 'echo x >/out/x; echo c > /proc/sysrq-trigger; sleep 600' 2>&1 >/dev/null)
is "a panicking guest fails fast" $? 125
case $err in *"without reporting an exit status"*) ok "panic is reported";;
	*) not_ok "panic is reported (got '$err')";; esac
is "--out: a panicked guest brings nothing back" "$(ls -A "$o")" ""

# QEMU dying under the guest: same, and no hang.
tag=vmruntest$$
o=$tmp/out-qemu
"$run" --kernel "$kernel" --timeout 120 --append "$tag" --out "$o" -- 'echo x >/out/x; sleep 600' >/dev/null 2>"$tmp/err" &
rp=$!
i=0
while ! pkill -KILL -f "^qemu-system-x86_64 .*$tag" 2>/dev/null && [ $i -lt 60 ]; do sleep 1; i=$((i + 1)); done
wait $rp
is "QEMU killed under a running guest fails fast" $? 125
grep -q "nothing was brought back" "$tmp/err" && [ -z "$(ls -A "$o")" ]
check "--out: QEMU killed: nothing brought back, and the message says so" [ $? = 0 ]

# A checkout, a build folder, a kernel and an --initrd-extra folder whose
# paths have a space and a comma: every path stays one argument to QEMU
# (no eval), and a comma in a -drive/-blockdev value is doubled.
sp=$(mktemp -d "${TMPDIR:-/tmp}/vm run,XXXX")
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$sp/build dir,2/vm" "$sp/kernel dir,3" "$sp/extra dir,4"
ln -s "${BUILD:-$top/build}/hdd" "$sp/build dir,2/hdd"
ln -s "$top" "$sp/top dir,1"
cp "$kernel" "$sp/kernel dir,3/bzImage"
cp "${BUILD:-$top/build}/vm/initramfs.cpio" "$sp/build dir,2/vm/initramfs.cpio"
echo "from a path with a space, and a comma" >"$sp/extra dir,4/hello"
hdd=""
[ -f "${BUILD:-$top/build}/hdd/nbdkit-hdd-filter.so" ] && command -v nbdkit >/dev/null &&
	hdd="--hdd 1G,time-scale=0"
out=$(BUILD="$sp/build dir,2" "$sp/top dir,1/vm/runner/run" --kernel "$sp/kernel dir,3/bzImage" --disk 64M $hdd \
	--initrd-extra "$sp/extra dir,4" -- 'cat /hello; ls /sys/block | grep -c "^vd"; exit 7' 2>"$sp/err")
is "a run from paths with a space and a comma ($hdd)" $? 7
want=2
[ -n "$hdd" ] || want=1
case $out in *"from a path with a space, and a comma"*"$want")
	ok "its extra file and its $want disk(s) reach the guest";;
	*) not_ok "its extra file and its $want disk(s) reach the guest (got '$out'; $(tail -3 "$sp/err"))";; esac
dry=$(BUILD="$sp/build dir,2" "$sp/top dir,1/vm/runner/run" --dry-run --kernel "$sp/kernel dir,3/bzImage" --disk 64M -- true 2>&1)
case $dry in *"-kernel $(printf '%q' "$sp/kernel dir,3/bzImage") "*)
	ok "--dry-run quotes each argument for the shell";;
	*) not_ok "--dry-run quotes each argument for the shell (got '$dry')";; esac
case $dry in *"file=$(printf '%q' "${sp//,/,,}/build dir,,2/")"*) ok "a comma in a -drive path is doubled";;
	*) not_ok "a comma in a -drive path is doubled (got '$dry')";; esac
rm -rf "$sp"

# --rootfs: the command runs chrooted in an ext4 image (made here with
# mke2fs -d, nothing mounted on the host) that is the last disk; the guest's
# writes go to an overlay, the image is unchanged; the initramfs is at /initrd.
rf=$(mktemp -d "${TMPDIR:-/tmp}/vm-rootfs.XXXX")
mkdir -p "$rf/tree/bin" "$rf/tree/root"
cp /bin/busybox "$rf/tree/bin/"
for a in sh cat echo ls; do ln -s busybox "$rf/tree/bin/$a"; done
echo "inside the image" >"$rf/tree/root/marker"
truncate -s 32M "$rf/root.img" && mke2fs -q -t ext4 -d "$rf/tree" "$rf/root.img"
sum=$(md5sum <"$rf/root.img")
out=$("$run" --kernel "$kernel" --disk 64M --rootfs "$rf/root.img" --out "$rf/out" -- \
	'cat /root/marker; echo changed >/root/marker; ls /dev | grep -c "^vd[ab]$"; test -x /initrd/init && echo initrd-seen; cat /root/marker >/out/from-rootfs; exit 5' 2>/dev/null)
is "--rootfs: the command's exit status comes back" $? 5
case $out in "inside the image"*2*initrd-seen*) ok "--rootfs: the command runs in the image, the --disk stays vda, the initramfs is at /initrd";;
	*) not_ok "--rootfs: the command runs in the image, the --disk stays vda, the initramfs is at /initrd (got '$out')";; esac
is "--rootfs --out: a file written in /out inside the image comes back" "$(cat "$rf/out/from-rootfs" 2>&1)" changed
[ "$sum" = "$(md5sum <"$rf/root.img")" ] && ok "--rootfs: the guest's writes never reach the image" ||
	not_ok "--rootfs: the guest's writes never reach the image"
err=$("$run" --kernel "$kernel" --rootfs "$rf/missing.img" -- true 2>&1)
is "--rootfs with a missing image refused" $? 2
case $err in *missing.img*) ok "the missing image is named";; *) not_ok "the missing image is named ($err)";; esac
rm -rf "$rf"
tap_done
