// SPDX-License-Identifier: GPL-2.0
/*
 * hc_dirmark MODE DEV MNT
 *
 * Directories marked hot or cold (the system.hotcold xattr, patch 12):
 * files created there by programs that pass no hint inherit the mark.
 * DEV must be a fresh ext4 with a flex group wholly in the middle third
 * (guest-check.sh: 1 GiB, -g 8192 -G 4: 32 groups, hot [0,10), cold
 * [22,32)); the marked dirs are made inside a middle-third dir, so a file
 * that ignored its mark would land in the middle.
 *   MODE mark    : mark MID/hot hot and MID/cold cold; plain open()s,
 *                  busybox cp, dd and tar create there: inode and data in
 *                  the region (FIEMAP), hint_honoured and hint_inherited
 *                  count them, ext4_hotcold_alloc says "from dir"; a
 *                  subdirectory inherits; an explicit O_COLD in the hot
 *                  dir wins; the same cp into MID itself puts the inode
 *                  in the middle.  uid 65534 may mark its own dir cold, not hot,
 *                  nor change root's dir; its creates in its cold dir are
 *                  cold, its creates in root's hot dir carry no hint
 *                  (hint_dropped_noperm, as its own O_HOT is).
 *   MODE persist : after a remount: the marks are still there and still
 *                  inherited; removing a mark; a regular file's record
 *                  cannot be removed (ENOTDIR; ENODATA if it has none);
 *                  queue/rotational 0 drops an inherited hint
 *                  (hint_dropped_nonrot).
 *   MODE escape  : (mount with region_reserve=1, so that an unhinted file
 *                  stays out of the hot region) uid 65534 in root's
 *                  world-writable hot dir: its subdirectory is not marked,
 *                  it renames it out, and neither its files there nor its
 *                  plain creates in the hot dir are hot (FIEMAP, counters,
 *                  ext4_hotcold_alloc); root's creates there still are.
 *   MODE overlay : (region_reserve=1) an overlay mounted by root with its
 *                  upper layer on DEV, where overlayfs acts with root's
 *                  credentials: uid 65534 may not set or remove a mark
 *                  through it, its creates in root's hot dir are not hot
 *                  and its mkdir there is not marked, nor are root's
 *                  creates through it hot; a cold mark still applies;
 *                  root's create on the ext4 itself is hot.
 *   MODE stock   : system.hotcold is not supported (EOPNOTSUPP); skips.
 */
#include "hotcold_test.h"
#include <grp.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#define XNAME "system.hotcold"
#define TRACEFS "/sys/kernel/tracing"
#define EVDIR TRACEFS "/events/ext4/ext4_hotcold_alloc"
#define NOBODY 65534
#define NFILES 3
#define FSIZE (4u << 20)

static struct ext4_geom G;
static const char *devname;

/* ------------------------------------------------------------ helpers */

static long long counter(const char *name)
{
	return read_counter(devname, name);
}

/* the mark of path: "hot", "cold", or "" with errno set */
static const char *get_mark(const char *path)
{
	static char buf[16];
	ssize_t n = getxattr(path, XNAME, buf, sizeof(buf) - 1);

	if (n < 0)
		return "";
	buf[n] = 0;
	return buf;
}

static int set_mark(const char *path, const char *v)
{
	return setxattr(path, XNAME, v, strlen(v), 0);
}

struct region_walk {
	uint64_t lo, hi;	/* blocks [lo, hi) */
	uint64_t in, all;
};

static void region_add(uint64_t b0, uint64_t nb, void *arg)
{
	struct region_walk *w = arg;
	uint64_t s = b0 > w->lo ? b0 : w->lo;
	uint64_t e = b0 + nb < w->hi ? b0 + nb : w->hi;

	w->all += nb;
	if (e > s)
		w->in += e - s;
}

/* the region of flag: groups [*lo, *hi) */
static void region(int flag, uint32_t *lo, uint32_t *hi)
{
	*lo = flag == O_COLD ? cold_start(&G) : 0;
	*hi = flag == O_COLD ? G.ngroups : hot_end(&G);
}

/*
 * path's inode group and how many of its data blocks are in the groups
 * [glo, ghi).  Returns 0 or -1.
 */
