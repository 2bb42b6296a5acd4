// SPDX-License-Identifier: GPL-2.0
/*
 * tracejoin-trace.c - hc-tracejoin's trace: the disk model's read rows,
 * loaded by column name, indexed by (length class, lba) and by (lba,
 * sectors, arrival), and taken for the sectors of a read (the manual's
 * "Cost" in hc-tracejoin.c; the contract in tracejoin.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "tracejoin.h"

void trace_load(struct trace *t, const char *path)
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

void trace_index(struct trace *t)
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
uint32_t trace_take(struct trace *t, uint64_t p, int64_t min_arrival)
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
uint32_t trace_take_exact(struct trace *t, uint64_t lba, uint64_t n)
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
