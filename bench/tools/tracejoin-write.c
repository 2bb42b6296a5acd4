// SPDX-License-Identifier: GPL-2.0
/*
 * tracejoin-write.c - hc-tracejoin's outputs: the joined rows (--out),
 * the summary (--summary), the CDFs (--cdf-dir) and the line per job on
 * stdout (the contract in tracejoin.h).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "hotcold-map.h"
#include "tracejoin.h"

/* ns as a decimal of 10^@digits ns (3: us, 6: ms), exact */
char *fmt_ns(char *buf, int64_t ns, int digits)
{
	uint64_t u = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;
	uint64_t div = digits == 6 ? 1000000 : 1000;

	sprintf(buf, "%s%" PRIu64 ".%0*" PRIu64, ns < 0 ? "-" : "",
		u / div, digits, u % div);
	return buf;
}

/* write @s as a CSV field: quoted when it holds , " or a newline */
void put_field(FILE *fp, const char *s)
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

FILE *out_open(const char *path)
{
	FILE *fp = fopen(path, "w");

	if (!fp)
		fail("cannot write %s: %s", path, strerror(errno));
	return fp;
}

void out_close(FILE *fp, const char *path)
{
	if (ferror(fp) | fclose(fp))
		fail("writing %s failed: %s", path, strerror(errno));
}

void write_joined(const struct seeklog *s, const char *path)
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

/* DIR/<job>.csv; characters a file name should not hold become '_' */
void write_cdf(const char *dir, const char *job,
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

FILE *summary_open(const char *path)
{
	FILE *fp = out_open(path);

	fputs("job,hotness,reads,matched,match_frac,coverage_mean,"
	      "service_mean_ms,"
	      "service_p50_ms,service_p99_ms,engine_mean_ms,"
	      "engine_p50_ms,engine_p99_ms,overhead_p50_ms,disk_mb_s,"
	      "bytes,first_arrival_us,last_end_us,drive_ms,row_bytes,"
	      "span_mb_s\n", fp);
	return fp;
}

void summary_row(FILE *fp, const struct seeklog *s, const struct job *j,
		 const struct jstats *st)
{
	put_field(fp, j->name);
	fputc(',', fp);
	put_field(fp, s->str + j->hotness);
	fprintf(fp, ",%zu,%zu,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%" PRIu64 ",%s,%s,%s,%" PRIu64 ",%s\n",
		j->reads, j->matched, st->frac, st->cov_mean,
		st->svc_mean,
		st->svc_p50, st->svc_p99, st->eng_mean,
		st->eng_p50, st->eng_p99, st->ovh_p50, st->mb_s,
		st->bytes, st->first, st->last, st->drive_ms,
		st->row_bytes, st->span_mb_s);
}

void print_job(const struct job *j, const struct jstats *st)
{
	printf("job=%s reads=%zu matched=%zu match_frac=%s coverage_mean=%s service_p50_ms=%s service_p99_ms=%s engine_p50_ms=%s overhead_p50_ms=%s disk_mb_s=%s\n",
	       j->name, j->reads, j->matched, st->frac,
	       *st->cov_mean ? st->cov_mean : "-",
	       *st->svc_p50 ? st->svc_p50 : "-",
	       *st->svc_p99 ? st->svc_p99 : "-",
	       *st->eng_p50 ? st->eng_p50 : "-",
	       *st->ovh_p50 ? st->ovh_p50 : "-",
	       *st->mb_s ? st->mb_s : "-");
}
