/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hotcold_test.h - shared helpers for the O_HOT/O_COLD guest tests.
 *
 * Header-only (everything static) so every test is one static binary:
 *   - O_HOT / O_COLD (fixed ABI, see build/CONVENTIONS.txt)
 *   - TAP output: the project's C helper, vm/lib/tap.h (ok N - name /
 *     not ok N - name / ok N - name # SKIP reason, "# " diagnostics)
 *   - ext4 superblock / group descriptor parsing straight from the device
 *   - inode number -> group, FIEMAP -> physical blocks -> groups
 *   - /sys/fs/ext4/<dev>/hint_* counters
 */
#ifndef HOTCOLD_TEST_H
#define HOTCOLD_TEST_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <linux/fs.h>
#include <linux/fiemap.h>

#include "hotcold-flags.h"
#include "hotcold-map.h"
#include "hotcold-fiemap.h"

#define HC_UNUSED __attribute__((unused))
#define HC_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* TAP output: tap_init, tap_ok, tap_skip, tap_bail, diag, tap_exit */
#include "tap.h"

/* run argv (a program of the guest's root), 0 if it exits 0 */
static HC_UNUSED int hc_run(char *const argv[])
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		diag("%s exited with status %#x", argv[0], status);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------ ext4 superblock */

#define EXT4_FEATURE_INCOMPAT_64BIT_V HC_FEATURE_INCOMPAT_64BIT
#define EXT4_FEATURE_INCOMPAT_FLEX_BG_V 0x0200

/* the engine's geometry (hotcold-map.h's hc_sb) and what only the tests use */
struct ext4_geom {
	uint64_t blocks_count;
	uint32_t inodes_count;
	uint32_t first_data_block;
	uint32_t block_size;
	uint32_t blocks_per_group;
	uint32_t inodes_per_group;
	uint32_t first_ino;
	uint32_t feature_incompat;
	uint16_t desc_size;	/* 32 unless 64bit */
	uint16_t def_resuid, def_resgid;
	uint32_t flex_size;	/* 1 if no flex_bg */
	uint32_t ngroups;
};

static inline uint16_t le16_at(const unsigned char *p, size_t off)
{
	return hc_le16(p + off);
}

static inline uint32_t le32_at(const unsigned char *p, size_t off)
{
	return hc_le32(p + off);
}

/*
 * Parse a raw 1024-byte ext4 superblock: the engine's parser
 * (hc_parse_sb), then the fields only the tests need.  Returns 0 or -1
 * with *why set.  Separate from the I/O so it can be unit tested.
 */
static HC_UNUSED int ext4_parse_sb(const unsigned char *sb,
				   struct ext4_geom *g, const char **why)
{
	struct hc_sb s;

	memset(g, 0, sizeof(*g));
	if (hc_parse_sb(sb, &s, why))
		return -1;
	g->blocks_count = s.blocks_count;
	g->inodes_count = s.inodes_count;
	g->first_data_block = s.first_data_block;
	g->block_size = s.block_size;
	g->blocks_per_group = s.blocks_per_group;
	g->inodes_per_group = s.inodes_per_group;
	g->ngroups = s.ngroups;
	g->def_resuid = le16_at(sb, 0x50);
	g->def_resgid = le16_at(sb, 0x52);
	g->first_ino = le32_at(sb, 0x54);
	g->feature_incompat = le32_at(sb, HC_SB_FEATURE_INCOMPAT);
	g->desc_size = le16_at(sb, 0xFE);
	if (!(g->feature_incompat & EXT4_FEATURE_INCOMPAT_64BIT_V) ||
	    g->desc_size < 32)
		g->desc_size = 32;
	g->flex_size = g->feature_incompat & EXT4_FEATURE_INCOMPAT_FLEX_BG_V ?
		       s.groups_per_flex : 1;
	if (g->first_ino == 0)	/* rev 0 */
		g->first_ino = 11;
	return 0;
}

static HC_UNUSED int ext4_read_geom(const char *dev, struct ext4_geom *g)
{
	unsigned char sb[1024];
	const char *why = "";
	int fd = open(dev, O_RDONLY);
	ssize_t r;

	if (fd < 0) {
		diag("open %s: %s", dev, strerror(errno));
		return -1;
	}
	r = pread(fd, sb, sizeof(sb), 1024);
	close(fd);
	if (r != (ssize_t)sizeof(sb)) {
		diag("read superblock of %s: %s", dev,
		     r < 0 ? strerror(errno) : "short read");
		return -1;
	}
	if (ext4_parse_sb(sb, g, &why)) {
		diag("%s: %s", dev, why);
		return -1;
	}
	return 0;
}

