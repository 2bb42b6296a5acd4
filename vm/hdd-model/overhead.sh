#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# hdd-overhead: what the filter costs at time-scale=0 (the model's
# bookkeeping, no delays), against plain nbdkit with the same plugin
# (memory 64G) and no filter, in one run: IOPS of 4 KiB random reads and
# MB/s of 1 MiB sequential reads (hdd-nbdread, libnbd, queue depth 1),
# for plain, hdd and hdd with trace=.  Each repetition runs the three
# back to back, the order rotating from one repetition to the next, so
# that each ratio compares runs made under the same host load; the cost
# is 1 - hdd/plain of each repetition.  The server's own CPU time
# (user + system, all its threads, from /proc) per request is reported
# too: on a loaded host it varies less than the rate, and its cost is
# hdd/plain - 1.
# Usage: overhead.sh OUT.csv OUT.md   (HDD_OVERHEAD_REPS, default 7)
# Writes OUT.csv (one line per workload, configuration and metric:
# median, min and max, and of the cost in %), OUT.md, and the raw runs
# next to them (OUT-runs.csv).  Not a test: the verdict is printed.
set -eu
srcdir=$(cd "$(dirname "$0")" && pwd)
HDD_BUILD=${HDD_BUILD:-$srcdir/../../build/hdd}
filter=$HDD_BUILD/nbdkit-hdd-filter.so
nbdread=$HDD_BUILD/hdd-nbdread
reps=${HDD_OVERHEAD_REPS:-7}
[ $# -eq 2 ] || { echo "usage: $0 OUT.csv OUT.md" >&2; exit 2; }
csv=$1 md=$2
runs=${csv%.csv}-runs.csv
case $reps in
''|*[!0-9]*) echo "$0: HDD_OVERHEAD_REPS=$reps: expected a whole number >= 3" >&2; exit 2 ;;
esac
[ "$reps" -ge 3 ] || { echo "$0: HDD_OVERHEAD_REPS=$reps: expected >= 3" >&2; exit 2; }
[ -x "$nbdread" ] || { echo "$0: $nbdread not built (libnbd-dev; make hdd)" >&2; exit 1; }
[ -f "$filter" ] || { echo "$0: $filter not built (make hdd)" >&2; exit 1; }
for t in nbdkit pgrep; do
    command -v $t >/dev/null || { echo "$0: $t not found (vm/lib/install-deps.sh)" >&2; exit 1; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hdd-overhead.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export nbdread

iops_bytes=268435456            # 65536 random 4 KiB reads
seq_bytes=4294967296             # 4 GiB in 1 MiB reads

# run CONFIG WORKLOAD: prints "RATE CPU_US": IOPS or MB/s, and the
# server's CPU microseconds per request over the timed reads.
run ()
{
    case $1 in
    plain) set -- "$2" ;;
    hdd) set -- "$2" --filter="$filter" ;;
    hdd-trace) rm -f "$tmp/trace.csv"
        set -- "$2" --filter="$filter" trace="$tmp/trace.csv" ;;
    esac
    w=$1; shift
    f= ; [ $# -gt 0 ] && { f=$1; shift; }
    case $w in
    iops) cmd='"$nbdread" "$uri" 0 '$iops_bytes' 4096 random' ;;
    seq) cmd='"$nbdread" "$uri" 0 '$seq_bytes' 1048576' ;;
    esac
    # The server is the nbdkit that nbdkit forked next to the --run shell
    # (the parent only waits): its CPU ticks around the reads.
    ticks='awk "{ print \$14 + \$15 }" /proc/$srv/stat'
    cmd="srv=\$(pgrep -P \$PPID -x nbdkit); [ -r /proc/\$srv/stat ] || exit 3
        a=\$($ticks); $cmd; b=\$($ticks); echo cpu \$a \$b \$(getconf CLK_TCK)"
    # shellcheck disable=SC2086
    out=$(timeout 300 nbdkit -U - $f memory 64G ${f:+time-scale=0} "$@" \
        --run "$cmd") || { echo "$0: $w run failed: $out" >&2; exit 1; }
    echo "$out" | awk -v w="$w" '
        $1 == "cpu" { cpu = ($3 - $2) / $4 * 1e6; next }
        { bytes = $1; secs = $2; mbs = $3 }
        END { n = bytes / (w == "iops" ? 4096 : 1048576)
              if (w == "iops") printf "%.1f %.2f\n", n / secs, cpu / n
              else printf "%.2f %.2f\n", mbs, cpu / n }'
}

