// SPDX-License-Identifier: GPL-2.0
/*
 * hc_race MODE DEV MNT SECONDS
 *
 * Races that a review found and that a test can only hope to hit: each
 * mode runs a writer of a hot/cold setting against allocations for
 * SECONDS and then checks that nothing went wrong.  Under TCG the windows
 * are a few instructions wide, so a pass says little; a failure (an ext4
 * error or warning in the kernel log, a hang caught by the alarm, data
 * that does not read back, a mark that does not read back as last set)
 * is a real bug.
 *   MODE mark   : (ext4 with -O fast_commit) one process flips the
 *                 system.hotcold mark of DIR between hot, cold and none,
 *                 another creates, writes and fsync()s files in DIR, so
 *                 that fast commits set and clear EXT4_STATE_* bits of
 *                 DIR while its i_flags change (the setter must change
 *                 them with atomic bit operations).
 *   MODE region : one process writes hot_region_permille and
 *                 cold_region_permille between 0 and 333, others create,
 *                 append to and fsync O_HOT and O_COLD files (an
 *                 allocation must read the region once).
 *   MODE recount: (an ext4 of many groups, the middle of the disk almost
 *                 empty) region_reserve=1; one process writes
 *                 hot_region_permille between 200 and 201, so that each
 *                 next allocation counts the parts' free clusters again
 *                 (a walk of every group descriptor), two others create
 *                 unhinted files of 4 KiB, each in a directory of its own
 *                 in the hot region, and fsync them.  The reserve keeps
 *                 the hot region while the middle is far from full: no
 *                 such file's inode or data may be in the first 200 per
 *                 mille of the groups.  Unlike the other modes, this one
 *                 fails reliably on a kernel whose recount shows totals
 *                 of 0 to the allocations that run during it.
 */
#include "hotcold_test.h"
#include <signal.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#define XNAME "system.hotcold"
#define CHUNK 8192

static const char *devname;
static volatile sig_atomic_t stop;

static void on_alarm(int sig)
{
	(void)sig;
	stop = 1;
}

/* lines of the kernel log that say ext4 or the kernel went wrong */
static int kmsg_bad(void)
{
	char line[1024];
	int bad = 0;
	FILE *f = popen("dmesg", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "EXT4-fs error") || strstr(line, "WARNING:") ||
		    strstr(line, "BUG:") || strstr(line, "blocked for more")) {
			line[strcspn(line, "\n")] = 0;
			diag("kernel: %s", line);
			bad++;
		}
	pclose(f);
	return bad;
}

/* run fn(arg) in a child for secs seconds; returns its exit status */
static pid_t spawn(int (*fn)(const char *, int), const char *arg, int secs)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		signal(SIGALRM, on_alarm);
		alarm((unsigned int)secs);
		_exit(fn(arg, secs));
	}
	return pid;
}

/* wait for pid at most secs; 0 if it exited 0 */
static int reap(pid_t pid, const char *what, int secs)
{
	int status, i;

	for (i = 0; i < secs * 10; i++) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid) {
			if (!WIFEXITED(status) || WEXITSTATUS(status)) {
				diag("%s: status %#x", what, status);
				return -1;
			}
			return 0;
		}
		usleep(100000);
	}
	diag("%s: still running %d s after its end (hung?)", what, secs);
	kill(pid, SIGKILL);
	return -1;
}

/* ---------------------------------------------------------------- mark */

static const char *const marks[] = { "hot", "cold", NULL };
static int last_mark_file = -1;

static int mark_flipper(const char *dir, int secs)
{
	unsigned long n = 0;
	int i = 0, fd;

	(void)secs;
	while (!stop) {
		const char *m = marks[i % 3];

		if (m ? setxattr(dir, XNAME, m, strlen(m), 0) :
			removexattr(dir, XNAME) && errno != ENODATA) {
			diag("set mark %s: %s", m ? m : "(remove)",
			     strerror(errno));
			return 1;
		}
		i++;
		n++;
	}
	/* say what was set last, for the parent */
	fd = last_mark_file;
	if (fd >= 0 && write(fd, &i, sizeof(i)) != sizeof(i))
		return 1;
	diag("mark flipper: %lu changes", n);
	return 0;
}

