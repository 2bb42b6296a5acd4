// SPDX-License-Identifier: GPL-2.0
/*
 * hc_fuse patched|stock DEV MNT
 *
 * O_HOT and O_COLD must not reach a FUSE server.  A naive passthrough
 * server that runs as root with allow_other and replays the open flags it
 * receives onto its backing filesystem would otherwise let any user create
 * hot files there: ext4 checks the creator's right to ask for hot, and
 * the creator it sees is the server (root), not the user.
 *
 * The test mounts the kernel's fuse (mount(2), no libfuse) on a temporary
 * directory and serves it from a forked child: a small single-threaded
 * passthrough server on /dev/fuse, backed by a world-writable directory of
 * the ext4 at MNT (on DEV) whose flex group lies in the middle third.  It
 * records the flags of every FUSE_CREATE and FUSE_OPEN and passes them on
 * to openat() unchanged.  A client forked from the test drops to uid/gid
 * 65534 and creates one plain, one O_HOT and one O_COLD file on the mount
 * (open(O_CREAT|O_WRONLY|flag)) and an O_TMPFILE|O_HOT file (FUSE_TMPFILE,
 * which this 6.1 has), reopens the hot one with O_WRONLY|O_HOT and reads
 * the plain one back with O_RDONLY|O_COLD.  Then:
 *   - the server saw neither O_HOT nor O_COLD in any FUSE_CREATE,
 *     FUSE_TMPFILE or FUSE_OPEN;
 *   - the backing files of the hot and cold creates lie like the plain
 *     one: inode in the same group, data in the middle third (FIEMAP);
 *     the backing tmpfile's inode too (its number recorded by the server);
 *   - patched: ext4's hint_* counters did not move (stock has none: that
 *     check is a SKIP there), and, as a control, root's own O_HOT create
 *     in the same directory does land in the hot third.
 * Same expectations on both kernels: stock masks unknown open flags
 * before ->open.
 *
 * It never hangs: the client has an alarm, every wait has a deadline, and
 * killing the server (the only holder of the /dev/fuse fd) aborts the
 * connection and frees a client stuck in a request.  The mount is
 * detached (umount2 MNT_DETACH) and the server killed on every path.
 *
 * HC_FUSE_FAULT=die|hang (for testing the test): the server exits, or
 * stops answering, at its first FUSE_CREATE.
 */
#include "hotcold_test.h"
#include <dirent.h>
#include <grp.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <linux/fuse.h>

#define NOBODY		65534
#define FILE_SIZE	(64 * 1024)
#define CLIENT_TMO	60	/* s, the client's alarm */
#define WAIT_TMO	90	/* s, the parent's wait for the client */
#define SERVER_TMO	20	/* s, for the server to leave after umount */
#define TOTAL_TMO	240	/* s, the parent's backstop alarm */
#define MAX_RECS	64
#define MAX_NODES	64
#define MAX_WRITE	(128 * 1024)
#define BUF_SIZE	(MAX_WRITE + 64 * 1024)
#define HINTS		(O_HOT | O_COLD)

/* What the server saw: one record per FUSE_CREATE/TMPFILE/OPEN. */
struct rec {
	uint32_t opcode;
	uint32_t flags;
	uint32_t uid;
	uint64_t ino;		/* of the backing file created, else 0 */
	char name[64];
};

struct shared {
	int nrec;
	struct rec r[MAX_RECS];
	int errors;		/* backing-file calls that failed */
	char err[256];		/* the first of them */
};

static struct shared *sh;
static struct ext4_geom G;
static char mp[64];
static volatile pid_t server_pid, client_pid;

/* ------------------------------------------------------------ server */

static int fuse_fd = -1, backing_fd = -1;
static char nodes[MAX_NODES][NAME_MAX + 1];	/* nodeid = index + 2 */
static int node_fd[MAX_NODES];	/* a tmpfile's own fd (it has no name) */
static int nnodes;
static const char *fault;

static void server_error(const char *what, const char *name, int err)
{
	if (!sh->errors++)
		snprintf(sh->err, sizeof(sh->err), "%s %.120s: %s", what, name,
			 strerror(err));
}

static struct rec *record(uint32_t opcode, uint32_t flags, uint32_t uid,
			  const char *name)
{
	static struct rec spare;
	struct rec *r;

	if (sh->nrec >= MAX_RECS)
		return &spare;
	r = &sh->r[sh->nrec];
	r->opcode = opcode;
	r->flags = flags;
	r->uid = uid;
	r->ino = 0;
	snprintf(r->name, sizeof(r->name), "%.60s", name);
	sh->nrec++;
	return r;
}

/* The backing path of a node, relative to backing_fd; NULL if unknown. */
static const char *node_path(uint64_t nodeid)
{
	if (nodeid == FUSE_ROOT_ID)
		return ".";
	if (nodeid >= 2 && nodeid - 2 < (uint64_t)nnodes)
		return nodes[nodeid - 2];
	return NULL;
}

