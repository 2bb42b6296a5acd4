// SPDX-License-Identifier: GPL-2.0
/*
 * hc-arrayload - files created O_HOT, O_COLD and unhinted on an ext4 that
 * sits on an array (hc-array), where FIEMAP says their data is on each
 * member, then read back in phases the members' traces can tell apart.
 *
 *   hc-arrayload [options] LAYOUT ARRAYDEV MNT MEMBER...
 *     LAYOUT      raid0:CHUNK_KIB or linear (as given to hc-array build)
 *     ARRAYDEV    the array's block device (its size is checked against
 *                 LAYOUT and the members')
 *     MNT         where the ext4 on ARRAYDEV is mounted
 *     MEMBER...   the members, in the array's order
 *   --files N     files per class (default 4)
 *   --size SIZE   bytes per file, a multiple of 4 KiB (default 8M)
 *   --io SIZE     sequential read size, O_DIRECT (default 2M)
 *   --rand N      random 4 KiB O_DIRECT reads per class (default 200)
 *   --seed S      seed of the random reads (default 1)
 *   --tag T       name the output files T-fiemap.csv, T-guest.csv
 *   --out DIR     write the output files in DIR (default: the current
 *                 folder; in a guest, /out: vm/runner/run --out)
 *
 * Classes, in order: hot (O_HOT), cold (O_COLD), none (no hint); files
 * MNT/CLASS-NN, written in 1 MiB write()s and fsync()ed one by one.  Then
 * sync, drop_caches, every file opened (its inode read now, not in a phase)
 * and, per class, two phases: a sequential read of every file (phase
 * "seq") and --rand random 4 KiB reads over the class's files ("rand").
 * One request at a time throughout (queue depth 1).
 *
 * Each phase starts with a marker: an O_DIRECT read of K sectors at the
 * middle of every member (al_marker_sector(): away from where a fresh
 * ext4 puts hot and cold data, so the drive's read-ahead of the marker
 * serves none of it), K = 1 + 2 * class + (rand ? 1 : 0), and K = 7 after
 * the last phase.  The filesystem's I/O is whole 4 KiB blocks, so a read
 * of fewer than 8 sectors in a member's trace is a marker and K names the
 * phase (hc-arraytrace).
 *
 * Output, two files in DIR (--out), each written once its data is known:
 *   fiemap.csv  class,member,bytes_t0,bytes_t1,bytes_t2,extents
 *               the class's data per member and third of the member
 *               (array-layout.h), from FIEMAP mapped through LAYOUT
 *   guest.csv   class,phase,bytes,reads,guest_us  (the guest's clock)
 * Exit status 0, 1 on a failed system call (named), 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/fs.h>

#include "hotcold-flags.h"
#include "hotcold-fiemap.h"
#include "array-layout.h"

#define NCLASS 3
#define MAX_FILES 1024

static const char *const class_name[NCLASS] = { "hot", "cold", "none" };
static const int class_flag[NCLASS] = { O_HOT, O_COLD, 0 };

static const char *prog = "hc-arrayload";

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void __attribute__((noreturn)) usage(const char *why, const char *arg)
{
	fprintf(stderr, "%s: %s '%s'\n"
		"usage: %s [--files N] [--size SIZE] [--io SIZE] [--rand N] [--seed S]\n"
		"       [--tag T] [--out DIR]\n"
		"       LAYOUT ARRAYDEV MNT MEMBER...   (the header of vm/arrays/hc-arrayload.c)\n",
		prog, why, arg, prog);
	exit(2);
}

static uint64_t parse_size(const char *opt, const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		usage("not a size:", s);
	switch (*end) {
	case 'K': v <<= 10; end++; break;
	case 'M': v <<= 20; end++; break;
	case 'G': v <<= 30; end++; break;
	}
	if (*end || !v)
		usage(opt, s);
	return v;
}

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static uint64_t rng;

static uint64_t xorshift(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint64_t dev_bytes(const char *path)
{
	uint64_t b;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &b))
		die("%s: %s", path, strerror(errno));
	close(fd);
	return b;
}

/* ------------------------------------------------ FIEMAP through the layout */

static uint64_t mem_sectors;	/* a member's whole size: its thirds */

struct place {
	const struct al_layout *l;
	uint64_t bytes[AL_MAX_MEMBERS][3];
	unsigned int runs[AL_MAX_MEMBERS];
};

static void place_run(unsigned int m, uint64_t msec, uint64_t len, void *arg)
{
	struct place *p = arg;

	al_add_thirds(mem_sectors, msec, len, p->bytes[m]);
	p->runs[m]++;
}

