// SPDX-License-Identifier: GPL-2.0
/*
 * hc-move - move an existing file's data into ext4's hot or cold region,
 * online, with EXT4_IOC_MOVE_EXT (the interface e4defrag uses).
 *
 * SYNOPSIS
 *	hc-move [--dry-run] [--min-frac F] [--quiet] hot|cold|none FILE...
 *	hc-move [options] --rank LIST --top N [--demote] hot
 *
 * DESCRIPTION
 *	For each FILE (a regular file on a mounted ext4): a donor file is
 *	created next to it with O_CREAT|O_EXCL and the hint (O_HOT, O_COLD or
 *	none), unlinked at once, and fallocate()d to the file's size, so that
 *	the filesystem's allocator places the donor's blocks in the region the
 *	hint asks for.  Only if at least --min-frac of the donor's bytes are in
 *	the region's third of the disk (the O_HOT/O_COLD ABI's thirds: hot =
 *	the first third of the block groups, cold = the last) is the data
 *	moved: EXT4_IOC_MOVE_EXT copies the file's data into the donor's
 *	blocks and exchanges the two block maps, in chunks of 64 MiB.  The
 *	file keeps its inode number, its name, its contents and its open file
 *	descriptors; the kernel locks both inodes and the pages it moves, so
 *	concurrent readers see the file's data throughout (e4defrag's
 *	guarantee).  The file's old blocks go with the donor, which is freed.
 *	"none" moves the data to where an unhinted file of that size would go.
 *
 *	O_HOT needs CAP_SYS_RESOURCE, as for any O_HOT create: without it the
 *	kernel drops the hint, the donor lands where unhinted data goes, and
 *	hc-move says so and leaves the file as it was (exit status 1).
 *
 *	The hint itself is not recorded on the file (the series keeps it for
 *	files created with it); later appends are placed as for an unhinted
 *	file.
 *
 * POLICY MODE
 *	--rank LIST: LIST has one line per file, "READS PATH" (reads counted
 *	from the disk model's trace, fio's per-file statistics, or anything
 *	else); the --top N files with the most reads are moved to the region
 *	given (hot), and with --demote the others are moved to cold.  Lines
 *	starting with # are comments.
 *
 * OUTPUT
 *	One CSV row per file on stdout, after a header row:
 *	  file,inode,size,target,outcome,moved_bytes,seconds,
 *	  first_before,middle_before,last_before,first_after,middle_after,
 *	  last_after
 *	A FILE holding a comma or a quote is quoted as RFC 4180 says.
	first/middle/last: the fraction of the file's bytes in each third of
 *	the disk before and after; outcome: moved, dry_run, already (at least
 *	--min-frac already in the region: nothing done), misplaced (the donor
 *	was not placed in the region; nothing done), or error.
 *
 * OPTIONS
 *	--min-frac F  fraction of the donor that must be in the region
 *	              (default 0.9; 0 moves whatever the allocator gave)
 *	--dry-run     place the donor and report, but do not move
 *	--quiet       no messages on stderr except errors
 *
 * EXIT STATUS
 *	0 when every file is moved (or already in its region), 1 when one
 *	could not be, 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <linux/fiemap.h>
#include <linux/fs.h>

#include "hotcold-flags.h"
#include "hotcold-fiemap.h"

/* fs/ext4/ext4.h; not in the uapi headers of 6.1 */
struct move_extent {
	uint32_t reserved;
	uint32_t donor_fd;
	uint64_t orig_start;
	uint64_t donor_start;
	uint64_t len;
	uint64_t moved_len;
};
#define EXT4_IOC_MOVE_EXT	_IOWR('f', 15, struct move_extent)

#define CHUNK_BYTES	(64ULL << 20)

enum target { T_HOT, T_COLD, T_NONE };
static const char *const target_name[] = { "hot", "cold", "none" };

