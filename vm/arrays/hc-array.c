// SPDX-License-Identifier: GPL-2.0
/*
 * hc-array - assemble an md RAID0 or a dm-linear array in the guest, with
 * the kernel's own ioctls, and take it apart again.
 *
 *   hc-array build raid0:CHUNK_KIB mdN DEV...   (what `mdadm --build` does)
 *   hc-array build linear NAME DEV...           (`dmsetup create` with one
 *                                                linear target per member)
 *   hc-array stop mdN | NAME
 *
 * build prints the array's device node (/dev/mdN, /dev/dm-M).  The RAID0
 * has no superblock: data starts at sector 0 of every member, so
 * array-layout.h maps an array sector to a member with no offsets.
 *
 * Why a tool of our own, not mdadm and dmsetup: the guest is busybox and a
 * few static binaries; mdadm is not installed on the host and wants udev
 * and /etc/mdadm, dmsetup wants libdevmapper and udev cookies (or
 * --noudevsync).  The ioctls are a page each (md_u.h, dm-ioctl.h) and this
 * is one static binary.  Build: gcc -static -O2 -o hc-array hc-array.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <linux/fs.h>
#include <linux/dm-ioctl.h>
#include <linux/major.h>
#include <linux/raid/md_u.h>
#include <linux/raid/md_p.h>

#include "array-layout.h"

static const char *prog = "hc-array";

static void usage(void)
{
	fprintf(stderr,
		"usage: %s build raid0:CHUNK_KIB mdN DEV...\n"
		"       %s build linear NAME DEV...\n"
		"       %s stop mdN|NAME\n", prog, prog, prog);
	exit(2);
}

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static int is_md_name(const char *s)
{
	if (strncmp(s, "md", 2) || !s[2])
		return 0;
	for (s += 2; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* a member: a block device, its dev_t and its size in sectors */
struct member {
	const char *path;
	dev_t rdev;
	uint64_t sectors;
};

static void members_open(int n, char **paths, struct member *m)
{
	int i;

	for (i = 0; i < n; i++) {
		struct stat st;
		uint64_t bytes;
		int fd = open(paths[i], O_RDONLY);

		if (fd < 0 || fstat(fd, &st))
			die("member '%s': %s", paths[i], strerror(errno));
		if (!S_ISBLK(st.st_mode))
			die("member '%s' is not a block device", paths[i]);
		if (ioctl(fd, BLKGETSIZE64, &bytes))
			die("member '%s': BLKGETSIZE64: %s", paths[i],
			    strerror(errno));
		close(fd);
		m[i].path = paths[i];
		m[i].rdev = st.st_rdev;
		m[i].sectors = bytes / 512;
		if (i && m[i].sectors != m[0].sectors)
			die("member '%s' is not the size of '%s' (array-layout.h wants equal members)",
			    paths[i], paths[0]);
	}
}

/* ------------------------------------------------------------------ md */

static int md_open(const char *name, int create)
{
	char dev[64];
	int fd;

	snprintf(dev, sizeof(dev), "/dev/%s", name);
	if (create && access(dev, F_OK)) {
		/* "mdNNN": an array with that minor; devtmpfs makes the node */
		int p = open("/sys/module/md_mod/parameters/new_array", O_WRONLY);

		if (p < 0)
			die("no md in this kernel (/sys/module/md_mod/parameters/new_array: %s)",
			    strerror(errno));
		if (write(p, name, strlen(name)) < 0 && errno != EEXIST)
			die("new_array %s: %s", name, strerror(errno));
		close(p);
	}
	fd = open(dev, O_RDWR);
	if (fd < 0)
		die("%s: %s", dev, strerror(errno));
	return fd;
}

static void md_build(const struct al_layout *l, const char *name, int n,
		     const struct member *m)
{
	mdu_array_info_t info;
	mdu_param_t param;
	int fd = md_open(name, 1), i;

	memset(&info, 0, sizeof(info));
	info.level = 0;
	info.raid_disks = n;
	info.nr_disks = n;
	info.active_disks = n;
	info.working_disks = n;
	info.not_persistent = 1;
	info.chunk_size = (int)(l->chunk * 512);
	if (ioctl(fd, SET_ARRAY_INFO, &info))
		die("%s: SET_ARRAY_INFO: %s (an array there already? hc-array stop it)",
		    name, strerror(errno));
	for (i = 0; i < n; i++) {
		mdu_disk_info_t d;

		memset(&d, 0, sizeof(d));
		d.number = i;
		d.raid_disk = i;
		d.state = (1 << MD_DISK_SYNC) | (1 << MD_DISK_ACTIVE);
		d.major = (int)major(m[i].rdev);
		d.minor = (int)minor(m[i].rdev);
		if (ioctl(fd, ADD_NEW_DISK, &d))
			die("ADD_NEW_DISK %s: %s", m[i].path, strerror(errno));
	}
	memset(&param, 0, sizeof(param));
	if (ioctl(fd, RUN_ARRAY, &param))
		die("%s: RUN_ARRAY: %s (dmesg says why)", name, strerror(errno));
	close(fd);
	printf("/dev/%s\n", name);
}

