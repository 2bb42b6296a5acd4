// SPDX-License-Identifier: GPL-2.0
/*
 * hc_writehint DEV MNT
 *
 * Write-lifetime hints choose the cold region: a regular file whose
 * fcntl(F_SET_RW_HINT) hint is RWH_WRITE_LIFE_EXTREME gets its data in
 * the O_COLD region, as if it had been created with O_COLD, on a
 * rotational device, while /sys/fs/ext4/<dev>/write_hint_cold is 1 (the
 * default).  The hint is set after open(), so only the data moves: the
 * inode stays where the usual policy put it.
 *
 * DEV is a fresh ext4 of 32 groups of 32 MiB with flex groups of 4,
 * mounted on MNT, on a rotational disk (guest-check.sh: mke2fs -b 4096
 * -g 8192 -G 4 -m 0 on 1 GiB; hot region [0,10), cold [22,32)).  Files
 * of 4 MiB are created in a directory of the middle third, without
 * O_HOT/O_COLD unless said, the hint set right after open(), then
 * written and fsync()ed; FIEMAP says where the data went:
 *  - write_hint_cold exists and reads 1; 2 is refused (EINVAL);
 *  - EXTREME: every block in the cold region, the inode not, and
 *    hint_clusters_in_region grows by the file's clusters; a 32 KiB
 *    EXTREME file too;
 *  - SHORT, LONG, NOT_SET, no fcntl at all: a small file (see not_cold())
 *    has no block in the cold region;
 *  - O_HOT + EXTREME: every block in the hot region (the create's hint
 *    wins); O_COLD + SHORT: every block in the cold region;
 *  - EXTREME, written, then NOT_SET and appended: the append is not
 *    counted as a hinted file's (hint_clusters_* do not grow);
 *  - write_hint_cold 0: a small EXTREME file has no block in the cold
 *    region;
 *  - queue/rotational 0 (tunable back to 1): the same;
 *  - uid 65534 opening root's file read-only: F_SET_RW_HINT fails with
 *    EPERM, the hint stays NOT_SET and root's next 32 KiB are not placed
 *    as cold; the same uid sets the hint of its own file, opened
 *    read-only, and its owner's next 32 KiB go to the cold region.
 * Without the kernel change every EXTREME check fails; without the
 * ownership check of fcntl (fs: require inode_owner_or_capable for
 * F_SET_RW_HINT) the reader's fcntl succeeds and the checks after it fail.
 */
#include "hotcold_test.h"
#include <grp.h>

#ifndef F_SET_RW_HINT
#define F_SET_RW_HINT 1036
#endif
#ifndef RWH_WRITE_LIFE_NOT_SET
#define RWH_WRITE_LIFE_NOT_SET 0
#define RWH_WRITE_LIFE_SHORT 2
#define RWH_WRITE_LIFE_LONG 4
#define RWH_WRITE_LIFE_EXTREME 5
#endif

#ifndef F_GET_RW_HINT
#define F_GET_RW_HINT 1035
#endif

#define MIB (1u << 20)
#define NO_FCNTL (-1)
#define NOBODY 65534

static struct ext4_geom G;
static const char *devname;
static char dir[600], knob[256];

/* where a file's data and inode are */
struct where {
	uint64_t blocks, in_hot, in_cold;
	uint32_t igroup;
};

static void count_blocks(uint64_t b0, uint64_t nb, void *arg)
{
	struct where *w = arg;
	uint64_t b;

	for (b = b0; b < b0 + nb; b++) {
		uint32_t grp = blk_group(&G, b);

		w->blocks++;
		w->in_hot += in_hot(&G, grp);
		w->in_cold += in_cold(&G, grp);
	}
}

