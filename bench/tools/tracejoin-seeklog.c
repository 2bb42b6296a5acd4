// SPDX-License-Identifier: GPL-2.0
/*
 * tracejoin-seeklog.c - hc-tracejoin's seek log: the engine's reads
 * (ddir=read), loaded by column name, with their jobs and a string arena
 * for file and hotness names (the contract in tracejoin.h).
 */
#include <stdlib.h>
#include <string.h>
#include "tracejoin.h"

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

void seeklog_load(struct seeklog *s, const char *path)
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
void seeklog_group(struct seeklog *s)
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
