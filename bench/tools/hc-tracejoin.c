/*
 * hc-tracejoin - join the disk model's trace with the hotcold engine's
 * seek log, request by request
 *
 * The guest's clock under TCG adds milliseconds of overhead to every
 * request, so the latencies a run reports come from the trace the hdd
 * filter writes (vm/hdd-model, trace=FILE), not from the engine.  This tool
 * finds, for every read in the engine's seek log (seek_log=FILE), the
 * trace rows that served it and reports the disk's view of it.
 *
 *   hc-tracejoin [--min-match F] [--out JOINED.csv] [--summary SUMMARY.csv]
 *                [--cdf-dir DIR] TRACE.csv SEEK.csv
 *
 * Build: `make bench-tools` (bench/tools/tools.mk), or
 *
 *   gcc -O2 -Wall -Wextra -D_GNU_SOURCE -I ioengines \
 *       -o hc-tracejoin bench/tools/hc-tracejoin.c -lm
 *
 * Inputs are CSV with a header row; columns are found by name, so extra
 * columns and any order are fine.
 *   trace: arrival_us,start_us,end_us,lba,sectors,op,cyl_distance,
 *          seek_us,rotation_us,transfer_us  (one row per request served,
 *          in service order; only op=read rows are joined)
 *   seek log: job,seq,file,ddir,len,lba,lat_ns,hotness  (ddir=read rows
 *          are joined, writes ignored; lba and lat_ns may be empty)
 *
 * Matching: an engine read of n = ceil(len / 512) sectors at lba L, in
 * two passes over the reads, each in seek log order:
 *
 *  Pass 1, whole: the earliest (by arrival, then service order) trace read
 *     row that is exactly [L, L+n) and was not taken whole by an earlier
 *     read serves the read alone and whole.  None: the read waits for
 *     pass 2.
 *  Pass 2, pieces, for the reads pass 1 left:
 *  1. The first row is the earliest trace read row that contains sector L
 *     (lba <= L < lba + sectors), has not served L yet and was not taken
 *     whole in pass 1.  None: the read is unmatched.
 *  2. Extension: p = the end of the rows so far, clipped to L+n.  While
 *     p < L+n, take the earliest such row that contains p, has not served
 *     p yet and arrived no earlier than the first row's arrival minus
 *     100 ms (EXTEND_BEFORE_NS); stop when there is none.
 *
 * Why pass 1: another reader of the same sectors before the job (a
 * checksum of the files, page-cache readahead, a copy) leaves earlier rows
 * over L; an O_DIRECT read the block layer neither merged nor split has a
 * row of its own, exactly [L, L+n), and pass 1 gives it that row, not the
 * other reader's.
 *
 * Why: the guest's block layer merges consecutive requests (one 4 MiB row
 * serves four sequential 1 MiB engine reads at iodepth 4) and splits large
 * ones (two 512 KiB rows serve one 1 MiB read), so a row may serve several
 * reads and a read may need several rows.  On a fragmented file a read
 * that straddles an extent boundary goes to the disk in two pieces, the
 * second somewhere else; the engine logs only the first piece's LBA, and
 * [L+k, L+n) belongs to another file, so the read is matched with the
 * piece at L alone.  coverage (--out) is the fraction of [L, L+n) the
 * rows found cover.  A row serves a given sector once, so repeated reads
 * of one LBA get successive rows in order; two jobs reading the same
 * range cannot be ordered against each other (the log has no timestamps).
 *
 * The disk's view of a matched read: arrival = the earliest arrival of its
 * rows, end = the latest end, service = end - arrival; seek, rotation and
 * transfer are summed over its rows, a merged row's counted whole for
 * every read it serves; queue and cyl_distance are the first served row's.
 * The summary's disk_mb_s is the drive's rate for the job: the bytes of the
 * trace rows that served its reads over those rows' drive time, the sum of
 * their seek + rotation + transfer (a row counted once, for the job of the
 * first read it served; a row of a sequential stream has as transfer the
 * media time since the previous row, read-ahead included).  drive_ms is
 * that sum.  It leaves out the time the drive stood idle waiting for the
 * guest (under TCG the guest may leave the queue empty for tens of ms),
 * and the bytes and time of a read's piece that went elsewhere (unmatched,
 * see above).  span_mb_s is the job's matched bytes (a read's whole len,
 * also when its coverage is below 1) over last end - first arrival, idle
 * included: the disk's clock over the whole job.
 *
 * Cost: rows are indexed by (length class, lba); the first look-up of a
 * sector p scans each class back by its longest row only and keeps the
 * rows containing p as a list by arrival; later look-ups of p (a hot LBA,
 * a small file read again and again) are a binary search and a skip over
 * the rows used for p.  Memory: one 16-byte entry per (sector looked up,
 * row containing it).
 *
 * Outputs (see usage()): --out one row per engine read, --summary one row
 * per job, --cdf-dir one CDF of service times per job (at most CDF_POINTS
 * points), and one line per job on stdout.  Percentiles are nearest rank
 * over integer nanoseconds (hc_percentile of hotcold-map.h).
 *
 * Exit: 0, 2 on bad input or usage, 3 when a job's match fraction is
 * below --min-match (the outputs are written first).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "hotcold-map.h"

#define PROG		"hc-tracejoin"
#define EXIT_BAD	2
#define EXIT_MISMATCH	3
#define CDF_POINTS	2000
#define EXTEND_BEFORE_NS 100000000	/* 100 ms: see "Matching" above */

