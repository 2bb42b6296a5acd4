#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of hotcold-preload.so (TAP): strace shows the flags the library
# hands to the kernel (the host kernel ignores O_HOT/O_COLD in open(), so
# nothing changes on disk here; the guest tests check what ext4 does).
# Usage: ioengines/test-preload.sh PRELOAD.so
set -u
so=${1:?usage: test-preload.sh PRELOAD.so}
. "$(dirname "$0")/../vm/lib/tap.sh"
tap_init preload
command -v strace >/dev/null || { not_ok "strace missing (vm/lib/install-deps.sh fio)"; exit 1; }
d=$tmp/d
mkdir -p "$d/db" "$d/other"
# openat() flags of each create under $d, as strace prints them
flags() { # HOTCOLD-value command...
	local v=$1; shift
	: >"$tmp/st"
	env LD_PRELOAD="$so" HOTCOLD="$v" strace -f -qq -e trace=open,openat,creat -o "$tmp/st" "$@" >/dev/null 2>&1
	grep -E "\"($d/|db/)" "$tmp/st" | sed -n 's/.*"\([^"]*\)", \([A-Z_|0-9x]*\).*/\1 \2/p'
}
has() { grep -q -- "$1" <<<"$2"; }
# O_HOT is 01000000000 = 0x8000000, O_COLD 02000000000 = 0x10000000
out=$(flags hot sh -c ": > '$d/a'")
t "HOTCOLD=hot: a shell redirection creates with O_HOT ($out)" has "$d/a .*O_CREAT.*0x8000000" "$out"
out=$(flags cold sh -c ": > '$d/b'")
t "HOTCOLD=cold: creates with O_COLD ($out)" has "$d/b .*O_CREAT.*0x10000000" "$out"
out=$(flags cold cat "$d/b")
t "an open without O_CREAT gets no hint ($out)" bash -c "! grep -q 0x10000000 <<<'$out' && grep -q '$d/b O_RDONLY' <<<'$out'"
out=$(flags "hot:$d/db/*;cold:*" sh -c ": > '$d/db/x'; : > '$d/other/y'")
t "rules: the first match wins (db -> hot, the rest -> cold)" bash -c "grep -q '$d/db/x .*0x8000000' <<<'$out' && grep -q '$d/other/y .*0x10000000' <<<'$out'"
out=$(flags "hot:$d/db/*" sh -c ": > '$d/other/z'")
t "rules: a path matching none is left alone ($out)" bash -c "grep -q '$d/other/z' <<<'$out' && ! grep -q '0x8000000\|0x10000000' <<<'$out'"
out=$(cd "$d" && flags "cold:$d/db/*" sh -c ": > db/rel")
t "rules: a relative path is matched from the working directory ($out)" has "db/rel .*0x10000000" "$out"
out=$(flags "" sh -c ": > '$d/c'")
t "no HOTCOLD: no hint ($out)" bash -c "grep -q '$d/c' <<<'$out' && ! grep -q '0x8000000\|0x10000000' <<<'$out'"
err=$(env LD_PRELOAD="$so" HOTCOLD=warm true 2>&1); rc=$?
t "HOTCOLD=warm: exit 2 with a message naming it ($rc: $err)" bash -c "[ $rc = 2 ] && grep -q \"HOTCOLD='warm'\" <<<\"\$1\"" _ "$err"
err=$(env LD_PRELOAD="$so" HOTCOLD="tepid:/x" true 2>&1); rc=$?
t "HOTCOLD=tepid:/x: a bad rule is refused ($rc)" sh -c "[ $rc = 2 ]"
t "the program still works: cp with HOTCOLD=hot copies the bytes" sh -c \
	"head -c 100000 /dev/urandom >'$d/src' && env LD_PRELOAD='$so' HOTCOLD=hot cp '$d/src' '$d/dst' && cmp '$d/src' '$d/dst'"
[ "$failed" = 0 ] || { tail -n 20 "$tmp/log" >&2; }
tap_done