static double min_frac = 0.9;
static int dry_run, quiet;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: hc-move [--dry-run] [--min-frac F] [--quiet] hot|cold|none FILE...\n"
		"       hc-move [options] --rank LIST --top N [--demote] hot\n"
		"Moves each FILE's data into ext4's hot or cold region (EXT4_IOC_MOVE_EXT);\n"
		"the inode, name and contents stay.  See the header of bench/move.c.\n");
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* the superblock of the ext4 @fd is on (/sys/dev/block/M:m/uevent) */
static int read_sb(int fd, const char *path, struct hc_sb *sb)
{
	unsigned char buf[HC_SB_SIZE];
	char sys[64], line[256], dev[300] = "";
	const char *why = NULL;
	struct statfs sfs;
	struct stat st;
	FILE *fp;
	int dfd;

	if (fstatfs(fd, &sfs) || fstat(fd, &st)) {
		fprintf(stderr, "hc-move: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (sfs.f_type != HC_EXT4_SUPER_MAGIC) {
		fprintf(stderr, "hc-move: %s: not on ext4 (statfs magic 0x%lx)\n",
			path, (unsigned long)sfs.f_type);
		return -1;
	}
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/uevent",
		 major(st.st_dev), minor(st.st_dev));
	fp = fopen(sys, "r");
	while (fp && fgets(line, sizeof(line), fp))
		if (!strncmp(line, "DEVNAME=", 8)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(dev, sizeof(dev), "/dev/%s", line + 8);
		}
	if (fp)
		fclose(fp);
	if (!dev[0]) {
		fprintf(stderr, "hc-move: %s: no block device in %s\n", path, sys);
		return -1;
	}
	dfd = open(dev, O_RDONLY | O_CLOEXEC);
	if (dfd < 0 || pread(dfd, buf, sizeof(buf), HC_SB_OFFSET) != sizeof(buf)) {
		fprintf(stderr, "hc-move: %s: reading the superblock of %s: %s\n",
			path, dev, dfd < 0 ? strerror(errno) : "short read");
		if (dfd >= 0)
			close(dfd);
		return -1;
	}
	close(dfd);
	if (hc_parse_sb(buf, sb, &why)) {
		fprintf(stderr, "hc-move: %s: %s: %s\n", path, dev, why);
		return -1;
	}
	return 0;
}

/* bytes of @fd in each third of the disk (FIEMAP, after a sync) */
static int thirds(int fd, const struct hc_sb *sb, uint64_t bytes[3])
{
	struct hc_extent *e;
	size_t n, i;
	int err = hc_fiemap(fd, &e, &n);

	bytes[0] = bytes[1] = bytes[2] = 0;
	if (err) {
		errno = err;
		return -1;
	}
	for (i = 0; i < n; i++)
		if (e[i].mapped)
			hc_range_thirds(sb, e[i].physical, e[i].length, bytes);
	free(e);
	return 0;
}

static double frac(const uint64_t b[3], int i)
{
	uint64_t t = b[0] + b[1] + b[2];

	return t ? (double)b[i] / t : 0;
}

/* the third a target fills: 0 first, 2 last, -1 none */
static int target_third(enum target t)
{
	return t == T_HOT ? 0 : t == T_COLD ? 2 : -1;
}

/* a CSV field: quoted (RFC 4180) when it holds a comma, a quote or a newline */
static void csv_field(const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

static void row(const char *path, const struct stat *st, enum target t,
		const char *outcome, uint64_t moved, double secs,
		const uint64_t before[3], const uint64_t after[3])
{
	csv_field(path);
	printf(",%llu,%llu,%s,%s,%llu,%.3f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f\n",
	       (unsigned long long)st->st_ino,
	       (unsigned long long)st->st_size, target_name[t], outcome,
	       (unsigned long long)moved, secs,
	       frac(before, 0), frac(before, 1), frac(before, 2),
	       frac(after, 0), frac(after, 1), frac(after, 2));
	fflush(stdout);
}

/* a donor next to @path, created with the hint and unlinked; -1 on error */
static int make_donor(const char *path, enum target t)
{
	char dir[PATH_MAX], name[PATH_MAX + 32];
	const char *slash = strrchr(path, '/');
	int flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fd, i;

	if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path + 1), path);
	else
		dir[0] = '\0';
	if (t == T_HOT)
		flags |= O_HOT;
	else if (t == T_COLD)
		flags |= O_COLD;
	for (i = 0; i < 100; i++) {
		snprintf(name, sizeof(name), "%s.hc-move.%d.%d", dir,
			 (int)getpid(), i);
		fd = open(name, flags, 0600);
		if (fd >= 0) {
			unlink(name);
			return fd;
		}
		if (errno != EEXIST)
			break;
	}
	fprintf(stderr, "hc-move: %s: creating the donor %s: %s%s\n", path,
		name, strerror(errno),
		errno == EINVAL && t != T_NONE ?
		" (does this kernel know O_HOT/O_COLD?)" : "");
	return -1;
}

