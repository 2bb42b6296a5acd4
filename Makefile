# SPDX-License-Identifier: GPL-2.0
# O_HOT/O_COLD: the 2012 hot/cold open flags, forward-ported to Linux 6.1 and
# measured on a virtual spinning disk.  One front door: `make help`.

SHELL := /bin/bash
TOP := $(CURDIR)
# build/ by its physical path: a worktree whose build/ is a link to another
# checkout's (vm/fstests/shard-worker.sh) then builds the same trees by the
# same paths as that checkout does.  By another path, kbuild's command lines
# change: objtool is rebuilt, and with it every object of the kernel.
BUILD := $(or $(realpath $(TOP)/build),$(TOP)/build)
NPROC := $(shell nproc)
JOBS ?= $(NPROC)
V ?= 0

# The kernel: Debian's linux-source-6.1 package, at the upload the series
# was made on (vm/lib/install-deps.sh pins it), or a copy of that upload's
# tarball: make LINUX_SOURCE_TARBALL=FILE.  Either is checked by its sha256
# before it is extracted.
KTAR := $(or $(LINUX_SOURCE_TARBALL),/usr/src/linux-source-6.1.tar.xz)
KSRC_STOCK := $(BUILD)/linux-stock
KSRC_PATCHED := $(BUILD)/linux-patched
KOUT_STOCK := $(BUILD)/kbuild-stock
KOUT_PATCHED := $(BUILD)/kbuild-patched
KOUT_DEBUG := $(BUILD)/kbuild-debug
KCONFIG_FRAGMENT := $(TOP)/kernel-patches/vm.config
# the debug flavour: the patched tree, vm.config and then this
KCONFIG_DEBUG := $(TOP)/kernel-patches/debug.config
SERIES := $(sort $(filter-out %/0000-cover-letter.patch,$(wildcard $(TOP)/kernel-patches/0*.patch)))
KMAKE = nice $(MAKE) -s -j$(JOBS) CC="ccache gcc" HOSTCC="ccache gcc"
VMRUN := $(TOP)/vm/runner/run
BZIMAGE_PATCHED := $(KOUT_PATCHED)/arch/x86/boot/bzImage
BZIMAGE_STOCK := $(KOUT_STOCK)/arch/x86/boot/bzImage
BZIMAGE_DEBUG := $(KOUT_DEBUG)/arch/x86/boot/bzImage

# ccache keyed on paths relative to the folder that holds build/, so that a
# clone in another folder (CI's) reuses what an earlier build compiled.
export CCACHE_MAXSIZE ?= 8G
export CCACHE_BASEDIR := $(abspath $(BUILD)/..)
export CCACHE_NOHASHDIR := 1

# The test tiers: every .mk adds its test targets to one of them.
#   CHECK_HOST_TARGETS   boot no guest (make check-host: minutes)
#   CHECK_GUEST_TARGETS  boot guests, need the kernels (make check-guest)
CHECK_HOST_TARGETS :=
CHECK_GUEST_TARGETS :=
HELP_LINES :=

.PHONY: all help deps check check-host check-guest bench clean distclean FORCE
all: help

