// SPDX-License-Identifier: GPL-2.0
/*
 * hotcold-place.c - where the hotcold engine's files are on the device
 *
 * The filesystem of each file is probed once per job (statfs magic, ext4
 * superblock read from the block device, or from fs_dev=); each file's
 * extent map comes from FIEMAP (hotcold-fiemap.h) when it is opened, for
 * the seek log's LBAs, and again when it is closed, for its block groups
 * and thirds of the device in the placement log.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>

#include "fio.h"

#include "hotcold.h"
#include "hotcold-fiemap.h"

/* the filesystem @fd is on, probed once per job: ext4? superblock? */
int hc_fs_get(struct thread_data *td, struct hotcold_data *hd, int fd,
	      const char *name)
{
	struct hotcold_options *o = td->eo;
	unsigned char sbbuf[HC_SB_SIZE];
	struct statfs sfs;
	struct stat st;
	struct hc_fs *fs, *tmp;
	const char *why = NULL;
	unsigned int i;
	int dfd;

	if (fstat(fd, &st))
		return -1;
	for (i = 0; i < hd->nfs; i++)
		if (hd->fs[i].dev == st.st_dev)
			return i;

	tmp = realloc(hd->fs, (hd->nfs + 1) * sizeof(*fs));
	if (!tmp)
		return -1;
	hd->fs = tmp;
	fs = &hd->fs[hd->nfs];
	memset(fs, 0, sizeof(*fs));
	fs->dev = st.st_dev;

	if (!fstatfs(fd, &sfs))
		fs->magic = sfs.f_type;
	fs->is_ext4 = fs->magic == HC_EXT4_SUPER_MAGIC;
	if (!fs->is_ext4) {
		snprintf(fs->note, sizeof(fs->note),
			 "not ext4 (statfs magic 0x%lx, ext4 is 0xEF53): no block-group placement",
			 fs->magic);
		goto done;
	}

	if (o->fs_dev && o->fs_dev[0]) {
		snprintf(fs->devpath, sizeof(fs->devpath), "%s", o->fs_dev);
		hc_sysfs_name(o, name, fs->devname, sizeof(fs->devname));
	} else if (hc_devname(st.st_dev, fs->devname, sizeof(fs->devname))) {
		snprintf(fs->note, sizeof(fs->note),
			 "no block device for dev %u:%u in /sys/dev/block; set fs_dev=",
			 major(st.st_dev), minor(st.st_dev));
		goto done;
	} else
		snprintf(fs->devpath, sizeof(fs->devpath), "/dev/%s", fs->devname);

	dfd = open(fs->devpath, O_RDONLY | O_CLOEXEC);
	if (dfd < 0) {
		snprintf(fs->note, sizeof(fs->note),
			 "cannot read the superblock from %s: %s; set fs_dev=",
			 fs->devpath, strerror(errno));
		goto done;
	}
	if (pread(dfd, sbbuf, sizeof(sbbuf), HC_SB_OFFSET) != sizeof(sbbuf)) {
		snprintf(fs->note, sizeof(fs->note),
			 "short read of the superblock from %s", fs->devpath);
		close(dfd);
		goto done;
	}
	close(dfd);
	if (hc_parse_sb(sbbuf, &fs->sb, &why)) {
		snprintf(fs->note, sizeof(fs->note), "%s: %s", fs->devpath, why);
		goto done;
	}
	if (fs->sb.block_size != sfs.f_bsize) {
		snprintf(fs->note, sizeof(fs->note),
			 "superblock of %s (block size %u) is not the mounted fs (block size %lu); check fs_dev=",
			 fs->devpath, fs->sb.block_size, (unsigned long)sfs.f_bsize);
		goto done;
	}
	fs->sb_ok = 1;
done:
	if (!fs->sb_ok)
		log_info("hotcold: %s: %s\n", name, fs->note);
	return hd->nfs++;
}

struct hc_file *hc_file_get(struct hotcold_data *hd, struct fio_file *f)
{
	unsigned int i, n = f->fileno + 1;
	struct hc_file *tmp;

