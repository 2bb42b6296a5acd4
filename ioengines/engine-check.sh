#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# engine-check.sh - host tests of the hotcold fio engine.
#
# Runs the engine on the host's filesystem (whatever it is), so it checks
# what the host can show: options and help, files created by the engine
# (not by fio's layout) with the flags it logs, the "not honoured" note on
# a kernel without O_HOT/O_COLD, the seek log's arithmetic, and bad input
# (unknown hotness, unwritable log, non-ext4, no readable superblock).
# Block-group placement under a patched kernel is the guest's job
# (engine-guest-check.sh).
#
# Usage: FIO=.../fio ENGINE=.../hotcold.so BENCH=.../bench WORKDIR=dir sh engine-check.sh
# Prints TAP lines; exits 1 if any test failed.
set -u

: "${FIO:?set FIO to the fio binary}"
: "${ENGINE:?set ENGINE to hotcold.so}"
: "${BENCH:?set BENCH to the bench/ directory (csv.awk in measures/, the example jobs in jobs/)}"
: "${WORKDIR:?set WORKDIR to a scratch directory}"

. "$(dirname "$0")/../vm/lib/tap.sh"

runfio() {	# runfio OUTFILE args...: fio with a bound on its time
	out=$1
	shift
	timeout 300 "$FIO" "$@" >"$out" 2>&1
}

rm -rf "$WORKDIR"
mkdir -p "$WORKDIR/fs" || exit 1
W=$WORKDIR
E="--ioengine=external:$ENGINE"

# 1-3: the engine's options and their help, through fio's --enghelp
# (fio 3.33's --enghelp takes the .so path without "external:")
"$FIO" --enghelp="$ENGINE" >"$W/enghelp.txt" 2>&1
rc=$?
check "fio --enghelp=$ENGINE exits 0" [ $rc -eq 0 ]
missing=""
for o in hotness mode placement_log seek_log fs_dev hint_check; do
	grep -Eq "^$o +: [A-Za-z].{10,}" "$W/enghelp.txt" || missing="$missing $o"
done
check "enghelp lists every option with help text${missing:+ (missing:$missing)}" [ -z "$missing" ]
"$FIO" --enghelp="$ENGINE,hotness" >"$W/enghelp-hotness.txt" 2>&1
check "enghelp hotness lists hot, cold, none with default none" \
	sh -c "grep -q 'default: none' '$W/enghelp-hotness.txt' &&
	       grep -Eq 'valid values: hot ' '$W/enghelp-hotness.txt' &&
	       grep -Eq ': cold ' '$W/enghelp-hotness.txt' && grep -Eq ': none ' '$W/enghelp-hotness.txt'"

# which filesystem are we on, and does this kernel know the flags?
devname=$(sed -n 's/^DEVNAME=//p' "/sys/dev/block/$(stat -c '%Hd:%Ld' "$W/fs" 2>/dev/null)/uevent" 2>/dev/null)
fstype=$(stat -f -c %t "$W/fs")
kernel_knows=no
[ -n "$devname" ] && [ -e "/sys/fs/ext4/$devname/hint_honoured" ] && kernel_knows=yes
echo "# host fs magic 0x$fstype dev ${devname:-?}; kernel knows O_HOT/O_COLD: $kernel_knows"

# 4-11: a hot read job (fio would lay the files out itself: the engine must)
rm -f "$W/p.csv" "$W/s.csv"
runfio "$W/hot.txt" --name=hostjob $E --hotness=hot --rw=randread --bs=4k \
	--size=6m --nrfiles=3 --iodepth=4 --io_size=1m --directory="$W/fs" \
	--placement_log="$W/p.csv" --seek_log="$W/s.csv"
rc=$?
check "hot randread job on the host fs exits 0" [ $rc -eq 0 ]
check "fio did not lay out the files itself (no 'Laying out IO file')" \
	sh -c "! grep -q 'Laying out IO file' '$W/hot.txt'"
sizes_ok=yes
for i in 0 1 2; do
	[ "$(stat -c %s "$W/fs/hostjob.0.$i" 2>/dev/null)" = 2097152 ] || sizes_ok=no
