# SPDX-License-Identifier: GPL-2.0
# bench/bench.mk - the benchmark pipeline (included by the top Makefile).
# Uses TOP, BUILD, BZIMAGE_PATCHED, BZIMAGE_STOCK from the top Makefile.
#
#   make bench-run [QUICK=1] [PROFILE=desktop7200] [RUNS=3] [SCENARIO=name]
#                  [TIME_SCALE=1]
#     every scenario of bench/runners/run.sh in guests on the modelled disk, raw
#     results in build/bench/<scenario>/runN/, CSVs in build/bench/summary/,
#     figures in build/bench/figures/, then RESULTS.md
#   make bench-pages-check  bench/measures/lib.sh's tests, then summarise, plots and
#                      results on the fixture run tree bench/tests/fixtures/run-small/,
#                      no guest (TAP)
#   make bench-check   one tiny scenario through the whole pipeline (TAP)
#   make aged-check    a tiny aged filesystem (4 GiB) through the pipeline (TAP)
#   make bench-scaleout [QUICK=1] [PROFILE=] [TIME_SCALE=]
#     patched and stock guests at once, each running `fio --server`, driven
#     by one host fio client (bench/runners/scaleout.sh) -> build/bench-scaleout/
#   make scaleout-check   bench/runners/scaleout.sh end to end and its failures (TAP)

BENCH_OUT  := $(BUILD)/bench
BENCH_DEPS := kernel-patched kernel-stock guest-tests engine-guest-root hdd bench-tools
# Only the variables the user gave reach bench/runners/run.sh, which has the defaults.
BENCH_VARS := $(foreach v,QUICK FULL PROFILE RUNS SCENARIO SCENARIO_EXACT TIME_SCALE BENCH_DISK AGED_SEEDS,$(if $(filter command line environment,$(origin $(v))),$(v)='$($(v))'))

.PHONY: bench-run bench-check bench-pages-check aged-check bench-scaleout scaleout-check
bench-run: $(BENCH_DEPS)
	$(BENCH_VARS) BZIMAGE_PATCHED=$(BZIMAGE_PATCHED) BZIMAGE_STOCK=$(BZIMAGE_STOCK) \
		BUILD=$(BUILD) $(TOP)/bench/runners/run.sh $(BENCH_OUT)

bench-check: $(BENCH_DEPS)
	@BZIMAGE_PATCHED=$(BZIMAGE_PATCHED) BZIMAGE_STOCK=$(BZIMAGE_STOCK) \
		BUILD=$(BUILD) $(TOP)/bench/tests/bench-check.sh

aged-check: $(BENCH_DEPS)
	@BZIMAGE_PATCHED=$(BZIMAGE_PATCHED) BZIMAGE_STOCK=$(BZIMAGE_STOCK) \
		BUILD=$(BUILD) $(TOP)/bench/tests/aged-check.sh

bench-scaleout: $(BENCH_DEPS)
	$(BENCH_VARS) BZIMAGE_PATCHED=$(BZIMAGE_PATCHED) BZIMAGE_STOCK=$(BZIMAGE_STOCK) \
		BUILD=$(BUILD) $(TOP)/bench/runners/scaleout.sh $(BUILD)/bench-scaleout

scaleout-check: $(BENCH_DEPS)
	@BZIMAGE_PATCHED=$(BZIMAGE_PATCHED) BZIMAGE_STOCK=$(BZIMAGE_STOCK) \
		BUILD=$(BUILD) $(TOP)/bench/tests/scaleout-check.sh

# The stages' library (bench/measures/lib.sh) and the page writers on the fixture run
# tree (bench/tests/fixtures/run-small/), no guest
bench-pages-check: | $(BUILD)/.stamp-deps
	@$(TOP)/bench/tests/test-lib.sh
	@$(TOP)/bench/tests/test-pages.sh
	@$(TOP)/bench/tests/test-alloc-results.sh

