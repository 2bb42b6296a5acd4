// SPDX-License-Identifier: GPL-2.0
/*
 * hotcold-create.c - the hotcold engine's files, created with the hint
 *
 * ->prepopulate_file creates every regular file of the job with
 * openat2(O_WRONLY|O_CREAT|O_EXCL|hint), writes it out to its size and
 * fsyncs it, so ext4 allocates the blocks under the hint.  The ext4
 * counters in /sys/fs/ext4/<dev>/hint_*, read before and after the
 * create, tell what became of the hint; the outcome goes to
 * f->engine_pos for the placement log (hotcold-log.c).
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
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <linux/openat2.h>

#include "fio.h"

#include "hotcold.h"

/* the outcomes' names (placement log) and what they mean (fio output) */
const char *hc_outcome_name[HC_OUT_NR] = {
	"none", "honoured", "dropped_nonrot", "dropped_noperm", "fallback",
	"unsupported", "uncounted", "not_ext4", "reused",
};

const char *hc_outcome_why[HC_OUT_NR] = {
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

/* /sys/dev/block/MAJ:MIN/uevent DEVNAME= -> "vda" */
int hc_devname(dev_t dev, char *name, size_t sz)
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
int hc_sysfs_name(struct hotcold_options *o, const char *path,
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
int fio_hotcold_prepopulate_file(struct thread_data *td,
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
