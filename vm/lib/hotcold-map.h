/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hotcold-map.h - pure mapping helpers of the hotcold fio engine
 *
 * No I/O and no fio dependencies: ext4 superblock parsing, physical
 * extents -> block groups and thirds of the filesystem, file offset ->
 * device LBA, seek distance, median and percentiles.  Included by the
 * engine (through ioengines/hotcold.h), ioengines/test-map.c (host unit
 * tests on synthetic inputs), the guest tests
 * (vm/kernel-tests/hotcold_test.h) and bench/'s tools, so the numbers the
 * engine prints are the ones the tests check.  The
 * FIEMAP walker that fills struct hc_extent is in hotcold-fiemap.h.
 */
#ifndef HOTCOLD_MAP_H
#define HOTCOLD_MAP_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>

#include "hotcold-flags.h"

#define HC_EXT4_SUPER_MAGIC	0xEF53
#define HC_SB_OFFSET		1024	/* superblock offset on the device */
#define HC_SB_SIZE		1024
#define HC_SECTOR		512ULL
#define HC_NO_LBA		UINT64_MAX
#define HC_NO_SEEK		UINT64_MAX

/* ext4 on-disk superblock field offsets (fs/ext4/ext4.h, struct ext4_super_block) */
#define HC_SB_INODES_COUNT	0x00
#define HC_SB_BLOCKS_COUNT_LO	0x04
#define HC_SB_FIRST_DATA_BLOCK	0x14
#define HC_SB_LOG_BLOCK_SIZE	0x18
#define HC_SB_BLOCKS_PER_GROUP	0x20
#define HC_SB_INODES_PER_GROUP	0x28
#define HC_SB_MAGIC		0x38
#define HC_SB_FEATURE_INCOMPAT	0x60
#define HC_SB_BLOCKS_COUNT_HI	0x150
#define HC_SB_LOG_GROUPS_PER_FLEX 0x174
#define HC_FEATURE_INCOMPAT_64BIT 0x80

struct hc_sb {
	uint32_t block_size;
	uint32_t blocks_per_group;
	uint32_t inodes_per_group;
	uint32_t first_data_block;
	uint32_t inodes_count;
	uint32_t groups_per_flex;	/* 1 without flex_bg */
	uint64_t blocks_count;
	uint32_t ngroups;
};

/* one physical extent as FIEMAP reports it, in bytes */
struct hc_extent {
	uint64_t logical;
	uint64_t physical;
	uint64_t length;
	uint32_t flags;		/* FIEMAP_EXTENT_* */
	int mapped;		/* physical address is known */
};

static inline uint32_t hc_le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint16_t hc_le16(const unsigned char *p)
{
	return p[0] | p[1] << 8;
}

/*
 * Parse the 1024-byte ext2/3/4 superblock.  Returns 0, or -1 with a
 * reason in @why when it is not one or its geometry is impossible.
 */
static inline int hc_parse_sb(const unsigned char *b, struct hc_sb *sb,
			      const char **why)
{
	uint32_t log_bs, log_flex;

	memset(sb, 0, sizeof(*sb));
	if (hc_le16(b + HC_SB_MAGIC) != HC_EXT4_SUPER_MAGIC) {
		*why = "no ext4 superblock magic (0xEF53) at offset 1024";
		return -1;
	}
	log_bs = hc_le32(b + HC_SB_LOG_BLOCK_SIZE);
	if (log_bs > 6) {
		*why = "superblock block size out of range";
		return -1;
	}
	sb->block_size = 1024U << log_bs;
	sb->blocks_per_group = hc_le32(b + HC_SB_BLOCKS_PER_GROUP);
	sb->inodes_per_group = hc_le32(b + HC_SB_INODES_PER_GROUP);
	sb->first_data_block = hc_le32(b + HC_SB_FIRST_DATA_BLOCK);
	sb->inodes_count = hc_le32(b + HC_SB_INODES_COUNT);
	sb->blocks_count = hc_le32(b + HC_SB_BLOCKS_COUNT_LO);
	if (hc_le32(b + HC_SB_FEATURE_INCOMPAT) & HC_FEATURE_INCOMPAT_64BIT)
		sb->blocks_count |= (uint64_t)hc_le32(b + HC_SB_BLOCKS_COUNT_HI) << 32;
	log_flex = b[HC_SB_LOG_GROUPS_PER_FLEX];
	sb->groups_per_flex = log_flex < 31 ? 1U << log_flex : 1;
	if (!sb->blocks_per_group || !sb->inodes_per_group ||
	    sb->blocks_count <= sb->first_data_block) {
		*why = "superblock geometry is zero or inconsistent";
		return -1;
	}
	sb->ngroups = (sb->blocks_count - sb->first_data_block +
		       sb->blocks_per_group - 1) / sb->blocks_per_group;
	return 0;
}

static inline uint32_t hc_block_group(const struct hc_sb *sb, uint64_t phys_byte)
{
	uint64_t blk = phys_byte / sb->block_size;

	if (blk < sb->first_data_block)
		return 0;
	return (blk - sb->first_data_block) / sb->blocks_per_group;
}

static inline uint32_t hc_inode_group(const struct hc_sb *sb, uint64_t ino)
{
	return ino ? (ino - 1) / sb->inodes_per_group : 0;
}

/*
 * Thirds as the O_HOT/O_COLD ABI defines them: hot = groups
 * [0, n/3), cold = [n - n/3, n), the middle is everything else.
 * 0 = first, 1 = middle, 2 = last.
 */
