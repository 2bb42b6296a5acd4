#!/bin/bash
# The benchmark pipeline (make bench-run): boot a guest per scenario and
# run, on the modelled spinning disk (vm/runner/run --hdd), a job file of bench/
# with fio and the hotcold engine; bring back fio's JSON, the engine's
# placement/seek logs and the disk model's trace into OUT/<scenario>/runN/;
# summarise (bench/summarise.sh), plot (plots/*.gp) and write RESULTS.md
# (bench/results.sh).
#
# Usage: bench/run.sh [OUT]   (default build/bench)
# Variables (environment or make):
#   QUICK=1        small sizes, fewer scenarios (aim: a few minutes)
#   PROFILE=NAME   drive profile of vm/hdd-model/profiles.conf (default desktop7200)
#   RUNS=N         repetitions per scenario (default 3; QUICK: 1)
#   SCENARIO=NAMES run only these scenarios (space-separated; a name or a
#                  prefix: aged, aged-80, ...)
#   TIME_SCALE=F   the disk model's time-scale (default 1)
#   RESULTS=FILE   where to write RESULTS.md (default the repo's); a page of
#                  a run of its own goes to results/NAME/RESULTS.md (its
#                  figures next to it), and the repo's page links it
#   RESULTS_TITLE=T the page's title (default "Results")
#   JOB_DIR=DIR    take the job files from DIR (default bench/)
#   SCENARIOS=FILE the scenario table (default bench/scenarios)
#   BENCH_DISK=SIZE the modelled disk (default 64G)
#   AGED_SEED, AGED_SETS, AGED_CHURN, AGED_IO   the aged scenarios' hc-age
#                  seed, sets, churn and random-read bytes per job
#   AGED_CACHE=DIR where aged images are kept (default build/aged)
#   AGED_JOBS=N    aged images made at once, before any scenario runs
#                  (default 2: one ageing guest per host core)
#   AGED_MEM=MiB   the ageing guest's memory (default 4096; measured at 64G,
#                  80%: the fill runs as fast in 1024, the churn 3-8% faster
#                  in 4096: the cost is the allocator's, not the page cache's)
#   AGED_TIMEOUT=S one ageing guest's limit (default 10800: at 64G the churn
#                  at 80% costs about 17 ms per create+delete under TCG)
#   BZIMAGE_PATCHED, BZIMAGE_STOCK, FIO_ROOT, HDD_CURVES, BTOOLS, VM_TIMEOUT
# Exit status: 0 when every scenario ran; 1 when one failed (what finished
# is kept and RESULTS.md says the run is partial); 2 on bad input.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
out=${1:-$build/bench}
QUICK=${QUICK:-0}
PROFILE=${PROFILE:-desktop7200}
TIME_SCALE=${TIME_SCALE:-1}
SCENARIO=${SCENARIO:-}
if [ "$QUICK" = 1 ]; then RUNS=${RUNS:-1}; else RUNS=${RUNS:-3}; fi
RESULTS=${RESULTS:-$top/RESULTS.md}
BZIMAGE_PATCHED=${BZIMAGE_PATCHED:-$build/kbuild-patched/arch/x86/boot/bzImage}
BZIMAGE_STOCK=${BZIMAGE_STOCK:-$build/kbuild-stock/arch/x86/boot/bzImage}
FIO_ROOT=${FIO_ROOT:-$build/fio-guest/root}
HDD_CURVES=${HDD_CURVES:-$build/hdd/hdd-curves}
HDD_VALIDATE=${HDD_VALIDATE:-$build/hdd/hdd-validate}
BTOOLS=${BTOOLS:-$build/bench-tools}
AGED_CACHE=${AGED_CACHE:-$build/aged}
JOB_DIR=${JOB_DIR:-$top/bench}
DISK_SIZE=${BENCH_DISK:-64G}
AGED_JOBS=${AGED_JOBS:-2}
AGED_MEM=${AGED_MEM:-4096}

