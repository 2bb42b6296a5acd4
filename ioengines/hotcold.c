/*
 * hotcold engine
 *
 * IO engine that creates its files with the O_HOT or O_COLD creation hint
 * (see the O_HOT/O_COLD ABI in build/CONVENTIONS.txt), does the job's I/O
 * with Linux native aio (libaio) or with pread/pwrite, and reports where
 * ext4 put the files (block groups, thirds of the device) and how far the
 * disk head had to move for every request (seek distance in sectors).
 *
 * Build against the fio tree fio was built from (same config-host.h):
 *
 *   gcc -O2 -Wall -D_GNU_SOURCE -include $FIO/config-host.h -I$FIO \
 *       -fPIC -shared -o hotcold.so hotcold.c -laio -lm
 *
 * (`make engine` does this.)  Load it with
 *
 *   ioengine=external:/path/to/hotcold.so
 *
 * or, in the job files of bench/, ioengine=external:${HOTCOLD_ENGINE}:
 *
 *   HOTCOLD_ENGINE=$PWD/build/fio-engine/hotcold.so fio bench/example-hot.fio
 *
 * `fio --enghelp=/path/to/hotcold.so` lists the options (fio 3.33's
 * --enghelp takes the path without the "external:" prefix).
 *
 * Options (fio --enghelp=/path/to/hotcold.so lists them too):
 *   hotness=hot|cold|none  creation hint (default none)
 *   mode=libaio|sync       libaio: io_submit/io_getevents, iodepth deep;
 *                          sync: pread/pwrite, one at a time (default libaio)
 *   placement_log=FILE     append one CSV row per file and a summary row
 *   seek_log=FILE          append one CSV row per read/write
 *   fs_dev=DEV             read the ext4 superblock from DEV instead of the
 *                          device st_dev maps to (/sys/dev/block/M:m/uevent)
 *   hint_check=1           fail the job when a hint is not honoured
 * Both logs are appended to under flock(), so several jobs can share one;
 * remove them for a fresh log.  Trim is not supported.
 *
 * Files: the engine creates every regular file itself, before the job
 * starts (->prepopulate_file), with openat2(O_WRONLY|O_CREAT|O_EXCL|hint),
 * writes it out to its full size and fsyncs it, so that the blocks are
 * allocated under the hint and stay put while the job runs.  fio's own
 * layout (a plain open() in extend_file()) is switched off by forcing
 * create_on_open=1 in ->setup.  An existing file that is large enough is
 * used as it is (logged created=0); a shorter one is unlinked and created
 * again, as fio's layout would.
 *
 * Placement: when a file is closed, FIEMAP gives its physical extents;
 * the ext4 superblock (read at offset 1024 of the block device) gives
 * block size, blocks and inodes per group and the group count.  Thirds
 * are the ABI's: first = groups [0, n/3), last = [n - n/3, n), middle the
 * rest; a file counts in the third holding most of its bytes.
 *
 * Seek: each read/write is mapped through the file's extent map to a
 * device LBA (512-byte sectors of the filesystem's block device); its seek
 * distance is |LBA - end LBA of the previous request| over all files of
 * the job, in submission order.  Latency is submission to completion (ns).
 * Median is the mean of the two middle values; p50/p90/p99 are nearest
 * rank.
 *
 * A kernel without O_HOT/O_COLD rejects them in openat2() with EINVAL; the
 * engine then creates the file without the hint and says so:
 * "placement: kernel does not support O_HOT/O_COLD; hints not honoured".
 * Where the ext4 counters exist (/sys/fs/ext4/<dev>/hint_*), the counter a
 * create bumped tells whether the hint was honoured or dropped and why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <libgen.h>
#include <limits.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <linux/fs.h>
#include <linux/fiemap.h>
#include <linux/openat2.h>

#include "fio.h"
#include "optgroup.h"

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

static const char *hc_outcome_name[HC_OUT_NR] = {
	"none", "honoured", "dropped_nonrot", "dropped_noperm", "fallback",
	"unsupported", "uncounted", "not_ext4", "reused",
};

static const char *hc_outcome_why[HC_OUT_NR] = {
	"no hint requested (hotness=none)",
	"hint honoured",
	"hint dropped: the device is not rotational",
	"hint dropped: O_HOT needs CAP_SYS_RESOURCE or ext4's reserved uid/gid",
	"hint fell back to the normal allocator: no usable group in the hinted region",
	"kernel does not support O_HOT/O_COLD; hints not honoured",
	"no hint counter moved for this create; hint not honoured",
	"not an ext4 filesystem; hints not honoured",
	"existing file used as it is; not created with the hint",
};

static const char *hc_counter_name[4] = {
	"hint_honoured", "hint_dropped_nonrot", "hint_dropped_noperm",
	"hint_fallback",
};

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
};

static struct fio_option options[] = {
	{
		.name	= "hotness",
		.lname	= "Creation hint",
		.type	= FIO_OPT_STR,
		.off1	= offsetof(struct hotcold_options, hotness),
		.help	= "Creation hint for the files the engine creates",
		.def	= "none",
		.posval	= {
			  { .ival = "hot",
			    .oval = HC_HOTNESS_HOT,
			    .help = "Create with O_HOT: first third of the disk",
			  },
			  { .ival = "cold",
			    .oval = HC_HOTNESS_COLD,
			    .help = "Create with O_COLD: last third of the disk",
			  },
			  { .ival = "none",
			    .oval = HC_HOTNESS_NONE,
			    .help = "Create without a hint",
			  },
		},
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	{
		.name	= "mode",
		.lname	= "I/O submission mode",
		.type	= FIO_OPT_STR,
		.off1	= offsetof(struct hotcold_options, mode),
		.help	= "How the engine submits I/O",
		.def	= "libaio",
		.posval	= {
			  { .ival = "libaio",
			    .oval = HC_MODE_LIBAIO,
			    .help = "Linux native aio, up to iodepth in flight",
			  },
			  { .ival = "sync",
			    .oval = HC_MODE_SYNC,
			    .help = "pread/pwrite, one request at a time",
			  },
		},
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	{
		.name	= "placement_log",
		.lname	= "Placement log",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct hotcold_options, placement_log),
		.help	= "Append per-file placement (flags, groups, thirds) and a summary as CSV to this file",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	{
		.name	= "seek_log",
		.lname	= "Seek log",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct hotcold_options, seek_log),
		.help	= "Append one CSV row per I/O (LBA, seek distance, latency) to this file",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	{
		.name	= "fs_dev",
		.lname	= "Filesystem block device",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct hotcold_options, fs_dev),
		.help	= "Block device to read the ext4 superblock and /sys/fs/ext4/<name>/ counters from (default: the device of the file's filesystem)",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	{
		.name	= "hint_check",
		.lname	= "Require honoured hints",
		.type	= FIO_OPT_BOOL,
		.off1	= offsetof(struct hotcold_options, hint_check),
		.help	= "Fail the job if the kernel does not honour the creation hint",
		.def	= "0",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	{
		.name	= NULL,
	},
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

static const char *hc_hotness_name(unsigned int h)
{
	return h == HC_HOTNESS_HOT ? "hot" : h == HC_HOTNESS_COLD ? "cold" : "none";
}

static uint64_t hc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* /sys/dev/block/MAJ:MIN/uevent DEVNAME= -> "vda" */
static int hc_devname(dev_t dev, char *name, size_t sz)
{
	char path[64], line[256];
	FILE *fp;
	int found = 0;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/uevent",
		 major(dev), minor(dev));
	fp = fopen(path, "r");
	if (!fp)
		return -1;
	while (fgets(line, sizeof(line), fp)) {
		if (strncmp(line, "DEVNAME=", 8))
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(name, sz, "%s", line + 8);
		found = 1;
		break;
	}
	fclose(fp);
	return found ? 0 : -1;
}

