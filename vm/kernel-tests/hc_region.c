// SPDX-License-Identifier: GPL-2.0
/*
 * hc_region - the O_HOT/O_COLD regions as the disk fills: where hinted
 * data really went, the region-size and reserve tunables, and the reserve
 * (patched kernel only; see guest-check.sh for the disks)
 *
 *   hc_region mountopts DEV MNT
 *	DEV unmounted ext4.  Bad values of the mount options
 *	hot_region_permille, cold_region_permille, region_reserve and
 *	region_reserve_pct fail the mount with EINVAL; good ones are shown
 *	in sysfs and /proc/mounts.  A remount that ext4 refuses after it
 *	has applied the options (nombcache) leaves the four as they were; a
 *	good remount changes them.  Leaves DEV unmounted.
 *   hc_region stock DEV MNT
 *	the stock kernel: the mount option region_reserve is refused, there
 *	is no hot_region_permille in sysfs.  Leaves DEV unmounted.
 *   hc_region tunables DEV MNT
 *	DEV freshly made and mounted on MNT.  The sysfs tunables refuse
 *	non-numeric and out-of-range values with EINVAL and keep their
 *	value; an O_COLD file's data fills the cold region from its inner
 *	end (the last group); with cold_region_permille=100 an O_COLD inode
 *	goes to the last tenth of the groups; the cluster counters equal
 *	what FIEMAP shows.  Restores the defaults.
 *   hc_region verify DEV MNT MANIFEST reserve|noreserve
 *	MNT aged by hc-age (manifest MANIFEST, fresh mount before it).
 *	Every set file's data read back with FIEMAP, file by file: the
 *	counters hint_clusters_in_region, hint_clusters_spilled,
 *	hint_honoured and hint_spilled equal what FIEMAP shows; with the
 *	reserve on, at least 90% of the hot set's clusters are in the hot
 *	region.  Prints where the unhinted fillers and the sets went.
 *   hc_region persist-write DEV MNT, then (umount, mount)
 *   hc_region persist-append DEV MNT
 *	an O_HOT and an O_COLD file of 4 MiB written, then after the remount
 *	8 MiB appended to each: the appended extents stay in the file's
 *	region, and are counted there.
 *   hc_region enospc DEV MNT
 *	fallocate() 1 MiB unhinted files until ENOSPC: it comes only when
 *	the free space left is within reserved_clusters + 2 MiB.
 *
 * Exit status 0 if every test passed, 1 if one failed, 2 on bad usage.
 */
#include "hotcold_test.h"
#include <ftw.h>
#include <sys/mount.h>
#include <sys/statfs.h>

static struct ext4_geom G;
static const char *devname;

/* Regions with the default sizes (a third each) */
struct region {
	uint32_t start, end;	/* groups [start, end) */
};

static struct region region_of(int hot)
{
	struct region r;

	r.start = hot ? 0 : cold_start(&G);
	r.end = hot ? hot_end(&G) : G.ngroups;
	return r;
}

/* First block of group g */
static uint64_t group_block(uint32_t g)
{
	return (uint64_t)g * G.blocks_per_group + G.first_data_block;
}

/* Blocks of fd inside and outside region r; -1 if FIEMAP fails */
struct split {
	uint64_t in, out;
	uint32_t min_group, max_group;
	unsigned int extents;
};

struct split_walk {
	struct split *s;
	uint64_t lo, hi;	/* the region's blocks [lo, hi) */
};

static void split_add(uint64_t b0, uint64_t nb, void *arg)
{
	struct split_walk *w = arg;
	struct split *s = w->s;
	uint64_t b1 = b0 + nb;
	uint64_t a = b0 > w->lo ? b0 : w->lo, b = b1 < w->hi ? b1 : w->hi;
	uint64_t inside = b > a ? b - a : 0;

	s->in += inside;
	s->out += nb - inside;
	s->extents++;
	if (blk_group(&G, b0) < s->min_group)
		s->min_group = blk_group(&G, b0);
	if (blk_group(&G, b1 - 1) > s->max_group)
		s->max_group = blk_group(&G, b1 - 1);
}

