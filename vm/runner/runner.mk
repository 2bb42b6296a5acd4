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

# vm/runner/run's own contract: output and exit status come back, a hung
# guest is killed, bad options are refused.
vm-check: kernel-stock vm-initramfs hdd
	@vm/runner/test-run.sh $(BZIMAGE_STOCK)

CHECK_GUEST_TARGETS += vm-check
HELP_LINES += "vm-check              vm/runner/run's own tests (exit status, timeout, bad input)"
