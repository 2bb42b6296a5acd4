# SPDX-License-Identifier: GPL-2.0
# bench/tools/tools.mk - the benchmark's own C tools, their sources and
# their host tests in bench/tools/ (included by the top Makefile).  Each
# program is built from the source named after it (hc-age.c builds hc-age);
# the headers the project shares come from vm/lib/ (-I$(TOP)/vm/lib).
#
#   make bench-tools        $(BUILD)/bench-tools/hc-age, hc-move, hc-mark, hc-track,
#                           hc-where, hc-mkfiles (static, they run in the
#                           guest) and hc-tracejoin (host)
#   make bench-tools-check  host tests of hc-age, hc-tracejoin, hc-track's
#                           policy (test-track.c) and bench/measures/csv.awk
#                           (TAP); no VM, no mounting
#
# hc-age ages an ext4 filesystem to a target fullness (hc-age.c);
# hc-tracejoin joins the disk model's trace with the engine's seek log,
# request by request (hc-tracejoin.c).
# hc-mark marks a directory hot or cold (patch 12; hc-mark.c), for the
# job files' ";@mark" lines (bench/jobs/dirmark.fio).
# hc-move moves a file's data into the hot or cold region online
# (EXT4_IOC_MOVE_EXT; hc-move.c); its tests run in the guest
# (vm/kernel-tests/guest-check.sh).
# hc-track watches a mounted ext4's reads with fanotify and moves the files
# read most into the hot region with hc-move's machinery (hc-track.c;
# moveext.c is the part hc-move, hc-track and hc-where share);
# hc-where prints where files are, by thirds (hc-where.c).
#   make track-tools        their guest root $(BUILD)/track-check/root
#   make track-check        hc-track's tests: bad options on the host, then
#                           a guest on the patched kernel (bench/tools/track-check.sh,
#                           bench/tools/guest-track.sh) (TAP)
#
# The create()+unlink() benchmark (create_bench.c, run in the guest
# by bench/guest/guest-bench.sh, driven by bench/runners/kernel-bench.sh) is built into
# the guest test root (kernel-tests.mk's GUEST_BIN), next to the tests.

BTOOLS_SRC := $(TOP)/bench/tools
BTOOLS_OUT := $(BUILD)/bench-tools
BTOOLS_CFLAGS := -O2 -Wall -Wextra -D_GNU_SOURCE -I$(TOP)/vm/lib

.PHONY: bench-tools bench-tools-check
bench-tools: $(BTOOLS_OUT)/hc-age $(BTOOLS_OUT)/hc-tracejoin $(BTOOLS_OUT)/hc-move $(BTOOLS_OUT)/hc-mark \
	$(BTOOLS_OUT)/hc-track $(BTOOLS_OUT)/hc-where $(BTOOLS_OUT)/hc-mkfiles

# hc-age: the command line (hc-age.c) and one file per job (age.h lists them)
BTOOLS_AGE := $(BTOOLS_SRC)/hc-age.c \
	$(addprefix $(BTOOLS_SRC)/age-,numbers.c ops.c setup.c state.c)
$(BTOOLS_OUT)/hc-age: $(BTOOLS_AGE) $(BTOOLS_SRC)/age.h $(TOP)/vm/lib/hotcold-map.h $(TOP)/vm/lib/hotcold-flags.h
	@mkdir -p $(@D)
	nice gcc $(BTOOLS_CFLAGS) -static -o $@ $(BTOOLS_AGE) -lm

# the move machinery (moveext.c) is shared by hc-move, hc-track and hc-where
BTOOLS_MOVEEXT := $(BTOOLS_SRC)/moveext.c $(BTOOLS_SRC)/moveext.h \
	$(addprefix $(TOP)/vm/lib/,hotcold-fiemap.h hotcold-map.h hotcold-flags.h)

$(BTOOLS_OUT)/hc-move $(BTOOLS_OUT)/hc-track $(BTOOLS_OUT)/hc-where: $(BTOOLS_OUT)/%: $(BTOOLS_SRC)/%.c $(BTOOLS_MOVEEXT)
	@mkdir -p $(@D)
	nice gcc $(BTOOLS_CFLAGS) -static -o $@ $< $(BTOOLS_SRC)/moveext.c -lm

# hc-mkfiles creates a list of files, each with its own hint (hc-mkfiles.c),
# for bench/runners/alternatives.sh's arms
$(BTOOLS_OUT)/hc-mkfiles: $(BTOOLS_SRC)/hc-mkfiles.c $(TOP)/vm/lib/hotcold-flags.h
	@mkdir -p $(@D)
	nice gcc $(BTOOLS_CFLAGS) -static -o $@ $<

$(BTOOLS_OUT)/hc-mark: $(BTOOLS_SRC)/hc-mark.c
	@mkdir -p $(@D)
	nice gcc $(BTOOLS_CFLAGS) -static -o $@ $<

# hc-tracejoin: the command line (hc-tracejoin.c) and one file per job
# (tracejoin.h lists them), with the project's CSV reader (vm/lib/hc-csv.c)
BTOOLS_TRACEJOIN := $(BTOOLS_SRC)/hc-tracejoin.c \
	$(addprefix $(BTOOLS_SRC)/tracejoin-,trace.c seeklog.c join.c stats.c write.c) \
	$(TOP)/vm/lib/hc-csv.c
$(BTOOLS_OUT)/hc-tracejoin: $(BTOOLS_TRACEJOIN) $(BTOOLS_SRC)/tracejoin.h $(TOP)/vm/lib/hc-csv.h \
	$(TOP)/vm/lib/hotcold-map.h $(TOP)/vm/lib/hotcold-flags.h
	@mkdir -p $(@D)
	nice gcc $(BTOOLS_CFLAGS) -o $@ $(BTOOLS_TRACEJOIN) -lm