static uint64_t node_get(const char *name)
{
	int i;

	for (i = 0; i < nnodes; i++)
		if (!strcmp(nodes[i], name))
			return (uint64_t)i + 2;
	if (nnodes == MAX_NODES)
		return 0;
	snprintf(nodes[nnodes], sizeof(nodes[0]), "%s", name);
	node_fd[nnodes] = -1;
	return (uint64_t)nnodes++ + 2;
}

/* fstatat() of a node: by its tmpfile fd, or by its path */
static int node_stat(uint64_t nodeid, struct stat *st)
{
	const char *p = node_path(nodeid);

	if (!p) {
		errno = ENOENT;
		return -1;
	}
	if (nodeid >= 2 && node_fd[nodeid - 2] >= 0)
		return fstat(node_fd[nodeid - 2], st);
	return fstatat(backing_fd, p, st, AT_SYMLINK_NOFOLLOW);
}

static void reply(uint64_t unique, int error, const void *arg, size_t len)
{
	struct fuse_out_header oh = {
		.len = (uint32_t)(sizeof(oh) + (error ? 0 : len)),
		.error = error,
		.unique = unique,
	};
	struct iovec iov[2] = {
		{ &oh, sizeof(oh) },
		{ (void *)arg, len },
	};

	/* ENOENT: the request was interrupted and is gone; nothing to do */
	if (writev(fuse_fd, iov, error || !len ? 1 : 2) < 0 && errno != ENOENT)
		server_error("reply to /dev/fuse", "", errno);
}

static void fill_attr(struct fuse_attr *a, const struct stat *st)
{
	memset(a, 0, sizeof(*a));
	a->ino = st->st_ino;
	a->size = (uint64_t)st->st_size;
	a->blocks = (uint64_t)st->st_blocks;
	a->atime = (uint64_t)st->st_atim.tv_sec;
	a->mtime = (uint64_t)st->st_mtim.tv_sec;
	a->ctime = (uint64_t)st->st_ctim.tv_sec;
	a->atimensec = (uint32_t)st->st_atim.tv_nsec;
	a->mtimensec = (uint32_t)st->st_mtim.tv_nsec;
	a->ctimensec = (uint32_t)st->st_ctim.tv_nsec;
	a->mode = st->st_mode;
	a->nlink = (uint32_t)st->st_nlink;
	a->uid = st->st_uid;
	a->gid = st->st_gid;
	a->blksize = (uint32_t)st->st_blksize;
}

/* An entry for name in the root, from its backing file; 0 or -errno. */
static int make_entry(const char *name, struct fuse_entry_out *e)
{
	struct stat st;

	memset(e, 0, sizeof(*e));
	if (fstatat(backing_fd, name, &st, AT_SYMLINK_NOFOLLOW))
		return -errno;
	e->nodeid = node_get(name);
	if (!e->nodeid)
		return -ENFILE;
	/* no caching: every open looks the name up again */
	fill_attr(&e->attr, &st);
	return 0;
}

static void do_init(uint64_t unique, const struct fuse_init_in *in)
{
	struct fuse_init_out out;

	memset(&out, 0, sizeof(out));
	out.major = FUSE_KERNEL_VERSION;
	out.minor = in->minor < FUSE_KERNEL_MINOR_VERSION ?
		    in->minor : FUSE_KERNEL_MINOR_VERSION;
	out.max_readahead = in->max_readahead;
	out.max_background = 16;
	out.congestion_threshold = 12;
	out.max_write = MAX_WRITE;
	out.time_gran = 1;
	if (in->major != FUSE_KERNEL_VERSION) {
		server_error("FUSE_INIT", "kernel major", EPROTO);
		reply(unique, -EPROTO, NULL, 0);
		return;
	}
	reply(unique, 0, &out, sizeof(out));
}