	if (f->fileno >= hd->nfiles) {
		tmp = realloc(hd->files, n * sizeof(*tmp));
		if (!tmp)
			return NULL;
		for (i = hd->nfiles; i < n; i++) {
			memset(&tmp[i], 0, sizeof(tmp[i]));
			tmp[i].fs = -1;
		}
		hd->files = tmp;
		hd->nfiles = n;
	}
	if (!hd->files[f->fileno].name)
		hd->files[f->fileno].name = strdup(f->file_name);
	return &hd->files[f->fileno];
}

void hc_load_map(struct thread_data *td, struct hotcold_data *hd,
		 struct fio_file *f, struct hc_file *hf)
{
	free(hf->ext);
	hf->ext = NULL;
	hf->next = 0;
	hf->map_err = hc_fiemap(f->fd, &hf->ext, &hf->next);
	if (hf->map_err)
		log_info("hotcold: %s: FIEMAP failed (%s): no LBAs, seek distances or placement for this file\n",
			 f->file_name, strerror(hf->map_err));
}

/* where the file's blocks are, now that the job wrote them */
void hc_place_file(struct thread_data *td, struct hotcold_data *hd,
		   struct fio_file *f, struct hc_file *hf)
{
	struct hc_extent *ext = NULL;
	struct hc_fs *fs;
	struct stat st, dst;
	char dir[PATH_MAX];
	size_t n = 0, i;
	int err;

	hf->placed = 0;
	if (hf->fs < 0) {
		snprintf(hf->note, sizeof(hf->note), "filesystem unknown");
		return;
	}
	fs = &hd->fs[hf->fs];
	if (!fs->sb_ok) {
		snprintf(hf->note, sizeof(hf->note), "%s", fs->note);
		return;
	}
	if (fstat(f->fd, &st))
		return;
	err = hc_fiemap(f->fd, &ext, &n);
	if (err) {
		snprintf(hf->note, sizeof(hf->note), "FIEMAP failed: %s",
			 strerror(err));
		return;
	}
	hf->size = st.st_size;
	hf->ino = st.st_ino;
	hf->ino_group = hc_inode_group(&fs->sb, st.st_ino);
	snprintf(dir, sizeof(dir), "%s", f->file_name);
	if (!stat(dirname(dir), &dst) && dst.st_dev == st.st_dev)
		hf->dir_group = hc_inode_group(&fs->sb, dst.st_ino);
	else
		hf->dir_group = UINT32_MAX;
	memset(hf->bytes, 0, sizeof(hf->bytes));
	hf->extents = 0;
	hf->first_group = UINT32_MAX;
	hf->last_group = 0;
	hf->pos_start = 1;
	hf->pos_end = 0;
	for (i = 0; i < n; i++) {
		uint32_t g0, g1;
		double p0, p1;

		if (!ext[i].mapped)
			continue;
		hf->extents++;
		hc_range_thirds(&fs->sb, ext[i].physical, ext[i].length, hf->bytes);
		g0 = hc_block_group(&fs->sb, ext[i].physical);
		g1 = hc_block_group(&fs->sb, ext[i].physical + ext[i].length - 1);
		if (g0 < hf->first_group)
			hf->first_group = g0;
		if (g1 > hf->last_group)
			hf->last_group = g1;
		p0 = hc_dev_fraction(&fs->sb, ext[i].physical);
		p1 = hc_dev_fraction(&fs->sb, ext[i].physical + ext[i].length);
		if (p0 < hf->pos_start)
			hf->pos_start = p0;
		if (p1 > hf->pos_end)
			hf->pos_end = p1;
	}
	free(ext);
	if (hf->extents && hf->pos_end > 1.0) {
		/* a superblock that is not this file's filesystem */
		snprintf(hf->note, sizeof(hf->note),
			 "extents lie beyond the end of the filesystem of %s (%llu blocks): wrong fs_dev?",
			 fs->devpath, (unsigned long long)fs->sb.blocks_count);
		log_info("hotcold: %s: %s\n", f->file_name, hf->note);
		return;
	}
	if (!hf->extents) {
		snprintf(hf->note, sizeof(hf->note), "no mapped extents (empty file?)");
		hf->first_group = hf->last_group = 0;
		hf->pos_start = hf->pos_end = 0;
	} else
		hf->note[0] = '\0';
	hf->placed = 1;
}
