// SPDX-License-Identifier: GPL-2.0
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
 * Build: `make bench-tools` (bench/tools/tools.mk), or, from the top:
 *
 *   gcc -O2 -Wall -Wextra -D_GNU_SOURCE -I vm/lib -o hc-tracejoin \
 *       bench/tools/hc-tracejoin.c bench/tools/tracejoin-*.c vm/lib/hc-csv.c -lm
 *
 * The sources, one job per file, are listed in tracejoin.h.
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
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tracejoin.h"

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		fail("out of memory (%zu bytes)", n);
	return p;
}

/* grow *@p (of *@cap elements of @sz bytes) to hold at least @need */
void grow(void **p, size_t *cap, size_t need, size_t sz)
{
	if (need <= *cap)
		return;
	*cap = *cap ? *cap * 2 : 1024;
	if (*cap < need)
		*cap = need;
	*p = xrealloc(*p, *cap * sz);
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

	csv_prog = PROG;
	csv_bad_status = EXIT_BAD;
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
	if (summary)
		sum = summary_open(summary);
	if (cdf_dir && mkdir(cdf_dir, 0777) && errno != EEXIST)
		fail("cannot create --cdf-dir %s: %s", cdf_dir, strerror(errno));

	for (i = 0; i < s.njobs; i++) {
		const struct job *j = &s.jobs[i];
		struct jstats st;

		if (!j->reads)
			continue;
		job_stats(&t, &s, j, &st);
		if (sum)
			summary_row(sum, &s, j, &st);
		if (cdf_dir && st.nsvc)
			write_cdf(cdf_dir, j->name, &st);
		print_job(j, &st);
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
