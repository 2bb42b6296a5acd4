// SPDX-License-Identifier: GPL-2.0
/*
 * hc-track - watch the reads on a mounted ext4 with fanotify, count them
 * per file, and every interval move the files read most into the hot
 * region (and the ones that cooled out of it away), with the machinery
 * of hc-move (bench/tools/moveext.c: EXT4_IOC_MOVE_EXT through a donor created
 * with O_HOT or O_COLD).  `hc-track --help` is the manual; the README's
 * "Hotness observed: hc-track" says why it works the way it does.
 *
 * SYNOPSIS
 *	hc-track (--top N | --hot-bytes B) [options] MOUNT
 *
 * OBSERVING
 *	fanotify_init(FAN_CLASS_NOTIF) and one FAN_MARK_FILESYSTEM mark with
 *	FAN_ACCESS on MOUNT's filesystem: every read of a regular file on that
 *	filesystem, through any of its mounts, queues an event with an open
 *	descriptor of the file; the file is keyed by (st_dev, st_ino) from
 *	fstat() of that descriptor, and its path (readlink of
 *	/proc/self/fd/N) is kept for the move and looked up again when the
 *	file was renamed.  Events caused by hc-track itself are ignored.
 *
 *	Which reads make a FAN_ACCESS in 6.1 (fs/read_write.c, io_uring/rw.c,
 *	fs/aio.c): read(2), pread64, readv, preadv, preadv2 (buffered and
 *	O_DIRECT alike), sendfile and copy_file_range (the source), io_uring
 *	READ/READV/READ_FIXED (not with IORING_SETUP_IOPOLL).  Not seen: Linux
 *	native aio (io_submit: aio_read() calls ->read_iter directly, fs/aio.c
 *	has no fsnotify call), mmap page faults, splice(2) from a file.
 *
 *	The kernel merges an access event with a queued one for the same file
 *	and process that was not read yet (fanotify_merge(), up to 128 queued
 *	events looked at): a count is of accesses seen, one per read when
 *	hc-track keeps up, fewer when it falls behind (while it moves a file,
 *	for one).  A full queue (16384 events) drops events: the kernel
 *	queues one overflow event, counted in the interval's message ("queue
 *	overflows").
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/fanotify.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "moveext.h"

#define RETRY_INTERVALS	4	/* a failed move is tried again this much later */

enum state { ST_NONE, ST_HOT };

struct file {
	dev_t dev;
	ino_t ino;
	char *path;
	uint64_t size;
	double score;		/* decayed count of accesses */
	unsigned long events;	/* accesses in the current interval */
	unsigned long last_events; /* in the last interval closed */
	enum state state;	/* ST_HOT: known to be in the hot region */
	int need_path;		/* the path no longer names this file */
	long retry_at;		/* no move before this interval */
	int in_top, in_band;
};

static struct file *files;
static size_t nfiles, cap_files;
static size_t *slots;		/* hash of (dev, ino) -> index + 1 */
static size_t nslots;

static double interval_s = 10, half_life_s = 60, duration_s, hysteresis = 25;
static double min_reads = 2;
static uint64_t budget = 64ULL << 20, hot_bytes;
static long top_n = -1;
static enum { DEM_NONE, DEM_COLD, DEM_KEEP } demote = DEM_NONE;
static struct hc_move_opts mopts = { .min_frac = 0.9, .quiet = 1 };
static int quiet;
static FILE *log_fp;
static volatile sig_atomic_t stop_sig;
static double t_start;