. "$top/bench/lib.sh" && lib_init BENCH bench/run.sh

# ---- scenarios: bench/scenarios (name kernel job fill quick measures)
# scaleout: both kernels at once, driven by one fio client (bench/scaleout.sh);
# one run whatever RUNS says: it shows the set-up, the scenarios above measure.
SCENARIOS=${SCENARIOS:-$top/bench/scenarios}
[ -r "$SCENARIOS" ] || die "$SCENARIOS missing"
all_scenarios=$(grep -v '^#' "$SCENARIOS" | awk 'NF')
echo "$all_scenarios" | awk -v f="${SCENARIOS#"$top"/}" 'NF != 6 { print f ": line \"" $0 "\": want 6 fields"; bad = 1 } END { exit bad }' >&2 ||
	die "${SCENARIOS#"$top"/} is malformed"

# ---- check the input
case $QUICK in 0|1) ;; *) die "QUICK='$QUICK': use 0 or 1" ;; esac
case $RUNS in ''|*[!0-9]*|0) die "RUNS='$RUNS': give a whole number >= 1" ;; esac
case $AGED_JOBS in ''|*[!0-9]*|0) die "AGED_JOBS='$AGED_JOBS': give a whole number >= 1" ;; esac
case $AGED_MEM in ''|*[!0-9]*) die "AGED_MEM='$AGED_MEM': give MiB, a whole number >= 256" ;; esac
[ "$AGED_MEM" -ge 256 ] || die "AGED_MEM='$AGED_MEM': give MiB, a whole number >= 256"
awk -v t="$TIME_SCALE" 'BEGIN { exit !(t ~ /^[0-9]*\.?[0-9]+$/ && t <= 1000) }' ||
	die "TIME_SCALE='$TIME_SCALE': give a number from 0 to 1000"
grep -q "^\[$PROFILE\]" "$top/vm/hdd-model/profiles.conf" ||
	die "PROFILE='$PROFILE' is not in vm/hdd-model/profiles.conf (have: $(sed -n 's/^\[\(.*\)\]$/\1/p' "$top/vm/hdd-model/profiles.conf" | tr '\n' ' '))"
[ -r "$BZIMAGE_PATCHED" ] || die "patched kernel '$BZIMAGE_PATCHED' missing: make kernel-patched"
[ -r "$BZIMAGE_STOCK" ] || die "stock kernel '$BZIMAGE_STOCK' missing: make kernel-stock"
[ -x "$FIO_ROOT/usr/bin/fio" ] || die "no fio in '$FIO_ROOT': make engine-guest-root"
[ -x "$HDD_CURVES" ] || die "'$HDD_CURVES' missing: make hdd"
[ -x "$HDD_VALIDATE" ] || die "'$HDD_VALIDATE' missing: make hdd"
for t in hc-age hc-move hc-mark hc-tracejoin; do [ -x "$BTOOLS/$t" ] || die "'$BTOOLS/$t' missing: make bench-tools"; done
selected=$(echo "$all_scenarios" | awk -v s="$SCENARIO" -v q="$QUICK" '
	BEGIN { n = split(s, want, " ") }
	NF == 6 { if (!n) { if ($5 != "x" && (q == 0 || $5 == "q")) print; next }
		for (i = 1; i <= n; i++) if ($1 == want[i] || index($1, want[i] "-") == 1) { print; next } }')
[ -n "$selected" ] || die "SCENARIO='$SCENARIO' is not one of: $(echo "$all_scenarios" | awk 'NF { printf "%s ", $1 }')"
for w in $SCENARIO; do
	echo "$all_scenarios" | awk -v w="$w" 'NF == 6 && ($1 == w || index($1, w "-") == 1) { f = 1 } END { exit !f }' ||
		die "SCENARIO: '$w' is not one of: $(echo "$all_scenarios" | awk 'NF { printf "%s ", $1 }')"
done
for j in $(echo "$selected" | awk '$3 != "zones" { sub(/:.*/, "", $3); print $3 }' | sort -u); do
	[ -r "$JOB_DIR/$j" ] || die "job file $JOB_DIR/$j missing"
done
# job_params JOB: a job column may name the drive's queue and the guest's
# scheduler after the file: JOB.fio:qd=N,sched=NAME (the qd scenarios).
# Prints "QD SCHED" (1 and the guest's default when not given).
job_params() {
	local p qd=1 sched=default kv
	case $1 in *:*) p=${1#*:} ;; *) p="" ;; esac
	for kv in ${p//,/ }; do
		case $kv in
		qd=*) qd=${kv#qd=}
			case $qd in ''|*[!0-9]*) return 1 ;; esac
			[ "$qd" -ge 1 ] && [ "$qd" -le 32 ] || return 1 ;;
		sched=none|sched=mq-deadline) sched=${kv#sched=} ;;
		*) return 1 ;;
		esac
	done
	echo "$qd $sched"
}
while read -r n _ j f _; do
	job_params "$j" >/dev/null ||
		die "${SCENARIOS#"$top"/}: job '$j': after the file, give qd=1..32 and sched=none or sched=mq-deadline (e.g. mixed-qd.fio:qd=32,sched=none)"
	case $j:$f in *:*:0) ;; *:*:*) die "${SCENARIOS#"$top"/}: $n: qd= and sched= are for a fresh filesystem (fill 0), not fill $f" ;; esac