static int placement(const char *path, uint32_t glo, uint32_t ghi,
		     uint32_t *igroup, struct region_walk *w)
{
	unsigned int unmapped;
	struct stat st;
	int fd = open(path, O_RDONLY), r;

	memset(w, 0, sizeof(*w));
	if (fd < 0 || fstat(fd, &st)) {
		diag("open %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*igroup = ino_group(&G, st.st_ino);
	w->lo = G.first_data_block + (uint64_t)glo * G.blocks_per_group;
	w->hi = G.first_data_block + (uint64_t)ghi * G.blocks_per_group;
	r = fiemap_walk(fd, G.block_size, &unmapped, region_add, w);
	close(fd);
	if (!r && unmapped) {
		diag("%s: %u unmapped extents", path, unmapped);
		r = -1;
	}
	return r;
}

/*
 * Check that path (inode and every data block) is in flag's region, or,
 * for flag 0, that its inode is in the middle third.  Adds its blocks to
 * *in / *all for the summary.
 */
static int placed(const char *path, int flag, uint64_t *in, uint64_t *all)
{
	struct region_walk w;
	uint32_t lo, hi, ig;
	int ok;

	if (flag) {
		region(flag, &lo, &hi);
		if (placement(path, lo, hi, &ig, &w))
			return 0;
		ok = ig >= lo && ig < hi && w.all && w.in == w.all;
	} else {
		/*
		 * an unhinted file's inode goes to its dir's flex group; its
		 * data may follow mballoc's stream goal anywhere
		 */
		lo = hot_end(&G);
		hi = cold_start(&G);
		if (placement(path, lo, hi, &ig, &w))
			return 0;
		ok = ig >= lo && ig < hi;
	}
	diag("  %s: inode group %u, %" PRIu64 "/%" PRIu64 " blocks in "
	     "groups [%u,%u)%s", path, ig, w.in, w.all, lo, hi,
	     ok ? "" : " [BAD]");
	if (in)
		*in += w.in;
	if (all)
		*all += w.all;
	return ok;
}

/* create path with open(O_CREAT | extra), FSIZE bytes, fsync */
static int create(const char *path, int extra)
{
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY | extra, 0644), r;

	if (fd < 0) {
		diag("open %s %s: %s", path, flag_name(extra),
		     strerror(errno));
		return -1;
	}
	r = write_fill(fd, FSIZE, (unsigned char)extra);
	close(fd);
	return r;
}


/* r < 0 with errno want; got() names what happened, for the message */
static int last_errno;

static int err_is(int r, int want)
{
	last_errno = r < 0 ? errno : 0;
	return r < 0 && last_errno == want;
}

static const char *got(void)
{
	return last_errno ? strerror(last_errno) : "success";
}

static void skip(const char *what, const char *why)
{
	tap->n++;
	printf("ok %d - %s: %s # SKIP %s\n", tap->n, tap_prefix, what, why);
	fflush(stdout);
}

static void path_of(char *buf, size_t len, const char *dir,
		    const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

/* ------------------------------------------------------------- trace */

static int trace_start(void)
{
	if (access(EVDIR "/enable", W_OK))
		return -1;
	if (write_str(TRACEFS "/tracing_on", "1", 1) ||
	    write_str(TRACEFS "/trace", "", 1) ||
	    write_str(EVDIR "/enable", "1", 1))
		return -1;
	return 0;
}

/* count the ext4_hotcold_alloc lines ending "from dir" and "from open" */
static void trace_stop(int *from_dir, int *from_open)
{
	char line[1024];
	FILE *f;

	*from_dir = *from_open = 0;
	write_str(EVDIR "/enable", "0", 1);
	f = fopen(TRACEFS "/trace", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "ext4_hotcold_alloc: ");

		if (!p)
			continue;
		line[strcspn(line, "\n")] = 0;
		if (strstr(p, " from dir"))
			(*from_dir)++;
		else if (strstr(p, " from open"))
			(*from_open)++;
		else
			diag("trace line without 'from': %s", p);
	}
	fclose(f);
}

/* ----------------------------------------------------- unprivileged */

/* become uid/gid 65534 with no groups (and so no capabilities) */
static int drop_to_nobody(void)
{
	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY)) {
		tap_ok(0, "drop to uid/gid %d: %s", NOBODY, strerror(errno));
		return -1;
	}
	return 0;
}

/* uid 65534: returns the child's exit status */
static int unpriv_child(const char *mid, const char *hot, const char *udir)
{
	char p[768];
	int ok = 1, r;

	if (drop_to_nobody())
		return 1;
	r = err_is(set_mark(udir, "hot"), EPERM);
	ok &= tap_ok(r, "uid %d may not mark its own dir hot (EPERM, got %s)",
		     NOBODY, got());
	ok &= tap_ok(set_mark(udir, "cold") == 0 &&
		     !strcmp(get_mark(udir), "cold"),
		     "uid %d may mark its own dir cold", NOBODY);
	r = err_is(set_mark(hot, "cold"), EPERM) &&
	    !strcmp(get_mark(hot), "hot");
	ok &= tap_ok(r, "uid %d may not change root's hot dir (EPERM, got %s)",
		     NOBODY, got());
	r = err_is(removexattr(hot, XNAME), EPERM);
	ok &= tap_ok(r, "uid %d may not remove root's mark (EPERM, got %s)",
		     NOBODY, got());
	path_of(p, sizeof(p), udir, "nobody-plain");
	ok &= tap_ok(!create(p, 0) && placed(p, O_COLD, NULL, NULL),
		     "uid %d: plain create in its cold dir is cold", NOBODY);
	/* where it lands is not told here: without region_reserve an
	 * unhinted file may go to the hot region too; the counters tell */
	path_of(p, sizeof(p), hot, "nobody-plain");
	ok &= tap_ok(!create(p, 0), "uid %d: plain create in root's hot dir "
		     "succeeds", NOBODY);
	path_of(p, sizeof(p), mid, "nobody-ohot");
	ok &= tap_ok(!create(p, O_HOT) && placed(p, 0, NULL, NULL),
		     "uid %d: its own O_HOT in an unmarked dir is still "
		     "dropped (middle third)", NOBODY);
	return ok ? 0 : 1;
}

