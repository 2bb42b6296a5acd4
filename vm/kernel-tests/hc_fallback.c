// SPDX-License-Identifier: GPL-2.0
/*
 * hc_fallback DEV MNT
 *
 * DEV is a freshly made, freshly mounted ext4 with few inodes per group
 * and > 3 groups (e.g. mke2fs -t ext4 -b 4096 -N 2048 -g 8192 on 1 GiB).
 * Reads the free inode count of the hot groups [0, n/3) from the group
 * descriptors, then creates that many + 64 O_HOT files:
 *  - every create succeeds (no ENOSPC while the fs has inodes),
 *  - exactly the free inodes of the hot third are used by hot files, in
 *    order: the first fallback comes only after the hot third is full,
 *  - hint_fallback > 0 and honoured + fallback == number of hot creates.
 */
#include "hotcold_test.h"

static struct ext4_geom G;

int main(int argc, char **argv)
{
	struct counters c0, c1, d;
	const char *dev, *mnt, *devname;
	uint32_t *freei, g, cap = 0;
	long n, i, in_hot_n = 0, first_out = -1, late_in = 0, fails = 0;
	char dir[600];

	if (argc != 3) {
		fprintf(stderr, "usage: %s DEV MNT\n", argv[0]);
		return 2;
	}
	dev = argv[1];
	mnt = argv[2];
	devname = dev_basename(dev);
	tap_init("fallback");
	if (ext4_read_geom(dev, &G))
		tap_bail("cannot read ext4 superblock of %s", dev);
	ext4_print_geom(dev, &G);
	tap_ok(G.ngroups > 3, "precondition: %s has > 3 groups (%u)", dev,
	       G.ngroups);
	freei = calloc(G.ngroups, sizeof(*freei));
	if (!freei || ext4_read_free_inodes(dev, &G, freei))
		tap_bail("cannot read group descriptors of %s", dev);
	for (g = 0; g < hot_end(&G); g++)
		cap += freei[g];
	diag("free inodes in hot groups [0,%u): %u (group 0: %u)", hot_end(&G),
	     cap, freei[0]);
	/* the subdir itself takes an inode, possibly in the hot third */
	snprintf(dir, sizeof(dir), "%s/fb", mnt);
	if (mkdir(dir, 0755))
		tap_bail("mkdir %s: %s", dir, strerror(errno));
	{
		struct stat st;

		if (stat(dir, &st))
			tap_bail("stat %s", dir);
		if (in_hot(&G, ino_group(&G, st.st_ino)))
			cap--;
		diag("dir %s ino %llu group %u", dir,
		     (unsigned long long)st.st_ino, ino_group(&G, st.st_ino));
	}
	tap_ok(cap + 64 < G.inodes_count - G.first_ino,
	       "precondition: fs has more inodes (%u) than the hot third "
	       "(%u free) + 64", G.inodes_count, cap);

	n = (long)cap + 64;
	read_counters(devname, &c0);
	tap_ok(counters_exist(&c0), "hint_* counters exist on %s", devname);
	for (i = 0; i < n; i++) {
		char path[700];
		struct stat st;
		uint32_t grp;
		int fd;

		snprintf(path, sizeof(path), "%s/h%05ld", dir, i);
		fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_HOT, 0644);
		if (fd < 0) {
			if (fails++ < 5)
				diag("create #%ld %s: %s", i, path,
				     strerror(errno));
			continue;
		}
		if (fstat(fd, &st))
			tap_bail("fstat: %s", strerror(errno));
		close(fd);
		grp = ino_group(&G, st.st_ino);
		if (in_hot(&G, grp)) {
			in_hot_n++;
			if (first_out >= 0)
				late_in++;
		} else if (first_out < 0) {
			first_out = i;
			diag("first hot create outside [0,%u): #%ld ino %llu "
			     "group %u", hot_end(&G), i,
			     (unsigned long long)st.st_ino, grp);
		}
	}
	read_counters(devname, &c1);
	counters_delta(&c0, &c1, &d, "hot creates");
	diag("%ld creates, %ld failed, %ld in hot third, first outside #%ld, "
	     "%ld in hot third after that", n, fails, in_hot_n, first_out,
	     late_in);
	tap_ok(fails == 0, "all %ld O_HOT creates succeeded (%ld failed)", n,
	       fails);
	tap_ok(in_hot_n == (long)cap && first_out == (long)cap && !late_in,
	       "hot files filled exactly the %u free inodes of the hot third "
	       "before any went elsewhere (%ld there, first outside #%ld)",
	       cap, in_hot_n, first_out);
	tap_ok(d.v[C_FALLBACK] > 0, "hint_fallback > 0 (%lld)",
	       d.v[C_FALLBACK]);
	tap_ok(d.v[C_HONOURED] + d.v[C_FALLBACK] == n - fails &&
	       !d.v[C_NONROT] && !d.v[C_NOPERM],
	       "honoured (%lld) + fallback (%lld) == successful hot creates "
	       "(%ld)", d.v[C_HONOURED], d.v[C_FALLBACK], n - fails);
	tap_ok(d.v[C_FALLBACK] == n - fails - (long)cap,
	       "hint_fallback (%lld) == creates beyond the hot third's "
	       "capacity (%ld)", d.v[C_FALLBACK], n - fails - (long)cap);
	free(freei);
	return tap_exit();
}