static void do_setattr(uint64_t unique, uint64_t nodeid,
		       const struct fuse_setattr_in *in)
{
	const char *p = node_path(nodeid);
	struct fuse_attr_out out;
	struct stat st;
	int fd = -1;

	if (!p) {
		reply(unique, -ENOENT, NULL, 0);
		return;
	}
	if ((in->valid & FATTR_MODE) && fchmodat(backing_fd, p, in->mode, 0))
		goto err;
	if ((in->valid & (FATTR_UID | FATTR_GID)) &&
	    fchownat(backing_fd, p,
		     in->valid & FATTR_UID ? in->uid : (uid_t)-1,
		     in->valid & FATTR_GID ? in->gid : (gid_t)-1,
		     AT_SYMLINK_NOFOLLOW))
		goto err;
	if (in->valid & FATTR_SIZE) {
		fd = in->valid & FATTR_FH ? (int)in->fh :
		     openat(backing_fd, p, O_WRONLY);
		if (fd < 0 || ftruncate(fd, (off_t)in->size))
			goto err;
		if (!(in->valid & FATTR_FH))
			close(fd);
	}
	if (in->valid & (FATTR_ATIME | FATTR_MTIME)) {
		struct timespec ts[2] = {
			{ (time_t)in->atime, in->atimensec },
			{ (time_t)in->mtime, in->mtimensec },
		};

		if (!(in->valid & FATTR_ATIME))
			ts[0].tv_nsec = UTIME_OMIT;
		else if (in->valid & FATTR_ATIME_NOW)
			ts[0].tv_nsec = UTIME_NOW;
		if (!(in->valid & FATTR_MTIME))
			ts[1].tv_nsec = UTIME_OMIT;
		else if (in->valid & FATTR_MTIME_NOW)
			ts[1].tv_nsec = UTIME_NOW;
		if (utimensat(backing_fd, p, ts, AT_SYMLINK_NOFOLLOW))
			goto err;
	}
	if (fstatat(backing_fd, p, &st, AT_SYMLINK_NOFOLLOW))
		goto err;
	memset(&out, 0, sizeof(out));
	fill_attr(&out.attr, &st);
	reply(unique, 0, &out, sizeof(out));
	return;
err:
	fd = errno;
	server_error("setattr", p, fd);
	reply(unique, -fd, NULL, 0);
}

/* The directory: only the root, read whole on every FUSE_READDIR. */
static void do_readdir(uint64_t unique, const struct fuse_read_in *in)
{
	static char out[BUF_SIZE];
	size_t len = 0, max = in->size < sizeof(out) ? in->size : sizeof(out);
	uint64_t idx = 0;
	struct dirent *de;
	DIR *d;
	int fd;

	fd = openat(backing_fd, ".", O_RDONLY | O_DIRECTORY);
	d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		server_error("opendir", "(backing dir)", errno);
		reply(unique, -errno, NULL, 0);
		return;
	}
	while ((de = readdir(d))) {
		struct fuse_dirent *fd_ent = (struct fuse_dirent *)(out + len);
		size_t nl = strlen(de->d_name), sz;

		if (idx++ < in->offset)
			continue;
		sz = FUSE_DIRENT_ALIGN(FUSE_NAME_OFFSET + nl);
		if (len + sz > max)
			break;
		memset(fd_ent, 0, sz);
		fd_ent->ino = de->d_ino;
		fd_ent->off = idx;
		fd_ent->namelen = (uint32_t)nl;
		fd_ent->type = de->d_type;
		memcpy(fd_ent->name, de->d_name, nl);
		len += sz;
	}
	closedir(d);
	reply(unique, 0, out, len);
}

/*
 * One request.  Returns 0 to go on, 1 when the server should stop.
 * The open flags of FUSE_CREATE and FUSE_OPEN go to openat() as they
 * came: what a naive passthrough server does.
 */
