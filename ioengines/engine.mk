# SPDX-License-Identifier: GPL-2.0
# ioengines/engine.mk - the hotcold fio engine: fio from Debian's source
# package, the engine .so built against that tree, host and guest tests.
# Included by the top Makefile (uses TOP, BUILD, VMRUN, KOUT_PATCHED, KOUT_STOCK).

ENGINE_DIR	:= $(TOP)/ioengines
FIO_SRCDIR	:= $(BUILD)/fio-src
# `apt-get source fio` unpacks fio-<version>/; the `tree` link hides the version.
FIO_TREE	:= $(FIO_SRCDIR)/tree
FIO_BIN		:= $(FIO_TREE)/fio
ENGINE_OUT	:= $(BUILD)/fio-engine
ENGINE_SO	:= $(ENGINE_OUT)/hotcold.so
ENGINE_TEST_MAP	:= $(ENGINE_OUT)/test-map
PRELOAD_SO	:= $(ENGINE_OUT)/hotcold-preload.so
ENGINE_GUEST_ROOT := $(BUILD)/fio-guest/root
ENGINE_CFLAGS	?= -O2 -g -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare \
		   -Wno-missing-field-initializers -Wno-format-truncation
# Optional engines that would pull in more build-deps; none are needed here.
# SysV shm stays on: `fio --server` needs it (bench/runners/scaleout.sh), and the
# guest kernel has CONFIG_SYSVIPC (kernel-patches/vm.config).
FIO_CONFIGURE	:= --disable-native --disable-numa --disable-rdma \
		   --disable-rados --disable-rbd --disable-http --disable-gfapi \
		   --disable-libnfs --disable-pmem --disable-xnvme --disable-libzbc \
		   --disable-tcmalloc --disable-dfs --disable-lex
FIO_CONFIG_STAMP := $(FIO_SRCDIR)/.configured-$(shell echo '$(FIO_CONFIGURE)' | md5sum | cut -c1-8)

.PHONY: engine-fio engine engine-check engine-guest-root engine-guest-check preload-check

$(FIO_TREE)/configure:
	mkdir -p $(FIO_SRCDIR)
	cd $(FIO_SRCDIR) && { timeout 600 apt-get source fio || \
		{ timeout 600 apt-get update -q && timeout 600 apt-get source fio; }; }
	cd $(FIO_SRCDIR) && d=$$(ls -d fio-[0-9]*/ | sort -V | tail -n1) && \
		ln -sfn "$${d%/}" tree
	touch $@

# reconfigure when FIO_CONFIGURE changes (the stamp's name carries its hash)
$(FIO_CONFIG_STAMP): $(FIO_TREE)/configure
	cd $(FIO_TREE) && ./configure $(FIO_CONFIGURE)
	rm -f $(FIO_SRCDIR)/.configured-*
	touch $@

$(FIO_TREE)/config-host.h: $(FIO_CONFIG_STAMP)

$(FIO_BIN): $(FIO_CONFIG_STAMP)
	nice $(MAKE) -C $(FIO_TREE) -j2

engine-fio: $(FIO_BIN)

# the engine is one .so from several .c files (hotcold.c has the
# ioengine_ops); hotcold.h is private to them, the others are shared
ENGINE_SRCS	:= $(addprefix $(ENGINE_DIR)/,hotcold.c hotcold-create.c \
		   hotcold-place.c hotcold-log.c)
ENGINE_HDRS	:= $(ENGINE_DIR)/hotcold.h $(addprefix $(TOP)/vm/lib/,hotcold-map.h \
		   hotcold-fiemap.h hotcold-flags.h)

$(ENGINE_SO): $(ENGINE_SRCS) $(ENGINE_HDRS) $(FIO_CONFIG_STAMP)
	mkdir -p $(ENGINE_OUT)
	nice $(CC) $(ENGINE_CFLAGS) -include $(FIO_TREE)/config-host.h -D_GNU_SOURCE \
		-fPIC -shared -I$(FIO_TREE) -I$(TOP)/vm/lib -o $@ $(ENGINE_SRCS) -laio -lm

engine: $(ENGINE_SO) $(PRELOAD_SO)

# LD_PRELOAD library: O_HOT/O_COLD for the creates of unmodified programs
$(PRELOAD_SO): $(ENGINE_DIR)/hotcold-preload.c $(TOP)/vm/lib/hotcold-flags.h
	mkdir -p $(ENGINE_OUT)
	$(CC) -O2 -Wall -Wextra -fPIC -shared -I$(TOP)/vm/lib -o $@ $< -ldl

