#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# compile-test.sh - build the objects of the .c files a patch series touches
#
# Usage: compile-test.sh SRC_TREE OUT_DIR PATCH...
#
# SRC_TREE is a kernel tree with the patches already applied; OUT_DIR is the
# kbuild output directory (O=).  The first run creates an x86_64
# allmodconfig in OUT_DIR (minus options that only slow the build down:
# debug info, BTF, sanitizers, coverage, GCC plugins; CONFIG_WERROR stays as
# allmodconfig sets it) and runs `make prepare`; later runs reuse OUT_DIR.
#
# Then every .c file named in a `+++ b/...` line of the patches is built,
# all in one `make -k O=OUT_DIR path/a.o path/b.o ...` (one make per file
# spent most of its time in kbuild's top-level checks: 63 files, minutes),
# one TAP line each.  Files under tools/
# and Documentation/ are skipped.  kbuild compiles a single target even
# when the config does not build it, so membership is decided first, by
# evaluating the kbuild Makefiles of the file's directory and of its
# parents under OUT_DIR's config; a file that is not part of the x86_64
# allmodconfig build (e.g. hostfs, which is UML-only) is reported as
# "ok N - FILE # SKIP reason": a skip, not a pass.  Exit status is non-zero if
# any file failed.
#
# Environment: JOBS (default 2), MAKE_NICE (default 10).

set -u

usage() {
	echo "usage: $0 SRC_TREE OUT_DIR PATCH..." >&2
	exit 2
}

[ $# -ge 3 ] || usage
src=$1
out=$2
shift 2
jobs=${JOBS:-2}
niceness=${MAKE_NICE:-10}

if [ ! -f "$src/Makefile" ] || [ ! -f "$src/Kconfig" ]; then
	echo "$0: SRC_TREE '$src' is not a kernel source tree (no Makefile/Kconfig)" >&2
	exit 2
fi
for p in "$@"; do
	if [ ! -r "$p" ]; then
		echo "$0: PATCH '$p' is not a readable file" >&2
		exit 2
	fi
	if ! grep -q '^+++ ' "$p"; then
		echo "$0: PATCH '$p' contains no '+++' lines; is it a patch?" >&2
		exit 2
	fi
done

mkdir -p "$out" || { echo "$0: cannot create OUT_DIR '$out'" >&2; exit 2; }
src=$(cd "$src" && pwd)
out=$(cd "$out" && pwd)
logdir=$out/compile-test-logs
mkdir -p "$logdir"

# ccache keeps a re-run (and CI on a machine that built before) cheap; it
# replays the compiler's warnings, so the verdict is the same.
cc=gcc
command -v ccache >/dev/null && cc="ccache gcc"
kmake() {
	nice -n "$niceness" make -C "$src" O="$out" ARCH=x86_64 -j"$jobs" CC="$cc" "$@"
}

# Config: allmodconfig with the slow-only options forced off.  The stamp
# records that OUT_DIR holds our config, so later runs are incremental.
stamp=$out/.compile-test-config
if [ ! -f "$stamp" ] || [ ! -f "$out/.config" ]; then
	echo "# creating x86_64 allmodconfig in $out"
	cat > "$out/compile-test.allconfig" <<-'EOF'
	CONFIG_DEBUG_INFO_NONE=y
	# CONFIG_DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT is not set
	# CONFIG_DEBUG_INFO_DWARF4 is not set
	# CONFIG_DEBUG_INFO_DWARF5 is not set
	# CONFIG_DEBUG_INFO_BTF is not set
	# CONFIG_KASAN is not set
	# CONFIG_KCSAN is not set
	# CONFIG_UBSAN is not set
	# CONFIG_KCOV is not set
	# CONFIG_GCOV_KERNEL is not set
	# CONFIG_GCC_PLUGINS is not set
	EOF
	if ! kmake KCONFIG_ALLCONFIG="$out/compile-test.allconfig" \
		allmodconfig > "$logdir/config.log" 2>&1; then
		echo "$0: make allmodconfig failed, see $logdir/config.log" >&2
		exit 1
	fi
	touch "$stamp"
fi

echo "# make prepare (log: $logdir/prepare.log)"
if ! kmake prepare > "$logdir/prepare.log" 2>&1; then
	echo "$0: make prepare failed, see $logdir/prepare.log" >&2
	tail -20 "$logdir/prepare.log" >&2
	exit 1
fi

# Print the objects and subdirectories kbuild builds in directory $dir
# under the config in $OUT; run from the top of the source tree.
objs_mk=$out/compile-test-objs.mk
cat > "$objs_mk" <<'EOF'
src := $(dir)
obj := $(dir)
srctree := .
objtree := $(OUT)
include $(OUT)/include/config/auto.conf
include scripts/Kbuild.include
kbuild-file := $(if $(wildcard $(src)/Kbuild),$(src)/Kbuild,$(src)/Makefile)
include $(kbuild-file)
include scripts/Makefile.lib
print:
	@echo $(real-obj-y) $(real-obj-m) $(lib-y) $(subdir-ym)
EOF

kbuild_lists() { # $1 = directory; prints what kbuild builds there
	local list
	list=$(cd "$src" && make -s --no-print-directory -f "$objs_mk" \
		dir="$1" OUT="$out" ARCH=x86 SRCARCH=x86 print 2>/dev/null) ||
		return 1
	echo "$list" | tr ' ' '\n'
}

# Is object $1 part of the build: listed in its directory, and every
# directory up to the top (or to arch/x86) listed in its parent?
# Returns 0 yes, 1 no, 2 could not tell (a Makefile we cannot evaluate).
# Each directory's list is evaluated once (the series touches many files
# in few directories).
declare -A dirlist
built_under_config() {
	local want=$1 dir
	dir=$(dirname "$want")
	while :; do
		if [ -z "${dirlist[$dir]+set}" ]; then
			dirlist[$dir]=$(kbuild_lists "$dir") || {
				unset "dirlist[$dir]"
				return 2
			}
		fi
		grep -qxF "$want" <<< "${dirlist[$dir]}" || return 1
		case $dir in
		arch/x86) return 0 ;;
		arch/*/*) ;;
		arch/*) return 1 ;;
		*/*) ;;
		*) return 0 ;;
		esac
		want=$dir
		dir=$(dirname "$dir")
	done
}

