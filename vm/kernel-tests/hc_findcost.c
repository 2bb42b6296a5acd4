// SPDX-License-Identifier: GPL-2.0
/*
 * hc_findcost DEV MNT
 *
 * What a hinted create costs the search for its inode's group
 * (find_group_hotcold(), patch 13) once its region is full: the groups
 * it passes per create must not grow with the region's groups.  The
 * search reads each group's free inode count (ext4_free_inodes_count(),
 * which the block allocator never calls); the kernel's function profiler
 * counts its calls.
 *
 * DEV: a fresh ext4 of 1 GiB in 1024 groups of 1 MiB (mke2fs -b 1024
 * -g 1024 -m 0), mounted on MNT; the test sets hot_region_permille=500,
 * so the hot region is groups [0,512).
 *  1. An O_HOT file F, fallocate()d in steps of 1 MiB, then 64 KiB, then
 *     4 KiB, each size until a step spills (hint_clusters_spilled grows):
 *     the region is full.
 *  2. In each group of the region that holds 4 KiB of F's blocks, those
 *     4 KiB punched out: such a group has 4 free clusters, less than the
 *     eighth of a group (128) a search looks for first, so every search
 *     falls back to a group with a free cluster.
 *  3. With the profiler counting ext4_free_inodes_count() only, CREATES
 *     O_HOT files of 8 KiB created, written and fsync()ed one after the
 *     other: each file's data takes the 4 free clusters of its inode's
 *     group (no group has more), so each next search finds the group it
 *     fell back to full.
 * Pass: each file's inode in the hot region, and fewer calls per create,
 * on average, than an eighth of the region's groups (64).  A search that
 * walks the whole region again whenever the group it fell back to is
 * full makes 512 per create.  Skips (one SKIP line) when the kernel has
 * no function profiler: make kernel-debug's has one, the patched kernel
 * has not.  HC_FINDCOST_V=1 in the environment prints each file's inode
 * group, blocks and the calls counted so far.  Restores
 * hot_region_permille.  Prints TAP.
 */
#include "hotcold_test.h"

#define TRACEFS "/sys/kernel/tracing"
#define PROFILED "ext4_free_inodes_count"
#define CREATES 64
#define HOLE 4096u

static struct ext4_geom G;
static const char *devname;

/* the calls of the profiled functions, summed over the CPUs' tables */
static long long profiled_hits(void)
{
	char p[64], line[256], fn[128];
	long long sum = 0, hit;
	int cpu, found = 0;
	FILE *f;

	for (cpu = 0; cpu < 64; cpu++) {
		snprintf(p, sizeof(p), TRACEFS "/trace_stat/function%d", cpu);
		f = fopen(p, "r");
		if (!f)
			break;
		found = 1;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, " %127s %lld", fn, &hit) == 2 &&
			    !strcmp(fn, PROFILED))
				sum += hit;
		fclose(f);
	}
	return found ? sum : -1;
}

struct punch {
	uint32_t hot_end;
	unsigned char *done;	/* groups already holed */
	unsigned int holes, failed;
};

/* punch HOLE bytes of F out of each hot group its extents reach */
static void punch_groups(int fd, struct punch *p)
{
	struct hc_extent *ext = NULL;
	size_t n = 0, i;
	uint64_t b, b1, bpg = G.blocks_per_group, bs = G.block_size;
	uint32_t grp;
	int err = hc_fiemap(fd, &ext, &n);

	if (err)
		tap_bail("FS_IOC_FIEMAP of F: %s", strerror(err));
	for (i = 0; i < n; i++) {
		if (!ext[i].mapped)
			continue;
		b = ext[i].physical / bs;
		b1 = b + ext[i].length / bs;
		while (b + HOLE / bs <= b1) {
			grp = blk_group(&G, b);
			/* the hole's blocks must all be in grp */
			if (grp < p->hot_end && !p->done[grp] &&
			    blk_group(&G, b + HOLE / bs - 1) == grp) {
				if (fallocate(fd, FALLOC_FL_PUNCH_HOLE |
					      FALLOC_FL_KEEP_SIZE,
					      (off_t)(ext[i].logical +
						      (b - ext[i].physical / bs) * bs),
					      HOLE))
					p->failed++;
				else
					p->holes++;
				p->done[grp] = 1;
			}
			/* on to the next group's first block */
			b = G.first_data_block + (uint64_t)(grp + 1) * bpg;
		}
	}
	free(ext);
}