/* 0 moved or nothing to do, 1 not moved */
static int move_one(const char *path, enum target t)
{
	uint64_t before[3] = { 0 }, after[3] = { 0 }, donor[3], moved = 0;
	const uint64_t zero[3] = { 0 };
	int fd = -1, dfd = -1, want = target_third(t), ret = 1;
	struct hc_sb sb;
	struct stat st;
	double t0 = now_s();

	memset(&st, 0, sizeof(st));
	if (stat(path, &st)) {
		fprintf(stderr, "hc-move: %s: %s\n", path, strerror(errno));
		goto err;
	}
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, "hc-move: %s: not a regular file\n", path);
		goto err;
	}
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "hc-move: %s: %s\n", path, strerror(errno));
		goto err;
	}
	if (read_sb(fd, path, &sb))
		goto err;
	if (thirds(fd, &sb, before)) {
		fprintf(stderr, "hc-move: %s: FIEMAP: %s\n", path, strerror(errno));
		goto err;
	}
	if (!st.st_size || (want >= 0 && frac(before, want) >= min_frac &&
			    min_frac > 0)) {
		row(path, &st, t, "already", 0, now_s() - t0, before, before);
		close(fd);
		return 0;
	}
	dfd = make_donor(path, t);
	if (dfd < 0)
		goto err;
	if (fallocate(dfd, 0, 0, st.st_size)) {
		fprintf(stderr, "hc-move: %s: fallocate of the donor (%llu bytes): %s\n",
			path, (unsigned long long)st.st_size, strerror(errno));
		goto err;
	}
	if (thirds(dfd, &sb, donor)) {
		fprintf(stderr, "hc-move: %s: FIEMAP of the donor: %s\n", path,
			strerror(errno));
		goto err;
	}
	if (want >= 0 && frac(donor, want) < min_frac) {
		fprintf(stderr, "hc-move: %s: the donor got %.0f%% of its blocks in the %s region, want %.0f%%%s; file left as it was\n",
			path, 100 * frac(donor, want), target_name[t],
			100 * min_frac,
			t == T_HOT && geteuid() ?
			" (O_HOT needs CAP_SYS_RESOURCE)" : " (is the region full?)");
		row(path, &st, t, "misplaced", 0, now_s() - t0, before, donor);
		close(dfd);
		close(fd);
		return 1;
	}
	if (dry_run) {
		row(path, &st, t, "dry_run", 0, now_s() - t0, before, donor);
		close(dfd);
		close(fd);
		return 0;
	}
	while (moved < (uint64_t)st.st_size) {
		uint64_t blk = moved / sb.block_size;
		uint64_t left = ((uint64_t)st.st_size + sb.block_size - 1) /
				sb.block_size - blk;
		uint64_t chunk = CHUNK_BYTES / sb.block_size;
		struct move_extent me = {
			.donor_fd = dfd,
			.orig_start = blk,
			.donor_start = blk,
			.len = left < chunk ? left : chunk,
		};

		if (ioctl(fd, EXT4_IOC_MOVE_EXT, &me) || !me.moved_len) {
			fprintf(stderr, "hc-move: %s: EXT4_IOC_MOVE_EXT at block %llu: %s\n",
				path, (unsigned long long)blk,
				me.moved_len ? strerror(errno) : "nothing moved");
			goto err;
		}
		moved += me.moved_len * sb.block_size;
	}
	if (moved > (uint64_t)st.st_size)
		moved = st.st_size;
	if (fsync(fd) || thirds(fd, &sb, after)) {
		fprintf(stderr, "hc-move: %s: after the move: %s\n", path,
			strerror(errno));
		goto err;
	}
	row(path, &st, t, "moved", moved, now_s() - t0, before, after);
	if (!quiet)
		fprintf(stderr, "hc-move: %s: %llu bytes moved to %s: first/middle/last %.2f/%.2f/%.2f -> %.2f/%.2f/%.2f\n",
			path, (unsigned long long)moved, target_name[t],
			frac(before, 0), frac(before, 1), frac(before, 2),
			frac(after, 0), frac(after, 1), frac(after, 2));
	ret = 0;
	goto out;
