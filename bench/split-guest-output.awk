# bench/split-guest-output.awk: the files a guest script printed between
#   @@BENCH-FILE-BEGIN name@@ ... @@BENCH-FILE-END name@@
# lines (bench/guest-scenario.sh, bench/guest-server.sh), into dir/name.
# Usage: awk -v dir=DIR -f bench/split-guest-output.awk GUEST-OUTPUT
/^@@BENCH-FILE-BEGIN .*@@$/ { f = $2; sub(/@@$/, "", f); f = dir "/" f; printf "" >f; next }
/^@@BENCH-FILE-END .*@@$/ { close(f); f = ""; next }
f != "" { print >f }
