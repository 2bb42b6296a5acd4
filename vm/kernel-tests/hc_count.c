// SPDX-License-Identifier: GPL-2.0
/*
 * hc_count MODE DEV MNT
 *
 * The hint counters (/sys/fs/ext4/<dev>/hint_*) count each hinted create
 * once, when it succeeded, and move a file from hint_honoured to
 * hint_spilled once, whatever happens to its in-memory inode.  DEV is a
 * fresh ext4 of 16 groups of 16 MiB mounted on MNT (guest-check.sh:
 * mke2fs -b 4096 -g 4096 -m 0, 256 MiB; cold region groups [11,16)).
 *   MODE evict  : an O_COLD file A of 4 MiB (all in the cold region) and
 *                 an O_COLD file B larger than the region (it spills);
 *                 after drop_caches both get appends that spill again;
 *                 hint_honoured and hint_spilled equal what FIEMAP says
 *                 of the files created since the mount, at every step
 *                 (1 and 1, then 0 and 2); then a remount (counters start
 *                 at 0) and more spilling appends: both stay 0.
 *   MODE quota  : (mke2fs -O quota, mount -o usrquota) uid 65534 with an
 *                 inode hard limit of 3 creates 5 O_COLD files: 3
 *                 succeed, 2 fail with EDQUOT, and hint_honoured grows
 *                 by 3 (the failed creates are not counted anywhere).
 *   MODE enospc : (mount -o commit=300) a directory whose block is full,
 *                 a filesystem with no free block, a file deleted and
 *                 not yet committed: an O_COLD create in the directory
 *                 gets ENOSPC for the directory block, ext4_create()
 *                 commits the journal and retries, and the create is
 *                 counted once.
 *   MODE noregion: cold_region_permille=0: an O_COLD create is counted
 *                 in hint_dropped_noregion, not in hint_fallback.
 * Every mode also checks that no counter is negative.
 */
#include "hotcold_test.h"
#include <grp.h>
#include <limits.h>
#include <sys/mount.h>
#include <sys/quota.h>
#include <sys/statvfs.h>
#include <sys/wait.h>

#define NOBODY 65534
#define MIB (1u << 20)

static struct ext4_geom G;
static const char *dev, *devname, *mnt;

static const char *const names[] = {
	"hint_honoured", "hint_dropped_nonrot", "hint_dropped_noperm",
	"hint_fallback", "hint_spilled", "hint_dropped_noregion",
};
enum { HON, NONROT, NOPERM, FALLBACK, SPILLED, NOREGION, NCTR };

/* a counter, LLONG_MIN if it cannot be read */
static long long ctr(int i)
{
	char path[256], buf[64];
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), "/sys/fs/ext4/%s/%s", devname, names[i]);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return LLONG_MIN;
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (r <= 0)
		return LLONG_MIN;
	buf[r] = 0;
	return strtoll(buf, NULL, 10);
}

static void snap(long long *v, const char *when)
{
	int i;

	for (i = 0; i < NCTR; i++)
		v[i] = ctr(i);
	/* only MODE noregion needs it (checked in main()) */
	if (v[NOREGION] == LLONG_MIN)
		v[NOREGION] = 0;
	diag("%s: honoured=%lld nonrot=%lld noperm=%lld fallback=%lld "
	     "spilled=%lld noregion=%lld", when, v[HON], v[NONROT], v[NOPERM],
	     v[FALLBACK], v[SPILLED], v[NOREGION]);
}

static void none_negative(const long long *v, const char *when)
{
	int i, ok = 1;

	for (i = 0; i < NCTR; i++)
		if (v[i] < 0)
			ok = 0;
	tap_ok(ok, "%s: no hint counter is negative (or missing)", when);
}

static void path_of(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", mnt, name);
}

static int write_to(const char *name, int flags, size_t size)
{
	char p[512];
	int fd, r;

	path_of(p, sizeof(p), name);
	fd = open(p, O_WRONLY | flags, 0644);
	if (fd < 0) {
		diag("open %s: %s", p, strerror(errno));
		return -1;
	}
	r = write_fill(fd, size, 0x33);
	close(fd);
	return r;
}