static void unpriv(const char *mid, const char *hot)
{
	long long h0 = counter("hint_honoured"), i0 = counter("hint_inherited");
	long long p0 = counter("hint_dropped_noperm");
	char udir[600];
	int status;
	pid_t pid;

	path_of(udir, sizeof(udir), mid, "nobody");
	if ((mkdir(udir, 0755) && errno != EEXIST) ||
	    chown(udir, NOBODY, NOBODY) || chmod(hot, 0777))
		tap_bail("set up %s: %s", udir, strerror(errno));
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		tap_bail("fork: %s", strerror(errno));
	if (pid == 0)
		_exit(unpriv_child(mid, hot, udir));
	if (waitpid(pid, &status, 0) != pid)
		tap_bail("waitpid: %s", strerror(errno));
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "unprivileged child finished (status %#x)", status);
	/* honoured: the cold dir's file; dropped: the hot dir's and O_HOT */
	tap_ok(counter("hint_honoured") - h0 == 1 &&
	       counter("hint_inherited") - i0 == 2 &&
	       counter("hint_dropped_noperm") - p0 == 2,
	       "uid %d: hint_honoured +1, hint_inherited +2, "
	       "hint_dropped_noperm +2: a hot mark gives it no hot file "
	       "(got +%lld +%lld +%lld)", NOBODY,
	       counter("hint_honoured") - h0,
	       counter("hint_inherited") - i0,
	       counter("hint_dropped_noperm") - p0);
}

/* -------------------------------------------------------------- modes */

static int find_mid(const char *mnt, char *mid, size_t len)
{
	struct dirinfo m, c;
	FILE *f;
	char p[600];

	path_of(p, sizeof(p), mnt, "dirmark.path");
	f = fopen(p, "r");
	if (f) {	/* persist: the dir the mark run chose */
		int ok = fgets(mid, (int)len, f) != NULL;

		fclose(f);
		mid[strcspn(mid, "\n")] = 0;
		return ok ? 0 : -1;
	}
	if (pick_dirs(mnt, "md", &G, 01777, &m, &c))
		return -1;
	snprintf(mid, len, "%s", m.path);
	f = fopen(p, "w");
	if (!f)
		return -1;
	fprintf(f, "%s\n", mid);
	fclose(f);
	return 0;
}

