#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The benchmark pipeline (make bench-run): boot a guest per scenario and
# run, on the modelled spinning disk (vm/runner/run --hdd), a job file of bench/
# with fio and the hotcold engine; bring back fio's JSON, the engine's
# placement/seek logs and the disk model's trace into OUT/<scenario>/runN/;
# summarise (bench/measures/summarise.sh), plot (plots/*.gp) and write RESULTS.md
# (bench/measures/results.sh).
#
# Usage: bench/runners/run.sh [--plan] [OUT]   (default build/bench)
#   --plan         print the run's steps, "plan KEY SECONDS" (bench/runners/plan's
#                  costs), and exit: bench/runners/bench.sh adds them to its plan
# Variables (environment or make):
#   QUICK=1        small sizes, fewer scenarios (aim: a few minutes); the
#                  page goes to OUT/RESULTS.md unless RESULTS says otherwise
#   FULL=1         the 64 GiB aged disk and every scenario of the table
#                  (the rows marked f too); hours
#   PROFILE=NAME   drive profile of vm/hdd-model/profiles.conf (default desktop7200)
#   RUNS=N         repetitions of a fresh-filesystem scenario (default 1;
#                  FULL: 3).  An aged scenario runs once per ageing seed
#                  instead: seeds=N in its measures (bench/jobs/scenarios)
#   SCENARIO=NAMES run only these scenarios (space-separated; a name or a
#                  prefix: aged, aged-80, ...)
#   SCENARIO_EXACT=1  SCENARIO's names match whole names only (aged-80
#                  without aged-80-reserve and aged-80-stock)
#   TIME_SCALE=F   the disk model's time-scale (default 1)
#   RESULTS=FILE   where to write RESULTS.md (default the repo's); a page of
#                  a run of its own goes to results/NAME/RESULTS.md (its
#                  figures next to it), and the repo's page links it
#   RESULTS_TITLE=T the page's title (default "Results")
#   JOB_DIR=DIR    take the job files from DIR (default bench/jobs/)
#   SCENARIOS=FILE the scenario table (default bench/jobs/scenarios)
#   BENCH_DISK=SIZE the modelled disk (default 8G; FULL: 64G; QUICK: 4G): the
#                  model keeps its full-stroke seek and zone rates at any size
#   AGED_SEED, AGED_SETS, AGED_CHURN, AGED_IO   the aged scenarios' first
#                  hc-age seed (the seeds are AGED_SEED, AGED_SEED+1, ...),
#                  sets, churn and random-read bytes per job
#   AGED_SEEDS=N   every aged scenario with N seeds (default: its seeds=)
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
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
plan_only=0
[ "${1:-}" != --plan ] || { plan_only=1; shift; }
QUICK=${QUICK:-0}
FULL=${FULL:-0}
if [ "$QUICK" = 1 ]; then out=${1:-$build/bench-quick}; else out=${1:-$build/bench}; fi
PROFILE=${PROFILE:-desktop7200}
TIME_SCALE=${TIME_SCALE:-1}
SCENARIO=${SCENARIO:-}
SCENARIO_EXACT=${SCENARIO_EXACT:-0}
if [ "$FULL" = 1 ]; then RUNS=${RUNS:-3}; else RUNS=${RUNS:-1}; fi
# QUICK=1 never writes a committed page unless told to (RESULTS=)
if [ "$QUICK" = 1 ]; then RESULTS=${RESULTS:-$out/RESULTS.md}; else RESULTS=${RESULTS:-$top/RESULTS.md}; fi
BZIMAGE_PATCHED=${BZIMAGE_PATCHED:-$build/kbuild-patched/arch/x86/boot/bzImage}
BZIMAGE_STOCK=${BZIMAGE_STOCK:-$build/kbuild-stock/arch/x86/boot/bzImage}
FIO_ROOT=${FIO_ROOT:-$build/fio-guest/root}
HDD_CURVES=${HDD_CURVES:-$build/hdd/hdd-curves}
HDD_VALIDATE=${HDD_VALIDATE:-$build/hdd/hdd-validate}
BTOOLS=${BTOOLS:-$build/bench-tools}
AGED_CACHE=${AGED_CACHE:-$build/aged}
JOB_DIR=${JOB_DIR:-$top/bench/jobs}
if [ "$FULL" = 1 ]; then DISK_SIZE=${BENCH_DISK:-64G}; elif [ "$QUICK" = 1 ]; then DISK_SIZE=${BENCH_DISK:-4G}; else DISK_SIZE=${BENCH_DISK:-8G}; fi
AGED_JOBS=${AGED_JOBS:-2}
AGED_MEM=${AGED_MEM:-4096}