/* fd's data blocks by region; 0, or -1 if FIEMAP failed or left some unmapped */
static int where_of(int fd, struct where *w)
{
	unsigned int unmapped;
	struct stat st;

	memset(w, 0, sizeof(*w));
	if (fstat(fd, &st) ||
	    fiemap_walk(fd, G.block_size, &unmapped, count_blocks, w))
		return -1;
	w->igroup = ino_group(&G, st.st_ino);
	if (unmapped) {
		diag("%u extents still unmapped after fsync", unmapped);
		return -1;
	}
	return 0;
}

static const char *hint_name(int hint)
{
	switch (hint) {
	case NO_FCNTL: return "no fcntl";
	case RWH_WRITE_LIFE_NOT_SET: return "NOT_SET";
	case RWH_WRITE_LIFE_SHORT: return "SHORT";
	case RWH_WRITE_LIFE_LONG: return "LONG";
	case RWH_WRITE_LIFE_EXTREME: return "EXTREME";
	}
	return "?";
}

static int set_hint(int fd, int hint)
{
	uint64_t h = (uint64_t)hint;

	if (hint == NO_FCNTL)
		return 0;
	if (fcntl(fd, F_SET_RW_HINT, &h)) {
		diag("fcntl F_SET_RW_HINT %s: %s", hint_name(hint),
		     strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Create dir/name with open flag flag, set the write hint, write size
 * bytes and fsync; the fd stays open (returned) for more.  -1 on error.
 */
static int make(const char *name, int flag, int hint, size_t size,
		struct where *w)
{
	char path[700];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_CREAT | O_EXCL | O_RDWR | flag, 0644);
	if (fd < 0) {
		diag("open %s (%s): %s", path, flag_name(flag),
		     strerror(errno));
		return -1;
	}
	if (set_hint(fd, hint) || write_fill(fd, size, 0x5a) ||
	    where_of(fd, w)) {
		close(fd);
		return -1;
	}
	diag("%s (%s, %s): inode group %u, %" PRIu64 " blocks: %" PRIu64
	     " in the hot region [0,%u), %" PRIu64 " in the cold [%u,%u)",
	     name, flag_name(flag), hint_name(hint), w->igroup, w->blocks,
	     w->in_hot, hot_end(&G), w->in_cold, cold_start(&G), G.ngroups);
	return fd;
}

/* a file made and closed: 0 or -1 */
static int make_closed(const char *name, int flag, int hint, size_t size,
		       struct where *w)
{
	int fd = make(name, flag, hint, size, w);

	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static long long clusters_in(void)
{
	return read_counter(devname, "hint_clusters_in_region");
}

static long long clusters_spilled(void)
{
	return read_counter(devname, "hint_clusters_spilled");
}

/* write_hint_cold's value, -1 if it cannot be read */
static long long knob_value(void)
{
	return read_counter(devname, "write_hint_cold");
}

/* write s to write_hint_cold: 0, or the errno of the refusal */
static int knob_write(const char *s)
{
	int fd = open(knob, O_WRONLY);
	ssize_t w;
	int e;

	if (fd < 0)
		return errno;
	w = write(fd, s, strlen(s));
	e = w < 0 ? errno : 0;
	close(fd);
	return e;
}

static void cold_file(const char *name, const char *what)
{
	long long c0 = clusters_in(), c1;
	struct where w;

	if (make_closed(name, 0, RWH_WRITE_LIFE_EXTREME, 4 * MIB, &w)) {
		tap_ok(0, "%s: an EXTREME file made and mapped", what);
		return;
	}
	c1 = clusters_in();
	tap_ok(w.blocks && w.in_cold == w.blocks,
	       "%s: the EXTREME file's data is all in the cold region "
	       "(%" PRIu64 " of %" PRIu64 " blocks)", what, w.in_cold,
	       w.blocks);
	tap_ok(!in_cold(&G, w.igroup),
	       "%s: its inode stays where the usual policy put it (group "
	       "%u, the hint came after open)", what, w.igroup);
	tap_ok(c0 >= 0 && c1 - c0 == (long long)w.blocks,
	       "%s: hint_clusters_in_region grew by its %" PRIu64
	       " clusters (%lld -> %lld)", what, w.blocks, c0, c1);
}

/*
 * A file made with open flag flag and write hint hint: every block in the
 * hot region (hot) or in the cold one.
 */
static void all_in(const char *name, int flag, int hint, size_t size, int hot,
		   const char *what)
{
	struct where w;
	uint64_t n;

	if (make_closed(name, flag, hint, size, &w)) {
		tap_ok(0, "%s: file made and mapped", what);
		return;
	}
	n = hot ? w.in_hot : w.in_cold;
	tap_ok(w.blocks && n == w.blocks,
	       "%s: all in the %s region (%" PRIu64 " of %" PRIu64 " blocks)",
	       what, hot ? "hot" : "cold", n, w.blocks);
}

/*
 * A file that must not be placed as a cold one.  It is small (32 KiB, 8
 * blocks, under mb_stream_req's 16), so that, unhinted, its data goes to
 * the per-CPU locality group's preallocation near its inode's group in
 * the middle third: a large unhinted file would follow the stream goal,
 * the last group any large file used, which the unhinted append to a
 * file in the cold region (x_extreme_then_not) leaves there.  Placed as
 * a cold file it gets its own region goal in the cold region instead.
 */
static void not_cold(const char *name, int flag, int hint, const char *what)
{
	struct where w;

	if (make_closed(name, flag, hint, 32 << 10, &w)) {
		tap_ok(0, "%s: file made and mapped", what);
		return;
	}
	tap_ok(w.blocks && !w.in_cold,
	       "%s: no block in the cold region (%" PRIu64 " of %" PRIu64
	       ")", what, w.in_cold, w.blocks);
}

/*
 * F_SET_RW_HINT EXTREME on path opened read-only by uid 65534: 0, the
 * errno of the refusal, or -1 if the child could not get that far.
 */
static int nobody_sets_extreme(const char *path)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		uint64_t h = RWH_WRITE_LIFE_EXTREME;
		int fd;

		if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
			_exit(200);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			_exit(201);
		_exit(fcntl(fd, F_SET_RW_HINT, &h) ? errno : 0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) >= 200) {
		diag("uid %d's child could not open %s (status %#x)", NOBODY,
		     path, status);
		return -1;
	}
	return WEXITSTATUS(status);
}

/*
 * Append 32 KiB to dir/name as root and say where its data is now; the
 * file's F_GET_RW_HINT value goes to *hint.  0 or -1.
 */
static int root_appends(const char *name, uint64_t *hint, struct where *w)
{
	char path[700];
	int fd, r = -1;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_APPEND);
	if (fd < 0) {
		diag("open %s: %s", path, strerror(errno));
		return -1;
	}
	if (fcntl(fd, F_GET_RW_HINT, hint))
		diag("F_GET_RW_HINT %s: %s", path, strerror(errno));
	else if (!write_fill(fd, 32 << 10, 0x77) && !where_of(fd, w))
		r = 0;
	close(fd);
	return r;
}

