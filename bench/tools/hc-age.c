/*
 * hc-age - age an ext4 filesystem to a target fullness, reproducibly
 *
 * NAME
 *	hc-age - age a fresh ext4 with create/delete churn and lay out the
 *	benchmark's file sets in it
 *
 * SYNOPSIS
 *	hc-age [--seed N] [--target PCT] [--dirs N] [--subdirs N] [--churn X]
 *	       [--band PCT] [--max-file SIZE] [--sets SPEC] [--manifest FILE]
 *	       [--dry-run SIZE[:USEDBLOCKS]] [--quiet] ROOT
 *
 * DESCRIPTION
 *	Aging as in Geriatrix (Kadekodi et al., USENIX ATC '18): fill to
 *	--target, then churn (delete random fillers until the fullness is at
 *	or below target-band, create until it is at target, repeat) until
 *	--churn times the filesystem's size is created and as much deleted,
 *	then top up; the last file of a create run is clipped to land on the
 *	target.  A file goes to a random one of the 1+N directories (dNN or
 *	dNN/sM) of a random top-level dNN: Orlov spreads only those.
 *
 *	Sizes: Impressions' default model (Agrawal et al., FAST '09, Table 2,
 *	from "A five-year study of file-system metadata", FAST '07): lognormal
 *	body mu 9.48, sigma 2.46 (ln bytes; median ~13 KiB) with probability
 *	0.99994, else Pareto tail k 0.91, Xm 512 MiB; capped at --max-file,
 *	at least 1 byte.  Fillers: open(O_CREAT|O_EXCL|O_WRONLY), fallocate().
 *
 *	Set files are made at points spread evenly over the churn (over the
 *	fill without churn), round-robin (H.0 C.0 N.0 H.1 ...), in random
 *	directories, by openat2(O_WRONLY|O_CREAT|O_EXCL|O_CLOEXEC|hint); on
 *	EINVAL by open() without the hint, noted hint_rejected.  Their data
 *	comes from a second PRNG stream (1 MiB writes, fsync); never deleted.
 *
 *	The sequence is a function of seed, options and statfs() at the start
 *	(f_blocks, f_bsize, used = f_blocks - f_bfree): the run steers by a
 *	model, used + ceil(size / bsize) of every live file, never by statfs;
 *	the PRNG is xoshiro256**, exp() and log() are our own (libm picks CPU
 *	variants at run time).  So --dry-run SIZE makes the sequence of a real
 *	run on SIZE bytes.  The model counts file data only, and reserved
 *	blocks as free (run as root).  A real run wants ROOT on ext4 with no
 *	dNN in it yet (mkdir fails: exit 1).  ENOSPC on a filler: it is
 *	removed and noted enospc, no more fillers are made, set files still
 *	are, the state gets a note=; a hint_rejected note changes the digest.
 *
 * OPTIONS
 *	--seed N           PRNG seed (default 1)
 *	--target PCT       fullness to reach, percent of f_blocks, 1..99 (80)
 *	--dirs N           top-level directories, at least 32 (64)
 *	--subdirs N        subdirectories of each top-level directory (3)
 *	--churn X          bytes created and deleted after the fill, times the
 *	                   filesystem size; 0: no churn (1.0)
 *	--band PCT         churn swings between target-band and target (5)
 *	--max-file SIZE    cap on one filler, suffix K M G T (1G)
 *	--sets SPEC        NAME:HINT:NFILES:SIZE,...  HINT hot, cold or none
 *	--manifest FILE    default ROOT/.aging/manifest.csv; a dry run: stdout
 *	--dry-run SIZE[:U] no file operations; simulate SIZE bytes of 4096-byte
 *	                   blocks, U of them used; ROOT is just a name
 *	--quiet            no progress lines on stderr
 *
 * OUTPUT
 *	Manifest (CSV, read by field name): op,seq,path,size,set,hint,note; a
 *	row per operation in order: op create, delete or setfile, seq from 0,
 *	path relative to ROOT, size in bytes, set and hint empty for fillers,
 *	note clipped, enospc or hint_rejected.  Last row digest,,,,,,HEX:
 *	64-bit FNV-1a over every op row, newline included.
 *	state.txt next to it and stdout, key=value: mode root seed target_pct
 *	fs_bytes block_size start_used_blocks fullness_pct (statfs at the end;
 *	dry run: the model's) model_fullness_pct files_live files_created
 *	files_deleted bytes_churned dirs subdirs set_files digest size_model
 *	elapsed_s; a real run adds extents_per_file_mean/_p50/_p90/_max
 *	(FIEMAP over live files; an ext4 extent holds at most 128 MiB) and
 *	dirs_first/_middle/_last (thirds of the dNN inodes' groups, superblock
 *	of ROOT's device), or note= says why not.  Exit 1: a system call
 *	failed; 2: bad input.
 *
 * EXAMPLES
 *	hc-age --seed 7 --target 80 --sets H:hot:8:32M,C:cold:8:32M /mnt/t
 *	hc-age --dry-run 64G --target 95 --manifest /tmp/a/manifest.csv x
 *
 * SEE ALSO
 *	bench/tools/test-age.sh, vm/lib/hotcold-map.h, fallocate(2), openat2(2)
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/openat2.h>

#include "hotcold-map.h"

#define LN_MU		9.48	/* Impressions, FAST '09, Table 2 */
#define LN_SIGMA	2.46
#define BODY_P		0.99994
#define PARETO_K	0.91
#define PARETO_XM	(512.0 * 1024 * 1024)
#define DRY_BSIZE	4096
#define CHUNK		(1 << 20)
#define MAX_SETS	16
#define ROTL(x, k)	(((x) << (k)) | ((x) >> (64 - (k))))