static int fiemap_split(int fd, struct region r, struct split *s)
{
	struct split_walk w = { s, group_block(r.start), group_block(r.end) };
	unsigned int unmapped;
	int ret;

	memset(s, 0, sizeof(*s));
	s->min_group = UINT32_MAX;
	ret = fiemap_walk(fd, G.block_size, &unmapped, split_add, &w);
	if (s->min_group == UINT32_MAX)
		s->min_group = 0;
	return ret;
}

/* Write value to /sys/fs/ext4/DEV/name; returns 0 or the errno */
static int sysfs_write(const char *name, const char *value)
{
	char path[256];
	ssize_t w;
	int fd, e = 0;

	snprintf(path, sizeof(path), "/sys/fs/ext4/%s/%s", devname, name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	w = write(fd, value, strlen(value));
	if (w < 0)
		e = errno;
	else if ((size_t)w != strlen(value))
		e = EIO;
	close(fd);
	return e;
}

static const char *const tunables[] = {
	"hot_region_permille", "cold_region_permille", "region_reserve",
	"region_reserve_pct",
};

/* ------------------------------------------------------- mountopts */

/*
 * The four tunables read want[] in sysfs, and /proc/mounts shows each
 * that is not at its default (250, 100, 1 and 80 all are not)
 */
static void tunables_are(const char *mnt, const char *const want[4],
			 const char *when)
{
	static const char *const dflt[] = { "333", "333", "0", "95" };
	char line[4096], buf[64], opt[96], shown[4] = { 0 };
	unsigned int i;
	FILE *f;

	for (i = 0; i < 4; i++) {
		long long v = read_counter(devname, tunables[i]);

		snprintf(buf, sizeof(buf), "%lld", v);
		tap_ok(!strcmp(buf, want[i]), "%s: sysfs %s reads %s (%s)",
		       when, tunables[i], want[i], buf);
	}
	f = fopen("/proc/mounts", "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (!strstr(line, mnt))
			continue;
		for (i = 0; i < 4; i++) {
			snprintf(opt, sizeof(opt), ",%s=%s", tunables[i],
				 want[i]);
			shown[i] = strstr(line, opt) != NULL ||
				   !strcmp(want[i], dflt[i]);
		}
	}
	if (f)
		fclose(f);
	tap_ok(shown[0] && shown[1] && shown[2] && shown[3],
	       "%s: /proc/mounts shows the options that are not at their "
	       "defaults, as sysfs reads them", when);
}

static void mount_refused(const char *dev, const char *mnt, const char *opts)
{
	int r = mount(dev, mnt, "ext4", 0, opts), e = errno;

	if (!r)
		umount(mnt);
	tap_ok(r && e == EINVAL, "mount -o %s refused with EINVAL (%s)", opts,
	       r ? strerror(e) : "mounted");
}

static int mountopts(const char *dev, const char *mnt)
{
	static const char *const bad[] = {
		"hot_region_permille=501", "cold_region_permille=1000",
		"region_reserve=2", "region_reserve_pct=0",
		"region_reserve_pct=101", "hot_region_permille=abc",
	};
	const char *good = "hot_region_permille=250,cold_region_permille=100,"
			   "region_reserve=1,region_reserve_pct=80";
	static const char *const want[] = { "250", "100", "1", "80" };
	/*
	 * ext4 refuses nombcache on remount after it has applied the
	 * remount's other options, and must then put back the old ones
	 */
	const char *failing = "hot_region_permille=300,cold_region_permille=300,"
			      "region_reserve=0,region_reserve_pct=50,nombcache";
	const char *changed = "hot_region_permille=200,region_reserve=0";
	static const char *const want2[] = { "200", "100", "0", "80" };
	unsigned int i;
	int r, e;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		mount_refused(dev, mnt, bad[i]);
	if (mount(dev, mnt, "ext4", 0, good)) {
		tap_ok(0, "mount -o %s: %s", good, strerror(errno));
		return tap_exit();
	}
	tap_ok(1, "mount -o %s", good);
	tunables_are(mnt, want, "after the mount");

	r = mount(dev, mnt, "ext4", MS_REMOUNT, failing);
	e = errno;
	tap_ok(r && e == EINVAL, "mount -o remount,%s fails with EINVAL (%s)",
	       failing, r ? strerror(e) : "remounted");
	tunables_are(mnt, want, "after the failed remount");

	r = mount(dev, mnt, "ext4", MS_REMOUNT, changed);
	tap_ok(!r, "mount -o remount,%s (%s)", changed,
	       r ? strerror(errno) : "ok");
	tunables_are(mnt, want2, "after the remount");
	tap_ok(!umount(mnt), "umount %s", mnt);
	return tap_exit();
}

/* The stock kernel has neither the options nor the sysfs files */
static int stock(const char *dev, const char *mnt)
{
	char path[256];

	mount_refused(dev, mnt, "region_reserve=1");
	if (mount(dev, mnt, "ext4", 0, NULL)) {
		tap_ok(0, "mount %s: %s", dev, strerror(errno));
		return tap_exit();
	}
	snprintf(path, sizeof(path), "/sys/fs/ext4/%s/hot_region_permille",
		 devname);
	tap_ok(access(path, F_OK) && errno == ENOENT, "stock: no %s", path);
	tap_ok(!umount(mnt), "umount %s", mnt);
	return tap_exit();
}

/* -------------------------------------------------------- tunables */

static void refused(const char *name, const char *value)
{
	long long before = read_counter(devname, name);
	int e = sysfs_write(name, value);

	tap_ok(e == EINVAL && read_counter(devname, name) == before,
	       "%s: '%s' refused with EINVAL, value kept (%s, %lld)", name,
	       value, e ? strerror(e) : "accepted",
	       read_counter(devname, name));
}

static int make_hinted(const char *mnt, const char *name, int flag,
		       size_t size, struct fileres *r, struct split *s)
{
	char path[600];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", mnt, name);
	if (make_file(&G, mnt, name, flag, size, r))
		return -1;
	fd = open(path, O_RDONLY);
	if (fd < 0 || fiemap_split(fd, region_of(flag == O_HOT), s)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	diag("%s %s: ino %" PRIu64 " group %u, %" PRIu64 " blocks in its "
	     "region, %" PRIu64 " outside, groups %u..%u", name,
	     flag_name(flag), r->ino, r->igroup, s->in, s->out, s->min_group,
	     s->max_group);
	return 0;
}

/*
 * An unhinted file with an inode preallocation in the hot region (100 KiB
 * written and fsync()ed: the request is normalised to 128 KiB), then
 * region_reserve=1, then 20 KiB more through the same descriptor: the
 * append must use the file's own preallocation (mballoc's
 * normalize_request BUGs if it was passed over), so it follows the first
 * write in one extent.
 */
static void prealloc_then_reserve(const char *mnt)
{
	static char buf[100 << 10];
	char path[600];
	struct split s;
	int fd, e;

	snprintf(path, sizeof(path), "%s/prealloc", mnt);
	memset(buf, 0x5a, sizeof(buf));
	fd = open(path, O_CREAT | O_EXCL | O_RDWR, 0644);
	if (fd < 0 || write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf) ||
	    fsync(fd)) {
		tap_ok(0, "write 100 KiB to %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	e = sysfs_write("region_reserve", "1");
	if (write(fd, buf, 20 << 10) != 20 << 10 || fsync(fd) ||
	    fiemap_split(fd, region_of(1), &s)) {
		tap_ok(0, "append 20 KiB to %s with the reserve on: %s", path,
		       strerror(errno));
		close(fd);
		sysfs_write("region_reserve", "0");
		return;
	}
	close(fd);
	tap_ok(!e && s.extents == 1 && s.in * G.block_size == 120u << 10,
	       "region_reserve=1 with a preallocation in the hot region: the "
	       "append used it (%u extent(s), %" PRIu64 " blocks in the hot "
	       "region, %" PRIu64 " out)", s.extents, s.in, s.out);
	tap_ok(!sysfs_write("region_reserve", "0"), "region_reserve back to 0");
}

static int tunables_mode(const char *mnt)
{
	static const char *const bad_pm[] = { "abc", "501", "-1", "1x" };
	long long in0, sp0, in1, sp1;
	struct fileres r;
	struct split s;
	unsigned int i;
	uint64_t blocks = 0;
	int e;

	for (i = 0; i < 4; i++)
		tap_ok(read_counter(devname, tunables[i]) >= 0,
		       "sysfs %s exists (%lld)", tunables[i],
		       read_counter(devname, tunables[i]));
	tap_ok(read_counter(devname, "hot_region_permille") == 333 &&
	       read_counter(devname, "cold_region_permille") == 333 &&
	       read_counter(devname, "region_reserve") == 0 &&
	       read_counter(devname, "region_reserve_pct") == 95,
	       "defaults: regions 333 per mille, reserve off, 95%%");
	for (i = 0; i < sizeof(bad_pm) / sizeof(bad_pm[0]); i++)
		refused("hot_region_permille", bad_pm[i]);
	refused("cold_region_permille", "1000");
	refused("region_reserve", "2");
	refused("region_reserve", "on");
	refused("region_reserve_pct", "0");
	refused("region_reserve_pct", "101");

	in0 = read_counter(devname, "hint_clusters_in_region");
	sp0 = read_counter(devname, "hint_clusters_spilled");
	/*
	 * Cold fills from the inner end: the last group first, or the one
	 * before it, since right after mount mballoc's first passes (cr 0
	 * and 1) skip a group whose bitmap is not loaded yet unless it is
	 * BLOCK_UNINIT, and mke2fs never marks the last group so.
	 */
	if (make_hinted(mnt, "cold-inner", O_COLD, 16u << 20, &r, &s))
		tap_ok(0, "create a 16 MiB O_COLD file");
	else
		tap_ok(s.out == 0 && r.igroup == G.ngroups - 1 &&
		       s.min_group + 2 >= G.ngroups,
		       "a 16 MiB O_COLD file on an empty fs sits at the inner "
		       "end: inode group %u, data groups %u..%u of %u",
		       r.igroup, s.min_group, s.max_group, G.ngroups);
	blocks += s.in + s.out;
	if (make_hinted(mnt, "hot-outer", O_HOT, 16u << 20, &r, &s))
		tap_ok(0, "create a 16 MiB O_HOT file");
	else
		tap_ok(s.out == 0 && s.max_group < 3,
		       "a 16 MiB O_HOT file on an empty fs sits at the outer "
		       "end: groups %u..%u", s.min_group, s.max_group);
	blocks += s.in + s.out;
	in1 = read_counter(devname, "hint_clusters_in_region");
	sp1 = read_counter(devname, "hint_clusters_spilled");
	tap_ok(in1 - in0 == (long long)blocks && sp1 == sp0,
	       "hint_clusters_in_region grew by the files' FIEMAP blocks "
	       "(%lld, FIEMAP %" PRIu64 "), hint_clusters_spilled by 0 (%lld)",
	       in1 - in0, blocks, sp1 - sp0);

	e = sysfs_write("cold_region_permille", "100");
	tap_ok(!e && read_counter(devname, "cold_region_permille") == 100,
	       "cold_region_permille=100 accepted (%s)",
	       e ? strerror(e) : "ok");
	if (make_hinted(mnt, "cold-tenth", O_COLD, 0, &r, &s))
		tap_ok(0, "create an O_COLD file");
	else
		tap_ok(r.igroup >= G.ngroups - G.ngroups / 10,
		       "with cold_region_permille=100 an O_COLD inode is in "
		       "the last tenth: group %u >= %u", r.igroup,
		       G.ngroups - G.ngroups / 10);
	e = sysfs_write("hot_region_permille", "0");
	if (make_hinted(mnt, "hot-none", O_HOT, 0, &r, &s))
		tap_ok(0, "create an O_HOT file");
	else
		diag("with hot_region_permille=0: O_HOT inode in group %u",
		     r.igroup);
	tap_ok(!e && read_counter(devname, "hint_dropped_noregion") >= 1,
	       "hot_region_permille=0 turns O_HOT off "
	       "(hint_dropped_noregion %lld)",
	       read_counter(devname, "hint_dropped_noregion"));
	e = sysfs_write("cold_region_permille", "333") |
	    sysfs_write("hot_region_permille", "333");
	tap_ok(!e, "region sizes restored to 333");
	prealloc_then_reserve(mnt);
	return tap_exit();
}

/* --------------------------------------------------------- persist */

/*
 * persist-write: an O_HOT and an O_COLD file of 4 MiB in a directory,
 * with a symlink to each in MNT.  persist-append (after umount + mount,
 * so the inodes are read back from disk): 8 MiB appended to each; every
 * extent stays in the file's region, and the counters count the appended
 * clusters as in the region (the hint came back with the inode).  An
 * unhinted 8 MiB append right after mount would follow the stream goal,
 * group 0: out of the cold region.
 */
static int persist(const char *mnt, int append)
{
	static const int flags[] = { O_HOT, O_COLD };
	long long in0 = read_counter(devname, "hint_clusters_in_region");
	struct dirinfo mid;
	unsigned int i;

	if (!append) {
		char dir[480];

		snprintf(dir, sizeof(dir), "%s/persist", mnt);
		if (mkdir(dir, 0755) || dir_info(dir, &G, &mid))
			tap_bail("mkdir %s: %s", dir, strerror(errno));
		for (i = 0; i < 2; i++) {
			struct fileres r;
			struct split s;
			char name[64], link[600], target[700];
			int fd;

			snprintf(name, sizeof(name), "persist-%s",
				 flag_name(flags[i]));
			if (make_file(&G, mid.path, name, flags[i], 4u << 20,
				      &r))
				tap_bail("create %s/%s", mid.path, name);
			snprintf(target, sizeof(target), "%s/%s", mid.path,
				 name);
			snprintf(link, sizeof(link), "%s/%s", mnt, name);
			if (symlink(target, link))
				tap_bail("symlink %s: %s", link, strerror(errno));
			fd = open(target, O_RDONLY);
			if (fd < 0 || fiemap_split(fd, region_of(i == 0), &s))
				tap_bail("FIEMAP %s", target);
			close(fd);
			tap_ok(s.out == 0 && s.in > 0, "%s: written in its "
			       "region, groups %u..%u (dir group %u)", name,
			       s.min_group, s.max_group, mid.group);
		}
		return tap_exit();
	}
	for (i = 0; i < 2; i++) {
		struct split s;
		char path[600];
		int fd;

		snprintf(path, sizeof(path), "%s/persist-%s", mnt,
			 flag_name(flags[i]));
		fd = open(path, O_WRONLY | O_APPEND);
		if (fd < 0 || write_fill(fd, 8u << 20, 3)) {
			tap_ok(0, "append 8 MiB to %s: %s", path,
			       strerror(errno));
			continue;
		}
		close(fd);
		fd = open(path, O_RDONLY);
		if (fd < 0 || fiemap_split(fd, region_of(i == 0), &s)) {
			tap_ok(0, "FIEMAP %s", path);
			continue;
		}
		close(fd);
		tap_ok(s.out == 0 && s.in * G.block_size == 12u << 20,
		       "after umount + mount, an 8 MiB append to the %s file "
		       "stays in its region: %" PRIu64 " blocks in, %" PRIu64
		       " out, groups %u..%u", flag_name(flags[i]), s.in, s.out,
		       s.min_group, s.max_group);
	}
	tap_ok(read_counter(devname, "hint_clusters_in_region") - in0 ==
	       2 * (8 << 20) / (long long)G.block_size,
	       "the appends were counted in the region (%lld clusters, want "
	       "%lld)", read_counter(devname, "hint_clusters_in_region") - in0,
	       2 * (8 << 20) / (long long)G.block_size);
	return tap_exit();
}

/* ---------------------------------------------------------- verify */

struct setfile {
	char path[512];
	char set[32];
	int hot, cold;
};
static struct setfile *sets;
static size_t nsets;

/* column index of name in a CSV header, or -1 */
static int column(char *hdr, const char *name)
{
	char *save = NULL, *t;
	int i = 0;

	for (t = strtok_r(hdr, ",\n", &save); t;
	     t = strtok_r(NULL, ",\n", &save), i++)
		if (!strcmp(t, name))
			return i;
	return -1;
}

static int read_manifest(const char *file)
{
	char line[2048], hdr[2048];
	int cop, cpath, cset, chint;
	FILE *f = fopen(file, "r");

	if (!f || !fgets(line, sizeof(line), f)) {
		diag("manifest %s: %s", file, f ? "empty" : strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	strcpy(hdr, line);
	cop = column(hdr, "op");
	strcpy(hdr, line);
	cpath = column(hdr, "path");
	strcpy(hdr, line);
	cset = column(hdr, "set");
	strcpy(hdr, line);
	chint = column(hdr, "hint");
	if (cop < 0 || cpath < 0 || cset < 0 || chint < 0) {
		diag("manifest %s: no op,path,set,hint columns", file);
		fclose(f);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *fld[16] = { 0 }, *p = line;
		int n = 0;

		line[strcspn(line, "\n")] = 0;
		while (n < 16) {
			fld[n++] = p;
			p = strchr(p, ',');
			if (!p)
				break;
			*p++ = 0;
		}
		if (n <= chint || n <= cpath || n <= cset ||
		    strcmp(fld[cop], "setfile"))
			continue;
		sets = realloc(sets, (nsets + 1) * sizeof(*sets));
		if (!sets)
			return -1;
		snprintf(sets[nsets].path, sizeof(sets[nsets].path), "%s",
			 fld[cpath]);
		snprintf(sets[nsets].set, sizeof(sets[nsets].set), "%s",
			 fld[cset]);
		sets[nsets].hot = !strcmp(fld[chint], "hot");
		sets[nsets].cold = !strcmp(fld[chint], "cold");
		nsets++;
	}
	fclose(f);
	return 0;
}

/* Unhinted files found by the walk: blocks per third of the disk */
static uint64_t filler_blocks[3], filler_files;
static const char *walk_root;

static int is_setfile(const char *path)
{
	size_t i, l = strlen(walk_root);

	for (i = 0; i < nsets; i++)
		if (!strncmp(path, walk_root, l) && path[l] == '/' &&
		    !strcmp(path + l + 1, sets[i].path))
			return 1;
	return 0;
}

static int walk_one(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	struct split s;
	int fd;

	(void)ftw;
	if (type != FTW_F || !S_ISREG(st->st_mode) || strstr(path, "/.aging/") ||
	    is_setfile(path))
		return 0;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	if (!fiemap_split(fd, region_of(1), &s)) {
		struct split c;

		filler_blocks[0] += s.in;
		if (!fiemap_split(fd, region_of(0), &c)) {
			filler_blocks[2] += c.in;
			filler_blocks[1] += s.out - c.in;
		}
		filler_files++;
	}
	close(fd);
	return 0;
}

static int verify(const char *mnt, const char *manifest, int reserve)
{
	uint64_t in = 0, out = 0, hot_in = 0, hot_all = 0, cold_in = 0;
	uint64_t cold_all = 0, all;
	long long honoured = 0, spilled = 0, fallback = 0;
	long long c_in, c_sp, c_hon, c_spf, c_fb;
	size_t i;

	if (read_manifest(manifest))
		tap_bail("cannot read the manifest %s", manifest);
	tap_ok(nsets > 0, "manifest lists %zu set files", nsets);
	tap_ok(read_counter(devname, "region_reserve") == reserve,
	       "region_reserve is %d", reserve);
	for (i = 0; i < nsets; i++) {
		struct setfile *sf = &sets[i];
		struct region r;
		struct split s;
		struct stat st;
		char path[1024];
		int fd;

		if (!sf->hot && !sf->cold)
			continue;
		r = region_of(sf->hot);
		snprintf(path, sizeof(path), "%s/%s", mnt, sf->path);
		fd = open(path, O_RDONLY);
		if (fd < 0 || fstat(fd, &st) || fiemap_split(fd, r, &s)) {
			tap_ok(0, "read back %s: %s", path, strerror(errno));
			if (fd >= 0)
				close(fd);
			continue;
		}
		close(fd);
		if (sf->hot) {
			hot_in += s.in;
			hot_all += s.in + s.out;
		} else {
			cold_in += s.in;
			cold_all += s.in + s.out;
		}
		if (ino_group(&G, st.st_ino) < r.start ||
		    ino_group(&G, st.st_ino) >= r.end) {
			fallback++;
			diag("%s %s: inode group %u outside [%u,%u): fallback",
			     sf->set, sf->path, ino_group(&G, st.st_ino),
			     r.start, r.end);
			continue;
		}
		in += s.in;
		out += s.out;
		if (s.out) {
			spilled++;
			diag("%s %s: %" PRIu64 " of %" PRIu64 " blocks outside "
			     "[%u,%u), groups %u..%u, %u extents", sf->set,
			     sf->path, s.out, s.in + s.out, r.start, r.end,
			     s.min_group, s.max_group, s.extents);
		} else {
			honoured++;
		}
	}
	c_in = read_counter(devname, "hint_clusters_in_region");
	c_sp = read_counter(devname, "hint_clusters_spilled");
	c_hon = read_counter(devname, "hint_honoured");
	c_spf = read_counter(devname, "hint_spilled");
	c_fb = read_counter(devname, "hint_fallback");
	diag("FIEMAP: %" PRIu64 " blocks in region, %" PRIu64 " outside; "
	     "%lld files honoured, %lld spilled, %lld fallback", in, out,
	     honoured, spilled, fallback);
	diag("counters: clusters in %lld spilled %lld; honoured %lld spilled "
	     "%lld fallback %lld", c_in, c_sp, c_hon, c_spf, c_fb);
	tap_ok(c_in == (long long)in,
	       "hint_clusters_in_region (%lld) == FIEMAP blocks in region "
	       "(%" PRIu64 ")", c_in, in);
	tap_ok(c_sp == (long long)out,
	       "hint_clusters_spilled (%lld) == FIEMAP blocks outside (%"
	       PRIu64 ")", c_sp, out);
	tap_ok(c_hon == honoured && c_spf == spilled && c_fb == fallback,
	       "hint_honoured/spilled/fallback (%lld/%lld/%lld) == files "
	       "FIEMAP shows wholly in / partly out of / not placed in their "
	       "region (%lld/%lld/%lld)", c_hon, c_spf, c_fb, honoured, spilled,
	       fallback);

	walk_root = mnt;
	nftw(mnt, walk_one, 32, FTW_PHYS);
	all = filler_blocks[0] + filler_blocks[1] + filler_blocks[2];
	diag("placement reserve=%d: hot set %.1f%% of %" PRIu64 " blocks in "
	     "the hot region, cold set %.1f%% of %" PRIu64 " in the cold "
	     "region; %" PRIu64 " unhinted files, %" PRIu64 " blocks: %.1f%% "
	     "hot region, %.1f%% middle, %.1f%% cold region", reserve,
	     hot_all ? 100.0 * hot_in / hot_all : 0, hot_all,
	     cold_all ? 100.0 * cold_in / cold_all : 0, cold_all, filler_files,
	     all, all ? 100.0 * filler_blocks[0] / all : 0,
	     all ? 100.0 * filler_blocks[1] / all : 0,
	     all ? 100.0 * filler_blocks[2] / all : 0);
	if (reserve)
		tap_ok(hot_all && hot_in * 10 >= hot_all * 9,
		       "reserve on: >= 90%% of the hot set's blocks in the hot "
		       "region (%.1f%% of %" PRIu64 ")",
		       hot_all ? 100.0 * hot_in / hot_all : 0, hot_all);
	return tap_exit();
}

/* ---------------------------------------------------------- enospc */

static int enospc(const char *mnt)
{
	long long resv = read_counter(devname, "reserved_clusters");
	struct statfs sf;
	char dir[600], path[700];
	long n = 0;
	int fd, e = 0;

	snprintf(dir, sizeof(dir), "%s/enospc", mnt);
	if (mkdir(dir, 0755) && errno != EEXIST)
		tap_bail("mkdir %s: %s", dir, strerror(errno));
	for (;;) {
		snprintf(path, sizeof(path), "%s/f%06ld", dir, n);
		fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0) {
			e = errno;
			break;
		}
		if (fallocate(fd, 0, 0, 1 << 20)) {
			e = errno;
			close(fd);
			unlink(path);
			break;
		}
		close(fd);
		n++;
	}
	if (statfs(mnt, &sf))
		tap_bail("statfs %s: %s", mnt, strerror(errno));
	diag("%ld files of 1 MiB, then %s; free %llu blocks of %ld bytes, "
	     "reserved_clusters %lld", n, strerror(e),
	     (unsigned long long)sf.f_bfree, (long)sf.f_bsize, resv);
	tap_ok(e == ENOSPC, "the fill ends with ENOSPC (%s)", strerror(e));
	tap_ok(resv >= 0 && (long long)sf.f_bfree * sf.f_bsize <=
	       resv * sf.f_bsize + (2 << 20),
	       "ENOSPC only with at most reserved_clusters + 2 MiB free "
	       "(%llu blocks free, %lld reserved)",
	       (unsigned long long)sf.f_bfree, resv);
	return tap_exit();
}

int main(int argc, char **argv)
{
	const char *mode, *dev, *mnt;

	if (argc < 4) {
		fprintf(stderr, "usage: %s mountopts|stock|tunables|persist-write|persist-append|verify|enospc "
			"DEV MNT [MANIFEST reserve|noreserve]\n", argv[0]);
		return 2;
	}
	mode = argv[1];
	dev = argv[2];
	mnt = argv[3];
	devname = dev_basename(dev);
	tap_init("region");
	if (ext4_read_geom(dev, &G))
		tap_bail("cannot read ext4 superblock of %s", dev);
	if (!strcmp(mode, "mountopts"))
		return mountopts(dev, mnt);
	if (!strcmp(mode, "stock"))
		return stock(dev, mnt);
	if (!strcmp(mode, "tunables"))
		return tunables_mode(mnt);
	if (!strcmp(mode, "enospc"))
		return enospc(mnt);
	if (!strcmp(mode, "persist-write") || !strcmp(mode, "persist-append"))
		return persist(mnt, !strcmp(mode, "persist-append"));
	if (!strcmp(mode, "verify") && argc == 6 &&
	    (!strcmp(argv[5], "reserve") || !strcmp(argv[5], "noreserve")))
		return verify(mnt, argv[4], !strcmp(argv[5], "reserve"));
	fprintf(stderr, "%s: bad mode or arguments\n", argv[0]);
	return 2;
}
