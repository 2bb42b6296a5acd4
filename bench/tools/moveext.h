/* SPDX-License-Identifier: GPL-2.0 */
/*
 * moveext.h - move a file's data into ext4's hot or cold region online
 * (EXT4_IOC_MOVE_EXT through a donor created with O_HOT or O_COLD), and
 * where a file's data is (FIEMAP, by thirds of the disk).
 *
 * The machinery of hc-move (bench/tools/hc-move.c), shared with hc-track
 * (bench/tools/hc-track.c, which moves the files it sees read most) and hc-where
 * (bench/tools/hc-where.c); bench/tools/moveext.c has the code, bench/tools/hc-move.c's header
 * the description of the move.
 */
#ifndef HC_MOVEEXT_H
#define HC_MOVEEXT_H

#include <stdio.h>
#include <stdint.h>
#include <sys/stat.h>

#include "hotcold-map.h"

enum hc_target { HC_HOT, HC_COLD, HC_NONE };
extern const char *const hc_target_name[];

/* the program's name, for messages ("hc-move: FILE: ...") */
extern const char *hc_prog;

/* what one move did */
struct hc_move_result {
	struct stat st;		/* the file's (zero when it could not be stat()ed) */
	const char *outcome;	/* moved, already, misplaced, dry_run, error */
	uint64_t moved;		/* bytes moved */
	double seconds;		/* the whole attempt, donor included */
	uint64_t before[3];	/* the file's bytes per third before */
	uint64_t after[3];	/* after (moved), the donor's (misplaced,
				 * dry_run), before (already), zero (error) */
};

struct hc_move_opts {
	double min_frac;	/* of the donor that must be in the region */
	int dry_run;		/* place the donor, do not move */
	int quiet;		/* no message for a successful move */
};

/* monotonic clock, seconds */
double hc_now(void);

/* the superblock of the ext4 @fd is on; -1 with a message naming @path */
int hc_read_sb(int fd, const char *path, struct hc_sb *sb);

/* bytes of @fd in each third of the disk (FIEMAP with FIEMAP_FLAG_SYNC);
 * -1 with errno set */
int hc_thirds(int fd, const struct hc_sb *sb, uint64_t bytes[3]);

/* the fraction of the bytes in third @i (0 when there are none) */
double hc_frac(const uint64_t b[3], int i);

/* the third a target fills: 0 first, 2 last, -1 none */
int hc_target_third(enum hc_target t);

/*
 * Move @path's data to @t.  Returns 0 when moved or already there (or a
 * dry run placed the donor in the region), 1 when not moved (misplaced or
 * error; a message on stderr says why).  @r tells what happened.
 */
int hc_move_file(const char *path, enum hc_target t,
		 const struct hc_move_opts *o, struct hc_move_result *r);

/* Print S to O as one CSV field (RFC 4180 quoting when needed). */
void csv_field(FILE *o, const char *s);

#endif
