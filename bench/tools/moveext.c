// SPDX-License-Identifier: GPL-2.0
/*
 * moveext.c - the move machinery of hc-move, shared with hc-track and
 * hc-where (see moveext.h; the move is described in bench/tools/hc-move.c).
 */
#include <errno.h>
#include <fcntl.h>
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
#include "moveext.h"

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

const char *const hc_target_name[] = { "hot", "cold", "none" };
const char *hc_prog = "hc-move";

double hc_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* the superblock of the ext4 @fd is on (/sys/dev/block/M:m/uevent) */
int hc_read_sb(int fd, const char *path, struct hc_sb *sb)
{
	unsigned char buf[HC_SB_SIZE];
	char sys[64], line[256], dev[300] = "";
	const char *why = NULL;
	struct statfs sfs;
	struct stat st;
	FILE *fp;
	int dfd;

	if (fstatfs(fd, &sfs) || fstat(fd, &st)) {
		fprintf(stderr, "%s: %s: %s\n", hc_prog, path, strerror(errno));
		return -1;
	}
	if (sfs.f_type != HC_EXT4_SUPER_MAGIC) {
		fprintf(stderr, "%s: %s: not on ext4 (statfs magic 0x%lx)\n",
			hc_prog, path, (unsigned long)sfs.f_type);
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
		fprintf(stderr, "%s: %s: no block device in %s\n", hc_prog,
			path, sys);
		return -1;
	}
	dfd = open(dev, O_RDONLY | O_CLOEXEC);
	if (dfd < 0 || pread(dfd, buf, sizeof(buf), HC_SB_OFFSET) != sizeof(buf)) {
		fprintf(stderr, "%s: %s: reading the superblock of %s: %s\n",
			hc_prog, path, dev,
			dfd < 0 ? strerror(errno) : "short read");
		if (dfd >= 0)
			close(dfd);
		return -1;
	}
	close(dfd);
	if (hc_parse_sb(buf, sb, &why)) {
		fprintf(stderr, "%s: %s: %s: %s\n", hc_prog, path, dev, why);
		return -1;
	}
	return 0;
}

int hc_thirds(int fd, const struct hc_sb *sb, uint64_t bytes[3])
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

double hc_frac(const uint64_t b[3], int i)
{
	uint64_t t = b[0] + b[1] + b[2];

	return t ? (double)b[i] / t : 0;
}

int hc_target_third(enum hc_target t)
{
	return t == HC_HOT ? 0 : t == HC_COLD ? 2 : -1;
}

/* a donor next to @path, created with the hint and unlinked; -1 on error */
static int make_donor(const char *path, enum hc_target t)
{
	char dir[PATH_MAX], name[PATH_MAX + 32];
	const char *slash = strrchr(path, '/');
	int flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fd, i;

	if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path + 1), path);
	else
		dir[0] = '\0';
	if (t == HC_HOT)
		flags |= O_HOT;
	else if (t == HC_COLD)
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
	fprintf(stderr, "%s: %s: creating the donor %s: %s%s\n", hc_prog, path,
		name, strerror(errno),
		errno == EINVAL && t != HC_NONE ?
		" (does this kernel know O_HOT/O_COLD?)" : "");
	return -1;
}

