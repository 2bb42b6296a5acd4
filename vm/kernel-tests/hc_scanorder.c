// SPDX-License-Identifier: GPL-2.0
/*
 * hc_scanorder DEV MNT
 *
 * mb_optimize_scan keeps its lists per part of the disk (hot region,
 * middle, cold region; patch 10).  An unhinted allocation that misses its
 * goal must try the part of its goal first, as the linear scan goes on
 * from the goal, and not the hot region's groups because they come first.
 *
 * DEV: a fresh 1 GiB ext4 of 32 groups (-b 4096 -g 8192 -G 4), mounted on
 * MNT without region_reserve: hot region [0,10), cold region [22,32).
 *  1. a directory whose inode is in groups [16,22) and an empty file F in
 *     it whose inode is in [16,22) (the middle third);
 *  2. cold_region_permille=500 (cold region [16,32)) and O_COLD files of
 *     4 MiB until one spills: groups [16,32) are full, F's group too;
 *  3. cold_region_permille=333 again, and one empty O_COLD create so
 *     that the groups [16,22) move to the middle's lists (empty: with the
 *     cold region full the create may fall back, and an unhinted file's
 *     small write leaves a locality-group preallocation in the hot region
 *     that the append below, on the same CPU, would take without a scan);
 *  4. every group's buddy loaded (reading mb_groups), so every group is
 *     on its part's lists; mb_max_linear_groups=0 (straight to the lists
 *     after the goal) and mb_group_prealloc=8192 (a whole group: a
 *     request of order 13, which only a group with no metadata, no backup
 *     and no data can hold), then 32 KiB appended to F: the allocation misses F's full goal
 *     group, and the lists of order 13 hold groups of the hot region (2
 *     and 6: neither the first of a flex group, which cr 0 skips for
 *     data, nor holding a backup superblock) and of the middle (10, 11,
 *     13, 14, 15).  The append's blocks must come from a scan
 *     (ext4_mballoc_alloc, not ext4_mballoc_prealloc: traced) and must
 *     not be in the hot region.  (A smaller request would let a group of
 *     a lower order win in any part: the part order is a tie-break
 *     within one order.)
 * Restores the tunables.  Prints TAP.
 */
#include "hotcold_test.h"

#define FILL (4u << 20)

static struct ext4_geom G;
static const char *devname;

static long long sysfs_get(const char *name)
{
	return read_counter(devname, name);
}

#define TRACEFS "/sys/kernel/tracing"
#define EVDIR TRACEFS "/events/ext4/"

/* the allocator's events: what it was asked and where the blocks came from */
static int trace_on(int on)
{
	const char *v = on ? "1" : "0";

	if (on && (write_str(TRACEFS "/tracing_on", "1", 1) ||
		   write_str(TRACEFS "/trace", "", 1)))
		return -1;
	return write_str(EVDIR "ext4_mballoc_alloc/enable", v, 1) ||
	       write_str(EVDIR "ext4_mballoc_prealloc/enable", v, 1);
}

/*
 * Print inode ino's allocator events; count the scans (ext4_mballoc_alloc)
 * and the allocations served from a preallocation (ext4_mballoc_prealloc).
 */
static void trace_read(unsigned long ino, int *scans, int *prealloc)
{
	char line[1024], who[32];
	FILE *t = fopen(TRACEFS "/trace", "r");

	*scans = *prealloc = 0;
	if (!t)
		return;
	snprintf(who, sizeof(who), " inode %lu ", ino);
	while (fgets(line, sizeof(line), t)) {
		char *p = strstr(line, "ext4_mballoc_");

		if (!p || !strstr(p, who))
			continue;
		line[strcspn(line, "\n")] = 0;
		diag("trace: %s", p);
		if (!strncmp(p, "ext4_mballoc_alloc:", 19))
			(*scans)++;
		else if (!strncmp(p, "ext4_mballoc_prealloc:", 22))
			(*prealloc)++;
	}
	fclose(t);
}

static int write_file(const char *path, int flags, size_t size)
{
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY | flags, 0644), r;

	if (fd < 0)
		return -1;
	r = write_fill(fd, size, 3);
	close(fd);
	return r;
}

