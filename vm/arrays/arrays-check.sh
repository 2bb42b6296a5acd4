#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make arrays-check: O_HOT/O_COLD on ext4 over arrays of modelled disks.
# One guest on the patched kernel, four 1 GiB modelled disks, each with its
# own trace: md RAID0 (chunk 512 KiB) over vda+vdb, dm-linear over vdc+vdd,
# both built by hc-array; on each a fresh ext4 with 4 x 8 MiB files O_HOT,
# O_COLD and unhinted (hc-arrayload).  Where each class's data lands on each
# member is read twice: from the members' traces (hc-arraytrace: the bytes
# the sequential read phase read, per third of the member) and from FIEMAP
# mapped through the layout (array-layout.h); they must agree byte for
# byte.  Then what the layouts imply:
#   raid0   the array's first third is the first third of every member:
#           hot data on every member, all in its first third; cold data on
#           every member, all in its last third;
#   linear  the array's first third is the first two thirds of member 0:
#           hot data never on member 1; cold data only on member 1, at its
#           inner end (patch 7 fills the cold region from its end).
# The disks run at time-scale=0 (no sleeping; the traces still carry the
# model's times).  Host checks first: array-layout.h's arithmetic
# (test-array-layout) and the tools' bad-input messages.
# Usage: vm/arrays/arrays-check.sh BZIMAGE_PATCHED   (TAP on stdout)
set -u
kernel=${1:?usage: vm/arrays/arrays-check.sh BZIMAGE_PATCHED}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}
bin=$build/arrays/root/tests/arrays
trace_tool=$build/arrays/hc-arraytrace
. "$top/vm/lib/tap.sh"
. "$top/vm/lib/guest-run.sh"
tap_init arrays-check
CSV_AWK=$(cat "$top/bench/measures/csv.awk")
FILES=4 SIZE_MIB=8

for f in "$bin/hc-array" "$bin/hc-arrayload" "$bin/guest-arrays.sh" "$trace_tool" "$build/arrays/test-array-layout"; do
	[ -x "$f" ] || { not_ok "setup: $f missing (make arrays-tools)"; tap_done; exit 1; }
done
[ -r "$kernel" ] || { not_ok "setup: kernel '$kernel' missing (make kernel-patched)"; tap_done; exit 1; }

# ---- the layouts' arithmetic (array-layout.h), on the host
# (its own TAP lines, counted by make check; a crash is a failure here)
"$build/arrays/test-array-layout" | grep -E '^(not )?ok |^#'
st=${PIPESTATUS[0]}
case $st in
0) ;;
1) failed=$((failed + 1)) ;;	# its "not ok" lines are above; this script fails too
*) not_ok "test-array-layout exited with status $st" ;;
esac

# ---- bad input, on the host: refused before any ioctl, the input named
err=$("$bin/hc-array" build raid0:3 md0 /dev/null /dev/null 2>&1)
st=$?
[ $st = 1 ] && grep -q "layout 'raid0:3'" <<<"$err"
check "hc-array: a chunk that is not a power of two is refused and named (exit $st)" [ $? = 0 ]
err=$("$bin/hc-array" build linear hcx /dev/null /dev/null 2>&1)
st=$?
[ $st = 1 ] && grep -q "member '/dev/null' is not a block device" <<<"$err"
check "hc-array: a member that is not a block device is refused and named (exit $st)" [ $? = 0 ]
err=$("$bin/hc-arrayload" --size 5000 linear /dev/null /mnt /dev/null /dev/null 2>&1)
st=$?
[ $st = 2 ] && grep -q -- "--size" <<<"$err"
check "hc-arrayload: a file size not in 4 KiB blocks is refused and named (exit $st)" [ $? = 0 ]
printf 'arrival_us,start_us,end_us,lba,sectors,op,cyl_distance,seek_us,rotation_us,transfer_us,queue_us\n0,0,10,0,8,read,0,0,5,5,0\n' >"$tmp/nomarker.csv"
err=$("$trace_tool" 1G "$tmp/nomarker.csv" 2>&1)
st=$?
[ $st = 1 ] && grep -q "nomarker.csv': no marker 1" <<<"$err"
check "hc-arraytrace: a trace without the phase markers is refused and named (exit $st)" [ $? = 0 ]

# ---- the guest
opts="--files $FILES --size ${SIZE_MIB}M --rand 50 --seed 1"
hdd() { echo "1G,time-scale=0,trace=$tmp/trace$1.csv"; }
guest_run "arrays-check: the guest" "$tmp" patched --kernel "$kernel" --timeout 600 \
	--hdd "$(hdd 0)" --hdd "$(hdd 1)" --hdd "$(hdd 2)" --hdd "$(hdd 3)" \
	--initrd-extra "$build/arrays/root" -- "
	sh /tests/arrays/guest-arrays.sh raid0 raid0:512 '$opts' /dev/vda /dev/vdb &&
	sh /tests/arrays/guest-arrays.sh linear linear '$opts' /dev/vdc /dev/vdd" 2>"$tmp/guest-run.err"
st=$?
check "guest: RAID0 and dm-linear built, ext4 made, files written and read (exit $st, accel $(sed -n 's/^accel=//p' "$tmp/vm.env"))" [ $st = 0 ]
[ $st = 0 ] || sed 's/^/#   /' "$tmp/guest-run.err"