. "$top/bench/measures/lib.sh" && lib_init BENCH bench/runners/run.sh
. "$top/vm/lib/guest-run.sh"

# ---- scenarios: bench/jobs/scenarios (name kernel job fill quick measures)
# scaleout: both kernels at once, driven by one fio client (bench/runners/scaleout.sh);
# one run whatever RUNS says: it shows the set-up, the scenarios above measure.
SCENARIOS=${SCENARIOS:-$top/bench/jobs/scenarios}
[ -r "$SCENARIOS" ] || die "$SCENARIOS missing"
all_scenarios=$(grep -v '^#' "$SCENARIOS" | awk 'NF')
echo "$all_scenarios" | awk -v f="${SCENARIOS#"$top"/}" 'NF != 6 { print f ": line \"" $0 "\": want 6 fields"; bad = 1 } END { exit bad }' >&2 ||
	die "${SCENARIOS#"$top"/} is malformed"

# ---- check the input
case $QUICK in 0|1) ;; *) die "QUICK='$QUICK': use 0 or 1" ;; esac
case $FULL in 0|1) ;; *) die "FULL='$FULL': use 0 or 1" ;; esac
case $SCENARIO_EXACT in 0|1) ;; *) die "SCENARIO_EXACT='$SCENARIO_EXACT': use 0 or 1" ;; esac
[ "$QUICK$FULL" != 11 ] || die "QUICK=1 and FULL=1: choose one"
case $DISK_SIZE in [1-9]*G) ;; *) die "BENCH_DISK='$DISK_SIZE': give whole GiB, e.g. 8G" ;; esac
case ${AGED_SEEDS:-1} in ''|*[!0-9]*|0) die "AGED_SEEDS='${AGED_SEEDS:-}': give a whole number >= 1" ;; esac
case $RUNS in ''|*[!0-9]*|0) die "RUNS='$RUNS': give a whole number >= 1" ;; esac
case $AGED_JOBS in ''|*[!0-9]*|0) die "AGED_JOBS='$AGED_JOBS': give a whole number >= 1" ;; esac
case $AGED_MEM in ''|*[!0-9]*) die "AGED_MEM='$AGED_MEM': give MiB, a whole number >= 256" ;; esac
[ "$AGED_MEM" -ge 256 ] || die "AGED_MEM='$AGED_MEM': give MiB, a whole number >= 256"
awk -v t="$TIME_SCALE" 'BEGIN { exit !(t ~ /^[0-9]*\.?[0-9]+$/ && t <= 1000) }' ||
	die "TIME_SCALE='$TIME_SCALE': give a number from 0 to 1000"
grep -q "^\[$PROFILE\]" "$top/vm/hdd-model/profiles.conf" ||
	die "PROFILE='$PROFILE' is not in vm/hdd-model/profiles.conf (have: $(sed -n 's/^\[\(.*\)\]$/\1/p' "$top/vm/hdd-model/profiles.conf" | tr '\n' ' '))"
if [ "$plan_only" = 0 ]; then
	[ -r "$BZIMAGE_PATCHED" ] || die "patched kernel '$BZIMAGE_PATCHED' missing: make kernel-patched"
	[ -r "$BZIMAGE_STOCK" ] || die "stock kernel '$BZIMAGE_STOCK' missing: make kernel-stock"
	[ -x "$FIO_ROOT/usr/bin/fio" ] || die "no fio in '$FIO_ROOT': make engine-guest-root"
	[ -x "$HDD_CURVES" ] || die "'$HDD_CURVES' missing: make hdd"
	[ -x "$HDD_VALIDATE" ] || die "'$HDD_VALIDATE' missing: make hdd"
	for t in hc-age hc-move hc-mark hc-tracejoin; do [ -x "$BTOOLS/$t" ] || die "'$BTOOLS/$t' missing: make bench-tools"; done