err:
	row(path, &st, t, "error", moved, now_s() - t0, before, zero);
out:
	if (dfd >= 0)
		close(dfd);
	if (fd >= 0)
		close(fd);
	return ret;
}

struct ranked {
	long long reads;
	char *path;
};

static int by_reads(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	return x->reads < y->reads ? 1 : x->reads > y->reads ? -1 : 0;
}

static int policy(const char *list, long top, int demote, enum target t)
{
	struct ranked *r = NULL, *tmp;
	size_t n = 0, cap = 0, i;
	char line[PATH_MAX + 64];
	FILE *fp = fopen(list, "r");
	int ret = 0, lineno = 0;

	if (!fp) {
		fprintf(stderr, "hc-move: --rank %s: %s\n", list, strerror(errno));
		return 2;
	}
	while (fgets(line, sizeof(line), fp)) {
		char *p = line, *end;
		long long reads;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		reads = strtoll(p, &end, 10);
		if (end == p || *end != ' ' || reads < 0 || !end[1]) {
			fprintf(stderr, "hc-move: --rank %s:%d: want \"READS PATH\", got \"%s\"\n",
				list, lineno, line);
			ret = 2;
			break;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			tmp = realloc(r, cap * sizeof(*r));
			if (!tmp) {
				ret = 2;
				break;
			}
			r = tmp;
		}
		r[n].reads = reads;
		r[n].path = strdup(end + 1);
		n++;
	}
	fclose(fp);
	if (!ret) {
		qsort(r, n, sizeof(*r), by_reads);
		for (i = 0; i < n; i++) {
			if ((long)i < top)
				ret |= move_one(r[i].path, t);
			else if (demote)
				ret |= move_one(r[i].path, T_COLD);
		}
	}
	for (i = 0; i < n; i++)
		free(r[i].path);
	free(r);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "min-frac", required_argument, NULL, 'f' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "rank", required_argument, NULL, 'r' },
		{ "top", required_argument, NULL, 't' },
		{ "demote", no_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *rank = NULL;
	long top = -1;
	int c, i, demote = 0, ret = 0;
	enum target t;
	char *end;

	while ((c = getopt_long(argc, argv, "f:nqr:t:dh", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			min_frac = strtod(optarg, &end);
			if (end == optarg || *end || min_frac < 0 || min_frac > 1) {
				fprintf(stderr, "hc-move: --min-frac '%s': give a fraction from 0 to 1\n",
					optarg);
				return 2;
			}
			break;
		case 'n':
			dry_run = 1;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'r':
			rank = optarg;
			break;
		case 't':
			top = strtol(optarg, &end, 10);
			if (end == optarg || *end || top < 0) {
				fprintf(stderr, "hc-move: --top '%s': give a whole number >= 0\n",
					optarg);
				return 2;
			}
			break;
		case 'd':
			demote = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[optind], "hot"))
		t = T_HOT;
	else if (!strcmp(argv[optind], "cold"))
		t = T_COLD;
	else if (!strcmp(argv[optind], "none"))
		t = T_NONE;
	else {
		fprintf(stderr, "hc-move: '%s': the target is hot, cold or none\n",
			argv[optind]);
		return 2;
	}
	optind++;
	if (rank && (top < 0 || optind < argc)) {
		fprintf(stderr, "hc-move: --rank takes --top N and no FILE arguments\n");
		return 2;
	}
	if (!rank && (top >= 0 || demote)) {
		fprintf(stderr, "hc-move: --top and --demote go with --rank LIST\n");
		return 2;
	}
	if (!rank && optind >= argc) {
		fprintf(stderr, "hc-move: no FILE given\n");
		return 2;
	}
	printf("file,inode,size,target,outcome,moved_bytes,seconds,first_before,middle_before,last_before,first_after,middle_after,last_after\n");
	if (rank)
		return policy(rank, top, demote, t);
	for (i = optind; i < argc; i++)
		ret |= move_one(argv[i], t);
	return ret;
}
