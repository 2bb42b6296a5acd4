# SPDX-License-Identifier: GPL-2.0
# nbdkit-hdd-filter: the virtual spinning disk (included by the top Makefile).
# Uses TOP and BUILD from the top Makefile.

HDD_SRC      := $(TOP)/vm/hdd-model
HDD_OUT      := $(BUILD)/hdd
HDD_PLOTS    := $(BUILD)/plots
HDD_FILTER   := $(HDD_OUT)/nbdkit-hdd-filter.so
HDD_PROFILES := $(HDD_SRC)/profiles.conf
HDD_NAMES    := desktop7200 laptop5400 enterprise15k hp97560 cheetah9lp
HDD_CC       ?= gcc
HDD_CFLAGS   := -O2 -g -Wall -Wextra -Wno-unused-parameter -std=gnu11 \
	-I$(TOP)/vm/lib -DPROFILES_DEFAULT='"$(HDD_PROFILES)"'
HDD_MODEL    := $(HDD_SRC)/hdd-model.c $(HDD_SRC)/hdd-model.h

.PHONY: hdd hdd-check hdd-bench hdd-plots hdd-validate hdd-overhead

hdd: $(HDD_FILTER) $(HDD_OUT)/test-hdd-model $(HDD_OUT)/test-hdd-cache \
	$(HDD_OUT)/hdd-curves \
	$(HDD_OUT)/hdd-nbdread $(HDD_OUT)/hdd-nbdio $(HDD_OUT)/hdd-validate

# The filter's modules (hdd.h lists what each holds); only filter_init
# is exported (-fvisibility=hidden), as nbdkit's own filters do.
HDD_FILTER_SRCS := $(addprefix $(HDD_SRC)/,hdd.c hdd-queue.c hdd-destage.c \
	hdd-model.c hdd-cache.c)
HDD_FILTER_HDRS := $(addprefix $(HDD_SRC)/,hdd.h hdd-queue.h hdd-destage.h \
	hdd-model.h hdd-cache.h)

$(HDD_FILTER): $(HDD_FILTER_SRCS) $(HDD_FILTER_HDRS)
	@mkdir -p $(HDD_OUT)
	nice $(HDD_CC) $(HDD_CFLAGS) -fPIC -shared -fvisibility=hidden \
		$$(pkg-config --cflags nbdkit 2>/dev/null) \
		-o $@ $(HDD_FILTER_SRCS) -lm -lpthread

$(HDD_OUT)/test-hdd-model: $(HDD_SRC)/test-hdd-model.c $(HDD_MODEL) $(TOP)/vm/lib/tap.h
	@mkdir -p $(HDD_OUT)
	nice $(HDD_CC) $(HDD_CFLAGS) -o $@ $(HDD_SRC)/test-hdd-model.c \
		$(HDD_SRC)/hdd-model.c -lm

$(HDD_OUT)/test-hdd-cache: $(HDD_SRC)/test-hdd-cache.c $(HDD_SRC)/hdd-cache.c \
		$(HDD_SRC)/hdd-cache.h $(TOP)/vm/lib/tap.h
	@mkdir -p $(HDD_OUT)
	nice $(HDD_CC) $(HDD_CFLAGS) -o $@ $(HDD_SRC)/test-hdd-cache.c \
		$(HDD_SRC)/hdd-cache.c

$(HDD_OUT)/hdd-curves: $(HDD_SRC)/hdd-curves.c $(HDD_MODEL)
	@mkdir -p $(HDD_OUT)
	nice $(HDD_CC) $(HDD_CFLAGS) -o $@ $(HDD_SRC)/hdd-curves.c \
		$(HDD_SRC)/hdd-model.c -lm

$(HDD_OUT)/hdd-validate: $(HDD_SRC)/hdd-validate.c $(HDD_MODEL)
	@mkdir -p $(HDD_OUT)
	nice $(HDD_CC) $(HDD_CFLAGS) -o $@ $(HDD_SRC)/hdd-validate.c \
		$(HDD_SRC)/hdd-model.c -lm

# Test/bench client; without libnbd-dev the tests that need it skip.
$(HDD_OUT)/hdd-nbdread: $(HDD_SRC)/hdd-nbdread.c
	@mkdir -p $(HDD_OUT)
	@if pkg-config --exists libnbd; then \
		echo "nice $(HDD_CC) ... -o $@ hdd-nbdread.c -lnbd"; \
		nice $(HDD_CC) $(HDD_CFLAGS) $$(pkg-config --cflags libnbd) \
			-o $@ $< $$(pkg-config --libs libnbd); \
	else \
		echo "hdd: libnbd-dev missing (vm/lib/install-deps.sh disk):" \
			"hdd-nbdread not built, its tests will skip" >&2; \
	fi

