// SPDX-License-Identifier: GPL-2.0
/*
 * test-map.c - host unit tests of the hotcold engine's mapping code
 * (hotcold-map.h) on synthetic superblocks and extent maps.
 * Prints TAP lines `ok N - name` (vm/lib/tap.h); exits non-zero if any
 * test fails.
 *
 *   cc -D_GNU_SOURCE -O2 -Wall -o test-map test-map.c && ./test-map
 */
#include <stdlib.h>
#include <inttypes.h>
#include "hotcold-map.h"
#include "tap.h"


static void put32(unsigned char *b, int off, uint32_t v)
{
	b[off] = v;
	b[off + 1] = v >> 8;
	b[off + 2] = v >> 16;
	b[off + 3] = v >> 24;
}

/* a superblock as mke2fs writes it for the given geometry */
static void make_sb(unsigned char *b, uint32_t log_bs, uint64_t blocks,
		    uint32_t bpg, uint32_t ipg, uint32_t first, int is64,
		    int log_flex)
{
	memset(b, 0, HC_SB_SIZE);
	put32(b, HC_SB_BLOCKS_COUNT_LO, (uint32_t)blocks);
	put32(b, HC_SB_LOG_BLOCK_SIZE, log_bs);
	put32(b, HC_SB_BLOCKS_PER_GROUP, bpg);
	put32(b, HC_SB_INODES_PER_GROUP, ipg);
	put32(b, HC_SB_FIRST_DATA_BLOCK, first);
	put32(b, HC_SB_INODES_COUNT, ipg * 8);
	b[HC_SB_MAGIC] = 0x53;
	b[HC_SB_MAGIC + 1] = 0xEF;
	if (is64) {
		put32(b, HC_SB_FEATURE_INCOMPAT, HC_FEATURE_INCOMPAT_64BIT);
		put32(b, HC_SB_BLOCKS_COUNT_HI, (uint32_t)(blocks >> 32));
	}
	b[HC_SB_LOG_GROUPS_PER_FLEX] = log_flex;
}

