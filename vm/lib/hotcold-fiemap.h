/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hotcold-fiemap.h - a file's whole extent map from FIEMAP
 *
 * The one FIEMAP walker of the engine (ioengines/hotcold-place.c: LBAs
 * for the seek log, block groups for the placement log) and the guest
 * tests (vm/kernel-tests/hotcold_test.h's fiemap_walk()).  hotcold-map.h
 * does the arithmetic on the extents and stays free of I/O; this is the
 * I/O.
 */
#ifndef HOTCOLD_FIEMAP_H
#define HOTCOLD_FIEMAP_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/fs.h>
#include <linux/fiemap.h>

#include "hotcold-map.h"

/* whole extent map of @fd; returns 0 or an errno */
static inline int hc_fiemap(int fd, struct hc_extent **out, size_t *nout)
{
	enum { BATCH = 256 };
	struct fiemap *fm;
	struct hc_extent *ext = NULL, *tmp;
	size_t n = 0, cap = 0;
	uint64_t start = 0;
	int last = 0, err = 0;
	unsigned int i;

	fm = calloc(1, sizeof(*fm) + BATCH * sizeof(struct fiemap_extent));
	if (!fm)
		return ENOMEM;
	while (!last) {
		memset(fm, 0, sizeof(*fm));
		fm->fm_start = start;
		fm->fm_length = FIEMAP_MAX_OFFSET - start;
		fm->fm_flags = FIEMAP_FLAG_SYNC;
		fm->fm_extent_count = BATCH;
		if (ioctl(fd, FS_IOC_FIEMAP, fm) < 0) {
			err = errno;
			break;
		}
		if (!fm->fm_mapped_extents)
			break;
		for (i = 0; i < fm->fm_mapped_extents; i++) {
			struct fiemap_extent *fe = &fm->fm_extents[i];

			if (n == cap) {
				cap = cap ? cap * 2 : 64;
				tmp = realloc(ext, cap * sizeof(*ext));
				if (!tmp) {
					err = ENOMEM;
					goto out;
				}
				ext = tmp;
			}
			ext[n].logical = fe->fe_logical;
			ext[n].physical = fe->fe_physical;
			ext[n].length = fe->fe_length;
			ext[n].flags = fe->fe_flags;
			ext[n].mapped = !(fe->fe_flags & (FIEMAP_EXTENT_UNKNOWN |
							  FIEMAP_EXTENT_DELALLOC |
							  FIEMAP_EXTENT_ENCODED));
			n++;
			start = fe->fe_logical + fe->fe_length;
			if (fe->fe_flags & FIEMAP_EXTENT_LAST)
				last = 1;
		}
	}
out:
	free(fm);
	if (err) {
		free(ext);
		return err;
	}
	*out = ext;
	*nout = n;
	return 0;
}

#endif /* HOTCOLD_FIEMAP_H */