done <<<"$selected"

# ---- the guest's extra files: the runner script and the job files
mkdir -p "$out"
rm -rf "$out/guest-root" "$out/figures" "$out/status" "$out/summary"
# RESULTS.md describes this run only: no scenario of an earlier run stays.
for s in $(echo "$all_scenarios" | awk "NF { print \$1 }"); do rm -rf "${out:?}/$s"; done
mkdir -p "$out/guest-root/tests/bench" "$out/figures" "$out/summary"
cp "$top/bench/guest-scenario.sh" "$top/bench/guest-aged.sh" "$top/bench/guest-promote.sh" \
	"$top/bench/job-env.sh" "$BTOOLS/hc-age" "$BTOOLS/hc-move" "$BTOOLS/hc-mark" \
	"$JOB_DIR"/*.fio "$out/guest-root/tests/bench/"
: >"$out/status"
{
	echo "profile=$PROFILE"
	echo "time_scale=$TIME_SCALE"
	echo "runs=$RUNS"
	echo "quick=$QUICK"
	echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "commit=$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$top" status --porcelain -uno 2>/dev/null | grep -q . && echo ' (with uncommitted changes)')"
	echo "host=$(uname -m), $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(uname -sr)"
	echo "disk=$DISK_SIZE"
	echo "bzimage_patched=$BZIMAGE_PATCHED"
	echo "bzimage_stock=$BZIMAGE_STOCK"
	echo "scenarios=$(echo "$selected" | awk '{ printf "%s ", $1 }')"
} >"$out/run-env.txt"
# the later stages take the scenarios and what they measure from here
{ echo "# name kernel job fill quick measures (bench/scenarios)"; echo "$selected"; } >"$out/scenarios"

# The model's curves for this profile and disk size (zone rates, seek curve).
"$HDD_CURVES" "$top/vm/hdd-model/profiles.conf" "$PROFILE" "$DISK_SIZE" "$out/summary/hdd" \
	>"$out/summary/hdd-curves.txt" 2>&1 || die "hdd-curves failed for profile '$PROFILE' (see $out/summary/hdd-curves.txt)"

failed=0
# The model against published drives (the page's validation table); a
# figure out of its tolerance fails the run's page, not the measurements.
if ! "$HDD_VALIDATE" "$top/vm/hdd-model/profiles.conf" "$out/summary/validation.csv" "$out/summary/validation.md" \
	>"$out/summary/validation.txt" 2>&1; then
	echo "bench/run.sh: hdd-validate: the model is outside a published figure's tolerance (see $out/summary/validation.txt)" >&2
	echo "validation - FAIL" >>"$out/status"
	failed=1
fi

# split_guest_output RAW DIR: the files between the marker lines
split_guest_output() { awk -v dir="$2" -f "$top/bench/split-guest-output.awk" "$1"; }

# ---- the aged filesystem: hc-age's parameters (the image's cache key)
AGED_SEED=${AGED_SEED:-1}
AGED_DIRS=64
if [ "$QUICK" = 1 ]; then
	AGED_SETS=${AGED_SETS:-H:hot:4:8M,H2:hot:4:8M,C:cold:4:8M,N:none:4:8M,N2:none:4:8M,HS:hot:1:32M,CS:cold:1:32M,NS:none:1:32M}
	AGED_CHURN=${AGED_CHURN:-0.25} AGED_IO=${AGED_IO:-1m}
else
	AGED_SETS=${AGED_SETS:-H:hot:8:32M,H2:hot:8:32M,C:cold:8:32M,N:none:8:32M,N2:none:8:32M,HS:hot:1:128M,CS:cold:1:128M,NS:none:1:128M}
	AGED_CHURN=${AGED_CHURN:-0.5} AGED_IO=${AGED_IO:-4m}
fi
{
	echo "aged_seed=$AGED_SEED"
	echo "aged_dirs=$AGED_DIRS"
	echo "aged_sets=$AGED_SETS"
	echo "aged_churn=$AGED_CHURN"
	echo "aged_io=$AGED_IO"
} >>"$out/run-env.txt"

# aged_image FILL: print the path of the image aged to FILL percent, making
# it first if build/aged/ has none for these parameters.  The key covers
# everything the layout depends on: the tool, the guest script, the kernel,
# the seed, the sets, the churn, the disk size.
aged_mount_opts() { case $1 in *+reserve) echo region_reserve=1 ;; esac; }
aged_image() {
	local fill=$1 pct=${1%%+*} opts key dir rc t0
	opts=$(aged_mount_opts "$fill")
	key=$({ sha256sum "$BTOOLS/hc-age" "$top/bench/guest-aged.sh" "$BZIMAGE_PATCHED" | cut -d' ' -f1
		echo "$fill $AGED_SEED $AGED_DIRS $AGED_SETS $AGED_CHURN $DISK_SIZE"; } | sha256sum | cut -c1-16)
	dir=$AGED_CACHE/$fill-$key
	if [ -f "$dir/ok" ]; then
		stage "aged image $fill%: cached (${dir#"$top"/})" >&2
		echo "$dir"; return 0
	fi
	rm -rf "$dir" && mkdir -p "$dir"
	truncate -s "$DISK_SIZE" "$dir/disk.img.tmp" || return 1
	t0=$(date +%s)
	stage "aged image $fill%: ageing a fresh ext4 (seed $AGED_SEED, churn $AGED_CHURN${opts:+, mount -o $opts}) into ${dir#"$top"/}" >&2
	VM_MEM=$AGED_MEM nice "$top/vm/runner/run" --kernel "$BZIMAGE_PATCHED" --timeout "${AGED_TIMEOUT:-10800}" --disk "file:$dir/disk.img.tmp" \
		--initrd-extra "$FIO_ROOT" --initrd-extra "$out/guest-root" \
		-- "sh /tests/bench/guest-aged.sh age $pct $AGED_SEED $AGED_SETS $AGED_CHURN $AGED_DIRS $opts" \
		>"$dir/guest.out" 2>"$dir/vmrun.err"
	rc=$?
	split_guest_output "$dir/guest.out" "$dir"
	if [ $rc != 0 ] || ! grep -qx 'fsck_rc=0' "$dir/env.txt" 2>/dev/null; then
		guest_failed "$dir" "ageing to $fill% failed (vm/runner/run status $rc, $(grep '^fsck_rc=' "$dir/env.txt" 2>/dev/null || echo 'no e2fsck result'))"
		return 1
	fi
	mv "$dir/disk.img.tmp" "$dir/disk.img"
	date -u '+made=%Y-%m-%d %H:%M UTC' >>"$dir/env.txt"
	touch "$dir/ok"
	stage "aged image $fill%: made in $(($(date +%s) - t0)) s" >&2
	echo "$dir"
}

# join_trace DIR: the disk's clock for every engine read of the run
# (hc-tracejoin); fewer than 99% of the reads found in the trace fails.
join_trace() {
	local d=$1
	"$BTOOLS/hc-tracejoin" --out "$d/join.csv" --summary "$d/join-summary.csv" --cdf-dir "$d/cdf" \
		"$d/trace.csv" "$d/seek.csv" >"$d/join.out" 2>"$d/join.err"
}

# failed_run NAME RUN WHY [FILE]: the run failed (OUT/status says why; the
# page lists it); FILE's lines, indented, on stderr
failed_run() {
	[ -z "${4:-}" ] || sed 's/^/    /' "$4" >&2
	echo "$1 $2 FAIL $3" >>"$out/status"
	failed=1
}

run_one() { # name kernel job fill run
	local name=$1 kernel=$2 job=$3 fill=$4 r=$5 img dir cmd rc qd sched
	read -r qd sched <<<"$(job_params "$job")"
	job=${job%%:*}
	dir=$out/$name/run$r
	rm -rf "$dir" && mkdir -p "$dir"
	[ "$kernel" = stock ] && img=$BZIMAGE_STOCK || img=$BZIMAGE_PATCHED
	base=""
	if [ "$job" = zones ]; then
		cmd="sh /tests/bench/guest-scenario.sh zones"
	elif [ "$fill" != 0 ]; then
		if grep -qx "$fill" "$out/aged-failed" 2>/dev/null ||
			! aged=$(aged_image "$fill"); then
			failed_run "$name" "$r" ageing; return 1
		fi
		mkdir -p "$out/$name/aging"
		cp "$aged"/env.txt "$aged"/state.txt "$aged"/sets.csv "$aged"/freefrag.txt "$out/$name/aging/"
		echo "image=${aged#"$top"/}" >>"$out/$name/aging/env.txt"
		base=",base=$aged/disk.img"
		cmd="sh /tests/bench/guest-aged.sh measure /tests/bench/$job $AGED_IO $(aged_mount_opts "$fill")"
	else
		cmd="BENCH_QUICK=$QUICK BENCH_QD=$qd BENCH_SCHED=$sched sh /tests/bench/guest-scenario.sh /tests/bench/$job"
	fi
	stage "$name run $r/$RUNS: $job on the $kernel kernel$([ "$fill" != 0 ] && echo ", aged to ${fill%%+*}%${fill#"${fill%%+*}"}")"
	nice "$top/vm/runner/run" --kernel "$img" --timeout "${VM_TIMEOUT:-1800}" \
		--hdd "$DISK_SIZE,profile=$PROFILE,time-scale=$TIME_SCALE,queue-depth=$qd,trace=$dir/trace.csv$base" \
		--initrd-extra "$FIO_ROOT" --initrd-extra "$out/guest-root" \
		-- "$cmd" >"$dir/guest.out" 2>"$dir/vmrun.err"
	rc=$?
	split_guest_output "$dir/guest.out" "$dir"
	echo "kernel_flavour=$kernel" >>"$dir/env.txt"
	sed -n 's/^vm\/runner\/run: accel=\([a-z]*\).*/accel=\1/p' "$dir/vmrun.err" >>"$dir/env.txt"
	if [ $rc != 0 ]; then
		guest_failed "$dir" "scenario '$name' (bench/$job, $kernel kernel) run $r failed with status $rc"
		failed_run "$name" "$r" "status=$rc"
		return 1
	fi
	# O_DIRECT jobs reach the disk one request per read: join them with the trace
	if [ "$job" != zones ] && grep -q '^direct=1' "$JOB_DIR/$job" && ! join_trace "$dir"; then
		echo "bench/run.sh: scenario '$name' run $r: the disk trace does not account for the engine's reads:" >&2
		failed_run "$name" "$r" trace-join "$dir/join.err"
		return 1
	fi
	echo "$name $r ok" >>"$out/status"
}