static int handle(const char *buf, size_t n)
{
	const struct fuse_in_header *h = (const void *)buf;
	const char *arg = buf + sizeof(*h);
	uint64_t u = h->unique;
	const char *p = node_path(h->nodeid);
	struct stat st;
	int fd;

	if (n < sizeof(*h) || h->len != n) {
		server_error("request", "length", EPROTO);
		return 1;
	}
	switch (h->opcode) {
	case FUSE_INIT:
		do_init(u, (const void *)arg);
		break;
	case FUSE_DESTROY:
		reply(u, 0, NULL, 0);
		return 1;
	case FUSE_FORGET:
	case FUSE_BATCH_FORGET:
	case FUSE_INTERRUPT:
		break;		/* no reply */
	case FUSE_LOOKUP: {
		struct fuse_entry_out e;
		int r = h->nodeid == FUSE_ROOT_ID ? make_entry(arg, &e) :
			-ENOTDIR;

		reply(u, r, &e, sizeof(e));
		break;
	}
	case FUSE_GETATTR: {
		struct fuse_attr_out out;

		if (node_stat(h->nodeid, &st)) {
			reply(u, -errno, NULL, 0);
			break;
		}
		memset(&out, 0, sizeof(out));
		fill_attr(&out.attr, &st);
		reply(u, 0, &out, sizeof(out));
		break;
	}
	case FUSE_SETATTR:
		do_setattr(u, h->nodeid, (const void *)arg);
		break;
	case FUSE_CREATE: {
		const struct fuse_create_in *in = (const void *)arg;
		const char *name = arg + sizeof(*in);
		struct {
			struct fuse_entry_out e;
			struct fuse_open_out o;
		} out;
		struct rec *rc;
		int r;

		rc = record(h->opcode, in->flags, h->uid, name);
		if (fault && !strcmp(fault, "die"))
			_exit(3);
		if (fault && !strcmp(fault, "hang"))
			for (;;)
				pause();
		if (h->nodeid != FUSE_ROOT_ID) {
			reply(u, -ENOTDIR, NULL, 0);
			break;
		}
		fd = openat(backing_fd, name, (int)in->flags, in->mode);
		if (fd < 0) {
			server_error("openat(O_CREAT)", name, errno);
			reply(u, -errno, NULL, 0);
			break;
		}
		/* the file belongs to the caller, as with a local create */
		if (fchown(fd, h->uid, h->gid))
			server_error("fchown", name, errno);
		r = make_entry(name, &out.e);
		if (r) {
			close(fd);
			reply(u, r, NULL, 0);
			break;
		}
		rc->ino = out.e.attr.ino;
		memset(&out.o, 0, sizeof(out.o));
		out.o.fh = (uint64_t)fd;
		reply(u, 0, &out, sizeof(out));
		break;
	}
	case FUSE_TMPFILE: {
		const struct fuse_create_in *in = (const void *)arg;
		struct {
			struct fuse_entry_out e;
			struct fuse_open_out o;
		} out;
		struct rec *rc;
		char tname[32];
		uint64_t id;

		rc = record(h->opcode, in->flags, h->uid, "(tmpfile)");
		fd = h->nodeid == FUSE_ROOT_ID ?
		     openat(backing_fd, ".", (int)in->flags, in->mode) : -1;
		if (fd < 0) {
			server_error("openat(O_TMPFILE)", ".", errno);
			reply(u, -errno, NULL, 0);
			break;
		}
		if (fchown(fd, h->uid, h->gid) || fstat(fd, &st)) {
			server_error("fchown/fstat", "(tmpfile)", errno);
			close(fd);
			reply(u, -EIO, NULL, 0);
			break;
		}
		snprintf(tname, sizeof(tname), "#tmpfile-%llu",
			 (unsigned long long)st.st_ino);
		id = node_get(tname);
		if (!id) {
			close(fd);
			reply(u, -ENFILE, NULL, 0);
			break;
		}
		/* the open file is fh, closed at FUSE_RELEASE; keep one */
		node_fd[id - 2] = dup(fd);
		rc->ino = st.st_ino;
		memset(&out, 0, sizeof(out));
		out.e.nodeid = id;
		fill_attr(&out.e.attr, &st);
		out.o.fh = (uint64_t)fd;
		reply(u, 0, &out, sizeof(out));
		break;
	}
	case FUSE_OPEN: {
		const struct fuse_open_in *in = (const void *)arg;
		struct fuse_open_out out;

		record(h->opcode, in->flags, h->uid, p ? p : "?");
		fd = p ? openat(backing_fd, p, (int)in->flags) : -1;
		if (fd < 0) {
			server_error("openat", p ? p : "(unknown node)", errno);
			reply(u, p ? -errno : -ENOENT, NULL, 0);
			break;
		}
		memset(&out, 0, sizeof(out));
		out.fh = (uint64_t)fd;
		reply(u, 0, &out, sizeof(out));
		break;
	}
	case FUSE_READ: {
		static char data[BUF_SIZE];
		const struct fuse_read_in *in = (const void *)arg;
		size_t sz = in->size < sizeof(data) ? in->size : sizeof(data);
		ssize_t r = pread((int)in->fh, data, sz, (off_t)in->offset);

		if (r < 0)
			server_error("pread", p ? p : "?", errno);
		reply(u, r < 0 ? -errno : 0, data, r < 0 ? 0 : (size_t)r);
		break;
	}
	case FUSE_WRITE: {
		const struct fuse_write_in *in = (const void *)arg;
		struct fuse_write_out out;
		ssize_t r = pwrite((int)in->fh, arg + sizeof(*in), in->size,
				   (off_t)in->offset);

		if (r < 0) {
			server_error("pwrite", p ? p : "?", errno);
			reply(u, -errno, NULL, 0);
			break;
		}
		memset(&out, 0, sizeof(out));
		out.size = (uint32_t)r;
		reply(u, 0, &out, sizeof(out));
		break;
	}
	case FUSE_FSYNC: {
		const struct fuse_fsync_in *in = (const void *)arg;

		if (fsync((int)in->fh)) {
			server_error("fsync", p ? p : "?", errno);
			reply(u, -errno, NULL, 0);
		} else {
			reply(u, 0, NULL, 0);
		}
		break;
	}
	case FUSE_FLUSH:
	case FUSE_OPENDIR:
	case FUSE_RELEASEDIR:
		if (h->opcode == FUSE_OPENDIR) {
			struct fuse_open_out out;

			memset(&out, 0, sizeof(out));
			reply(u, 0, &out, sizeof(out));
		} else {
			reply(u, 0, NULL, 0);
		}
		break;
	case FUSE_RELEASE: {
		const struct fuse_release_in *in = (const void *)arg;

		close((int)in->fh);
		reply(u, 0, NULL, 0);
		break;
	}
	case FUSE_READDIR:
		do_readdir(u, (const void *)arg);
		break;
	default:
		reply(u, -ENOSYS, NULL, 0);
		break;
	}
	return 0;
}

