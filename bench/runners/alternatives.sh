#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Issue 26: O_HOT at create against the alternatives, on one aged image, one
# seed and one request sequence (make alternatives).  Arms:
#   a  stock kernel, no hints (doing nothing)
#   b  stock kernel, a fast partition: the same disk split, an ext4 on its
#      outer third for the hot set and one on the rest (both aged the same)
#   c  patched kernel, O_HOT at create for the hot set
#   d  patched kernel, half wrong: every other file of the hot set (by rank)
#      keeps its hot hint, the others' hints go to as many of the least
#      read files
#   e  patched kernel, no hints, hc-track moving the files read most
#   f  d plus hc-track (it may demote the wrongly hinted: --scan)
#   g  patched kernel, write-lifetime hints, no O_HOT/O_COLD: every file
#      outside the hot set (the unpopular ones) gets fcntl(F_SET_RW_HINT,
#      RWH_WRITE_LIFE_EXTREME) right after its create, before it is
#      written (LIST's lifetime column, hc-mkfiles), which the series'
#      write-hint patch turns into O_COLD's placement (write_hint_cold)
#
# Steps: the pilot (bench/jobs/alternatives.fio through fio's null engine on the
# host: the files' sizes and every read's file, so the hot set is known
# before any guest runs), the images (hc-age on a plain disk: one ext4, and
# the split disk's two; cached in build/alternatives-images/), then RUNS
# rounds of the arms, one guest at a time, each on the image under the disk
# model's copy-on-write overlay with its trace; each run's seek log joined
# with the trace (hc-tracejoin); then bench/measures/summarise-alternatives.sh,
# plots/alternatives.gp and bench/results-alternatives.sh.
#
# Usage: bench/runners/alternatives.sh [OUT]   (default build/alternatives)
# Variables (environment or make):
#   SIZE=64G        the modelled disk (development: 4G-8G)
#   RUNS=1          rounds of the arms
#   ARMS="a b c d e f g"
#   FILL=80         hc-age's target; AGED_SEED=1, AGED_CHURN=0.5
#   ZIPF_SEED=1 ZIPF_NRFILES=300 ZIPF_THETA=1.1 ZIPF_SIZE (64k-8m; 64k-2m
#                   below 16G)   the workload (bench/jobs/alternatives.fio)
#   ALT_IOS         reads per arm (default 100000; 20000 below 16G)
#   HOT_FRAC=0.15   the hot set: the most read files within this fraction of
#                   the workload's bytes (the fast partition's, O_HOT's and
#                   the tracker's --hot-bytes)
#   TRACK_INTERVAL=10 TRACK_HALF_LIFE=30 TRACK_BUDGET (default HOT bytes / 4
#                   per interval)   hc-track's options
#   WINDOW=10       seconds of the disk's clock per window
#   PROFILE=desktop7200 TIME_SCALE=1   the disk model
#   ALT_PILOT_ONLY=1  stop after the pilot and the lists (no guest)
#   ALT_IMAGES_ONLY=1 stop after the images (no stock kernel needed)
#   PAGE=FILE       the page (default: none; make alternatives writes
#                   results/alternatives/RESULTS.md)
# Exit: 0 every arm ran; 1 one failed (what finished is summarised); 2 bad input.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
out=${1:-$build/alternatives}
. "$top/bench/measures/lib.sh" && lib_init ALT bench/runners/alternatives.sh
. "$top/vm/lib/guest-run.sh"

