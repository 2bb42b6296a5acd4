// SPDX-License-Identifier: GPL-2.0
/*
 * hc_sbdump DEV|IMAGE [FILE]
 *
 * Prints what hotcold_test.h parses from an ext4 superblock and group
 * descriptors (key=value lines, then "group N free_inodes M" lines), and,
 * given FILE (a file on any FIEMAP-capable fs), its extents' groups as
 * computed with DEV's geometry.  Used by the host unit test
 * (test-helpers.sh, compared against dumpe2fs) and as a guest diagnostic.
 */
#include "hotcold_test.h"

int main(int argc, char **argv)
{
	struct ext4_geom g;
	uint32_t *fi, i;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: %s DEV|IMAGE [FILE]\n", argv[0]);
		return 2;
	}
	tap_init("sbdump");
	if (ext4_read_geom(argv[1], &g)) {
		fprintf(stderr, "hc_sbdump: %s: not a readable ext2/3/4 "
			"filesystem\n", argv[1]);
		return 1;
	}
	printf("inodes_count=%u\nblocks_count=%" PRIu64 "\n"
	       "first_data_block=%u\nblock_size=%u\nblocks_per_group=%u\n"
	       "inodes_per_group=%u\nfirst_ino=%u\nngroups=%u\nflex_size=%u\n"
	       "desc_size=%u\nresuid=%u\nresgid=%u\nhot_end=%u\n"
	       "cold_start=%u\n", g.inodes_count, g.blocks_count,
	       g.first_data_block, g.block_size, g.blocks_per_group,
	       g.inodes_per_group, g.first_ino, g.ngroups, g.flex_size,
	       g.desc_size, g.def_resuid, g.def_resgid, hot_end(&g),
	       cold_start(&g));
	fi = calloc(g.ngroups, sizeof(*fi));
	if (!fi || ext4_read_free_inodes(argv[1], &g, fi))
		return 1;
	for (i = 0; i < g.ngroups; i++)
		printf("group %u free_inodes %u\n", i, fi[i]);
	if (argc == 3) {
		struct extent_groups eg;
		int fd = open(argv[2], O_RDONLY);

		if (fd < 0 || fiemap_groups(fd, &g, &eg)) {
			fprintf(stderr, "hc_sbdump: FIEMAP of %s failed\n",
				argv[2]);
			return 1;
		}
		printf("extents=%u unmapped=%u blocks=%" PRIu64
		       " min_group=%u max_group=%u desc=%s\n", eg.nextents,
		       eg.unmapped, eg.blocks, eg.min_group, eg.max_group,
		       eg.desc);
		close(fd);
	}
	free(fi);
	return 0;
}