# q FILE NEED PROGRAM: awk over a CSV read by column name (bench/measures/csv.awk)
q() { awk -F, -v need="$2" "$CSV_AWK"'
	function v(name) { return $C[name] }
	'"$3" "$1"; }

total=$((FILES * SIZE_MIB * 1048576))
for tag in raid0 linear; do
	case $tag in raid0) traces="$tmp/trace0.csv $tmp/trace1.csv" ;; *) traces="$tmp/trace2.csv $tmp/trace3.csv" ;; esac
	if [ ! -s "$tmp/$tag-fiemap.csv" ]; then
		not_ok "$tag: hc-arrayload's output came back"
		continue
	fi
	sed 's/^/#   /' "$tmp/$tag-array.txt"
	grep -qx 'rotational=1' "$tmp/$tag-array.txt"
	check "$tag: the array is rotational (md/dm pass the members' flag on)" [ $? = 0 ]
	honoured=$(q "$tmp/$tag-counters.csv" "counter before after" '$C["counter"] == "hint_honoured" { print v("after") - v("before") }')
	dropped=$(q "$tmp/$tag-counters.csv" "counter before after" '$C["counter"] != "hint_honoured" && $C["counter"] ~ /^hint_(spilled|dropped_nonrot|fallback)$/ { s += v("after") - v("before") } END { print s + 0 }')
	is "$tag: every hinted create honoured (hint_honoured delta)" "$honoured" $((2 * FILES))
	is "$tag: no hint spilled, dropped as non-rotational or fallen back" "$dropped" 0

	if ! "$trace_tool" 1G $traces >"$tmp/$tag-trace.csv" 2>"$tmp/$tag-trace.err"; then
		not_ok "$tag: hc-arraytrace read the members' traces ($(head -c 300 "$tmp/$tag-trace.err"))"
		continue
	fi
	ok "$tag: hc-arraytrace found every phase in both members' traces"
	q "$tmp/$tag-trace.csv" "member class phase bytes bytes_t0 bytes_t1 bytes_t2 svc_p50_us" \
		'v("phase") == "seq" { printf "#   trace %-5s member %-3s thirds (MiB) %6.1f %6.1f %6.1f\n", v("class"), v("member"), v("bytes_t0") / 1048576, v("bytes_t1") / 1048576, v("bytes_t2") / 1048576 }
		 v("phase") == "rand" && v("member") == "all" { printf "#   random 4 KiB reads, %s: service p50 %.1f ms (disk model)\n", v("class"), v("svc_p50_us") / 1000 }'
	w=$(q "$tmp/$tag-trace.csv" "writes" '{ s += v("writes") } END { print s + 0 }')
	is "$tag: no writes reach the members during the read phases" "$w" 0
	bad=$(q "$tmp/$tag-trace.csv" "member class phase bytes" 'v("member") == "all" && v("phase") == "seq" && v("bytes") != '$total' { printf "%s %s; ", v("class"), v("bytes") }')
	is "$tag: each class's sequential phase read its $((total / 1048576)) MiB, no more" "$bad" ""
	# trace vs FIEMAP: the same bytes on the same member and third
	diff <(q "$tmp/$tag-trace.csv" "member class phase bytes_t0 bytes_t1 bytes_t2" 'v("phase") == "seq" && v("member") != "all" { print v("class"), v("member"), v("bytes_t0"), v("bytes_t1"), v("bytes_t2") }' | sort) \
		<(q "$tmp/$tag-fiemap.csv" "class member bytes_t0 bytes_t1 bytes_t2" '{ print v("class"), v("member"), v("bytes_t0"), v("bytes_t1"), v("bytes_t2") }' | sort) >"$tmp/$tag-agree.diff"
	check "$tag: the members' traces and FIEMAP through the layout agree, per class, member and third" [ $? = 0 ]
	[ -s "$tmp/$tag-agree.diff" ] && sed 's/^/#   /' "$tmp/$tag-agree.diff"

	# where[CLASS MEMBER] = "t0 t1 t2" bytes, from the trace
	where() { q "$tmp/$tag-trace.csv" "member class phase bytes_t0 bytes_t1 bytes_t2" \
		'v("phase") == "seq" && v("class") == "'"$1"'" && v("member") == "'"$2"'" { print v("bytes_t0"), v("bytes_t1"), v("bytes_t2") }'; }
	if [ $tag = raid0 ]; then
		ok=1
		for m in 0 1; do
			read -r a b c <<<"$(where hot $m)"
			[ "${a:-0}" -gt 0 ] && [ "$b" = 0 ] && [ "$c" = 0 ] || ok=0
		done
		check "raid0: hot data on both members, all of it in each member's first third" [ $ok = 1 ]
		ok=1
		for m in 0 1; do
			read -r a b c <<<"$(where cold $m)"
			[ "$a" = 0 ] && [ "$b" = 0 ] && [ "${c:-0}" -gt 0 ] || ok=0
		done
		check "raid0: cold data on both members, all of it in each member's last third" [ $ok = 1 ]
	else
		read -r a b c <<<"$(where hot 0)"
		read -r d e f <<<"$(where hot 1)"
		[ "$c" = 0 ] && [ $((a + b)) = $total ] && [ "$d$e$f" = 000 ]
		check "linear: hot data only on member 0, in its first two thirds (the array's first third)" [ $? = 0 ]
		read -r a b c <<<"$(where cold 0)"
		read -r d e f <<<"$(where cold 1)"
		[ "$a$b$c" = 000 ] && [ "$f" = $total ]
		check "linear: cold data only on member 1, all of it in its last third (the inner end)" [ $? = 0 ]
	fi
done
tap_done
