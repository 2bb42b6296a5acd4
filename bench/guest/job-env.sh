# SPDX-License-Identifier: GPL-2.0
# bench/guest/job-env.sh - sourced (sh or bash): the environment bench/*.fio read.
# The sizes come from BENCH_QUICK (1: small) unless already set; the paths
# are the guest's.  Used in the guest by bench/guest/guest-scenario.sh and on the
# host by bench/runners/scaleout.sh, whose fio client expands the job file.
# HOTCOLD_FSROOT is the filesystem's root (top-level directories),
# HOTCOLD_MNT a directory below it.
export HOTCOLD_ENGINE=/usr/lib/fio/hotcold.so HOTCOLD_FSROOT=/mnt HOTCOLD_MNT=/mnt/bench HOTCOLD_LOGDIR=/out
if [ "${BENCH_QUICK:-0}" = 1 ]; then
	: "${BENCH_SIZE:=16m}" "${BENCH_IO:=1m}" "${BENCH_NRFILES:=4}"
else
	: "${BENCH_SIZE:=64m}" "${BENCH_IO:=8m}" "${BENCH_NRFILES:=16}"
fi
: "${BENCH_QD:=1}"
export BENCH_SIZE BENCH_IO BENCH_NRFILES BENCH_QD
export BENCH_PLSIZE=$((BENCH_NRFILES * 256))k
# bench/jobs/zipf.fio (issue 26): a Zipf popularity over a few hundred files
: "${ZIPF_NRFILES:=300}" "${ZIPF_SIZE:=64k-8m}" "${ZIPF_THETA:=1.1}" "${ZIPF_SEED:=1}"
: "${ZIPF_RUNTIME:=1800}" "${ZIPF_WINDOW_MS:=10000}"
export ZIPF_NRFILES ZIPF_SIZE ZIPF_THETA ZIPF_SEED ZIPF_RUNTIME ZIPF_WINDOW_MS