static void __attribute__((noreturn, format(printf, 1, 2)))
fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_BAD);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		fail("out of memory (%zu bytes)", n);
	return p;
}

/* grow *@p (of *@cap elements of @sz bytes) to hold at least @need */
static void grow(void **p, size_t *cap, size_t need, size_t sz)
{
	if (need <= *cap)
		return;
	*cap = *cap ? *cap * 2 : 1024;
	if (*cap < need)
		*cap = need;
	*p = xrealloc(*p, *cap * sz);
}

/* ---- CSV reading: one line at a time, fields split in place ---- */

struct csv {
	const char *path;
	FILE *fp;
	char *line;
	size_t linecap;
	unsigned long lineno;
	char **f;		/* fields of the current line */
	size_t nf, fcap;
	char **hdr;		/* header names */
	size_t nhdr;
};

/* split @s into fields; "quoted" fields may hold commas and "" */
static void csv_split(struct csv *c, char *s)
{
	c->nf = 0;
	for (;;) {
		char *out = s;

		grow((void **)&c->f, &c->fcap, c->nf + 1, sizeof(*c->f));
		c->f[c->nf++] = s;
		if (*s == '"') {
			char *in = s + 1;

			for (; *in; in++) {
				if (*in == '"' && in[1] != '"')
					break;
				if (*in == '"')
					in++;	/* "" is one quote */
				*out++ = *in;
			}
			if (*in == '"')
				in++;
			s = in;
			while (*s && *s != ',')
				s++;	/* junk after the closing quote */
		} else {
			while (*s && *s != ',')
				s++;
			out = s;
		}
		if (!*s) {
			*out = '\0';
			return;
		}
		*out = '\0';
		s++;
	}
}

/* next non-blank line into c->f; 0 at the end of the file */
static int csv_next(struct csv *c)
{
	ssize_t len;

	for (;;) {
		errno = 0;
		len = getline(&c->line, &c->linecap, c->fp);
		if (len < 0) {
			if (ferror(c->fp))
				fail("%s: read error: %s", c->path,
				     strerror(errno));
			return 0;
		}
		c->lineno++;
		while (len && (c->line[len - 1] == '\n' ||
			       c->line[len - 1] == '\r'))
			c->line[--len] = '\0';
		if (!len)
			continue;
		csv_split(c, c->line);
		return 1;
	}
}

static void csv_open(struct csv *c, const char *path)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	c->path = path;
	c->fp = fopen(path, "r");
	if (!c->fp)
		fail("cannot open %s: %s", path, strerror(errno));
	if (!csv_next(c))
		fail("%s: empty file: no header row", path);
	if (!strncmp(c->f[0], "\xef\xbb\xbf", 3))	/* UTF-8 BOM */
		memmove(c->f[0], c->f[0] + 3, strlen(c->f[0] + 3) + 1);
	c->nhdr = c->nf;
	c->hdr = xrealloc(NULL, c->nhdr * sizeof(*c->hdr));
	for (i = 0; i < c->nf; i++) {
		char *h = c->f[i], *e;

		while (*h == ' ')
			h++;
		e = h + strlen(h);
		while (e > h && e[-1] == ' ')
			*--e = '\0';
		c->hdr[i] = strdup(h);
		if (!c->hdr[i])
			fail("out of memory");
	}
}

static void csv_close(struct csv *c)
{
	size_t i;

	fclose(c->fp);
	for (i = 0; i < c->nhdr; i++)
		free(c->hdr[i]);
	free(c->hdr);
	free(c->f);
	free(c->line);
}

/* index of column @name; a missing one is fatal, named with the file */
static size_t csv_col(const struct csv *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nhdr; i++)
		if (!strcmp(c->hdr[i], name))
			return i;
	fail("%s: no column '%s' in the header row (needed; the header has %zu columns)",
	     c->path, name, c->nhdr);
}

/* field @col of the current line; a short line is fatal */
static const char *csv_field(const struct csv *c, size_t col)
{
	if (col >= c->nf)
		fail("%s:%lu: %zu fields, but column '%s' is field %zu",
		     c->path, c->lineno, c->nf, c->hdr[col], col + 1);
	return c->f[col];
}

static void __attribute__((noreturn))
bad_number(const struct csv *c, size_t col, const char *s)
{
	fail("%s:%lu: column '%s': '%s' is not a valid number",
	     c->path, c->lineno, c->hdr[col], s);
}

/* unsigned integer; returns 0 for an empty field when @may_be_empty */
static int csv_u64(const struct csv *c, size_t col, uint64_t *v,
		   int may_be_empty)
{
	const char *s = csv_field(c, col);
	char *end;

	if (!*s) {
		if (may_be_empty)
			return 0;
		bad_number(c, col, s);
	}
	if (*s < '0' || *s > '9')
		bad_number(c, col, s);
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno || *end)
		bad_number(c, col, s);
	return 1;
}

