// SPDX-License-Identifier: GPL-2.0
/*
 * tracejoin-stats.c - hc-tracejoin's statistics of one job: nearest-rank
 * percentiles over integer nanoseconds (hc_percentile of hotcold-map.h),
 * means, the drive's rate and the job's span (the contract in
 * tracejoin.h).
 */
#include <stdlib.h>
#include <string.h>
#include "hotcold-map.h"
#include "tracejoin.h"

/* signed ns <-> unsigned keys that sort in the same order (hc_cmp_u64) */
#define SIGNED_KEY(v)	((uint64_t)(v) ^ (UINT64_C(1) << 63))
#define KEY_SIGNED(k)	((int64_t)((k) ^ (UINT64_C(1) << 63)))

/*
 * Service statistics and coverage over the job's matched reads; engine
 * statistics over all its reads with a latency (the engine's own view,
 * matched or not); overhead over the matched reads with a latency.
 */
void job_stats(const struct trace *t, const struct seeklog *s,
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

void jstats_free(struct jstats *st)
{
	free(st->svc);
	free(st->eng);
	free(st->ovh);
}
