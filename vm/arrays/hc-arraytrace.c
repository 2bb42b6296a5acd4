// SPDX-License-Identifier: GPL-2.0
/*
 * hc-arraytrace - the members' disk-model traces of an hc-arrayload run,
 * cut into its phases: per member, class and phase, where the reads went
 * (bytes per third of the member) and what they cost on the drive's clock.
 *
 *   hc-arraytrace MEMBER_SIZE TRACE...   (one trace per member, in order)
 *
 * MEMBER_SIZE is a member's size (bytes, or with K/M/G) for the thirds and
 * the marker's place (array-layout.h).  A trace is the hdd filter's CSV
 * (vm/hdd-model/nbdkit-hdd-filter.pod), read by column name with the
 * project's CSV reader (vm/lib/hc-csv.h: a missing column, a short row or
 * a bad number is refused, named with the file and line); a read of K <
 * 8 sectors at the marker sector starts phase K (hc-arrayload.c's header),
 * K = 7 ends the last.
 *
 * Output on stdout, CSV:
 *   member,class,phase,reads,bytes,bytes_t0,bytes_t1,bytes_t2,busy_us,
 *   drive_us,drive_t0_us,drive_t1_us,drive_t2_us,svc_p50_us,svc_p90_us,
 *   svc_p99_us,svc_mean_us,seek_mean_us,cyl_mean,writes
 * a row per member, class (hot, cold, none) and phase (seq, rand), then
 * member "all": the members' rows pooled (bytes added, busy_us and
 * drive_us the busiest member's, the service percentiles over every
 * member's reads).  A read's service is end_us - start_us of its trace
 * row; busy_us is the sum of the phase's reads' services on that member.
 * drive_us is the sum of their seek_us + rotation_us + transfer_us: the
 * drive's own time for the data, including the media time of read-ahead
 * the drive streamed before the request arrived (a sequential stream
 * continued while the guest was between requests), which end_us -
 * start_us leaves out; drive_tN_us is the part of it spent on rows that
 * start in third N (bytes_tN / drive_tN_us: the rate there).  seek_mean_us and cyl_mean are the reads' mean
 * seek_us and cyl_distance (how far the arm moved, in cylinders).  writes counts the
 * write rows in the phase (none expected: a check).
 * Exit status 0; 1 when a trace lacks a column or a marker, or holds a
 * bad value (named); 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array-layout.h"
#include "hc-csv.h"

#define NCLASS 3
#define NPHASE 2

static const char *const class_name[NCLASS] = { "hot", "cold", "none" };
static const char *const phase_name[NPHASE] = { "seq", "rand" };

struct cell {
	uint64_t reads, bytes, t[3], busy, writes;
	double drive, dt[3], seek, cyl;
	double *svc;
	size_t nsvc, cap;
};

/* bad input: "hc-arraytrace: MESSAGE", exit 1 (the CSV reader's exit) */
#define die(...)	csv_fail(__VA_ARGS__)

