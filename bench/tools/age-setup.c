// SPDX-License-Identifier: GPL-2.0
/*
 * age-setup.c - hc-age before the run: ROOT checked, the plan, the
 * directories, the manifest opened (the contract in age.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include "hotcold-map.h"
#include "age.h"

void check_root(void)
{
	struct statfs sfs;
	struct stat st;

	if (stat(root, &st))
		die(2, "ROOT '%s' is not a directory: %s", root, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		die(2, "ROOT '%s' is not a directory", root);
	if (statfs(root, &sfs))
		die_sys("statfs", root);
	if (sfs.f_type != HC_EXT4_SUPER_MAGIC)
		die(2, "ROOT '%s' is not on ext4 (statfs magic 0x%lx); hc-age ages a fresh ext4",
		    root, (unsigned long)sfs.f_type);
	bsize = sfs.f_bsize;
	fblocks = sfs.f_blocks;
	start_used = sfs.f_blocks - sfs.f_bfree;
}

void make_dirs(void)
{
	char rel[64];
	uint64_t d, s;

	for (s = 0; s <= opt_subdirs; s++)	/* every dNN first, for Orlov */
		for (d = 0; d < opt_dirs; d++) {
			int n = snprintf(rel, sizeof(rel), "d%02" PRIu64, d);

			if (s)
				snprintf(rel + n, sizeof(rel) - n, "/s%" PRIu64, s - 1);
			if (mkdir(abs_path(rel), 0755))
				die_sys("mkdir", abs_path(rel));
		}
}

/* open the manifest, making its directory (one level) */
void open_manifest(void)
{
	char dir[PATH_MAX], *slash;

	if (!opt_manifest && opt_dry) {
		man = stdout;
		strcpy(man_path, "(stdout)");
		return;
	}
	snprintf(man_path, sizeof(man_path), "%s", opt_manifest ? opt_manifest :
		 abs_path(".aging/manifest.csv"));
	strcpy(dir, man_path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			die_sys("mkdir", dir);
	}
	man = fopen(man_path, "w");
	if (!man)
		die_sys("cannot create manifest", man_path);
}

void plan(void)
{
	uint64_t set_blocks = 0, most = 0, k, room;
	size_t i = 0;
	int s;

	target_blk = opt_target / 100 * fblocks;
	low_blk = (opt_target - opt_band) / 100 * fblocks;
	if (start_used >= target_blk)
		die(2, "--target %g: the filesystem is %.2f%% full already",
		    opt_target, 100.0 * start_used / fblocks);
	for (s = 0; s < nsets; s++) {
		nsched += sets[s].nfiles;
		set_blocks += sets[s].nfiles * blocks_of(sets[s].size);
		most = sets[s].nfiles > most ? sets[s].nfiles : most;
	}
	room = opt_churn > 0 ? low_blk : target_blk;
	if (start_used + set_blocks > room)
		die(2, "--sets: %" PRIu64 " MiB of set files do not fit below %.2f%% (%s) of %" PRIu64 " MiB",
		    set_blocks * bsize >> 20, 100.0 * room / fblocks,
		    opt_churn > 0 ? "--target minus --band" : "--target",
		    fblocks * bsize >> 20);
	set_blocks_left = set_blocks;
	sched = calloc(nsched + 1, sizeof(*sched));
	setf = calloc(nsched + 1, sizeof(*setf));
	if (!sched || !setf)
		die(1, "out of memory");
	for (k = 0; k < most; k++)	/* round-robin: H.0 C.0 N.0 H.1 ... */
		for (s = 0; s < nsets; s++)
			if (k < sets[s].nfiles) {
				sched[i].set = s;
				sched[i++].k = k;
			}
	churn_total = opt_churn * fblocks * bsize;
	if (opt_churn > 0 && !churn_total)
		churn_total = 1;
	plan_blocks = target_blk - start_used + churn_total / bsize;
	plan_blocks += opt_churn > 0 ? set_blocks : 0;
}
