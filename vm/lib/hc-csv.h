/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hc-csv.h - the project's one CSV reader in C, shared by hc-tracejoin
 * (bench/tools/) and hc-arraytrace (vm/arrays/); hc-csv.c has the code.
 *
 * Contract:
 *   - A file is read one line at a time.  The first non-blank line is the
 *     header row (a UTF-8 BOM and spaces around names are dropped);
 *     columns are found by name (csv_col), so extra columns and any order
 *     are fine.  Blank lines are skipped; a line's trailing \r\n or \n is
 *     dropped.  A "quoted" field may hold commas and "" (one quote).
 *   - Fields are split in place: a field's pointer is good until the next
 *     csv_next().  Empty fields are kept (a,,b has three fields).
 *   - Every error (a file that cannot be opened or read, an empty file, a
 *     missing column, a line too short for a column, a bad number, out of
 *     memory) ends the program through csv_fail(): "PROG: " and a message
 *     naming the file, the line and the column, on stderr, then
 *     exit(csv_bad_status).  The program sets csv_prog and csv_bad_status
 *     before its first csv_open() and may call csv_fail() for its own bad
 *     input too.
 */
#ifndef HC_CSV_H
#define HC_CSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

extern const char *csv_prog;	/* default "hc-csv" */
extern int csv_bad_status;	/* default 2 */

void __attribute__((noreturn, format(printf, 1, 2)))
csv_fail(const char *fmt, ...);

struct csv {
	const char *path;
	FILE *fp;
	char *line;
	size_t linecap;
	unsigned long lineno;	/* of the current line, from 1 */
	char **f;		/* fields of the current line */
	size_t nf, fcap;
	char **hdr;		/* header names */
	size_t nhdr;
};

/* open @path and read its header row */
void csv_open(struct csv *c, const char *path);
/* the next non-blank line into c->f; 0 at the end of the file */
int csv_next(struct csv *c);
void csv_close(struct csv *c);
/* index of column @name; a missing one is fatal */
size_t csv_col(const struct csv *c, const char *name);
/* field @col of the current line; a line without it is fatal */
const char *csv_field(const struct csv *c, size_t col);
/*
 * unsigned decimal integer into *@v: 1; an empty field gives 0 (and
 * leaves *@v) when @may_be_empty, else it is fatal like any bad number
 */
int csv_u64(const struct csv *c, size_t col, uint64_t *v, int may_be_empty);
/* a finite decimal number (strtod's syntax, whole field) */
double csv_double(const struct csv *c, size_t col);
/* microseconds (decimal, |v| <= 9e12) -> integer nanoseconds, rounded */
int64_t csv_us_ns(const struct csv *c, size_t col);

#endif