static void mode_mark(const char *mnt)
{
	char mid[512], hot[600], cold[600], sub[700], p[800], p2[800];
	long long h0, i0, n0, s0, f0;
	uint64_t hin = 0, hall = 0, cin = 0, call = 0;
	int i, ok, r, tr, from_dir, from_open;

	if (find_mid(mnt, mid, sizeof(mid)))
		tap_bail("no dir with a flex group in the middle third");
	path_of(hot, sizeof(hot), mid, "hot");
	path_of(cold, sizeof(cold), mid, "cold");
	if (mkdir(hot, 0755) || mkdir(cold, 0755))
		tap_bail("mkdir in %s: %s", mid, strerror(errno));

	r = err_is(getxattr(hot, XNAME, NULL, 0), ENODATA);
	tap_ok(r, "an unmarked dir has no %s (ENODATA, got %s)", XNAME,
	       got());
	tap_ok(set_mark(hot, "hot") == 0 && !strcmp(get_mark(hot), "hot"),
	       "root marks %s hot", hot);
	tap_ok(set_mark(cold, "cold") == 0 && !strcmp(get_mark(cold), "cold"),
	       "root marks %s cold", cold);
	r = err_is(set_mark(cold, "warm"), EINVAL);
	tap_ok(r, "value 'warm' refused (EINVAL, got %s)", got());
	path_of(p, sizeof(p), mnt, "dirmark.path");
	r = err_is(set_mark(p, "hot"), ENOTDIR);
	tap_ok(r, "a regular file cannot be marked (ENOTDIR, got %s)", got());
	r = err_is(setxattr(hot, XNAME, "hot", 3, XATTR_CREATE), EEXIST);
	tap_ok(r, "XATTR_CREATE on a marked dir: EEXIST (got %s)", got());

	h0 = counter("hint_honoured");
	i0 = counter("hint_inherited");
	n0 = counter("hint_dropped_noperm") + counter("hint_dropped_nonrot");
	s0 = counter("hint_spilled");
	f0 = counter("hint_fallback");
	tr = trace_start();

	/* plain open(O_CREAT) with no hint */
	ok = 1;
	for (i = 0; i < NFILES; i++) {
		snprintf(p, sizeof(p), "%s/plain%d", hot, i);
		ok &= !create(p, 0) && placed(p, O_HOT, &hin, &hall);
	}
	tap_ok(ok, "%d plain open()s in the hot dir: inode and data in the "
	       "hot region", NFILES);
	ok = 1;
	for (i = 0; i < NFILES; i++) {
		snprintf(p, sizeof(p), "%s/plain%d", cold, i);
		ok &= !create(p, 0) && placed(p, O_COLD, &cin, &call);
	}
	tap_ok(ok, "%d plain open()s in the cold dir: inode and data in the "
	       "cold region", NFILES);

	/* a subdirectory inherits, and passes it on */
	path_of(sub, sizeof(sub), hot, "sub");
	tap_ok(!mkdir(sub, 0755) && !strcmp(get_mark(sub), "hot"),
	       "a subdirectory of the hot dir is marked hot");
	path_of(p, sizeof(p), sub, "plain");
	tap_ok(!create(p, 0) && placed(p, O_HOT, &hin, &hall),
	       "plain open() in the subdirectory: hot region");

	/* an explicit hint wins over the mark */
	path_of(p, sizeof(p), hot, "explicit-cold");
	tap_ok(!create(p, O_COLD) && placed(p, O_COLD, &cin, &call),
	       "open(O_COLD) in the hot dir: cold region (explicit wins)");

	/* unchanged programs: busybox cp, dd, tar (static binaries) */
	path_of(p, sizeof(p), mnt, "src");
	if (mkdir(p, 0755) && errno != EEXIST)
		tap_bail("mkdir %s: %s", p, strerror(errno));
	path_of(p, sizeof(p), mnt, "src/a");
	path_of(p2, sizeof(p2), mnt, "src/b");
	if (create(p, 0) || create(p2, 0))
		tap_bail("source files in %s/src", mnt);
	{
		char dst[800], ctl[800], of[820], tarf[800], cdir[800];
		char *cp1[] = { "cp", p, dst, NULL };
		char *cp2[] = { "cp", p, ctl, NULL };
		char *dd[] = { "dd", "if=/dev/zero", of, "bs=1M", "count=4",
			       NULL };
		char *tc[] = { "tar", "-cf", tarf, "-C", cdir, "a", "b",
			       NULL };
		char *tx[] = { "tar", "-xf", tarf, "-C", cold, NULL };

		path_of(dst, sizeof(dst), hot, "cp-a");
		path_of(ctl, sizeof(ctl), mid, "cp-a-unmarked");
		snprintf(of, sizeof(of), "of=%s/dd-zero", hot);
		path_of(tarf, sizeof(tarf), mnt, "src.tar");
		path_of(cdir, sizeof(cdir), mnt, "src");
		tap_ok(!hc_run(cp1) && placed(dst, O_HOT, &hin, &hall),
		       "busybox cp into the hot dir: hot region");
		tap_ok(!hc_run(dd) && placed(of + 3, O_HOT, &hin, &hall),
		       "busybox dd of= into the hot dir: hot region");
		path_of(p, sizeof(p), cold, "a");
		path_of(p2, sizeof(p2), cold, "b");
		tap_ok(!hc_run(tc) && !hc_run(tx) &&
		       placed(p, O_COLD, &cin, &call) &&
		       placed(p2, O_COLD, &cin, &call),
		       "busybox tar -x into the cold dir: both files in the "
		       "cold region");
		tap_ok(!hc_run(cp2) && placed(ctl, 0, NULL, NULL),
		       "control: the same cp into the unmarked parent: inode "
		       "in the middle third");
	}

	/* hot: NFILES + sub + cp + dd; cold: NFILES + tar 2 + explicit */
	diag("placement: hot files %" PRIu64 "/%" PRIu64 " blocks in the hot "
	     "region, cold files %" PRIu64 "/%" PRIu64 " in the cold region",
	     hin, hall, cin, call);
	tap_ok(counter("hint_honoured") - h0 == 2 * NFILES + 6 &&
	       counter("hint_inherited") - i0 == 2 * NFILES + 5 &&
	       counter("hint_dropped_noperm") + counter("hint_dropped_nonrot")
	       == n0 && counter("hint_spilled") == s0 &&
	       counter("hint_fallback") == f0,
	       "hint_honoured +%d, hint_inherited +%d, nothing dropped, "
	       "spilled or fallen back (got +%lld, +%lld)", 2 * NFILES + 6,
	       2 * NFILES + 5, counter("hint_honoured") - h0,
	       counter("hint_inherited") - i0);
	if (tr) {
		tap_ok(0, "ext4_hotcold_alloc event at %s", EVDIR);
	} else {
		trace_stop(&from_dir, &from_open);
		tap_ok(from_dir == 2 * NFILES + 5 && from_open == 1,
		       "ext4_hotcold_alloc: %d lines 'from dir', 1 'from "
		       "open' (got %d, %d)", 2 * NFILES + 5, from_dir,
		       from_open);
	}

	unpriv(mid, hot);
}