static HC_UNUSED void ext4_print_geom(const char *dev,
				      const struct ext4_geom *g)
{
	diag("%s: blocks=%" PRIu64 " bs=%u bpg=%u inodes=%u ipg=%u "
	     "first_data_block=%u ngroups=%u flex=%u 64bit=%d desc=%u "
	     "resuid=%u resgid=%u first_ino=%u",
	     dev, g->blocks_count, g->block_size, g->blocks_per_group,
	     g->inodes_count, g->inodes_per_group, g->first_data_block,
	     g->ngroups, g->flex_size,
	     !!(g->feature_incompat & EXT4_FEATURE_INCOMPAT_64BIT_V),
	     g->desc_size, g->def_resuid, g->def_resgid, g->first_ino);
}

/*
 * Free inode counts per group from the on-disk group descriptors.  Only
 * meaningful before the fs is modified (the kernel writes back lazily).
 * out must hold g->ngroups entries.
 */
static HC_UNUSED int ext4_read_free_inodes(const char *dev,
					   const struct ext4_geom *g,
					   uint32_t *out)
{
	uint64_t gdt = (uint64_t)(g->first_data_block + 1) * g->block_size;
	size_t len = (size_t)g->ngroups * g->desc_size;
	unsigned char *buf = malloc(len);
	int fd = open(dev, O_RDONLY);
	uint32_t i;
	ssize_t r;

	if (!buf || fd < 0) {
		diag("gdt of %s: %s", dev, strerror(errno));
		free(buf);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	r = pread(fd, buf, len, (off_t)gdt);
	close(fd);
	if (r != (ssize_t)len) {
		diag("gdt of %s: short read", dev);
		free(buf);
		return -1;
	}
	for (i = 0; i < g->ngroups; i++) {
		const unsigned char *d = buf + (size_t)i * g->desc_size;

		out[i] = le16_at(d, 0x0E);
		if (g->desc_size >= 64)
			out[i] |= (uint32_t)le16_at(d, 0x2E) << 16;
	}
	free(buf);
	return 0;
}

static inline uint32_t ino_group(const struct ext4_geom *g, uint64_t ino)
{
	return (uint32_t)((ino - 1) / g->inodes_per_group);
}

static inline uint32_t blk_group(const struct ext4_geom *g, uint64_t blk)
{
	return (uint32_t)((blk - g->first_data_block) / g->blocks_per_group);
}

static inline uint32_t flex_start(const struct ext4_geom *g, uint32_t grp)
{
	return grp & ~(g->flex_size - 1);
}

/* Hinted regions: hot [0, n/3), cold [n - n/3, n). */
static inline uint32_t hot_end(const struct ext4_geom *g)
{
	return g->ngroups / 3;
}

static inline uint32_t cold_start(const struct ext4_geom *g)
{
	return g->ngroups - g->ngroups / 3;
}

static HC_UNUSED int in_hot(const struct ext4_geom *g, uint32_t grp)
{
	return grp < hot_end(g);
}

static HC_UNUSED int in_cold(const struct ext4_geom *g, uint32_t grp)
{
	return grp >= cold_start(g) && grp < g->ngroups;
}

static HC_UNUSED int same_flex(const struct ext4_geom *g, uint32_t a,
			       uint32_t b)
{
	return flex_start(g, a) == flex_start(g, b);
}

/* ------------------------------------------------------------- FIEMAP */

struct extent_groups {
	unsigned int nextents;	/* mapped extents */
	unsigned int unmapped;	/* delalloc/unknown/inline extents */
	uint32_t min_group, max_group;
	uint64_t blocks;
	char desc[256];		/* short human-readable list */
};

/*
 * Walk all extents of fd (hotcold-fiemap.h's hc_fiemap(), the engine's
 * walker): fn(first block, number of blocks, arg) for each mapped extent;
 * *unmapped counts the delalloc/unknown/inline ones.  Returns 0 or -1.
 */
typedef void (*extent_fn)(uint64_t b0, uint64_t nb, void *arg);

static HC_UNUSED int fiemap_walk(int fd, uint32_t block_size,
				 unsigned int *unmapped, extent_fn fn,
				 void *arg)
{
	struct hc_extent *ext = NULL;
	size_t n = 0, i;
	int err;

	*unmapped = 0;
	err = hc_fiemap(fd, &ext, &n);
	if (err) {
		diag("FS_IOC_FIEMAP: %s", strerror(err));
		return -1;
	}
	for (i = 0; i < n; i++) {
		uint64_t nb = (ext[i].length + block_size - 1) / block_size;

		/* unlike the engine's ->mapped, inline data is not blocks */
		if (ext[i].flags & (FIEMAP_EXTENT_UNKNOWN |
				    FIEMAP_EXTENT_DELALLOC |
				    FIEMAP_EXTENT_DATA_INLINE))
			(*unmapped)++;
		else if (nb)
			fn(ext[i].physical / block_size, nb, arg);
	}
	free(ext);
	return 0;
}

struct extent_groups_walk {
	const struct ext4_geom *g;
	struct extent_groups *eg;
	size_t dl;
};

static HC_UNUSED void extent_groups_add(uint64_t b0, uint64_t nb, void *arg)
{
	struct extent_groups_walk *w = arg;
	struct extent_groups *eg = w->eg;
	uint32_t g0 = blk_group(w->g, b0), g1 = blk_group(w->g, b0 + nb - 1);

	eg->nextents++;
	eg->blocks += nb;
	if (g0 < eg->min_group)
		eg->min_group = g0;
	if (g1 > eg->max_group)
		eg->max_group = g1;
	if (w->dl + 40 < sizeof(eg->desc))
		w->dl += (size_t)snprintf(eg->desc + w->dl,
					  sizeof(eg->desc) - w->dl,
					  "%s%" PRIu64 "+%" PRIu64 "(g%u-%u)",
					  w->dl ? " " : "", b0, nb, g0, g1);
}

/* The range of block groups the extents of fd touch.  Returns 0 or -1. */
static HC_UNUSED int fiemap_groups(int fd, const struct ext4_geom *g,
				   struct extent_groups *eg)
{
	struct extent_groups_walk w = { g, eg, 0 };
	int r;

	memset(eg, 0, sizeof(*eg));
	eg->min_group = UINT32_MAX;
	r = fiemap_walk(fd, g->block_size, &eg->unmapped, extent_groups_add,
			&w);
	if (eg->min_group == UINT32_MAX)
		eg->min_group = 0;
	return r;
}

/* ------------------------------------------------------------- sysfs */

static HC_UNUSED const char *dev_basename(const char *dev)
{
	const char *s = strrchr(dev, '/');

	return s ? s + 1 : dev;
}

/* Returns the counter value, or -1 if the file does not exist/unreadable. */
static HC_UNUSED long long read_counter(const char *devname, const char *name)
{
	char path[256], buf[64];
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), "/sys/fs/ext4/%s/%s", devname, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (r <= 0)
		return -1;
	buf[r] = 0;
	return strtoll(buf, NULL, 10);
}

