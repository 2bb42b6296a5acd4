// SPDX-License-Identifier: GPL-2.0
/*
 * hc_replay MODE DEV MNT
 *
 * Fast-commit replay at mount.  The journal is recovered before mount
 * sets up ext4's per-CPU counters, and the replay marks the blocks of the
 * files it brings back with ext4_mb_mark_bb(), which also keeps the free
 * totals of the hot, middle and cold parts of the disk (patch 9); those
 * totals are per-CPU counters too, so the replay must leave them alone
 * (on a debug kernel, lockdep reports the uninitialised lock if not:
 * make guest-check-debug).  No hint is needed: any fast-commit filesystem
 * mounted after a crash replays.
 *   MODE write : (ext4 with -O fast_commit, mounted with commit=300) after
 *                a warm-up file and a full commit, write NFILES unhinted
 *                files of FSIZE and fsync each, check that
 *                they went out as fast commits (/proc/fs/ext4/DEV/fc_info),
 *                then shut the filesystem down without flushing the journal
 *                (EXT4_IOC_SHUTDOWN, NOLOGFLUSH): the files now exist only
 *                in the fast-commit log.
 *   MODE check : after umount and mount (the replay): every file is back
 *                with its size and contents.
 */
#include "hotcold_test.h"
#include <sys/ioctl.h>

#ifndef EXT4_IOC_SHUTDOWN
#define EXT4_IOC_SHUTDOWN _IOR('X', 125, uint32_t)
#endif
#ifndef EXT4_GOING_FLAGS_NOLOGFLUSH
#define EXT4_GOING_FLAGS_NOLOGFLUSH 0x2
#endif
#define NFILES 4
#define FSIZE (4u << 20)

static const char *devname;

/* fc_info's "N commits" and "N ineligible" lines; -1 if unreadable */
static void fc_stats(long *commits, long *inelig)
{
	char path[128], line[128];
	FILE *f;

	*commits = *inelig = -1;
	snprintf(path, sizeof(path), "/proc/fs/ext4/%s/fc_info", devname);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		long v;
		char what[32];

		if (sscanf(line, "%ld %31s", &v, what) != 2)
			continue;
		if (!strcmp(what, "commits"))
			*commits = v;
		else if (!strcmp(what, "ineligible"))
			*inelig = v;
	}
	fclose(f);
}

static void file_path(char *buf, size_t len, const char *mnt, int i)
{
	snprintf(buf, len, "%s/replay-%d", mnt, i);
}

static void mode_write(const char *mnt)
{
	long c0, e0, c1, e1;
	uint32_t how = EXT4_GOING_FLAGS_NOLOGFLUSH;
	char p[600];
	int i, fd, ok = 1;

	/*
	 * The first fsync after mount may not be a fast commit (it can find
	 * the filesystem ineligible): make one, and a full commit, first.
	 */
	file_path(p, sizeof(p), mnt, NFILES);
	fd = open(p, O_CREAT | O_EXCL | O_WRONLY, 0644);
	if (fd < 0 || write_fill(fd, 4096, 1) || syncfs(fd))
		tap_bail("warm-up file %s: %s", p, strerror(errno));
	close(fd);
	fc_stats(&c0, &e0);
	if (c0 < 0)
		tap_bail("no /proc/fs/ext4/%s/fc_info (not a fast-commit "
			 "ext4?)", devname);
	for (i = 0; i < NFILES; i++) {
		file_path(p, sizeof(p), mnt, i);
		fd = open(p, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0 || write_fill(fd, FSIZE, (unsigned char)i)) {
			ok = 0;
			diag("create %s: %s", p, strerror(errno));
		}
		if (fd >= 0)
			close(fd);
	}
	tap_ok(ok, "%d files of %u MiB written and fsynced", NFILES,
	       FSIZE >> 20);
	fc_stats(&c1, &e1);
	tap_ok(c1 - c0 == NFILES && e1 == e0,
	       "the fsyncs were fast commits (commits +%ld, ineligible +%ld)",
	       c1 - c0, e1 - e0);
	fd = open(mnt, O_RDONLY | O_DIRECTORY);
	tap_ok(fd >= 0 && !ioctl(fd, EXT4_IOC_SHUTDOWN, &how),
	       "EXT4_IOC_SHUTDOWN NOLOGFLUSH on %s (%s)", mnt,
	       fd < 0 ? strerror(errno) : "ok");
	if (fd >= 0)
		close(fd);
}

static void mode_check(const char *mnt)
{
	static unsigned char want[1 << 20], got[1 << 20];
	char p[600];
	struct stat st;
	int i, fd, good = 0;

	for (i = 0; i < NFILES; i++) {
		size_t off, j;
		int same = 1;

		file_path(p, sizeof(p), mnt, i);
		for (j = 0; j < sizeof(want); j++)
			want[j] = (unsigned char)((unsigned char)i + j * 7);
		fd = open(p, O_RDONLY);
		if (fd < 0 || fstat(fd, &st) || st.st_size != FSIZE) {
			diag("%s: %s", p, fd < 0 ? strerror(errno) :
			     "wrong size");
			if (fd >= 0)
				close(fd);
			continue;
		}
		for (off = 0; off < FSIZE && same; off += sizeof(got))
			same = pread(fd, got, sizeof(got), (off_t)off) ==
			       (ssize_t)sizeof(got) &&
			       !memcmp(got, want, sizeof(got));
		close(fd);
		if (same)
			good++;
		else
			diag("%s: contents differ", p);
	}
	tap_ok(good == NFILES, "after the replay: %d of %d files back with "
	       "their size and contents", good, NFILES);
}

int main(int argc, char **argv)
{
	char prefix[32];

	if (argc != 4) {
		fprintf(stderr, "usage: %s write|check DEV MNT\n", argv[0]);
		return 2;
	}
	devname = dev_basename(argv[2]);
	snprintf(prefix, sizeof(prefix), "replay-%s", argv[1]);
	tap_init(prefix);
	if (!strcmp(argv[1], "write"))
		mode_write(argv[3]);
	else if (!strcmp(argv[1], "check"))
		mode_check(argv[3]);
	else
		tap_bail("bad MODE '%s' (write or check)", argv[1]);
	return tap_exit();
}