/* whether all of name's data is in the cold region; -1 on error */
static int all_cold(const char *name)
{
	struct extent_groups eg;
	char p[512];
	int fd, r;

	path_of(p, sizeof(p), name);
	fd = open(p, O_RDONLY);
	if (fd < 0)
		return -1;
	r = fiemap_groups(fd, &G, &eg);
	close(fd);
	if (r || eg.unmapped)
		return -1;
	diag("  %s: %u extents, groups %u-%u (cold region from %u)", name,
	     eg.nextents, eg.min_group, eg.max_group, cold_start(&G));
	return eg.nextents && eg.min_group >= cold_start(&G);
}

static int drop_caches(void)
{
	sync();
	return write_str("/proc/sys/vm/drop_caches", "3", 0);
}

/* honoured and spilled equal FIEMAP of the files created this mount */
static void match_fiemap(const char *const *files, int n, const char *when)
{
	long long v[NCTR], hon = 0, sp = 0;
	int i;

	for (i = 0; i < n; i++) {
		int c = all_cold(files[i]);

		if (c < 0) {
			tap_ok(0, "%s: FIEMAP of %s", when, files[i]);
			return;
		}
		if (c)
			hon++;
		else
			sp++;
	}
	snap(v, when);
	none_negative(v, when);
	tap_ok(v[HON] == hon && v[SPILLED] == sp,
	       "%s: hint_honoured %lld, hint_spilled %lld == FIEMAP: %lld "
	       "all in the region, %lld not", when, v[HON], v[SPILLED], hon,
	       sp);
}

static int remount(void)
{
	sync();
	if (umount(mnt)) {
		diag("umount %s: %s", mnt, strerror(errno));
		return -1;
	}
	if (mount(dev, mnt, "ext4", 0, "noinit_itable")) {
		diag("mount %s: %s", dev, strerror(errno));
		return -1;
	}
	return 0;
}

static void mode_evict(void)
{
	static const char *const ab[] = { "A", "B" };
	/* B: the whole cold region and 16 MiB more */
	size_t bsize = (size_t)(G.ngroups - cold_start(&G)) *
		       G.blocks_per_group * G.block_size + 16 * MIB;
	long long v[NCTR];

	snap(v, "mounted");
	tap_ok(v[HON] == 0 && v[SPILLED] == 0, "fresh mount: hint_honoured "
	       "and hint_spilled are 0");
	if (write_to("A", O_CREAT | O_EXCL | O_COLD, 4 * MIB) ||
	    write_to("B", O_CREAT | O_EXCL | O_COLD, bsize))
		tap_bail("setup: create A (4 MiB) and B (%zu MiB) O_COLD",
			 bsize / MIB);
	match_fiemap(ab, 2, "A in the region, B spilled");

	if (drop_caches())
		tap_bail("setup: drop_caches");
	if (write_to("A", O_APPEND, 4 * MIB) ||
	    write_to("B", O_APPEND, 4 * MIB))
		tap_bail("setup: append to A and B");
	match_fiemap(ab, 2, "evicted, then both appended (region full)");

	if (drop_caches() || write_to("B", O_APPEND, 4 * MIB))
		tap_bail("setup: evict and append to B again");
	match_fiemap(ab, 2, "evicted again, B appended again");

	if (remount())
		tap_bail("setup: remount");
	if (write_to("A", O_APPEND, 4 * MIB) ||
	    write_to("B", O_APPEND, 4 * MIB))
		tap_bail("setup: append to A and B after the remount");
	match_fiemap(ab, 0, "remounted, no create since, both appended");
}

static int nobody_creates(int n, int *ok, int *edquot)
{
	int pfd[2], res[2] = { 0, 0 };
	pid_t pid;

	if (pipe(pfd))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int i;

		close(pfd[0]);
		if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
			_exit(3);
		for (i = 0; i < n; i++) {
			char p[512];
			int fd;

			snprintf(p, sizeof(p), "%s/q/f%d", mnt, i);
			fd = open(p, O_CREAT | O_EXCL | O_WRONLY | O_COLD,
				  0644);
			if (fd >= 0) {
				res[0]++;
				close(fd);
			} else if (errno == EDQUOT) {
				res[1]++;
			}
		}
		if (write(pfd[1], res, sizeof(res)) != sizeof(res))
			_exit(4);
		_exit(0);
	}
	close(pfd[1]);
	if (read(pfd[0], res, sizeof(res)) != sizeof(res)) {
		close(pfd[0]);
		waitpid(pid, NULL, 0);
		return -1;
	}
	close(pfd[0]);
	waitpid(pid, NULL, 0);
	*ok = res[0];
	*edquot = res[1];
	return 0;
}