/* The server's main loop: until the kernel says the mount is gone. */
static int serve(void)
{
	static char buf[BUF_SIZE];

	umask(0);	/* the mode in FUSE_CREATE is already masked */
	for (;;) {
		ssize_t n = read(fuse_fd, buf, sizeof(buf));

		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN ||
			    errno == ENOENT)
				continue;
			if (errno == ENODEV)	/* unmounted: done */
				return sh->errors ? 1 : 0;
			server_error("read", "/dev/fuse", errno);
			return 1;
		}
		if (handle(buf, (size_t)n))
			return sh->errors ? 1 : 0;
	}
}

/* ------------------------------------------------------------ client */

static const int cflags[] = { 0, O_HOT, O_COLD };

static void fuse_name(char *buf, size_t len, const char *tag, int flag)
{
	snprintf(buf, len, "%s-%s", tag, flag_name(flag));
}

static int check_data(int fd, unsigned char seed)
{
	static unsigned char buf[FILE_SIZE];
	ssize_t r = read(fd, buf, sizeof(buf));
	size_t i;

	if (r != (ssize_t)sizeof(buf)) {
		diag("read back: %zd bytes: %s", r,
		     r < 0 ? strerror(errno) : "short");
		return 0;
	}
	for (i = 0; i < sizeof(buf); i++)
		if (buf[i] != (unsigned char)(seed + i * 7)) {
			diag("read back: byte %zu differs", i);
			return 0;
		}
	return 1;
}

static unsigned long long cap_eff(void)
{
	char buf[256];
	unsigned long long v = ~0ULL;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return v;
	while (fgets(buf, sizeof(buf), f))
		if (!strncmp(buf, "CapEff:", 7))
			v = strtoull(buf + 7, NULL, 16);
	fclose(f);
	return v;
}

/* Runs as uid/gid 65534; returns the exit status. */
static int client(const char *tag)
{
	char name[128], path[256];
	int seen[3] = { 0, 0, 0 }, fd, ok;
	struct dirent *de;
	unsigned int i;
	DIR *d;

	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY)) {
		tap_ok(0, "client drops to uid/gid %d: %s", NOBODY,
		       strerror(errno));
		return 1;
	}
	tap_ok(getuid() == NOBODY && geteuid() == NOBODY &&
	       getgid() == NOBODY && getegid() == NOBODY &&
	       getgroups(0, NULL) == 0 && cap_eff() == 0,
	       "client runs as uid %d gid %d, no supplementary groups, no "
	       "capabilities (CapEff %#llx)", (int)geteuid(),
	       (int)getegid(), cap_eff());

	for (i = 0; i < 3; i++) {
		fuse_name(name, sizeof(name), tag, cflags[i]);
		snprintf(path, sizeof(path), "%s/%s", mp, name);
		fd = open(path, O_CREAT | O_WRONLY | cflags[i], 0644);
		if (fd < 0) {
			tap_ok(0, "uid %d: open(%s, O_CREAT|O_WRONLY%s%s) on "
			       "the FUSE mount: %s", NOBODY, name,
			       cflags[i] ? "|O_" : "",
			       cflags[i] == O_HOT ? "HOT" :
			       cflags[i] == O_COLD ? "COLD" : "",
			       strerror(errno));
			continue;
		}
		ok = !write_fill(fd, FILE_SIZE, (unsigned char)i);
		close(fd);
		tap_ok(ok, "uid %d: open(%s, O_CREAT|O_WRONLY%s%s) on the "
		       "FUSE mount, %d KiB written and fsync'd", NOBODY, name,
		       cflags[i] ? "|O_" : "",
		       cflags[i] == O_HOT ? "HOT" :
		       cflags[i] == O_COLD ? "COLD" : "",
		       FILE_SIZE / 1024);
	}

	/* an unnamed file: FUSE_TMPFILE */
	fd = open(mp, O_TMPFILE | O_WRONLY | O_HOT, 0600);
	if (fd < 0) {
		tap_ok(0, "uid %d: open(mount, O_TMPFILE|O_WRONLY|O_HOT): %s",
		       NOBODY, strerror(errno));
	} else {
		ok = !write_fill(fd, FILE_SIZE, 3);
		close(fd);
		tap_ok(ok, "uid %d: open(mount, O_TMPFILE|O_WRONLY|O_HOT), "
		       "%d KiB written and fsync'd", NOBODY, FILE_SIZE / 1024);
	}

	/* existing files: FUSE_OPEN, not FUSE_CREATE */
	fuse_name(name, sizeof(name), tag, O_HOT);
	snprintf(path, sizeof(path), "%s/%s", mp, name);
	fd = open(path, O_WRONLY | O_HOT);
	tap_ok(fd >= 0, "uid %d: open(%s, O_WRONLY|O_HOT) of the existing "
	       "file%s%s", NOBODY, name, fd < 0 ? ": " : "",
	       fd < 0 ? strerror(errno) : "");
	if (fd >= 0)
		close(fd);
	fuse_name(name, sizeof(name), tag, 0);
	snprintf(path, sizeof(path), "%s/%s", mp, name);
	fd = open(path, O_RDONLY | O_COLD);
	ok = fd >= 0 && check_data(fd, 0);
	tap_ok(ok, "uid %d: open(%s, O_RDONLY|O_COLD) reads back what was "
	       "written%s%s", NOBODY, name, fd < 0 ? ": " : "",
	       fd < 0 ? strerror(errno) : "");
	if (fd >= 0)
		close(fd);

	/* the directory, through the server */
	d = opendir(mp);
	if (!d) {
		tap_ok(0, "uid %d: opendir %s: %s", NOBODY, mp,
		       strerror(errno));
		return 0;
	}
	while ((de = readdir(d)))
		for (i = 0; i < 3; i++) {
			fuse_name(name, sizeof(name), tag, cflags[i]);
			if (!strcmp(de->d_name, name))
				seen[i] = 1;
		}
	closedir(d);
	tap_ok(seen[0] && seen[1] && seen[2], "uid %d: readdir of the FUSE "
	       "mount lists the three files (%d %d %d)", NOBODY, seen[0],
	       seen[1], seen[2]);
	return 0;
}