SIZE=${SIZE:-64G} RUNS=${RUNS:-1} ARMS=${ARMS:-a b c d e f g}
FILL=${FILL:-80} AGED_SEED=${AGED_SEED:-1} AGED_CHURN=${AGED_CHURN:-0.5}
PROFILE=${PROFILE:-desktop7200} TIME_SCALE=${TIME_SCALE:-1}
BZIMAGE_PATCHED=${BZIMAGE_PATCHED:-$build/kbuild-patched/arch/x86/boot/bzImage}
BZIMAGE_STOCK=${BZIMAGE_STOCK:-$build/kbuild-stock/arch/x86/boot/bzImage}
FIO_ROOT=${FIO_ROOT:-$build/fio-guest/root}
FIO_BIN=${FIO_BIN:-$build/fio-src/tree/fio}
BTOOLS=${BTOOLS:-$build/bench-tools}
IMAGES=${ALT_IMAGES:-$build/alternatives-images}
bytes=$(numfmt --from=iec "$SIZE" 2>/dev/null) || die "SIZE='$SIZE': give a size like 4G or 64G"
[ "$bytes" -ge $((2 << 30)) ] || die "SIZE='$SIZE': at least 2G"
small=0; [ "$bytes" -lt $((16 << 30)) ] && small=1
[ $small = 1 ] && dsize=64k-2m dios=20000 || dsize=64k-8m dios=100000
export ZIPF_SEED=${ZIPF_SEED:-1} ZIPF_NRFILES=${ZIPF_NRFILES:-300} ZIPF_THETA=${ZIPF_THETA:-1.1}
export ZIPF_SIZE=${ZIPF_SIZE:-$dsize} ALT_IOS=${ALT_IOS:-$dios}
export ALT_IO_BYTES=$((ALT_IOS * 4096))
HOT_FRAC=${HOT_FRAC:-0.15} WINDOW=${WINDOW:-10}
TRACK_INTERVAL=${TRACK_INTERVAL:-10} TRACK_HALF_LIFE=${TRACK_HALF_LIFE:-30}

case $RUNS in ''|*[!0-9]*|0) die "RUNS='$RUNS': give a whole number >= 1" ;; esac
case $FILL in ''|*[!0-9]*) die "FILL='$FILL': give a percentage 1..95" ;; esac
[ "$FILL" -ge 1 ] && [ "$FILL" -le 95 ] || die "FILL='$FILL': give a percentage 1..95"
for a in $ARMS; do case $a in [a-g]) ;; *) die "ARMS: '$a' is not an arm (a b c d e f g)" ;; esac; done
for v in ZIPF_SEED ZIPF_NRFILES ALT_IOS TRACK_INTERVAL TRACK_HALF_LIFE WINDOW; do
	case ${!v} in ''|*[!0-9]*|0) die "$v='${!v}': give a whole number >= 1" ;; esac
done
awk -v f="$HOT_FRAC" 'BEGIN { exit !(f ~ /^0?\.[0-9]+$/ && f > 0 && f < 1) }' || die "HOT_FRAC='$HOT_FRAC': give a fraction between 0 and 1"
awk -v t="$ZIPF_THETA" 'BEGIN { exit !(t ~ /^[0-9]*\.?[0-9]+$/ && t > 0) }' || die "ZIPF_THETA='$ZIPF_THETA': give a number > 0"
awk -v t="$TIME_SCALE" 'BEGIN { exit !(t ~ /^[0-9]*\.?[0-9]+$/ && t <= 1000) }' || die "TIME_SCALE='$TIME_SCALE': give a number from 0 to 1000"
grep -q "^\[$PROFILE\]" "$top/vm/hdd-model/profiles.conf" || die "PROFILE='$PROFILE' is not in vm/hdd-model/profiles.conf"
[ -r "$BZIMAGE_PATCHED" ] || die "patched kernel '$BZIMAGE_PATCHED' missing: make kernel-patched"
# the stock kernel is looked for when a stock arm starts (arms a and b):
# the patched arms may run while it is still being built
[ -x "$FIO_ROOT/usr/bin/fio" ] || die "no fio in '$FIO_ROOT': make engine-guest-root"
[ -x "$FIO_BIN" ] || die "no host fio '$FIO_BIN': make engine-fio"
for t in hc-age hc-mkfiles hc-track hc-where hc-tracejoin; do [ -x "$BTOOLS/$t" ] || die "'$BTOOLS/$t' missing: make bench-tools"; done

mkdir -p "$out" && out=$(cd "$out" && pwd)
rm -rf "$out/guest-root" "$out/pilot" "$out/lists" "$out/summary" "$out/status" "$out"/arm-?
mkdir -p "$out/guest-root/tests/bench" "$out/pilot/zipf" "$out/lists" "$out/summary"
cp "$top/bench/guest/guest-alternatives.sh" "$top/bench/jobs/alternatives.fio" "$BTOOLS/hc-age" "$BTOOLS/hc-mkfiles" \
	"$BTOOLS/hc-track" "$BTOOLS/hc-where" "$out/guest-root/tests/bench/"