static void help(FILE *f)
{
	fprintf(f,
"usage: hc-track (--top N | --hot-bytes B) [options] MOUNT\n"
"\n"
"Watches the reads on the ext4 filesystem MOUNT is on (fanotify FAN_ACCESS,\n"
"a filesystem mark), keeps a decayed count of reads per file (keyed by device\n"
"and inode number), and every --interval seconds moves the files read most\n"
"into the hot region and the ones that fell out of that set out of it, with\n"
"EXT4_IOC_MOVE_EXT through a donor created with O_HOT or O_COLD (as hc-move\n"
"does: same inode, name and contents; readers see the data throughout).\n"
"Needs root (CAP_SYS_ADMIN for the filesystem mark, CAP_SYS_RESOURCE for O_HOT).\n"
"\n"
"The hot set (exactly one of):\n"
"  --top N          the N files with the highest counts\n"
"  --hot-bytes B    files in order of count, each taken if it fits, up to B bytes\n"
"Options:\n"
"  --interval S     seconds between decisions (default 10)\n"
"  --budget B       bytes moved per interval at most, promotions first (default\n"
"                   64M); a file that does not fit waits (\"deferred\"); 0 moves\n"
"                   nothing (observe and log only)\n"
"  --min-reads R    a file enters the hot set only with a count of at least R\n"
"                   (default 2)\n"
"  --half-life S    the count's half-life: at every interval of length dt the\n"
"                   count becomes count * 2^(-dt/S) + the interval's reads;\n"
"                   0 keeps no memory (default 60)\n"
"  --demote WHERE   where a file goes that hc-track knows to be in the hot\n"
"                   region (moved there, or found there) once it falls out of\n"
"                   the hot set and its band: none (where unhinted data goes;\n"
"                   default), cold (the cold region) or keep (left in place)\n"
"  --hysteresis P   the band: a hot file is demoted only when it is out of the\n"
"                   top N * (1 + P/100) or B * (1 + P/100) (default 25)\n"
"  --min-frac F     a move is made only if the donor got at least F of its\n"
"                   bytes in the region (default 0.9; as hc-move)\n"
"  --scan DIR       at start, note every regular file under DIR (same\n"
"                   filesystem) with a count of 0, and which of them are in\n"
"                   the hot region already: those are demoted if not read\n"
"  --log FILE       the CSV log (default standard output): one row per move\n"
"                   tried: time,interval,file,inode,size,reads,events,action,\n"
"                   bytes,result,first_after,seconds\n"
"                   time: seconds since start; reads: the decayed count;\n"
"                   events: reads in the last interval; action: hot, cold or\n"
"                   none; bytes: moved; result: moved, already (in the region;\n"
"                   nothing moved), misplaced (the donor missed the region;\n"
"                   file left as it was), deferred (over the interval's\n"
"                   budget), no_path (renamed or deleted; waits for its next\n"
"                   read), error; first_after: the file's fraction in the hot\n"
"                   third afterwards; seconds: the move's time\n"
"  --duration S     stop after S seconds (default 0: run until SIGINT/SIGTERM)\n"
"  --quiet          no per-interval message on stderr\n"
"  --help           this text\n"
"\n"
"Reads counted (6.1): read, pread, readv, preadv(2), buffered or O_DIRECT,\n"
"sendfile, copy_file_range, io_uring reads (not IOPOLL).  Not counted: Linux\n"
"native aio (io_submit), mmap, splice.  Reads queued while hc-track is busy\n"
"are merged by the kernel (one per file and process).  A failed move is tried\n"
"again %d intervals later.  SIGINT or SIGTERM: stop after the current move,\n"
"exit 0.  Exit status: 0 stopped; 1 fanotify or the filesystem failed; 2 bad\n"
"usage.  See bench/tools/hc-track.c and the README.\n", RETRY_INTERVALS);
}

static int bad(const char *opt, const char *val, const char *want)
{
	fprintf(stderr, "hc-track: %s '%s': %s\n", opt, val, want);
	return 2;
}

/* "64M", "1G", "4096"; binary multiples */
static int parse_bytes(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	int sh = 0;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (end == s || errno)
		return -1;
	switch (*end) {
	case 'k': case 'K': sh = 10; end++; break;
	case 'm': case 'M': sh = 20; end++; break;
	case 'g': case 'G': sh = 30; end++; break;
	case 't': case 'T': sh = 40; end++; break;
	}
	if (*end || (sh && v > (UINT64_MAX >> sh)))
		return -1;
	*out = (uint64_t)v << sh;
	return 0;
}

static int parse_secs(const char *s, double *out, int zero_ok)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !isfinite(v) || v < 0 || (!zero_ok && v == 0) ||
	    v > 1e7)
		return -1;
	*out = v;
	return 0;
}

static void on_signal(int sig)
{
	stop_sig = sig;
}

static double elapsed(void)
{
	return hc_now() - t_start;
}

/* ---- the table of files, by (dev, ino) */
static size_t hash(dev_t dev, ino_t ino)
{
	uint64_t h = (uint64_t)ino * 0x9e3779b97f4a7c15ULL ^ (uint64_t)dev;

	return (size_t)(h ^ (h >> 29));
}

static int grow(void)
{
	size_t n = nslots ? 2 * nslots : 1024, i, *s = calloc(n, sizeof(*s));

	if (!s)
		return -1;
	for (i = 0; i < nfiles; i++) {
		size_t j = hash(files[i].dev, files[i].ino) & (n - 1);

		while (s[j])
			j = (j + 1) & (n - 1);
		s[j] = i + 1;
	}
	free(slots);
	slots = s;
	nslots = n;
	return 0;
}

