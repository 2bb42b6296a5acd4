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
 *	first/middle/last: the fraction of the file's bytes in each third of
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
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "moveext.h"

static struct hc_move_opts mopts = { .min_frac = 0.9 };

static void usage(FILE *f)
{
	fprintf(f,
		"usage: hc-move [--dry-run] [--min-frac F] [--quiet] hot|cold|none FILE...\n"
		"       hc-move [options] --rank LIST --top N [--demote] hot\n"
		"Moves each FILE's data into ext4's hot or cold region (EXT4_IOC_MOVE_EXT);\n"
		"the inode, name and contents stay.  See the header of bench/tools/hc-move.c.\n");
}

/* 0 moved or nothing to do, 1 not moved; one CSV row */
static int move_one(const char *path, enum hc_target t)
{
	struct hc_move_result r;
	int ret = hc_move_file(path, t, &mopts, &r);

	csv_field(stdout, path);
	printf(",%llu,%llu,%s,%s,%llu,%.3f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f\n",
	       (unsigned long long)r.st.st_ino,
	       (unsigned long long)r.st.st_size, hc_target_name[t], r.outcome,
	       (unsigned long long)r.moved, r.seconds,
	       hc_frac(r.before, 0), hc_frac(r.before, 1), hc_frac(r.before, 2),
	       hc_frac(r.after, 0), hc_frac(r.after, 1), hc_frac(r.after, 2));
	fflush(stdout);
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

static int policy(const char *list, long top, int demote, enum hc_target t)
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
				ret |= move_one(r[i].path, HC_COLD);
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
	enum hc_target t;
	char *end;

	while ((c = getopt_long(argc, argv, "f:nqr:t:dh", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			mopts.min_frac = strtod(optarg, &end);
			if (end == optarg || *end || mopts.min_frac < 0 ||
			    mopts.min_frac > 1) {
				fprintf(stderr, "hc-move: --min-frac '%s': give a fraction from 0 to 1\n",
					optarg);
				return 2;
			}
			break;
		case 'n':
			mopts.dry_run = 1;
			break;
		case 'q':
			mopts.quiet = 1;
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
		t = HC_HOT;
	else if (!strcmp(argv[optind], "cold"))
		t = HC_COLD;
	else if (!strcmp(argv[optind], "none"))
		t = HC_NONE;
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