static void mode_persist(const char *mnt)
{
	char mid[512], hot[600], cold[600], sub[700], udir[600], p[800];
	char rot[128];
	long long h0, i0, r0;
	int r;

	if (find_mid(mnt, mid, sizeof(mid)))
		tap_bail("%s/dirmark.path: run MODE mark first", mnt);
	path_of(hot, sizeof(hot), mid, "hot");
	path_of(cold, sizeof(cold), mid, "cold");
	path_of(sub, sizeof(sub), hot, "sub");
	path_of(udir, sizeof(udir), mid, "nobody");
	tap_ok(!strcmp(get_mark(hot), "hot") &&
	       !strcmp(get_mark(cold), "cold") &&
	       !strcmp(get_mark(sub), "hot") &&
	       !strcmp(get_mark(udir), "cold"),
	       "after the remount the marks are there: hot, cold, sub hot, "
	       "uid %d's dir cold", NOBODY);

	h0 = counter("hint_honoured");
	i0 = counter("hint_inherited");
	path_of(p, sizeof(p), hot, "after-remount");
	tap_ok(!create(p, 0) && placed(p, O_HOT, NULL, NULL),
	       "after the remount a plain open() in the hot dir is hot");
	path_of(p, sizeof(p), cold, "after-remount");
	tap_ok(!create(p, 0) && placed(p, O_COLD, NULL, NULL),
	       "after the remount a plain open() in the cold dir is cold");
	tap_ok(counter("hint_honoured") - h0 == 2 &&
	       counter("hint_inherited") - i0 == 2,
	       "hint_honoured +2, hint_inherited +2");

	errno = 0;
	tap_ok(!removexattr(cold, XNAME) && !strcmp(get_mark(cold), "") &&
	       errno == ENODATA, "root removes the cold mark");
	h0 = counter("hint_honoured");
	i0 = counter("hint_inherited");
	path_of(p, sizeof(p), cold, "unmarked");
	tap_ok(!create(p, 0) && counter("hint_honoured") == h0 &&
	       counter("hint_inherited") == i0,
	       "a create in the unmarked dir carries no hint");

	/* a regular file's record is the hint it was placed by: kept */
	r = err_is(removexattr(p, XNAME), ENODATA);
	tap_ok(r, "removing %s from an unhinted file: ENODATA (got %s)",
	       XNAME, got());
	path_of(p, sizeof(p), cold, "ocold");
	r = !create(p, O_COLD) && !strcmp(get_mark(p), "cold") &&
	    err_is(removexattr(p, XNAME), ENOTDIR) &&
	    !strcmp(get_mark(p), "cold");
	tap_ok(r, "an O_COLD file's %s cannot be removed (ENOTDIR, got %s; "
	       "it reads '%s')", XNAME, got(), get_mark(p));

	snprintf(rot, sizeof(rot), "/sys/block/%s/queue/rotational",
		 devname);
	if (write_str(rot, "0", 1)) {
		tap_ok(0, "set %s to 0", rot);
		return;
	}
	r0 = counter("hint_dropped_nonrot");
	i0 = counter("hint_inherited");
	path_of(p, sizeof(p), hot, "nonrot");
	tap_ok(!create(p, 0) && counter("hint_dropped_nonrot") - r0 == 1 &&
	       counter("hint_inherited") - i0 == 1,
	       "queue/rotational 0: the inherited hint is dropped "
	       "(hint_dropped_nonrot +1, hint_inherited +1)");
	tap_ok(!write_str(rot, "1", 1), "%s restored to 1", rot);
}

/* path's inode and data blocks all outside the hot region */
static int not_hot(const char *path)
{
	struct region_walk w;
	uint32_t ig;
	int ok;

	if (placement(path, 0, hot_end(&G), &ig, &w))
		return 0;
	ok = ig >= hot_end(&G) && w.all && !w.in;
	diag("  %s: inode group %u, %" PRIu64 "/%" PRIu64 " blocks in the "
	     "hot region [0,%u)%s", path, ig, w.in, w.all, hot_end(&G),
	     ok ? "" : " [BAD]");
	return ok;
}