fi
# the quick column: q runs in every mode, - by default and with FULL=1,
# f with FULL=1 only, x only when SCENARIO names it
selected=$(echo "$all_scenarios" | awk -v s="$SCENARIO" -v q="$QUICK" -v full="$FULL" -v x="$SCENARIO_EXACT" '
	BEGIN { n = split(s, want, " ") }
	NF == 6 { if (!n) { if ($5 == "q" || (q == 0 && $5 == "-") || (full == 1 && $5 == "f")) print; next }
		for (i = 1; i <= n; i++) if ($1 == want[i] || (!x && index($1, want[i] "-") == 1)) { print; next } }')
[ -n "$selected" ] || die "SCENARIO='$SCENARIO' is not one of: $(echo "$all_scenarios" | awk 'NF { printf "%s ", $1 }')"
for w in $SCENARIO; do
	echo "$all_scenarios" | awk -v w="$w" -v x="$SCENARIO_EXACT" 'NF == 6 && ($1 == w || (!x && index($1, w "-") == 1)) { f = 1 } END { exit !f }' ||
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

# ---- the aged filesystem: hc-age's parameters (the image's cache key).
# The sets scale with the disk: about 10% of it in all (as on the 16 GiB
# disk of an earlier run with 32 MiB files), so that they take the same
# share of the regions at every size.
AGED_SEED=${AGED_SEED:-1}
AGED_DIRS=64
disk_gib=${DISK_SIZE%G}
if [ "$QUICK" = 1 ]; then
	AGED_SETS=${AGED_SETS:-H:hot:2:4M,H2:hot:2:4M,C:cold:2:4M,N:none:2:4M,N2:none:2:4M,HS:hot:1:16M,CS:cold:1:16M,NS:none:1:16M}
	AGED_CHURN=${AGED_CHURN:-0.25} AGED_IO=${AGED_IO:-512k}
elif [ "$disk_gib" -ge 16 ]; then
	AGED_SETS=${AGED_SETS:-H:hot:8:32M,H2:hot:8:32M,C:cold:8:32M,N:none:8:32M,N2:none:8:32M,HS:hot:1:128M,CS:cold:1:128M,NS:none:1:128M}
	AGED_CHURN=${AGED_CHURN:-0.5} AGED_IO=${AGED_IO:-4m}
else
	# 768 random reads a set (3 MiB of 4 KiB): the standard deviation of a
	# set's median over samples of that size is 1.3-2.6% (a bootstrap of the
	# 1024 reads of each set of the 2026-12-06 run at 80%), against 5-25%
	# between ageing seeds; and three seeds of the stock kernel fit in the hour
	AGED_SETS=${AGED_SETS:-H:hot:8:16M,H2:hot:8:16M,C:cold:8:16M,N:none:8:16M,N2:none:8:16M,HS:hot:1:64M,CS:cold:1:64M,NS:none:1:64M}
	AGED_CHURN=${AGED_CHURN:-0.5} AGED_IO=${AGED_IO:-3m}
fi
# nruns KERNEL FILL MEASURES: the runs of a scenario: one per ageing seed
# for an aged one (seeds=N in its measures, AGED_SEEDS; QUICK: at most 2,
# and 1 on the stock kernel, whose baseline row needs only its first seed
# to show in a smoke run), one for scaleout, RUNS for a fresh one
nruns() {
	case ,$3, in *,scaleout,*) echo 1; return ;; esac
	[ "$2" != 0 ] || { echo "$RUNS"; return; }
	local n
	n=$(echo "$3" | tr , '\n' | sed -n 's/^seeds=\([0-9][0-9]*\)$/\1/p' | head -n 1)
	n=${AGED_SEEDS:-${n:-1}}
	[ "$QUICK" = 0 ] || [ "$n" -le 2 ] || n=2
	[ "$QUICK" = 0 ] || [ "$1" != stock ] || [ -n "${AGED_SEEDS:-}" ] || n=1
	echo "$n"
}
# the images the run needs: "FILL SEED KERNEL", one per aged scenario and seed
# (run R of an aged scenario reads the image of seed AGED_SEED + R - 1,
# aged on the scenario's kernel: the stock kernel ignores the hints)
images=$(while read -r n k j f _ m; do
	[ -n "$n" ] && [ "$f" != 0 ] || continue
	for r in $(seq 1 "$(nruns "$k" "$f" "$m")"); do echo "$f $((AGED_SEED + r - 1)) $([ "$k" = stock ] && echo stock || echo patched)"; done
done <<<"$selected" | awk '!seen[$0]++' | sort -t' ' -k1,1nr -k2,2n)
# the run's steps for bench/measures/lib.sh's progress: "plan KEY SECONDS"
run_plan() {
	local f sd k n kn j m r kind
	while read -r f sd k; do
		[ -n "$f" ] || continue
		echo "plan age:$f:$sd:$k $(plan_cost age "$(awk -v g="$disk_gib" -v p="${f%%+*}" 'BEGIN { printf "%.2f", g * p / 100 }')")"
	done <<<"$images"
	while read -r n kn j f _ m; do
		[ -n "$n" ] || continue
		case ,$m, in *,scaleout,*) kind=scaleout-run ;; *,promote,*) kind=promote-run ;; *) [ "$f" = 0 ] && kind=fresh-run || kind=aged-run ;; esac
		# QUICK=1's smaller jobs have costs of their own (KIND-quick)
		[ "$QUICK" = 0 ] || ! grep -q "^$kind-quick " "$top/bench/runners/plan" || kind=$kind-quick
		for r in $(seq 1 "$(nruns "$kn" "$f" "$m")"); do echo "plan run:$n:$r $(plan_cost "$kind")"; done
	done <<<"$selected"
	echo "plan pages $(plan_cost "pages$([ "$QUICK" = 0 ] || echo -quick)")"
}
if [ "$plan_only" = 1 ]; then run_plan; exit 0; fi