help:
	@echo "Targets:"
	@echo "  check                 run every test (check-host, then check-guest);"
	@echo "                        ends with 'N passed, M failed, K skipped'"
	@echo "  check-host            the tests that boot no guest (minutes), the same last line"
	@echo "  check-guest           the tests that boot guests (both kernels), the same last line"
	@echo "  bench                 the main job: build, boot, run every scenario, plot,"
	@echo "                        write RESULTS.md, printing the time left (QUICK=1 FULL=1"
	@echo "                        PROFILE= RUNS= SCENARIO= BENCH_DISK= AGED_SEEDS=)"
	@echo "  bench-plan            the steps of make bench and their planned minutes"
	@echo "  kernel-bench          only the create()+unlink() rate, patched vs stock"
	@echo "  deps                  install the Debian packages that are missing"
	@echo "  kernel-patched        extract linux-source-6.1, apply kernel-patches/, build"
	@echo "  kernel-stock          the same tree unpatched (the baseline)"
	@echo "  kernel-debug          the patched tree with lockdep, KASAN, DEBUG_ATOMIC_SLEEP"
	@echo "  kernel-compile-test   compile every .c file the series touches (allmodconfig)"
	@echo "  kernel-checkpatch     scripts/checkpatch.pl --strict on every patch"
	@echo "  vm-initramfs          the guest's busybox + e2fsprogs initramfs"
	@echo "  vm-shell              boot the patched kernel and run CMD='...' in the guest"
	@for l in $(HELP_LINES); do \
		printf '  %-22s%s\n' "$${l%% *}" "$$(echo "$${l#* }" | sed 's/^ *//')"; done
	@echo "  clean                 remove build outputs (keeps extracted trees)"
	@echo "  distclean             remove build/ entirely"
	@echo "Variables: JOBS=$(JOBS) VM_ACCEL=auto|kvm|tcg V=1"

deps: $(BUILD)/.stamp-deps
$(BUILD)/.stamp-deps: vm/lib/install-deps.sh
	@mkdir -p $(BUILD)
	vm/lib/install-deps.sh
	@touch $@

# ---------------------------------------------------------------- kernel
$(BUILD)/.stamp-src-stock: | $(BUILD)/.stamp-deps
	@vm/lib/install-deps.sh --check-tarball $(KTAR)
	@echo "  EXTRACT $(KTAR)"
	@rm -rf $(KSRC_STOCK) $(BUILD)/tmp-src && mkdir -p $(BUILD)/tmp-src
	@tar -C $(BUILD)/tmp-src -xf $(KTAR)
	@mv $(BUILD)/tmp-src/linux-source-6.1 $(KSRC_STOCK) && rmdir $(BUILD)/tmp-src
	@touch $@

# A fresh copy of the stock tree gets the series; only files whose content
# changed are written into linux-patched, so an edited patch rebuilds
# incrementally.
$(BUILD)/.stamp-src-patched: $(BUILD)/.stamp-src-stock $(SERIES)
	@echo "  PATCH   $(words $(SERIES)) patches from kernel-patches/"
	@rm -rf $(BUILD)/tmp-patched && cp -a $(KSRC_STOCK) $(BUILD)/tmp-patched
	@for p in $(SERIES); do \
		patch -d $(BUILD)/tmp-patched -p1 -N -s --fuzz=0 --no-backup-if-mismatch -r - < $$p >$(BUILD)/patch.log 2>&1 || { \
			cat $(BUILD)/patch.log >&2; \
			echo "kernel-patches/$$(basename $$p) does not apply to linux-source-6.1 ($$(dpkg-query -W -f='$${Version}' linux-source-6.1)) without fuzz" >&2; \
			exit 1; }; \
	done
	@mkdir -p $(KSRC_PATCHED)
	@rsync -rlc --delete $(BUILD)/tmp-patched/ $(KSRC_PATCHED)/
	@rm -rf $(BUILD)/tmp-patched
	@touch $@

# $(call kconfig,SRC,OUT[,MORE FRAGMENTS]): tinyconfig, then vm.config and
# any further fragments merged in order; every =y line of each must stick,
# unless a later fragment turns it off ("# CONFIG_X is not set").
define kconfig
	@mkdir -p $(2)
	@$(MAKE) -s -C $(1) O=$(2) tinyconfig >/dev/null
	@cd $(1) && scripts/kconfig/merge_config.sh -m -O $(2) $(2)/.config $(KCONFIG_FRAGMENT) $(3) >/dev/null
	@$(MAKE) -s -C $(1) O=$(2) olddefconfig >/dev/null
	@set -- $(KCONFIG_FRAGMENT) $(3); for f; do shift; \
		for o in $$(grep -v '^#' $$f | grep '=y$$'); do \
			[ $$# -gt 0 ] && grep -qx "# $${o%=y} is not set" "$$@" && continue; \
			grep -qx "$$o" $(2)/.config || { echo "kernel config: $$o from $$f did not stick" >&2; exit 1; }; \
		done; \
	done
endef

$(KOUT_STOCK)/.config: $(KCONFIG_FRAGMENT) $(BUILD)/.stamp-src-stock
	@echo "  CONFIG  stock"
	$(call kconfig,$(KSRC_STOCK),$(KOUT_STOCK))

$(KOUT_PATCHED)/.config: $(KCONFIG_FRAGMENT) $(BUILD)/.stamp-src-patched
	@echo "  CONFIG  patched"
	$(call kconfig,$(KSRC_PATCHED),$(KOUT_PATCHED))

# The debug flavour shares the patched source tree, in its own O= folder.
$(KOUT_DEBUG)/.config: $(KCONFIG_FRAGMENT) $(KCONFIG_DEBUG) $(BUILD)/.stamp-src-patched
	@echo "  CONFIG  debug"
	$(call kconfig,$(KSRC_PATCHED),$(KOUT_DEBUG),$(KCONFIG_DEBUG))

.PHONY: kernel-stock kernel-patched kernel-debug kernel-compile-test kernel-checkpatch
kernel-stock: $(KOUT_STOCK)/.config
	@echo "  KBUILD  stock ($$(date +%T))"
	@$(KMAKE) -C $(KSRC_STOCK) O=$(KOUT_STOCK) bzImage
	@echo "  KERNEL  $(BZIMAGE_STOCK)"

kernel-patched: $(KOUT_PATCHED)/.config
	@echo "  KBUILD  patched ($$(date +%T))"
	@$(KMAKE) -C $(KSRC_PATCHED) O=$(KOUT_PATCHED) bzImage
	@echo "  KERNEL  $(BZIMAGE_PATCHED)"

# The patched series with lockdep, KASAN, DEBUG_ATOMIC_SLEEP and DEBUG_LIST
# (kernel-patches/debug.config), for make guest-check-debug.
kernel-debug: $(KOUT_DEBUG)/.config
	@echo "  KBUILD  debug ($$(date +%T))"
	@$(KMAKE) -C $(KSRC_PATCHED) O=$(KOUT_DEBUG) bzImage
	@echo "  KERNEL  $(BZIMAGE_DEBUG)"

kernel-compile-test: $(BUILD)/.stamp-src-patched
	kernel-patches/compile-test.sh $(KSRC_PATCHED) $(BUILD)/kbuild-allmod $(SERIES)

kernel-checkpatch: $(BUILD)/.stamp-src-stock
	@fail=0; for p in $(SERIES); do \
		n=$$(basename $$p); \
		ign=$$(awk -v n=$$n '$$1 == n { $$1 = ""; print }' kernel-patches/checkpatch-ignore | tr -s ' ' ','); \
		if (cd $(KSRC_STOCK) && scripts/checkpatch.pl --strict --show-types -q $${ign:+--ignore $${ign#,}} $$p) >$(BUILD)/checkpatch.log 2>&1; then \
			echo "ok - checkpatch --strict $$n"; \
		else cat $(BUILD)/checkpatch.log; echo "not ok - checkpatch --strict $$n"; fail=1; fi; \
	done; exit $$fail

# The create()+unlink() micro-benchmark, patched vs stock, in one run.
.PHONY: kernel-bench kernel-bench-data
kernel-bench-data: kernel-patched kernel-stock guest-tests vm-initramfs
	@rm -f $(BUILD)/bench/create-unlink-*
	@bench/runners/kernel-bench.sh $(BUILD)/bench $(BZIMAGE_PATCHED) $(BZIMAGE_STOCK) $(BUILD)/guest-tests/root

kernel-bench: kernel-bench-data
	bench/measures/results.sh $(BUILD)/bench $(TOP)/RESULTS.md

# The main job (bench/runners/bench.sh): the packages, both kernels, the tools, the
# micro-benchmark, then every scenario of the default plan on the modelled
# disk (bench/runners/plan: 75 minutes on a 2-core TCG host from a fresh clone);
# RESULTS.md and its figures and tables from this run.  QUICK=1: a few
# minutes, its page in build/bench-quick/; FULL=1: 64 GiB, every scenario
# and the arrays' page (results/arrays/), hours.  Each step prints the time
# left.  make bench-plan prints the plan without running it.
BENCH_CMD_VARS := $(foreach v,QUICK FULL PROFILE RUNS SCENARIO SCENARIO_EXACT TIME_SCALE BENCH_DISK AGED_SEED AGED_SEEDS RESULTS,$(if $(filter command line,$(origin $(v))),$(v)='$($(v))'))
.PHONY: bench-plan
bench:
	@BENCH_COMMAND="make bench$(if $(strip $(BENCH_CMD_VARS)), $(strip $(BENCH_CMD_VARS)))" BUILD=$(BUILD) MAKE="$(MAKE)" $(TOP)/bench/runners/bench.sh
bench-plan:
	@BUILD=$(BUILD) $(TOP)/bench/runners/bench.sh --plan

# A fragment that is missing stops make: its tests are never dropped silently.
include vm/lib/lib.mk
include kernel-patches/patches.mk
include vm/runner/runner.mk
include vm/kernel-tests/kernel-tests.mk
include vm/hdd-model/hdd.mk
include ioengines/engine.mk
include bench/tools/tools.mk
include bench/bench.mk
include vm/fstests/fstests.mk
include vm/arrays/arrays.mk

# CHECK_TARGETS was the one tier before check-host; a fragment that still
# adds to it would have its tests in neither tier.
ifneq ($(strip $(CHECK_TARGETS)),)
$(error CHECK_TARGETS is gone: add '$(strip $(CHECK_TARGETS))' to CHECK_HOST_TARGETS (no guest) or CHECK_GUEST_TARGETS in its .mk)
endif

# ---------------------------------------------------------------- check
# Each check target prints TAP-style lines; vm/lib/tap-count.sh adds them up
# (a line "ok ... # SKIP reason" is a skip: counted, neither pass nor failure).
# $(call run_checks,TIER,TARGETS): every target even after a failure, one
# count at the end; a target that exits non-zero is a failure of its own.
define run_checks
	@mkdir -p $(BUILD)/$(1)
	@rm -f $(BUILD)/$(1)/*.tap
	@rc=0; for t in $(2); do \
		echo "=== $$t ($$(date +%T))"; \
		$(MAKE) --no-print-directory $$t 2>&1 | tee $(BUILD)/$(1)/$$t.tap; \
		s=$${PIPESTATUS[0]}; \
		[ $$s -eq 0 ] || { echo "not ok - make $$t exited with status $$s" | tee -a $(BUILD)/$(1)/$$t.tap; rc=1; }; \
	done; \
	vm/lib/tap-count.sh $(BUILD)/$(1)/*.tap || rc=1; exit $$rc
endef

check-host: $(BUILD)/.stamp-deps
	$(call run_checks,check-host,$(CHECK_HOST_TARGETS))

check-guest: $(BUILD)/.stamp-deps
	$(call run_checks,check-guest,$(CHECK_GUEST_TARGETS))

# check-host's targets first, then the guest tiers, counted together
check: $(BUILD)/.stamp-deps
	$(call run_checks,check,$(CHECK_HOST_TARGETS) $(CHECK_GUEST_TARGETS))

clean:
	rm -rf $(BUILD)/check $(BUILD)/vm/runs

distclean:
	rm -rf $(BUILD)