: >"$out/status"

# ---- the pilot: the job through fio's null engine on the host (files
# under OUT/pilot, made sparse with ftruncate): same seed, same sizes, same
# files and offsets as every guest will ask for (the summary checks it)
stage "pilot: $ALT_IOS reads over $ZIPF_NRFILES files ($ZIPF_SIZE, theta $ZIPF_THETA, seed $ZIPF_SEED), fio's null engine"
sed -e '/^ioengine=/d; /^placement_log=/d; /^seek_log=/d; /^hotness=/d; /^mode=/d; /^remap=/d; /^direct=/d' \
	"$top/bench/jobs/alternatives.fio" >"$out/pilot/pilot.fio"
( cd "$out/pilot" && HOTCOLD_MNT=$out/pilot "$FIO_BIN" --ioengine=psync --create_only=1 --fallocate=truncate pilot.fio \
	>create.out 2>&1 && HOTCOLD_MNT=$out/pilot "$FIO_BIN" --ioengine=null --write_iolog=iolog pilot.fio >null.out 2>&1 ) ||
	die "the pilot failed: $out/pilot/create.out, null.out"
# files.csv: file,size,reads,rank (rank 1 = read most; ties by name order)
{
	echo "file,size,reads,rank,hot"
	for i in $(seq 0 $((ZIPF_NRFILES - 1))); do
		echo "zipf.$i $(stat -c %s "$out/pilot/zipf/zipf.$i")"
	done | awk -v iolog="$out/pilot/iolog" 'BEGIN { while ((getline l < iolog) > 0) { n = split(l, w, " ")
			if (w[n - 2] == "read") { f = w[n - 3]; sub(/.*\//, "", f); r[f]++ } } }
		{ split($1, q, "."); print $1 "," $2 "," r[$1] + 0 "," q[2] }' |
		sort -t, -k3,3nr -k4,4n | awk -F, -v frac="$HOT_FRAC" '
		{ name[NR] = $1; sz[NR] = $2; rd[NR] = $3; tot += $2 }
		END { lim = frac * tot
			for (i = 1; i <= NR; i++) { h = (used + sz[i] <= lim && rd[i] > 0); if (h) used += sz[i]
				printf "%s,%d,%d,%d,%d\n", name[i], sz[i], rd[i], i, h } }'
} >"$out/pilot/files.csv"
rm -rf "$out/pilot/zipf"
nr=$(awk -F, 'NR > 1 { s += $3 } END { print s + 0 }' "$out/pilot/files.csv")
[ "$nr" = "$ALT_IOS" ] || die "the pilot read $nr times, not ALT_IOS=$ALT_IOS ($out/pilot/null.out)"
# the pilot's request sequence, to compare each arm's seek log with
awk '{ n = split($0, w, " ") } n >= 4 && w[n - 2] == "read" { f = w[n - 3]; sub(/.*\//, "", f); print f "," w[n - 1] }' \
	"$out/pilot/iolog" >"$out/pilot/sequence.txt"
HOT_BYTES=$(awk -F, 'NR > 1 && $5 == 1 { s += $2 } END { print s + 0 }' "$out/pilot/files.csv")
HOT_FILES=$(awk -F, 'NR > 1 && $5 == 1' "$out/pilot/files.csv" | wc -l)
[ "$HOT_FILES" -ge 2 ] || die "HOT_FRAC=$HOT_FRAC leaves $HOT_FILES file(s) in the hot set: give a larger one"
TRACK_BUDGET=${TRACK_BUDGET:-$((HOT_BYTES / 4))}
hot_reads=$(awk -F, 'NR > 1 && $5 == 1 { s += $3 } END { print s + 0 }' "$out/pilot/files.csv")
stage "pilot: hot set $HOT_FILES files, $((HOT_BYTES >> 20)) MiB of $(awk -F, 'NR > 1 { s += $2 } END { printf "%d", s / 1048576 }' "$out/pilot/files.csv") MiB, $hot_reads of $nr reads"

# ---- the file lists: "PATH SIZE HINT [LIFETIME]", zipf.0 .. N-1 in order,
# per arm
# d's hints: the hot set's files of odd rank keep theirs; for each of even
# rank, the least read file not yet hinted gets it instead
awk -F, 'NR > 1 { print $1, $2, $4, $5 }' "$out/pilot/files.csv" | sort -k3,3n >"$out/lists/ranked.txt"
nf=$(wc -l <"$out/lists/ranked.txt")
awk -v nf="$nf" '{ f[NR] = $1; h[NR] = $4 } END {
		for (i = 1; i <= nf; i++) if (h[i]) { if (i % 2) print f[i], "hot-right"; else { print f[i], "dropped"; wrong++ } }
		for (i = nf; wrong > 0; i--) if (!h[i]) { print f[i], "hot-wrong"; wrong-- } }' \
	"$out/lists/ranked.txt" >"$out/lists/half-wrong.txt"
make_list() { # arm
	local a=$1
	awk -F, -v a="$a" -v hw="$out/lists/half-wrong.txt" '
		BEGIN { while ((getline l < hw) > 0) { split(l, w, " "); d[w[1]] = w[2] } }
		NR > 1 { f = $1; s = $2; h = $5; split(f, q, "."); n = q[2] + 0
			if (a == "b") p = (h == 1 ? "/fast/zipf/" : "/mnt/zipf/") f " " s " none"
			else if (a == "c") p = "/mnt/zipf/" f " " s " " (h == 1 ? "hot" : "none")
			else if (a == "d" || a == "f") p = "/mnt/zipf/" f " " s " " (d[f] ~ /^hot-/ ? "hot" : "none")
			else if (a == "g") p = "/mnt/zipf/" f " " s " none" (h == 1 ? "" : " extreme")
			else p = "/mnt/zipf/" f " " s " none"
			line[n] = p; if (n > max) max = n }
		END { for (i = 0; i <= max; i++) if (i in line) print line[i] }' "$out/pilot/files.csv" >"$out/lists/$a.txt"
	cp "$out/lists/$a.txt" "$out/guest-root/tests/bench/list-$a.txt"
}
arm_kernel() { case $1 in a|b) echo stock ;; *) echo patched ;; esac; }
arm_layout() { case $1 in b) echo split ;; *) echo single ;; esac; }
arm_track() { # hc-track's options, or - for none
	case $1 in
	# f's --scan: the files found in the hot region at start (d's hints,
	# right and wrong) are known to be there, so the unread ones are
	# demoted; e has no hints to correct, and without --scan it leaves the
	# files the allocator happened to put there alone
	e) echo "--hot-bytes $HOT_BYTES --budget $TRACK_BUDGET --interval $TRACK_INTERVAL --half-life $TRACK_HALF_LIFE --demote none" ;;
	f) echo "--hot-bytes $HOT_BYTES --budget $TRACK_BUDGET --interval $TRACK_INTERVAL --half-life $TRACK_HALF_LIFE --demote none --scan /mnt/zipf" ;;
	*) echo - ;;
	esac
}
for a in $ARMS; do make_list "$a"; done
[ "${ALT_PILOT_ONLY:-0}" = 1 ] && { stage "pilot only (ALT_PILOT_ONLY=1): the lists are in ${out#"$top"/}/lists"; exit 0; }