/* uid 65534 in root's world-writable hot dir; returns the exit status */
static int escape_child(const char *hot, const char *away)
{
	char sub[700], moved[700], p[800];
	int ok = 1, r;

	if (drop_to_nobody())
		return 1;
	path_of(sub, sizeof(sub), hot, "sub");
	path_of(moved, sizeof(moved), away, "sub");
	r = mkdir(sub, 0755);
	ok &= tap_ok(!r, "uid %d: mkdir in root's hot dir (%s)", NOBODY,
		     r ? strerror(errno) : "ok");
	r = err_is(getxattr(sub, XNAME, NULL, 0), ENODATA);
	ok &= tap_ok(r, "uid %d: its subdirectory of the hot dir is not "
		     "marked (ENODATA, got %s, mark '%s')", NOBODY, got(),
		     get_mark(sub));
	r = rename(sub, moved);
	ok &= tap_ok(!r, "uid %d: renames it out of the hot dir (%s)", NOBODY,
		     r ? strerror(errno) : "ok");
	path_of(p, sizeof(p), moved, "plain");
	ok &= tap_ok(!create(p, 0) && not_hot(p), "uid %d: a plain create in "
		     "the renamed subdirectory is not in the hot region",
		     NOBODY);
	path_of(p, sizeof(p), moved, "ohot");
	ok &= tap_ok(!create(p, O_HOT) && not_hot(p), "uid %d: its O_HOT "
		     "there neither", NOBODY);
	path_of(p, sizeof(p), hot, "nobody-plain");
	ok &= tap_ok(!create(p, 0) && not_hot(p), "uid %d: a plain create in "
		     "root's hot dir is not in the hot region", NOBODY);
	return ok ? 0 : 1;
}

/* count the ext4_hotcold_alloc lines with "from dir" and outcome o */
static int trace_count(const char *o)
{
	char line[1024], want[64];
	int n = 0;
	FILE *f;

	write_str(EVDIR "/enable", "0", 1);
	snprintf(want, sizeof(want), " outcome %s ", o);
	f = fopen(TRACEFS "/trace", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "ext4_hotcold_alloc: ");

		if (!p)
			continue;
		line[strcspn(line, "\n")] = 0;
		diag("trace: %s", p);
		if (strstr(p, want) && strstr(p, " from dir"))
			n++;
	}
	fclose(f);
	return n;
}

static void mode_escape(const char *mnt)
{
	char mid[512], hot[600], away[600], p[800];
	long long h0, i0, d0;
	int status, tr, n;
	pid_t pid;

	if (find_mid(mnt, mid, sizeof(mid)))
		tap_bail("no dir with a flex group in the middle third");
	path_of(hot, sizeof(hot), mid, "ehot");
	path_of(away, sizeof(away), mid, "away");
	if (mkdir(hot, 0777) || mkdir(away, 0777) || chmod(hot, 0777) ||
	    chmod(away, 0777))
		tap_bail("mkdir in %s: %s", mid, strerror(errno));
	tap_ok(set_mark(hot, "hot") == 0 && !strcmp(get_mark(hot), "hot"),
	       "root marks %s hot (mode 0777)", hot);

	h0 = counter("hint_honoured");
	i0 = counter("hint_inherited");
	d0 = counter("hint_dropped_noperm");
	tr = trace_start();
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		tap_bail("fork: %s", strerror(errno));
	if (pid == 0)
		_exit(escape_child(hot, away));
	if (waitpid(pid, &status, 0) != pid)
		tap_bail("waitpid: %s", strerror(errno));
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "unprivileged child finished (status %#x)", status);
	/* dropped: the plain create in the hot dir and the O_HOT */
	tap_ok(counter("hint_honoured") == h0 &&
	       counter("hint_inherited") - i0 == 1 &&
	       counter("hint_dropped_noperm") - d0 == 2,
	       "uid %d: hint_honoured +0, hint_inherited +1, "
	       "hint_dropped_noperm +2 (got +%lld +%lld +%lld)", NOBODY,
	       counter("hint_honoured") - h0,
	       counter("hint_inherited") - i0,
	       counter("hint_dropped_noperm") - d0);
	if (tr) {
		tap_ok(0, "ext4_hotcold_alloc event at %s", EVDIR);
	} else {
		n = trace_count("dropped_noperm");
		tap_ok(n == 1, "ext4_hotcold_alloc: one 'from dir' line with "
		       "outcome dropped_noperm (got %d)", n);
	}

	/* root still gets the mark, in the file and in a subdirectory */
	h0 = counter("hint_honoured");
	path_of(p, sizeof(p), hot, "root-plain");
	tap_ok(!create(p, 0) && placed(p, O_HOT, NULL, NULL) &&
	       counter("hint_honoured") - h0 == 1,
	       "root: a plain create in the hot dir is hot (hint_honoured "
	       "+1)");
	path_of(p, sizeof(p), hot, "rootsub");
	tap_ok(!mkdir(p, 0755) && !strcmp(get_mark(p), "hot"),
	       "root: its subdirectory of the hot dir is marked hot");
}


