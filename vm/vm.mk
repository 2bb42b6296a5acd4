# The guest: initramfs, the runner's own tests, and the kernel test suites
# booted on the patched and the stock kernel.

GUEST_DISKS := --disk 64G --disk 1G --disk 256M

.PHONY: vm-initramfs vm-shell vm-check guest-check-patched guest-check-stock

vm-initramfs: $(BUILD)/vm/initramfs.cpio
$(BUILD)/vm/initramfs.cpio: vm/mkinitramfs.sh vm/guest-init | $(BUILD)/.stamp-deps
	@mkdir -p $(dir $@)
	vm/mkinitramfs.sh $@

CMD ?= uname -a; cat /sys/block/vda/queue/rotational
vm-shell: kernel-patched vm-initramfs
	$(VMRUN) --kernel $(BZIMAGE_PATCHED) -- '$(CMD)'

# vm/run's own contract: output and exit status come back, a hung guest is
# killed, bad options are refused.
vm-check: kernel-stock vm-initramfs hdd
	@vm/test-run.sh $(BZIMAGE_STOCK)

guest-check-patched: kernel-patched guest-tests vm-initramfs
	@$(VMRUN) --timeout 2400 --kernel $(BZIMAGE_PATCHED) $(GUEST_DISKS) \
		--initrd-extra $(BUILD)/guest-tests/root -- 'KERNEL_FLAVOUR=patched /tests/guest-check.sh'

guest-check-stock: kernel-stock guest-tests vm-initramfs
	@$(VMRUN) --timeout 2400 --kernel $(BZIMAGE_STOCK) $(GUEST_DISKS) \
		--initrd-extra $(BUILD)/guest-tests/root -- 'KERNEL_FLAVOUR=stock /tests/guest-check.sh'

CHECK_TARGETS += vm-check
HELP_LINES += "vm-check              vm/run's own tests (exit status, timeout, bad input)"
HELP_LINES += "guest-check-patched   the kernel tests in a guest on the patched kernel"
HELP_LINES += "guest-check-stock     the same tests on the stock kernel (no placement effect)"

# The disk model as the guest sees it (issue: virtual rotational disk).
.PHONY: hdd-guest-check
hdd-guest-check: kernel-stock vm-initramfs hdd
	@vm/test-hdd-guest.sh $(BZIMAGE_STOCK)

HELP_LINES += "hdd-guest-check       the modelled disk in a guest: rotational, zone ratio, nbdkit death"