static void add_svc(struct cell *c, double v)
{
	if (c->nsvc == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 256;
		c->svc = realloc(c->svc, c->cap * sizeof(*c->svc));
		if (!c->svc)
			die("out of memory");
	}
	c->svc[c->nsvc++] = v;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* nearest-rank percentile of sorted v[n] */
static double pct(const double *v, size_t n, double p)
{
	size_t k;

	if (!n)
		return 0;
	k = (size_t)(p / 100 * (double)n + 0.999999);
	if (k < 1)
		k = 1;
	return v[k > n ? n - 1 : k - 1];
}

static void print_cell(const char *member, int c, int ph, struct cell *x)
{
	double mean = 0;
	size_t i;

	qsort(x->svc, x->nsvc, sizeof(*x->svc), cmp_double);
	for (i = 0; i < x->nsvc; i++)
		mean += x->svc[i];
	if (x->nsvc)
		mean /= (double)x->nsvc;
	printf("%s,%s,%s,%llu,%llu,%llu,%llu,%llu,%llu,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.1f,%.1f,%.1f,%llu\n",
	       member, class_name[c], phase_name[ph],
	       (unsigned long long)x->reads, (unsigned long long)x->bytes,
	       (unsigned long long)x->t[0], (unsigned long long)x->t[1],
	       (unsigned long long)x->t[2], (unsigned long long)x->busy,
	       x->drive, x->dt[0], x->dt[1], x->dt[2], pct(x->svc, x->nsvc, 50), pct(x->svc, x->nsvc, 90),
	       pct(x->svc, x->nsvc, 99), mean,
	       x->reads ? x->seek / (double)x->reads : 0,
	       x->reads ? x->cyl / (double)x->reads : 0,
	       (unsigned long long)x->writes);
}

static uint64_t parse_size(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		return 0;
	switch (*end) {
	case 'K': v <<= 10; end++; break;
	case 'M': v <<= 20; end++; break;
	case 'G': v <<= 30; end++; break;
	}
	return *end ? 0 : v;
}

int main(int argc, char **argv)
{
	enum { C_START, C_END, C_LBA, C_SECT, C_OP, C_SEEK, C_ROT, C_XFER,
	       C_CYL, NCOL };
	static const char *const colname[NCOL] = {
		"start_us", "end_us", "lba", "sectors", "op", "seek_us",
		"rotation_us", "transfer_us", "cyl_distance"
	};
	static struct cell cell[AL_MAX_MEMBERS][NCLASS][NPHASE];
	uint64_t msz, marker;
	int nmem, m, c, ph;

	csv_prog = "hc-arraytrace";
	csv_bad_status = 1;
	if (argc < 3) {
		fprintf(stderr, "usage: hc-arraytrace MEMBER_SIZE TRACE...\n");
		return 2;
	}
	msz = parse_size(argv[1]) / 512;
	if (!msz) {
		fprintf(stderr, "hc-arraytrace: MEMBER_SIZE '%s': give bytes or a size like 4G\n",
			argv[1]);
		return 2;
	}
	nmem = argc - 2;
	if (nmem > AL_MAX_MEMBERS) {
		fprintf(stderr, "hc-arraytrace: %d traces: at most %d members\n",
			nmem, AL_MAX_MEMBERS);
		return 2;
	}
	marker = al_marker_sector(msz);

	for (m = 0; m < nmem; m++) {
		const char *name = argv[2 + m];
		struct csv f;
		size_t col[NCOL];
		int k, phase = 0, ended = 0, seen[8] = { 0 };

		csv_open(&f, name);
		for (k = 0; k < NCOL; k++)
			col[k] = csv_col(&f, colname[k]);
		while (csv_next(&f)) {
			const char *op = csv_field(&f, col[C_OP]);
			uint64_t lba = 0, sect = 0;
			double start, end, seek, dr;
			struct cell *x;

			if (!strcmp(op, "read")) {
				csv_u64(&f, col[C_LBA], &lba, 0);
				csv_u64(&f, col[C_SECT], &sect, 0);
			}
			if (!strcmp(op, "read") && lba == marker &&
			    sect >= 1 && sect <= 7) {
				phase = (int)sect;
				seen[phase] = 1;
				if (phase == 7)
					ended = 1;
				continue;
			}
			if (!phase || phase == 7)
				continue;
			x = &cell[m][(phase - 1) / 2][(phase - 1) % 2];
			if (strcmp(op, "read")) {
				if (!strcmp(op, "write"))
					x->writes++;
				continue;
			}
			start = csv_double(&f, col[C_START]);
			end = csv_double(&f, col[C_END]);
			seek = csv_double(&f, col[C_SEEK]);
			x->reads++;
			x->bytes += sect * 512;
			al_add_thirds(msz, lba, sect, x->t);
			x->busy += (uint64_t)(end - start + 0.5);
			x->seek += seek;
			x->cyl += fabs(csv_double(&f, col[C_CYL]));
			dr = seek + csv_double(&f, col[C_ROT]) +
			     csv_double(&f, col[C_XFER]);
			x->drive += dr;
			x->dt[lba * 3 / msz < 3 ? lba * 3 / msz : 2] += dr;
			add_svc(x, end - start);
		}
		csv_close(&f);
		for (k = 1; k <= 7; k++)
			if (!seen[k])
				die("trace '%s': no marker %d (a read of %d sectors at sector %llu); did hc-arrayload finish?",
				    name, k, k, (unsigned long long)marker);
		if (!ended)
			die("trace '%s': no end marker", name);
	}

	printf("member,class,phase,reads,bytes,bytes_t0,bytes_t1,bytes_t2,busy_us,"
	       "drive_us,drive_t0_us,drive_t1_us,drive_t2_us,svc_p50_us,svc_p90_us,svc_p99_us,svc_mean_us,"
	       "seek_mean_us,cyl_mean,writes\n");
	for (m = 0; m < nmem; m++)
		for (c = 0; c < NCLASS; c++)
			for (ph = 0; ph < NPHASE; ph++) {
				char id[16];

				snprintf(id, sizeof(id), "%d", m);
				print_cell(id, c, ph, &cell[m][c][ph]);
			}
	for (c = 0; c < NCLASS; c++)
		for (ph = 0; ph < NPHASE; ph++) {
			struct cell all;
			size_t i;

			memset(&all, 0, sizeof(all));
			for (m = 0; m < nmem; m++) {
				struct cell *x = &cell[m][c][ph];

				all.reads += x->reads;
				all.bytes += x->bytes;
				for (i = 0; i < 3; i++)
					all.t[i] += x->t[i];
				if (x->busy > all.busy)
					all.busy = x->busy;
				if (x->drive > all.drive)
					all.drive = x->drive;
				for (i = 0; i < 3; i++)
					all.dt[i] += x->dt[i];
				all.seek += x->seek;
				all.cyl += x->cyl;
				all.writes += x->writes;
				for (i = 0; i < x->nsvc; i++)
					add_svc(&all, x->svc[i]);
			}
			print_cell("all", c, ph, &all);
		}
	return 0;
}