int main(void)
{
	unsigned char b[HC_SB_SIZE];
	struct hc_sb sb;
	const char *why = "";
	uint64_t bytes[3], contig = 0;
	char buf[128];

	tap_init("");
	/* 64 GiB, 4 KiB blocks: 16777216 blocks, 512 groups of 32768 */
	make_sb(b, 2, 16777216, 32768, 8192, 0, 1, 4);
	tap_ok(hc_parse_sb(b, &sb, &why) == 0, "parse 64 GiB 4k superblock");
	tap_ok(sb.block_size == 4096, "block size 4096 from s_log_block_size=2");
	tap_ok(sb.ngroups == 512, "64 GiB / 128 MiB groups = 512 groups");
	tap_ok(sb.inodes_per_group == 8192, "inodes per group read");
	tap_ok(sb.groups_per_flex == 16, "flex_bg 2^4 = 16 groups");

	/* thirds per the ABI: hot [0,170), cold [342,512) */
	tap_ok(hc_group_third(512, 0) == 0 && hc_group_third(512, 169) == 0,
	      "groups 0 and 169 of 512 are in the first third");
	tap_ok(hc_group_third(512, 170) == 1 && hc_group_third(512, 341) == 1,
	      "groups 170 and 341 of 512 are in the middle third");
	tap_ok(hc_group_third(512, 342) == 2 && hc_group_third(512, 511) == 2,
	      "groups 342 and 511 of 512 are in the last third");
	tap_ok(hc_group_third(3, 0) == 0 && hc_group_third(3, 1) == 1 &&
	      hc_group_third(3, 2) == 2, "3 groups: one per third");
	tap_ok(hc_group_third(2, 0) == 1 && hc_group_third(2, 1) == 1,
	      "2 groups: no first/last third (n/3 = 0)");

	/* block -> group, inode -> group */
	tap_ok(hc_block_group(&sb, 32768ULL * 4096 * 5 + 4096) == 5,
	      "physical byte in block 5*32768+1 is in group 5");
	tap_ok(hc_block_group(&sb, 32768ULL * 4096 - 1) == 0,
	      "last byte of group 0 is in group 0");
	tap_ok(hc_inode_group(&sb, 1) == 0 && hc_inode_group(&sb, 8192) == 0 &&
	      hc_inode_group(&sb, 8193) == 1, "inodes 1 and 8192 in group 0, 8193 in 1");

	/* 1 KiB blocks: first data block 1 shifts groups by one block */
	make_sb(b, 0, 262144, 8192, 2048, 1, 0, 0);
	tap_ok(hc_parse_sb(b, &sb, &why) == 0 && sb.block_size == 1024 &&
	      sb.ngroups == 32 && sb.groups_per_flex == 1,
	      "1k-block fs: 32 groups, first_data_block 1");
	tap_ok(hc_block_group(&sb, 8192ULL * 1024) == 0 &&
	      hc_block_group(&sb, 8193ULL * 1024) == 1,
	      "1k-block fs: block 8192 in group 0, 8193 in group 1");

	/* 64bit blocks_count_hi: 20 TiB of 4k blocks */
	make_sb(b, 2, 5368709120ULL, 32768, 8192, 0, 1, 4);
	tap_ok(hc_parse_sb(b, &sb, &why) == 0 && sb.blocks_count == 5368709120ULL &&
	      sb.ngroups == 163840, "64bit: blocks_count_hi used (20 TiB, 163840 groups)");
	make_sb(b, 2, 5368709120ULL, 32768, 8192, 0, 0, 4);
	tap_ok(hc_parse_sb(b, &sb, &why) == 0 && sb.blocks_count == 1073741824ULL,
	      "no 64bit feature: blocks_count_hi ignored");

	/* partial last group rounds up */
	make_sb(b, 2, 32768 * 10 + 100, 32768, 8192, 0, 0, 0);
	tap_ok(hc_parse_sb(b, &sb, &why) == 0 && sb.ngroups == 11,
	      "partial last group counted (10 groups + 100 blocks = 11)");

	/* bad superblocks */
	make_sb(b, 2, 16777216, 32768, 8192, 0, 1, 4);
	b[HC_SB_MAGIC] = 0;
	tap_ok(hc_parse_sb(b, &sb, &why) == -1 && strstr(why, "magic"),
	      "wrong magic rejected with a reason");
	make_sb(b, 2, 16777216, 0, 8192, 0, 1, 4);
	tap_ok(hc_parse_sb(b, &sb, &why) == -1, "zero blocks per group rejected");
	make_sb(b, 9, 16777216, 32768, 8192, 0, 1, 4);
	tap_ok(hc_parse_sb(b, &sb, &why) == -1, "absurd block size rejected");

	/* extent split over thirds: 64 GiB fs of 512 groups */
	make_sb(b, 2, 16777216, 32768, 8192, 0, 1, 4);
	hc_parse_sb(b, &sb, &why);
	memset(bytes, 0, sizeof(bytes));
	hc_range_thirds(&sb, hc_group_start(&sb, 170) - 4096, 3 * 4096, bytes);
	tap_ok(bytes[0] == 4096 && bytes[1] == 8192 && bytes[2] == 0,
	      "extent across first/middle boundary split 4k/8k");
	memset(bytes, 0, sizeof(bytes));
	hc_range_thirds(&sb, 0, hc_group_start(&sb, 512), bytes);
	tap_ok(bytes[0] == 170ULL * 32768 * 4096 && bytes[1] == 172ULL * 32768 * 4096 &&
	      bytes[2] == 170ULL * 32768 * 4096,
	      "whole device: 170/172/170 groups per third");
	tap_ok(hc_majority_third(bytes) == 1, "majority third of whole device is middle");
	tap_ok(hc_dev_fraction(&sb, hc_group_start(&sb, 256)) == 0.5,
	      "group 256 of 512 starts at fraction 0.5");

	/* offset -> LBA through an extent map with a hole and delalloc */
	{
		struct hc_extent e[3] = {
			{ .logical = 0, .physical = 1048576, .length = 65536, .mapped = 1 },
			{ .logical = 131072, .physical = 8388608, .length = 65536, .mapped = 1 },
			{ .logical = 196608, .physical = 0, .length = 4096, .mapped = 0 },
		};

		tap_ok(hc_offset_to_lba(e, 3, 0, &contig) == 2048 && contig == 65536,
		      "offset 0 -> LBA 2048 (1 MiB / 512)");
		tap_ok(hc_offset_to_lba(e, 3, 4096, NULL) == 2056,
		      "offset 4096 -> LBA 2056");
		tap_ok(hc_offset_to_lba(e, 3, 65536, NULL) == HC_NO_LBA,
		      "offset in a hole -> no LBA");
		tap_ok(hc_offset_to_lba(e, 3, 131072 + 512, NULL) == 16385,
		      "offset in second extent -> LBA 16385");
		tap_ok(hc_offset_to_lba(e, 3, 196608, NULL) == HC_NO_LBA,
		      "delalloc extent (no physical) -> no LBA");
		tap_ok(hc_offset_to_lba(e, 3, 1 << 30, NULL) == HC_NO_LBA,
		      "offset past EOF -> no LBA");
		tap_ok(hc_range_end_lba(e, 3, 0, 4096) == 2056,
		      "end of a 4k request at 0 is LBA 2056");
		tap_ok(hc_offset_to_lba(e, 0, 0, NULL) == HC_NO_LBA, "empty map -> no LBA");
	}

	/* seek distance */
	tap_ok(hc_seek_distance(2056, 2056) == 0, "sequential request: distance 0");
	tap_ok(hc_seek_distance(2056, 16385) == 14329, "forward seek distance");
	tap_ok(hc_seek_distance(16385, 2056) == 14329, "backward seek is absolute");
	tap_ok(hc_seek_distance(HC_NO_LBA, 2056) == HC_NO_SEEK,
	      "first request: no distance");

	/* percentiles and median */
	{
		uint64_t v[100], w[4] = { 7, 1, 3, 10 }, one[1] = { 42 };
		int i;

		for (i = 0; i < 100; i++)
			v[i] = 100 - i;
		qsort(v, 100, sizeof(v[0]), hc_cmp_u64);
		tap_ok(v[0] == 1 && v[99] == 100, "sort ascending");
		tap_ok(hc_percentile(v, 100, 50) == 50 && hc_percentile(v, 100, 90) == 90 &&
		      hc_percentile(v, 100, 99) == 99, "p50/p90/p99 of 1..100 = 50/90/99");
		tap_ok(hc_percentile(v, 100, 100) == 100 && hc_percentile(v, 100, 0) == 1,
		      "p100 = max, p0 = min");
		qsort(w, 4, sizeof(w[0]), hc_cmp_u64);
		tap_ok(hc_median(w, 4) == 5.0, "median of {1,3,7,10} = 5");
		tap_ok(hc_percentile(w, 4, 50) == 3 && hc_percentile(w, 4, 99) == 10,
		      "nearest rank on 4 values: p50 = 3, p99 = 10");
		tap_ok(hc_median(one, 1) == 42 && hc_percentile(one, 1, 99) == 42,
		      "one value is every percentile");
		tap_ok(hc_mean(w, 4) == 5.25 && hc_percentile(w, 0, 50) == 0,
		      "mean of {1,3,7,10} = 5.25; empty percentile = 0");
	}

	/* flag names in the placement log */
	tap_ok(!strcmp(hc_flags_str(O_WRONLY | O_CREAT | O_EXCL | O_HOT, buf, sizeof(buf)),
		      "O_WRONLY|O_CREAT|O_EXCL|O_HOT"), "flags string names O_HOT");
	tap_ok(!strcmp(hc_flags_str(O_WRONLY | O_CREAT | O_COLD, buf, sizeof(buf)),
		      "O_WRONLY|O_CREAT|O_COLD"), "flags string names O_COLD");
	tap_ok(O_HOT == 0x08000000 && O_COLD == 0x10000000, "O_HOT/O_COLD ABI values");

	return tap_exit();
}