/* microseconds (decimal) -> integer nanoseconds */
static int64_t csv_us_ns(const struct csv *c, size_t col)
{
	const char *s = csv_field(c, col);
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || errno || *end || !isfinite(v) || fabs(v) > 9e12)
		bad_number(c, col, s);
	return llround(v * 1000.0);
}

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

static void trace_load(struct trace *t, const char *path)
{
	struct csv c;
	size_t c_arr, c_start, c_end, c_lba, c_sec, c_op, c_cyl, c_seek,
	       c_rot, c_xfer;

	memset(t, 0, sizeof(*t));
	t->path = path;
	csv_open(&c, path);
	c_arr = csv_col(&c, "arrival_us");
	c_start = csv_col(&c, "start_us");
	c_end = csv_col(&c, "end_us");
	c_lba = csv_col(&c, "lba");
	c_sec = csv_col(&c, "sectors");
	c_op = csv_col(&c, "op");
	c_cyl = csv_col(&c, "cyl_distance");
	c_seek = csv_col(&c, "seek_us");
	c_rot = csv_col(&c, "rotation_us");
	c_xfer = csv_col(&c, "transfer_us");
	while (csv_next(&c)) {
		struct trow *r;

		if (strcmp(csv_field(&c, c_op), "read"))
			continue;	/* metadata, journal, flushes: not joined */
		if (t->n >= UINT32_MAX - 1)
			fail("%s: more than %u read rows", path, UINT32_MAX - 2);
		grow((void **)&t->rows, &t->cap, t->n + 1, sizeof(*t->rows));
		r = &t->rows[t->n++];
		r->job = UINT32_MAX;	/* NO_ROW: no read served yet */
		r->whole = 0;
		r->arrival = csv_us_ns(&c, c_arr);
		r->start = csv_us_ns(&c, c_start);
		r->end = csv_us_ns(&c, c_end);
		r->seek = csv_us_ns(&c, c_seek);
		r->rotation = csv_us_ns(&c, c_rot);
		r->transfer = csv_us_ns(&c, c_xfer);
		csv_u64(&c, c_lba, &r->lba, 0);
		csv_u64(&c, c_sec, &r->sectors, 0);
		csv_u64(&c, c_cyl, &r->cyl, 0);
		if (r->sectors > UINT64_MAX - r->lba)
			fail("%s:%lu: lba + sectors is past 2^64", path,
			     c.lineno);
	}
	csv_close(&c);
}

static unsigned len_class(uint64_t sectors)
{
	return 63 - __builtin_clzll(sectors);
}

