# SPDX-License-Identifier: GPL-2.0
# vm/kernel-tests/kernel-tests.mk - the kernel's in-guest O_HOT/O_COLD test
# suite (included by the top Makefile)
#
# Uses TOP, BUILD, KSRC_PATCHED from the top Makefile.
#
#   make guest-tests           static test binaries + scripts in
#                              $(BUILD)/guest-tests/root/tests/, for
#                              vm/runner/run --initrd-extra $(BUILD)/guest-tests/root
#                              and then, in the guest:
#                              KERNEL_FLAVOUR=patched|stock /tests/guest-check.sh
#                              (bench/tools/tools.mk adds the create()+unlink()
#                              benchmark: /tests/guest-bench.sh)
#   make guest-helpers-check   host unit tests of the test helpers (superblock
#                              parser vs dumpe2fs, FIEMAP walk vs filefrag);
#                              no VM, no mounting
#   make guest-check-patched   the suite in a guest on the patched kernel
#   make guest-check-stock     and on the stock kernel
#   make guest-check-debug     the suite's locking sections (patched
#                              expectations; DEBUG_SECTIONS= for all) on the
#                              debug kernel (lockdep, KASAN, ...): fails on a
#                              splat in the guest's kernel log as well
#   make guest-splat-check     host unit test of the splat scanner
#
# The openat2 selftests are compiled statically from the PATCHED tree
# ($(KSRC_PATCHED)/tools/testing/selftests/openat2) into .../tests/openat2/,
# and the ext4 placement selftest (.../selftests/filesystems/ext4) into
# .../tests/ext4-selftests/.

GUEST_SRC     := $(TOP)/vm/kernel-tests
GUEST_OUT     := $(BUILD)/guest-tests
GUEST_ROOT    := $(GUEST_OUT)/root
GUEST_BIN     := $(GUEST_ROOT)/tests
GUEST_HOSTBIN := $(GUEST_OUT)/host
GUEST_CC      ?= gcc
GUEST_CFLAGS  ?= -static -O2 -Wall -Wextra
GUEST_OA2_SRC  = $(KSRC_PATCHED)/tools/testing/selftests/openat2
GUEST_EXT4ST_SRC = $(KSRC_PATCHED)/tools/testing/selftests/filesystems/ext4
# the tests' helpers and the project's shared headers they include (the TAP
# helper, the flags, the mapping and FIEMAP helpers), all by one path:
# -I$(TOP)/vm/lib
GUEST_INC     := -I$(TOP)/vm/lib
GUEST_HDRS    := $(GUEST_SRC)/hotcold_test.h $(addprefix $(TOP)/vm/lib/,tap.h \
		   hotcold-flags.h hotcold-map.h hotcold-fiemap.h)

GUEST_PROGS   := hc_place hc_abi hc_unpriv hc_fallback hc_trace hc_otherfs \
		 hc_sbdump hc_region hc_dirmark hc_race hc_fuse hc_resize hc_count \
		 hc_writehint hc_replay hc_scanorder hc_findcost
GUEST_SCRIPTS := guest-check.sh guest-kmsg.sh
GUEST_TARGETS := $(addprefix $(GUEST_BIN)/,$(GUEST_PROGS) $(GUEST_SCRIPTS) tap.sh) \
		 $(GUEST_BIN)/openat2/.built $(GUEST_BIN)/ext4-selftests/hotcold_test \
		 $(GUEST_BIN)/hc-age $(GUEST_BIN)/hc-move

.PHONY: guest-tests guest-helpers-check guest-tests-clean guest-check-patched guest-check-stock \
	guest-check-debug guest-splat-check

guest-tests: $(GUEST_TARGETS)

$(GUEST_BIN) $(GUEST_HOSTBIN):
	mkdir -p $@

$(GUEST_BIN)/%: $(GUEST_SRC)/%.c $(GUEST_HDRS) | $(GUEST_BIN)
	nice $(GUEST_CC) $(GUEST_CFLAGS) $(GUEST_INC) -o $@ $<

$(GUEST_BIN)/%.sh: $(GUEST_SRC)/%.sh | $(GUEST_BIN)
	install -m 0755 $< $@

# the project's TAP helper, sourced by guest-check.sh
$(GUEST_BIN)/tap.sh: $(TOP)/vm/lib/tap.sh | $(GUEST_BIN)
	install -m 0644 $< $@

# the benchmark's aging tool ages the small filesystems of the region tests
$(GUEST_BIN)/hc-age: $(BUILD)/bench-tools/hc-age | $(GUEST_BIN)
	install -m 0755 $< $@

# hc-move, tested in the guest (guest-check.sh)
$(GUEST_BIN)/hc-move: $(BUILD)/bench-tools/hc-move | $(GUEST_BIN)
	install -m 0755 $< $@