static void mode_quota(void)
{
	struct if_dqblk dq = { 0 };
	long long v0[NCTR], v1[NCTR];
	char p[512];
	int ok = 0, edquot = 0, i, others = 0;

	path_of(p, sizeof(p), "q");
	if (mkdir(p, 0777) || chmod(p, 0777))
		tap_bail("setup: mkdir %s: %s", p, strerror(errno));
	dq.dqb_ihardlimit = 3;
	dq.dqb_isoftlimit = 3;
	dq.dqb_valid = QIF_ILIMITS;
	if (quotactl(QCMD(Q_SETQUOTA, USRQUOTA), dev, NOBODY, (caddr_t)&dq))
		tap_bail("setup: quotactl Q_SETQUOTA uid %d on %s: %s",
			 NOBODY, dev, strerror(errno));
	snap(v0, "before uid 65534's creates");
	if (nobody_creates(5, &ok, &edquot))
		tap_bail("setup: uid 65534's creates");
	snap(v1, "after");
	none_negative(v1, "quota");
	tap_ok(ok == 3 && edquot == 2, "uid %d with an inode limit of 3: 3 "
	       "O_COLD creates succeed, 2 fail with EDQUOT (got %d and %d)",
	       NOBODY, ok, edquot);
	for (i = 0; i < NCTR; i++)
		if (i != HON)
			others += v1[i] != v0[i];
	tap_ok(v1[HON] - v0[HON] == ok && !others,
	       "hint_honoured grew by the %d creates that succeeded (%lld), "
	       "no other counter moved", ok, v1[HON] - v0[HON]);
}

/* fill name with fallocate and writes until ENOSPC */
static int fill(const char *name)
{
	static char buf[4096];
	char p[512];
	int fd;
	off_t off = 0;

	path_of(p, sizeof(p), name);
	fd = open(p, O_CREAT | O_WRONLY, 0644);
	if (fd < 0)
		return -1;
	while (!fallocate(fd, 0, off, MIB))
		off += MIB;
	lseek(fd, 0, SEEK_END);
	memset(buf, 0x77, sizeof(buf));
	while (write(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf))
		;
	fsync(fd);
	close(fd);
	return 0;
}

static void long_name(char *buf, size_t len, int i)
{
	char n[256];

	memset(n, 'a' + i % 26, 250);
	snprintf(n + 250, sizeof(n) - 250, "%05d", i);
	snprintf(buf, len, "%s/d/%s", mnt, n);
}

/* the number of transactions the journal of DEV has committed, or -1 */
static long long jbd2_transactions(void)
{
	char p[256], buf[256];
	FILE *f;
	long long n = -1;

	snprintf(p, sizeof(p), "/proc/fs/jbd2/%s-8/info", devname);
	f = fopen(p, "r");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f) || sscanf(buf, "%lld", &n) != 1)
		n = -1;
	fclose(f);
	return n;
}