static int creator(const char *dir, int secs)
{
	static unsigned char buf[CHUNK];
	unsigned long n = 0;
	char p[700];

	(void)secs;
	memset(buf, 0x5a, sizeof(buf));
	while (!stop) {
		int fd;

		snprintf(p, sizeof(p), "%s/f%lu", dir, n % 64);
		unlink(p);
		fd = open(p, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0 || write(fd, buf, sizeof(buf)) != sizeof(buf) ||
		    fsync(fd)) {
			diag("create %s: %s", p, strerror(errno));
			if (fd >= 0)
				close(fd);
			return 1;
		}
		close(fd);
		n++;
	}
	diag("creator: %lu files created and fsync()ed", n);
	return n ? 0 : 1;
}

static void mode_mark(const char *mnt, int secs)
{
	char dir[600];
	int pfd[2], last = -1, r1, r2;
	pid_t a, b;
	const char *want;
	char got[16];
	ssize_t n;

	snprintf(dir, sizeof(dir), "%s/race-mark", mnt);
	if ((mkdir(dir, 0755) && errno != EEXIST) || pipe(pfd))
		tap_bail("mkdir %s: %s", dir, strerror(errno));
	last_mark_file = pfd[1];
	a = spawn(mark_flipper, dir, secs);
	b = spawn(creator, dir, secs);
	r1 = reap(a, "mark flipper", secs + 60);
	r2 = reap(b, "creator", secs + 60);
	close(pfd[1]);
	if (read(pfd[0], &last, sizeof(last)) != sizeof(last))
		last = -1;
	tap_ok(!r1 && !r2, "mark flips and fast-commit creates for %d s: "
	       "both finished", secs);
	want = last < 0 ? NULL : marks[(last - 1 + 3) % 3];
	n = getxattr(dir, XNAME, got, sizeof(got) - 1);
	got[n > 0 ? n : 0] = 0;
	tap_ok(last >= 0 && (want ? n > 0 && !strcmp(got, want) :
			     n < 0 && errno == ENODATA),
	       "the mark reads back as last set ('%s', got '%s')",
	       want ? want : "(none)", n > 0 ? got : "(none)");
}

/* -------------------------------------------------------------- region */

static int region_flipper(const char *unused, int secs)
{
	char hot[128], cold[128];
	unsigned long n = 0;

	(void)unused;
	(void)secs;
	snprintf(hot, sizeof(hot), "/sys/fs/ext4/%s/hot_region_permille",
		 devname);
	snprintf(cold, sizeof(cold), "/sys/fs/ext4/%s/cold_region_permille",
		 devname);
	while (!stop) {
		const char *v = n & 1 ? "333" : "0";

		if (write_str(hot, v, 1) || write_str(cold, v, 1))
			return 1;
		n++;
	}
	write_str(hot, "333", 1);
	write_str(cold, "333", 1);
	diag("region flipper: %lu writes of each tunable", n);
	return 0;
}