# ---- the guest's extra files: the runner script and the job files
mkdir -p "$out"
rm -rf "$out/guest-root" "$out/figures" "$out/status" "$out/summary"
# RESULTS.md describes this run only: no scenario of an earlier run stays.
for s in $(echo "$all_scenarios" | awk "NF { print \$1 }"); do rm -rf "${out:?}/$s"; done
mkdir -p "$out/guest-root/tests/bench" "$out/figures" "$out/summary"
cp "$top/bench/guest/guest-scenario.sh" "$top/bench/guest/guest-promote.sh" \
	"$top/bench/guest/job-env.sh" "$BTOOLS/hc-age" "$BTOOLS/hc-move" "$BTOOLS/hc-mark" \
	"$JOB_DIR"/*.fio "$out/guest-root/tests/bench/"
: >"$out/status"
{
	echo "profile=$PROFILE"
	echo "time_scale=$TIME_SCALE"
	echo "runs=$RUNS"
	echo "quick=$QUICK"
	echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
	# the pages and figures runs write (make bench's earlier steps write
	# results/alternatives/) are not changes to the code that ran
	echo "commit=$(code_commit)"
	echo "host=$(uname -m), $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(uname -sr)"
	echo "disk=$DISK_SIZE"
	echo "bzimage_patched=${BZIMAGE_PATCHED#"$top"/}"
	echo "bzimage_stock=${BZIMAGE_STOCK#"$top"/}"
	echo "full=$FULL"
	echo "run_id=$(date -u '+%Y%m%dT%H%M%SZ')-$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)"
	# the command that reproduces this run (bench/runners/bench.sh's, or this script's)
	echo "command=${BENCH_COMMAND:-QUICK=$QUICK FULL=$FULL RUNS=$RUNS BENCH_DISK=$DISK_SIZE${SCENARIO:+ SCENARIO=\"$SCENARIO\"}$([ "$SCENARIO_EXACT" = 0 ] || echo " SCENARIO_EXACT=1")${AGED_SEEDS:+ AGED_SEEDS=$AGED_SEEDS}$([ "$AGED_SEED" = 1 ] || echo " AGED_SEED=$AGED_SEED") bench/runners/run.sh}"
	echo "scenarios=$(echo "$selected" | awk '{ printf "%s ", $1 }')"
} >"$out/run-env.txt"
# the later stages take the scenarios and what they measure from here
{ echo "# name kernel job fill quick measures (bench/jobs/scenarios)"; echo "$selected"; } >"$out/scenarios"

# The model's curves for this profile and disk size (zone rates, seek curve).
"$HDD_CURVES" "$top/vm/hdd-model/profiles.conf" "$PROFILE" "$DISK_SIZE" "$out/summary/hdd" \
	>"$out/summary/hdd-curves.txt" 2>&1 || die "hdd-curves failed for profile '$PROFILE' (see $out/summary/hdd-curves.txt)"

failed=0
# The model against published drives (the page's validation table); a
# figure out of its tolerance fails the run's page, not the measurements.
if ! "$HDD_VALIDATE" "$top/vm/hdd-model/profiles.conf" "$out/summary/validation.csv" "$out/summary/validation.md" \
	>"$out/summary/validation.txt" 2>&1; then
	echo "bench/runners/run.sh: hdd-validate: the model is outside a published figure's tolerance (see $out/summary/validation.txt)" >&2
	echo "validation - FAIL" >>"$out/status"
	failed=1
fi

{
	echo "aged_seed=$AGED_SEED"
	echo "aged_seeds=$(echo "$images" | awk 'NF { print $2 }' | sort -un | tr '\n' ' ' | sed 's/ $//')"
	echo "aged_dirs=$AGED_DIRS"
	echo "aged_sets=$AGED_SETS"
	echo "aged_churn=$AGED_CHURN"
	echo "aged_io=$AGED_IO"
} >>"$out/run-env.txt"

# aged_image FILL SEED KERNEL: print the path of the image aged to FILL
# percent with that seed on that kernel (patched or stock), making it first
# if build/aged/ has none for these parameters.  The key covers everything
# the layout depends on: the tool, the guest script, the kernel, the seed,
# the sets, the churn, the disk size.
aged_mount_opts() { case $1 in *+reserve) echo region_reserve=1 ;; esac; }
aged_image() {
	local fill=$1 seed=$2 kern=$3 pct=${1%%+*} opts key dir rc img t0
	[ "$kern" = stock ] && img=$BZIMAGE_STOCK || img=$BZIMAGE_PATCHED
	opts=$(aged_mount_opts "$fill")
	key=$({ sha256sum "$BTOOLS/hc-age" "$top/bench/guest/guest-scenario.sh" "$img" | cut -d' ' -f1
		echo "$fill $seed $AGED_DIRS $AGED_SETS $AGED_CHURN $DISK_SIZE"; } | sha256sum | cut -c1-16)
	dir=$AGED_CACHE/$fill-$key
	if [ -f "$dir/ok" ]; then
		[ "${4:-}" != begin ] || progress_begin "age:$fill:$seed:$kern" "aged image $fill%, seed $seed, $kern kernel: cached (${dir#"$top"/})" >&2
		echo "$dir"; return 0
	fi
	[ "${4:-}" = begin ] || return 1
	rm -rf "$dir" && mkdir -p "$dir"
	truncate -s "$DISK_SIZE" "$dir/disk.img.tmp" || return 1
	t0=$(date +%s)
	progress_begin "age:$fill:$seed:$kern" "aged image $fill%, seed $seed, $kern kernel: ageing a fresh ext4 on $DISK_SIZE (churn $AGED_CHURN${opts:+, mount -o $opts}) into ${dir#"$top"/}" >&2
	VM_MEM=$AGED_MEM GUEST_NICE=10 guest_run "bench/runners/run.sh: ageing to $fill% (seed $seed, $kern kernel)" "$dir" "$kern" \
		--kernel "$img" --timeout "${AGED_TIMEOUT:-10800}" --disk "file:$dir/disk.img.tmp" \
		--initrd-extra "$FIO_ROOT" --initrd-extra "$out/guest-root" \
		-- "sh /tests/bench/guest-scenario.sh age $pct $seed $AGED_SETS $AGED_CHURN $AGED_DIRS $opts" || return 1
	grep -qx 'fsck_rc=0' "$dir/env.txt" 2>/dev/null || {
		echo "bench/runners/run.sh: ageing to $fill% (seed $seed, $kern kernel): e2fsck -fn found errors ($(grep '^fsck_rc=' "$dir/env.txt" 2>/dev/null || echo 'no e2fsck result'); ${dir#"$top"/}/fsck.txt)" >&2
		return 1; }
	mv "$dir/disk.img.tmp" "$dir/disk.img"
	{ date -u '+made=%Y-%m-%d %H:%M UTC'; echo "age_kernel=$kern"; } >>"$dir/env.txt"
	touch "$dir/ok"
	stage "aged image $fill%, seed $seed, $kern kernel: made in $(($(date +%s) - t0)) s" >&2
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
	local name=$1 kernel=$2 job=$3 fill=$4 r=$5 n=$6 img dir cmd rc qd sched seed ak
	read -r qd sched <<<"$(job_params "$job")"
	job=${job%%:*}
	dir=$out/$name/run$r
	rm -rf "$dir" && mkdir -p "$dir"
	[ "$kernel" = stock ] && img=$BZIMAGE_STOCK || img=$BZIMAGE_PATCHED
	base=""
	if [ "$job" = zones ]; then
		cmd="BENCH_QUICK=$QUICK BENCH_QD=$qd BENCH_SCHED=$sched sh /tests/bench/guest-scenario.sh zones"
	elif [ "$fill" != 0 ]; then
		# run R reads the image of seed AGED_SEED + R - 1 (bench/jobs/scenarios: seeds=)
		seed=$((AGED_SEED + r - 1)) ak=patched
		[ "$kernel" != stock ] || ak=stock
		if grep -qx "$fill $seed $ak" "$out/aged-failed" 2>/dev/null ||
			! aged=$(aged_image "$fill" "$seed" "$ak"); then
			failed_run "$name" "$r" "ageing (seed $seed)"; return 1
		fi
		mkdir -p "$dir/aging"
		cp "$aged"/env.txt "$aged"/state.txt "$aged"/sets.csv "$aged"/freefrag.txt "$dir/aging/"
		echo "image=${aged#"$top"/}" >>"$dir/aging/env.txt"
		echo "aged_seed=$seed" >>"$dir/aging/env.txt"
		# the first seed's image also as the scenario's (bench/measures/measure-aged.sh)
		[ "$r" != 1 ] || { rm -rf "$out/$name/aging"; cp -a "$dir/aging" "$out/$name/aging"; }
		base=",base=$aged/disk.img"
		cmd="sh /tests/bench/guest-scenario.sh aged /tests/bench/$job $AGED_IO $(aged_mount_opts "$fill")"
	else
		cmd="BENCH_QUICK=$QUICK BENCH_QD=$qd BENCH_SCHED=$sched sh /tests/bench/guest-scenario.sh fresh /tests/bench/$job"
	fi
	progress_begin "run:$name:$r" "$name run $r/$n: $job on the $kernel kernel$([ "$fill" != 0 ] && echo ", aged to ${fill%%+*}%${fill#"${fill%%+*}"}, seed $seed")"
	GUEST_NICE=10 guest_run "bench/runners/run.sh: scenario '$name' (bench/$job, $kernel kernel) run $r" "$dir" "$kernel" \
		--kernel "$img" --timeout "${VM_TIMEOUT:-1800}" \
		--hdd "$DISK_SIZE,profile=$PROFILE,time-scale=$TIME_SCALE,queue-depth=$qd,trace=$dir/trace.csv$base" \
		--initrd-extra "$FIO_ROOT" --initrd-extra "$out/guest-root" \
		-- "$cmd"
	rc=$?
	# the page's facts about the guest, from guest_run's record (vm.env)
	{ echo "kernel_flavour=$kernel"; grep '^accel=' "$dir/vm.env"; } >>"$dir/env.txt"
	[ $rc = 0 ] || { failed_run "$name" "$r" "status=$rc"; return 1; }
	# O_DIRECT jobs reach the disk one request per read: join them with the trace
	if [ "$job" != zones ] && grep -q '^direct=1' "$JOB_DIR/$job" && ! join_trace "$dir"; then
		echo "bench/runners/run.sh: scenario '$name' run $r: the disk trace does not account for the engine's reads:" >&2
		failed_run "$name" "$r" trace-join "$dir/join.err"
		return 1
	fi
	echo "$name $r ok" >>"$out/status"
	progress_end "run:$name:$r"
}

run_scaleout() { # name job
	local name=$1 dir=$out/$1 rc
	progress_begin "run:$name:1" "$name: patched and stock guests at once, one fio client, $2"
	QUICK=$QUICK PROFILE=$PROFILE TIME_SCALE=$TIME_SCALE FIO_ROOT=$FIO_ROOT \
		BZIMAGE_PATCHED=$BZIMAGE_PATCHED BZIMAGE_STOCK=$BZIMAGE_STOCK \
		nice "$top/bench/runners/scaleout.sh" "$dir" "$JOB_DIR/$2" 2>"$out/$name.err" | sed 's/^/  /'
	rc=${PIPESTATUS[0]}
	if [ "$rc" != 0 ]; then
		echo "bench/runners/run.sh: scenario '$name' (bench/$2, two guests) failed with status $rc:" >&2
		failed_run "$name" 1 "status=$rc" "$out/$name.err"
		return 1
	fi
	echo "$name 1 ok" >>"$out/status"
	progress_end "run:$name:1"
}

run_t0=$(date +%s)
# the progress log: bench/runners/bench.sh's (BENCH_PROGRESS) with this run's steps
# added, or one of this run's own when run.sh runs alone
[ -n "${BENCH_PROGRESS:-}" ] || { rm -f "$out/progress.log"; progress_init "$out/progress.log"; }
run_plan | while read -r _ k c; do progress_plan "$k" "$c"; done
stage "profile $PROFILE, time-scale $TIME_SCALE, $DISK_SIZE disk, $RUNS run(s) per fresh scenario, QUICK=$QUICK FULL=$FULL, into ${out#"$top"/}"

# ---- the aged images first, AGED_JOBS at a time, the fullest first (they
# take longest); nothing is measured meanwhile, so the ageing guests never
# share the host with a measurement.  A fill whose ageing fails is listed in
# aged-failed and its scenario fails at once instead of ageing again.
: >"$out/aged-failed"
if [ -n "$images" ]; then
	stage "aged images: $(echo "$images" | wc -l) ($(echo "$images" | awk '{ printf "%s%s/seed %s/%s", (NR > 1 ? ", " : ""), $1, $2, $3 }')), $AGED_JOBS at a time, $AGED_MEM MiB per ageing guest"
	running=0
	while read -r f sd k; do
		if [ "$running" -ge "$AGED_JOBS" ]; then wait -n; running=$((running - 1)); fi
		# each of AGED_JOBS guests at once has 1/AGED_JOBS of the wall clock
		( if aged_image "$f" "$sd" "$k" begin >/dev/null; then progress_end "age:$f:$sd:$k" "$AGED_JOBS"
		  else echo "$f $sd $k" >>"$out/aged-failed"; fi ) &
		running=$((running + 1))
	done <<<"$images"
	wait
fi
while read -r name kernel job fill _ measures; do
	[ -n "$name" ] || continue
	# the scenarios that measure scaleout (bench/jobs/scenarios) are bench/runners/scaleout.sh's
	case ,$measures, in *,scaleout,*) run_scaleout "$name" "$job"; continue ;; esac
	n=$(nruns "$kernel" "$fill" "$measures")
	for r in $(seq 1 "$n"); do
		# a fresh scenario stops at its first failed run; an aged one tries every seed
		run_one "$name" "$kernel" "$job" "$fill" "$r" "$n" || [ "$fill" != 0 ] || break
	done
done <<<"$selected"

progress_begin pages "summarise, plots, $(basename "$RESULTS")"
"$top/bench/measures/summarise.sh" "$out" || { echo "bench/runners/run.sh: summarising $out failed" >&2; echo "summarise - FAIL" >>"$out/status"; failed=1; }
"$top/bench/measures/plots.sh" "$out" || { echo "bench/runners/run.sh: plotting failed" >&2; echo "plots - FAIL" >>"$out/status"; failed=1; }
[ $failed = 0 ] || echo "partial=1" >>"$out/run-env.txt"
# the steps' times so far (the page's table of the plan against the run)
progress_table >"$out/steps.csv"
echo "run_seconds=$(($(date +%s) - run_t0))" >>"$out/run-env.txt"
"$top/bench/measures/results.sh" "$out" "$RESULTS" || { echo "bench/runners/run.sh: writing $RESULTS failed" >&2; failed=1; }
# the page's own checks (commit, no absolute path, links, the answer)
if [ -f "$RESULTS" ] && ! "$top/bench/measures/page-check.sh" "$RESULTS" >"$out/page-check.tap" 2>&1; then
	echo "bench/runners/run.sh: $RESULTS fails its checks:" >&2
	grep -v '^ok' "$out/page-check.tap" | sed 's/^/    /' >&2
	failed=1
fi
progress_end pages
stage "done ($(grep -c ' ok$' "$out/status") run(s) ok, $(grep -c ' FAIL ' "$out/status") failed)"
exit $failed
