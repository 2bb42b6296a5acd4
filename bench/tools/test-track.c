// SPDX-License-Identifier: GPL-2.0
/*
 * test-track.c - host tests of hc-track's policy (bench/tools/hc-track.c): the
 * decayed count, the hot set (--top, --hot-bytes, --min-reads), the
 * budget, the hysteresis band and where demoted files go, a renamed file.
 * No fanotify and no move: hc-track.c is included with its main() renamed,
 * and hc_move_file() is a stub that records what it was asked to move
 * (the files are empty scratch files, only stat()ed).  The move itself is
 * tested in the guest (bench/tools/guest-track.sh, make track-check).
 * TAP on stdout; exit 1 when a test failed.
 */
#define main track_main
#include "hc-track.c"
#undef main

#include "tap.h"

/* ---- stubs of bench/tools/moveext.c */
const char *const hc_target_name[] = { "hot", "cold", "none" };
const char *hc_prog = "hc-track";

double hc_now(void)
{
	return 0;
}

int hc_read_sb(int fd, const char *path, struct hc_sb *sb)
{
	(void)fd; (void)path;
	memset(sb, 0, sizeof(*sb));
	return 0;
}

int hc_thirds(int fd, const struct hc_sb *sb, uint64_t bytes[3])
{
	(void)fd; (void)sb;
	bytes[0] = bytes[2] = 0;
	bytes[1] = 1;
	return 0;
}

double hc_frac(const uint64_t b[3], int i)
{
	uint64_t t = b[0] + b[1] + b[2];

	return t ? (double)b[i] / t : 0;
}

/* the log's CSV quoting is moveext.c's; the test's paths need none */
void csv_field(FILE *o, const char *s)
{
	fputs(s, o);
}

int hc_target_third(enum hc_target t)
{
	return t == HC_HOT ? 0 : t == HC_COLD ? 2 : -1;
}

static char calls[4096];	/* "NAME:target " per move asked for */

int hc_move_file(const char *path, enum hc_target t,
		 const struct hc_move_opts *o, struct hc_move_result *r)
{
	const char *base = strrchr(path, '/');

	(void)o;
	memset(r, 0, sizeof(*r));
	stat(path, &r->st);
	r->outcome = "moved";
	r->moved = r->st.st_size;
	r->after[hc_target_third(t) < 0 ? 1 : hc_target_third(t)] = 1;
	snprintf(calls + strlen(calls), sizeof(calls) - strlen(calls), "%s:%s ",
		 base ? base + 1 : path, hc_target_name[t]);
	return 0;
}

/* ---- the tests */
static char dir[] = "/tmp/test-track.XXXXXX";
static char *logbuf;
static size_t loglen;

/* a scratch file of @size bytes (sparse), known to the table */
static struct file *mkfile(const char *name, off_t size)
{
	char p[256];
	struct stat st;
	struct file *f;
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, size) || fstat(fd, &st)) {
		perror(p);
		exit(1);
	}
	close(fd);
	f = lookup(st.st_dev, st.st_ino, 1);
	set_path(f, p);
	f->size = size;
	return f;
}

static struct file *get(const char *name)
{
	char p[256];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	if (stat(p, &st))
		return NULL;
	return lookup(st.st_dev, st.st_ino, 0);
}

static void reset(void)
{
	size_t i;

	for (i = 0; i < nfiles; i++)
		free(files[i].path);
	free(files);
	free(slots);
	files = NULL;
	slots = NULL;
	nfiles = cap_files = nslots = 0;
	calls[0] = '\0';
	top_n = -1;
	hot_bytes = 0;
	budget = 1ULL << 40;
	min_reads = 2;
	half_life_s = 10;
	hysteresis = 25;
	demote = DEM_NONE;
	fflush(log_fp);
	fclose(log_fp);
	free(logbuf);
	log_fp = open_memstream(&logbuf, &loglen);
}

static void reads(const char *name, unsigned long n)
{
	get(name)->events += n;
}

