// SPDX-License-Identifier: GPL-2.0
/*
 * hc_resize DEV MNT RESIZE2FS
 *
 * The hint a file was created with (O_HOT, O_COLD, or its directory's
 * system.hotcold mark) is what it keeps, whatever the filesystem's size
 * becomes.  DEV must be a fresh ext4 of N groups (N >= 12) mounted on MNT,
 * on a device at least 3N groups long (guest-check.sh: mke2fs -b 4096
 * -g 4096 of 256 MiB on the 1 GiB disk, 16 groups: hot [0,5), cold
 * [11,16)); the test
 *   1. marks a directory hot and one cold, creates O_HOT, O_COLD and
 *      plain files (the latter inheriting the marks), 4 MiB each: their
 *      inode and data in the region (FIEMAP), system.hotcold reads back
 *      the hint on every file and the mark on every directory;
 *   2. grows DEV online (RESIZE2FS while mounted) to 2N groups, remounts,
 *      reads every hint back; appends 4 MiB to each hinted file and checks
 *      that the appended blocks are in the region of the file's hint in
 *      the new geometry (the cold files' inode groups are in the middle
 *      third now: without the recorded hint the appends land there);
 *   3. the same at 3N groups (the cold files' inode groups are in the hot
 *      region now), and creates one more O_COLD file, in the last groups;
 *   4. umount, shrinks DEV offline (RESIZE2FS -f) back to N groups, which
 *      relocates the inodes and blocks of the last groups; mounts, reads
 *      every hint back again and appends to a cold file once more.
 * Without the series (KERNEL_FLAVOUR=stock) it only checks that grow and
 * shrink work and the files keep their contents' size.
 * guest-check.sh runs e2fsck -fn after it.
 *
 * hc_resize keep FILE
 *
 * (stock kernel) FILE carries a system.hotcold attribute that debugfs put
 * in its inode: getxattr says EOPNOTSUPP, listxattr does not list it;
 * setting user.hc_keep (which rewrites the in-inode attributes) and
 * appending 4 MiB work.  guest-check.sh checks with debugfs that the
 * attribute is still there.
 */
#include "hotcold_test.h"
#include <sys/mount.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#define XNAME "system.hotcold"
#define FSIZE (4u << 20)

static struct ext4_geom G;
static const char *dev, *mnt, *resize2fs;
static int patched;

enum { HOT = 1, COLD = 2 };

struct hfile {
	const char *name;	/* under MNT */
	int open_flag;		/* O_HOT, O_COLD or 0 (the dir's mark) */
	int hint;		/* HOT or COLD: what it must carry */
	int exists;
	uint64_t size;
};

static struct hfile files[] = {
	{ "hot1", 0, HOT, 0, 0 },
	{ "cold1", 0, COLD, 0, 0 },
	{ "cold2", 0, COLD, 0, 0 },
	{ "hdir/plain", 0, HOT, 0, 0 },
	{ "cdir/plain", 0, COLD, 0, 0 },
	{ "cold3", 0, COLD, 0, 0 },	/* created at 3N groups */
};
#define NFILES (sizeof(files) / sizeof(files[0]))

static const char *hint_name(int h)
{
	return h == HOT ? "hot" : h == COLD ? "cold" : "none";
}

static void path_of(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", mnt, name);
}


static int do_mount(void)
{
	if (mount(dev, mnt, "ext4", 0, "noinit_itable")) {
		diag("mount %s %s: %s", dev, mnt, strerror(errno));
		return -1;
	}
	return 0;
}

static int do_umount(void)
{
	sync();
	if (umount(mnt)) {
		diag("umount %s: %s", mnt, strerror(errno));
		return -1;
	}
	return 0;
}

/* resize DEV to ngroups groups ("-f" for an offline shrink) */
static int resize(uint32_t ngroups, int force)
{
	char size[32];
	char *argv[] = { (char *)resize2fs, force ? "-f" : (char *)dev,
			 (char *)dev, size, NULL };
	uint64_t blocks = (uint64_t)ngroups * G.blocks_per_group +
			  G.first_data_block;

	snprintf(size, sizeof(size), "%" PRIu64, blocks);
	if (!force) {
		argv[1] = (char *)dev;
		argv[2] = size;
		argv[3] = NULL;
	}
	return hc_run(argv);
}