static inline int hc_group_third(uint32_t ngroups, uint32_t group)
{
	uint32_t t = ngroups / 3;

	if (group < t)
		return 0;
	if (group >= ngroups - t)
		return 2;
	return 1;
}

/* first byte of group @g on the device */
static inline uint64_t hc_group_start(const struct hc_sb *sb, uint32_t g)
{
	return ((uint64_t)sb->first_data_block +
		(uint64_t)g * sb->blocks_per_group) * sb->block_size;
}

/* add the bytes of physical range [phys, phys+len) to bytes[third] */
static inline void hc_range_thirds(const struct hc_sb *sb, uint64_t phys,
				   uint64_t len, uint64_t bytes[3])
{
	uint32_t t = sb->ngroups / 3;
	uint64_t lim[3], lo = phys, end = phys + len;
	int i;

	lim[0] = hc_group_start(sb, t);
	lim[1] = hc_group_start(sb, sb->ngroups - t);
	lim[2] = UINT64_MAX;
	for (i = 0; i < 3 && lo < end; i++) {
		uint64_t hi = end < lim[i] ? end : lim[i];

		if (hi > lo) {
			bytes[i] += hi - lo;
			lo = hi;
		}
	}
}

/* which third holds most of the bytes; ties go to the lower third */
static inline int hc_majority_third(const uint64_t bytes[3])
{
	int i, best = 0;

	for (i = 1; i < 3; i++)
		if (bytes[i] > bytes[best])
			best = i;
	return best;
}

/* fraction of the filesystem's device at physical byte @phys */
static inline double hc_dev_fraction(const struct hc_sb *sb, uint64_t phys)
{
	return (double)phys / ((double)sb->blocks_count * sb->block_size);
}

/*
 * Map file offset @off through the extent map (sorted by logical).
 * Returns the device LBA in 512-byte sectors, or HC_NO_LBA for a hole
 * or an extent whose physical address is not known yet (delalloc).
 * *@contig gets the bytes from @off to the end of that extent.
 */
static inline uint64_t hc_offset_to_lba(const struct hc_extent *e, size_t n,
					uint64_t off, uint64_t *contig)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (off < e[mid].logical)
			hi = mid;
		else if (off >= e[mid].logical + e[mid].length)
			lo = mid + 1;
		else {
			if (!e[mid].mapped)
				return HC_NO_LBA;
			if (contig)
				*contig = e[mid].logical + e[mid].length - off;
			return (e[mid].physical + (off - e[mid].logical)) / HC_SECTOR;
		}
	}
	return HC_NO_LBA;
}

/*
 * Device LBA of the sector after the last byte of [off, off+len):
 * where the head is when the request is done.  HC_NO_LBA if unmapped.
 */
static inline uint64_t hc_range_end_lba(const struct hc_extent *e, size_t n,
					uint64_t off, uint64_t len)
{
	uint64_t last;

	if (!len)
		return hc_offset_to_lba(e, n, off, NULL);
	last = hc_offset_to_lba(e, n, off + len - 1, NULL);
	return last == HC_NO_LBA ? HC_NO_LBA : last + 1;
}

/*
 * Seek distance in sectors: from where the previous request on the
 * device ended to where this one starts (0 = sequential).  HC_NO_SEEK
 * for the first request or when either end is unmapped.
 */
static inline uint64_t hc_seek_distance(uint64_t prev_end_lba, uint64_t lba)
{
	if (prev_end_lba == HC_NO_LBA || lba == HC_NO_LBA)
		return HC_NO_SEEK;
	return lba > prev_end_lba ? lba - prev_end_lba : prev_end_lba - lba;
}

static inline int hc_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* nearest-rank percentile of a sorted array: smallest v with >= p% <= v */
static inline uint64_t hc_percentile(const uint64_t *sorted, size_t n, double p)
{
	size_t rank;

	if (!n)
		return 0;
	rank = (size_t)(p / 100.0 * n + 0.999999999);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

/* median of a sorted array: mean of the two middle values when n is even */
static inline double hc_median(const uint64_t *sorted, size_t n)
{
	if (!n)
		return 0;
	if (n & 1)
		return sorted[n / 2];
	return ((double)sorted[n / 2 - 1] + (double)sorted[n / 2]) / 2;
}

static inline double hc_mean(const uint64_t *v, size_t n)
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += v[i];
	return n ? s / n : 0;
}

/* symbolic open flags of a creation, '|'-separated (CSV safe) */
static inline const char *hc_flags_str(unsigned int fl, char *buf, size_t sz)
{
	static const struct { unsigned int bit; const char *name; } names[] = {
		{ O_CREAT, "O_CREAT" }, { O_EXCL, "O_EXCL" },
		{ O_TRUNC, "O_TRUNC" }, { O_APPEND, "O_APPEND" },
		{ O_CLOEXEC, "O_CLOEXEC" }, { O_DIRECT, "O_DIRECT" },
		{ O_HOT, "O_HOT" }, { O_COLD, "O_COLD" },
	};
	unsigned int i;
	size_t len;

	switch (fl & O_ACCMODE) {
	case O_RDONLY:
		snprintf(buf, sz, "O_RDONLY");
		break;
	case O_WRONLY:
		snprintf(buf, sz, "O_WRONLY");
		break;
	default:
		snprintf(buf, sz, "O_RDWR");
		break;
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(fl & names[i].bit))
			continue;
		len = strlen(buf);
		snprintf(buf + len, sz - len, "|%s", names[i].name);
	}
	return buf;
}

#endif /* HOTCOLD_MAP_H */
