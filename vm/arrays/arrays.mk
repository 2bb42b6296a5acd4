# SPDX-License-Identifier: GPL-2.0
# vm/arrays/arrays.mk - md RAID0 and dm-linear arrays of modelled disks in
# the guest (included by the top Makefile).  Uses TOP, BUILD, VMRUN,
# BZIMAGE_PATCHED from it.
#
#   make arrays-tools   $(BUILD)/arrays/root/tests/arrays/: hc-array (builds
#                       and stops arrays with the md and dm ioctls),
#                       hc-arrayload (hinted files on the array, FIEMAP
#                       through the layout, read back in marked phases) and
#                       guest-arrays.sh, static, for --initrd-extra
#                       $(BUILD)/arrays/root; and the host's hc-arraytrace
#                       (the members' traces cut into those phases), and
#                       test-array-layout (array-layout.h, host, TAP)
#   make arrays-check   one guest, four 1 GiB modelled disks: RAID0 over
#                       two, dm-linear over the other two; where hot, cold
#                       and unhinted data land on each member, from the
#                       traces and from FIEMAP (TAP)
#   make arrays-bench   bench/runners/arrays.sh: 2 and 4 members, both layouts,
#                       RUNS runs; results/arrays/ (CSV, figure, page)

ARRAYS_SRC  := $(TOP)/vm/arrays
ARRAYS_OUT  := $(BUILD)/arrays
ARRAYS_ROOT := $(ARRAYS_OUT)/root
ARRAYS_BIN  := $(ARRAYS_ROOT)/tests/arrays
ARRAYS_CFLAGS := -O2 -Wall -Wextra -I$(TOP)/vm/lib
ARRAYS_HDRS := $(ARRAYS_SRC)/array-layout.h

.PHONY: arrays-tools arrays-layout-check arrays-check arrays-bench
arrays-tools: $(ARRAYS_BIN)/hc-array $(ARRAYS_BIN)/hc-arrayload \
	$(ARRAYS_BIN)/guest-arrays.sh $(ARRAYS_OUT)/hc-arraytrace \
	$(ARRAYS_OUT)/test-array-layout

$(ARRAYS_BIN)/hc-array: $(ARRAYS_SRC)/hc-array.c $(ARRAYS_HDRS)
	@mkdir -p $(@D)
	nice gcc $(ARRAYS_CFLAGS) -static -o $@ $<

$(ARRAYS_BIN)/hc-arrayload: $(ARRAYS_SRC)/hc-arrayload.c $(ARRAYS_HDRS) \
	$(addprefix $(TOP)/vm/lib/,hotcold-fiemap.h hotcold-map.h hotcold-flags.h)
	@mkdir -p $(@D)
	nice gcc $(ARRAYS_CFLAGS) -static -o $@ $<

$(ARRAYS_BIN)/guest-arrays.sh: $(ARRAYS_SRC)/guest-arrays.sh
	@mkdir -p $(@D)
	install -m 0755 $< $@

# the members' traces are read with the project's CSV reader (vm/lib/hc-csv.c)
$(ARRAYS_OUT)/hc-arraytrace: $(ARRAYS_SRC)/hc-arraytrace.c $(ARRAYS_HDRS) \
	$(TOP)/vm/lib/hc-csv.c $(TOP)/vm/lib/hc-csv.h
	@mkdir -p $(@D)
	nice gcc $(ARRAYS_CFLAGS) -o $@ $< $(TOP)/vm/lib/hc-csv.c -lm

# array-layout.h's arithmetic, on the host (arrays-check runs it first)
$(ARRAYS_OUT)/test-array-layout: $(ARRAYS_SRC)/test-array-layout.c $(ARRAYS_HDRS) $(TOP)/vm/lib/tap.h
	@mkdir -p $(@D)
	nice gcc $(ARRAYS_CFLAGS) -o $@ $<

# the layout's arithmetic alone, on the host (arrays-check runs it too)
arrays-layout-check: $(ARRAYS_OUT)/test-array-layout
	@$(ARRAYS_OUT)/test-array-layout

arrays-check: arrays-tools kernel-patched vm-initramfs hdd
	@BUILD=$(BUILD) $(ARRAYS_SRC)/arrays-check.sh $(BZIMAGE_PATCHED)

arrays-bench: arrays-tools kernel-patched vm-initramfs hdd
	BUILD=$(BUILD) $(TOP)/bench/runners/arrays.sh $(TOP)/results/arrays

CHECK_HOST_TARGETS += arrays-layout-check
CHECK_GUEST_TARGETS += arrays-check
HELP_LINES += "arrays-tools         the guest's array tools (md RAID0, dm-linear) and hc-arraytrace"
HELP_LINES += "arrays-check         RAID0 and dm-linear of modelled disks: where hinted data lands per member"
HELP_LINES += "arrays-bench         bench/runners/arrays.sh: 2 and 4 members, RAID0 and dm-linear (RUNS=3)"