static long long hc_read_counter(const char *devname, const char *counter)
{
	char path[PATH_MAX];
	long long v = -1;
	FILE *fp;

	snprintf(path, sizeof(path), "/sys/fs/ext4/%s/%s", devname, counter);
	fp = fopen(path, "r");
	if (!fp)
		return -1;
	if (fscanf(fp, "%lld", &v) != 1)
		v = -1;
	fclose(fp);
	return v;
}

/* sysfs name of the filesystem @path is on, honouring fs_dev= */
static int hc_sysfs_name(struct hotcold_options *o, const char *path,
			 char *name, size_t sz)
{
	struct stat st;

	if (o->fs_dev && o->fs_dev[0]) {
		char real[PATH_MAX];

		if (!realpath(o->fs_dev, real))
			return -1;
		snprintf(name, sz, "%s", basename(real));
		return 0;
	}
	if (stat(path, &st))
		return -1;
	return hc_devname(st.st_dev, name, sz);
}

static int hc_read_counters(const char *devname, long long c[4])
{
	int i;

	for (i = 0; i < 4; i++) {
		c[i] = hc_read_counter(devname, hc_counter_name[i]);
		if (c[i] < 0)
			return -1;
	}
	return 0;
}

static void hc_note_unsupported_once(void)
{
	static int said;

	if (!said)
		log_info("placement: kernel does not support O_HOT/O_COLD; hints not honoured\n");
	said = 1;
}

static void hc_note_openat2_once(const char *devname)
{
	static int said;

	if (!said)
		log_info("hotcold: openat2() rejects O_HOT/O_COLD (EINVAL) although /sys/fs/ext4/%s/hint_honoured exists; creating with open() and judging by the counters\n",
			 devname);
	said = 1;
}

/* check early that a log can be written, so a typo fails before any I/O */
static int hc_open_log(struct thread_data *td, const char *opt,
		       const char *path)
{
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0) {
		int err = errno;

		log_err("hotcold: cannot open %s=%s: %s; give a writable path\n",
			opt, path, strerror(err));
		td_verror(td, err, opt);
		return -1;
	}
	return fd;
}