/* the file's entry, created when @create; NULL when out of memory */
static struct file *lookup(dev_t dev, ino_t ino, int create)
{
	size_t j;
	struct file *f;

	if (!nslots && (!create || grow()))
		return NULL;
	for (j = hash(dev, ino) & (nslots - 1); slots[j]; j = (j + 1) & (nslots - 1)) {
		f = &files[slots[j] - 1];
		if (f->dev == dev && f->ino == ino)
			return f;
	}
	if (!create)
		return NULL;
	if (2 * (nfiles + 1) > nslots) {
		if (grow())
			return NULL;
		return lookup(dev, ino, create);
	}
	if (nfiles == cap_files) {
		size_t n = cap_files ? 2 * cap_files : 256;
		struct file *t = realloc(files, n * sizeof(*t));

		if (!t)
			return NULL;
		files = t;
		cap_files = n;
	}
	f = &files[nfiles];
	memset(f, 0, sizeof(*f));
	f->dev = dev;
	f->ino = ino;
	f->need_path = 1;
	slots[j] = ++nfiles;
	return f;
}

/* ---- observing */
static unsigned long ev_total, ev_interval, ev_lost;

static void set_path(struct file *f, const char *p)
{
	char *c = strdup(p);

	if (!c)
		return;
	free(f->path);
	f->path = c;
	f->need_path = 0;
}

static void one_event(int fd)
{
	char link[64], p[PATH_MAX];
	struct stat st;
	struct file *f;
	ssize_t n;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !st.st_nlink)
		return;
	f = lookup(st.st_dev, st.st_ino, 1);
	if (!f)
		return;
	f->events++;
	f->size = st.st_size;
	ev_interval++;
	if (f->need_path) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, p, sizeof(p) - 1);
		if (n > 0) {
			p[n] = '\0';
			set_path(f, p);
		}
	}
}

/* drain the queue; -1 on a read error */
static int drain(int fan)
{
	static char buf[256 * 1024] __attribute__((aligned(8)));
	pid_t self = getpid();

	for (;;) {
		ssize_t len = read(fan, buf, sizeof(buf));
		struct fanotify_event_metadata *m = (void *)buf;

		if (len < 0)
			return errno == EAGAIN || errno == EINTR ? 0 : -1;
		if (!len)
			return 0;
		for (; FAN_EVENT_OK(m, len); m = FAN_EVENT_NEXT(m, len)) {
			if (m->vers != FANOTIFY_METADATA_VERSION) {
				fprintf(stderr, "hc-track: fanotify metadata version %u, want %u\n",
					m->vers, FANOTIFY_METADATA_VERSION);
				return -1;
			}
			if (m->mask & FAN_Q_OVERFLOW)
				ev_lost++;
			if (m->fd < 0)
				continue;
			ev_total++;
			if (m->pid != self && (m->mask & FAN_ACCESS))
				one_event(m->fd);
			close(m->fd);
		}
	}
}

/* ---- --scan */
static struct hc_sb scan_sb;
static dev_t scan_dev;

static int scan_one(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	uint64_t b[3];
	struct file *f;
	int fd;

	(void)ftw;
	if (type != FTW_F || !S_ISREG(st->st_mode) || st->st_dev != scan_dev)
		return 0;
	f = lookup(st->st_dev, st->st_ino, 1);
	if (!f)
		return -1;
	f->size = st->st_size;
	if (f->need_path)
		set_path(f, path);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return 0;
	if (!hc_thirds(fd, &scan_sb, b) && st->st_size &&
	    hc_frac(b, 0) >= mopts.min_frac)
		f->state = ST_HOT;
	close(fd);
	return 0;
}

