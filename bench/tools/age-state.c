// SPDX-License-Identifier: GPL-2.0
/*
 * age-state.c - hc-age after the run: the manifest's digest row and
 * the state (state.txt and stdout), with the extents per file (FIEMAP)
 * and the thirds of the directories' inodes in a real run (the contract
 * in age.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include "hotcold-map.h"
#include "age.h"

static uint64_t count_extents(const char *path)
{
	enum { BATCH = 256 };
	static union {
		struct fiemap fm;
		char b[sizeof(struct fiemap) + BATCH * sizeof(struct fiemap_extent)];
	} u;
	struct fiemap *fm = &u.fm;
	struct fiemap_extent *last;
	uint64_t n = 0, start = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		die_sys("cannot open", path);
	for (;;) {
		memset(fm, 0, sizeof(*fm));
		fm->fm_start = start;
		fm->fm_length = FIEMAP_MAX_OFFSET - start;
		fm->fm_extent_count = BATCH;
		if (ioctl(fd, FS_IOC_FIEMAP, fm))
			die_sys("FIEMAP", path);
		n += fm->fm_mapped_extents;
		last = &fm->fm_extents[BATCH - 1];
		if (fm->fm_mapped_extents < BATCH || (last->fe_flags & FIEMAP_EXTENT_LAST))
			break;
		start = last->fe_logical + last->fe_length;
	}
	close(fd);
	return n;
}

static void extent_stats(FILE *st)
{
	size_t i, n = nlive + nsetf;
	uint64_t *ext = calloc(n + 1, sizeof(*ext));
	char rel[PATH_MAX];

	if (!ext)
		die(1, "out of memory");
	for (i = 0; i < n; i++)
		ext[i] = count_extents(abs_path(rel_path(rel, sizeof(rel),
				i < nlive ? &live[i] : &setf[i - nlive])));
	qsort(ext, n, sizeof(*ext), hc_cmp_u64);
	fprintf(st, "extents_per_file_mean=%.2f\nextents_per_file_p50=%" PRIu64
		"\nextents_per_file_p90=%" PRIu64 "\nextents_per_file_max=%" PRIu64 "\n",
		hc_mean(ext, n), hc_percentile(ext, n, 50),
		hc_percentile(ext, n, 90), n ? ext[n - 1] : 0);
	free(ext);
}

/* the thirds of the disk holding the dNN inodes, or a note why not */
static void dir_thirds(FILE *st)
{
	char path[PATH_MAX], line[256], dev[sizeof(line) + 8] = "";
	uint64_t thirds[3] = { 0, 0, 0 }, d;
	unsigned char b[HC_SB_SIZE];
	const char *err = NULL;
	struct hc_sb sb;
	struct stat s;
	FILE *fp;
	int fd;

	if (stat(root, &s))
		die_sys("stat", root);
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/uevent",
		 major(s.st_dev), minor(s.st_dev));
	fp = fopen(path, "r");
	while (fp && fgets(line, sizeof(line), fp))
		if (!strncmp(line, "DEVNAME=", 8))
			snprintf(dev, sizeof(dev), "/dev/%.*s",
				 (int)strcspn(line + 8, "\n"), line + 8);
	if (fp)
		fclose(fp);
	if (!*dev) {
		add_note("no dirs_first/middle/last: no DEVNAME in %s", path);
		return;
	}
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || pread(fd, b, sizeof(b), HC_SB_OFFSET) != sizeof(b))
		err = strerror(errno);
	else if (hc_parse_sb(b, &sb, &err))
		err = err ? err : "bad superblock";
	if (fd >= 0)
		close(fd);
	if (err) {
		add_note("no dirs_first/middle/last: superblock of %s: %s", dev, err);
		return;
	}
	for (d = 0; d < opt_dirs; d++) {
		snprintf(line, sizeof(line), "d%02" PRIu64, d);
		if (stat(abs_path(line), &s))
			die_sys("stat", abs_path(line));
		thirds[hc_group_third(sb.ngroups, hc_inode_group(&sb, s.st_ino))]++;
	}
	fprintf(st, "dirs_first=%" PRIu64 "\ndirs_middle=%" PRIu64 "\ndirs_last=%"
		PRIu64 "\n", thirds[0], thirds[1], thirds[2]);
}

void finish(const struct timespec *t0)
{
	char *text = NULL, path[PATH_MAX + 16], *slash;
	double real_pct = model_pct();
	struct timespec t1;
	struct statfs sfs;
	size_t len = 0;
	FILE *st;
	int fd;

	fprintf(man, "digest,,,,,,%016" PRIx64 "\n", digest);
	if (fflush(man) || (man != stdout && ((!opt_dry && fsync(fileno(man))) || fclose(man))))
		die_sys("cannot write manifest", man_path);
	if (!opt_dry) {
		fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0 || syncfs(fd) || close(fd) || statfs(root, &sfs))
			die_sys("syncfs/statfs", root);
		real_pct = 100.0 * (sfs.f_blocks - sfs.f_bfree) / sfs.f_blocks;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	st = open_memstream(&text, &len);
	if (!st)
		die(1, "out of memory");
	fprintf(st, "mode=%s\nroot=%s\nseed=%" PRIu64 "\ntarget_pct=%g\nfs_bytes=%" PRIu64
		"\nblock_size=%" PRIu64 "\nstart_used_blocks=%" PRIu64
		"\nfullness_pct=%.2f\nmodel_fullness_pct=%.2f\nfiles_live=%zu\nfiles_created=%"
		PRIu64 "\nfiles_deleted=%" PRIu64 "\nbytes_churned=%" PRIu64 "\ndirs=%" PRIu64
		"\nsubdirs=%" PRIu64 "\nset_files=%zu\ndigest=%016" PRIx64
		"\nsize_model=impressions-fast09\nelapsed_s=%.1f\n",
		opt_dry ? "dry-run" : "real", root, opt_seed, opt_target, fblocks * bsize,
		bsize, start_used, real_pct, model_pct(), nlive + nsetf, created, deleted,
		churned, opt_dirs, opt_subdirs, nsetf, digest,
		(t1.tv_sec - t0->tv_sec) + (t1.tv_nsec - t0->tv_nsec) / 1e9);
	if (!opt_dry) {
		extent_stats(st);
		dir_thirds(st);
	}
	if (*notes)
		fprintf(st, "note=%s\n", notes);
	fclose(st);
	fputs(text, stdout);
	if (man != stdout) {
		strcpy(path, man_path);
		slash = strrchr(path, '/');
		strcpy(slash ? slash + 1 : path, "state.txt");
		st = fopen(path, "w");
		if (!st || fputs(text, st) == EOF || fclose(st))
			die_sys("cannot write", path);
	}
	free(text);
}