static int fio_hotcold_setup(struct thread_data *td)
{
	struct hotcold_options *o = td->eo;
	struct fio_file *f;
	unsigned int i;
	int fd;

	if (o->placement_log) {
		fd = hc_open_log(td, "placement_log", o->placement_log);
		if (fd < 0)
			return 1;
		close(fd);
	}
	if (o->seek_log) {
		fd = hc_open_log(td, "seek_log", o->seek_log);
		if (fd < 0)
			return 1;
		close(fd);
	}

	if (td->o.fill_device) {
		log_err("hotcold: fill_device=1 is not supported: the engine writes each file out to its size at creation; give size=\n");
		td_verror(td, EINVAL, "fill_device");
		return 1;
	}

	/*
	 * fio lays out missing files with a plain open() in extend_file();
	 * with create_on_open it leaves that to us, and ->prepopulate_file
	 * creates them with the hint.
	 */
	td->o.create_on_open = 1;

	for_each_file(td, f, i) {
		f->engine_pos = 0;
		if (generic_get_file_size(td, f)) {
			if (td->error != ENOENT) {
				log_err("%s\n", td->verror);
				return 1;
			}
			td_clear_error(td);
		}
		if (f->real_file_size == -1ULL && td->o.size)
			f->real_file_size = td->o.size / td->o.nr_files;
	}
	return 0;
}

/* create @f with the hint; returns the fd or -1 with td error set */
static int hc_create(struct thread_data *td, struct fio_file *f)
{
	struct hotcold_options *o = td->eo;
	unsigned int hint = o->hotness == HC_HOTNESS_HOT ? O_HOT :
			    o->hotness == HC_HOTNESS_COLD ? O_COLD : 0;
	unsigned int flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC;
	struct open_how how = { .mode = 0644 };
	long long before[4], after[4];
	char dir[PATH_MAX], devname[64], fl[128];
	int fd, have_counters = 0, outcome = HC_OUT_NOHINT, i;
	uint64_t pos = HC_POS_SEEN | HC_POS_CREATED | HC_POS_OPENAT2;
	struct statfs sfs;

	snprintf(dir, sizeof(dir), "%s", f->file_name);
	if (!hc_sysfs_name(o, dirname(dir), devname, sizeof(devname)) &&
	    !hc_read_counters(devname, before))
		have_counters = 1;

	how.flags = flags | hint;
	fd = syscall(SYS_openat2, AT_FDCWD, f->file_name, &how, sizeof(how));
	if (fd < 0 && errno == EINVAL && hint && have_counters) {
		/*
		 * The ext4 counters say the kernel knows the flags, yet
		 * openat2() refuses them: a half-applied series.  open()
		 * passes unknown bits on; the counters tell what happened.
		 */
		hc_note_openat2_once(devname);
		pos &= ~HC_POS_OPENAT2;
		fd = open(f->file_name, flags | hint, 0644);
	} else if (fd < 0 && errno == EINVAL && hint) {
		/* openat2() rejects bits it does not know: no O_HOT/O_COLD */
		outcome = HC_OUT_UNSUPPORTED;
		how.flags = flags;
		fd = syscall(SYS_openat2, AT_FDCWD, f->file_name, &how, sizeof(how));
	}
	if (fd < 0 && errno == ENOSYS) {
		/* kernel before 5.6, no openat2(): open() drops unknown bits */
		if (hint)
			outcome = HC_OUT_UNSUPPORTED;
		how.flags = flags;
		pos &= ~HC_POS_OPENAT2;
		fd = open(f->file_name, flags, 0644);
	}
	if (fd < 0) {
		int err = errno;

		log_err("hotcold: cannot create %s: %s\n", f->file_name,
			strerror(err));
		td_verror(td, err, "openat2");
		return -1;
	}

	if (hint && outcome == HC_OUT_NOHINT) {
		if (!fstatfs(fd, &sfs) && sfs.f_type != HC_EXT4_SUPER_MAGIC)
			outcome = HC_OUT_NOT_EXT4;
		else if (!have_counters || hc_read_counters(devname, after))
			outcome = HC_OUT_UNSUPPORTED;
		else {
			outcome = HC_OUT_UNCOUNTED;
			for (i = 0; i < 4; i++)
				if (after[i] > before[i])
					outcome = HC_OUT_HONOURED + i;
		}
	}
	if (outcome == HC_OUT_UNSUPPORTED)
		hc_note_unsupported_once();

	pos |= (uint64_t)outcome << HC_POS_OUT_SHIFT;
	pos |= how.flags & HC_POS_FLAGS_MASK;
	f->engine_pos = pos;

	log_info("hotcold: %s: created with %s via %s: %s\n", f->file_name,
		 hc_flags_str(how.flags, fl, sizeof(fl)),
		 (pos & HC_POS_OPENAT2) ? "openat2" : "open",
		 hc_outcome_why[outcome]);

	if (o->hint_check && hint && outcome != HC_OUT_HONOURED) {
		log_err("hotcold: %s: hint_check=1 and the %s hint was not honoured: %s\n",
			f->file_name, hc_hotness_name(o->hotness),
			hc_outcome_why[outcome]);
		td_verror(td, ENOTSUP, "hint_check");
		close(fd);
		/* a rerun must not take it for a file created with the hint */
		unlink(f->file_name);
		return -1;
	}
	return fd;
}