/*
 * The write hint places data, so only the file's owner (or CAP_FOWNER)
 * may set it: a process that can only read root's file gets EPERM and
 * root's data stays unhinted; uid 65534 still sets the hint of its own
 * file through a read-only descriptor.
 */
static void reader_sets_hint(void)
{
	struct where w0, w;
	char path[700];
	uint64_t hint = ~0ull;
	int e;

	if (make_closed("x_roots", 0, NO_FCNTL, 32 << 10, &w0)) {
		tap_ok(0, "root's file made and mapped");
		return;
	}
	snprintf(path, sizeof(path), "%s/x_roots", dir);
	e = nobody_sets_extreme(path);
	tap_ok(e == EPERM, "uid %d, reading root's file, may not set its "
	       "write hint: F_SET_RW_HINT EXTREME fails with EPERM (%s)",
	       NOBODY, e < 0 ? "no answer" : e ? strerror(e) : "succeeded");
	if (root_appends("x_roots", &hint, &w)) {
		tap_ok(0, "root appends 32 KiB to its file, mapped");
	} else {
		tap_ok(hint == RWH_WRITE_LIFE_NOT_SET,
		       "root's file's hint is still NOT_SET (%" PRIu64 ")",
		       hint);
		tap_ok(w.blocks == w0.blocks + 8 && !w.in_cold,
		       "root's 32 KiB appended after the reader's fcntl are "
		       "not placed as cold (%" PRIu64 " of %" PRIu64
		       " blocks in the cold region)", w.in_cold, w.blocks);
	}

	if (make_closed("x_nobodys", 0, NO_FCNTL, 32 << 10, &w0)) {
		tap_ok(0, "uid %d's file made and mapped", NOBODY);
		return;
	}
	snprintf(path, sizeof(path), "%s/x_nobodys", dir);
	if (chown(path, NOBODY, NOBODY)) {
		tap_ok(0, "chown %s to %d: %s", path, NOBODY, strerror(errno));
		return;
	}
	e = nobody_sets_extreme(path);
	tap_ok(e == 0, "uid %d sets the write hint of its own file through a "
	       "read-only descriptor (%s)", NOBODY,
	       e < 0 ? "no answer" : e ? strerror(e) : "ok");
	if (root_appends("x_nobodys", &hint, &w)) {
		tap_ok(0, "32 KiB appended to uid %d's file, mapped", NOBODY);
	} else {
		tap_ok(hint == RWH_WRITE_LIFE_EXTREME &&
		       w.blocks == w0.blocks + 8 &&
		       w.in_cold == w.blocks - w0.blocks && !w0.in_cold,
		       "its hint reads EXTREME (%" PRIu64 ") and the 32 KiB "
		       "appended after it are in the cold region, the first "
		       "32 KiB not (%" PRIu64 " of %" PRIu64 " blocks)", hint,
		       w.in_cold, w.blocks);
	}
}

