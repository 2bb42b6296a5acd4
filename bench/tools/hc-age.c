// SPDX-License-Identifier: GPL-2.0
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
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include "hotcold-flags.h"
#include "age.h"

/* the options, with their defaults (age.h) */
uint64_t opt_seed = 1, opt_max_file = 1ULL << 30;
uint64_t opt_dirs = 64, opt_subdirs = 3;
double opt_target = 80, opt_churn = 1.0, opt_band = 5;
struct fileset sets[MAX_SETS];
int nsets, opt_dry, opt_quiet;
const char *opt_manifest, *root;
static uint64_t dry_bytes, dry_used;
char notes[1024];

void __attribute__((noreturn, format(printf, 2, 3)))
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

void __attribute__((noreturn)) die_sys(const char *what, const char *path)
{
	die(1, "%s %s: %s", what, path, strerror(errno));
}

void __attribute__((format(printf, 1, 2))) add_note(const char *fmt, ...)
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