/*
 * Create the file with the hint and write it out to its full size, then
 * fsync so ext4 allocates the blocks now, under the hint.
 */
static int fio_hotcold_prepopulate_file(struct thread_data *td,
					struct fio_file *f)
{
	unsigned long long left, bs;
	struct stat st;
	char *buf;
	int fd;

	if (f->filetype != FIO_TYPE_FILE || read_only)
		return 0;

	if (!stat(f->file_name, &st)) {
		if ((unsigned long long)st.st_size >= f->real_file_size) {
			f->engine_pos = HC_POS_SEEN |
				((uint64_t)HC_OUT_REUSED << HC_POS_OUT_SHIFT);
			log_info("hotcold: %s: exists (%llu bytes), used as it is; not created with a hint\n",
				 f->file_name, (unsigned long long)st.st_size);
			/* the caller drops its cache through f->fd */
			f->fd = open(f->file_name, O_RDONLY | O_CLOEXEC);
			return 0;
		}
		if (unlink(f->file_name)) {
			td_verror(td, errno, "unlink");
			return 1;
		}
	}

	if (!td->o.allow_create) {
		log_err("hotcold: %s does not exist and allow_file_create=0\n",
			f->file_name);
		td_verror(td, ENOENT, "allow_file_create");
		return 1;
	}
	fd = hc_create(td, f);
	if (fd < 0)
		return 1;

	left = f->real_file_size;
	bs = 1024 * 1024;
	if (bs > left)
		bs = left ? left : 1;
	buf = malloc(bs);
	if (!buf) {
		td_verror(td, ENOMEM, "malloc");
		close(fd);
		return 1;
	}
	while (left && !td->terminate) {
		ssize_t r;

		if (bs > left)
			bs = left;
		fill_io_buffer(td, buf, bs, bs);
		r = write(fd, buf, bs);
		if (r <= 0) {
			int err = r < 0 ? errno : EIO;

			log_err("hotcold: laying out %s: %s\n", f->file_name,
				strerror(err));
			td_verror(td, err, "write");
			free(buf);
			close(fd);
			return 1;
		}
		left -= r;
	}
	free(buf);
	if (fsync(fd)) {
		td_verror(td, errno, "fsync");
		close(fd);
		return 1;
	}
	f->fd = fd;
	return 0;
}

/* whole extent map of @fd; returns 0 or an errno */
static int hc_fiemap(int fd, struct hc_extent **out, size_t *nout)
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

