/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hotcold-flags.h - O_HOT and O_COLD for userspace, the one definition the
 * engine, the preload library, the benchmark's tools and the guest tests
 * share (until libc's <fcntl.h> has them).  The values are the series' ABI
 * (kernel-patches/0001: include/uapi/asm-generic/fcntl.h); the guest test
 * hc_abi checks them against the patched kernel's header.
 */
#ifndef HOTCOLD_FLAGS_H
#define HOTCOLD_FLAGS_H

#ifndef O_HOT
#define O_HOT	01000000000
#endif
#ifndef O_COLD
#define O_COLD	02000000000
#endif

#endif /* HOTCOLD_FLAGS_H */