int main(int argc, char **argv)
{
	struct dirinfo mid, cold;
	char rot[256], name[64];
	struct where w;
	long long v, i0, s0;
	int fd, e, hints[] = { RWH_WRITE_LIFE_SHORT, RWH_WRITE_LIFE_LONG,
			       RWH_WRITE_LIFE_NOT_SET, NO_FCNTL };
	unsigned int i;

	if (argc != 3) {
		fprintf(stderr, "usage: %s DEV MNT\n", argv[0]);
		return 2;
	}
	devname = dev_basename(argv[1]);
	tap_init("writehint");
	if (ext4_read_geom(argv[1], &G))
		tap_bail("cannot read the ext4 superblock of %s", argv[1]);
	ext4_print_geom(argv[1], &G);
	if (G.ngroups < 12 || G.flex_size > 4)
		tap_bail("%s: want >= 12 groups and flex groups of <= 4 "
			 "(mke2fs -g 8192 -G 4 on 1 GiB), got %u and %u",
			 argv[1], G.ngroups, G.flex_size);
	snprintf(rot, sizeof(rot), "/sys/block/%s/queue/rotational", devname);
	if (read_counter(devname, "hint_honoured") < 0)
		tap_bail("no /sys/fs/ext4/%s/hint_honoured: not the patched "
			 "kernel, or %s is not mounted ext4", devname,
			 argv[1]);
	{
		FILE *f = fopen(rot, "r");
		int r = -1;

		if (!f || fscanf(f, "%d", &r) != 1 || r != 1)
			tap_bail("%s is not 1 (%d): the test needs a "
				 "rotational disk", rot, r);
		fclose(f);
	}
	if (pick_dirs(argv[2], "wh", &G, 0755, &mid, &cold))
		tap_bail("no directory in the middle third of %s", argv[2]);
	snprintf(dir, sizeof(dir), "%s", mid.path);
	snprintf(knob, sizeof(knob), "/sys/fs/ext4/%s/write_hint_cold",
		 devname);

	v = knob_value();
	tap_ok(v == 1, "%s exists and reads 1 (the default): %lld", knob, v);
	e = knob_write("2");
	tap_ok(e == EINVAL && knob_value() == 1,
	       "writing 2 to write_hint_cold is refused with EINVAL (%s), "
	       "the value stays 1", e ? strerror(e) : "accepted");

	cold_file("x_extreme", "rotational, write_hint_cold 1");
	/* the small files of not_cold() go cold too when the hint counts */
	all_in("x_extreme_small", 0, RWH_WRITE_LIFE_EXTREME, 32 << 10, 0,
	       "EXTREME, 32 KiB");
	for (i = 0; i < sizeof(hints) / sizeof(hints[0]); i++) {
		char what[64];

		snprintf(name, sizeof(name), "x_%d", hints[i] + 1);
		snprintf(what, sizeof(what), "hint %s", hint_name(hints[i]));
		not_cold(name, 0, hints[i], what);
	}

	/* the hint given at create wins */
	all_in("x_hot_extreme", O_HOT, RWH_WRITE_LIFE_EXTREME, 4 * MIB, 1,
	       "O_HOT + EXTREME: the data stays");
	all_in("x_cold_short", O_COLD, RWH_WRITE_LIFE_SHORT, 4 * MIB, 0,
	       "O_COLD + SHORT: the data stays");

	/* the hint taken back: later data is an unhinted file's */
	i0 = clusters_in();
	fd = make("x_extreme_then_not", 0, RWH_WRITE_LIFE_EXTREME, 2 * MIB,
		  &w);
	if (fd >= 0) {
		tap_ok(w.blocks && w.in_cold == w.blocks &&
		       clusters_in() - i0 == (long long)w.blocks,
		       "EXTREME, 2 MiB: all in the cold region, counted (%"
		       PRIu64 " of %" PRIu64 " blocks, +%lld)", w.in_cold,
		       w.blocks, clusters_in() - i0);
		i0 = clusters_in();
		s0 = clusters_spilled();
		if (lseek(fd, 0, SEEK_END) < 0 ||
		    set_hint(fd, RWH_WRITE_LIFE_NOT_SET) ||
		    write_fill(fd, 2 * MIB, 0x33) || where_of(fd, &w))
			tap_ok(0, "NOT_SET, then 2 MiB appended and mapped");
		else
			tap_ok(w.blocks == 1024 && clusters_in() == i0 &&
			       clusters_spilled() == s0,
			       "hint back to NOT_SET: the 2 MiB appended are "
			       "not a hinted file's (hint_clusters_in_region "
			       "+%lld, _spilled +%lld)", clusters_in() - i0,
			       clusters_spilled() - s0);
		close(fd);
	} else {
		tap_ok(0, "EXTREME, 2 MiB: file made and mapped");
	}

	/* the tunable off */
	e = knob_write("0");
	tap_ok(!e && knob_value() == 0, "write_hint_cold set to 0 (%s)",
	       e ? strerror(e) : "ok");
	i0 = clusters_in();
	not_cold("x_extreme_off", 0, RWH_WRITE_LIFE_EXTREME,
		 "write_hint_cold 0, EXTREME");
	tap_ok(clusters_in() == i0,
	       "write_hint_cold 0: hint_clusters_in_region unchanged (+%lld)",
	       clusters_in() - i0);
	e = knob_write("1");
	tap_ok(!e && knob_value() == 1, "write_hint_cold back to 1 (%s)",
	       e ? strerror(e) : "ok");

	/* a non-rotational device: nothing changes */
	if (write_str(rot, "0", 1)) {
		tap_ok(0, "set %s to 0", rot);
	} else {
		not_cold("x_extreme_nonrot", 0, RWH_WRITE_LIFE_EXTREME,
			 "queue/rotational 0, EXTREME");
		tap_ok(!write_str(rot, "1", 1), "%s restored to 1", rot);
	}
	cold_file("x_extreme_again", "rotational again");
	reader_sets_hint();
	return tap_exit();
}