/* the filesystem @fd is on, probed once per job: ext4? superblock? */
static int hc_fs_get(struct thread_data *td, struct hotcold_data *hd, int fd,
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

static struct hc_file *hc_file_get(struct hotcold_data *hd, struct fio_file *f)
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

static void hc_load_map(struct thread_data *td, struct hotcold_data *hd,
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

static int fio_hotcold_open_file(struct thread_data *td, struct fio_file *f)
{
	struct hotcold_data *hd = td->io_ops_data;
	struct hc_file *hf;
	int ret;

	ret = generic_open_file(td, f);
	if (ret || !hd || f->filetype != FIO_TYPE_FILE)
		return ret;
	hf = hc_file_get(hd, f);
	if (!hf)
		return 0;
	/* the files are freed before ->cleanup: keep what prepopulate did */
	if (f->engine_pos & HC_POS_SEEN)
		hf->pos = f->engine_pos;
	if (hf->fs < 0)
		hf->fs = hc_fs_get(td, hd, f->fd, f->file_name);
	hc_load_map(td, hd, f, hf);
	return 0;
}

/* where the file's blocks are, now that the job wrote them */
static void hc_place_file(struct thread_data *td, struct hotcold_data *hd,
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

static int fio_hotcold_close_file(struct thread_data *td, struct fio_file *f)
{
	struct hotcold_data *hd = td->io_ops_data;
	uint64_t pos = f->engine_pos;
	struct hc_file *hf;
	int ret;

	if (hd && f->filetype == FIO_TYPE_FILE && f->fd != -1) {
		hf = hc_file_get(hd, f);
		if (hf)
			hc_place_file(td, hd, f, hf);
	}
	/* generic_close_file() zeroes engine_pos: keep the creation record */
	ret = generic_close_file(td, f);
	f->engine_pos = pos;
	return ret;
}

/* device position of @io_u and its distance from the previous request */
static size_t hc_record(struct thread_data *td, struct hotcold_data *hd,
			struct io_u *io_u)
{
	struct hc_file *hf = NULL;
	struct hc_rec *r;
	uint64_t lba = HC_NO_LBA, end = HC_NO_LBA;

	if (hd->nrecs == hd->recs_size) {
		size_t sz = hd->recs_size ? hd->recs_size * 2 : 4096;
		struct hc_rec *tmp = realloc(hd->recs, sz * sizeof(*tmp));

		if (!tmp) {
			if (!hd->recs_full)
				log_info("hotcold: out of memory for the seek log; later I/Os not recorded\n");
			hd->recs_full = 1;
			return SIZE_MAX;
		}
		hd->recs = tmp;
		hd->recs_size = sz;
	}
	if (io_u->file->fileno < hd->nfiles)
		hf = &hd->files[io_u->file->fileno];
	if (io_u->file->filetype == FIO_TYPE_BLOCK) {
		/* a raw block device: the offset is the position */
		lba = io_u->offset / HC_SECTOR;
		end = (io_u->offset + io_u->xfer_buflen) / HC_SECTOR;
	} else if (hf && hf->ext) {
		lba = hc_offset_to_lba(hf->ext, hf->next, io_u->offset, NULL);
		end = hc_range_end_lba(hf->ext, hf->next, io_u->offset,
				       io_u->xfer_buflen);
	}
	r = &hd->recs[hd->nrecs];
	r->offset = io_u->offset;
	r->len = io_u->xfer_buflen;
	r->file = io_u->file->fileno;
	r->ddir = io_u->ddir;
	r->lba = lba;
	r->dist = hc_seek_distance(hd->prev_end_lba, lba);
	r->lat_ns = 0;
	r->done = 0;
	hd->prev_end_lba = end;
	return hd->nrecs++;
}

static void hc_complete(struct hotcold_data *hd, struct hc_iou *iou)
{
	if (iou->rec == SIZE_MAX)
		return;
	hd->recs[iou->rec].lat_ns = hc_now_ns() -
		((uint64_t)iou->t0.tv_sec * 1000000000ULL + iou->t0.tv_nsec);
	hd->recs[iou->rec].done = 1;
}

static enum fio_q_status fio_hotcold_queue(struct thread_data *td,
					   struct io_u *io_u)
{
	struct hotcold_options *o = td->eo;
	struct hotcold_data *hd = td->io_ops_data;
	struct hc_iou *iou = io_u->engine_data;
	struct fio_file *f = io_u->file;
	ssize_t ret;

	fio_ro_check(td, io_u);

	if (hd->npending == hd->entries)
		return FIO_Q_BUSY;

	if (ddir_sync(io_u->ddir)) {
		if (hd->npending)
			return FIO_Q_BUSY;
		do_io_u_sync(td, io_u);
		return FIO_Q_COMPLETED;
	}
	if (io_u->ddir == DDIR_TRIM) {
		io_u->error = EOPNOTSUPP;
		td_verror(td, io_u->error, "trim (not supported by hotcold)");
		return FIO_Q_COMPLETED;
	}

	iou->rec = hd->recs_full ? SIZE_MAX : hc_record(td, hd, io_u);

	if (o->mode == HC_MODE_SYNC) {
		clock_gettime(CLOCK_MONOTONIC, &iou->t0);
		if (io_u->ddir == DDIR_READ)
			ret = pread(f->fd, io_u->xfer_buf, io_u->xfer_buflen,
				    io_u->offset);
		else
			ret = pwrite(f->fd, io_u->xfer_buf, io_u->xfer_buflen,
				     io_u->offset);
		hc_complete(hd, iou);
		if (ret < 0)
			io_u->error = errno;
		else if ((unsigned long long)ret != io_u->xfer_buflen)
			io_u->resid = io_u->xfer_buflen - ret;
		if (io_u->error)
			td_verror(td, io_u->error, "xfer");
		return FIO_Q_COMPLETED;
	}

	if (io_u->ddir == DDIR_READ)
		io_prep_pread(&iou->iocb, f->fd, io_u->xfer_buf,
			      io_u->xfer_buflen, io_u->offset);
	else
		io_prep_pwrite(&iou->iocb, f->fd, io_u->xfer_buf,
			       io_u->xfer_buflen, io_u->offset);
	iou->iocb.data = io_u;
	hd->pending[hd->npending++] = &iou->iocb;
	return FIO_Q_QUEUED;
}

static int fio_hotcold_commit(struct thread_data *td)
{
	struct hotcold_data *hd = td->io_ops_data;
	unsigned int done = 0, i;
	struct timespec now;
	int ret = 0;

	while (done < hd->npending) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		for (i = done; i < hd->npending; i++) {
			struct io_u *io_u = hd->pending[i]->data;
			struct hc_iou *iou = io_u->engine_data;

			iou->t0 = now;
		}
		ret = io_submit(hd->aio_ctx, hd->npending - done,
				hd->pending + done);
		if (ret > 0) {
			io_u_mark_submit(td, ret);
			done += ret;
		} else if (ret == -EINTR || !ret) {
			continue;
		} else if (ret == -EAGAIN && done) {
			break;
		} else if (ret == -EAGAIN) {
			usleep(100);
		} else {
			td_verror(td, -ret, "io_submit");
			break;
		}
	}
	if (done) {
		memmove(hd->pending, hd->pending + done,
			(hd->npending - done) * sizeof(*hd->pending));
		hd->npending -= done;
	}
	return ret < 0 && ret != -EAGAIN ? ret : 0;
}

static int fio_hotcold_getevents(struct thread_data *td, unsigned int min,
				 unsigned int max, const struct timespec *t)
{
	struct hotcold_data *hd = td->io_ops_data;
	struct timespec lt, *ltp = NULL;
	int r, events = 0;

	if (!hd->aio_ctx)
		return 0;
	if (t) {
		lt = *t;
		ltp = &lt;
	}
	do {
		r = io_getevents(hd->aio_ctx, min > events ? min - events : 0,
				 max - events, hd->events + events, ltp);
		if (r > 0)
			events += r;
		else if (r == -EAGAIN || (min && r == 0))
			fio_hotcold_commit(td);
		else if (r != -EINTR)
			break;
	} while (events < min);

	return r < 0 && r != -EINTR ? r : events;
}

static struct io_u *fio_hotcold_event(struct thread_data *td, int event)
{
	struct hotcold_data *hd = td->io_ops_data;
	struct io_event *ev = &hd->events[event];
	struct io_u *io_u = ev->data;
	struct hc_iou *iou = io_u->engine_data;

	hc_complete(hd, iou);
	if (ev->res != io_u->xfer_buflen) {
		if ((long)ev->res < 0)
			io_u->error = -(long)ev->res;
		else
			io_u->resid = io_u->xfer_buflen - ev->res;
	} else
		io_u->error = 0;
	return io_u;
}

static int fio_hotcold_io_u_init(struct thread_data *td, struct io_u *io_u)
{
	io_u->engine_data = calloc(1, sizeof(struct hc_iou));
	return io_u->engine_data ? 0 : 1;
}

static void fio_hotcold_io_u_free(struct thread_data *td, struct io_u *io_u)
{
	free(io_u->engine_data);
	io_u->engine_data = NULL;
}

static int fio_hotcold_init(struct thread_data *td)
{
	struct hotcold_options *o = td->eo;
	struct hotcold_data *hd;
	int err;

	hd = calloc(1, sizeof(*hd));
	if (!hd) {
		td_verror(td, ENOMEM, "calloc");
		return 1;
	}
	hd->placement_fd = hd->seek_fd = -1;
	hd->prev_end_lba = HC_NO_LBA;
	td->io_ops_data = hd;

	hd->entries = o->mode == HC_MODE_SYNC ? 1 : td->o.iodepth;
	if (o->mode == HC_MODE_SYNC && td->o.iodepth > 1)
		log_info("hotcold: mode=sync does one request at a time; iodepth=%u acts as 1\n",
			 td->o.iodepth);
	if (o->mode == HC_MODE_LIBAIO) {
		err = io_queue_init(td->o.iodepth, &hd->aio_ctx);
		if (err) {
			log_err("hotcold: io_setup(%u): %s; try mode=sync\n",
				td->o.iodepth, strerror(-err));
			td_verror(td, -err, "io_queue_init");
			return 1;
		}
		hd->events = calloc(hd->entries, sizeof(*hd->events));
	}
	hd->pending = calloc(hd->entries, sizeof(*hd->pending));
	if (!hd->pending || (o->mode == HC_MODE_LIBAIO && !hd->events)) {
		td_verror(td, ENOMEM, "calloc");
		return 1;
	}

	if (o->placement_log) {
		hd->placement_fd = hc_open_log(td, "placement_log", o->placement_log);
		if (hd->placement_fd < 0)
			return 1;
	}
	if (o->seek_log) {
		hd->seek_fd = hc_open_log(td, "seek_log", o->seek_log);
		if (hd->seek_fd < 0)
			return 1;
	}
	return 0;
}

/* append @buf to a log shared by jobs: one locked write, header if empty */
static void hc_write_log(struct thread_data *td, int fd, const char *what,
			 const char *header, const char *buf, size_t len)
{
	struct stat st;

	if (fd < 0)
		return;
	flock(fd, LOCK_EX);
	if (!fstat(fd, &st) && !st.st_size &&
	    write(fd, header, strlen(header)) < 0)
		log_err("hotcold: writing %s: %s\n", what, strerror(errno));
	while (len) {
		ssize_t r = write(fd, buf, len);

		if (r <= 0) {
			log_err("hotcold: writing %s: %s\n", what,
				r < 0 ? strerror(errno) : "short write");
			break;
		}
		buf += r;
		len -= r;
	}
	flock(fd, LOCK_UN);
}

static void hc_placement_report(struct thread_data *td, struct hotcold_data *hd)
{
	struct hotcold_options *o = td->eo;
	static const char header[] =
		"kind,job,file,hotness,created,syscall,open_flags_hex,open_flags,"
		"hint_outcome,size,inode,inode_group,dir_inode_group,ngroups,"
		"extents,first_group,last_group,bytes_first,bytes_middle,"
		"bytes_last,files_first,files_middle,files_last,third,pos_start,"
		"pos_end,note\n";
	static const char *third_name[3] = { "first", "middle", "last" };
	unsigned int nout[HC_OUT_NR] = { 0 }, files[3] = { 0 };
	unsigned int placed = 0, created = 0, i;
	uint64_t bytes[3] = { 0 };
	uint32_t ngroups = 0;
	char *buf = NULL, fl[128];
	size_t len = 0;
	FILE *csv;

	csv = open_memstream(&buf, &len);
	if (!csv)
		return;

	for (i = 0; i < hd->nfiles; i++) {
		struct hc_file *hf = &hd->files[i];
		uint64_t pos = hf->pos;
		int outcome = HC_OUT_REUSED, t = -1;

		if (!hf->name)
			continue;
		if (pos & HC_POS_SEEN)
			outcome = (pos >> HC_POS_OUT_SHIFT) & 0xff;
		if (outcome >= HC_OUT_NR)
			outcome = HC_OUT_REUSED;
		nout[outcome]++;
		if (pos & HC_POS_CREATED)
			created++;
		if (hf->placed && hf->extents) {
			t = hc_majority_third(hf->bytes);
			files[t]++;
			bytes[0] += hf->bytes[0];
			bytes[1] += hf->bytes[1];
			bytes[2] += hf->bytes[2];
			placed++;
			ngroups = hd->fs[hf->fs].sb.ngroups;
		}
		fprintf(csv, "file,%s,%s,%s,%d,%s,", td->o.name, hf->name,
			hc_hotness_name(o->hotness), !!(pos & HC_POS_CREATED),
			!(pos & HC_POS_CREATED) ? "" :
			(pos & HC_POS_OPENAT2) ? "openat2" : "open");
		if (pos & HC_POS_CREATED)
			fprintf(csv, "0x%08llx,%s,",
				(unsigned long long)(pos & HC_POS_FLAGS_MASK),
				hc_flags_str(pos & HC_POS_FLAGS_MASK, fl, sizeof(fl)));
		else
			fprintf(csv, ",,");
		fprintf(csv, "%s,", hc_outcome_name[outcome]);
		if (hf->placed) {
			fprintf(csv, "%llu,%llu,%u,", (unsigned long long)hf->size,
				(unsigned long long)hf->ino, hf->ino_group);
			if (hf->dir_group != UINT32_MAX)
				fprintf(csv, "%u,", hf->dir_group);
			else
				fprintf(csv, ",");
			fprintf(csv, "%u,%zu,%u,%u,%llu,%llu,%llu,%d,%d,%d,%s,%.6f,%.6f,",
				hd->fs[hf->fs].sb.ngroups, hf->extents,
				hf->first_group, hf->last_group,
				(unsigned long long)hf->bytes[0],
				(unsigned long long)hf->bytes[1],
				(unsigned long long)hf->bytes[2],
				t == 0, t == 1, t == 2, t >= 0 ? third_name[t] : "",
				hf->pos_start, hf->pos_end);
		} else
			fprintf(csv, ",,,,,,,,,,,,,,,,,");
		fprintf(csv, "%s\n", hf->note);
	}
	fprintf(csv, "summary,%s,*,%s,%u,,,,%s,,,,,%u,,,,%llu,%llu,%llu,%u,%u,%u,,,,%u of %u files placed\n",
		td->o.name, hc_hotness_name(o->hotness), created,
		o->hotness == HC_HOTNESS_NONE ? "none" :
		nout[HC_OUT_HONOURED] == created && created ? "honoured" :
		nout[HC_OUT_UNSUPPORTED] ? "unsupported" : "not_honoured",
		ngroups, (unsigned long long)bytes[0],
		(unsigned long long)bytes[1], (unsigned long long)bytes[2],
		files[0], files[1], files[2], placed, hd->nfiles);
	fclose(csv);
	hc_write_log(td, hd->placement_fd, "placement_log", header, buf, len);
	free(buf);

	log_info("hotcold: %s: hotness=%s: %u files (%u created by the engine), %u placed on %u groups\n",
		 td->o.name, hc_hotness_name(o->hotness), hd->nfiles, created,
		 placed, ngroups);
	for (i = 0; i < 3; i++)
		log_info("hotcold: %s:   %-6s third: %u files, %llu bytes\n",
			 td->o.name, third_name[i], files[i],
			 (unsigned long long)bytes[i]);
	if (o->hotness != HC_HOTNESS_NONE) {
		for (i = HC_OUT_HONOURED; i < HC_OUT_NR; i++) {
			if (!nout[i])
				continue;
			if (i == HC_OUT_UNSUPPORTED)
				log_info("placement: kernel does not support O_HOT/O_COLD; hints not honoured (%u files)\n",
					 nout[i]);
			else
				log_info("placement: %u files: %s\n", nout[i],
					 hc_outcome_why[i]);
		}
	}
}

static void hc_seek_report(struct thread_data *td, struct hotcold_data *hd)
{
	struct hotcold_options *o = td->eo;
	static const char header[] =
		"job,seq,file,ddir,offset,len,lba,seek_sectors,lat_ns,hotness\n";
	uint64_t *dist, *lat;
	size_t nd = 0, nl = 0, nu = 0, i, len = 0;
	char *buf = NULL;
	FILE *csv = NULL;

	if (hd->seek_fd >= 0)
		csv = open_memstream(&buf, &len);
	dist = malloc((hd->nrecs + 1) * sizeof(*dist));
	lat = malloc((hd->nrecs + 1) * sizeof(*lat));
	if (!dist || !lat)
		goto out;
	for (i = 0; i < hd->nrecs; i++) {
		struct hc_rec *r = &hd->recs[i];

		if (r->dist != HC_NO_SEEK)
			dist[nd++] = r->dist;
		if (r->lba == HC_NO_LBA)
			nu++;
		if (r->done)
			lat[nl++] = r->lat_ns;
		if (!csv)
			continue;
		fprintf(csv, "%s,%zu,%s,%s,%llu,%u,", td->o.name, i,
			r->file < hd->nfiles ? hd->files[r->file].name : "",
			r->ddir == DDIR_READ ? "read" : "write",
			(unsigned long long)r->offset, r->len);
		if (r->lba != HC_NO_LBA)
			fprintf(csv, "%llu,", (unsigned long long)r->lba);
		else
			fprintf(csv, ",");
		if (r->dist != HC_NO_SEEK)
			fprintf(csv, "%llu,", (unsigned long long)r->dist);
		else
			fprintf(csv, ",");
		if (r->done)
			fprintf(csv, "%llu,", (unsigned long long)r->lat_ns);
		else
			fprintf(csv, ",");
		fprintf(csv, "%s\n", hc_hotness_name(o->hotness));
	}
	if (csv) {
		fclose(csv);
		csv = NULL;
		hc_write_log(td, hd->seek_fd, "seek_log", header, buf, len);
	}
	if (!hd->nrecs)
		goto out;
	qsort(dist, nd, sizeof(*dist), hc_cmp_u64);
	qsort(lat, nl, sizeof(*lat), hc_cmp_u64);
	log_info("hotcold: %s: hotness=%s: %zu I/Os, %zu with a seek distance, %zu without a known LBA\n",
		 td->o.name, hc_hotness_name(o->hotness), hd->nrecs, nd, nu);
	if (nd)
		log_info("hotcold: %s:   seek sectors: mean %.1f median %.1f p50 %llu p90 %llu p99 %llu\n",
			 td->o.name, hc_mean(dist, nd), hc_median(dist, nd),
			 (unsigned long long)hc_percentile(dist, nd, 50),
			 (unsigned long long)hc_percentile(dist, nd, 90),
			 (unsigned long long)hc_percentile(dist, nd, 99));
	else
		log_info("hotcold: %s:   seek sectors: n/a (no two consecutive I/Os with a known device LBA)\n",
			 td->o.name);
	log_info("hotcold: %s:   completion latency ns: mean %.0f p50 %llu p90 %llu p99 %llu\n",
		 td->o.name, hc_mean(lat, nl),
		 (unsigned long long)hc_percentile(lat, nl, 50),
		 (unsigned long long)hc_percentile(lat, nl, 90),
		 (unsigned long long)hc_percentile(lat, nl, 99));
out:
	if (csv)
		fclose(csv);
	free(buf);
	free(dist);
	free(lat);
}

static void fio_hotcold_cleanup(struct thread_data *td)
{
	struct hotcold_data *hd = td->io_ops_data;
	unsigned int i;

	if (!hd)
		return;
	if (hd->nfiles) {
		hc_placement_report(td, hd);
		hc_seek_report(td, hd);
		/* a job process leaves with _exit(): flush the summary now */
		log_info_flush();
	}
	if (hd->aio_ctx)
		io_destroy(hd->aio_ctx);
	if (hd->placement_fd >= 0)
		close(hd->placement_fd);
	if (hd->seek_fd >= 0)
		close(hd->seek_fd);
	for (i = 0; i < hd->nfiles; i++) {
		free(hd->files[i].name);
		free(hd->files[i].ext);
	}
	free(hd->files);
	free(hd->fs);
	free(hd->recs);
	free(hd->events);
	free(hd->pending);
	free(hd);
	td->io_ops_data = NULL;
}

struct ioengine_ops ioengine = {
	.name			= "hotcold",
	.version		= FIO_IOOPS_VERSION,
	.setup			= fio_hotcold_setup,
	.init			= fio_hotcold_init,
	.queue			= fio_hotcold_queue,
	.commit			= fio_hotcold_commit,
	.getevents		= fio_hotcold_getevents,
	.event			= fio_hotcold_event,
	.cleanup		= fio_hotcold_cleanup,
	.open_file		= fio_hotcold_open_file,
	.close_file		= fio_hotcold_close_file,
	.get_file_size		= generic_get_file_size,
	.prepopulate_file	= fio_hotcold_prepopulate_file,
	.io_u_init		= fio_hotcold_io_u_init,
	.io_u_free		= fio_hotcold_io_u_free,
	.options		= options,
	.option_struct_size	= sizeof(struct hotcold_options),
};