enum { C_HONOURED, C_NONROT, C_NOPERM, C_FALLBACK, C_NR };
static const char *const counter_names[C_NR] HC_UNUSED = {
	"hint_honoured", "hint_dropped_nonrot", "hint_dropped_noperm",
	"hint_fallback",
};

struct counters {
	long long v[C_NR];
};

static HC_UNUSED void read_counters(const char *devname, struct counters *c)
{
	int i;

	for (i = 0; i < C_NR; i++)
		c->v[i] = read_counter(devname, counter_names[i]);
}

static HC_UNUSED int counters_exist(const struct counters *c)
{
	int i;

	for (i = 0; i < C_NR; i++)
		if (c->v[i] < 0)
			return 0;
	return 1;
}

/* delta of counters; diag line with all values. */
static HC_UNUSED void counters_delta(const struct counters *a,
				     const struct counters *b,
				     struct counters *d, const char *what)
{
	int i;

	for (i = 0; i < C_NR; i++)
		d->v[i] = b->v[i] - a->v[i];
	diag("%s: counter deltas honoured=%lld dropped_nonrot=%lld "
	     "dropped_noperm=%lld fallback=%lld", what, d->v[C_HONOURED],
	     d->v[C_NONROT], d->v[C_NOPERM], d->v[C_FALLBACK]);
}

/* ------------------------------------------------------------- misc */

static HC_UNUSED const char *flag_name(int flag)
{
	if (flag == O_HOT)
		return "hot";
	if (flag == O_COLD)
		return "cold";
	if (flag == (O_HOT | O_COLD))
		return "hot|cold";
	return "none";
}