static int reread_geom(void)
{
	if (ext4_read_geom(dev, &G))
		return -1;
	ext4_print_geom(dev, &G);
	return 0;
}

/* the region of hint h in the current geometry: groups [*lo, *hi) */
static void region(int h, uint32_t *lo, uint32_t *hi)
{
	*lo = h == COLD ? cold_start(&G) : 0;
	*hi = h == COLD ? G.ngroups : hot_end(&G);
}

/* system.hotcold of path: HOT, COLD, 0 (ENODATA) or -1 */
static int read_hint(const char *path)
{
	char buf[16];
	ssize_t n = getxattr(path, XNAME, buf, sizeof(buf) - 1);

	if (n < 0) {
		if (errno != ENODATA)
			diag("getxattr %s %s: %s", path, XNAME,
			     strerror(errno));
		return errno == ENODATA ? 0 : -1;
	}
	buf[n] = 0;
	if (!strcmp(buf, "hot"))
		return HOT;
	if (!strcmp(buf, "cold"))
		return COLD;
	diag("%s %s: unexpected value '%s'", path, XNAME, buf);
	return -1;
}

/*
 * How many of path's data blocks at file offsets >= from are in the
 * groups [glo, ghi) (*in) and in all (*all); *ig its inode's group.
 */
static int blocks_in(const char *path, uint64_t from, uint32_t glo,
		     uint32_t ghi, uint64_t *in, uint64_t *all, uint32_t *ig)
{
	uint64_t lo = G.first_data_block + (uint64_t)glo * G.blocks_per_group;
	uint64_t hi = G.first_data_block + (uint64_t)ghi * G.blocks_per_group;
	struct hc_extent *ext = NULL;
	size_t n = 0, i;
	struct stat st;
	int fd = open(path, O_RDONLY), err;

	*in = *all = 0;
	if (fd < 0 || fstat(fd, &st)) {
		diag("open %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*ig = ino_group(&G, st.st_ino);
	err = hc_fiemap(fd, &ext, &n);
	close(fd);
	if (err) {
		diag("FIEMAP %s: %s", path, strerror(err));
		return -1;
	}
	for (i = 0; i < n; i++) {
		uint64_t l0 = ext[i].logical, len = ext[i].length;
		uint64_t skip, b0, nb, s, e;

		if (ext[i].flags & (FIEMAP_EXTENT_UNKNOWN |
				    FIEMAP_EXTENT_DELALLOC |
				    FIEMAP_EXTENT_DATA_INLINE)) {
			diag("%s: unmapped extent at %" PRIu64, path, l0);
			free(ext);
			return -1;
		}
		if (l0 + len <= from)
			continue;
		skip = l0 < from ? from - l0 : 0;
		b0 = (ext[i].physical + skip) / G.block_size;
		nb = (len - skip + G.block_size - 1) / G.block_size;
		s = b0 > lo ? b0 : lo;
		e = b0 + nb < hi ? b0 + nb : hi;
		*all += nb;
		if (e > s)
			*in += e - s;
	}
	free(ext);
	return 0;
}

/* append FSIZE bytes to path with a plain open(), fsync */
static int append(const char *path)
{
	int fd = open(path, O_WRONLY | O_APPEND), r;

	if (fd < 0) {
		diag("open %s: %s", path, strerror(errno));
		return -1;
	}
	r = write_fill(fd, FSIZE, 0x5a);
	close(fd);
	return r;
}

/* create f (O_EXCL) and write FSIZE bytes */
static int create(struct hfile *f)
{
	char p[512];
	int fd, r;

	path_of(p, sizeof(p), f->name);
	fd = open(p, O_CREAT | O_EXCL | O_WRONLY | f->open_flag, 0644);
	if (fd < 0) {
		diag("open %s %s: %s", p, flag_name(f->open_flag),
		     strerror(errno));
		return -1;
	}
	r = write_fill(fd, FSIZE, (unsigned char)f->hint);
	close(fd);
	if (!r) {
		f->exists = 1;
		f->size = FSIZE;
	}
	return r;
}

/* every existing file: its size unchanged and (patched) its hint */
static void check_hints(const char *when)
{
	unsigned int i, good = 0, n = 0;
	char p[512];
	struct stat st;

	for (i = 0; i < NFILES; i++) {
		struct hfile *f = &files[i];
		int h;

		if (!f->exists)
			continue;
		n++;
		path_of(p, sizeof(p), f->name);
		if (stat(p, &st) || (uint64_t)st.st_size != f->size) {
			tap_ok(0, "%s: %s is there with %" PRIu64 " bytes",
			       when, f->name, f->size);
			continue;
		}
		if (!patched) {
			good++;
			continue;
		}
		h = read_hint(p);
		good += tap_ok(h == f->hint,
			       "%s: %s (inode %llu, group %u) reads back %s "
			       "(got %s)", when, f->name,
			       (unsigned long long)st.st_ino,
			       ino_group(&G, st.st_ino), hint_name(f->hint),
			       hint_name(h));
	}
	if (!patched)
		tap_ok(good == n, "%s: the %u files are there with their sizes",
		       when, n);
	if (patched) {
		path_of(p, sizeof(p), "hdir");
		tap_ok(read_hint(p) == HOT, "%s: hdir is still marked hot",
		       when);
		path_of(p, sizeof(p), "cdir");
		tap_ok(read_hint(p) == COLD, "%s: cdir is still marked cold",
		       when);
	}
}

/* append to file i; its new blocks in its hint's region (patched) */
static void append_check(unsigned int i, const char *when)
{
	struct hfile *f = &files[i];
	uint64_t in, all;
	uint32_t lo, hi, ig;
	char p[512];

	path_of(p, sizeof(p), f->name);
	if (append(p)) {
		tap_ok(0, "%s: append %u bytes to %s", when, FSIZE, f->name);
		return;
	}
	f->size += FSIZE;
	region(f->hint, &lo, &hi);
	if (blocks_in(p, f->size - FSIZE, lo, hi, &in, &all, &ig)) {
		tap_ok(0, "%s: FIEMAP of %s", when, f->name);
		return;
	}
	diag("%s: %s (inode group %u): %" PRIu64 "/%" PRIu64 " appended "
	     "blocks in groups [%u,%u)", when, f->name, ig, in, all, lo, hi);
	if (patched)
		tap_ok(all == FSIZE / G.block_size && in == all,
		       "%s: the %s file %s's appended data is all in the %s "
		       "region [%u,%u) (%" PRIu64 "/%" PRIu64 ")", when,
		       hint_name(f->hint), f->name, hint_name(f->hint), lo,
		       hi, in, all);
	else
		tap_ok(all == FSIZE / G.block_size,
		       "%s: %s's append is mapped (%" PRIu64 " blocks)", when,
		       f->name, all);
}

/* create file i and check its inode and data are in its region */
static void create_check(unsigned int i, const char *when)
{
	struct hfile *f = &files[i];
	uint64_t in, all;
	uint32_t lo, hi, ig;
	char p[512];

	f->open_flag = !strchr(f->name, '/') ?
		       (f->hint == HOT ? O_HOT : O_COLD) : 0;
	if (!patched)
		f->open_flag = 0;
	if (create(f)) {
		tap_ok(0, "%s: create %s %s", when, f->name,
		       flag_name(f->open_flag));
		return;
	}
	path_of(p, sizeof(p), f->name);
	region(f->hint, &lo, &hi);
	if (blocks_in(p, 0, lo, hi, &in, &all, &ig)) {
		tap_ok(0, "%s: FIEMAP of %s", when, f->name);
		return;
	}
	diag("%s: %s %s: inode group %u, %" PRIu64 "/%" PRIu64 " blocks in "
	     "groups [%u,%u)", when, f->name, flag_name(f->open_flag), ig, in,
	     all, lo, hi);
	if (patched)
		tap_ok(ig >= lo && ig < hi && all && in == all,
		       "%s: %s (%s) has inode and data in the %s region",
		       when, f->name, f->open_flag ? flag_name(f->open_flag) :
		       "dir mark", hint_name(f->hint));
}

static int set_mark(const char *name, const char *v)
{
	char p[512];

	path_of(p, sizeof(p), name);
	if (mkdir(p, 0755)) {
		diag("mkdir %s: %s", p, strerror(errno));
		return -1;
	}
	if (patched && setxattr(p, XNAME, v, strlen(v), 0)) {
		diag("setxattr %s %s=%s: %s", p, XNAME, v, strerror(errno));
		return -1;
	}
	return 0;
}

static void grow(uint32_t n0, unsigned int x)
{
	char when[64];
	unsigned int i;
	uint32_t cg = UINT32_MAX;

	snprintf(when, sizeof(when), "grown online to %ux", x);
	if (!tap_ok(!resize(n0 * x, 0), "resize2fs %s while mounted to %u "
		    "groups", dev, n0 * x))
		return;
	if (do_umount() || do_mount() || reread_geom()) {
		tap_ok(0, "%s: remount", when);
		return;
	}
	tap_ok(G.ngroups == n0 * x, "%s: %u groups (got %u)", when, n0 * x,
	       G.ngroups);
	/* where the cold files' inodes are now, for the record */
	for (i = 0; i < NFILES; i++) {
		struct stat st;
		char p[512];

		path_of(p, sizeof(p), files[i].name);
		if (files[i].exists && files[i].hint == COLD && !stat(p, &st) &&
		    ino_group(&G, st.st_ino) < cg)
			cg = ino_group(&G, st.st_ino);
	}
	diag("%s: hot [0,%u), cold [%u,%u); lowest cold inode group %u (%s)",
	     when, hot_end(&G), cold_start(&G), G.ngroups, cg,
	     in_hot(&G, cg) ? "in the hot region" :
	     in_cold(&G, cg) ? "in the cold region" : "in the middle");
	check_hints(when);
	for (i = 0; i < NFILES; i++)
		if (files[i].exists)
			append_check(i, when);
}

static int keep(const char *path)
{
	char list[4096], *p;
	ssize_t n;
	int seen = 0, r;

	n = getxattr(path, XNAME, list, sizeof(list));
	tap_ok(n < 0 && errno == EOPNOTSUPP, "stock: getxattr %s on a file "
	       "that has it: EOPNOTSUPP (got %zd, %s)", XNAME, n,
	       n < 0 ? strerror(errno) : "a value");
	r = setxattr(path, "user.hc_keep", "1", 1, 0);
	tap_ok(!r, "stock: setxattr user.hc_keep next to it (%s)",
	       r ? strerror(errno) : "ok");
	n = listxattr(path, list, sizeof(list));
	for (p = list; n > 0 && p < list + n; p += strlen(p) + 1)
		if (!strcmp(p, XNAME))
			seen = 1;
	tap_ok(n > 0 && !seen, "stock: listxattr does not list %s (%zd "
	       "bytes of names)", XNAME, n);
	tap_ok(!append(path), "stock: append %u bytes", FSIZE);
	return tap_exit();
}

int main(int argc, char **argv)
{
	unsigned int i;
	uint32_t n0;

	tap_init("hc_resize");
	if (argc == 3 && !strcmp(argv[1], "keep"))
		return keep(argv[2]);
	if (argc != 4) {
		fprintf(stderr, "usage: %s DEV MNT RESIZE2FS | keep FILE\n",
			argv[0]);
		return 2;
	}
	dev = argv[1];
	mnt = argv[2];
	resize2fs = argv[3];
	patched = is_patched_flavour();
	if (access(resize2fs, X_OK))
		tap_bail("setup: resize2fs '%s': %s", resize2fs,
			 strerror(errno));
	if (reread_geom())
		tap_bail("setup: no ext4 superblock on %s", dev);
	n0 = G.ngroups;
	if (n0 < 12)
		tap_bail("setup: %s has %u groups, needs at least 12", dev, n0);

	/* 1: hinted files and marked dirs in N groups */
	if (set_mark("hdir", "hot") || set_mark("cdir", "cold"))
		tap_bail("setup: marking hdir hot and cdir cold");
	for (i = 0; i < NFILES - 1; i++)
		create_check(i, "created");
	check_hints("created");

	/* 2, 3: online grow to 2N and 3N groups */
	grow(n0, 2);
	grow(n0, 3);
	create_check(NFILES - 1, "created at 3x");

	/* 4: offline shrink back to N groups */
	if (do_umount())
		tap_bail("umount %s before the shrink", mnt);
	if (tap_ok(!resize(n0, 1), "resize2fs -f %s (offline) to %u groups",
		   dev, n0)) {
		if (do_mount() || reread_geom())
			tap_bail("mount %s after the shrink", dev);
		tap_ok(G.ngroups == n0, "shrunk: %u groups (got %u)", n0,
		       G.ngroups);
		check_hints("shrunk offline");
		append_check(1, "shrunk offline");
		append_check(NFILES - 1, "shrunk offline");
	} else if (do_mount()) {
		tap_bail("mount %s after the failed shrink", dev);
	}
	return tap_exit();
}
