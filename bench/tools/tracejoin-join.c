// SPDX-License-Identifier: GPL-2.0
/*
 * tracejoin-join.c - hc-tracejoin's join: the two passes of the
 * manual's "Matching" (hc-tracejoin.c), every engine read given the trace
 * rows that served it and the disk's view of it (the contract in
 * tracejoin.h).
 */
#include "hotcold-map.h"
#include "tracejoin.h"

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

void join(struct trace *t, struct seeklog *s)
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