# ---- the images: single (one ext4) and split (MBR: vda1 the outer third,
# vda2 the rest), aged the same way; cached by everything they depend on
mbr() { # IMG START1 SECTORS1 START2 SECTORS2: a DOS partition table, type 83
	local img=$1 e i
	le32() { printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)); }
	e=""
	for i in 1 2; do
		local s n
		[ $i = 1 ] && s=$2 n=$3 || s=$4 n=$5
		e="$e\\x00\\xfe\\xff\\xff\\x83\\xfe\\xff\\xff$(le32 "$s")$(le32 "$n")"
	done
	printf "$e" | dd of="$img" bs=1 seek=446 conv=notrunc status=none
	printf '\x55\xaa' | dd of="$img" bs=1 seek=510 conv=notrunc status=none
}
image() { # LAYOUT: the image's folder on stdout
	local layout=$1 key dir rc t0 secs p1 s1
	key=$({ sha256sum "$BTOOLS/hc-age" "$top/bench/guest/guest-alternatives.sh" "$BZIMAGE_PATCHED" | cut -d' ' -f1
		echo "$layout $FILL $AGED_SEED $AGED_CHURN $SIZE"; } | sha256sum | cut -c1-16)
	dir=$IMAGES/$layout-$FILL-$key
	if [ -f "$dir/ok" ]; then stage "image $layout: cached (${dir#"$top"/})" >&2; echo "$dir"; return 0; fi
	rm -rf "$dir" && mkdir -p "$dir"
	truncate -s "$SIZE" "$dir/disk.img.tmp" || return 1
	if [ "$layout" = split ]; then
		secs=$((bytes / 512)) p1=2048
		s1=$(((secs / 3) / 2048 * 2048 - p1))
		mbr "$dir/disk.img.tmp" $p1 $s1 $((p1 + s1)) $((secs - p1 - s1))
	fi
	t0=$(date +%s)
	stage "image $layout: ageing to $FILL% (seed $AGED_SEED, churn $AGED_CHURN) into ${dir#"$top"/}" >&2
	GUEST_NICE=10 guest_run "bench/runners/alternatives.sh: ageing the $layout image" "$dir" patched \
		--kernel "$BZIMAGE_PATCHED" --timeout "${AGED_TIMEOUT:-7200}" --disk "file:$dir/disk.img.tmp" \
		--initrd-extra "$FIO_ROOT" --initrd-extra "$out/guest-root" \
		-- "sh /tests/bench/guest-alternatives.sh age $layout $FILL $AGED_SEED $AGED_CHURN" || return 1
	if grep -q '_fsck_rc=[^0]' "$dir/env.txt" 2>/dev/null || ! grep -q '_fsck_rc=0' "$dir/env.txt" 2>/dev/null; then
		echo "bench/runners/alternatives.sh: ageing the $layout image: e2fsck -fn found errors ($(grep '_fsck_rc=' "$dir/env.txt" 2>/dev/null | tr '\n' ' '); ${dir#"$top"/}/fsck*.txt)" >&2
		return 1
	fi
	mv "$dir/disk.img.tmp" "$dir/disk.img"
	touch "$dir/ok"
	stage "image $layout: made in $(($(date +%s) - t0)) s" >&2
	echo "$dir"
}
declare -A img
for l in $(for a in $ARMS; do arm_layout "$a"; done | sort -u); do
	img[$l]=$(image "$l") || die "no $l image"
