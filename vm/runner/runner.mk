# SPDX-License-Identifier: GPL-2.0
# The guest runner: the initramfs, a shell in a guest, and vm/runner/run's
# own tests (included by the top Makefile).

.PHONY: vm-initramfs vm-shell vm-check

vm-initramfs: $(BUILD)/vm/initramfs.cpio
$(BUILD)/vm/initramfs.cpio: vm/runner/mkinitramfs.sh vm/runner/guest-init | $(BUILD)/.stamp-deps
	@mkdir -p $(dir $@)
	vm/runner/mkinitramfs.sh $@

CMD ?= uname -a; cat /sys/block/vda/queue/rotational
vm-shell: kernel-patched vm-initramfs
	$(VMRUN) --kernel $(BZIMAGE_PATCHED) -- '$(CMD)'

# vm/runner/run's own contract: output and exit status come back, so do
# the files of --out, a hung or crashed guest is killed and brings nothing
# back, bad options are refused; and vm/lib/guest-run.sh's guest_run, which
# the stages boot their guests with.
vm-check: kernel-stock vm-initramfs hdd
	@rc=0; vm/runner/test-run.sh $(BZIMAGE_STOCK) || rc=1; \
		vm/lib/test-guest-run.sh $(BZIMAGE_STOCK) || rc=1; exit $$rc

CHECK_GUEST_TARGETS += vm-check
HELP_LINES += "vm-check              vm/runner/run's own tests (exit status, --out, timeout, bad input) and guest_run's"