done
check "engine created and wrote the 3 files to 2 MiB each" [ $sizes_ok = yes ]
check "placement_log has one row per file and a summary row" \
	sh -c "[ \$(grep -c '^file,hostjob,' '$W/p.csv') -eq 3 ] && [ \$(grep -c '^summary,hostjob,' '$W/p.csv') -eq 1 ]"
if [ $kernel_knows = yes ]; then
	want_flags="O_WRONLY|O_CREAT|O_EXCL|O_CLOEXEC|O_HOT"
	want_hex=0x080800c1
else
	want_flags="O_WRONLY|O_CREAT|O_EXCL|O_CLOEXEC"
	want_hex=0x000800c1
fi
check "every creation logged with flags $want_flags ($want_hex), created=1" \
	sh -c "[ \$(awk -F, '\$1==\"file\" && \$5==1 && \$6==\"openat2\" && \$7==\"$want_hex\" && \$8==\"$want_flags\"' '$W/p.csv' | wc -l) -eq 3 ]"
if [ $kernel_knows = no ]; then
	check "kernel without O_HOT: 'placement: kernel does not support O_HOT/O_COLD; hints not honoured'" \
		grep -q '^placement: kernel does not support O_HOT/O_COLD; hints not honoured' "$W/hot.txt"
	check "kernel without O_HOT: outcome 'unsupported' in every row" \
		sh -c "[ \$(awk -F, '\$1==\"file\" && \$9==\"unsupported\"' '$W/p.csv' | wc -l) -eq 3 ]"
else
	check "kernel with O_HOT: no 'does not support' note" \
		sh -c "! grep -q 'does not support O_HOT' '$W/hot.txt'"
	check "kernel with O_HOT: every row has a counter outcome" \
		sh -c "[ \$(awk -F, '\$1==\"file\" && \$9 ~ /^(honoured|dropped_nonrot|dropped_noperm|fallback)\$/' '$W/p.csv' | wc -l) -eq 3 ]"
fi
check "seek_log has one row per I/O (256 = 1 MiB / 4 KiB)" \
	sh -c "[ \$(grep -c '^hostjob,' '$W/s.csv') -eq 256 ]"
if [ "$fstype" = ef53 ]; then
	# distance = |lba - (previous lba + previous len / 512)|, recomputed here
	bad=$(awk -F, '$1=="hostjob" {
		if ($7 == "") { nolba++; next }
		if (have) { d = $7 - pend; if (d < 0) d = -d; if ($8 != d) bad++ }
		pend = $7 + $6 / 512; have = 1
	} END { print bad + nolba + 0 }' "$W/s.csv")
	check "ext4 host: every I/O has an LBA and seek = |lba - prev end| ($bad bad)" [ "$bad" = 0 ]
else
	skip "seek arithmetic" "needs FIEMAP on ext4; host fs magic 0x$fstype"
fi
check "seek summary printed with mean, median, p50 p90 p99" \
	grep -Eq 'hotcold: hostjob:   seek sectors: mean [0-9.]+ median [0-9.]+ p50 [0-9]+ p90 [0-9]+ p99 [0-9]+' "$W/hot.txt"
check "no latency summary of its own: fio's clat is the latency (see below)" \
	sh -c "! grep -q 'completion latency' '$W/hot.txt'"

# 14-15: existing files are used as they are, and logged as not created
rm -f "$W/p.csv"
runfio "$W/again.txt" --name=hostjob $E --hotness=hot --rw=randread --bs=4k \
	--size=6m --nrfiles=3 --io_size=256k --directory="$W/fs" --placement_log="$W/p.csv"
rc=$?
check "second run over existing files exits 0" [ $rc -eq 0 ]
check "existing files logged created=0, outcome reused" \
	sh -c "[ \$(awk -F, '\$1==\"file\" && \$5==0 && \$9==\"reused\"' '$W/p.csv' | wc -l) -eq 3 ]"

