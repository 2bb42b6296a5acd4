// SPDX-License-Identifier: GPL-2.0
/*
 * age-ops.c - hc-age's operations: fillers created (fallocate) and
 * deleted, set files made with their hint and data, each a manifest row
 * (FNV-1a digest) and a step of the model; the run's state (age.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>
#include "age.h"

/* the model and the run (age.h) */
const char *const phase_name[] = { "fill", "churn", "top-up" };
uint64_t bsize, fblocks, start_used, used, target_blk, low_blk;
struct hfile *live, *setf;
size_t nlive, nsetf, nsched;
struct sched_ent *sched;
uint64_t set_blocks_left, churn_total, churned, plan_blocks;
uint64_t seq, created, deleted, ops_rng[4], data_rng[4];
uint64_t digest = 0xcbf29ce484222325ULL;	/* FNV-1a offset basis */
int phase, enospc;
FILE *man;
char man_path[PATH_MAX];

static size_t live_cap, next_set;
static uint64_t made, filler_id;
static int next_pct = 5;

uint64_t blocks_of(uint64_t size)
{
	return (size + bsize - 1) / bsize;
}

double model_pct(void)
{
	return 100.0 * used / fblocks;
}

const char *rel_path(char *buf, size_t sz, const struct hfile *f)
{
	int n = snprintf(buf, sz, "d%02" PRIu32 "/", f->dir);

	if (f->sub)
		n += snprintf(buf + n, sz - n, "s%u/", f->sub - 1);
	if (f->set < 0)
		snprintf(buf + n, sz - n, "f%" PRIu32, f->id);
	else
		snprintf(buf + n, sz - n, "%s.%" PRIu32, sets[f->set].name, f->id);
	return buf;
}

const char *abs_path(const char *rel)
{
	static char buf[PATH_MAX + 64];

	snprintf(buf, sizeof(buf), "%s/%s", root, rel);
	return buf;
}

static void emit(const char *op, const struct hfile *f, const char *note)
{
	const struct fileset *s = f->set < 0 ? NULL : &sets[f->set];
	char row[PATH_MAX + 128], rel[PATH_MAX];
	int n, i;

	n = snprintf(row, sizeof(row), "%s,%" PRIu64 ",%s,%" PRIu64 ",%s,%s,%s\n",
		     op, seq++, rel_path(rel, sizeof(rel), f), f->size,
		     s ? s->name : "", s ? s->hint_name : "", note ? note : "");
	for (i = 0; i < n; i++)
		digest = (digest ^ (unsigned char)row[i]) * 0x100000001b3ULL;
	if (fputs(row, man) == EOF)
		die_sys("cannot write manifest", man_path);
}

/* a file was made: the model, and a progress line every 5% */
static void account(struct hfile *f)
{
	used += blocks_of(f->size);
	made += blocks_of(f->size);
	created++;
	if (opt_quiet || made * 100 < next_pct * plan_blocks)
		return;
	while (made * 100 >= next_pct * plan_blocks)
		next_pct += 5;
	fprintf(stderr, "hc-age: %-6s %3d%% done, model %.2f%% full, %zu files live, %"
		PRIu64 " created, %" PRIu64 " deleted\n", phase_name[phase],
		next_pct > 105 ? 100 : next_pct - 5, model_pct(), nlive + nsetf,
		created, deleted);
}

static void pick_dir(struct hfile *f)
{
	f->dir = rng_next(ops_rng) % opt_dirs;
	f->sub = rng_next(ops_rng) % (1 + opt_subdirs);
}

/* a real filler: 0, or -1 on ENOSPC (a partial file is removed) */
static int make_filler(const char *path, uint64_t size)
{
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);

	if (fd >= 0 && !fallocate(fd, 0, 0, size)) {
		if (close(fd))
			die_sys("close", path);
		return 0;
	}
	if (errno != ENOSPC)
		die_sys(fd < 0 ? "cannot create" : "fallocate", path);
	if (fd >= 0 && (close(fd) || unlink(path)))
		die_sys("cannot remove", path);
	return -1;
}