preload-check: $(PRELOAD_SO) | $(BUILD)/.stamp-deps
	timeout 300 $(ENGINE_DIR)/test-preload.sh $(PRELOAD_SO)

$(ENGINE_TEST_MAP): $(ENGINE_DIR)/test-map.c $(TOP)/vm/lib/hotcold-map.h $(TOP)/vm/lib/hotcold-flags.h $(TOP)/vm/lib/tap.h
	mkdir -p $(ENGINE_OUT)
	$(CC) -D_GNU_SOURCE -O2 -Wall -Wextra -I$(TOP)/vm/lib -o $@ $< -lm

engine-check: $(ENGINE_TEST_MAP) $(ENGINE_SO) $(FIO_BIN)
	timeout 60 $(ENGINE_TEST_MAP)
	FIO=$(FIO_BIN) ENGINE=$(ENGINE_SO) BENCH=$(TOP)/bench \
		WORKDIR=$(BUILD)/fio-engine/check \
		timeout 600 sh $(ENGINE_DIR)/engine-check.sh

# Root tree for `vm/runner/run --initrd-extra`: the dynamic fio (external engines
# need dlopen), the engine, the job files, the guest script, and every
# library ldd names for fio and the engine, at the same paths.
engine-guest-root: $(ENGINE_SO) $(PRELOAD_SO) $(FIO_BIN)
	rm -rf $(ENGINE_GUEST_ROOT)
	mkdir -p $(ENGINE_GUEST_ROOT)/usr/bin $(ENGINE_GUEST_ROOT)/usr/lib/fio \
		$(ENGINE_GUEST_ROOT)/tests/hotcold
	cp $(FIO_BIN) $(ENGINE_GUEST_ROOT)/usr/bin/fio
	cp $(ENGINE_SO) $(ENGINE_GUEST_ROOT)/usr/lib/fio/hotcold.so
	cp $(PRELOAD_SO) $(ENGINE_GUEST_ROOT)/usr/lib/hotcold-preload.so
	cp $(ENGINE_DIR)/engine-guest-check.sh $(ENGINE_DIR)/guest-*.fio \
		$(TOP)/vm/lib/tap.sh $(ENGINE_GUEST_ROOT)/tests/hotcold/
	cp $(TOP)/bench/jobs/example-*.fio $(ENGINE_GUEST_ROOT)/tests/hotcold/
	for f in $(FIO_BIN) $(ENGINE_SO) $(PRELOAD_SO); do \
		ldd $$f | awk '/=> \//{print $$3} /^\t\//{print $$1}'; \
	done | sort -u | while read -r lib; do \
		mkdir -p $(ENGINE_GUEST_ROOT)$$(dirname $$lib) && \
		cp -L $$lib $(ENGINE_GUEST_ROOT)$$lib || exit 1; \
	done

# Boots the patched and the stock kernel with the engine and runs the guest
# script in each.
ENGINE_KERNEL_PATCHED ?= $(BZIMAGE_PATCHED)
ENGINE_KERNEL_STOCK ?= $(BZIMAGE_STOCK)

engine-guest-check: engine-guest-root kernel-patched kernel-stock vm-initramfs
	@rc=0; for fl in patched stock; do \
		if [ $$fl = patched ]; then k="$(ENGINE_KERNEL_PATCHED)"; \
		else k="$(ENGINE_KERNEL_STOCK)"; fi; \
		if [ ! -f "$$k" ]; then \
			echo "engine-guest-check: no $$fl kernel ('$$k'); build it first" >&2; \
			exit 1; \
		fi; \
		echo "# engine-guest-check: $$fl kernel $$k"; \
		timeout 1800 $(VMRUN) --kernel "$$k" --timeout 1500 \
			--initrd-extra $(ENGINE_GUEST_ROOT) -- \
			"KERNEL_FLAVOUR=$$fl sh /tests/hotcold/engine-guest-check.sh" || rc=1; \
	done; exit $$rc

CHECK_HOST_TARGETS += engine-check preload-check
CHECK_GUEST_TARGETS += engine-guest-check
HELP_LINES += "engine-fio          build fio from Debian's source package into build/fio-src"
HELP_LINES += "engine              build the hotcold fio engine build/fio-engine/hotcold.so"
HELP_LINES += "engine-check        host tests of the hotcold engine (mapping, options, non-ext4/no-hint paths)"
HELP_LINES += "preload-check       host tests of the LD_PRELOAD library hotcold-preload.so (strace)"
HELP_LINES += "engine-guest-root   stage fio, hotcold.so, job files and libraries in build/fio-guest/root"
HELP_LINES += "engine-guest-check  run the hotcold engine tests in guests (patched and stock kernel)"