int main(int argc, char **argv)
{
	char dir[600], f[700], p[700];
	long long spilled0, lin0, pre0;
	int scans, prealloc;
	ino_t fino;
	struct extent_groups eg;
	struct stat st;
	uint32_t dg = 0, fg;
	int i, fd, n, ok;

	if (argc != 3) {
		fprintf(stderr, "usage: %s DEV MNT\n", argv[0]);
		return 2;
	}
	devname = dev_basename(argv[1]);
	tap_init("scanorder");
	if (ext4_read_geom(argv[1], &G))
		tap_bail("cannot read ext4 superblock of %s", argv[1]);
	ext4_print_geom(argv[1], &G);
	if (G.ngroups != 32 || G.flex_size != 4)
		tap_bail("want 32 groups in flex groups of 4 (-g 8192 -G 4 on "
			 "1 GiB), got %u and %u", G.ngroups, G.flex_size);
	lin0 = sysfs_get("mb_max_linear_groups");
	pre0 = sysfs_get("mb_group_prealloc");
	if (lin0 < 0 || pre0 < 0 || sysfs_get("cold_region_permille") < 0)
		tap_bail("no mb_max_linear_groups, mb_group_prealloc or "
			 "cold_region_permille in /sys/fs/ext4/%s", devname);

	/* 1. a directory in [16,22), F in the middle third inside it */
	for (i = 0; i < 64; i++) {
		snprintf(dir, sizeof(dir), "%s/so%02d", argv[2], i);
		if (mkdir(dir, 0755) || stat(dir, &st))
			tap_bail("mkdir %s: %s", dir, strerror(errno));
		dg = ino_group(&G, st.st_ino);
		if (dg >= 16 && dg < 22)
			break;
	}
	if (i == 64)
		tap_bail("no top-level directory in groups [16,22) in 64 tries");
	snprintf(f, sizeof(f), "%s/F", dir);
	fd = open(f, O_CREAT | O_EXCL | O_WRONLY, 0644);
	if (fd < 0 || fstat(fd, &st))
		tap_bail("create %s: %s", f, strerror(errno));
	close(fd);
	fino = st.st_ino;
	fg = ino_group(&G, fino);
	tap_ok(fg >= 16 && fg < 22, "F's inode is in group %u (dir group %u), "
	       "in [16,22)", fg, dg);

	/* 2. fill [16,32) with cold files until one spills */
	tap_ok(!write_knob(devname, "cold_region_permille", "500"),
	       "cold_region_permille=500: cold region [16,32)");
	spilled0 = sysfs_get("hint_clusters_spilled");
	for (n = 0; n < 200; n++) {
		snprintf(p, sizeof(p), "%s/cold%03d", argv[2], n);
		if (write_file(p, O_COLD, FILL))
			tap_bail("write %s: %s", p, strerror(errno));
		if (sysfs_get("hint_clusters_spilled") > spilled0)
			break;
	}
	tap_ok(n < 200, "the cold region [16,32) filled up after %d files of "
	       "4 MiB (hint_clusters_spilled +%lld)", n + 1,
	       sysfs_get("hint_clusters_spilled") - spilled0);

	/* 3. back to a third; a hinted create relists the groups */
	tap_ok(!write_knob(devname, "cold_region_permille", "333"),
	       "cold_region_permille=333: cold region [22,32) again");
	snprintf(p, sizeof(p), "%s/relist", argv[2]);
	tap_ok(!write_file(p, O_COLD, 0), "an empty O_COLD create after the "
	       "change (the groups move to their new part's lists)");

	/*
	 * 4. an unhinted append that misses its full goal group.  A group
	 * is on the scan lists once its buddy is loaded, which mount's
	 * prefetch does in the background: reading mb_groups loads every
	 * group's, so that all of them are listed, each in its part.
	 */
	snprintf(p, sizeof(p), "/proc/fs/ext4/%s/mb_groups", devname);
	n = 0;
	fd = open(p, O_RDONLY);
	if (fd >= 0) {
		char buf[4096];
		ssize_t r;

		while ((r = read(fd, buf, sizeof(buf))) > 0)
			n += (int)r;
		close(fd);
	}
	tap_ok(n > 0, "read %s (%d bytes): every group's buddy loaded", p, n);
	ok = !write_knob(devname, "mb_max_linear_groups", "0") &&
	     !write_knob(devname, "mb_group_prealloc", "8192");
	tap_ok(ok, "mb_max_linear_groups=0, mb_group_prealloc=8192");
	if (trace_on(1))
		tap_bail("cannot enable ext4_mballoc_alloc/prealloc in %s", EVDIR);
	fd = open(f, O_WRONLY | O_APPEND);
	if (fd < 0 || write_fill(fd, 32 << 10, 5))
		tap_bail("append to %s: %s", f, strerror(errno));
	if (fiemap_groups(fd, &G, &eg))
		tap_bail("FIEMAP %s: %s", f, strerror(errno));
	close(fd);
	trace_on(0);
	trace_read((unsigned long)fino, &scans, &prealloc);
	tap_ok(scans == 1 && !prealloc, "the append's blocks came from one scan "
	       "(ext4_mballoc_alloc %d, from a preallocation %d)", scans,
	       prealloc);
	diag("F: %u extent(s), groups %u..%u: %s", eg.nextents, eg.min_group,
	     eg.max_group, eg.desc);
	tap_ok(eg.nextents && !eg.unmapped && eg.min_group >= hot_end(&G),
	       "the unhinted append that missed its full goal group %u went "
	       "to groups %u..%u, not to the hot region [0,%u)", fg,
	       eg.min_group, eg.max_group, hot_end(&G));

	snprintf(p, sizeof(p), "%lld", lin0);
	ok = !write_knob(devname, "mb_max_linear_groups", p);
	snprintf(p, sizeof(p), "%lld", pre0);
	ok &= !write_knob(devname, "mb_group_prealloc", p);
	tap_ok(ok, "tunables restored");
	return tap_exit();
}