/* ------------------------------------------------------------ parent */

static const char *opname(uint32_t op)
{
	return op == FUSE_CREATE ? "FUSE_CREATE" :
	       op == FUSE_TMPFILE ? "FUSE_TMPFILE" :
	       op == FUSE_OPEN ? "FUSE_OPEN" : "?";
}

/* Wait for pid up to tmo seconds; 1 and *status if it ended, else 0. */
static int wait_for(pid_t pid, int tmo, int *status)
{
	int i;

	for (i = 0; i < tmo * 20; i++) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return 1;
		if (r < 0 && errno != EINTR)
			return 0;
		usleep(50000);
	}
	return 0;
}

/*
 * Kill the server first: its /dev/fuse fd is the connection's last, so
 * its death aborts every request a stuck client waits for.
 */
static void kill_all(void)
{
	if (server_pid > 0)
		kill(server_pid, SIGKILL);
	if (client_pid > 0)
		kill(client_pid, SIGKILL);
}

/* SIGALRM (the backstop) or SIGTERM (guest-check.sh's timeout) */
static void on_alarm(int sig)
{
	static const char msg[] = "not ok - fuse: setup: the test ran out "
				  "of time or was terminated; server and "
				  "client killed, mount detached\n";

	(void)sig;
	kill_all();
	if (mp[0])
		umount2(mp, MNT_DETACH);
	if (write(1, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(2);
}

/* Detach the mount, kill what is left; called on every exit path. */
static void teardown(void)
{
	if (mp[0]) {
		umount2(mp, MNT_DETACH);
		rmdir(mp);
		mp[0] = 0;
	}
	kill_all();
	if (server_pid > 0)
		waitpid(server_pid, NULL, 0);
	if (client_pid > 0)
		waitpid(client_pid, NULL, 0);
	server_pid = client_pid = 0;
}

struct backing {
	int ok;
	uint64_t ino;
	uint32_t igroup;
	struct extent_groups eg;
};

static void stat_backing(const char *dir, const char *name, struct backing *b)
{
	char path[768];
	struct stat st;
	int fd;

	memset(b, 0, sizeof(*b));
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	if (fd < 0 || fsync(fd) || fstat(fd, &st) ||
	    fiemap_groups(fd, &G, &b->eg)) {
		diag("backing file %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	close(fd);
	b->ino = st.st_ino;
	b->igroup = ino_group(&G, st.st_ino);
	b->ok = 1;
	diag("backing %s: ino %" PRIu64 " group %u uid %u, data %s", name,
	     b->ino, b->igroup, (unsigned int)st.st_uid, b->eg.desc);
}

int main(int argc, char **argv)
{
	struct counters c0, c1, dl;
	struct dirinfo mid, cold;
	struct backing b[3];
	struct fileres ctl;
	const char *dev, *mnt, *devname;
	char opts[160], tag[48], name[128], prefix[32];
	int patched, status, i, ncreate = 0, nopen = 0, ntmp = 0, clean;
	uint64_t tmp_ino = 0;

	if (argc != 4 || (strcmp(argv[1], "patched") &&
			  strcmp(argv[1], "stock"))) {
		fprintf(stderr, "usage: %s patched|stock DEV MNT\n", argv[0]);
		return 2;
	}
	patched = !strcmp(argv[1], "patched");
	dev = argv[2];
	mnt = argv[3];
	devname = dev_basename(dev);
	snprintf(prefix, sizeof(prefix), "fuse-%s", argv[1]);
	tap_init(prefix);
	fault = getenv("HC_FUSE_FAULT");
	if (fault && strcmp(fault, "die") && strcmp(fault, "hang")) {
		fprintf(stderr, "hc_fuse: HC_FUSE_FAULT must be die or hang "
			"(got '%s')\n", fault);
		return 2;
	}
	if (geteuid() != 0)
		tap_bail("must start as root");
	if (ext4_read_geom(dev, &G))
		tap_bail("cannot read the ext4 superblock of %s", dev);
	ext4_print_geom(dev, &G);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));
	memset(sh, 0, sizeof(*sh));
	/* the backing dir: world-writable, its flex group in the middle */
	if (pick_dirs(mnt, "fd", &G, 01777, &mid, &cold))
		tap_bail("no top-level dir of %s in the middle third", mnt);
	backing_fd = open(mid.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (backing_fd < 0)
		tap_bail("open %s: %s", mid.path, strerror(errno));
	snprintf(tag, sizeof(tag), "f%d", (int)getpid());

	signal(SIGALRM, on_alarm);
	signal(SIGTERM, on_alarm);
	alarm(TOTAL_TMO);
	read_counters(devname, &c0);

	snprintf(mp, sizeof(mp), "/tmp/hc-fuse.%d", (int)getpid());
	if (mkdir(mp, 0755)) {
		mp[0] = 0;
		tap_bail("mkdir the mount point: %s", strerror(errno));
	}
	fuse_fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fuse_fd < 0) {
		rmdir(mp);
		tap_bail("open /dev/fuse: %s (CONFIG_FUSE_FS?)",
			 strerror(errno));
	}
	snprintf(opts, sizeof(opts), "fd=%d,rootmode=40000,user_id=0,"
		 "group_id=0,allow_other", fuse_fd);
	if (mount("hc_fuse", mp, "fuse", MS_NOSUID | MS_NODEV, opts)) {
		int e = errno;

		rmdir(mp);
		tap_bail("mount -t fuse -o %s %s: %s", opts, mp, strerror(e));
	}
	tap_ok(1, "fuse mounted on %s (allow_other), backed by %s", mp,
	       mid.path);

	fflush(stdout);
	server_pid = fork();
	if (server_pid < 0) {
		int e = errno;

		server_pid = 0;
		teardown();
		tap_bail("fork the server: %s", strerror(e));
	}
	if (!server_pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		signal(SIGALRM, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		alarm(0);
		_exit(serve());
	}
	/* only the server holds the connection: its death aborts it */
	close(fuse_fd);
	fuse_fd = -1;

	client_pid = fork();
	if (client_pid < 0) {
		int e = errno;

		client_pid = 0;
		teardown();
		tap_bail("fork the client: %s", strerror(e));
	}
	if (!client_pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(backing_fd);
		signal(SIGTERM, SIG_DFL);
		signal(SIGALRM, SIG_DFL);
		alarm(CLIENT_TMO);
		_exit(client(tag));
	}
	if (!wait_for(client_pid, WAIT_TMO, &status)) {
		tap_ok(0, "client finished within %d s (killed; server "
		       "%s)", WAIT_TMO,
		       waitpid(server_pid, NULL, WNOHANG) ? "gone" :
		       "alive");
		teardown();
	} else {
		client_pid = 0;
		tap_ok(WIFEXITED(status) && !WEXITSTATUS(status),
		       "client finished normally (status %#x%s)", status,
		       WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM ?
		       ": its alarm went off" : "");
	}
	if (mp[0]) {
		int r = umount2(mp, MNT_DETACH), e = errno;

		tap_ok(!r, "umount2(%s, MNT_DETACH)%s%s", mp, r ? ": " : "",
		       r ? strerror(e) : "");
		rmdir(mp);
		mp[0] = 0;
	}
	if (server_pid > 0) {
		clean = wait_for(server_pid, SERVER_TMO, &status);
		if (clean)
			server_pid = 0;
		tap_ok(clean && WIFEXITED(status) && !WEXITSTATUS(status),
		       "server left after the unmount with status 0 (%s %#x)",
		       clean ? "status" : "still running after",
		       clean ? status : SERVER_TMO);
	}
	teardown();
	alarm(0);
	if (!tap_ok(!sh->errors, "server: every backing-file call "
		    "succeeded (%d failed)", sh->errors))
		diag("first failure: %s", sh->err);

	/* what the server was asked: each create and open, then the bits */
	for (i = 0; i < sh->nrec; i++) {
		const struct rec *r = &sh->r[i];

		diag("server saw %s %s flags %#o uid %u backing ino %" PRIu64,
		     opname(r->opcode), r->name, r->flags, r->uid, r->ino);
		if (r->opcode == FUSE_TMPFILE) {
			ntmp++;
			tmp_ino = r->ino;
		} else if (strncmp(r->name, tag, strlen(tag))) {
			continue;
		} else if (r->opcode == FUSE_CREATE) {
			ncreate++;
		} else {
			nopen++;
		}
		tap_ok(!(r->flags & HINTS), "%s %s from uid %u: flags %#o "
		       "carry neither O_HOT (%#o) nor O_COLD (%#o)",
		       opname(r->opcode), r->name, r->uid, r->flags, O_HOT,
		       O_COLD);
	}
	/* and the field read is the open flags: O_WRONLY/O_CREAT are there */
	tap_ok(ncreate == 3 && ntmp == 1 && nopen == 2, "server got 3 "
	       "FUSE_CREATE, 1 FUSE_TMPFILE and 2 FUSE_OPEN for this run's "
	       "files (got %d, %d and %d)", ncreate, ntmp, nopen);
	for (i = 0; i < sh->nrec; i++)
		if (sh->r[i].opcode == FUSE_CREATE &&
		    !strncmp(sh->r[i].name, tag, strlen(tag)) &&
		    ((sh->r[i].flags & O_ACCMODE) != O_WRONLY ||
		     !(sh->r[i].flags & O_CREAT)))
			break;
	tap_ok(ncreate && i == sh->nrec, "every FUSE_CREATE carries "
	       "O_WRONLY|O_CREAT: the recorded field is the open flags");

	/* where the backing files went */
	for (i = 0; i < 3; i++) {
		fuse_name(name, sizeof(name), tag, cflags[i]);
		stat_backing(mid.path, name, &b[i]);
	}
	tap_ok(b[0].ok && same_flex(&G, b[0].igroup, mid.group) &&
	       b[0].eg.nextents && !b[0].eg.unmapped &&
	       b[0].eg.min_group >= hot_end(&G) &&
	       b[0].eg.max_group < cold_start(&G),
	       "backing file of the plain create: inode group %u in the "
	       "dir's flex group (dir group %u), data in the middle third "
	       "[%u,%u)", b[0].igroup, mid.group, hot_end(&G),
	       cold_start(&G));
	for (i = 1; i < 3; i++)
		tap_ok(b[0].ok && b[i].ok && b[i].igroup == b[0].igroup &&
		       b[i].eg.nextents && !b[i].eg.unmapped &&
		       b[i].eg.min_group >= hot_end(&G) &&
		       b[i].eg.max_group < cold_start(&G),
		       "backing file of the uid %d O_%s create was not "
		       "created %s: inode group %u like the plain one (%u), "
		       "data groups %u..%u in the middle third [%u,%u)",
		       NOBODY, cflags[i] == O_HOT ? "HOT" : "COLD",
		       flag_name(cflags[i]), b[i].igroup, b[0].igroup,
		       b[i].eg.min_group, b[i].eg.max_group, hot_end(&G),
		       cold_start(&G));

	tap_ok(b[0].ok && tmp_ino &&
	       ino_group(&G, tmp_ino) == b[0].igroup,
	       "backing tmpfile of the uid %d O_TMPFILE|O_HOT open was not "
	       "created hot: inode %" PRIu64 " in group %u like the plain "
	       "one (%u)", NOBODY, tmp_ino,
	       tmp_ino ? ino_group(&G, tmp_ino) : 0, b[0].igroup);

	/* what ext4 counted (the patched kernel's counters) */
	read_counters(devname, &c1);
	if (patched) {
		if (tap_ok(counters_exist(&c0) && counters_exist(&c1),
			   "patched: /sys/fs/ext4/%s/hint_* exist", devname)) {
			counters_delta(&c0, &c1, &dl, "fuse creates");
			tap_ok(!dl.v[C_HONOURED] && !dl.v[C_NONROT] &&
			       !dl.v[C_NOPERM] && !dl.v[C_FALLBACK],
			       "ext4 counted no hint for the backing files "
			       "(hint_* deltas %lld %lld %lld %lld)",
			       dl.v[C_HONOURED], dl.v[C_NONROT],
			       dl.v[C_NOPERM], dl.v[C_FALLBACK]);
		}
		/*
		 * The control: root's own O_HOT create in the backing dir
		 * does land hot, so the placement check above can see hot.
		 */
		snprintf(name, sizeof(name), "%s-control-hot", tag);
		if (make_file(&G, mid.path, name, O_HOT, FILE_SIZE, &ctl))
			tap_ok(0, "control: root's O_HOT create of %s: %s",
			       name, strerror(errno));
		else
			tap_ok(in_hot(&G, ctl.igroup) && ctl.eg.nextents &&
			       !ctl.eg.unmapped &&
			       ctl.eg.max_group < hot_end(&G),
			       "control: root's own O_HOT create in %s lands "
			       "hot (inode group %u, data %u..%u, hot [0,%u))",
			       mid.path, ctl.igroup, ctl.eg.min_group,
			       ctl.eg.max_group, hot_end(&G));
	} else {
		tap_ok(c0.v[C_HONOURED] < 0, "stock: no hint_* counters");
		tap_skip("the stock kernel has no hint_* counters",
			 "ext4 counted no hint for the backing files");
	}
	close(backing_fd);
	return tap_exit();
}