static void mode_enospc(void)
{
	long long v0[NCTR], v1[NCTR], d = 0, t0, t1;
	char p[600];
	struct stat st;
	int i, fd, grew;

	path_of(p, sizeof(p), "d");
	if (mkdir(p, 0755))
		tap_bail("setup: mkdir %s", p);
	/* 15 entries of 255 characters fill the directory's first block */
	for (i = 0; i < 15; i++) {
		long_name(p, sizeof(p), i);
		fd = open(p, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0)
			tap_bail("setup: create %s: %s", p, strerror(errno));
		close(fd);
	}
	path_of(p, sizeof(p), "d");
	if (stat(p, &st) || st.st_size != (off_t)G.block_size)
		tap_bail("setup: d is one block after 15 long names");
	/* no blocks kept back for metadata: the filler takes them all */
	snprintf(p, sizeof(p), "/sys/fs/ext4/%s/reserved_clusters", devname);
	if (write_str(p, "0", 1))
		tap_bail("setup: reserved_clusters=0");
	if (write_to("X", O_CREAT | O_EXCL, 8 * MIB) || fill("fill"))
		tap_bail("setup: X and the filler");
	sync();
	/* proof that the directory cannot grow now */
	long_name(p, sizeof(p), 15);
	fd = open(p, O_CREAT | O_EXCL | O_WRONLY, 0644);
	tap_ok(fd < 0 && errno == ENOSPC, "full: a 16th entry in d gets "
	       "ENOSPC (%s)", fd < 0 ? strerror(errno) : "created");
	if (fd >= 0) {
		close(fd);
		return;
	}
	/* X's blocks are freed at the next commit (commit=300) */
	path_of(p, sizeof(p), "X");
	if (unlink(p))
		tap_bail("setup: unlink X");
	snap(v0, "X deleted, not committed");
	t0 = jbd2_transactions();
	long_name(p, sizeof(p), 15);
	fd = open(p, O_CREAT | O_EXCL | O_WRONLY | O_COLD, 0644);
	t1 = jbd2_transactions();
	tap_ok(fd >= 0, "the O_COLD create in d succeeds (%s)",
	       fd < 0 ? strerror(errno) : "ok");
	if (fd >= 0)
		close(fd);
	/* commit=300: only ext4_should_retry_alloc() commits in between */
	tap_ok(t0 >= 0 && t1 > t0, "the create committed the journal to "
	       "retry after ENOSPC (jbd2 transactions %lld -> %lld)", t0, t1);
	snap(v1, "after the retried create");
	none_negative(v1, "enospc retry");
	for (i = 0; i < NCTR; i++)
		d += v1[i] - v0[i];
	path_of(p, sizeof(p), "d");
	grew = !stat(p, &st) && st.st_size > (off_t)G.block_size;
	tap_ok(grew, "d grew a block (size %lld)", (long long)st.st_size);
	tap_ok(d == (fd >= 0), "the retried create is counted once (the "
	       "counters grew by %lld in all)", d);
}

static void mode_noregion(void)
{
	long long v0[NCTR], v1[NCTR];
	char path[256];

	snprintf(path, sizeof(path), "/sys/fs/ext4/%s/cold_region_permille",
		 devname);
	if (write_str(path, "0", 1))
		tap_bail("setup: cold_region_permille=0");
	snap(v0, "cold_region_permille=0");
	if (write_to("nr", O_CREAT | O_EXCL | O_COLD, MIB))
		tap_bail("setup: create an O_COLD file");
	snap(v1, "after an O_COLD create");
	tap_ok(v1[NOREGION] - v0[NOREGION] == 1 &&
	       v1[FALLBACK] == v0[FALLBACK] && v1[HON] == v0[HON],
	       "with the cold region disabled an O_COLD create counts in "
	       "hint_dropped_noregion (+%lld), not hint_fallback (+%lld)",
	       v1[NOREGION] - v0[NOREGION], v1[FALLBACK] - v0[FALLBACK]);
	write_str(path, "333", 1);
}

int main(int argc, char **argv)
{
	tap_init("hc_count");
	if (argc != 4) {
		fprintf(stderr, "usage: %s evict|quota|enospc|noregion DEV "
			"MNT\n", argv[0]);
		return 2;
	}
	dev = argv[2];
	devname = dev_basename(dev);
	mnt = argv[3];
	if (ext4_read_geom(dev, &G))
		tap_bail("setup: no ext4 superblock on %s", dev);
	if (ctr(HON) == LLONG_MIN)
		tap_bail("no /sys/fs/ext4/%s/hint_honoured", devname);
	if (!strcmp(argv[1], "noregion") && ctr(NOREGION) == LLONG_MIN)
		tap_ok(0, "/sys/fs/ext4/%s/hint_dropped_noregion exists",
		       devname);
	else if (!strcmp(argv[1], "evict"))
		mode_evict();
	else if (!strcmp(argv[1], "quota"))
		mode_quota();
	else if (!strcmp(argv[1], "enospc"))
		mode_enospc();
	else if (!strcmp(argv[1], "noregion"))
		mode_noregion();
	else
		tap_bail("unknown mode '%s'", argv[1]);
	return tap_exit();
}