# openat2 selftests, static, no sanitizers (their Makefile adds ASan/UBSan,
# which cannot link statically).  Every *_test.c in the tree is built.
$(GUEST_BIN)/openat2/.built: $(BUILD)/.stamp-src-patched | $(GUEST_BIN)
	@test -f $(GUEST_OA2_SRC)/helpers.c || \
		{ echo "guest-tests: no openat2 selftests in $(GUEST_OA2_SRC)" >&2; exit 1; }
	rm -rf $(GUEST_BIN)/openat2 && mkdir -p $(GUEST_BIN)/openat2
	set -e; for t in $(GUEST_OA2_SRC)/*_test.c; do \
		nice $(GUEST_CC) -static -O2 -Wall -I$(GUEST_OA2_SRC)/.. \
			-o $(GUEST_BIN)/openat2/$$(basename $$t .c) \
			$$t $(GUEST_OA2_SRC)/helpers.c; \
	done
	touch $@

# the ext4 placement selftest, static (run by guest-check.sh with
# EXT4_HOTCOLD_DIR on a scratch ext4)
$(GUEST_BIN)/ext4-selftests/hotcold_test: $(BUILD)/.stamp-src-patched | $(GUEST_BIN)
	@test -f $(GUEST_EXT4ST_SRC)/hotcold_test.c || \
		{ echo "guest-tests: no ext4 placement selftest in $(GUEST_EXT4ST_SRC)" >&2; exit 1; }
	mkdir -p $(@D)
	nice $(GUEST_CC) -static -O2 -Wall -I$(GUEST_EXT4ST_SRC)/../.. \
		-o $@ $(GUEST_EXT4ST_SRC)/hotcold_test.c

$(GUEST_HOSTBIN)/hc_unit: $(GUEST_SRC)/hc_unit.c $(GUEST_HDRS) | $(GUEST_HOSTBIN)
	nice $(GUEST_CC) $(GUEST_CFLAGS) $(GUEST_INC) -o $@ $<

$(GUEST_HOSTBIN)/hc_sbdump: $(GUEST_SRC)/hc_sbdump.c $(GUEST_HDRS) | $(GUEST_HOSTBIN)
	nice $(GUEST_CC) $(GUEST_CFLAGS) $(GUEST_INC) -o $@ $<

guest-helpers-check: $(GUEST_HOSTBIN)/hc_unit $(GUEST_HOSTBIN)/hc_sbdump
	timeout 600 sh $(GUEST_SRC)/test-helpers.sh $(GUEST_HOSTBIN) $(GUEST_OUT)/unit-work

guest-tests-clean:
	rm -rf $(GUEST_OUT)

GUEST_DISKS := --disk 64G --disk 1G --disk 256M

guest-check-patched: kernel-patched guest-tests vm-initramfs
	@$(VMRUN) --timeout 2400 --kernel $(BZIMAGE_PATCHED) $(GUEST_DISKS) \
		--initrd-extra $(BUILD)/guest-tests/root -- 'KERNEL_FLAVOUR=patched /tests/guest-check.sh'

guest-check-stock: kernel-stock guest-tests vm-initramfs
	@$(VMRUN) --timeout 2400 --kernel $(BZIMAGE_STOCK) $(GUEST_DISKS) \
		--initrd-extra $(BUILD)/guest-tests/root -- 'KERNEL_FLAVOUR=stock /tests/guest-check.sh'

# The suite on the debug kernel (make kernel-debug: lockdep, KASAN,
# DEBUG_ATOMIC_SLEEP, DEBUG_LIST), the patched kernel's expectations.  The
# guest's whole kernel log, read from /dev/kmsg from boot on
# (guest-kmsg.sh), comes back to $(GUEST_OUT)/debug/kmsg.log and a splat in
# it fails the run (guest-check-debug.sh, splat-scan.sh).  printk.devkmsg=on: the
# suite's markers in the log are not rate-limited away.  A 120 s RCU stall
# timeout: under TCG and KASAN a slow guest is no stall.
#
# NOT THE WHOLE SUITE: under TCG, KASAN and lockdep make the guest several
# times slower, and make check may grow by about 12 minutes at most, so the
# debug tier runs the sections that exercise the series' locking: the
# mballoc region lists and free totals (fallback, region, move), the
# lists' part order after a relist (scanorder), the system.hotcold setter
# and directory marks (dirmark, escape, race), the recount after a resize
# (resize), the hint counters (count) and the fast-commit replay at mount
# (replay); and the group search's cost in a full region (findcost), which
# needs the function profiler that only this kernel has.  Left out:
# place, nonrot, unpriv (and FUSE), small, otherfs, openat2; each prints a
# SKIP line.  make guest-check-debug DEBUG_SECTIONS= runs the whole suite.
DEBUG_SECTIONS ?= fallback region move dirmark escape resize count writehint race scanorder findcost replay
DEBUG_APPEND := printk.devkmsg=on rcupdate.rcu_cpu_stall_timeout=120
guest-check-debug: kernel-debug guest-tests vm-initramfs
	@$(GUEST_SRC)/guest-check-debug.sh $(GUEST_OUT)/debug \
		$(VMRUN) --timeout 3600 --kernel $(BZIMAGE_DEBUG) $(GUEST_DISKS) \
		--append '$(DEBUG_APPEND)' --initrd-extra $(BUILD)/guest-tests/root -- \
		'KERNEL_FLAVOUR=patched HC_SECTIONS="$(DEBUG_SECTIONS)" /tests/guest-kmsg.sh /tests/guest-check.sh'

# the splat scanner on captured logs: a KASAN report, lockdep reports, a
# sleep in atomic context, a WARNING must each fail it; a clean boot passes
guest-splat-check:
	@sh $(GUEST_SRC)/test-splat-scan.sh $(GUEST_SRC)/testdata

CHECK_HOST_TARGETS += guest-helpers-check guest-splat-check
CHECK_GUEST_TARGETS += guest-check-patched guest-check-stock guest-check-debug
HELP_LINES += "guest-tests          build the in-guest O_HOT/O_COLD test suite into build/guest-tests/root"
HELP_LINES += "guest-helpers-check  host unit tests of the guest test helpers (no VM)"
HELP_LINES += "guest-check-patched   the kernel tests in a guest on the patched kernel"
HELP_LINES += "guest-check-stock     the same tests on the stock kernel (no placement effect)"
HELP_LINES += "guest-check-debug     the locking sections of the tests on the debug kernel; a splat fails"
HELP_LINES += "guest-splat-check     host unit test of the kernel-log splat scanner (no VM)"