/* create, append to and fsync hinted files; check they read back */
static int appender(const char *dir, int secs)
{
	static unsigned char buf[CHUNK], rd[CHUNK];
	unsigned long n = 0;
	int flag = strstr(dir, "cold") ? O_COLD : O_HOT;
	char p[700];

	(void)secs;
	while (!stop) {
		int fd, i;

		snprintf(p, sizeof(p), "%s/a%lu", dir, n % 16);
		unlink(p);
		fd = open(p, O_CREAT | O_EXCL | O_RDWR | flag, 0644);
		if (fd < 0) {
			diag("create %s: %s", p, strerror(errno));
			return 1;
		}
		/* sparse appends: each one a new allocation */
		for (i = 0; i < 4 && !stop; i++) {
			memset(buf, (int)(n + i), sizeof(buf));
			if (pwrite(fd, buf, sizeof(buf), (off_t)i * 16 * CHUNK)
			    != sizeof(buf) || fsync(fd)) {
				diag("append %s: %s", p, strerror(errno));
				close(fd);
				return 1;
			}
		}
		while (i-- > 0) {
			memset(buf, (int)(n + i), sizeof(buf));
			if (pread(fd, rd, sizeof(rd), (off_t)i * 16 * CHUNK) !=
			    sizeof(rd) || memcmp(buf, rd, sizeof(rd))) {
				diag("%s: chunk %d does not read back", p, i);
				close(fd);
				return 1;
			}
		}
		close(fd);
		n++;
	}
	diag("appender %s: %lu files", dir, n);
	return n ? 0 : 1;
}

static void mode_region(const char *mnt, int secs)
{
	char hot[600], cold[600];
	int r0, r1, r2;
	pid_t a, b, c;

	snprintf(hot, sizeof(hot), "%s/race-hot", mnt);
	snprintf(cold, sizeof(cold), "%s/race-cold", mnt);
	if ((mkdir(hot, 0755) && errno != EEXIST) ||
	    (mkdir(cold, 0755) && errno != EEXIST))
		tap_bail("mkdir in %s: %s", mnt, strerror(errno));
	a = spawn(region_flipper, NULL, secs);
	b = spawn(appender, hot, secs);
	c = spawn(appender, cold, secs);
	r0 = reap(a, "region flipper", secs + 60);
	r1 = reap(b, "hot appender", secs + 60);
	r2 = reap(c, "cold appender", secs + 60);
	tap_ok(!r0 && !r1 && !r2, "region tunables flipped between 0 and 333 "
	       "for %d s under O_HOT and O_COLD appends: all finished, all "
	       "data read back", secs);
	tap_ok(read_counter(devname, "hint_clusters_in_region") >= 0 &&
	       read_counter(devname, "hint_clusters_spilled") >= 0 &&
	       read_counter(devname, "hint_honoured") >= 0,
	       "counters readable and not negative");
}

/* ------------------------------------------------------------- recount */

static struct ext4_geom geom;
static uint32_t hot_min;	/* the hot region's smallest end, 200 per mille */

static int permille_flipper(const char *unused, int secs)
{
	char hot[128];
	unsigned long n = 0;

	(void)unused;
	(void)secs;
	snprintf(hot, sizeof(hot), "/sys/fs/ext4/%s/hot_region_permille",
		 devname);
	while (!stop) {
		if (write_str(hot, n & 1 ? "201" : "200", 1))
			return 1;
		n++;
	}
	diag("permille flipper: %lu writes of hot_region_permille", n);
	return write_str(hot, "200", 1) ? 1 : 0;
}

/*
 * Create, write and fsync unhinted files in dir (a directory in the hot
 * region); each one's inode and data must be past the hot region's
 * smallest extent, 200 per mille of the groups.  Exit 1 if one was not.
 */
static int unhinted_creator(const char *dir, int secs)
{
	static unsigned char buf[4096];
	unsigned long n = 0, bad = 0;
	struct extent_groups eg;
	struct stat st;
	char p[700];

	(void)secs;
	memset(buf, 0xa5, sizeof(buf));
	while (!stop) {
		uint32_t ig;
		int fd;

		snprintf(p, sizeof(p), "%s/u%d-%lu", dir, (int)getpid(),
			 n % 64);
		unlink(p);
		fd = open(p, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0 || write(fd, buf, sizeof(buf)) != sizeof(buf) ||
		    fsync(fd) || fstat(fd, &st) ||
		    fiemap_groups(fd, &geom, &eg)) {
			diag("create %s: %s", p, strerror(errno));
			if (fd >= 0)
				close(fd);
			return 1;
		}
		close(fd);
		ig = ino_group(&geom, st.st_ino);
		if (ig < hot_min || !eg.nextents || eg.min_group < hot_min) {
			if (bad++ < 5)
				diag("%s: inode %lu in group %u, data %s (hot "
				     "region: groups below %u at least)", p,
				     (unsigned long)st.st_ino, ig,
				     eg.nextents ? eg.desc : "not mapped",
				     hot_min);
		}
		n++;
	}
	diag("unhinted creator %d: %lu files, %lu in the hot region",
	     (int)getpid(), n, bad);
	return n && !bad ? 0 : 1;
}

