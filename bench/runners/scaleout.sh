#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Scale-out on fio's own client/server: boot one guest per kernel flavour
# (default: patched and stock, side by side), each on its own modelled disk
# (vm/runner/run --hdd) and running `fio --server` (bench/guest/guest-server.sh) behind
# a port forwarded on 127.0.0.1; then the host's fio drives all of them at
# once with `--client=HOSTS` (a hosts file, one `127.0.0.1,PORT` per guest)
# and the same job files.  fio's JSON (one entry per job and server, tagged
# with the server's address and port; OUT/ports.csv maps the port to the
# guest), the engine's logs and the disk models' traces come back into OUT;
# OUT/scaleout.csv has one row per guest and job.
#
# Usage: bench/runners/scaleout.sh OUT [JOBFILE]   (default: bench/jobs/seq.fio)
# Variables: QUICK=1, PROFILE, TIME_SCALE, SCALEOUT_VMS ("patched stock"),
#   FIO (the host's fio, same version as the guests'), FIO_ROOT,
#   BZIMAGE_PATCHED, BZIMAGE_STOCK, VM_TIMEOUT (per guest, default 1800)
# Exit status: 0 when every guest ran the jobs; 1 when one failed (what came
# back is kept, scaleout.csv marks it); 2 on bad input.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
out=${1:?usage: bench/runners/scaleout.sh OUT [JOBFILE]}
shift
jobs=("$@")
[ ${#jobs[@]} -gt 0 ] || jobs=("$top/bench/jobs/seq.fio")
QUICK=${QUICK:-0}
PROFILE=${PROFILE:-desktop7200}
TIME_SCALE=${TIME_SCALE:-1}
SCALEOUT_VMS=${SCALEOUT_VMS:-patched stock}
FIO=${FIO:-$build/fio-src/tree/fio}
FIO_ROOT=${FIO_ROOT:-$build/fio-guest/root}
BZIMAGE_PATCHED=${BZIMAGE_PATCHED:-$build/kbuild-patched/arch/x86/boot/bzImage}
BZIMAGE_STOCK=${BZIMAGE_STOCK:-$build/kbuild-stock/arch/x86/boot/bzImage}
VM_TIMEOUT=${VM_TIMEOUT:-1800}
DISK_SIZE=64G
READY_TIMEOUT=${READY_TIMEOUT:-300}

. "$top/bench/measures/lib.sh" && lib_init SCALE bench/runners/scaleout.sh
. "$top/vm/lib/guest-run.sh"

case $QUICK in 0|1) ;; *) die "QUICK='$QUICK': use 0 or 1" ;; esac
grep -q "^\[$PROFILE\]" "$top/vm/hdd-model/profiles.conf" ||
	die "PROFILE='$PROFILE' is not in vm/hdd-model/profiles.conf"
[ -x "$FIO" ] || die "the host's fio '$FIO' missing: make engine-fio"
[ -x "$FIO_ROOT/usr/bin/fio" ] || die "no fio in '$FIO_ROOT': make engine-guest-root"
# With a hosts file fio sends each server the first job file only.
[ ${#jobs[@]} = 1 ] || die "one job file per run (fio --client=HOSTS sends only the first); got ${#jobs[@]}"
for j in "${jobs[@]}"; do [ -r "$j" ] || die "job file '$j' not found"; done
# The job file is checked here, before any guest boots: the host's fio
# parses it with the host's build of the engine (same sources as the
# guests'), so a bad option is refused in a second with fio's own words.
# A server that refuses a job only sends its error text if the client reads
# it before the connection drops, which under load it may not.
HOST_ENGINE=${HOST_ENGINE:-$build/fio-engine/hotcold.so}
[ -r "$HOST_ENGINE" ] || die "the host's engine '$HOST_ENGINE' missing: make engine"
parse_dir=$(mktemp -d) || die "mktemp failed"
( BENCH_QUICK=$QUICK; . "$top/bench/guest/job-env.sh"
  HOTCOLD_ENGINE=$HOST_ENGINE HOTCOLD_FSROOT=$parse_dir HOTCOLD_MNT=$parse_dir HOTCOLD_LOGDIR=$parse_dir
  "$FIO" --parse-only "${jobs[@]}" ) >"$parse_dir/parse.out" 2>&1 ||
	{ echo "bench/runners/scaleout.sh: fio refuses job file '${jobs[0]}'; no guest started. fio said:" >&2
	  grep -v '^ *\(valid values\)\?:\|valid values:\|^$' "$parse_dir/parse.out" | tail -n 5 | sed 's/^/    /' >&2
	  rm -rf "$parse_dir"; exit 2; }
rm -rf "$parse_dir"
names=()
for v in $SCALEOUT_VMS; do
	case $v in
	patched) [ -r "$BZIMAGE_PATCHED" ] || die "patched kernel '$BZIMAGE_PATCHED' missing: make kernel-patched" ;;
	stock) [ -r "$BZIMAGE_STOCK" ] || die "stock kernel '$BZIMAGE_STOCK' missing: make kernel-stock" ;;
	*) die "SCALEOUT_VMS: '$v' is not a kernel flavour (patched, stock)" ;;
	esac
	names+=("$v")