/* ----------------------------------------------------------- overlay */

/* uid 65534 through the overlay; returns the exit status */
static int overlay_child(const char *ohot, const char *ocold,
			 const char *omine)
{
	char p[800];
	int ok = 1, r;

	if (drop_to_nobody())
		return 1;
	/* the creates first: the mark they meet must still be root's */
	path_of(p, sizeof(p), ohot, "nobody-plain");
	ok &= tap_ok(!create(p, 0), "uid %d: plain create in root's hot dir "
		     "through the overlay succeeds", NOBODY);
	path_of(p, sizeof(p), ocold, "nobody-plain");
	ok &= tap_ok(!create(p, 0), "uid %d: plain create in root's cold dir "
		     "through the overlay succeeds", NOBODY);
	path_of(p, sizeof(p), ohot, "sub");
	r = mkdir(p, 0755);
	ok &= tap_ok(!r, "uid %d: mkdir in root's hot dir through the overlay "
		     "(%s)", NOBODY, r ? strerror(errno) : "ok");
	r = err_is(set_mark(omine, "hot"), EPERM);
	ok &= tap_ok(r, "uid %d may not mark its own dir hot through the "
		     "overlay (EPERM, got %s)", NOBODY, got());
	r = err_is(set_mark(ohot, "cold"), EPERM) &&
	    !strcmp(get_mark(ohot), "hot");
	ok &= tap_ok(r, "uid %d may not change root's hot dir through the "
		     "overlay (EPERM, got %s)", NOBODY, got());
	r = err_is(removexattr(ohot, XNAME), EPERM);
	ok &= tap_ok(r, "uid %d may not remove root's mark through the "
		     "overlay (EPERM, got %s)", NOBODY, got());
	return ok ? 0 : 1;
}

/*
 * overlayfs works in its upper layer with the mounter's credentials (and
 * the caller's fsuid): uid 65534 must not get what root could.  Placement
 * is checked on the upper layer's paths (the overlay's inode numbers are
 * its own).
 */