run_scaleout() { # name job
	local name=$1 dir=$out/$1 rc
	stage "$name: patched and stock guests at once, one fio client, $2"
	QUICK=$QUICK PROFILE=$PROFILE TIME_SCALE=$TIME_SCALE FIO_ROOT=$FIO_ROOT \
		BZIMAGE_PATCHED=$BZIMAGE_PATCHED BZIMAGE_STOCK=$BZIMAGE_STOCK \
		nice "$top/bench/scaleout.sh" "$dir" "$JOB_DIR/$2" 2>"$out/$name.err" | sed 's/^/  /'
	rc=${PIPESTATUS[0]}
	if [ "$rc" != 0 ]; then
		echo "bench/run.sh: scenario '$name' (bench/$2, two guests) failed with status $rc:" >&2
		failed_run "$name" 1 "status=$rc" "$out/$name.err"
		return 1
	fi
	echo "$name 1 ok" >>"$out/status"
}

stage "profile $PROFILE, time-scale $TIME_SCALE, $RUNS run(s), QUICK=$QUICK, into ${out#"$top"/}"

# ---- the aged images first, AGED_JOBS at a time, the fullest first (they
# take longest); nothing is measured meanwhile, so the ageing guests never
# share the host with a measurement.  A fill whose ageing fails is listed in
# aged-failed and its scenario fails at once instead of ageing again.
: >"$out/aged-failed"
fills=$(echo "$selected" | awk '$4 != "0" { print $4 }' | sort -u | sort -t+ -k1,1nr)
if [ -n "$fills" ]; then
	stage "aged images: $(echo $fills), $AGED_JOBS at a time, $AGED_MEM MiB per ageing guest"
	running=0
	for f in $fills; do
		if [ "$running" -ge "$AGED_JOBS" ]; then wait -n; running=$((running - 1)); fi
		( aged_image "$f" >/dev/null || echo "$f" >>"$out/aged-failed" ) &
		running=$((running + 1))
	done
	wait
fi
while read -r name kernel job fill _ measures; do
	[ -n "$name" ] || continue
	# the scenarios that measure scaleout (bench/scenarios) are bench/scaleout.sh's
	case ,$measures, in *,scaleout,*) run_scaleout "$name" "$job"; continue ;; esac
	for r in $(seq 1 "$RUNS"); do
		run_one "$name" "$kernel" "$job" "$fill" "$r" || break
	done
done <<<"$selected"

stage "summarise"
"$top/bench/summarise.sh" "$out" || { echo "bench/run.sh: summarising $out failed" >&2; echo "summarise - FAIL" >>"$out/status"; failed=1; }
stage "plots"
"$top/bench/plots.sh" "$out" || { echo "bench/run.sh: plotting failed" >&2; echo "plots - FAIL" >>"$out/status"; failed=1; }
stage "RESULTS"
[ $failed = 0 ] || echo "partial=1" >>"$out/run-env.txt"
"$top/bench/results.sh" "$out" "$RESULTS" || { echo "bench/run.sh: writing $RESULTS failed" >&2; failed=1; }
stage "done ($(grep -c ' ok$' "$out/status") run(s) ok, $(grep -c ' FAIL ' "$out/status") failed)"
exit $failed