static void place_file(int fd, const char *path, struct place *p)
{
	struct hc_extent *ext = NULL;
	size_t n = 0, i;
	int err = hc_fiemap(fd, &ext, &n);

	if (err)
		die("FIEMAP %s: %s", path, strerror(err));
	for (i = 0; i < n; i++) {
		if (ext[i].flags & (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC |
				    FIEMAP_EXTENT_DATA_INLINE))
			die("%s: an extent not on the disk after sync (flags 0x%x)",
			    path, ext[i].flags);
		if (ext[i].physical % 512 || ext[i].length % 512)
			die("%s: extent not in whole sectors", path);
		if (al_map(p->l, ext[i].physical / 512, ext[i].length / 512,
			   place_run, p))
			die("%s: extent at byte %llu runs past the array's end",
			    path, (unsigned long long)ext[i].physical);
	}
	free(ext);
}

/* ------------------------------------------------------------ the output */

static char out_path[4096];

/* DIR/TAG-NAME (DIR/NAME without a tag), opened for writing */
static FILE *out_open(const char *dir, const char *tag, const char *sep,
		      const char *name)
{
	FILE *fp;

	if ((size_t)snprintf(out_path, sizeof(out_path), "%s/%s%s%s", dir, tag,
			     sep, name) >= sizeof(out_path))
		die("--out '%s': path too long", dir);
	fp = fopen(out_path, "w");
	if (!fp)
		die("%s: %s", out_path, strerror(errno));
	return fp;
}

static void out_close(FILE *fp)
{
	if (ferror(fp) | fclose(fp))
		die("write %s: %s", out_path, strerror(errno));
}

/* ------------------------------------------------------------ the phases */

static int nmem;
static int memfd[AL_MAX_MEMBERS];
static void *buf;

static void marker(int k, char **members)
{
	int i;

	for (i = 0; i < nmem; i++)
		if (pread(memfd[i], buf, (size_t)k * 512,
			  (off_t)(al_marker_sector(mem_sectors) * 512)) != k * 512)
			die("marker read of %d sectors on %s: %s", k, members[i],
			    strerror(errno));
}