/* Write @s to the file at @path (a sysfs or tracefs knob), O_TRUNC if @trunc. */
static HC_UNUSED int write_str(const char *path, const char *s, int trunc)
{
	int fd = open(path, O_WRONLY | (trunc ? O_TRUNC : 0));
	ssize_t n = (ssize_t)strlen(s), w;

	if (fd < 0) {
		diag("open %s: %s", path, strerror(errno));
		return -1;
	}
	w = n ? write(fd, s, (size_t)n) : 0;
	close(fd);
	if (w != n) {
		diag("write '%s' to %s: %s", s, path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Write @s to /sys/fs/ext4/@devname/@name (write_str()); returns 0 or -1. */
static HC_UNUSED int write_knob(const char *devname, const char *name,
				const char *s)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/fs/ext4/%s/%s", devname, name);
	return write_str(path, s, 1);
}

/* Write size bytes (in chunks of up to 1 MiB) and fsync. */
static HC_UNUSED int write_fill(int fd, size_t size, unsigned char seed)
{
	static unsigned char buf[1 << 20];
	size_t done = 0, i;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)(seed + i * 7);
	while (done < size) {
		size_t n = size - done < sizeof(buf) ? size - done : sizeof(buf);
		ssize_t w = write(fd, buf, n);

		if (w <= 0) {
			diag("write: %s", w < 0 ? strerror(errno) : "0 bytes");
			return -1;
		}
		done += (size_t)w;
	}
	if (fsync(fd)) {
		diag("fsync: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* Needs tap_init() first. */

/* ----------------------------------------------- dirs and test files */

struct dirinfo {
	char path[512];
	uint64_t ino;
	uint32_t group;
	int valid;
};

static HC_UNUSED int dir_info(const char *path, const struct ext4_geom *g,
			      struct dirinfo *d)
{
	struct stat st;

	memset(d, 0, sizeof(*d));
	if (stat(path, &st)) {
		diag("stat %s: %s", path, strerror(errno));
		return -1;
	}
	snprintf(d->path, sizeof(d->path), "%s", path);
	d->ino = st.st_ino;
	d->group = ino_group(g, st.st_ino);
	d->valid = 1;
	return 0;
}

/*
 * mkdir MNT/<prefix>NN (Orlov spreads top-level dirs) until there is one
 * whose whole flex group lies in the middle third (hot AND cold must move
 * files away from it) and, if possible, one in the cold third.  mode is
 * applied with chmod (e.g. 01777).  Returns 0 if a middle dir was found.
 */
static HC_UNUSED int pick_dirs(const char *mnt, const char *prefix,
			       const struct ext4_geom *g, mode_t mode,
			       struct dirinfo *mid, struct dirinfo *cold)
{
	int i;

	memset(mid, 0, sizeof(*mid));
	memset(cold, 0, sizeof(*cold));
	for (i = 0; i < 64; i++) {
		char path[512];
		struct dirinfo d;
		uint32_t fs;

		snprintf(path, sizeof(path), "%s/%s%02d", mnt, prefix, i);
		if (mkdir(path, 0755) && errno != EEXIST) {
			diag("mkdir %s: %s", path, strerror(errno));
			return -1;
		}
		if (chmod(path, mode)) {
			diag("chmod %s: %s", path, strerror(errno));
			return -1;
		}
		if (dir_info(path, g, &d))
			return -1;
		fs = flex_start(g, d.group);
		if (!mid->valid && fs >= hot_end(g) &&
		    fs + g->flex_size <= cold_start(g))
			*mid = d;
		else if (!cold->valid && fs >= cold_start(g))
			*cold = d;
		if (mid->valid && (cold->valid || i >= 24))
			break;
	}
	diag("dirs: middle %s (ino %" PRIu64 " group %u) cold-side %s "
	     "(group %u); regions hot [0,%u) cold [%u,%u) flex %u",
	     mid->valid ? mid->path : "(none)", mid->ino, mid->group,
	     cold->valid ? cold->path : "(none)", cold->group, hot_end(g),
	     cold_start(g), g->ngroups, g->flex_size);
	return mid->valid ? 0 : -1;
}

struct fileres {
	uint64_t ino;
	uint32_t igroup;
	struct extent_groups eg;
};

/*
 * Create dir/name (or an O_TMPFILE in dir if name is NULL) with flag,
 * write size bytes (1 MiB write()s), fsync, and collect inode/extent
 * groups.  Returns 0, or -1 with errno preserved from the failing call.
 */
static HC_UNUSED int make_file(const struct ext4_geom *g, const char *dir,
			       const char *name, int flag, size_t size,
			       struct fileres *r)
{
	char path[768];
	struct stat st;
	int fd, e;

	memset(r, 0, sizeof(*r));
	if (name) {
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		fd = open(path, O_CREAT | O_EXCL | O_RDWR | flag, 0644);
	} else {
		snprintf(path, sizeof(path), "%s/(O_TMPFILE)", dir);
		fd = open(dir, O_TMPFILE | O_RDWR | flag, 0644);
	}
	if (fd < 0) {
		e = errno;
		diag("open %s flag %s: %s", path, flag_name(flag), strerror(e));
		errno = e;
		return -1;
	}
	if ((size && write_fill(fd, size, (unsigned char)size)) ||
	    fstat(fd, &st)) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	r->ino = st.st_ino;
	r->igroup = ino_group(g, st.st_ino);
	if (size && fiemap_groups(fd, g, &r->eg)) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	close(fd);
	return 0;
}

static HC_UNUSED int is_patched_flavour(void)
{
	const char *f = getenv("KERNEL_FLAVOUR");

	if (!f || (strcmp(f, "patched") && strcmp(f, "stock")))
		tap_bail("KERNEL_FLAVOUR must be patched or stock (got '%s')",
			 f ? f : "(unset)");
	return !strcmp(f, "patched");
}

#endif /* HOTCOLD_TEST_H */
