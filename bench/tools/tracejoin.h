/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracejoin.h - hc-tracejoin's internal header: the data every module of
 * the tool shares and each module's contract.  One job per file:
 *
 *   hc-tracejoin.c      the command line and main(); the manual is its
 *                       header comment; the memory helpers
 *   tracejoin-trace.c   the disk model's trace: loaded (read rows only),
 *                       indexed, and rows taken for a read's sectors
 *   tracejoin-seeklog.c the engine's seek log: its reads, their jobs
 *   tracejoin-join.c    the join: every read gets the trace rows that
 *                       served it (the two passes of "Matching")
 *   tracejoin-stats.c   one job's statistics over its joined reads
 *   tracejoin-write.c   the outputs: joined rows, the summary, CDFs,
 *                       the line per job on stdout
 *
 * CSV input goes through vm/lib/hc-csv.h.  Every error on bad input ends
 * the program with "hc-tracejoin: ..." and exit status 2 (fail(), the CSV
 * reader's csv_fail()).
 */
#ifndef TRACEJOIN_H
#define TRACEJOIN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "hc-csv.h"

#define PROG		"hc-tracejoin"
#define EXIT_BAD	2
#define EXIT_MISMATCH	3
#define CDF_POINTS	2000
#define EXTEND_BEFORE_NS 100000000	/* 100 ms: see "Matching" in hc-tracejoin.c */

/* bad input or no memory: "hc-tracejoin: MESSAGE", exit EXIT_BAD */
#define fail(...)	csv_fail(__VA_ARGS__)

/* hc-tracejoin.c: realloc or fail; grow *@p (of *@cap elements of @sz
 * bytes) to hold at least @need */
void *xrealloc(void *p, size_t n);
void grow(void **p, size_t *cap, size_t need, size_t sz);

/* ---- the trace ---- */

struct trow {
	int64_t arrival, start, end;	/* ns of the model's clock */
	int64_t seek, rotation, transfer;
	uint64_t lba, sectors, cyl;
	uint32_t job;			/* of the first read it served, or NO_ROW */
	unsigned char whole;		/* served one read whole (pass 1) */
};

/*
 * The index: read rows with sectors > 0, sorted by (length class, lba).
 * A length class holds the rows of 2^k .. 2^(k+1)-1 sectors, so a search
 * for the rows containing a sector looks back only as far as the longest
 * row of each class: 4 KiB rows are not searched over the span of a 4 MiB
 * merge.
 */
struct tkey {
	uint64_t lba, sectors;
	uint32_t row;			/* index in service order */
};

struct tclass {
	size_t begin, end;		/* its keys, key[begin..end) */
	uint64_t maxlen;		/* its longest row */
};

/*
 * The rows containing one sector p, built the first time p is looked up:
 * sorted by (arrival, row), with a skip pointer over the rows that have
 * served p already (path halving), then one sentinel entry.  Repeated
 * reads of p (a hot LBA, a small file read sequentially again and again)
 * so cost a binary search, not a scan of every row near p.
 */
struct pent {
	int64_t arrival;
	uint32_t row;
	uint32_t skip;			/* next unused entry (in the list) */
};

struct plist {
	uint64_t p;
	size_t off;			/* its entries: pent[off..off+n) */
	uint32_t n;			/* rows + the sentinel; 0: free */
};

#define NO_ROW		UINT32_MAX

/*
 * The rows again, sorted by (lba, sectors, arrival, row), for pass 1 of
 * the join (a read served whole by one row of its own lba and length);
 * skip as in struct pent.
 */
struct xkey {
	uint64_t lba, sectors;
	int64_t arrival;
	uint32_t row;
	uint32_t skip;			/* next unused entry (in the array) */
};

struct trace {
	const char *path;
	struct trow *rows;		/* read rows only, service order */
	size_t n, cap;
	struct tkey *key;
	size_t nkey;
	struct tclass cls[64];
	unsigned ncls;
	struct pent *pent;		/* the lists, one after the other */
	size_t npent, pentcap;
	struct plist *plist;		/* hash by p, open addressing */
	size_t nplist, plistcap;
	struct xkey *xkey;		/* the rows by (lba, sectors, arrival) */
};

/*
 * tracejoin-trace.c.  trace_load(): @path's op=read rows, in service
 * order, into t->rows (job = NO_ROW, whole = 0); the others are skipped.
 * trace_index(): after the load, the index of the rows with sectors > 0.
 * trace_take(): the earliest row (by arrival, then service order) that
 * contains sector @p, arrived at @min_arrival or later, has not served @p
 * yet and was not taken whole; it serves @p from now on.  NO_ROW: none.
 * trace_take_exact(): the earliest row that is exactly [@lba, @lba + @n)
 * and was not taken whole yet; it is taken whole (trow.whole) and
 * trace_take() passes it by from then on.  NO_ROW: none.
 */
void trace_load(struct trace *t, const char *path);
void trace_index(struct trace *t);
uint32_t trace_take(struct trace *t, uint64_t p, int64_t min_arrival);
uint32_t trace_take_exact(struct trace *t, uint64_t lba, uint64_t n);

/* ---- the seek log ---- */

struct eread {
	uint64_t seq, lba, len, lat_ns;
	uint64_t covered;		/* sectors of [lba, lba+n) served */
	size_t file, hotness;		/* offsets in the string arena */
	uint32_t job;
	unsigned char has_lba, has_lat, matched;
	/* the disk's view, when matched (ns of the model's clock) */
	int64_t arrival, end, queue, seek, rotation, transfer;
	uint64_t cyl;
};

struct job {
	char *name;
	size_t hotness;			/* of its first read */
	size_t reads, matched;
	size_t first;			/* its first read in by_job[] */
};

struct seeklog {
	const char *path;
	struct eread *r;
	size_t n, cap;
	struct job *jobs;
	size_t njobs, jobcap;
	char *str;			/* arena of file and hotness names */
	size_t strlen, strcap;
	size_t *by_job;			/* read indices grouped by job */
};

/*
 * tracejoin-seeklog.c.  seeklog_load(): @path's ddir=read rows in log
 * order (writes skipped), their jobs in order of first appearance; no
 * read at all is fatal.  seeklog_group(): s->by_job, the reads of job 0,
 * then job 1, ..., each in log order (after the join).
 */
void seeklog_load(struct seeklog *s, const char *path);
void seeklog_group(struct seeklog *s);

/*
 * tracejoin-join.c.  join(): every read of @s with an lba gets the trace
 * rows that served it (the manual's "Matching"): matched, covered and its
 * disk view are set, and jobs[].matched counts it; a row's job is the job
 * of the first read it served.
 */
void join(struct trace *t, struct seeklog *s);

struct jstats {
	uint64_t *svc, *eng, *ovh;	/* sorted ns (ovh: SIGNED_KEY) */
	size_t nsvc, neng, novh;
	uint64_t bytes, row_bytes;
	int64_t first_arrival, last_end, drive;
	double coverage;		/* sum over the matched reads */
	/* formatted columns: empty when there is nothing to compute */
	char frac[32], cov_mean[32], svc_mean[32], svc_p50[32], svc_p99[32];
	char eng_mean[32], eng_p50[32], eng_p99[32], ovh_p50[32];
	char mb_s[32], span_mb_s[32], drive_ms[32], first[32], last[32];
};

/*
 * tracejoin-stats.c.  job_stats(): @j's statistics (service and coverage
 * over its matched reads, engine latency over its reads with a latency,
 * overhead over the matched ones with a latency, the drive's time and
 * bytes over the rows whose job it is) with the formatted columns, empty
 * where there is nothing to compute; jstats_free() its arrays.
 */
void job_stats(const struct trace *t, const struct seeklog *s,
	       const struct job *j, struct jstats *st);
void jstats_free(struct jstats *st);

/*
 * tracejoin-write.c.  fmt_ns(): @ns as an exact decimal of 10^@digits ns
 * (3: us, 6: ms) in @buf (32 bytes), returned.  put_field(): a CSV field,
 * quoted when it holds , " or a newline.  out_open()/out_close(): a file
 * for writing; an error is fatal, named.  write_joined(): --out, one row
 * per read.  summary_open()/summary_row(): --summary, its header and one
 * row per job.  write_cdf(): DIR/<job>.csv (the name's odd characters
 * '_').  print_job(): the job's line on stdout.
 */
char *fmt_ns(char *buf, int64_t ns, int digits);
void put_field(FILE *fp, const char *s);
FILE *out_open(const char *path);
void out_close(FILE *fp, const char *path);
void write_joined(const struct seeklog *s, const char *path);
FILE *summary_open(const char *path);
void summary_row(FILE *fp, const struct seeklog *s, const struct job *j,
		 const struct jstats *st);
void write_cdf(const char *dir, const char *job, const struct jstats *st);
void print_job(const struct job *j, const struct jstats *st);

#endif
