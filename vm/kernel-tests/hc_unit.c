// SPDX-License-Identifier: GPL-2.0
/*
 * hc_unit - host unit tests of the pure helpers in hotcold_test.h
 * (superblock parsing on synthetic superblocks, group arithmetic, regions).
 * Safe to run anywhere; prints TAP.
 */
#include "hotcold_test.h"

static void put16(unsigned char *p, size_t off, uint16_t v)
{
	p[off] = (unsigned char)v;
	p[off + 1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, size_t off, uint32_t v)
{
	put16(p, off, (uint16_t)v);
	put16(p, off + 2, (uint16_t)(v >> 16));
}

static void mksb(unsigned char *sb, uint64_t blocks, uint32_t first,
		 uint32_t log_bs, uint32_t bpg, uint32_t ipg, uint32_t incompat,
		 unsigned int log_flex, uint16_t desc)
{
	memset(sb, 0, 1024);
	put16(sb, 0x38, 0xEF53);
	put32(sb, 0x00, ipg * 7);
	put32(sb, 0x04, (uint32_t)blocks);
	put32(sb, 0x150, (uint32_t)(blocks >> 32));
	put32(sb, 0x14, first);
	put32(sb, 0x18, log_bs);
	put32(sb, 0x20, bpg);
	put32(sb, 0x28, ipg);
	put16(sb, 0x52, 65534);
	put32(sb, 0x54, 11);
	put32(sb, 0x60, incompat);
	put16(sb, 0xFE, desc);
	sb[0x174] = (unsigned char)log_flex;
}

int main(void)
{
	unsigned char sb[1024];
	struct ext4_geom g;
	const char *why = "";
	int r;

	tap_init("unit");

	/* 64 GiB, 4k, ext4 defaults */
	mksb(sb, 16777216, 0, 2, 32768, 8192, 0x80 | 0x200, 4, 64);
	r = ext4_parse_sb(sb, &g, &why);
	tap_ok(!r && g.ngroups == 512 && g.block_size == 4096 &&
	       g.flex_size == 16 && g.desc_size == 64 && g.def_resgid == 65534,
	       "64G/4k: ngroups %u bs %u flex %u desc %u resgid %u", g.ngroups,
	       g.block_size, g.flex_size, g.desc_size, g.def_resgid);
	tap_ok(hot_end(&g) == 170 && cold_start(&g) == 342,
	       "64G: hot [0,%u) cold [%u,512)", hot_end(&g), cold_start(&g));
	tap_ok(in_hot(&g, 0) && in_hot(&g, 169) && !in_hot(&g, 170) &&
	       in_cold(&g, 342) && in_cold(&g, 511) && !in_cold(&g, 341) &&
	       !in_cold(&g, 512), "region predicates at the boundaries");
	tap_ok(ino_group(&g, 1) == 0 && ino_group(&g, 8192) == 0 &&
	       ino_group(&g, 8193) == 1 && ino_group(&g, 4194304) == 511,
	       "inode -> group: 1,8192 -> 0; 8193 -> 1; last -> 511");
	tap_ok(blk_group(&g, 0) == 0 && blk_group(&g, 32767) == 0 &&
	       blk_group(&g, 32768) == 1 && blk_group(&g, 16777215) == 511,
	       "block -> group with first_data_block 0");
	tap_ok(flex_start(&g, 175) == 160 && same_flex(&g, 160, 175) &&
	       !same_flex(&g, 159, 160), "flex group arithmetic (16)");

	/* 1k blocks: first_data_block 1, partial last group, no 64bit */
	mksb(sb, 262144, 1, 0, 8192, 2048, 0x200, 4, 0);
	r = ext4_parse_sb(sb, &g, &why);
	tap_ok(!r && g.ngroups == 32 && g.desc_size == 32 &&
	       g.block_size == 1024, "256M/1k: ngroups %u (first block 1), "
	       "desc %u", g.ngroups, g.desc_size);
	tap_ok(blk_group(&g, 1) == 0 && blk_group(&g, 8192) == 0 &&
	       blk_group(&g, 8193) == 1, "block -> group with first block 1");
	mksb(sb, 262144 + 100, 1, 0, 8192, 2048, 0x200, 4, 0);
	ext4_parse_sb(sb, &g, &why);
	tap_ok(g.ngroups == 33, "partial last group counts (%u)", g.ngroups);

	/* blocks_count_hi honoured only with 64bit */
	mksb(sb, (1ULL << 32) + 65536, 0, 2, 32768, 8192, 0x80 | 0x200, 4,
	     64);
	ext4_parse_sb(sb, &g, &why);
	tap_ok(g.blocks_count == (1ULL << 32) + 65536 && g.ngroups == 131074,
	       "64bit: s_blocks_count_hi used (%" PRIu64 " blocks, %u groups)",
	       g.blocks_count, g.ngroups);
	mksb(sb, (1ULL << 32) + 65536, 0, 2, 32768, 8192, 0x200, 4, 64);
	ext4_parse_sb(sb, &g, &why);
	tap_ok(g.blocks_count == 65536 && g.desc_size == 32,
	       "no 64bit: s_blocks_count_hi and desc_size ignored");

	/* no flex_bg */
	mksb(sb, 65536, 0, 2, 32768, 8192, 0, 4, 0);
	ext4_parse_sb(sb, &g, &why);
	tap_ok(g.flex_size == 1 && g.ngroups == 2 && hot_end(&g) == 0 &&
	       cold_start(&g) == 2, "no flex_bg: flex 1; 2 groups: empty "
	       "regions");

	/* bad input */
	mksb(sb, 65536, 0, 2, 32768, 8192, 0, 4, 0);
	put16(sb, 0x38, 0x1234);
	r = ext4_parse_sb(sb, &g, &why);
	tap_ok(r == -1 && strstr(why, "magic"),
	       "bad magic rejected (%s)", why);
	mksb(sb, 65536, 0, 2, 0, 8192, 0, 4, 0);
	r = ext4_parse_sb(sb, &g, &why);
	tap_ok(r == -1,
	       "zero blocks per group rejected (%s)", why);
	mksb(sb, 65536, 0, 40, 32768, 8192, 0, 4, 0);
	r = ext4_parse_sb(sb, &g, &why);
	tap_ok(r == -1,
	       "absurd block size rejected (%s)", why);
	tap_ok(!strcmp(dev_basename("/dev/vda"), "vda") &&
	       !strcmp(dev_basename("vdb"), "vdb"), "dev_basename");
	tap_ok(!strcmp(flag_name(O_HOT), "hot") &&
	       !strcmp(flag_name(O_COLD), "cold") && !strcmp(flag_name(0),
	       "none"), "flag_name");
	return tap_exit();
}