# The .c files the patches touch (new or modified; deleted files have
# "+++ /dev/null" and drop out).
mapfile -t files < <(sed -n 's|^+++ b/\(.*\.c\)$|\1|p' "$@" | sort -u)

. "$(dirname "$0")/../vm/lib/tap.sh"
build=() # the files to build, in order
for f in "${files[@]}"; do
	case $f in
	tools/* | Documentation/*)
		skip "$f" "not kernel code"
		continue
		;;
	esac
	if [ ! -f "$src/$f" ]; then
		skip "$f" "not in SRC_TREE (are the patches applied?)"
		continue
	fi
	built_under_config "${f%.c}.o"
	case $? in
	1)
		skip "$f" "not built under x86_64 allmodconfig"
		continue
		;;
	2)	# cannot tell: build it, a failure is then reported
		echo "# note $f: could not evaluate the kbuild Makefiles" ;;
	esac
	build+=("$f")
done

# One make for all of them; -k goes on past a file that fails.  No rm:
# make rebuilds what changed (incremental).  A failed compile does not
# always remove the old object (a preprocessor error writes none), so a
# file is ok only when its object exists, make reported no error for that
# object ("*** [...: fs/x.o] Error 1") and no error or warning in the log
# names the file.  If make failed and every file looks ok, something else
# failed (prepare, say): a failure of its own, never a pass.
log=$logdir/objects.log
rc=0
if [ ${#build[@]} -gt 0 ]; then
	echo "# make -k ${#build[@]} objects (log: $log)"
	kmake -k "${build[@]/%.c/.o}" > "$log" 2>&1
	rc=$?
fi
bad=0
for f in "${build[@]}"; do
	obj=${f%.c}.o
	msgs=$(grep -E "^([^ ]*/)?${f//./\\.}:[0-9]+(:[0-9]+)?: (error|warning)" "$log")
	if [ -f "$out/$obj" ] && [ -z "$msgs" ] &&
		! grep -qF ": $obj] Error" "$log"; then
		ok "$f"
	else
		not_ok "$f"
		bad=1
		# an error in a header names the header, not the file
		[ -n "$msgs" ] || msgs=$(grep -E 'error|warning' "$log")
		echo "${msgs:-no object, no error in the log}" | head -20 | sed 's/^/#   /'
		echo "#   full log: $log"
	fi
done
if [ $rc -ne 0 ] && [ $bad -eq 0 ]; then
	not_ok "make -k of the objects exited with status $rc"
	grep -E 'error|Error' "$log" | head -20 | sed 's/^/#   /'
	echo "#   full log: $log"
fi

tap_done