# The write cache tests' scripted client, the same way.
$(HDD_OUT)/hdd-nbdio: $(HDD_SRC)/hdd-nbdio.c
	@mkdir -p $(HDD_OUT)
	@if pkg-config --exists libnbd; then \
		echo "nice $(HDD_CC) ... -o $@ hdd-nbdio.c -lnbd"; \
		nice $(HDD_CC) $(HDD_CFLAGS) $$(pkg-config --cflags libnbd) \
			-o $@ $< $$(pkg-config --libs libnbd); \
	else \
		echo "hdd: libnbd-dev missing (vm/lib/install-deps.sh disk):" \
			"hdd-nbdio not built, its tests will skip" >&2; \
	fi

hdd-check: hdd
	HDD_BUILD=$(HDD_OUT) $(HDD_SRC)/hdd-check.sh

# The power cut test's guest workload, static, alone in a folder that
# vm/runner/run --initrd-extra copies to the guest's /.
HDD_CRASH_TOOLS := $(HDD_OUT)/crash-guest
$(HDD_CRASH_TOOLS)/hdd-crash-load: $(HDD_SRC)/hdd-crash-load.c \
		$(TOP)/vm/lib/hotcold-flags.h
	@mkdir -p $(HDD_CRASH_TOOLS)
	nice $(HDD_CC) -static -O2 -Wall -Wextra -I$(TOP)/vm/lib -o $@ $<

# The model against published drives (HP 97560, Cheetah 9LP): measured
# vs published with % errors; fails if an error is above its tolerance.
hdd-validate: $(HDD_OUT)/hdd-validate
	$(HDD_OUT)/hdd-validate $(HDD_PROFILES) $(HDD_OUT)/validation.csv \
		$(HDD_OUT)/validation.md
	@cat $(HDD_OUT)/validation.md

# The filter's cost at time-scale=0 vs plain nbdkit, with and without
# trace= (IOPS of 4 KiB random reads, MB/s of 1 MiB sequential reads).
hdd-overhead: hdd
	HDD_BUILD=$(HDD_OUT) $(HDD_SRC)/overhead.sh $(HDD_OUT)/overhead.csv \
		$(HDD_OUT)/overhead.md

hdd-bench: hdd
	HDD_BUILD=$(HDD_OUT) $(HDD_SRC)/bench.sh

# One figure per profile (seek curve and throughput vs LBA), PNG and SVG.
hdd-plots: $(HDD_OUT)/hdd-curves
	@mkdir -p $(HDD_PLOTS)
	set -e; for p in $(HDD_NAMES); do \
		$(HDD_OUT)/hdd-curves $(HDD_PROFILES) $$p 64G \
			$(HDD_PLOTS)/hdd-$$p; \
		for t in png svg; do \
			gnuplot -e "prefix='$(HDD_PLOTS)/hdd-$$p'" \
				-e "profile='$$p'" -e "fmt='$$t'" \
				$(TOP)/plots/hdd-profile.gp; \
		done; \
	done
	@ls $(HDD_PLOTS)/hdd-*.png $(HDD_PLOTS)/hdd-*.svg

# The disk model as the guest sees it (issue: virtual rotational disk).
.PHONY: hdd-guest-check
hdd-guest-check: kernel-stock kernel-patched vm-initramfs hdd \
		$(HDD_CRASH_TOOLS)/hdd-crash-load
	@$(HDD_SRC)/test-hdd-guest.sh $(BZIMAGE_STOCK)
	@$(HDD_SRC)/test-hdd-guest-crash.sh $(BZIMAGE_PATCHED) \
		$(HDD_CRASH_TOOLS)

CHECK_HOST_TARGETS += hdd-check
CHECK_GUEST_TARGETS += hdd-guest-check
HELP_LINES += "hdd         build the nbdkit-hdd-filter (build/hdd/)"
HELP_LINES += "hdd-check   host tests of the disk model and filter"
HELP_LINES += "hdd-bench   filter overhead vs plain nbdkit (time-scale=0)"
HELP_LINES += "hdd-validate model vs published drives (build/hdd/validation.csv, .md)"
HELP_LINES += "hdd-overhead filter vs plain nbdkit, IOPS and MB/s (build/hdd/overhead.csv, .md)"
HELP_LINES += "hdd-plots   seek and throughput figures per drive profile"
HELP_LINES += "hdd-guest-check       the modelled disk in a guest: rotational, zone ratio, nbdkit death, power cut"
