#!/bin/sh
# The man page is valid POD and documents every key that the filter's
# help lists (with its default).
. "$(dirname "$0")/hdd-test-lib.sh"
requires nbdkit podchecker
pod=$srcdir/nbdkit-hdd-filter.pod
podchecker "$pod" || fail "podchecker $pod"
keys=$(timeout 10 nbdkit --filter="$filter" memory --help 2>&1 |
       sed -n 's/^\([a-z-]*\)=[A-Z].*/\1/p')
[ -n "$keys" ] || fail "no keys in the filter's --help"
for k in $keys; do
    grep -q "^=item B<$k=>" "$pod" || fail "$k= not in PARAMETERS of $pod"
    grep -A12 "^=item B<$k=>" "$pod" | grep -qi default ||
        fail "$k= has no default in $pod"
    echo "documented: $k="
done