CHECK_HOST_TARGETS += bench-pages-check
CHECK_GUEST_TARGETS += bench-check aged-check scaleout-check
HELP_LINES += "bench-run   fio scenarios on the modelled disk -> build/bench/, RESULTS.md (QUICK=1 PROFILE= RUNS= SCENARIO= TIME_SCALE=)"
HELP_LINES += "bench-pages-check  the page writers on bench/tests/fixtures/run-small/, no guest (TAP)"
HELP_LINES += "bench-check one tiny scenario through the whole benchmark pipeline"
HELP_LINES += "aged-check  a tiny aged filesystem through the pipeline: fullness, trace join, placement, same seed"
HELP_LINES += "bench-scaleout  patched + stock guests at once, one fio --client over forwarded ports"
HELP_LINES += "scaleout-check  bench/runners/scaleout.sh end to end, a bad job, a dead QEMU (TAP)"

# Issue 26: O_HOT at create against the alternatives (bench/runners/alternatives.sh):
# one aged image, one seed and request sequence, the arms a-g one guest at
# a time, the page results/alternatives/RESULTS.md.
#   make alternatives [SIZE=64G] [RUNS=3] [ARMS="a b c d e f g"] [ALT_IOS=]
#                     [ZIPF_SEED=] [HOT_FRAC=] [TIME_SCALE=] [PROFILE=]
#   make alternatives-short   the short version make bench runs: the default
#                     disk (BENCH_DISK, 8G), one run of arms a-g, ALT_IOS
#                     (6000) reads, into build/alternatives-short/ and
#                     results/alternatives/RESULTS.md (make bench FULL=1
#                     runs make alternatives instead)
#   make alternatives-check   the summariser, figure and page on the
#                     fixture bench/tests/fixtures/alternatives-small/, and
#                     hc-mkfiles' bad input (host, TAP)
ALT_DEPS := kernel-patched kernel-stock engine-guest-root hdd bench-tools vm-initramfs
ALT_VARS := $(foreach v,SIZE RUNS ARMS FILL AGED_SEED AGED_CHURN ZIPF_SEED ZIPF_NRFILES ZIPF_THETA ZIPF_SIZE ALT_IOS HOT_FRAC \
	TRACK_INTERVAL TRACK_HALF_LIFE TRACK_BUDGET WINDOW PROFILE TIME_SCALE,$(if $(filter command line environment,$(origin $(v))),$(v)='$($(v))'))
ALT_PAGE ?= $(TOP)/results/alternatives/RESULTS.md
.PHONY: alternatives alternatives-short alternatives-check
alternatives: $(ALT_DEPS)
	$(ALT_VARS) SIZE=$(or $(SIZE),64G) RUNS=$(or $(RUNS),3) ALT_COMMAND="make alternatives $(strip $(ALT_VARS))" \
		PAGE=$(ALT_PAGE) BZIMAGE_PATCHED=$(BZIMAGE_PATCHED) BZIMAGE_STOCK=$(BZIMAGE_STOCK) \
		BUILD=$(BUILD) $(TOP)/bench/runners/alternatives.sh $(BUILD)/alternatives

alternatives-short: $(ALT_DEPS)
	SIZE=$(or $(BENCH_DISK),8G) RUNS=1 ALT_IOS=$(or $(ALT_IOS),6000) \
		ALT_COMMAND="make alternatives-short$(if $(BENCH_DISK), BENCH_DISK=$(BENCH_DISK))$(if $(ALT_IOS), ALT_IOS=$(ALT_IOS))" PAGE=$(ALT_PAGE) \
		BZIMAGE_PATCHED=$(BZIMAGE_PATCHED) BZIMAGE_STOCK=$(BZIMAGE_STOCK) \
		BUILD=$(BUILD) $(TOP)/bench/runners/alternatives.sh $(BUILD)/alternatives-short

alternatives-check: bench-tools | $(BUILD)/.stamp-deps
	@BTOOLS=$(BUILD)/bench-tools $(TOP)/bench/tests/test-alternatives.sh

CHECK_HOST_TARGETS += alternatives-check
HELP_LINES += "alternatives  issue 26: O_HOT vs no hints, a fast partition, half-wrong hints, hc-track, write-lifetime hints (SIZE= RUNS= ARMS=) -> results/alternatives/"
HELP_LINES += "alternatives-short  make bench's short version (default disk, one run, 6000 reads) -> results/alternatives/"
HELP_LINES += "alternatives-check  the alternatives summariser and page on a fixture, hc-mkfiles' bad input (TAP)"