enum { PH_FILL, PH_CHURN, PH_END };
static const char *const phase_name[] = { "fill", "churn", "top-up" };

struct fileset {
	char name[32];
	const char *hint_name;
	unsigned int hint;
	uint64_t nfiles, size;
};

/* a live file: a filler (set < 0, id its number) or set file NAME.id */
struct hfile {
	uint64_t size;
	uint32_t id, dir;
	uint16_t sub;		/* 0: in dNN itself, else in dNN/s(sub-1) */
	int16_t set;
};

/* options, with their defaults */
static uint64_t opt_seed = 1, opt_max_file = 1ULL << 30;
static uint64_t opt_dirs = 64, opt_subdirs = 3, dry_bytes, dry_used;
static double opt_target = 80, opt_churn = 1.0, opt_band = 5;
static struct fileset sets[MAX_SETS];
static int nsets, opt_dry, opt_quiet;
static const char *opt_manifest, *root;

/* the model and the run */
static uint64_t bsize, fblocks, start_used, used, target_blk, low_blk;
static struct hfile *live, *setf;	/* live fillers; set files made */
static size_t nlive, live_cap, nsetf, nsched, next_set;
static struct { int set; uint32_t k; } *sched;	/* set files in order */
static uint64_t set_blocks_left, churn_total, churned, plan_blocks, made;
static uint64_t seq, created, deleted, filler_id, ops_rng[4], data_rng[4];
static uint64_t digest = 0xcbf29ce484222325ULL;	/* FNV-1a offset basis */
static int phase, enospc, next_pct = 5;
static FILE *man;
static char man_path[PATH_MAX], notes[1024];