done
[ ${#names[@]} -ge 1 ] || die "SCALEOUT_VMS is empty"
[ "$(printf '%s\n' "${names[@]}" | sort | uniq -d)" = "" ] ||
	die "SCALEOUT_VMS='$SCALEOUT_VMS': a flavour twice (the guests are told apart by it)"

rm -rf "$out"
mkdir -p "$out/guest-root/tests/bench"
cp "$top/bench/guest/guest-server.sh" "$out/guest-root/tests/bench/"

# A TCP port nobody uses: not a local port of any socket in /proc/net/tcp{,6}
# (listening or connected), below the kernel's ephemeral range (32768-
# 60999 by default) so that no outgoing connection takes it meanwhile, and
# not one this run already chose.  Sets $port (not in a subshell, so that
# `taken` remembers it).
declare -A taken=()
free_port() {
	local p used
	used=$(awk 'FNR > 1 { n = split($2, a, ":"); print a[n] }' /proc/net/tcp /proc/net/tcp6 2>/dev/null |
		while read -r h; do echo $((16#$h)); done)
	while :; do
		p=$((20000 + RANDOM % 12768))
		[ -z "${taken[$p]:-}" ] && ! grep -qx "$p" <<<"$used" && break
	done
	taken[$p]=1
	port=$p
}

# fio does not make a job's directory=a:b:c; the guest makes them before
# the jobs arrive (${HOTCOLD_MNT} is /mnt/bench there).
dirs=$(sed -n 's/^directory=//p' "${jobs[@]}" | sed -e 's|\${HOTCOLD_MNT}|/mnt/bench|g' -e 's|\${HOTCOLD_FSROOT}|/mnt|g' | tr ':' '\n' | sort -u | tr '\n' ' ')
case $dirs in *[!a-zA-Z0-9/_.\ -]*) die "job files: directory= '$dirs' has characters this script does not pass on" ;; esac

declare -A pid=() fport=() dport=() rc=()
# stop_guest NAME: guest_run runs in a subshell: stop its vm/runner/run
# (which stops QEMU and the disk model), then the subshell
stop_guest() {
	pkill -TERM -P "${pid[$1]}" 2>/dev/null
	kill "${pid[$1]}" 2>/dev/null
}
stop_all() {
	for n in "${!pid[@]}"; do stop_guest "$n"; done
	wait 2>/dev/null
}
trap 'stop_all; exit 130' INT TERM

: >"$out/hosts.list"
for n in "${names[@]}"; do
	[ "$n" = stock ] && img=$BZIMAGE_STOCK || img=$BZIMAGE_PATCHED
	free_port; fport[$n]=$port
	free_port; dport[$n]=$port
	mkdir -p "$out/$n"
	stage "guest '$n': $n kernel, fio --server on 127.0.0.1:${fport[$n]}"
	guest_run "bench/runners/scaleout.sh: guest '$n'" "$out/$n" "$n" --kernel "$img" --timeout "$VM_TIMEOUT" \
		--hdd "$DISK_SIZE,profile=$PROFILE,time-scale=$TIME_SCALE,trace=$out/$n/trace.csv" \
		--hostfwd "${fport[$n]}:8765" --hostfwd "${dport[$n]}:8766" \
		--initrd-extra "$FIO_ROOT" --initrd-extra "$out/guest-root" \
		-- "sh /tests/bench/guest-server.sh $n $dirs" &
	pid[$n]=$!
	echo "127.0.0.1,${fport[$n]}" >>"$out/hosts.list"
done

# Every server ready, or a clear message naming the guest that is not.
ready_by=$(($(date +%s) + READY_TIMEOUT))
for n in "${names[@]}"; do
	until grep -q '^@@FIO-SERVER-READY@@' "$out/$n/guest.out" 2>/dev/null; do
		if ! kill -0 "${pid[$n]}" 2>/dev/null; then
			# guest_run said why, with the guest's last lines
			wait "${pid[$n]}"; r=$?
			echo "bench/runners/scaleout.sh: guest '$n' ended (status $r) before its fio server was ready" >&2
			unset "pid[$n]"; stop_all; exit 1
		fi
		if [ "$(date +%s)" -ge $ready_by ]; then
			echo "bench/runners/scaleout.sh: guest '$n': no fio server after ${READY_TIMEOUT}s; stopping" >&2
			stop_all; exit 1
		fi
		sleep 1
	done
done
stage "servers ready: $(tr '\n' ' ' <"$out/hosts.list")"

# One client, every server, the same job files.  A guest that dies drops
# its connection and fio reports it; the timeout is the backstop.
stage "fio --client=hosts.list ${jobs[*]##*/}"
# The client reads the job file and expands its ${VARS} from its own
# environment: the guest's paths and the sizes, as in bench/guest-scenario.sh.
# Options before --client are the client's own (output), after it the job's.
BENCH_QUICK=$QUICK
. "$top/bench/guest/job-env.sh"
timeout -k 10 "$VM_TIMEOUT" "$FIO" --output-format=json --output="$out/fio.out" \
	--client="$out/hosts.list" "${jobs[@]}" >"$out/fio.stdout" 2>"$out/fio.stderr"
frc=$?
# The client's output file has the servers' messages (each line tagged
# <hostname>) first, then the JSON.
awk '/^\{$/ { j = 1 } { print > (j ? json : msg) }' json="$out/fio.json" msg="$out/fio-messages.txt" "$out/fio.out" 2>/dev/null
[ $frc = 124 ] && echo "bench/runners/scaleout.sh: the fio client did not finish within ${VM_TIMEOUT}s" >&2
[ $frc = 0 ] || { echo "bench/runners/scaleout.sh: the fio client exited with status $frc (stderr: $out/fio.stderr)" >&2
	tail -n 5 "$out/fio.stderr" | sed 's/^/    /' >&2; }

# End of run: a connection to each guest's port 8766 stops its server; the
# guest leaves its logs in /out and powers off.
for n in "${names[@]}"; do
	for _ in $(seq 1 30); do
		kill -0 "${pid[$n]}" 2>/dev/null || break
		timeout 5 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$0"' "${dport[$n]}" 2>/dev/null
		sleep 2
	done
	if kill -0 "${pid[$n]}" 2>/dev/null; then
		echo "bench/runners/scaleout.sh: guest '$n' did not end after the end-of-run signal (port ${dport[$n]}); stopped" >&2
		stop_guest "$n"
	fi
done
failed=0
[ $frc = 0 ] || failed=1
for n in "${names[@]}"; do
	wait "${pid[$n]}"; rc[$n]=$?
	unset "pid[$n]"
	{ echo "kernel_flavour=$n"; echo "fio_port=${fport[$n]}"; grep '^accel=' "$out/$n/vm.env"; } >>"$out/$n/env.txt"
	# guest_run has said why, with the tails of its logs
	[ "${rc[$n]}" = 0 ] || { echo "bench/runners/scaleout.sh: guest '$n' failed with status ${rc[$n]}" >&2; failed=1; }
done

# One row per server and job: the client's JSON tags each job with the
# address and port it reached the server on; ports.csv maps them back.
# Latency: fio's clat mean, submission to completion (the engine hands fio
# the submission time, ioengines/hotcold.md), as on the rest of the page.
for n in "${names[@]}"; do echo "$n,${fport[$n]}"; done >"$out/ports.csv"
if jq -e '.client_stats' "$out/fio.json" >/dev/null 2>&1; then
	jq -r --argjson map "$(awk -F, '{ printf "%s\"%s\":\"%s\"", (NR > 1 ? "," : "{"), $2, $1 } END { print "}" }' "$out/ports.csv")" \
		'.client_stats[] | select(.jobname != "All clients") |
		[($map[.port | tostring] // "port \(.port)"), .jobname, (.read.io_bytes + .write.io_bytes),
		 ((.read.bw_bytes + .write.bw_bytes) / 1e6),
		 (if .read.io_bytes > 0 then .read.clat_ns.mean else .write.clat_ns.mean end) / 1e6,
		 .error] | @csv' "$out/fio.json" | tr -d '"' |
		{ echo "host,job,bytes,mb_s,lat_mean_ms,error"; sort; } >"$out/scaleout.csv"
else
	echo "bench/runners/scaleout.sh: no client_stats in $out/fio.json" >&2
	echo "host,job,bytes,mb_s,lat_mean_ms,error" >"$out/scaleout.csv"
	failed=1
fi
for n in "${names[@]}"; do
	grep -q "^$n," "$out/scaleout.csv" ||
		{ echo "bench/runners/scaleout.sh: no job results from guest '$n' in $out/fio.json; its fio said (all: $out/fio-messages.txt):" >&2
		  grep "^<$n> " "$out/fio-messages.txt" 2>/dev/null | grep -iv 'valid values\|^<[^>]*> *: ' | tail -n 5 | sed 's/^/    /' >&2
		  failed=1; }
done
bad=$(awk -F, 'NR > 1 && $6 != 0 { printf "%s %s (error %s); ", $1, $2, $6 }' "$out/scaleout.csv")
[ -z "$bad" ] || { echo "bench/runners/scaleout.sh: jobs that failed: $bad(see $out/fio-messages.txt)" >&2; failed=1; }
echo "$failed" >"$out/failed"
stage "done: $(($(wc -l <"$out/scaleout.csv") - 1)) job result(s) from ${#names[@]} guest(s) in ${out#"$top"/}/scaleout.csv$([ $failed = 0 ] || echo ', PARTIAL')"
exit $failed