guest-tests: $(GUEST_BIN)/create_bench $(GUEST_BIN)/guest-bench.sh $(GUEST_BIN)/alloc_bench $(GUEST_BIN)/guest-alloc.sh

$(GUEST_BIN)/create_bench: $(BTOOLS_SRC)/create_bench.c $(GUEST_HDRS) | $(GUEST_BIN)
	nice $(GUEST_CC) $(GUEST_CFLAGS) $(GUEST_INC) -I$(GUEST_SRC) -o $@ $<

$(GUEST_BIN)/guest-bench.sh: $(TOP)/bench/guest/guest-bench.sh | $(GUEST_BIN)
	install -m 0755 $< $@

# The allocation-cost benchmark (bench/tools/alloc_bench.c, run in the guest by
# bench/guest/guest-alloc.sh, driven by bench/runners/alloc-bench.sh, its page written by
# bench/measures/alloc-results.sh): small files created, written (64 KiB), fsynced
# and unlinked on a 64 GiB and a 16 TiB ext4, patched (region_reserve=0/1)
# and stock, RUNS rounds of alternating boots.  Not a test; its page is
# results/alloc/RESULTS.md.
#   make alloc-bench [RUNS=5] [ALLOC_SIZES="64G 17592186040320"] [ALLOC_OUT=dir]
$(GUEST_BIN)/alloc_bench: $(BTOOLS_SRC)/alloc_bench.c $(GUEST_HDRS) | $(GUEST_BIN)
	nice $(GUEST_CC) $(GUEST_CFLAGS) $(GUEST_INC) -I$(GUEST_SRC) -o $@ $<

$(GUEST_BIN)/guest-alloc.sh: $(TOP)/bench/guest/guest-alloc.sh | $(GUEST_BIN)
	install -m 0755 $< $@

ALLOC_OUT ?= $(TOP)/results/alloc
ALLOC_SIZES ?= 64G 17592186040320
.PHONY: alloc-bench
alloc-bench: kernel-patched kernel-stock guest-tests vm-initramfs
	@RUNS=$(or $(RUNS),5) SIZES='$(ALLOC_SIZES)' $(TOP)/bench/runners/alloc-bench.sh $(ALLOC_OUT) \
		$(BZIMAGE_PATCHED) $(BZIMAGE_STOCK) $(BUILD)/guest-tests/root
	@$(TOP)/bench/measures/alloc-results.sh $(ALLOC_OUT) "make alloc-bench RUNS=$(or $(RUNS),5)"
HELP_LINES += "alloc-bench  allocation cost of small files, 64 GiB vs 16 TiB, patched vs stock -> results/alloc/ (RUNS=)"

# hc-track's policy on the host: hc-track.c with a stub move (test-track.c)
$(BTOOLS_OUT)/test-track: $(BTOOLS_SRC)/test-track.c $(BTOOLS_SRC)/hc-track.c $(TOP)/vm/lib/tap.h $(BTOOLS_MOVEEXT)
	@mkdir -p $(@D)
	nice gcc $(BTOOLS_CFLAGS) -o $@ $< -lm

bench-tools-check: bench-tools $(BTOOLS_OUT)/test-track
	@$(BTOOLS_OUT)/test-track
	@BTOOLS=$(BTOOLS_OUT) $(BTOOLS_SRC)/test-age.sh
	@BTOOLS=$(BTOOLS_OUT) $(BTOOLS_SRC)/test-tracejoin.sh
	@$(TOP)/bench/tests/test-csv.sh

CHECK_HOST_TARGETS += bench-tools-check
HELP_LINES += "bench-tools  hc-age (ages an ext4), hc-move (moves a file to the hot/cold region), hc-track (moves the files read most), hc-where and hc-tracejoin (trace x seek log) in build/bench-tools/"
HELP_LINES += "bench-tools-check  host tests of hc-age, hc-tracejoin, hc-track's policy and bench/measures/csv.awk (TAP)"

# hc-track's tests: a guest root with hc-track, hc-where and the script
TRACK_ROOT := $(BUILD)/track-check/root/tests/track
.PHONY: track-tools track-check
track-tools: $(TRACK_ROOT)/hc-track $(TRACK_ROOT)/hc-where $(TRACK_ROOT)/hc-move \
	$(TRACK_ROOT)/guest-track.sh $(TRACK_ROOT)/tap.sh

$(TRACK_ROOT)/hc-track $(TRACK_ROOT)/hc-where $(TRACK_ROOT)/hc-move: $(TRACK_ROOT)/%: $(BTOOLS_OUT)/%
	@mkdir -p $(@D)
	install -m 0755 $< $@

$(TRACK_ROOT)/guest-track.sh: $(TOP)/bench/tools/guest-track.sh
	@mkdir -p $(@D)
	install -m 0755 $< $@

$(TRACK_ROOT)/tap.sh: $(TOP)/vm/lib/tap.sh
	@mkdir -p $(@D)
	install -m 0644 $< $@

track-check: track-tools kernel-patched vm-initramfs $(FIO_BIN) $(ENGINE_SO)
	@BUILD=$(BUILD) FIO_BIN=$(FIO_BIN) ENGINE_SO=$(ENGINE_SO) $(TOP)/bench/tools/track-check.sh $(BZIMAGE_PATCHED)

CHECK_GUEST_TARGETS += track-check
HELP_LINES += "track-check  hc-track's tests: a skewed read pattern in a guest, the most-read files moved hot (TAP)"