static void __attribute__((noreturn, format(printf, 2, 3)))
die(int code, const char *fmt, ...)
{
	va_list ap;

	fputs("hc-age: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(code == 2 ? "\nhc-age: try 'hc-age --help'\n" : "\n", stderr);
	exit(code);
}

static void __attribute__((noreturn)) die_sys(const char *what, const char *path)
{
	die(1, "%s %s: %s", what, path, strerror(errno));
}

static void __attribute__((format(printf, 1, 2))) add_note(const char *fmt, ...)
{
	size_t len = strlen(notes);
	va_list ap;

	if (len && len + 2 < sizeof(notes))
		strcpy(notes + len, "; ");
	len = strlen(notes);
	va_start(ap, fmt);
	vsnprintf(notes + len, sizeof(notes) - len, fmt, ap);
	va_end(ap);
}

/* ---------------------------------------------------------------- numbers */

/* xoshiro256** (Blackman and Vigna), seeded by splitmix64 */
static void rng_seed(uint64_t *s, uint64_t x)
{
	int i;

	for (i = 0; i < 4; i++) {
		uint64_t z = (x += 0x9e3779b97f4a7c15ULL);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		s[i] = z ^ (z >> 31);
	}
}

static uint64_t rng_next(uint64_t *s)
{
	uint64_t res = ROTL(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = ROTL(s[3], 45);
	return res;
}

static double rng_unit(void)	/* [0, 1) */
{
	return (rng_next(ops_rng) >> 11) * 0x1.0p-53;
}

/*
 * log and exp of IEEE arithmetic alone (frexp, ldexp and floor are exact):
 * the same bits on every x86-64, whichever libm variant the CPU gets.
 */
static double hc_ln(double x)
{
	double m, s, p = 1.0 / 21;
	int e, k;

	m = frexp(x, &e);
	if (m < M_SQRT1_2) {
		m *= 2;
		e--;
	}
	s = (m - 1) / (m + 1);		/* |s| < 0.172: the atanh series */
	for (k = 19; k >= 1; k -= 2)
		p = p * s * s + 1.0 / k;
	return 2 * s * p + e * M_LN2;
}

static double hc_exp(double x)
{
	double k, r, t = 1, p = 1;
	int i;

	if (x > 700 || x < -700)
		return x > 0 ? HUGE_VAL : 0;
	k = floor(x / M_LN2 + 0.5);
	r = x - k * M_LN2;		/* |r| <= 0.35: the Taylor series */
	for (i = 1; i <= 18; i++) {
		t *= r / i;
		p += t;
	}
	return ldexp(p, (int)k);
}

/* Impressions' hybrid: lognormal body (Marsaglia's polar normal), Pareto tail */
static uint64_t draw_size(void)
{
	double u, v, s, x;

	if (rng_unit() < BODY_P) {
		do {
			u = 2 * rng_unit() - 1;
			v = 2 * rng_unit() - 1;
			s = u * u + v * v;
		} while (s >= 1 || s == 0);
		x = hc_exp(LN_MU + LN_SIGMA * u * sqrt(-2 * hc_ln(s) / s));
	} else {
		x = PARETO_XM * hc_exp(-hc_ln(1 - rng_unit()) / PARETO_K);
	}
	if (!(x < (double)opt_max_file))
		return opt_max_file;
	return x < 1 ? 1 : (uint64_t)x;
}

/* ---------------------------------------------------------------- input */

/* an unsigned integer, with a binary suffix K M G T if @suffix */
static int parse_num(const char *s, uint64_t *v, int suffix)
{
	static const char suf[] = "KMGT";
	const char *p = NULL;
	char *end;
	int sh = 0;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (suffix && *end)
		p = strchr(suf, toupper((unsigned char)*end));
	if (p)
		sh = 10 * (p - suf + 1);
	if (errno || end[!!p] || (sh && *v > UINT64_MAX >> sh))
		return -1;
	*v <<= sh;
	return 0;
}

static int parse_double(const char *s, double *v)
{
	char *end;

	if (!isdigit((unsigned char)*s) && *s != '.')
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	return errno || *end || !isfinite(*v) ? -1 : 0;
}

static void parse_sets(const char *spec)
{
	char *copy = strdup(spec), *p = copy, *item, hint[8], num[24], size[24];
	int end, i;

	while (p && (item = strsep(&p, ","))) {
		struct fileset *s = &sets[nsets];

		end = 0;
		if (nsets == MAX_SETS)
			die(2, "--sets '%s': more than %d sets", spec, MAX_SETS);
		if (sscanf(item, "%31[A-Za-z0-9_-]:%7[a-z]:%23[0-9]:%23[0-9A-Za-z]%n",
			   s->name, hint, num, size, &end) != 4 || item[end])
			die(2, "--sets '%s': '%s' is not NAME:HINT:NFILES:SIZE (NAME of A-Z a-z 0-9 _ -)",
			    spec, item);
		for (i = 0; i < nsets; i++)
			if (!strcmp(sets[i].name, s->name))
				die(2, "--sets '%s': set %s given twice", spec, s->name);
		s->hint = !strcmp(hint, "hot") ? O_HOT : !strcmp(hint, "cold") ? O_COLD : 0;
		s->hint_name = s->hint == O_HOT ? "hot" : s->hint == O_COLD ? "cold" : "none";
		if (strcmp(hint, s->hint_name))
			die(2, "--sets '%s': hint '%s' of set %s: want hot, cold or none",
			    spec, hint, s->name);
		if (parse_num(num, &s->nfiles, 0) || !s->nfiles || s->nfiles > 100000)
			die(2, "--sets '%s': NFILES '%s' of set %s: want 1..100000", spec, num, s->name);
		if (parse_num(size, &s->size, 1) || !s->size)
			die(2, "--sets '%s': SIZE '%s' of set %s: want bytes >= 1, suffix K M G T",
			    spec, size, s->name);
		nsets++;
	}
	free(copy);
}

static const char usage[] =
	"usage: hc-age [options] ROOT\n"
	"Age a fresh, mounted ext4 to a target fullness with create/delete churn,\n"
	"reproducibly from a seed, and create the benchmark's file sets in it.\n"
	"  --seed N            PRNG seed (default 1)\n"
	"  --target PCT        fullness to reach, percent of f_blocks, 1..99 (80)\n"
	"  --dirs N            top-level directories, at least 32 (64)\n"
	"  --subdirs N         subdirectories of each top-level directory (3)\n"
	"  --churn X           bytes created and deleted after the fill, times the\n"
	"                      filesystem size; 0: no churn (1.0)\n"
	"  --band PCT          churn swings between target-band and target (5)\n"
	"  --max-file SIZE     cap on one filler, suffix K M G T (1G)\n"
	"  --sets SPEC         NAME:HINT:NFILES:SIZE,...  HINT hot|cold|none,\n"
	"                      e.g. H:hot:8:32M,C:cold:8:32M,N:none:8:32M\n"
	"  --manifest FILE     default ROOT/.aging/manifest.csv; a dry run: stdout\n"
	"  --dry-run SIZE[:U]  no file operations; simulate SIZE bytes of 4096-byte\n"
	"                      blocks, U of them used\n"
	"  --quiet             no progress lines on stderr\n"
	"Writes the manifest (op,seq,path,size,set,hint,note, a digest row last)\n"
	"and state.txt next to it; prints the state.  Exit 1: a system call\n"
	"failed; 2: bad input.  The manual is the header of bench/tools/hc-age.c.\n";

/* the numeric options; getopt_long's val is the index here */
static const struct numopt {
	uint64_t *u;	/* an integer (suffix K M G T allowed), or else */
	double *d;	/* a number */
	double lo, hi;
	const char *want;
} numopts[] = {
	{ &opt_seed, NULL, 0, 0x1p64, "an unsigned integer" },
	{ NULL, &opt_target, 1, 99, "a percentage from 1 to 99" },
	{ &opt_dirs, NULL, 32, 10000, "32..10000 (Orlov spreads only top-level directories)" },
	{ &opt_subdirs, NULL, 0, 1000, "0..1000" },
	{ NULL, &opt_churn, 0, 1000, "a multiple of the filesystem size, 0..1000" },
	{ NULL, &opt_band, 1e-3, 98, "a percentage above 0 and below --target" },
	{ &opt_max_file, NULL, 1, 0x1p64, "bytes >= 1, suffix K M G T" },
};

static void parse_args(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "seed", required_argument, NULL, 0 },
		{ "target", required_argument, NULL, 1 },
		{ "dirs", required_argument, NULL, 2 },
		{ "subdirs", required_argument, NULL, 3 },
		{ "churn", required_argument, NULL, 4 },
		{ "band", required_argument, NULL, 5 },
		{ "max-file", required_argument, NULL, 6 },
		{ "sets", required_argument, NULL, 'S' },
		{ "manifest", required_argument, NULL, 'M' },
		{ "dry-run", required_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const struct numopt *o;
	int c, li = 0;
	char *a, *colon;
	uint64_t u;
	double d;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", lo, &li)) != -1) {
		a = optarg;
		switch (c) {
		case 0 ... 6:
			o = &numopts[c];
			if (o->u ? parse_num(a, &u, 1) : parse_double(a, &d))
				d = -1;
			else if (o->u)
				d = u;
			if (d < o->lo || d > o->hi)
				die(2, "--%s '%s': want %s", lo[li].name, a, o->want);
			if (o->u)
				*o->u = u;
			else
				*o->d = d;
			break;
		case 'S':
			parse_sets(a);
			break;
		case 'M':
			opt_manifest = a;
			break;
		case 'n':
			opt_dry = 1;
			colon = strchr(a, ':');
			if (colon)
				*colon++ = '\0';
			if (parse_num(a, &dry_bytes, 1) || dry_bytes < 256 * DRY_BSIZE ||
			    (colon && (parse_num(colon, &dry_used, 0) ||
				       dry_used >= dry_bytes / DRY_BSIZE)))
				die(2, "--dry-run '%s%s%s': want SIZE[:USEDBLOCKS], SIZE >= 1M, USEDBLOCKS below SIZE/4096",
				    a, colon ? ":" : "", colon ? colon : "");
			break;
		case 'q':
			opt_quiet = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			exit(0);
		case ':':
			die(2, "option '%s' needs a value", argv[optind - 1]);
		default:
			die(2, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		die(2, optind == argc ? "missing ROOT, the directory to age" :
		    "more than one ROOT given");
	root = argv[optind];
	if (opt_band >= opt_target)
		die(2, "--band %g: must be below --target %g", opt_band, opt_target);
	if (opt_manifest && !*opt_manifest)
		die(2, "--manifest '': want a file name");
}

/* ---------------------------------------------------------------- operations */

static uint64_t blocks_of(uint64_t size)
{
	return (size + bsize - 1) / bsize;
}

static double model_pct(void)
{
	return 100.0 * used / fblocks;
}

static const char *rel_path(char *buf, size_t sz, const struct hfile *f)
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

static const char *abs_path(const char *rel)
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
static void create_until(uint64_t limit, int reserve)
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

static void delete_until(uint64_t limit)
{
	while (used > limit && nlive)
		delete_filler();
}

/* ---------------------------------------------------------------- setup */

static void check_root(void)
{
	struct statfs sfs;
	struct stat st;

	if (stat(root, &st))
		die(2, "ROOT '%s' is not a directory: %s", root, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		die(2, "ROOT '%s' is not a directory", root);
	if (statfs(root, &sfs))
		die_sys("statfs", root);
	if (sfs.f_type != HC_EXT4_SUPER_MAGIC)
		die(2, "ROOT '%s' is not on ext4 (statfs magic 0x%lx); hc-age ages a fresh ext4",
		    root, (unsigned long)sfs.f_type);
	bsize = sfs.f_bsize;
	fblocks = sfs.f_blocks;
	start_used = sfs.f_blocks - sfs.f_bfree;
}

static void make_dirs(void)
{
	char rel[64];
	uint64_t d, s;

	for (s = 0; s <= opt_subdirs; s++)	/* every dNN first, for Orlov */
		for (d = 0; d < opt_dirs; d++) {
			int n = snprintf(rel, sizeof(rel), "d%02" PRIu64, d);

			if (s)
				snprintf(rel + n, sizeof(rel) - n, "/s%" PRIu64, s - 1);
			if (mkdir(abs_path(rel), 0755))
				die_sys("mkdir", abs_path(rel));
		}
}

/* open the manifest, making its directory (one level) */
static void open_manifest(void)
{
	char dir[PATH_MAX], *slash;

	if (!opt_manifest && opt_dry) {
		man = stdout;
		strcpy(man_path, "(stdout)");
		return;
	}
	snprintf(man_path, sizeof(man_path), "%s", opt_manifest ? opt_manifest :
		 abs_path(".aging/manifest.csv"));
	strcpy(dir, man_path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			die_sys("mkdir", dir);
	}
	man = fopen(man_path, "w");
	if (!man)
		die_sys("cannot create manifest", man_path);
}

static void plan(void)
{
	uint64_t set_blocks = 0, most = 0, k, room;
	size_t i = 0;
	int s;

	target_blk = opt_target / 100 * fblocks;
	low_blk = (opt_target - opt_band) / 100 * fblocks;
	if (start_used >= target_blk)
		die(2, "--target %g: the filesystem is %.2f%% full already",
		    opt_target, 100.0 * start_used / fblocks);
	for (s = 0; s < nsets; s++) {
		nsched += sets[s].nfiles;
		set_blocks += sets[s].nfiles * blocks_of(sets[s].size);
		most = sets[s].nfiles > most ? sets[s].nfiles : most;
	}
	room = opt_churn > 0 ? low_blk : target_blk;
	if (start_used + set_blocks > room)
		die(2, "--sets: %" PRIu64 " MiB of set files do not fit below %.2f%% (%s) of %" PRIu64 " MiB",
		    set_blocks * bsize >> 20, 100.0 * room / fblocks,
		    opt_churn > 0 ? "--target minus --band" : "--target",
		    fblocks * bsize >> 20);
	set_blocks_left = set_blocks;
	sched = calloc(nsched + 1, sizeof(*sched));
	setf = calloc(nsched + 1, sizeof(*setf));
	if (!sched || !setf)
		die(1, "out of memory");
	for (k = 0; k < most; k++)	/* round-robin: H.0 C.0 N.0 H.1 ... */
		for (s = 0; s < nsets; s++)
			if (k < sets[s].nfiles) {
				sched[i].set = s;
				sched[i++].k = k;
			}
	churn_total = opt_churn * fblocks * bsize;
	if (opt_churn > 0 && !churn_total)
		churn_total = 1;
	plan_blocks = target_blk - start_used + churn_total / bsize;
	plan_blocks += opt_churn > 0 ? set_blocks : 0;
}

/* ---------------------------------------------------------------- end state */

static uint64_t count_extents(const char *path)
{
	enum { BATCH = 256 };
	static union {
		struct fiemap fm;
		char b[sizeof(struct fiemap) + BATCH * sizeof(struct fiemap_extent)];
	} u;
	struct fiemap *fm = &u.fm;
	struct fiemap_extent *last;
	uint64_t n = 0, start = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		die_sys("cannot open", path);
	for (;;) {
		memset(fm, 0, sizeof(*fm));
		fm->fm_start = start;
		fm->fm_length = FIEMAP_MAX_OFFSET - start;
		fm->fm_extent_count = BATCH;
		if (ioctl(fd, FS_IOC_FIEMAP, fm))
			die_sys("FIEMAP", path);
		n += fm->fm_mapped_extents;
		last = &fm->fm_extents[BATCH - 1];
		if (fm->fm_mapped_extents < BATCH || (last->fe_flags & FIEMAP_EXTENT_LAST))
			break;
		start = last->fe_logical + last->fe_length;
	}
	close(fd);
	return n;
}

static void extent_stats(FILE *st)
{
	size_t i, n = nlive + nsetf;
	uint64_t *ext = calloc(n + 1, sizeof(*ext));
	char rel[PATH_MAX];

	if (!ext)
		die(1, "out of memory");
	for (i = 0; i < n; i++)
		ext[i] = count_extents(abs_path(rel_path(rel, sizeof(rel),
				i < nlive ? &live[i] : &setf[i - nlive])));
	qsort(ext, n, sizeof(*ext), hc_cmp_u64);
	fprintf(st, "extents_per_file_mean=%.2f\nextents_per_file_p50=%" PRIu64
		"\nextents_per_file_p90=%" PRIu64 "\nextents_per_file_max=%" PRIu64 "\n",
		hc_mean(ext, n), hc_percentile(ext, n, 50),
		hc_percentile(ext, n, 90), n ? ext[n - 1] : 0);
	free(ext);
}

/* the thirds of the disk holding the dNN inodes, or a note why not */
static void dir_thirds(FILE *st)
{
	char path[PATH_MAX], line[256], dev[sizeof(line) + 8] = "";
	uint64_t thirds[3] = { 0, 0, 0 }, d;
	unsigned char b[HC_SB_SIZE];
	const char *err = NULL;
	struct hc_sb sb;
	struct stat s;
	FILE *fp;
	int fd;

	if (stat(root, &s))
		die_sys("stat", root);
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/uevent",
		 major(s.st_dev), minor(s.st_dev));
	fp = fopen(path, "r");
	while (fp && fgets(line, sizeof(line), fp))
		if (!strncmp(line, "DEVNAME=", 8))
			snprintf(dev, sizeof(dev), "/dev/%.*s",
				 (int)strcspn(line + 8, "\n"), line + 8);
	if (fp)
		fclose(fp);
	if (!*dev) {
		add_note("no dirs_first/middle/last: no DEVNAME in %s", path);
		return;
	}
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || pread(fd, b, sizeof(b), HC_SB_OFFSET) != sizeof(b))
		err = strerror(errno);
	else if (hc_parse_sb(b, &sb, &err))
		err = err ? err : "bad superblock";
	if (fd >= 0)
		close(fd);
	if (err) {
		add_note("no dirs_first/middle/last: superblock of %s: %s", dev, err);
		return;
	}
	for (d = 0; d < opt_dirs; d++) {
		snprintf(line, sizeof(line), "d%02" PRIu64, d);
		if (stat(abs_path(line), &s))
			die_sys("stat", abs_path(line));
		thirds[hc_group_third(sb.ngroups, hc_inode_group(&sb, s.st_ino))]++;
	}
	fprintf(st, "dirs_first=%" PRIu64 "\ndirs_middle=%" PRIu64 "\ndirs_last=%"
		PRIu64 "\n", thirds[0], thirds[1], thirds[2]);
}

static void finish(const struct timespec *t0)
{
	char *text = NULL, path[PATH_MAX + 16], *slash;
	double real_pct = model_pct();
	struct timespec t1;
	struct statfs sfs;
	size_t len = 0;
	FILE *st;
	int fd;

	fprintf(man, "digest,,,,,,%016" PRIx64 "\n", digest);
	if (fflush(man) || (man != stdout && ((!opt_dry && fsync(fileno(man))) || fclose(man))))
		die_sys("cannot write manifest", man_path);
	if (!opt_dry) {
		fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0 || syncfs(fd) || close(fd) || statfs(root, &sfs))
			die_sys("syncfs/statfs", root);
		real_pct = 100.0 * (sfs.f_blocks - sfs.f_bfree) / sfs.f_blocks;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	st = open_memstream(&text, &len);
	if (!st)
		die(1, "out of memory");
	fprintf(st, "mode=%s\nroot=%s\nseed=%" PRIu64 "\ntarget_pct=%g\nfs_bytes=%" PRIu64
		"\nblock_size=%" PRIu64 "\nstart_used_blocks=%" PRIu64
		"\nfullness_pct=%.2f\nmodel_fullness_pct=%.2f\nfiles_live=%zu\nfiles_created=%"
		PRIu64 "\nfiles_deleted=%" PRIu64 "\nbytes_churned=%" PRIu64 "\ndirs=%" PRIu64
		"\nsubdirs=%" PRIu64 "\nset_files=%zu\ndigest=%016" PRIx64
		"\nsize_model=impressions-fast09\nelapsed_s=%.1f\n",
		opt_dry ? "dry-run" : "real", root, opt_seed, opt_target, fblocks * bsize,
		bsize, start_used, real_pct, model_pct(), nlive + nsetf, created, deleted,
		churned, opt_dirs, opt_subdirs, nsetf, digest,
		(t1.tv_sec - t0->tv_sec) + (t1.tv_nsec - t0->tv_nsec) / 1e9);
	if (!opt_dry) {
		extent_stats(st);
		dir_thirds(st);
	}
	if (*notes)
		fprintf(st, "note=%s\n", notes);
	fclose(st);
	fputs(text, stdout);
	if (man != stdout) {
		strcpy(path, man_path);
		slash = strrchr(path, '/');
		strcpy(slash ? slash + 1 : path, "state.txt");
		st = fopen(path, "w");
		if (!st || fputs(text, st) == EOF || fclose(st))
			die_sys("cannot write", path);
	}
	free(text);
}

int main(int argc, char **argv)
{
	struct timespec t0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	parse_args(argc, argv);
	if (opt_dry) {
		bsize = DRY_BSIZE;
		fblocks = dry_bytes / DRY_BSIZE;
		start_used = dry_used;
	} else {
		check_root();
	}
	used = start_used;
	plan();
	rng_seed(ops_rng, opt_seed);
	rng_seed(data_rng, opt_seed ^ 0x5365742064617461ULL);	/* "Set data" */
	open_manifest();
	if (!opt_dry)
		make_dirs();
	fputs("op,seq,path,size,set,hint,note\n", man);

	phase = PH_FILL;
	create_until(target_blk, opt_churn == 0);
	phase = PH_CHURN;
	while (opt_churn > 0 && !enospc && churned < churn_total) {
		uint64_t before = churned;

		delete_until(low_blk);
		create_until(target_blk, 0);
		if (churned == before)
			break;
	}
	/* set files not made yet (after ENOSPC), then land on the target */
	phase = PH_END;
	delete_until(target_blk - set_blocks_left);
	create_until(target_blk, 1);
	finish(&t0);
	return 0;
}
