/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hotcold.h - private header of the hotcold fio engine
 *
 * The engine's options, per-thread and per-file state, and the functions
 * its files share: hotcold.c (options, ioengine_ops, the I/O path),
 * hotcold-create.c (files created with the hint), hotcold-place.c (where
 * their blocks are), hotcold-log.c (placement and seek logs and reports).
 * Not for the guest tests or the bench tools: what they share with the
 * engine (hotcold-map.h, hotcold-fiemap.h) has no fio dependencies.
 */
#ifndef HOTCOLD_H
#define HOTCOLD_H

#include <stdint.h>
#include <limits.h>
#include <time.h>
#include <sys/types.h>
#include <libaio.h>

#include "fio.h"

#include "hotcold-map.h"

enum {
	HC_HOTNESS_NONE	= 0,
	HC_HOTNESS_HOT	= 1,
	HC_HOTNESS_COLD	= 2,
};

enum {
	HC_MODE_LIBAIO	= 0,
	HC_MODE_SYNC	= 1,
};

/* what became of the hint of one creation (recorded in f->engine_pos) */
enum {
	HC_OUT_NOHINT = 0,	/* hotness=none: no hint asked for */
	HC_OUT_HONOURED,	/* hint_honoured bumped */
	HC_OUT_DROPPED_NONROT,	/* hint_dropped_nonrot bumped */
	HC_OUT_DROPPED_NOPERM,	/* hint_dropped_noperm bumped */
	HC_OUT_FALLBACK,	/* hint_fallback bumped */
	HC_OUT_UNSUPPORTED,	/* kernel lacks O_HOT/O_COLD */
	HC_OUT_UNCOUNTED,	/* counters exist, none moved */
	HC_OUT_NOT_EXT4,	/* not ext4: nobody places by hint */
	HC_OUT_REUSED,		/* existing file, not created by the engine */
	HC_OUT_NR,
};

/* indexed by the outcomes above (hotcold-create.c) */
extern const char *hc_outcome_name[HC_OUT_NR];
extern const char *hc_outcome_why[HC_OUT_NR];

/* f->engine_pos: what ->prepopulate_file did (fio_file lives in shared memory) */
#define HC_POS_SEEN		(1ULL << 63)
#define HC_POS_CREATED		(1ULL << 62)
#define HC_POS_OPENAT2		(1ULL << 61)
#define HC_POS_OUT_SHIFT	40
#define HC_POS_FLAGS_MASK	0xffffffffULL

struct hotcold_options {
	void *pad;
	unsigned int hotness;
	unsigned int mode;
	char *placement_log;
	char *seek_log;
	char *fs_dev;
	unsigned int hint_check;
	unsigned int remap;
};

/* one filesystem the job's files live on */
struct hc_fs {
	dev_t dev;
	int is_ext4;
	unsigned long magic;
	char devname[64];		/* name under /sys/fs/ext4/ */
	char devpath[PATH_MAX];
	int sb_ok;
	struct hc_sb sb;
	char note[PATH_MAX + 128];	/* why there is no group placement */
};

/* per file: extent map for the seek log, placement for the placement log */
struct hc_file {
	char *name;
	int fs;				/* index in hotcold_data.fs, -1 unknown */
	struct hc_extent *ext;
	size_t next;
	uint64_t pos;			/* f->engine_pos: creation record */
	int map_err;			/* errno of FIEMAP, 0 if ok */
	int placed;			/* placement below is valid */
	uint64_t size, ino;
	uint32_t ino_group, dir_group, first_group, last_group;
	size_t extents;
	uint64_t bytes[3];
	double pos_start, pos_end;
	char note[PATH_MAX + 128];
};

/* one I/O of the seek log */
struct hc_rec {
	uint64_t offset;
	uint64_t lba;
	uint64_t dist;
	uint64_t lat_ns;
	uint32_t len;
	uint32_t file;
	uint8_t ddir;
	uint8_t done;		/* completed: lat_ns is valid (may be 0) */
};

/* per io_u: the iocb and when it went to the kernel */
struct hc_iou {
	struct iocb iocb;
	struct timespec t0;
	size_t rec;
};

struct hotcold_data {
	io_context_t aio_ctx;
	struct io_event *events;
	struct iocb **pending;
	unsigned int npending;
	unsigned int entries;

	struct hc_fs *fs;
	unsigned int nfs;
	struct hc_file *files;
	unsigned int nfiles;

	struct hc_rec *recs;
	size_t nrecs, recs_size;
	int recs_full;
	uint64_t prev_end_lba;

	int placement_fd;
	int seek_fd;
};

/* hotcold.c */
const char *hc_hotness_name(unsigned int h);

/* hotcold-create.c */
int hc_devname(dev_t dev, char *name, size_t sz);
int hc_sysfs_name(struct hotcold_options *o, const char *path,
		  char *name, size_t sz);
int fio_hotcold_prepopulate_file(struct thread_data *td, struct fio_file *f);

/* hotcold-place.c */
int hc_fs_get(struct thread_data *td, struct hotcold_data *hd, int fd,
	      const char *name);
struct hc_file *hc_file_get(struct hotcold_data *hd, struct fio_file *f);
void hc_load_map(struct thread_data *td, struct hotcold_data *hd,
		 struct fio_file *f, struct hc_file *hf);
void hc_place_file(struct thread_data *td, struct hotcold_data *hd,
		   struct fio_file *f, struct hc_file *hf);

/* hotcold-log.c */
int hc_open_log(struct thread_data *td, const char *opt, const char *path);
size_t hc_record(struct thread_data *td, struct hotcold_data *hd,
		 struct io_u *io_u);
void hc_complete(struct hotcold_data *hd, struct hc_iou *iou);
void hc_placement_report(struct thread_data *td, struct hotcold_data *hd);
void hc_seek_report(struct thread_data *td, struct hotcold_data *hd);

#endif /* HOTCOLD_H */