done
[ "${ALT_IMAGES_ONLY:-0}" = 1 ] && { stage "images only (ALT_IMAGES_ONLY=1)"; exit 0; }

# ---- the arms
{
	echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "command=${ALT_COMMAND:-bench/alternatives.sh $out}"
	echo "commit=$(git -C "$top" rev-parse --short HEAD 2>/dev/null)$(git -C "$top" diff --quiet HEAD 2>/dev/null || echo '+dirty')"
	for v in SIZE RUNS ARMS FILL AGED_SEED AGED_CHURN PROFILE TIME_SCALE ZIPF_SEED ZIPF_NRFILES ZIPF_THETA ZIPF_SIZE ALT_IOS \
		HOT_FRAC HOT_BYTES HOT_FILES TRACK_INTERVAL TRACK_HALF_LIFE TRACK_BUDGET WINDOW; do echo "$v=${!v}"; done
	for a in $ARMS; do echo "track_$a=$(arm_track "$a")"; done
	echo "host_load=$(cut -d' ' -f1-3 /proc/loadavg)"
} >"$out/run-env.txt"
failed=0
run_arm() { # arm run
	local a=$1 r=$2 dir=$out/arm-$1/run$2 k rc
	rm -rf "$dir" && mkdir -p "$dir"
	k=$(arm_kernel "$a")
	stage "arm $a run $r/$RUNS: $k kernel, $(arm_layout "$a") image, tracker $( [ "$(arm_track "$a")" = - ] && echo off || echo on)"
	[ "$k" = stock ] && k=$BZIMAGE_STOCK || k=$BZIMAGE_PATCHED
	if [ ! -r "$k" ]; then
		echo "bench/runners/alternatives.sh: arm $a: kernel '$k' missing (make kernel-stock)" >&2
		echo "$a $r FAIL no-kernel" >>"$out/status"; failed=1; return 1
	fi
	GUEST_NICE=10 guest_run "bench/runners/alternatives.sh: arm $a run $r" "$dir" "$(arm_kernel "$a")" \
		--kernel "$k" --timeout "${VM_TIMEOUT:-5400}" \
		--hdd "$SIZE,profile=$PROFILE,time-scale=$TIME_SCALE,trace=$dir/trace.csv,base=${img[$(arm_layout "$a")]}/disk.img" \
		--initrd-extra "$FIO_ROOT" --initrd-extra "$out/guest-root" \
		-- "ZIPF_SEED=$ZIPF_SEED ZIPF_NRFILES=$ZIPF_NRFILES ZIPF_THETA=$ZIPF_THETA ZIPF_SIZE=$ZIPF_SIZE ALT_IOS=$ALT_IOS ALT_IO_BYTES=$ALT_IO_BYTES sh /tests/bench/guest-alternatives.sh run $a /tests/bench/list-$a.txt '$(arm_track "$a")'"
	rc=$?
	if [ $rc != 0 ]; then
		echo "$a $r FAIL status=$rc" >>"$out/status"; failed=1; return 1
	fi
	if grep -q '_fsck_rc=[^0]' "$dir/env.txt"; then
		echo "bench/runners/alternatives.sh: arm $a run $r: e2fsck -fn found errors after the run ($(grep '_fsck_rc=' "$dir/env.txt" | tr '\n' ' '))" >&2
		echo "$a $r FAIL fsck" >>"$out/status"; failed=1; return 1
	fi
	# a split arm's LBAs are its partition's: make them the disk's
	if [ "$(arm_layout "$a")" = split ]; then
		awk -F, -v s1="$(sed -n 's/^vda1_start=//p' "$dir/env.txt")" -v s2="$(sed -n 's/^vda2_start=//p' "$dir/env.txt")" \
			-v list="$out/lists/$a.txt" 'BEGIN { while ((getline l < list) > 0) { split(l, w, " "); f = w[1]; sub(/.*\//, "", f); fast[f] = (w[1] ~ /^\/fast\//) } }
			NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
			{ f = $c["file"]; sub(/.*\//, "", f); if ($c["lba"] != "") $c["lba"] += fast[f] ? s1 : s2; print }' OFS=, \
			"$dir/seek.csv" >"$dir/seek-disk.csv"
	else
		cp "$dir/seek.csv" "$dir/seek-disk.csv"
	fi
	if ! "$BTOOLS/hc-tracejoin" --min-match 0.9 --out "$dir/join.csv" --summary "$dir/join-summary.csv" \
		"$dir/trace.csv" "$dir/seek-disk.csv" >"$dir/join.out" 2>"$dir/join.err"; then
		echo "bench/runners/alternatives.sh: arm $a run $r: the trace does not account for the reads (see $dir/join.err)" >&2
		echo "$a $r FAIL trace-join" >>"$out/status"; failed=1; return 1
	fi
	echo "$a $r ok" >>"$out/status"
}
for r in $(seq 1 "$RUNS"); do
	for a in $ARMS; do run_arm "$a" "$r"; done
done

stage "summarise"
"$top/bench/measures/summarise-alternatives.sh" "$out" || failed=1
if command -v gnuplot >/dev/null; then
	gnuplot -e "set loadpath '$top/plots'" -e "dir='$out/summary'" -e "disk='$SIZE'" -e "fill='$FILL'" "$top/plots/alternatives.gp" 2>"$out/summary/gnuplot.err" || { cat "$out/summary/gnuplot.err" >&2; failed=1; }
fi
if [ -n "${PAGE:-}" ]; then
	"$top/bench/measures/results-alternatives.sh" "$out" "$PAGE" || failed=1
	stage "page: ${PAGE#"$top"/}"
fi
stage "done$([ $failed = 1 ] && echo ', with failures (see above)')"
exit $failed