int main(int argc, char **argv)
{
	static int fds[NCLASS][MAX_FILES];
	uint64_t size = 8 << 20, io = 2 << 20, seed = 1, nrand = 200;
	uint64_t msz, want, got;
	unsigned int nfiles = 4;
	struct al_layout l;
	struct place place[NCLASS];
	const char *mnt, *adev, *tag = "", *sep = "", *outdir = ".";
	FILE *fp;
	char **members;
	int c, a = 1, i;
	unsigned int f;

	while (a < argc && !strncmp(argv[a], "--", 2)) {
		const char *o = argv[a];

		if (a + 1 >= argc)
			usage("missing value after", o);
		if (!strcmp(o, "--files"))
			nfiles = (unsigned int)parse_size(o, argv[a + 1]);
		else if (!strcmp(o, "--size"))
			size = parse_size(o, argv[a + 1]);
		else if (!strcmp(o, "--io"))
			io = parse_size(o, argv[a + 1]);
		else if (!strcmp(o, "--rand"))
			nrand = parse_size(o, argv[a + 1]);
		else if (!strcmp(o, "--seed"))
			seed = parse_size(o, argv[a + 1]);
		else if (!strcmp(o, "--tag")) {
			tag = argv[a + 1];
			sep = "-";
			if (!*tag || strpbrk(tag, "/@ "))
				usage("--tag: a name without '/', '@' or spaces:", tag);
		}
		else if (!strcmp(o, "--out"))
			outdir = argv[a + 1];
		else
			usage("unknown option", o);
		a += 2;
	}
	if (argc - a < 5)
		usage("too few arguments after", argc > 1 ? argv[argc - 1] : prog);
	if (al_parse(argv[a], &l))
		usage("LAYOUT (raid0:CHUNK_KIB or linear):", argv[a]);
	if (nfiles > MAX_FILES)
		usage("--files: at most 1024:", argv[a]);
	if (size % 4096)
		usage("--size: not a multiple of 4 KiB:", argv[a]);
	if (io % 4096)
		usage("--io: not a multiple of 4 KiB:", argv[a]);
	adev = argv[a + 1];
	mnt = argv[a + 2];
	members = argv + a + 3;
	nmem = argc - a - 3;
	if (nmem > AL_MAX_MEMBERS)
		usage("more than 16 members, from", members[0]);

	msz = dev_bytes(members[0]);
	for (i = 1; i < nmem; i++)
		if (dev_bytes(members[i]) != msz)
			die("member %s is not the size of %s", members[i], members[0]);
	al_set_members(&l, (unsigned int)nmem, msz / 512);
	mem_sectors = msz / 512;
	want = al_array_sectors(&l) * 512;
	got = dev_bytes(adev);
	if (got != want)
		die("%s is %llu bytes; %s over %d members of %llu wants %llu",
		    adev, (unsigned long long)got, argv[a], nmem,
		    (unsigned long long)msz, (unsigned long long)want);
	rng = seed * 0x9E3779B97F4A7C15ull + 1;
	if (posix_memalign(&buf, 4096, io > 1 << 20 ? io : 1 << 20))
		die("posix_memalign: %s", strerror(errno));
	memset(buf, 0x5a, io > 1 << 20 ? io : 1 << 20);

	/* the files, class by class */
	for (c = 0; c < NCLASS; c++) {
		for (f = 0; f < nfiles; f++) {
			char path[4096];
			uint64_t done = 0;
			int fd;

			snprintf(path, sizeof(path), "%s/%s-%02u", mnt,
				 class_name[c], f);
			fd = open(path, O_CREAT | O_EXCL | O_WRONLY | class_flag[c],
				  0644);
			if (fd < 0)
				die("create %s: %s", path, strerror(errno));
			while (done < size) {
				size_t n = size - done < 1 << 20 ? size - done : 1 << 20;
				ssize_t w = write(fd, buf, n);

				if (w <= 0)
					die("write %s: %s", path,
					    w < 0 ? strerror(errno) : "0 bytes");
				done += (uint64_t)w;
			}
			if (fsync(fd) || close(fd))
				die("fsync %s: %s", path, strerror(errno));
		}
	}
	sync();
	{
		int dc = open("/proc/sys/vm/drop_caches", O_WRONLY);

		if (dc < 0 || write(dc, "3", 1) != 1)
			die("/proc/sys/vm/drop_caches: %s", strerror(errno));
		close(dc);
	}

	/* every inode read before the first marker; FIEMAP through the layout */
	for (c = 0; c < NCLASS; c++) {
		memset(&place[c], 0, sizeof(place[c]));
		place[c].l = &l;
		for (f = 0; f < nfiles; f++) {
			char path[4096];

			snprintf(path, sizeof(path), "%s/%s-%02u", mnt,
				 class_name[c], f);
			fds[c][f] = open(path, O_RDONLY | O_DIRECT);
			if (fds[c][f] < 0)
				die("open %s: %s", path, strerror(errno));
			place_file(fds[c][f], path, &place[c]);
		}
	}
	fp = out_open(outdir, tag, sep, "fiemap.csv");
	fprintf(fp, "class,member,bytes_t0,bytes_t1,bytes_t2,extents\n");
	for (c = 0; c < NCLASS; c++)
		for (i = 0; i < nmem; i++)
			fprintf(fp, "%s,%d,%llu,%llu,%llu,%u\n", class_name[c], i,
				(unsigned long long)place[c].bytes[i][0],
				(unsigned long long)place[c].bytes[i][1],
				(unsigned long long)place[c].bytes[i][2],
				place[c].runs[i]);
	out_close(fp);

	for (i = 0; i < nmem; i++) {
		memfd[i] = open(members[i], O_RDONLY | O_DIRECT);
		if (memfd[i] < 0)
			die("open %s: %s", members[i], strerror(errno));
	}
	fp = out_open(outdir, tag, sep, "guest.csv");
	fprintf(fp, "class,phase,bytes,reads,guest_us\n");
	for (c = 0; c < NCLASS; c++) {
		uint64_t t0, bytes = 0, reads = 0, r;

		marker(1 + 2 * c, members);
		t0 = now_us();
		for (f = 0; f < nfiles; f++) {
			uint64_t off;

			for (off = 0; off < size; off += io) {
				size_t n = size - off < io ? size - off : io;

				if (pread(fds[c][f], buf, n, (off_t)off) != (ssize_t)n)
					die("read %s-%02u at %llu: %s", class_name[c], f,
					    (unsigned long long)off, strerror(errno));
				bytes += n;
				reads++;
			}
		}
		fprintf(fp, "%s,seq,%llu,%llu,%llu\n", class_name[c],
			(unsigned long long)bytes, (unsigned long long)reads,
			(unsigned long long)(now_us() - t0));

		marker(2 + 2 * c, members);
		t0 = now_us();
		for (r = 0; r < nrand; r++) {
			unsigned int fi = (unsigned int)(xorshift() % nfiles);
			uint64_t off = (xorshift() % (size / 4096)) * 4096;

			if (pread(fds[c][fi], buf, 4096, (off_t)off) != 4096)
				die("read %s-%02u at %llu: %s", class_name[c], fi,
				    (unsigned long long)off, strerror(errno));
		}
		fprintf(fp, "%s,rand,%llu,%llu,%llu\n", class_name[c],
			(unsigned long long)(nrand * 4096), (unsigned long long)nrand,
			(unsigned long long)(now_us() - t0));
	}
	marker(7, members);
	out_close(fp);
	return 0;
}