# 16-17: sync mode
rm -f "$W/s.csv"
runfio "$W/sync.txt" --name=syncjob $E --mode=sync --hotness=cold --rw=randwrite \
	--bs=4k --size=2m --io_size=512k --directory="$W/fs" --seek_log="$W/s.csv"
rc=$?
check "mode=sync randwrite job exits 0" [ $rc -eq 0 ]
check "mode=sync: 128 seek rows, each with a latency" \
	sh -c "[ \$(awk -F, '\$1==\"syncjob\" && \$9 != \"\"' '$W/s.csv' | wc -l) -eq 128 ]"

# fio's own latency is the engine's: the engine sets io_u->issue_time
# (FIO_ASYNCIO_SETS_ISSUE_TIME) before the system call in both modes, so
# fio's clat mean is the seek log's lat_ns mean (not the ~0 of a request
# timed after ->queue already did it)
for m in sync libaio; do
	rm -f "$W/l.csv"
	runfio "$W/lat-$m.txt" --name=latjob $E --mode=$m --rw=randread --bs=4k --size=2m \
		--io_size=1m --directory="$W/fs" --seek_log="$W/l.csv" --output-format=json
	rc=$?
	fio_ns=$(awk '/^\{/ { j = 1 } j' "$W/lat-$m.txt" | jq -r '.jobs[0].read.clat_ns.mean' 2>/dev/null)
	eng_ns=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["lat_ns"] != "" { s += $c["lat_ns"]; n++ } END { if (n) printf "%.0f", s / n }' "$W/l.csv" 2>/dev/null)
	check "mode=$m: fio's clat mean (${fio_ns:-none} ns) is the engine's latency (${eng_ns:-none} ns) within 2x" \
		awk -v a="$fio_ns" -v b="$eng_ns" -v rc=$rc 'BEGIN { exit !(rc == 0 && a > 0 && b > 0 && a / b > 0.5 && a / b < 2) }'
done

# 18-19: hint_check=1 fails the job when the hint is not honoured
if [ $kernel_knows = no ]; then
	runfio "$W/hintcheck.txt" --name=hc $E --hotness=cold --hint_check=1 \
		--rw=read --size=1m --directory="$W/fs"
	rc=$?
	check "hint_check=1 on a kernel without O_COLD: non-zero exit ($rc), no crash" \
		[ $rc -ne 0 -a $rc -lt 128 ]
	check "hint_check=1 names the reason" \
		grep -q 'hint_check=1 and the cold hint was not honoured: kernel does not support' "$W/hintcheck.txt"
	check "hint_check=1 removes the file it could not create with the hint" \
		[ ! -e "$W/fs/hc.0.0" ]
else
	skip "hint_check failure path" "needs a kernel without O_HOT/O_COLD"
fi

# 20-23: bad input
runfio "$W/badhot.txt" --name=bad $E --hotness=warm --size=1m --directory="$W/fs"
rc=$?
check "hotness=warm: non-zero exit ($rc), no crash" [ $rc -ne 0 -a $rc -lt 128 ]
check "hotness=warm: fio names the bad value and lists hot/cold/none" \
	sh -c "grep -q 'failed parsing hotness=warm' '$W/badhot.txt' && grep -q 'valid values: hot' '$W/badhot.txt'"
runfio "$W/badmode.txt" --name=bad $E --mode=posix --size=1m --directory="$W/fs"
rc=$?
check "mode=posix: non-zero exit and 'failed parsing mode=posix'" \
	sh -c "[ $rc -ne 0 ] && [ $rc -lt 128 ] && grep -q 'failed parsing mode=posix' '$W/badmode.txt'"
runfio "$W/badlog.txt" --name=bad $E --size=1m --directory="$W/fs" \
	--placement_log="$W/no/such/dir/p.csv"
rc=$?
check "unwritable placement_log: non-zero exit ($rc), message names option and path" \
	sh -c "[ $rc -ne 0 ] && [ $rc -lt 128 ] && grep -q 'cannot open placement_log=$W/no/such/dir/p.csv' '$W/badlog.txt'"
runfio "$W/badseek.txt" --name=bad $E --size=1m --directory="$W/fs" \
	--seek_log="$W"