static void mode_recount(const char *dev, const char *mnt, int secs)
{
	char reserve[128], dirs[2][600];
	int r0, r1, r2, i, n;
	struct stat st;
	pid_t a, b, c;

	if (ext4_read_geom(dev, &geom))
		tap_bail("cannot read the geometry of %s", dev);
	ext4_print_geom(dev, &geom);
	hot_min = (uint32_t)((uint64_t)geom.ngroups * 200 / 1000);
	/*
	 * Two directories in the hot region, one per creator, so that the
	 * creates do not wait for each other on one directory's lock: made
	 * with the reserve off, Orlov spreads them over the whole disk.
	 */
	for (i = 0, n = 0; n < 2 && i < 400; i++) {
		snprintf(dirs[n], sizeof(dirs[n]), "%s/d%d", mnt, i);
		if (mkdir(dirs[n], 0755) || stat(dirs[n], &st))
			tap_bail("mkdir %s: %s", dirs[n], strerror(errno));
		if (ino_group(&geom, st.st_ino) < hot_min)
			n++;
	}
	if (n < 2)
		tap_bail("%d directories made, %d in the hot region", i, n);
	diag("%s and %s are in the hot region (%d directories made)",
	     dirs[0], dirs[1], i);
	snprintf(reserve, sizeof(reserve), "/sys/fs/ext4/%s/region_reserve",
		 devname);
	if (write_str(reserve, "1", 1))
		tap_bail("cannot turn on %s", reserve);
	a = spawn(permille_flipper, NULL, secs);
	b = spawn(unhinted_creator, dirs[0], secs);
	c = spawn(unhinted_creator, dirs[1], secs);
	r0 = reap(a, "permille flipper", secs + 60);
	r1 = reap(b, "unhinted creator 1", secs + 60);
	r2 = reap(c, "unhinted creator 2", secs + 60);
	write_str(reserve, "0", 1);
	tap_ok(!r0, "hot_region_permille flipped between 200 and 201 for %d s",
	       secs);
	tap_ok(!r1 && !r2, "region_reserve=1, %u groups, middle almost "
	       "empty: no unhinted file created meanwhile has its inode or "
	       "data in the hot region", geom.ngroups);
}

int main(int argc, char **argv)
{
	const char *mode, *mnt;
	char prefix[32];
	int secs, bad;

	if (argc != 5 || atoi(argv[4]) <= 0) {
		fprintf(stderr,
			"usage: %s mark|region|recount DEV MNT SECONDS\n",
			argv[0]);
		return 2;
	}
	mode = argv[1];
	devname = dev_basename(argv[2]);
	mnt = argv[3];
	secs = atoi(argv[4]);
	snprintf(prefix, sizeof(prefix), "race-%s", mode);
	tap_init(prefix);
	if (read_counter(devname, "hint_honoured") < 0)
		tap_bail("no /sys/fs/ext4/%s/hint_honoured", devname);
	system("dmesg -c >/dev/null 2>&1");
	if (!strcmp(mode, "mark"))
		mode_mark(mnt, secs);
	else if (!strcmp(mode, "region"))
		mode_region(mnt, secs);
	else if (!strcmp(mode, "recount"))
		mode_recount(argv[2], mnt, secs);
	else
		tap_bail("bad MODE '%s' (mark, region or recount)", mode);
	bad = kmsg_bad();
	tap_ok(bad == 0, "no ext4 error, warning, BUG or hung task in the "
	       "kernel log (%d lines)", bad);
	return tap_exit();
}