static void md_stop(const char *name)
{
	int fd = md_open(name, 0);

	if (ioctl(fd, STOP_ARRAY, NULL))
		die("%s: STOP_ARRAY: %s", name, strerror(errno));
	close(fd);
}

/* ------------------------------------------------------------------ dm */

#define DM_BUF 16384

static struct dm_ioctl *dm_init(void *buf, const char *name)
{
	struct dm_ioctl *io = buf;

	memset(buf, 0, DM_BUF);
	io->version[0] = DM_VERSION_MAJOR;	/* minor 0: any 4.x kernel */
	io->data_size = DM_BUF;
	io->data_start = sizeof(*io);
	if (strlen(name) >= sizeof(io->name))
		die("dm name '%s' is longer than %s", name, "127 characters");
	strcpy(io->name, name);
	return io;
}

static int dm_control(void)
{
	int fd = open("/dev/mapper/control", O_RDWR);

	if (fd < 0)
		die("/dev/mapper/control: %s (no device-mapper in this kernel?)",
		    strerror(errno));
	return fd;
}

static void dm_build(const char *name, int n, const struct member *m)
{
	static uint64_t buf[DM_BUF / 8];
	struct dm_ioctl *io;
	char *p;
	unsigned int dmin;
	int ctl = dm_control(), i;

	io = dm_init(buf, name);
	if (ioctl(ctl, DM_DEV_CREATE, io))
		die("%s: DM_DEV_CREATE: %s", name, strerror(errno));
	dmin = (unsigned int)((io->dev & 0xff) | ((io->dev >> 12) & 0xfff00));

	io = dm_init(buf, name);
	io->target_count = (uint32_t)n;
	p = (char *)buf + io->data_start;
	for (i = 0; i < n; i++) {
		struct dm_target_spec *t = (struct dm_target_spec *)p;
		char *params = p + sizeof(*t);
		size_t len;

		t->sector_start = (uint64_t)i * m[0].sectors;
		t->length = m[i].sectors;
		strcpy(t->target_type, "linear");
		snprintf(params, 64, "%u:%u 0", major(m[i].rdev), minor(m[i].rdev));
		len = sizeof(*t) + strlen(params) + 1;
		len = (len + 7) & ~(size_t)7;
		t->next = (uint32_t)len;
		p += len;
	}
	if (ioctl(ctl, DM_TABLE_LOAD, io)) {
		int e = errno;

		ioctl(ctl, DM_DEV_REMOVE, dm_init(buf, name));	/* no half-made device */
		die("%s: DM_TABLE_LOAD: %s (dmesg says why)", name, strerror(e));
	}

	io = dm_init(buf, name);	/* suspend without the flag: resume */
	if (ioctl(ctl, DM_DEV_SUSPEND, io)) {
		int e = errno;

		ioctl(ctl, DM_DEV_REMOVE, dm_init(buf, name));
		die("%s: resume: %s", name, strerror(e));
	}
	close(ctl);
	printf("/dev/dm-%u\n", dmin);
}

static void dm_stop(const char *name)
{
	static uint64_t buf[DM_BUF / 8];
	int ctl = dm_control();

	if (ioctl(ctl, DM_DEV_REMOVE, dm_init(buf, name)))
		die("%s: DM_DEV_REMOVE: %s", name, strerror(errno));
	close(ctl);
}

int main(int argc, char **argv)
{
	struct member m[AL_MAX_MEMBERS];
	struct al_layout l;
	int n;

	if (argc == 3 && !strcmp(argv[1], "stop")) {
		if (is_md_name(argv[2]))
			md_stop(argv[2]);
		else
			dm_stop(argv[2]);
		return 0;
	}
	if (argc < 5 || strcmp(argv[1], "build"))
		usage();
	if (al_parse(argv[2], &l))
		die("layout '%s': use raid0:CHUNK_KIB (a power of two, >= 4) or linear",
		    argv[2]);
	n = argc - 4;
	if (n < 2 || n > AL_MAX_MEMBERS)
		die("%s members: give 2 to 16 devices", n < 2 ? "too few" : "too many");
	if (l.kind == AL_RAID0 && !is_md_name(argv[3]))
		die("raid0 array name '%s': use mdN (e.g. md0)", argv[3]);
	if (l.kind == AL_LINEAR && (is_md_name(argv[3]) || strchr(argv[3], '/')))
		die("linear array name '%s': a dm name, not mdN, no '/'", argv[3]);
	members_open(n, argv + 4, m);
	if (l.kind == AL_RAID0)
		md_build(&l, argv[3], n, m);
	else
		dm_build(argv[3], n, m);
	return 0;
}