rc=$?
check "seek_log naming a directory: non-zero exit, message names it" \
	sh -c "[ $rc -ne 0 ] && [ $rc -lt 128 ] && grep -q 'cannot open seek_log=$W: Is a directory' '$W/badseek.txt'"

# 25-27: a filesystem that is not ext4 (tmpfs in /dev/shm if there is one)
shm=""
if [ -d /dev/shm ] && [ "$(stat -f -c %t /dev/shm)" != ef53 ]; then
	shm=$(mktemp -d /dev/shm/hotcold-check.XXXXXX)
fi
if [ -n "$shm" ]; then
	rm -f "$W/p.csv"
	runfio "$W/tmpfs.txt" --name=tmpfsjob $E --hotness=hot --rw=randread --bs=4k \
		--size=1m --io_size=64k --directory="$shm" --placement_log="$W/p.csv"
	rc=$?
	rm -rf "$shm"
	check "non-ext4 (tmpfs) job exits 0" [ $rc -eq 0 ]
	check "non-ext4: clear note 'not ext4 (statfs magic 0x...)'" \
		grep -q 'not ext4 (statfs magic 0x' "$W/tmpfs.txt"
	check "non-ext4: seek summary says n/a instead of zeros" \
		grep -q 'tmpfsjob:   seek sectors: n/a' "$W/tmpfs.txt"
	check "non-ext4: placement row has no group numbers, note instead" \
		sh -c "awk -F, '\$1==\"file\" && \$14==\"\" && \$27 ~ /not ext4/' '$W/p.csv' | grep -q ."
else
	skip "non-ext4 tests" "no non-ext4 /dev/shm on this host"
fi