int hc_move_file(const char *path, enum hc_target t,
		 const struct hc_move_opts *o, struct hc_move_result *r)
{
	uint64_t donor[3];
	int fd = -1, dfd = -1, want = hc_target_third(t), ret = 1;
	struct hc_sb sb;
	double t0 = hc_now();

	memset(r, 0, sizeof(*r));
	if (stat(path, &r->st)) {
		fprintf(stderr, "%s: %s: %s\n", hc_prog, path, strerror(errno));
		goto err;
	}
	if (!S_ISREG(r->st.st_mode)) {
		fprintf(stderr, "%s: %s: not a regular file\n", hc_prog, path);
		goto err;
	}
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &r->st)) {
		fprintf(stderr, "%s: %s: %s\n", hc_prog, path, strerror(errno));
		goto err;
	}
	if (hc_read_sb(fd, path, &sb))
		goto err;
	if (hc_thirds(fd, &sb, r->before)) {
		fprintf(stderr, "%s: %s: FIEMAP: %s\n", hc_prog, path,
			strerror(errno));
		goto err;
	}
	if (!r->st.st_size || (want >= 0 && hc_frac(r->before, want) >= o->min_frac &&
			       o->min_frac > 0)) {
		r->outcome = "already";
		memcpy(r->after, r->before, sizeof(r->after));
		r->seconds = hc_now() - t0;
		close(fd);
		return 0;
	}
	dfd = make_donor(path, t);
	if (dfd < 0)
		goto err;
	if (fallocate(dfd, 0, 0, r->st.st_size)) {
		fprintf(stderr, "%s: %s: fallocate of the donor (%llu bytes): %s\n",
			hc_prog, path, (unsigned long long)r->st.st_size,
			strerror(errno));
		goto err;
	}
	if (hc_thirds(dfd, &sb, donor)) {
		fprintf(stderr, "%s: %s: FIEMAP of the donor: %s\n", hc_prog,
			path, strerror(errno));
		goto err;
	}
	if (want >= 0 && hc_frac(donor, want) < o->min_frac) {
		fprintf(stderr, "%s: %s: the donor got %.0f%% of its blocks in the %s region, want %.0f%%%s; file left as it was\n",
			hc_prog, path, 100 * hc_frac(donor, want),
			hc_target_name[t], 100 * o->min_frac,
			t == HC_HOT && geteuid() ?
			" (O_HOT needs CAP_SYS_RESOURCE)" : " (is the region full?)");
		r->outcome = "misplaced";
		memcpy(r->after, donor, sizeof(r->after));
		r->seconds = hc_now() - t0;
		close(dfd);
		close(fd);
		return 1;
	}
	if (o->dry_run) {
		r->outcome = "dry_run";
		memcpy(r->after, donor, sizeof(r->after));
		r->seconds = hc_now() - t0;
		close(dfd);
		close(fd);
		return 0;
	}
	while (r->moved < (uint64_t)r->st.st_size) {
		uint64_t blk = r->moved / sb.block_size;
		uint64_t left = ((uint64_t)r->st.st_size + sb.block_size - 1) /
				sb.block_size - blk;
		uint64_t chunk = CHUNK_BYTES / sb.block_size;
		struct move_extent me = {
			.donor_fd = dfd,
			.orig_start = blk,
			.donor_start = blk,
			.len = left < chunk ? left : chunk,
		};

		if (ioctl(fd, EXT4_IOC_MOVE_EXT, &me) || !me.moved_len) {
			fprintf(stderr, "%s: %s: EXT4_IOC_MOVE_EXT at block %llu: %s\n",
				hc_prog, path, (unsigned long long)blk,
				me.moved_len ? strerror(errno) : "nothing moved");
			goto err;
		}
		r->moved += me.moved_len * sb.block_size;
	}
	if (r->moved > (uint64_t)r->st.st_size)
		r->moved = r->st.st_size;
	if (fsync(fd) || hc_thirds(fd, &sb, r->after)) {
		fprintf(stderr, "%s: %s: after the move: %s\n", hc_prog, path,
			strerror(errno));
		goto err;
	}
	r->outcome = "moved";
	if (!o->quiet)
		fprintf(stderr, "%s: %s: %llu bytes moved to %s: first/middle/last %.2f/%.2f/%.2f -> %.2f/%.2f/%.2f\n",
			hc_prog, path, (unsigned long long)r->moved,
			hc_target_name[t],
			hc_frac(r->before, 0), hc_frac(r->before, 1),
			hc_frac(r->before, 2), hc_frac(r->after, 0),
			hc_frac(r->after, 1), hc_frac(r->after, 2));
	r->seconds = hc_now() - t0;
	ret = 0;
	goto out;
err:
	r->outcome = "error";
	memset(r->after, 0, sizeof(r->after));
	r->seconds = hc_now() - t0;
out:
	if (dfd >= 0)
		close(dfd);
	if (fd >= 0)
		close(fd);
	return ret;
}

/* a CSV field to O: quoted (RFC 4180) when it holds a comma, a quote or a newline */
void csv_field(FILE *o, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, o);
		return;
	}
	putc('"', o);
	for (; *s; s++) {
		if (*s == '"')
			putc('"', o);
		putc(*s, o);
	}
	putc('"', o);
}