/* ---- deciding */
static int by_score(const void *a, const void *b)
{
	const struct file *x = *(struct file *const *)a, *y = *(struct file *const *)b;

	if (x->score != y->score)
		return x->score < y->score ? 1 : -1;
	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

static void log_row(long iv, const struct file *f, enum hc_target t,
		    uint64_t bytes, const char *result, double first_after,
		    double secs)
{
	fprintf(log_fp, "%.3f,%ld,", elapsed(), iv);
	csv_field(log_fp, f->path ? f->path : "");
	fprintf(log_fp, ",%llu,%llu,%.1f,%lu,%s,%llu,%s,",
		(unsigned long long)f->ino, (unsigned long long)f->size,
		f->score, f->last_events, hc_target_name[t],
		(unsigned long long)bytes, result);
	if (first_after >= 0)
		fprintf(log_fp, "%.4f", first_after);
	fprintf(log_fp, ",%.3f\n", secs);
	fflush(log_fp);
}

struct tally {
	unsigned long moved, deferred, failed;
	uint64_t bytes;
};

/* try to move @f to @t within the interval's budget */
static void try_move(long iv, struct file *f, enum hc_target t,
		     uint64_t *left, struct tally *ty)
{
	struct hc_move_result r;
	struct stat st;
	int rc;

	if (!f->path || f->need_path || stat(f->path, &st) ||
	    st.st_dev != f->dev || st.st_ino != f->ino) {
		f->need_path = 1;
		log_row(iv, f, t, 0, "no_path", -1, 0);
		ty->failed++;
		return;
	}
	f->size = st.st_size;
	if (f->size > *left) {
		log_row(iv, f, t, 0, "deferred", -1, 0);
		ty->deferred++;
		return;
	}
	rc = hc_move_file(f->path, t, &mopts, &r);
	if (r.moved > *left)		/* cannot happen: the size was checked */
		r.moved = *left;
	*left -= r.moved;
	ty->bytes += r.moved;
	if (!rc && !strcmp(r.outcome, "moved"))
		ty->moved++;
	if (!rc) {
		f->state = t == HC_HOT ? ST_HOT : ST_NONE;
		/* a move to "none" may land in the hot third (region_reserve off) */
		if (t != HC_HOT && hc_frac(r.after, 0) >= mopts.min_frac) {
			f->state = ST_HOT;
			f->retry_at = iv + RETRY_INTERVALS;
		}
	} else {
		f->retry_at = iv + RETRY_INTERVALS;
		ty->failed++;
	}
	log_row(iv, f, t, r.moved, r.outcome,
		strcmp(r.outcome, "error") ? hc_frac(r.after, 0) : -1, r.seconds);
}

static void decide(long iv, double dt)
{
	double d = half_life_s > 0 ? exp2(-dt / half_life_s) : 0;
	struct file **c = NULL;
	size_t n = 0, i, nhot = 0, placed = 0;
	uint64_t left = budget, cum = 0, cum_band = 0;
	double band = 1 + hysteresis / 100;
	struct tally ty = { 0 };
	enum hc_target dt_target = demote == DEM_COLD ? HC_COLD : HC_NONE;

	for (i = 0; i < nfiles; i++) {
		struct file *f = &files[i];

		f->score = f->score * d + f->events;
		f->last_events = f->events;
		f->events = 0;
		f->in_top = f->in_band = 0;
	}
	c = nfiles ? malloc(nfiles * sizeof(*c)) : NULL;
	if (nfiles && !c) {
		fprintf(stderr, "hc-track: out of memory\n");
		return;
	}
	for (i = 0; i < nfiles; i++)
		if (files[i].score >= min_reads && files[i].score > 0)
			c[n++] = &files[i];
	qsort(c, n, sizeof(*c), by_score);
	for (i = 0; i < n; i++) {
		struct file *f = c[i];

		if (top_n >= 0) {
			f->in_top = (long)i < top_n;
			f->in_band = i < (size_t)ceil(top_n * band);
		} else {
			if (cum + f->size <= hot_bytes) {
				f->in_top = 1;
				cum += f->size;
			}
			if (cum_band + f->size <= hot_bytes * band) {
				f->in_band = 1;
				cum_band += f->size;
			}
		}
		nhot += f->in_top;
	}
	/* promotions, the most read first */
	for (i = 0; i < n && !stop_sig; i++) {
		struct file *f = c[i];

		if (!f->in_top || f->state == ST_HOT || f->retry_at > iv)
			continue;
		try_move(iv, f, HC_HOT, &left, &ty);
	}
	/* demotions, the least read first */
	if (demote != DEM_KEEP) {
		struct file **dm = malloc((nfiles ? nfiles : 1) * sizeof(*dm));
		size_t m = 0;

		for (i = 0; dm && i < nfiles; i++)
			if (files[i].state == ST_HOT && !files[i].in_band &&
			    files[i].retry_at <= iv)
				dm[m++] = &files[i];
		if (dm)
			qsort(dm, m, sizeof(*dm), by_score);
		for (i = m; dm && i-- > 0 && !stop_sig;)
			try_move(iv, dm[i], dt_target, &left, &ty);
		free(dm);
	}
	for (i = 0; i < nfiles; i++)
		placed += files[i].state == ST_HOT;
	if (!quiet)
		fprintf(stderr, "hc-track: interval %ld at %.1fs: %lu reads seen (%lu queue overflows), %zu files known, hot set %zu, %zu in the hot region; moved %lu files, %llu of %llu bytes; %lu deferred, %lu failed\n",
			iv, elapsed(), ev_interval, ev_lost, nfiles, nhot, placed,
			ty.moved, (unsigned long long)ty.bytes,
			(unsigned long long)budget, ty.deferred, ty.failed);
	ev_interval = 0;
	free(c);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "top", required_argument, NULL, 't' },
		{ "hot-bytes", required_argument, NULL, 'B' },
		{ "interval", required_argument, NULL, 'i' },
		{ "budget", required_argument, NULL, 'b' },
		{ "min-reads", required_argument, NULL, 'r' },
		{ "half-life", required_argument, NULL, 'H' },
		{ "demote", required_argument, NULL, 'd' },
		{ "hysteresis", required_argument, NULL, 'y' },
		{ "min-frac", required_argument, NULL, 'f' },
		{ "scan", required_argument, NULL, 's' },
		{ "log", required_argument, NULL, 'l' },
		{ "duration", required_argument, NULL, 'D' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *mnt, *scan = NULL, *logname = NULL;
	struct sigaction sa;
	struct statfs sfs;
	struct stat st;
	double next, last, end_at;
	long iv = 0;
	char *end;
	int c, fan;

	hc_prog = "hc-track";
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			errno = 0;
			top_n = strtol(optarg, &end, 10);
			if (end == optarg || *end || errno || top_n < 1)
				return bad("--top", optarg, "give a whole number >= 1");
			break;
		case 'B':
			if (parse_bytes(optarg, &hot_bytes) || !hot_bytes)
				return bad("--hot-bytes", optarg, "give a size > 0 (bytes, or with K, M, G, T)");
			break;
		case 'i':
			if (parse_secs(optarg, &interval_s, 0))
				return bad("--interval", optarg, "give seconds > 0");
			break;
		case 'b':
			if (parse_bytes(optarg, &budget))
				return bad("--budget", optarg, "give a size >= 0 (bytes, or with K, M, G, T)");
			break;
		case 'r':
			if (parse_secs(optarg, &min_reads, 1))
				return bad("--min-reads", optarg, "give a count >= 0");
			break;
		case 'H':
			if (parse_secs(optarg, &half_life_s, 1))
				return bad("--half-life", optarg, "give seconds >= 0");
			break;
		case 'd':
			if (!strcmp(optarg, "none"))
				demote = DEM_NONE;
			else if (!strcmp(optarg, "cold"))
				demote = DEM_COLD;
			else if (!strcmp(optarg, "keep"))
				demote = DEM_KEEP;
			else
				return bad("--demote", optarg, "give none, cold or keep");
			break;
		case 'y':
			if (parse_secs(optarg, &hysteresis, 1) || hysteresis > 1000)
				return bad("--hysteresis", optarg, "give a percentage from 0 to 1000");
			break;
		case 'f':
			mopts.min_frac = strtod(optarg, &end);
			if (end == optarg || *end || !(mopts.min_frac >= 0 && mopts.min_frac <= 1))
				return bad("--min-frac", optarg, "give a fraction from 0 to 1");
			break;
		case 's':
			scan = optarg;
			break;
		case 'l':
			logname = optarg;
			break;
		case 'D':
			if (parse_secs(optarg, &duration_s, 1))
				return bad("--duration", optarg, "give seconds >= 0");
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			help(stdout);
			return 0;
		default:
			fprintf(stderr, "hc-track: see hc-track --help\n");
			return 2;
		}
	}
	if ((top_n >= 0) == (hot_bytes > 0)) {
		fprintf(stderr, "hc-track: give exactly one of --top N and --hot-bytes B\n");
		return 2;
	}
	if (optind != argc - 1) {
		fprintf(stderr, "hc-track: give one MOUNT (a directory on the ext4 to watch)%s%s%s\n",
			optind < argc - 1 ? "; extra argument '" : "",
			optind < argc - 1 ? argv[optind + 1] : "",
			optind < argc - 1 ? "'" : "");
		return 2;
	}
	mnt = argv[optind];
	if (stat(mnt, &st)) {
		fprintf(stderr, "hc-track: MOUNT '%s': %s\n", mnt, strerror(errno));
		return 2;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "hc-track: MOUNT '%s': not a directory\n", mnt);
		return 2;
	}
	if (statfs(mnt, &sfs) || sfs.f_type != HC_EXT4_SUPER_MAGIC) {
		fprintf(stderr, "hc-track: MOUNT '%s': not on ext4\n", mnt);
		return 2;
	}
	if (scan) {
		struct stat ss;
		int dfd;

		if (stat(scan, &ss) || !S_ISDIR(ss.st_mode) || ss.st_dev != st.st_dev) {
			fprintf(stderr, "hc-track: --scan '%s': not a directory on MOUNT's filesystem\n",
				scan);
			return 2;
		}
		dfd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0 || hc_read_sb(dfd, mnt, &scan_sb))
			return 1;
		close(dfd);
		scan_dev = st.st_dev;
	}
	if (logname) {
		log_fp = fopen(logname, "w");
		if (!log_fp) {
			fprintf(stderr, "hc-track: --log '%s': %s\n", logname,
				strerror(errno));
			return 2;
		}
	} else {
		log_fp = stdout;
	}

	fan = fanotify_init(FAN_CLASS_NOTIF | FAN_CLOEXEC | FAN_NONBLOCK,
			    O_RDONLY | O_LARGEFILE | O_CLOEXEC);
	if (fan < 0) {
		fprintf(stderr, "hc-track: fanotify_init: %s%s\n", strerror(errno),
			errno == EPERM ? " (needs CAP_SYS_ADMIN)" :
			errno == ENOSYS ? " (kernel without CONFIG_FANOTIFY)" : "");
		return 1;
	}
	if (fanotify_mark(fan, FAN_MARK_ADD | FAN_MARK_FILESYSTEM, FAN_ACCESS,
			  AT_FDCWD, mnt)) {
		fprintf(stderr, "hc-track: fanotify_mark(FAN_MARK_FILESYSTEM, FAN_ACCESS) on %s: %s\n",
			mnt, strerror(errno));
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: poll() returns EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	t_start = hc_now();
	if (scan && nftw(scan, scan_one, 64, FTW_PHYS | FTW_MOUNT)) {
		fprintf(stderr, "hc-track: --scan %s: %s\n", scan, strerror(errno));
		return 1;
	}
	fprintf(log_fp, "time,interval,file,inode,size,reads,events,action,bytes,result,first_after,seconds\n");
	fflush(log_fp);
	if (!quiet)
		fprintf(stderr, "hc-track: watching %s (%zu files scanned); interval %gs, %s %llu, budget %llu bytes, half-life %gs, demote to %s\n",
			mnt, nfiles, interval_s, top_n >= 0 ? "top" : "hot bytes",
			top_n >= 0 ? (unsigned long long)top_n : (unsigned long long)hot_bytes,
			(unsigned long long)budget, half_life_s,
			demote == DEM_NONE ? "none" : demote == DEM_COLD ? "cold" : "keep");
	last = t_start;
	next = t_start + interval_s;
	end_at = duration_s > 0 ? t_start + duration_s : INFINITY;
	while (!stop_sig) {
		double now = hc_now(), wake = next < end_at ? next : end_at;
		struct pollfd pfd = { .fd = fan, .events = POLLIN };
		int ms = wake > now ? (int)ceil((wake - now) * 1000) : 0;

		if (poll(&pfd, 1, ms) < 0 && errno != EINTR) {
			fprintf(stderr, "hc-track: poll: %s\n", strerror(errno));
			return 1;
		}
		if (drain(fan)) {
			fprintf(stderr, "hc-track: reading fanotify events: %s\n",
				strerror(errno));
			return 1;
		}
		now = hc_now();
		if (now >= next && !stop_sig) {
			drain(fan);
			decide(++iv, now - last);
			last = now;
			while (next <= hc_now())
				next += interval_s;
		}
		if (hc_now() >= end_at)
			break;
	}
	if (!quiet)
		fprintf(stderr, "hc-track: stopped%s after %.1fs, %ld intervals, %lu reads seen, %lu queue overflows\n",
			stop_sig == SIGINT ? " by SIGINT" : stop_sig == SIGTERM ? " by SIGTERM" : "",
			elapsed(), iv, ev_total, ev_lost);
	if (log_fp != stdout && fclose(log_fp)) {
		fprintf(stderr, "hc-track: --log %s: %s\n", logname, strerror(errno));
		return 1;
	}
	return 0;
}