/* one filler, clipped so that the model stays at or below @limit */
static void create_filler(uint64_t limit)
{
	struct hfile f = { .size = draw_size(), .id = filler_id++, .set = -1 };
	const char *note = NULL;
	char rel[PATH_MAX];

	pick_dir(&f);
	if (blocks_of(f.size) > limit - used) {
		f.size = (limit - used) * bsize;
		note = "clipped";
	}
	if (!opt_dry && make_filler(abs_path(rel_path(rel, sizeof(rel), &f)), f.size)) {
		emit("create", &f, "enospc");
		enospc = 1;
		add_note("ENOSPC at seq %" PRIu64 " (model %.2f%% full): fill and churn stopped early",
			 seq - 1, model_pct());
		fprintf(stderr, "hc-age: %s: %s\n", abs_path(rel), notes);
		return;
	}
	emit("create", &f, note);
	if (nlive == live_cap) {
		live_cap = live_cap ? 2 * live_cap : 4096;
		live = realloc(live, live_cap * sizeof(*live));
		if (!live)
			die(1, "out of memory (%zu files)", live_cap);
	}
	live[nlive++] = f;
	if (phase == PH_CHURN)
		churned += f.size;
	account(&f);
}

static void delete_filler(void)
{
	size_t i = rng_next(ops_rng) % nlive;
	struct hfile f = live[i];
	char rel[PATH_MAX];

	live[i] = live[--nlive];
	if (!opt_dry && unlink(abs_path(rel_path(rel, sizeof(rel), &f))))
		die_sys("cannot remove", abs_path(rel));
	emit("delete", &f, NULL);
	used -= blocks_of(f.size);
	deleted++;
}

/* a real set file, hinted, full of data; returns the manifest note */
static const char *make_setfile(const char *path, const struct fileset *s)
{
	static uint64_t buf[CHUNK / 8];
	struct open_how how = {
		.flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | s->hint,
		.mode = 0644,
	};
	const char *note = NULL;
	uint64_t left, n, i;
	int fd;

	fd = syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));
	if (fd < 0 && (errno == ENOSYS || (errno == EINVAL && s->hint))) {
		/* no O_HOT/O_COLD in this kernel (EINVAL), or no openat2 */
		note = s->hint ? "hint_rejected" : NULL;
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	}
	if (fd < 0)
		die_sys("cannot create set file", path);
	for (left = s->size; left; left -= n) {
		n = left < CHUNK ? left : CHUNK;
		for (i = 0; i < (n + 7) / 8; i++)
			buf[i] = rng_next(data_rng);
		errno = 0;
		if (write(fd, buf, n) != (ssize_t)n)	/* short: disk full */
			die(1, "cannot write set file %s: %s", path,
			    errno ? strerror(errno) : "short write");
	}
	if (fsync(fd) || close(fd))
		die_sys("fsync", path);
	return note;
}

static void create_setfile(void)
{
	const struct fileset *s = &sets[sched[next_set].set];
	struct hfile f = { .size = s->size, .id = sched[next_set].k,
			   .set = sched[next_set].set };
	const char *note = NULL;
	char rel[PATH_MAX];

	next_set++;
	pick_dir(&f);
	if (!opt_dry)
		note = make_setfile(abs_path(rel_path(rel, sizeof(rel), &f)), s);
	emit("setfile", &f, note);
	setf[nsetf++] = f;
	set_blocks_left -= blocks_of(f.size);
	account(&f);
}

/* set file i is due at (i + 0.5) / n of the churn (without churn: the fill) */
static int set_due(void)
{
	double p;

	if (next_set >= nsched || (phase == PH_FILL && opt_churn > 0))
		return 0;
	if (phase == PH_END)
		return 1;
	if (phase == PH_FILL)
		p = (double)(used - start_used) / (target_blk - start_used);
	else
		p = (double)churned / churn_total;
	return p >= (next_set + 0.5) / nsched;
}

/* create until the model is at @limit, keeping room for the set files left */
void create_until(uint64_t limit, int reserve)
{
	for (;;) {
		uint64_t res = reserve ? set_blocks_left : 0;

		if (set_due())
			create_setfile();
		else if (enospc || used + res >= limit)
			return;
		else
			create_filler(limit - res);
	}
}

void delete_until(uint64_t limit)
{
	while (used > limit && nlive)
		delete_filler();
}