int main(int argc, char **argv)
{
	char p[700];
	static const off_t steps[3] = { 1 << 20, 64 << 10, 4 << 10 };
	long long hits0, hits, fallback0, permille, sp0;
	uint32_t hot_end, spilled = 0, outside = 0;
	struct extent_groups eg;
	struct punch pu = { 0 };
	struct stat st;
	off_t off;
	int fd, i, k, n, prof;

	if (argc != 3) {
		fprintf(stderr, "usage: %s DEV MNT\n", argv[0]);
		return 2;
	}
	devname = dev_basename(argv[1]);
	tap_init("findcost");
	if (access(TRACEFS "/function_profile_enabled", W_OK)) {
		tap_skip("no function profiler in this kernel: the debug "
			 "kernel runs it", "hinted create cost in a full region "
			 "(%s: %s)", TRACEFS "/function_profile_enabled",
			 strerror(errno));
		return tap_exit();
	}
	if (ext4_read_geom(argv[1], &G))
		tap_bail("cannot read ext4 superblock of %s", argv[1]);
	ext4_print_geom(argv[1], &G);
	if (G.ngroups != 1024 || G.blocks_per_group != 1024)
		tap_bail("want 1024 groups of 1024 blocks (-b 1024 -g 1024 on "
			 "1 GiB), got %u of %u", G.ngroups, G.blocks_per_group);
	permille = read_counter(devname, "hot_region_permille");
	if (permille < 0 || write_knob(devname, "hot_region_permille", "500"))
		tap_bail("cannot write hot_region_permille of %s", devname);
	hot_end = G.ngroups / 2;

	/* 1. fill the hot region with F: steps of 1 MiB, 64 KiB, 4 KiB */
	snprintf(p, sizeof(p), "%s/F", argv[2]);
	fd = open(p, O_CREAT | O_EXCL | O_RDWR | O_HOT, 0644);
	if (fd < 0)
		tap_bail("create %s O_HOT: %s", p, strerror(errno));
	off = 0;
	for (k = 0; k < 3; k++) {
		for (n = 0; n < 1024; n++) {
			sp0 = read_counter(devname, "hint_clusters_spilled");
			if (sp0 < 0 || fallocate(fd, 0, off, steps[k]))
				tap_bail("fallocate F at %lld: %s", (long long)off,
					 strerror(errno));
			off += steps[k];
			if (read_counter(devname, "hint_clusters_spilled") > sp0)
				break;
		}
		if (n == 1024)
			break;
	}
	if (fiemap_groups(fd, &G, &eg))
		tap_bail("FIEMAP of F failed");
	tap_ok(k == 3 && eg.min_group < hot_end,
	       "F's %lld KiB fill the hot region [0,%u): a step of each size "
	       "spilled; its blocks reach group %u", (long long)off >> 10,
	       hot_end, eg.max_group);

	/* 2. 4 KiB holes, one per hot group F holds */
	pu.done = calloc(G.ngroups, 1);
	pu.hot_end = hot_end;
	if (!pu.done)
		tap_bail("out of memory");
	punch_groups(fd, &pu);
	close(fd);
	sync();
	tap_ok(pu.holes >= hot_end / 2 && !pu.failed,
	       "%u holes of 4 KiB punched in F, one per hot group it holds "
	       "(%u punches failed)", pu.holes, pu.failed);

	/* 3. count the descriptor reads of CREATES hinted creates */
	prof = !write_str(TRACEFS "/set_ftrace_filter", PROFILED, 1) &&
	       !write_str(TRACEFS "/function_profile_enabled", "0", 1) &&
	       !write_str(TRACEFS "/function_profile_enabled", "1", 1);
	hits0 = profiled_hits();
	if (!prof || hits0 < 0)
		tap_bail("cannot profile " PROFILED " (set_ftrace_filter, "
			 "function_profile_enabled, trace_stat/function*)");
	fallback0 = read_counter(devname, "hint_fallback");
	for (i = 0; i < CREATES; i++) {
		snprintf(p, sizeof(p), "%s/h%02d", argv[2], i);
		fd = open(p, O_CREAT | O_EXCL | O_RDWR | O_HOT, 0644);
		if (fd < 0 || write_fill(fd, 8192, (unsigned char)i) ||
		    fsync(fd) || fstat(fd, &st) || fiemap_groups(fd, &G, &eg))
			tap_bail("create, write, fsync, FIEMAP %s: %s", p,
				 strerror(errno));
		close(fd);
		if (ino_group(&G, st.st_ino) >= hot_end)
			outside++;
		if (eg.max_group >= hot_end)
			spilled++;
		if (getenv("HC_FINDCOST_V"))
			diag("h%02d: inode group %u, blocks %s, desc calls so far %lld",
			     i, ino_group(&G, st.st_ino), eg.desc,
			     profiled_hits() - hits0);
	}
	hits = profiled_hits() - hits0;
	write_str(TRACEFS "/function_profile_enabled", "0", 1);
	write_str(TRACEFS "/set_ftrace_filter", "", 1);
	diag("hint_fallback +%lld; files with blocks past the region: %u",
	     read_counter(devname, "hint_fallback") - fallback0, spilled);
	tap_ok(!outside, "%d O_HOT files of 8 KiB: every inode in the hot "
	       "region (%u outside)", CREATES, outside);
	tap_ok(hits < (long long)CREATES * hot_end / 8,
	       "%lld " PROFILED "() calls for %d creates, %.1f each: "
	       "fewer than an eighth of the region's %u groups", hits,
	       CREATES, (double)hits / CREATES, hot_end);

	snprintf(p, sizeof(p), "%lld", permille);
	if (write_knob(devname, "hot_region_permille", p))
		tap_bail("cannot restore hot_region_permille of %s", devname);
	return tap_exit();
}
