// SPDX-License-Identifier: GPL-2.0
/*
 * hotcold engine
 *
 * IO engine that creates its files with the O_HOT or O_COLD creation hint,
 * does the job's I/O with Linux native aio (libaio) or with pread/pwrite,
 * and reports where ext4 put the files (block groups, thirds of the
 * device) and how far the disk head had to move for every request (seek
 * distance in sectors).  ioengines/hotcold.md describes the options, how
 * the files are created, how placement and seek distance are found, and
 * the two logs.
 *
 * This file has the options, the ioengine_ops and the I/O path;
 * hotcold-create.c creates the files with the hint, hotcold-place.c finds
 * where their blocks are, hotcold-log.c writes the logs and the summary.
 *
 * Build against the fio tree fio was built from (same config-host.h):
 *
 *   gcc -O2 -Wall -D_GNU_SOURCE -include $FIO/config-host.h -I$FIO \
 *       -fPIC -shared -o hotcold.so hotcold.c hotcold-create.c \
 *       hotcold-place.c hotcold-log.c -laio -lm
 *
 * (`make engine` does this.)  Load it with
 *
 *   ioengine=external:/path/to/hotcold.so
 *
 * `fio --enghelp=/path/to/hotcold.so` lists the options (fio 3.33's
 * --enghelp takes the path without the "external:" prefix).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <errno.h>
#include <libaio.h>
#include <time.h>

#include "fio.h"
#include "optgroup.h"

#include "hotcold.h"

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
		.name	= "remap",
		.lname	= "Map every I/O afresh",
		.type	= FIO_OPT_BOOL,
		.off1	= offsetof(struct hotcold_options, remap),
		.help	= "mode=sync: FIEMAP the file again after every I/O and log the LBA it has then (files moved while the job runs, e.g. by hc-track)",
		.def	= "0",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_INVALID,
	},
	{
		.name	= NULL,
	},
};

const char *hc_hotness_name(unsigned int h)
{
	return h == HC_HOTNESS_HOT ? "hot" : h == HC_HOTNESS_COLD ? "cold" : "none";
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

/*
 * remap=1, mode=sync: the I/O first, then a fresh FIEMAP, then its seek log
 * row, so the LBA logged is where the data is after the I/O.  A file moved
 * while the job runs (hc-track's EXT4_IOC_MOVE_EXT holds the inode lock an
 * O_DIRECT read waits for) keeps its rows joinable with the disk's trace;
 * the map taken at open would name blocks the file no longer has.  The
 * latency is the pread's alone, as in the path below.
 */
static enum fio_q_status hc_queue_remap(struct thread_data *td,
					struct hotcold_data *hd,
					struct io_u *io_u)
{
	struct hc_iou *iou = io_u->engine_data;
	struct fio_file *f = io_u->file;
	struct timespec t0, t1;
	ssize_t ret;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (io_u->ddir == DDIR_READ)
		ret = pread(f->fd, io_u->xfer_buf, io_u->xfer_buflen,
			    io_u->offset);
	else
		ret = pwrite(f->fd, io_u->xfer_buf, io_u->xfer_buflen,
			     io_u->offset);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (ret < 0)
		io_u->error = errno;
	else if ((unsigned long long)ret != io_u->xfer_buflen)
		io_u->resid = io_u->xfer_buflen - ret;
	if (f->filetype == FIO_TYPE_FILE && f->fileno < hd->nfiles)
		hc_load_map(td, hd, f, &hd->files[f->fileno]);
	iou->rec = hd->recs_full ? SIZE_MAX : hc_record(td, hd, io_u);
	if (iou->rec != SIZE_MAX) {
		hd->recs[iou->rec].lat_ns =
			(uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000ULL +
			t1.tv_nsec - t0.tv_nsec;
		hd->recs[iou->rec].done = 1;
	}
	if (io_u->error)
		td_verror(td, io_u->error, "xfer");
	return FIO_Q_COMPLETED;
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

	/*
	 * fio times a request from io_u->issue_time to its completion.  This
	 * engine sets it (FIO_ASYNCIO_SETS_ISSUE_TIME): here, before a request
	 * ->queue does itself (mode=sync, fsync), and again in ->commit, just
	 * before io_submit(), for the ones libaio does; so fio's clat is the
	 * device time in both modes, as the engine's own seek log says.
	 */
	if (fio_fill_issue_time(td))
		fio_gettime(&io_u->issue_time, NULL);

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

	if (o->mode == HC_MODE_SYNC && o->remap)
		return hc_queue_remap(td, hd, io_u);

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
		struct timespec issue;

		fio_gettime(&issue, NULL);
		clock_gettime(CLOCK_MONOTONIC, &now);
		for (i = done; i < hd->npending; i++) {
			struct io_u *io_u = hd->pending[i]->data;
			struct hc_iou *iou = io_u->engine_data;

			iou->t0 = now;
		}
		ret = io_submit(hd->aio_ctx, hd->npending - done,
				hd->pending + done);
		if (ret > 0) {
			for (i = done; i < done + ret; i++) {
				struct io_u *io_u = hd->pending[i]->data;

				if (fio_fill_issue_time(td)) {
					io_u->issue_time = issue;
					io_u_queued(td, io_u);
				}
			}
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
	.flags			= FIO_ASYNCIO_SETS_ISSUE_TIME,
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
