/* SPDX-License-Identifier: GPL-2.0 */
/*
 * age.h - hc-age's internal header: the options, the model and the run
 * that its modules share, and each module's contract.  One job per file:
 *
 *   hc-age.c          the manual (its header comment), the command line,
 *                     the error exits and main(): plan, seed, fill, churn,
 *                     top up, finish
 *   age-numbers.c     the sequence's numbers: xoshiro256** streams, ln()
 *                     and exp() of IEEE arithmetic alone, Impressions'
 *                     file sizes
 *   age-ops.c         the operations: create and delete fillers, make set
 *                     files, every one a manifest row and a step of the
 *                     model; create/delete until a fullness
 *   age-setup.c       before the run: ROOT checked, the plan (targets, set
 *                     file schedule, churn volume), directories, manifest
 *   age-state.c       after the run: the digest row, state.txt (extents
 *                     per file, the thirds of the directories)
 *
 * Errors: die(1, ...) a system call failed, die(2, ...) bad input; the
 * message starts "hc-age: ".
 */
#ifndef AGE_H
#define AGE_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define DRY_BSIZE	4096
#define CHUNK		(1 << 20)
#define MAX_SETS	16

enum { PH_FILL, PH_CHURN, PH_END };
extern const char *const phase_name[];

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

/* a set file due: its set and its number in the set */
struct sched_ent {
	int set;
	uint32_t k;
};

/* the options (hc-age.c, with their defaults there) */
extern uint64_t opt_seed, opt_max_file, opt_dirs, opt_subdirs;
extern double opt_target, opt_churn, opt_band;
extern struct fileset sets[MAX_SETS];
extern int nsets, opt_dry, opt_quiet;
extern const char *opt_manifest, *root;

/* the model and the run (age-ops.c) */
extern uint64_t bsize, fblocks, start_used, used, target_blk, low_blk;
extern struct hfile *live, *setf;	/* live fillers; set files made */
extern size_t nlive, nsetf, nsched;
extern struct sched_ent *sched;		/* set files in order */
extern uint64_t set_blocks_left, churn_total, churned, plan_blocks;
extern uint64_t seq, created, deleted, ops_rng[4], data_rng[4];
extern uint64_t digest;			/* FNV-1a of the manifest's rows */
extern int phase, enospc;
extern FILE *man;
extern char man_path[PATH_MAX];
extern char notes[1024];		/* hc-age.c: state.txt's note= */

/*
 * hc-age.c.  die(): exit @code with "hc-age: MESSAGE" (2: and a --help
 * hint); die_sys(): "hc-age: WHAT PATH: strerror(errno)", exit 1;
 * add_note(): appends to notes ("; " between notes).
 */
void __attribute__((noreturn, format(printf, 2, 3)))
die(int code, const char *fmt, ...);
void __attribute__((noreturn)) die_sys(const char *what, const char *path);
void __attribute__((format(printf, 1, 2))) add_note(const char *fmt, ...);

/*
 * age-numbers.c.  rng_seed(): a xoshiro256** state @s from seed @x
 * (splitmix64); rng_next(): its next 64 bits.  draw_size(): a filler's
 * size from ops_rng (Impressions' lognormal body and Pareto tail, capped
 * at --max-file, at least 1), the same bits on every x86-64.
 */
void rng_seed(uint64_t *s, uint64_t x);
uint64_t rng_next(uint64_t *s);
uint64_t draw_size(void);

/*
 * age-ops.c.  blocks_of(): @size in filesystem blocks; model_pct(): the
 * model's fullness.  rel_path(): a file's path under ROOT in @buf;
 * abs_path(): ROOT/@rel in a static buffer.  create_until(): create (set
 * files when due, else fillers) until the model is at @limit, keeping room
 * for the set files left when @reserve; delete_until(): delete random
 * fillers until the model is at or below @limit.  A real run makes and
 * removes the files; a dry run only writes the rows and moves the model.
 */
uint64_t blocks_of(uint64_t size);
double model_pct(void);
const char *rel_path(char *buf, size_t sz, const struct hfile *f);
const char *abs_path(const char *rel);
void create_until(uint64_t limit, int reserve);
void delete_until(uint64_t limit);

/*
 * age-setup.c.  check_root(): ROOT a directory on ext4 (else die 2);
 * bsize, fblocks, start_used from its statfs.  plan(): the targets, the
 * set files' schedule (round-robin) and room, the churn volume (die 2
 * when they do not fit).  make_dirs(): dNN and dNN/sM under ROOT.
 * open_manifest(): man and man_path (stdout for a dry run without
 * --manifest).
 */
void check_root(void);
void plan(void);
void make_dirs(void);
void open_manifest(void);

/*
 * age-state.c.  finish(): the digest row, the manifest closed (fsync'd
 * in a real run), the state (key=value) on stdout and in state.txt next
 * to the manifest; a real run adds extents per file and the thirds of the
 * dNN inodes.
 */
void finish(const struct timespec *t0);

#endif