int main(void)
{
	struct file *a, *b;
	char cmd[300];

	tap_init("track");
	quiet = 1;
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	log_fp = open_memstream(&logbuf, &loglen);

	/* decay: an interval of one half-life halves the count */
	reset();
	a = mkfile("a", 4096);
	a->events = 100;
	decide(1, 10);
	tap_ok(a->score == 100, "decay: 100 reads in the first interval count 100 (got %g)", a->score);
	decide(2, 10);
	tap_ok(a->score == 50, "decay: after one half-life without reads, 50 (got %g)", a->score);
	a->events = 10;
	decide(3, 20);
	tap_ok(a->score == 22.5, "decay: two half-lives and 10 reads: 50/4 + 10 = 22.5 (got %g)", a->score);
	half_life_s = 0;
	decide(4, 10);
	tap_ok(a->score == 0, "decay: --half-life 0 keeps no memory (got %g)", a->score);

	/* --top: the N most read, in order; --min-reads */
	reset();
	top_n = 2;
	min_reads = 15;
	mkfile("f1", 4096); mkfile("f2", 4096); mkfile("f3", 4096); mkfile("f4", 4096);
	reads("f1", 10); reads("f2", 50); reads("f3", 30); reads("f4", 40);
	decide(1, 10);
	tap_ok(!strcmp(calls, "f2:hot f4:hot "), "--top 2: the two most read moved hot, most read first (%s)", calls);
	reset();
	top_n = 3;
	min_reads = 35;
	mkfile("f1", 4096); mkfile("f2", 4096); mkfile("f3", 4096);
	reads("f1", 10); reads("f2", 50); reads("f3", 34);
	decide(1, 10);
	tap_ok(!strcmp(calls, "f2:hot "), "--min-reads 35: a file read 34 times stays out of the hot set (%s)", calls);

	/* --budget: what does not fit waits for the next interval */
	reset();
	top_n = 3;
	budget = 3 << 20;
	mkfile("big", 2 << 20); mkfile("mid", 1 << 20); mkfile("small", 512 << 10);
	reads("big", 90); reads("mid", 80); reads("small", 70);
	decide(1, 10);
	tap_ok(!strcmp(calls, "big:hot mid:hot "), "--budget 3M: 2M + 1M moved in the first interval (%s)", calls);
	fflush(log_fp);
	tap_ok(strstr(logbuf, "/small,") && strstr(logbuf, ",hot,0,deferred,"),
	       "--budget: the file over the budget is logged deferred");
	calls[0] = '\0';
	reads("big", 90); reads("mid", 80); reads("small", 70);
	decide(2, 10);
	tap_ok(!strcmp(calls, "small:hot "), "--budget: the deferred file moves in the next interval (%s)", calls);
	reset();
	top_n = 1;
	budget = 0;
	mkfile("x", 4096);
	reads("x", 100);
	decide(1, 10);
	tap_ok(!calls[0], "--budget 0: nothing moved (%s)", calls);

	/* demotion: out of the band (top N * 1.25) -> none, cold, or kept */
	reset();
	top_n = 2;
	half_life_s = 0;
	mkfile("h1", 4096); mkfile("h2", 4096); mkfile("h3", 4096); mkfile("h4", 4096);
	reads("h1", 100); reads("h2", 90);
	decide(1, 10);
	calls[0] = '\0';
	reads("h3", 100); reads("h4", 95); reads("h1", 90); reads("h2", 5);
	decide(2, 10);
	tap_ok(!strcmp(calls, "h3:hot h4:hot h2:none "),
	       "band: top 2, band ceil(2.5) = 3: h1 at rank 3 kept, h2 at rank 4 moved to no region (%s)", calls);
	tap_ok(get("h1")->state == ST_HOT, "band: h1 (rank 3) still counted hot");
	calls[0] = '\0';
	reads("h3", 100); reads("h4", 95); reads("h2", 90); reads("h1", 3);
	decide(3, 10);
	tap_ok(!strcmp(calls, "h1:none "), "--demote none: h1 (rank 4, below --min-reads) moved to no region (%s)", calls);
	reset();
	top_n = 1;
	half_life_s = 0;
	demote = DEM_COLD;
	mkfile("c1", 4096); mkfile("c2", 4096); mkfile("c3", 4096);
	reads("c1", 100);
	decide(1, 10);
	calls[0] = '\0';
	reads("c2", 100); reads("c3", 90);
	decide(2, 10);
	tap_ok(!strcmp(calls, "c2:hot c1:cold "), "--demote cold: promotions first, then the cooled file to cold (%s)", calls);
	reset();
	top_n = 1;
	half_life_s = 0;
	demote = DEM_KEEP;
	mkfile("k1", 4096); mkfile("k2", 4096);
	reads("k1", 100);
	decide(1, 10);
	calls[0] = '\0';
	reads("k2", 100);
	decide(2, 10);
	tap_ok(!strcmp(calls, "k2:hot "), "--demote keep: the cooled file stays (%s)", calls);

	/* --hot-bytes: in order of count, each taken if it fits */
	reset();
	hot_bytes = 3 << 20;
	mkfile("b2m", 2 << 20); mkfile("b2m2", 2 << 20); mkfile("b1m", 1 << 20);
	reads("b2m", 90); reads("b2m2", 80); reads("b1m", 70);
	decide(1, 10);
	tap_ok(!strcmp(calls, "b2m:hot b1m:hot "), "--hot-bytes 3M: 2M, then the next 2M does not fit, then 1M (%s)", calls);

	/* a renamed file: no move until its path is known again */
	reset();
	top_n = 1;
	b = mkfile("r1", 4096);
	b->events = 50;
	snprintf(cmd, sizeof(cmd), "%s/r1", dir);
	{
		char to[300];

		snprintf(to, sizeof(to), "%s/r1-renamed", dir);
		rename(cmd, to);
	}
	decide(1, 10);
	fflush(log_fp);
	tap_ok(!calls[0] && strstr(logbuf, ",no_path,"), "a renamed file is not moved by its old path (no_path)");

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "test-track: %s failed\n", cmd);
	return tap_exit();
}