static void mode_overlay(const char *mnt)
{
	char mid[512], base[600], lower[640], upper[640], work[640];
	char merged[640], uhot[700], ucold[700], umine[700], ohot[700];
	char ocold[700], omine[700], opts[2200], p[800];
	long long h0, i0, d0;
	int status, r;
	pid_t pid;

	if (find_mid(mnt, mid, sizeof(mid)))
		tap_bail("no dir with a flex group in the middle third");
	path_of(base, sizeof(base), mid, "ovl");
	path_of(lower, sizeof(lower), base, "lower");
	path_of(upper, sizeof(upper), base, "upper");
	path_of(work, sizeof(work), base, "work");
	path_of(merged, sizeof(merged), base, "merged");
	path_of(uhot, sizeof(uhot), upper, "hot");
	path_of(ucold, sizeof(ucold), upper, "cold");
	path_of(umine, sizeof(umine), upper, "mine");
	path_of(ohot, sizeof(ohot), merged, "hot");
	path_of(ocold, sizeof(ocold), merged, "cold");
	path_of(omine, sizeof(omine), merged, "mine");
	if (mkdir(base, 0755) || mkdir(lower, 0755) || mkdir(upper, 0755) ||
	    mkdir(work, 0755) || mkdir(merged, 0755) || mkdir(uhot, 0777) ||
	    mkdir(ucold, 0777) || mkdir(umine, 0755) || chmod(uhot, 0777) ||
	    chmod(ucold, 0777) || chown(umine, NOBODY, NOBODY))
		tap_bail("set up %s: %s", base, strerror(errno));
	tap_ok(set_mark(uhot, "hot") == 0 && set_mark(ucold, "cold") == 0,
	       "root marks upper/hot hot and upper/cold cold on the ext4");
	snprintf(opts, sizeof(opts), "lowerdir=%s,upperdir=%s,workdir=%s",
		 lower, upper, work);
	if (mount("overlay", merged, "overlay", 0, opts)) {
		tap_ok(0, "mount -t overlay %s: %s", opts, strerror(errno));
		return;
	}
	tap_ok(!strcmp(get_mark(ohot), "hot"),
	       "the overlay reads the hot mark of its upper dir ('%s')",
	       get_mark(ohot));

	h0 = counter("hint_honoured");
	i0 = counter("hint_inherited");
	d0 = counter("hint_dropped_noperm");
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		tap_bail("fork: %s", strerror(errno));
	if (pid == 0)
		_exit(overlay_child(ohot, ocold, omine));
	if (waitpid(pid, &status, 0) != pid)
		tap_bail("waitpid: %s", strerror(errno));
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "unprivileged child finished (status %#x)", status);
	tap_ok(!strcmp(get_mark(umine), "") && !strcmp(get_mark(uhot), "hot"),
	       "upper/mine has no mark ('%s'), upper/hot is still hot ('%s')",
	       get_mark(umine), get_mark(uhot));
	path_of(p, sizeof(p), uhot, "nobody-plain");
	tap_ok(not_hot(p), "uid %d: its create in the hot dir through the "
	       "overlay is not in the hot region", NOBODY);
	path_of(p, sizeof(p), ucold, "nobody-plain");
	tap_ok(placed(p, O_COLD, NULL, NULL), "uid %d: its create in the cold "
	       "dir through the overlay is cold", NOBODY);
	path_of(p, sizeof(p), uhot, "sub");
	r = err_is(getxattr(p, XNAME, NULL, 0), ENODATA);
	tap_ok(r, "uid %d: its subdirectory of the hot dir is not marked "
	       "(ENODATA, got %s, mark '%s')", NOBODY, got(), get_mark(p));
	/* dropped: the hot dir's file; honoured: the cold dir's */
	tap_ok(counter("hint_honoured") - h0 == 1 &&
	       counter("hint_inherited") - i0 == 2 &&
	       counter("hint_dropped_noperm") - d0 == 1,
	       "uid %d through the overlay: hint_honoured +1, hint_inherited "
	       "+2, hint_dropped_noperm +1 (got +%lld +%lld +%lld)", NOBODY,
	       counter("hint_honoured") - h0,
	       counter("hint_inherited") - i0,
	       counter("hint_dropped_noperm") - d0);

	/* root: through the overlay ext4 cannot tell it from uid 65534 */
	r = err_is(set_mark(omine, "cold"), EPERM);
	tap_ok(r, "root may not set a mark through the overlay either (EPERM, "
	       "got %s)", got());
	d0 = counter("hint_dropped_noperm");
	path_of(p, sizeof(p), ohot, "root-plain");
	r = create(p, 0);
	path_of(p, sizeof(p), uhot, "root-plain");
	tap_ok(!r && not_hot(p) && counter("hint_dropped_noperm") - d0 == 1,
	       "root: a create in the hot dir through the overlay is not hot "
	       "(hint_dropped_noperm +1)");
	if (umount(merged))
		tap_ok(0, "umount %s: %s", merged, strerror(errno));
	h0 = counter("hint_honoured");
	path_of(p, sizeof(p), uhot, "root-direct");
	tap_ok(!create(p, 0) && placed(p, O_HOT, NULL, NULL) &&
	       counter("hint_honoured") - h0 == 1,
	       "root: a create in the hot dir on the ext4 itself is hot");
}
static void mode_stock(const char *mnt)
{
	char d[600], p[700];
	char *cp[] = { "cp", "/proc/self/status", p, NULL };
	int r;

	path_of(d, sizeof(d), mnt, "hot");
	if (mkdir(d, 0755) && errno != EEXIST)
		tap_bail("mkdir %s: %s", d, strerror(errno));
	r = err_is(set_mark(d, "hot"), EOPNOTSUPP);
	tap_ok(r, "stock: %s is not supported (EOPNOTSUPP, got %s)", XNAME,
	       got());
	path_of(p, sizeof(p), d, "cp");
	tap_ok(!hc_run(cp) && !access(p, F_OK), "stock: cp into the dir works");
	skip("files in a marked directory inherit its hint",
	     "stock kernel: no O_HOT/O_COLD");
}

int main(int argc, char **argv)
{
	const char *mode, *dev, *mnt;
	char prefix[32];

	if (argc != 4) {
		fprintf(stderr, "usage: %s mark|persist|escape|overlay|stock DEV MNT\n",
			argv[0]);
		return 2;
	}
	mode = argv[1];
	dev = argv[2];
	mnt = argv[3];
	devname = dev_basename(dev);
	snprintf(prefix, sizeof(prefix), "dirmark-%s", mode);
	tap_init(prefix);
	if (geteuid() != 0)
		tap_bail("must start as root");
	if (!strcmp(mode, "stock")) {
		mode_stock(mnt);
		return tap_exit();
	}
	if (ext4_read_geom(dev, &G))
		tap_bail("cannot read ext4 superblock of %s", dev);
	ext4_print_geom(dev, &G);
	if (counter("hint_inherited") < 0)
		tap_bail("no /sys/fs/ext4/%s/hint_inherited", devname);
	if (!strcmp(mode, "mark"))
		mode_mark(mnt);
	else if (!strcmp(mode, "persist"))
		mode_persist(mnt);
	else if (!strcmp(mode, "escape"))
		mode_escape(mnt);
	else if (!strcmp(mode, "overlay"))
		mode_overlay(mnt);
	else
		tap_bail("bad MODE '%s' (mark, persist, escape, overlay or stock)",
			 mode);
	return tap_exit();
}
