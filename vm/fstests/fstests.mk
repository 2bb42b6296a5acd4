# SPDX-License-Identifier: GPL-2.0
# vm/fstests/fstests.mk - fstests (xfstests) on ext4 in guests, patched vs
# stock, unhinted and hinted (included by the top Makefile; uses TOP, BUILD,
# BZIMAGE_PATCHED, BZIMAGE_STOCK, PRELOAD_SO).
#
#   make fstests [GROUP=quick] [KERNEL=patched|stock|both] [HINT="none hot cold"]
#                [TESTS="generic/001 ext4/001 ..."] [EXCLUDE="..."]
#       runs vm/fstests/run.sh into $(BUILD)/fstests/run/, report.md there
#   make fstests GROUP=quick SHARD=K/N MODE=stock|patched|patched-hot|patched-colddir
#       the K-th of N fixed slices of the group in each MODE given (one guest
#       after another; vm/fstests/shard.sh), its CSV to results/fstests/MODE/
#   make fstests-report   results/fstests/RESULTS.md from the shard CSVs there
#   make fstests-rootfs   only the guest's root image ($(BUILD)/fstests/rootfs.img)
#   make fstests-check    the short list (vm/fstests/short-list) as TAP, part of make check: the
#                         three modes (patched unhinted and HOTCOLD=hot, stock) as three guests at once

FSTESTS_DIR := $(TOP)/vm/fstests
FSTESTS_OUT := $(BUILD)/fstests
GROUP   ?= quick
KERNEL  ?= both
HINT    ?= none
TESTS   ?=
EXCLUDE ?=
SHARD   ?=
MODE    ?=
# the kernels a KERNEL= value needs
FSTESTS_KDEPS := $(if $(filter stock,$(KERNEL)),,kernel-patched) $(if $(filter patched,$(KERNEL)),,kernel-stock)
ifneq ($(SHARD),)
# a shard: MODE names the kernels; bad SHARD or MODE values stop make (exit 2)
# before any kernel is built
FSTESTS_SHARD_ERR := $(shell $(FSTESTS_DIR)/shard.sh --check '$(MODE)' '$(SHARD)' 2>&1 >/dev/null)
ifneq ($(FSTESTS_SHARD_ERR),)
$(error $(FSTESTS_SHARD_ERR))
endif
FSTESTS_KDEPS := $(if $(filter patched%,$(MODE)),kernel-patched) $(if $(filter stock,$(MODE)),kernel-stock)
endif
FSTESTS_ENV = PATCHED_BZIMAGE=$(BZIMAGE_PATCHED) STOCK_BZIMAGE=$(BZIMAGE_STOCK) \
	PRELOAD_SO=$(PRELOAD_SO) ROOTFS=$(FSTESTS_OUT)/rootfs.img BUILD=$(BUILD)

.PHONY: fstests fstests-prep fstests-rootfs fstests-check fstests-report fstests-worker-check fstests-report-check

fstests-rootfs: | $(BUILD)/.stamp-deps
	@$(FSTESTS_DIR)/mkrootfs.sh $(FSTESTS_OUT) >/dev/null

# what a run needs, built without running anything (shard-worker.sh builds
# it under a lock, so that two workers never build into one tree at once)
fstests-prep: $(FSTESTS_KDEPS) $(PRELOAD_SO) vm-initramfs fstests-rootfs

# FSTESTS_PREP= (empty) runs with what fstests-prep built and builds
# nothing: shard-worker.sh's runs, outside its lock (even a kernel build
# with nothing to do rewrites include/generated/, and two at once fail)
FSTESTS_PREP ?= fstests-prep
fstests: $(FSTESTS_PREP)
ifeq ($(SHARD),)
	@$(FSTESTS_ENV) KERNEL='$(KERNEL)' HINT='$(HINT)' GROUP='$(GROUP)' TESTS='$(TESTS)' \
		EXCLUDE='$(EXCLUDE)' $(FSTESTS_DIR)/run.sh $(FSTESTS_OUT)/run
	@echo "  REPORT  $(FSTESTS_OUT)/run/report.md"
else
	@rc=0; for m in $(MODE); do \
		$(FSTESTS_ENV) GROUP='$(GROUP)' EXCLUDE='$(EXCLUDE)' $(FSTESTS_DIR)/shard.sh $$m '$(SHARD)' || rc=1; \
	done; exit $$rc
endif

fstests-report:
	@$(FSTESTS_DIR)/shards-report.sh $(TOP)/results/fstests

# shard-worker.sh against a stand-in make, no guest (host tier of make check)
fstests-worker-check:
	@$(FSTESTS_DIR)/test-shard-worker.sh

# shards-report.sh on made-up shard results, no guest (host tier of make check)
fstests-report-check:
	@$(FSTESTS_DIR)/test-shards-report.sh

fstests-check: kernel-patched kernel-stock $(PRELOAD_SO) vm-initramfs fstests-rootfs
	@$(FSTESTS_ENV) $(FSTESTS_DIR)/fstests-check.sh $(FSTESTS_OUT)/check

HELP_LINES += "fstests              fstests on ext4 in guests: GROUP=quick KERNEL=patched|stock|both HINT='none hot cold' TESTS='generic/001 ...'"
CHECK_GUEST_TARGETS += fstests-check
CHECK_HOST_TARGETS += fstests-worker-check fstests-report-check
HELP_LINES += "fstests SHARD=K/N    the K-th of N slices of GROUP in MODE=stock|patched|patched-hot|patched-colddir, to results/fstests/"
HELP_LINES += "fstests-report       results/fstests/RESULTS.md from the shard CSVs"
HELP_LINES += "fstests-check        the short fstests list: patched unhinted and HOTCOLD=hot vs stock (TAP)"