# 28-31: fs_dev= override: the superblock comes from the named device/image
if [ "$fstype" = ef53 ] && command -v mke2fs >/dev/null; then
	printf 'this is not a filesystem\n' >"$W/garbage.img"
	truncate -s 4M "$W/garbage.img"
	rm -f "$W/p.csv"
	runfio "$W/garbage.txt" --name=gjob $E --rw=read --size=1m --io_size=64k \
		--directory="$W/fs" --fs_dev="$W/garbage.img" --placement_log="$W/p.csv"
	rc=$?
	check "fs_dev=non-ext4 image: exit 0 and note 'no ext4 superblock magic'" \
		sh -c "[ $rc -eq 0 ] && grep -q 'garbage.img: no ext4 superblock magic' '$W/garbage.txt' &&
		       awk -F, '\$1==\"file\" && \$14==\"\"' '$W/p.csv' | grep -q ."

	# the note is one quoted CSV field (RFC 4180): a comma and a quote in
	# it (here from the fs_dev= path) stay in it, for bench/measures/csv.awk too
	q="$W/gar,bage \"q\".img"
	cp "$W/garbage.img" "$q"
	rm -f "$W/p.csv"
	runfio "$W/garbage-q.txt" --name=qjob $E --rw=read --size=1m --io_size=64k \
		--directory="$W/fs" --fs_dev="$q" --placement_log="$W/p.csv"
	rc=$?
	note=$(awk -F, -v need="kind note" "$(cat "$BENCH/measures/csv.awk")"'
		$C["kind"] == "file" { print $C["note"] } END { if (csv_bad) exit 2 }' "$W/p.csv")
	check "placement log: a note with a comma and a quote is written quoted, the quote doubled" \
		grep -qF ",\"$W/gar,bage \"\"q\"\".img: no ext4 superblock magic (0xEF53) at offset 1024\"" "$W/p.csv"
	check "placement log: csv.awk reads that note back whole ($rc)" \
		[ "$rc:$note" = "0:$q: no ext4 superblock magic (0xEF53) at offset 1024" ]
	rm -f "$q"

	# ext4 images made here (never mounted).  One as large as the host's
	# device: its geometry stands in for the host fs's superblock, which
	# a sandbox may not let us read; group numbers refer to the image.
	devsize=$(( $(cat "/sys/dev/block/$(stat -c '%Hd:%Ld' "$W/fs")/size") * 512 ))
	truncate -s "$devsize" "$W/ext4.img"
	timeout 120 mke2fs -q -F -t ext4 -b 4096 -E lazy_itable_init=1,lazy_journal_init=1 \
		"$W/ext4.img" >/dev/null 2>&1
	ngroups=$(timeout 60 dumpe2fs "$W/ext4.img" 2>/dev/null | grep -c '^Group [0-9]')
	rm -f "$W/p.csv"
	runfio "$W/img.txt" --name=ijob $E --rw=read --size=1m --io_size=64k \
		--directory="$W/fs" --fs_dev="$W/ext4.img" --placement_log="$W/p.csv"
	rc=$?
	check "fs_dev=ext4 image ($ngroups groups): placement uses its ngroups" \
		sh -c "[ $rc -eq 0 ] && [ $ngroups -gt 0 ] && awk -F, '\$1==\"file\" && \$14==$ngroups' '$W/p.csv' | grep -q ."
	check "fs_dev=ext4 image: bytes per third add up to the file size, one third named" \
		sh -c "awk -F, '\$1==\"file\" && \$18+\$19+\$20==\$10 && \$10==1048576 && \$24 ~ /^(first|middle|last)\$/' '$W/p.csv' | grep -q ."
	check "fs_dev=ext4 image: inode group = (inode-1)/inodes_per_group of the image" \
		sh -c "ipg=\$(dumpe2fs -h '$W/ext4.img' 2>/dev/null | sed -n 's/^Inodes per group: *//p');
		       awk -F, -v ipg=\$ipg '\$1==\"file\" && \$12==int((\$11-1)/ipg)' '$W/p.csv' | grep -q ."

	timeout 60 mke2fs -q -F -t ext4 -b 4096 "$W/ext4-small.img" 64M >/dev/null 2>&1
	runfio "$W/imgsmall.txt" --name=sjob $E --rw=read --size=1m --io_size=64k \
		--directory="$W/fs" --fs_dev="$W/ext4-small.img"
	rc=$?
	check "fs_dev= a smaller fs: note 'beyond the end of the filesystem', no numbers" \
		sh -c "[ $rc -eq 0 ] && grep -q 'beyond the end of the filesystem' '$W/imgsmall.txt' && grep -q 'sjob: hotness=none: 1 files (1 created by the engine), 0 placed' '$W/imgsmall.txt'"

	timeout 60 mke2fs -q -F -t ext4 -b 1024 "$W/ext4-1k.img" 64M >/dev/null 2>&1
	runfio "$W/img1k.txt" --name=kjob $E --rw=read --size=1m --io_size=64k \
		--directory="$W/fs" --fs_dev="$W/ext4-1k.img"
	rc=$?
	check "fs_dev= pointing at a different fs (1k blocks): note 'is not the mounted fs', no numbers" \
		sh -c "[ $rc -eq 0 ] && grep -q 'is not the mounted fs' '$W/img1k.txt' && grep -q 'kjob: hotness=none: 1 files (1 created by the engine), 0 placed' '$W/img1k.txt'"
	rm -f "$W/ext4.img" "$W/ext4-small.img" "$W/ext4-1k.img" "$W/garbage.img"
else
	skip "fs_dev tests" "need an ext4 host fs and mke2fs"
fi

# 32: the example job files parse (engine loaded through ${HOTCOLD_ENGINE})
bad=""
for j in "$BENCH"/jobs/example-*.fio; do
	HOTCOLD_ENGINE=$ENGINE timeout 60 "$FIO" --parse-only "$j" >"$W/parse.txt" 2>&1 ||
		bad="$bad $(basename "$j")"
done
check "bench/jobs/example-*.fio parse with HOTCOLD_ENGINE set${bad:+ (failed:$bad)}" [ -z "$bad" ]

# the engine must never have crashed in any run
crash=$(grep -l -E 'Segmentation fault|signal 11|core dumped|Aborted' "$W"/*.txt 2>/dev/null)
check "no run crashed${crash:+ ($crash)}" [ -z "$crash" ]

rm -rf "$W/fs"
tap_done