static int cmp_tkey(const void *a, const void *b)
{
	const struct tkey *x = a, *y = b;
	unsigned cx = len_class(x->sectors), cy = len_class(y->sectors);

	if (cx != cy)
		return cx < cy ? -1 : 1;
	if (x->lba != y->lba)
		return x->lba < y->lba ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

/* earlier arrival first, then earlier in service order */
static int cmp_pent(const void *a, const void *b)
{
	const struct pent *x = a, *y = b;

	if (x->arrival != y->arrival)
		return x->arrival < y->arrival ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

static int cmp_xkey(const void *a, const void *b)
{
	const struct xkey *x = a, *y = b;

	if (x->lba != y->lba)
		return x->lba < y->lba ? -1 : 1;
	if (x->sectors != y->sectors)
		return x->sectors < y->sectors ? -1 : 1;
	if (x->arrival != y->arrival)
		return x->arrival < y->arrival ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

static void trace_index(struct trace *t)
{
	size_t i;

	t->key = xrealloc(NULL, t->n * sizeof(*t->key));
	for (i = 0; i < t->n; i++) {
		if (!t->rows[i].sectors)
			continue;	/* serves nothing */
		t->key[t->nkey].lba = t->rows[i].lba;
		t->key[t->nkey].sectors = t->rows[i].sectors;
		t->key[t->nkey].row = i;
		t->nkey++;
	}
	qsort(t->key, t->nkey, sizeof(*t->key), cmp_tkey);
	t->xkey = xrealloc(NULL, (t->nkey + 1) * sizeof(*t->xkey));
	for (i = 0; i < t->nkey; i++) {
		const struct trow *r = &t->rows[t->key[i].row];

		t->xkey[i].lba = r->lba;
		t->xkey[i].sectors = r->sectors;
		t->xkey[i].arrival = r->arrival;
		t->xkey[i].row = t->key[i].row;
	}
	qsort(t->xkey, t->nkey, sizeof(*t->xkey), cmp_xkey);
	for (i = 0; i <= t->nkey; i++)
		t->xkey[i].skip = i;	/* [nkey]: the sentinel */
	for (i = 0; i < t->nkey; i++) {
		struct tclass *c = &t->cls[t->ncls ? t->ncls - 1 : 0];
		unsigned k = len_class(t->key[i].sectors);

		if (!t->ncls || k != len_class(t->key[c->begin].sectors)) {
			c = &t->cls[t->ncls++];
			c->begin = i;
			c->maxlen = 0;
		}
		c->end = i + 1;
		if (t->key[i].sectors > c->maxlen)
			c->maxlen = t->key[i].sectors;
	}
	t->plistcap = 1024;
	t->plist = calloc(t->plistcap, sizeof(*t->plist));
	if (!t->plist)
		fail("out of memory");
}

/* first key position in [@lo, @hi) with lba >= @lba */
static size_t trace_lower(const struct trace *t, size_t lo, size_t hi,
			  uint64_t lba)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->key[mid].lba < lba)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static size_t plist_slot(const struct trace *t, uint64_t p)
{
	uint64_t h = p * UINT64_C(0x9e3779b97f4a7c15);

	return (h ^ h >> 32) & (t->plistcap - 1);
}

/* the list of the rows containing sector @p, built on first use */
static struct plist *trace_plist(struct trace *t, uint64_t p)
{
	struct plist *l;
	size_t i, at;
	unsigned ci;

	for (i = plist_slot(t, p); t->plist[i].n;
	     i = (i + 1) & (t->plistcap - 1))
		if (t->plist[i].p == p)
			return &t->plist[i];

	if (2 * (t->nplist + 1) > t->plistcap) {	/* keep it half empty */
		struct plist *old = t->plist;
		size_t oldcap = t->plistcap, j;

		t->plistcap *= 2;
		t->plist = calloc(t->plistcap, sizeof(*t->plist));
		if (!t->plist)
			fail("out of memory");
		for (j = 0; j < oldcap; j++) {
			if (!old[j].n)
				continue;
			for (i = plist_slot(t, old[j].p); t->plist[i].n;
			     i = (i + 1) & (t->plistcap - 1))
				;
			t->plist[i] = old[j];
		}
		free(old);
		for (i = plist_slot(t, p); t->plist[i].n;
		     i = (i + 1) & (t->plistcap - 1))
			;
	}
	l = &t->plist[i];
	t->nplist++;
	l->p = p;
	l->off = at = t->npent;
	for (ci = 0; ci < t->ncls; ci++) {
		const struct tclass *c = &t->cls[ci];
		uint64_t from = p >= c->maxlen - 1 ? p - (c->maxlen - 1) : 0;
		size_t k;

		for (k = trace_lower(t, c->begin, c->end, from);
		     k < c->end && t->key[k].lba <= p; k++) {
			const struct tkey *x = &t->key[k];

			if (x->lba + x->sectors <= p)
				continue;
			grow((void **)&t->pent, &t->pentcap, t->npent + 1,
			     sizeof(*t->pent));
			t->pent[t->npent].arrival = t->rows[x->row].arrival;
			t->pent[t->npent].row = x->row;
			t->npent++;
		}
	}
	if (t->npent - at >= UINT32_MAX)
		fail("%s: more than %u rows contain sector %" PRIu64,
		     t->path, UINT32_MAX - 1, p);
	qsort(t->pent + at, t->npent - at, sizeof(*t->pent), cmp_pent);
	grow((void **)&t->pent, &t->pentcap, t->npent + 1, sizeof(*t->pent));
	t->pent[t->npent].arrival = INT64_MAX;	/* the sentinel */
	t->pent[t->npent].row = NO_ROW;
	t->npent++;
	l->n = t->npent - at;
	for (i = 0; i < l->n; i++)
		t->pent[at + i].skip = i;
	return l;
}

/*
 * Take the earliest row (by arrival, then service order) that contains
 * sector @p, arrived at @min_arrival or later, has not served @p yet and
 * was not taken whole by pass 1: it serves @p now.  NO_ROW when there is
 * none.
 */
static uint32_t trace_take(struct trace *t, uint64_t p, int64_t min_arrival)
{
	const struct plist *l = trace_plist(t, p);
	struct pent *e = t->pent + l->off;
	size_t lo = 0, hi = l->n - 1, i;

	while (lo < hi) {		/* the first arriving >= min_arrival */
		size_t mid = lo + (hi - lo) / 2;

		if (e[mid].arrival < min_arrival)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (;;) {
		for (i = lo; e[i].skip != i; i = e[i].skip)
			e[i].skip = e[e[i].skip].skip;
		if (i == l->n - 1)
			return NO_ROW;
		e[i].skip = i + 1;
		if (!t->rows[e[i].row].whole)
			return e[i].row;
		lo = i + 1;	/* pass 1 gave it to a read whole */
	}
}

/*
 * Take the earliest row (by arrival, then service order) that is exactly
 * [@lba, @lba + @n) and has not been taken whole yet: it serves that read
 * whole (trow.whole), and trace_take() passes it by from then on.  NO_ROW
 * when there is none.
 */
static uint32_t trace_take_exact(struct trace *t, uint64_t lba, uint64_t n)
{
	struct xkey *x = t->xkey;
	size_t lo = 0, hi = t->nkey, i;

	while (lo < hi) {		/* the first (lba, sectors) >= ours */
		size_t mid = lo + (hi - lo) / 2;

		if (x[mid].lba < lba ||
		    (x[mid].lba == lba && x[mid].sectors < n))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; x[i].skip != i; i = x[i].skip)
		x[i].skip = x[x[i].skip].skip;
	if (i == t->nkey || x[i].lba != lba || x[i].sectors != n)
		return NO_ROW;
	x[i].skip = i + 1;
	t->rows[x[i].row].whole = 1;
	return x[i].row;
}

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

static size_t arena_add(struct seeklog *s, const char *v)
{
	size_t len = strlen(v) + 1, off = s->strlen;

	grow((void **)&s->str, &s->strcap, s->strlen + len, 1);
	memcpy(s->str + off, v, len);
	s->strlen += len;
	return off;
}

/* job index of @name; rows of a job come together, so check the last first */
static uint32_t job_id(struct seeklog *s, const char *name)
{
	size_t i;

	if (s->njobs && !strcmp(s->jobs[s->njobs - 1].name, name))
		return s->njobs - 1;
	for (i = 0; i < s->njobs; i++)
		if (!strcmp(s->jobs[i].name, name))
			return i;
	grow((void **)&s->jobs, &s->jobcap, s->njobs + 1, sizeof(*s->jobs));
	memset(&s->jobs[s->njobs], 0, sizeof(*s->jobs));
	s->jobs[s->njobs].name = strdup(name);
	if (!s->jobs[s->njobs].name)
		fail("out of memory");
	return s->njobs++;
}

static void seeklog_load(struct seeklog *s, const char *path)
{
	struct csv c;
	size_t c_job, c_seq, c_file, c_ddir, c_len, c_lba, c_lat, c_hot;

	memset(s, 0, sizeof(*s));
	s->path = path;
	csv_open(&c, path);
	c_job = csv_col(&c, "job");
	c_seq = csv_col(&c, "seq");
	c_file = csv_col(&c, "file");
	c_ddir = csv_col(&c, "ddir");
	c_len = csv_col(&c, "len");
	c_lba = csv_col(&c, "lba");
	c_lat = csv_col(&c, "lat_ns");
	c_hot = csv_col(&c, "hotness");
	while (csv_next(&c)) {
		struct eread *r;
		struct job *j;

		if (strcmp(csv_field(&c, c_ddir), "read"))
			continue;	/* writes are not joined */
		grow((void **)&s->r, &s->cap, s->n + 1, sizeof(*s->r));
		r = &s->r[s->n++];
		memset(r, 0, sizeof(*r));
		r->job = job_id(s, csv_field(&c, c_job));
		csv_u64(&c, c_seq, &r->seq, 0);
		csv_u64(&c, c_len, &r->len, 0);
		r->has_lba = csv_u64(&c, c_lba, &r->lba, 1);
		r->has_lat = csv_u64(&c, c_lat, &r->lat_ns, 1);
		r->file = arena_add(s, csv_field(&c, c_file));
		r->hotness = arena_add(s, csv_field(&c, c_hot));
		j = &s->jobs[r->job];
		if (!j->reads++)
			j->hotness = r->hotness;
	}
	csv_close(&c);
	if (!s->n)
		fail("%s: no reads (ddir=read) in the seek log: nothing to join",
		     path);
}

/* by_job[]: the reads of job 0, then job 1, ..., each in log order */
static void seeklog_group(struct seeklog *s)
{
	size_t i, at = 0, *fill;

	fill = xrealloc(NULL, s->njobs * sizeof(*fill));
	for (i = 0; i < s->njobs; i++) {
		s->jobs[i].first = at;
		fill[i] = at;
		at += s->jobs[i].reads;
	}
	s->by_job = xrealloc(NULL, s->n * sizeof(*s->by_job));
	for (i = 0; i < s->n; i++)
		s->by_job[fill[s->r[i].job]++] = i;
	free(fill);
}

/* ---- the join ---- */

/* add trace row @row to the disk's view of @e */
static void join_piece(struct trace *t, struct eread *e, uint32_t row,
		       uint32_t *first_row)
{
	struct trow *r = &t->rows[row];

	if (r->job == NO_ROW)
		r->job = e->job;

	if (r->arrival < e->arrival)
		e->arrival = r->arrival;
	if (r->end > e->end)
		e->end = r->end;
	e->seek += r->seek;
	e->rotation += r->rotation;
	e->transfer += r->transfer;
	if (row < *first_row) {		/* queue and cyl: first served */
		*first_row = row;
		e->queue = r->start - r->arrival;
		e->cyl = r->cyl;
	}
}

/* @e is matched; its disk view starts empty */
static void join_start(struct seeklog *s, struct eread *e)
{
	e->matched = 1;
	s->jobs[e->job].matched++;
	e->arrival = INT64_MAX;
	e->end = INT64_MIN;
}

static void join(struct trace *t, struct seeklog *s)
{
	size_t i;

	/*
	 * Pass 1: reads that one row served whole and alone (an O_DIRECT
	 * read the block layer neither merged nor split), each with the
	 * earliest such row.  Done first so that another reader's rows
	 * over the same sectors (a checksum, a copy, page-cache readahead)
	 * that arrived earlier do not take a read's own row from it.
	 */
	for (i = 0; i < s->n; i++) {
		struct eread *e = &s->r[i];
		uint64_t n = (e->len + HC_SECTOR - 1) / HC_SECTOR;
		uint32_t row, first_row = NO_ROW;

		if (!e->has_lba || !n)
			continue;
		row = trace_take_exact(t, e->lba, n);
		if (row == NO_ROW)
			continue;
		join_start(s, e);
		join_piece(t, e, row, &first_row);
		e->covered = n;
	}
	/* pass 2: the rest, from rows the guest merged or split */
	for (i = 0; i < s->n; i++) {
		struct eread *e = &s->r[i];
		uint64_t n = (e->len + HC_SECTOR - 1) / HC_SECTOR, end, p;
		uint32_t row, first_row = NO_ROW;
		int64_t min_arrival;

		if (!e->has_lba || !n || e->matched)
			continue;
		end = n > UINT64_MAX - e->lba ? UINT64_MAX : e->lba + n;
		row = trace_take(t, e->lba, INT64_MIN);
		if (row == NO_ROW)
			continue;
		join_start(s, e);
		min_arrival = t->rows[row].arrival - EXTEND_BEFORE_NS;
		p = e->lba;
		for (;;) {
			const struct trow *r = &t->rows[row];

			join_piece(t, e, row, &first_row);
			p = r->lba + r->sectors < end ? r->lba + r->sectors : end;
			if (p >= end)
				break;
			row = trace_take(t, p, min_arrival);
			if (row == NO_ROW)
				break;	/* the rest went elsewhere */
		}
		e->covered = p - e->lba;
	}
}

/* ---- output ---- */

/* ns as a decimal of 10^@digits ns (3: us, 6: ms), exact */
static char *fmt_ns(char *buf, int64_t ns, int digits)
{
	uint64_t u = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;
	uint64_t div = digits == 6 ? 1000000 : 1000;

	sprintf(buf, "%s%" PRIu64 ".%0*" PRIu64, ns < 0 ? "-" : "",
		u / div, digits, u % div);
	return buf;
}

/* write @s as a CSV field: quoted when it holds , " or a newline */
static void put_field(FILE *fp, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

static FILE *out_open(const char *path)
{
	FILE *fp = fopen(path, "w");

	if (!fp)
		fail("cannot write %s: %s", path, strerror(errno));
	return fp;
}

static void out_close(FILE *fp, const char *path)
{
	if (ferror(fp) | fclose(fp))
		fail("writing %s failed: %s", path, strerror(errno));
}

static void write_joined(const struct seeklog *s, const char *path)
{
	FILE *fp = out_open(path);
	char b[8][32];
	size_t i;

	fputs("job,seq,file,hotness,lba,len,matched,coverage,engine_lat_us,"
	      "arrival_us,end_us,service_us,queue_us,seek_us,rotation_us,"
	      "transfer_us,cyl_distance,guest_overhead_us\n", fp);
	for (i = 0; i < s->n; i++) {
		const struct eread *e = &s->r[i];

		put_field(fp, s->jobs[e->job].name);
		fprintf(fp, ",%" PRIu64 ",", e->seq);
		put_field(fp, s->str + e->file);
		fputc(',', fp);
		put_field(fp, s->str + e->hotness);
		fputc(',', fp);
		if (e->has_lba)
			fprintf(fp, "%" PRIu64, e->lba);
		fprintf(fp, ",%" PRIu64 ",%d,", e->len, e->matched);
		if (e->matched)
			fprintf(fp, "%.6f", (double)e->covered /
				((e->len + HC_SECTOR - 1) / HC_SECTOR));
		fprintf(fp, ",%s", e->has_lat ? fmt_ns(b[0], e->lat_ns, 3) : "");
		if (!e->matched) {
			fputs(",,,,,,,,,\n", fp);
			continue;
		}
		fprintf(fp, ",%s,%s,%s,%s,%s,%s,%s,%" PRIu64 ",%s\n",
			fmt_ns(b[1], e->arrival, 3), fmt_ns(b[2], e->end, 3),
			fmt_ns(b[3], e->end - e->arrival, 3),
			fmt_ns(b[4], e->queue, 3), fmt_ns(b[5], e->seek, 3),
			fmt_ns(b[6], e->rotation, 3),
			fmt_ns(b[7], e->transfer, 3), e->cyl,
			e->has_lat ? fmt_ns(b[0], (int64_t)e->lat_ns -
					    (e->end - e->arrival), 3) : "");
	}
	out_close(fp, path);
}

/* signed ns <-> unsigned keys that sort in the same order (hc_cmp_u64) */
#define SIGNED_KEY(v)	((uint64_t)(v) ^ (UINT64_C(1) << 63))
#define KEY_SIGNED(k)	((int64_t)((k) ^ (UINT64_C(1) << 63)))

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
 * Service statistics and coverage over the job's matched reads; engine
 * statistics over all its reads with a latency (the engine's own view,
 * matched or not); overhead over the matched reads with a latency.
 */
static void job_stats(const struct trace *t, const struct seeklog *s,
		      const struct job *j, struct jstats *st)
{
	uint32_t id = (uint32_t)(j - s->jobs);
	size_t k;

	memset(st, 0, sizeof(*st));
	st->svc = xrealloc(NULL, j->reads * sizeof(uint64_t));
	st->eng = xrealloc(NULL, j->reads * sizeof(uint64_t));
	st->ovh = xrealloc(NULL, j->reads * sizeof(uint64_t));
	st->first_arrival = INT64_MAX;
	st->last_end = INT64_MIN;
	for (k = 0; k < j->reads; k++) {
		const struct eread *e = &s->r[s->by_job[j->first + k]];
		int64_t svc = e->end - e->arrival;

		if (e->has_lat)
			st->eng[st->neng++] = e->lat_ns;
		if (!e->matched)
			continue;
		st->svc[st->nsvc++] = svc > 0 ? svc : 0;
		if (e->has_lat)
			st->ovh[st->novh++] = SIGNED_KEY((int64_t)e->lat_ns - svc);
		st->bytes += e->len;
		st->coverage += (double)e->covered /
				((e->len + HC_SECTOR - 1) / HC_SECTOR);
		if (e->arrival < st->first_arrival)
			st->first_arrival = e->arrival;
		if (e->end > st->last_end)
			st->last_end = e->end;
	}
	/* the drive's time and bytes for the rows that served the job */
	for (k = 0; k < t->n; k++)
		if (t->rows[k].job == id) {
			st->drive += t->rows[k].seek + t->rows[k].rotation +
				     t->rows[k].transfer;
			st->row_bytes += t->rows[k].sectors * HC_SECTOR;
		}
	qsort(st->svc, st->nsvc, sizeof(uint64_t), hc_cmp_u64);
	qsort(st->eng, st->neng, sizeof(uint64_t), hc_cmp_u64);
	qsort(st->ovh, st->novh, sizeof(uint64_t), hc_cmp_u64);

	snprintf(st->frac, sizeof(st->frac), "%.6f",
		 (double)j->matched / j->reads);
	if (st->nsvc) {
		snprintf(st->cov_mean, sizeof(st->cov_mean), "%.6f",
			 st->coverage / st->nsvc);
		snprintf(st->svc_mean, sizeof(st->svc_mean), "%.6f",
			 hc_mean(st->svc, st->nsvc) / 1e6);
		fmt_ns(st->svc_p50, hc_percentile(st->svc, st->nsvc, 50), 6);
		fmt_ns(st->svc_p99, hc_percentile(st->svc, st->nsvc, 99), 6);
		fmt_ns(st->first, st->first_arrival, 3);
		fmt_ns(st->last, st->last_end, 3);
		if (st->last_end > st->first_arrival)
			snprintf(st->span_mb_s, sizeof(st->span_mb_s), "%.3f",
				 (double)st->bytes * 1e3 /
				 (st->last_end - st->first_arrival));
		fmt_ns(st->drive_ms, st->drive, 6);
		if (st->drive > 0)
			snprintf(st->mb_s, sizeof(st->mb_s), "%.3f",
				 (double)st->row_bytes * 1e3 / st->drive);
	}
	if (st->neng) {
		snprintf(st->eng_mean, sizeof(st->eng_mean), "%.6f",
			 hc_mean(st->eng, st->neng) / 1e6);
		fmt_ns(st->eng_p50, hc_percentile(st->eng, st->neng, 50), 6);
		fmt_ns(st->eng_p99, hc_percentile(st->eng, st->neng, 99), 6);
	}
	if (st->novh)
		fmt_ns(st->ovh_p50,
		       KEY_SIGNED(hc_percentile(st->ovh, st->novh, 50)), 6);
}

static void jstats_free(struct jstats *st)
{
	free(st->svc);
	free(st->eng);
	free(st->ovh);
}

/* DIR/<job>.csv; characters a file name should not hold become '_' */
static void write_cdf(const char *dir, const char *job,
		      const struct jstats *st)
{
	size_t i, n = st->nsvc, npts = n < CDF_POINTS ? n : CDF_POINTS;
	char *path, *name, *p, b[32];
	FILE *fp;

	name = strdup(*job ? job : "_");
	if (!name)
		fail("out of memory");
	for (p = name; *p; p++)
		if (!(isalnum((unsigned char)*p) || strchr("._-", *p)) ||
		    (p == name && *p == '.'))
			*p = '_';
	if (asprintf(&path, "%s/%s.csv", dir, name) < 0)
		fail("out of memory");
	fp = out_open(path);
	fputs("service_ms,frac\n", fp);
	/* npts points evenly spread over the ranks 1..n, first and last kept */
	for (i = 0; i < npts; i++) {
		size_t k = npts > 1 ? (size_t)((double)i * (n - 1) / (npts - 1) + 0.5) : 0;

		fprintf(fp, "%s,%.6f\n", fmt_ns(b, st->svc[k], 6),
			(double)(k + 1) / n);
	}
	out_close(fp, path);
	free(path);
	free(name);
}

#define USAGE \
"usage: " PROG " [--min-match F] [--out JOINED.csv] [--summary SUMMARY.csv]\n" \
"                    [--cdf-dir DIR] TRACE.csv SEEK.csv\n"

/* a usage error: what was wrong, the synopsis, exit 2 */
static void __attribute__((noreturn, format(printf, 1, 2)))
usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n" USAGE "(" PROG " --help describes the outputs)\n");
	exit(EXIT_BAD);
}

static void usage(FILE *fp)
{
	fprintf(fp, USAGE
"\n"
"Join the hdd filter's trace (TRACE.csv) with the hotcold engine's seek log\n"
"(SEEK.csv): every engine read gets the disk's service time for it.\n"
"\n"
"  --min-match F   exit 3 if a job has fewer than this fraction of its reads\n"
"                  in the trace (0..1, default 0.99)\n"
"  --out FILE      one row per engine read:\n"
"                  job,seq,file,hotness,lba,len,matched,coverage,\n"
"                  engine_lat_us,arrival_us,end_us,service_us,queue_us,\n"
"                  seek_us,rotation_us,transfer_us,cyl_distance,\n"
"                  guest_overhead_us (coverage: the fraction of the read's\n"
"                  sectors found in the trace, empty when unmatched)\n"
"  --summary FILE  one row per job:\n"
"                  job,hotness,reads,matched,match_frac,coverage_mean,\n"
"                  service_mean_ms,service_p50_ms,service_p99_ms,\n"
"                  engine_mean_ms,engine_p50_ms,engine_p99_ms,\n"
"                  overhead_p50_ms,disk_mb_s,bytes,first_arrival_us,\n"
"                  last_end_us,drive_ms,row_bytes,span_mb_s\n"
"                  (coverage_mean: over the matched reads; disk_mb_s:\n"
"                  row_bytes, the bytes of the rows that served the job,\n"
"                  over drive_ms, their seek + rotation + transfer;\n"
"                  span_mb_s: bytes over last end - first arrival)\n"
"  --cdf-dir DIR   DIR/<job>.csv: service_ms,frac (at most %d points)\n"
"\n"
"Exit status: 0, 2 bad input or usage, 3 a job below --min-match.\n",
		CDF_POINTS);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "min-match", required_argument, NULL, 'm' },
		{ "out", required_argument, NULL, 'o' },
		{ "summary", required_argument, NULL, 's' },
		{ "cdf-dir", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *out = NULL, *summary = NULL, *cdf_dir = NULL;
	double min_match = 0.99;
	struct trace t;
	struct seeklog s;
	FILE *sum = NULL;
	size_t i;
	int opt, status = 0;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		char *end;

		switch (opt) {
		case 'm':
			errno = 0;
			min_match = strtod(optarg, &end);
			if (!*optarg || *end || errno || !(min_match >= 0) ||
			    min_match > 1)
				fail("--min-match '%s': not a fraction between 0 and 1",
				     optarg);
			break;
		case 'o':
			out = optarg;
			break;
		case 's':
			summary = optarg;
			break;
		case 'c':
			cdf_dir = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case ':':
			usage_error("option '%s' needs a value", argv[optind - 1]);
		default:
			usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (argc - optind != 2)
		usage_error("need TRACE.csv and SEEK.csv (got %d file arguments)",
			    argc - optind);

	trace_load(&t, argv[optind]);
	seeklog_load(&s, argv[optind + 1]);
	trace_index(&t);
	join(&t, &s);
	seeklog_group(&s);

	if (out)
		write_joined(&s, out);
	if (summary) {
		sum = out_open(summary);
		fputs("job,hotness,reads,matched,match_frac,coverage_mean,"
		      "service_mean_ms,"
		      "service_p50_ms,service_p99_ms,engine_mean_ms,"
		      "engine_p50_ms,engine_p99_ms,overhead_p50_ms,disk_mb_s,"
		      "bytes,first_arrival_us,last_end_us,drive_ms,row_bytes,"
		      "span_mb_s\n", sum);
	}
	if (cdf_dir && mkdir(cdf_dir, 0777) && errno != EEXIST)
		fail("cannot create --cdf-dir %s: %s", cdf_dir, strerror(errno));

	for (i = 0; i < s.njobs; i++) {
		const struct job *j = &s.jobs[i];
		struct jstats st;

		if (!j->reads)
			continue;
		job_stats(&t, &s, j, &st);
		if (sum) {
			put_field(sum, j->name);
			fputc(',', sum);
			put_field(sum, s.str + j->hotness);
			fprintf(sum, ",%zu,%zu,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%" PRIu64 ",%s,%s,%s,%" PRIu64 ",%s\n",
				j->reads, j->matched, st.frac, st.cov_mean,
				st.svc_mean,
				st.svc_p50, st.svc_p99, st.eng_mean,
				st.eng_p50, st.eng_p99, st.ovh_p50, st.mb_s,
				st.bytes, st.first, st.last, st.drive_ms,
				st.row_bytes, st.span_mb_s);
		}
		if (cdf_dir && st.nsvc)
			write_cdf(cdf_dir, j->name, &st);
		printf("job=%s reads=%zu matched=%zu match_frac=%s coverage_mean=%s service_p50_ms=%s service_p99_ms=%s engine_p50_ms=%s overhead_p50_ms=%s disk_mb_s=%s\n",
		       j->name, j->reads, j->matched, st.frac,
		       *st.cov_mean ? st.cov_mean : "-",
		       *st.svc_p50 ? st.svc_p50 : "-",
		       *st.svc_p99 ? st.svc_p99 : "-",
		       *st.eng_p50 ? st.eng_p50 : "-",
		       *st.ovh_p50 ? st.ovh_p50 : "-",
		       *st.mb_s ? st.mb_s : "-");
		jstats_free(&st);
	}
	if (sum)
		out_close(sum, summary);
	fflush(stdout);

	for (i = 0; i < s.njobs; i++) {
		const struct job *j = &s.jobs[i];

		if (!j->reads || (double)j->matched >= min_match * j->reads - 1e-9)
			continue;
		fprintf(stderr, PROG ": job %s: only %zu of %zu reads (%.1f%%) found in %s; the trace and the seek log do not belong together\n",
			j->name, j->matched, j->reads,
			100.0 * j->matched / j->reads, t.path);
		status = EXIT_MISMATCH;
	}
	return status;
}
