# SPDX-License-Identifier: GPL-2.0
# Sourced by the test-hdd-*.sh scripts (nbdkit's tests/functions.sh style).
# HDD_BUILD: where nbdkit-hdd-filter.so and the helpers were built.
set -u
srcdir=$(cd "$(dirname "$0")" && pwd)
HDD_BUILD=${HDD_BUILD:-$srcdir/../../build/hdd}
filter=$HDD_BUILD/nbdkit-hdd-filter.so
profiles=$srcdir/profiles.conf

# requires CMD...: exit 77 (skip) when a tool is missing.
requires ()
{
    for c in "$@"; do
        command -v "$c" >/dev/null 2>&1 || {
            echo "$0: '$c' not found: skipped (install it: vm/lib/install-deps.sh)" >&2
            exit 77
        }
    done
}

[ -f "$filter" ] || { echo "$0: $filter not built (make hdd)" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hdd-test.XXXXXX")
export tmp
cleanup_fns="rm -rf $tmp"
[ -n "${HDD_KEEP:-}" ] && cleanup_fns="echo kept $tmp"
trap 'eval "$cleanup_fns"' EXIT

# now_ns: monotonic-ish wall time for elapsed measurements.
now_ns () { date +%s%N; }

# fail MSG: print and exit 1.
fail () { echo "$0: FAIL: $*" >&2; exit 1; }

# profile_value PROFILE KEY: a value from profiles.conf.
profile_value ()
{
    awk -v p="$1" -v k="$2" '
        /^[[:space:]]*\[/ { gsub(/[][[:space:]]/, ""); cur = $0; next }
        { sub(/#.*/, "") }
        cur == p && index($0, "=") {
            key = $0; sub(/=.*/, "", key); gsub(/[[:space:]]/, "", key)
            val = $0; sub(/^[^=]*=/, "", val); gsub(/^[[:space:]]+|[[:space:]]+$/, "", val)
            if (key == k) { print val; exit }
        }' "$profiles"
}

# random_reads N SIZE_BYTES SEED: N qemu-io commands reading 4K at random
# 4K-aligned offsets.
random_reads ()
{
    awk -v n="$1" -v size="$2" -v seed="$3" 'BEGIN {
        srand(seed); blocks = size / 4096
        for (i = 0; i < n; i++) printf "read %.0f 4k\n", int(rand() * blocks) * 4096
    }'
}

# The libnbd test clients (need libnbd-dev at build time; hdd.mk skips
# building them without it): hdd-nbdread, and hdd-nbdio, the write cache
# tests' scripted client.  requires_client PATH: skip (exit 77) without it.
nbdread=$HDD_BUILD/hdd-nbdread
nbdio=$HDD_BUILD/hdd-nbdio
export nbdread nbdio
requires_client ()
{
    [ -x "$1" ] || {
        echo "$0: $1 not built (libnbd-dev missing): skipped" >&2
        exit 77
    }
}
requires_nbdread () { requires_client "$nbdread"; }
requires_nbdio () { requires_client "$nbdio"; }
