#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The man page is valid POD and documents every key that the filter's
# help lists (with its default), and every profile key (with its range)
# that the filter knows (the list its message for an unknown key gives).
# It is a reference page with nbdkit's sections, in nbdkit's order, that
# says how it differs from nbdkit's spinning filter; the measurements
# live in the validation page next to it, not in the man page.
. "$(dirname "$0")/hdd-test-lib.sh"
requires nbdkit podchecker
pod=$srcdir/nbdkit-hdd-filter.pod
valpod=$srcdir/nbdkit-hdd-filter-validation.pod
podchecker "$pod" || fail "podchecker $pod"
podchecker "$valpod" || fail "podchecker $valpod"
want="NAME SYNOPSIS DESCRIPTION EXAMPLES PARAMETERS FILES VERSION SEE ALSO"
have=$(sed -n 's/^=head1 //p' "$pod" | tr '\n' ' ')
case "$have" in
"$want "*) echo "sections: $have" ;;
*) fail "$pod: sections '$have', expected '$want' first, in that order" ;;
esac
grep -q 'L<nbdkit-spinning-filter(1)>' "$pod" ||
    fail "$pod: DESCRIPTION does not say how it differs from nbdkit-spinning-filter"
# the measurement tables: in the validation page, not in the man page
for table in ' drive      metric ' ' workload  ' ' write-cache=off   write-cache=on'; do
    grep -q -- "$table" "$valpod" || fail "no table '$table' in $valpod"
    grep -q -- "$table" "$pod" && fail "table '$table' still in $pod"
done
keys=$(timeout 10 nbdkit --filter="$filter" memory --help 2>&1 |
       sed -n 's/^\([a-z-]*\)=[A-Z].*/\1/p')
[ -n "$keys" ] || fail "no keys in the filter's --help"
for k in $keys; do
    grep -q "^=item B<$k=>" "$pod" || fail "$k= not in PARAMETERS of $pod"
    grep -A12 "^=item B<$k=>" "$pod" | grep -qi default ||
        fail "$k= has no default in $pod"
    echo "documented: $k="
done
printf '[p]\nno-such-key = 1\n' >"$tmp/p.conf"
timeout 10 nbdkit -U - --filter="$filter" memory 1G profiles="$tmp/p.conf" \
    profile=p --run 'exit 0' >"$tmp/out" 2>&1 && fail "no-such-key accepted"
pkeys=$(sed -n 's/.*(known keys: \(.*\))$/\1/p' "$tmp/out" | tr -d ,)
[ -n "$pkeys" ] || { cat "$tmp/out"; fail "no list of known keys in the message"; }
for k in $pkeys; do
    grep -Eq "^=item (C<[a-z-]*>, )*C<$k>( \(|,)" "$pod" ||
        fail "profile key $k not under Profile keys in $pod"
    echo "documented profile key: $k"
done