configs="plain hdd hdd-trace"
echo "workload,config,rep,order,rate,unit,cpu_us_per_req" >"$runs"
i=1
while [ "$i" -le "$reps" ]; do
    for w in iops seq; do
        # rotate: rep 1 plain hdd hdd-trace, rep 2 hdd hdd-trace plain, ...
        order=$(echo $configs | awk -v k="$i" '{ for (j = 0; j < NF; j++) printf "%s ", $(((j + k - 1) % NF) + 1) }')
        pos=1
        for c in $order; do
            set -- $(run "$c" "$w")
            u=IOPS; [ "$w" = seq ] && u=MB/s
            echo "$w,$c,$i,$pos,$1,$u,$2" >>"$runs"
            echo "rep $i $w $c: $1 $u, server CPU $2 us/request" >&2
            pos=$((pos + 1))
        done
    done
    i=$((i + 1))
done

# Summary: median, min, max of each rate and CPU time, and of each
# repetition's cost against the plain run of the same repetition (rate:
# 1 - x/plain; CPU: x/plain - 1).
awk -F, -v csv="$csv" '
    function med(a, n,   i, j, t) {
        for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { w = $col["workload"]; c = $col["config"]; i = $col["rep"]
      val[w, c, "rate", i] = $col["rate"]; val[w, c, "cpu", i] = $col["cpu_us_per_req"]
      unit[w] = $col["unit"]; if (i > reps) reps = i }
    END {
        print "workload,config,metric,unit,reps,median,min,max,cost_pct_median,cost_pct_min,cost_pct_max" > csv
        split("iops seq", ws, " "); split("plain hdd hdd-trace", cs, " "); split("rate cpu", ms, " ")
        for (wi = 1; wi <= 2; wi++) for (mi = 1; mi <= 2; mi++) for (ci = 1; ci <= 3; ci++) {
            w = ws[wi]; c = cs[ci]; m = ms[mi]; delete r; delete q
            for (i = 1; i <= reps; i++) {
                r[i] = val[w, c, m, i]; p = val[w, "plain", m, i]
                q[i] = p > 0 ? 100 * (m == "rate" ? 1 - r[i] / p : r[i] / p - 1) : 0
            }
            md = med(r, reps); cm = med(q, reps)
            printf "%s,%s,%s,%s,%d,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f\n", w, c, m == "rate" ? "rate" : "server_cpu",
                m == "rate" ? unit[w] : "us/request", reps, md, r[1], r[reps], cm, q[1], q[reps] > csv
        }
    }' "$runs"

# verdict METRIC: is the filter's median cost (no trace) within 5%?
verdict ()
{
    awk -F, -v m="$1" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["config"] == "hdd" && $col["metric"] == m {
            s = s sprintf(" %s %+.1f%%", $col["workload"], $col["cost_pct_median"])
            if ($col["cost_pct_median"] > 5) bad = 1 }
        END { print (bad ? "not met" : "met") " (" substr(s, 2) ")" }' "$csv"
}
{
    echo "Filter overhead at time-scale=0 vs plain nbdkit (memory 64G), $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "on $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end: the host was loaded, so"
    echo "absolute rates are noisy; each repetition runs the three configurations back to back"
    echo "(order rotating) and the cost is taken within a repetition. $reps repetitions."
    echo
    echo "| workload | config | metric | median | min | max | cost % median | cost % min..max |"
    echo "|---|---|---|---:|---:|---:|---:|---:|"
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { name = $col["workload"] == "iops" ? "4 KiB random read" : "1 MiB sequential read"
          cost = $col["config"] == "plain" ? "-" : sprintf("%+.1f", $col["cost_pct_median"])
          span = $col["config"] == "plain" ? "-" : sprintf("%+.1f..%+.1f", $col["cost_pct_min"], $col["cost_pct_max"])
          printf "| %s | %s | %s | %s %s | %s | %s | %s | %s |\n", name, $col["config"], $col["metric"], $col["median"], $col["unit"], $col["min"], $col["max"], cost, span }' "$csv"
    echo
    echo "Cost: rate 1 - filter/plain (lower throughput), server_cpu filter/plain - 1 (more CPU"
    echo "per request), each within one repetition."
    echo
    echo "Aim: at most 5% cost without the trace (hdd, median of the repetitions):"
    echo "throughput $(verdict rate); server CPU per request $(verdict server_cpu)."
} >"$md"
cat "$md"
