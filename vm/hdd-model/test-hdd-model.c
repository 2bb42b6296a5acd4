// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the hdd model, without nbdkit.
 * Usage: test-hdd-model PROFILES.conf [SIZE_BYTES]
 * For every profile in the file: seek curve continuous and
 * non-decreasing, track-to-track and full stroke as configured, mean
 * seek over random cylinder pairs (Monte Carlo) within 5% of the stated
 * average, zone throughput ratio, LBA <-> CHS round trip, mean
 * rotational latency of random reads about half a revolution;
 * sequential rate the same for 4 KiB to 1 MiB requests (within 1%) and
 * equal to the per-cylinder formula with its switches and skews; the
 * rotational target of a sector on a skewed track.
 * Prints TAP lines (vm/lib/tap.h); exit 0 if all pass.
 */

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <inttypes.h>
#include <string.h>
#include <math.h>

#include "hdd-model.h"
#include "tap.h"

/* One TAP line (vm/lib/tap.h): "PROFILE: " and FMT filled with GOT, WANT. */
static void
check (int ok, const char *profile, const char *fmt, double got,
       double want)
{
  char what[512];

  snprintf (what, sizeof what, fmt, got, want);
  tap_ok (ok, "%s: %s", profile, what);
}

static uint64_t
rnd (uint64_t n)                /* uniform in [0, n) */
{
  uint64_t r = ((uint64_t) mrand48 () << 32) ^ (uint32_t) mrand48 ();
  return r % n;
}

/* Sequential read of BYTES from LBA in requests of REQ bytes, each
 * arriving as the previous one ends (queue depth 1, no host delay):
 * MB/s from the end of the first request to the end of the last (the
 * first pays the seek and rotational wait).
 */
static double
seq_rate (const struct hdd_geom *g, uint64_t lba, uint64_t bytes,
          uint64_t req)
{
  struct hdd_state s = { 0 };
  struct hdd_result r;
  uint64_t n = req / HDD_SECTOR, done = 0, i, count = bytes / req;
  double first_end = 0;

  for (i = 0; i < count; i++) {
    hdd_service (g, &s, s.busy_until, HDD_READ, lba + i * n, n,
                 2 * 1024 * 1024 / HDD_SECTOR, 0, &r);
    if (i == 0)
      first_end = r.end;
    else
      done += req;
  }
  return (double) done / (r.end - first_end);
}

/* What moving on to the next track costs, from the geometry alone: the
 * switch SW, then the wait until the first sector, skewed by SKEW (a
 * fraction of a turn) from where the last track began, comes round.
 */
static double
switch_cost (const struct hdd_geom *g, double sw, double skew)
{
  double w = skew - sw / g->rev_us;

  w -= floor (w);
  if (w > 1 - 1e-6) w = 0;      /* skew == switch, up to rounding */
  return sw + w * g->rev_us;
}

/* The same stream's rate from the geometry alone: a cylinder's sectors
 * over its revolutions plus what each track and cylinder switch costs.
 */
static double
seq_rate_formula (const struct hdd_geom *g, uint64_t lba)
{
  struct hdd_chs c;
  double t;
  unsigned z;

  hdd_lba_to_chs (g, lba, &c);
  z = c.cyl / g->cyls_per_zone;
  t = g->heads * g->rev_us +
    (g->heads - 1) * switch_cost (g, g->head_switch_us,
                                  g->zone_track_skew_rev[z]) +
    switch_cost (g, hdd_seek_us (g, 1), g->zone_cyl_skew_rev[z]);
  return (double) g->heads * c.spt * HDD_SECTOR / t;
}

/* The rotational target takes skew into account: sector s of track
 * (c, h) sits at (s/spt + c*(cylinder skew + (heads-1)*track skew) +
 * h*track skew) of a turn from the index.  A read arriving at the
 * index (time a whole number of turns), the head already on its track,
 * waits exactly that.
 */
static void
test_skew_target (const char *name, const struct hdd_geom *g)
{
  struct hdd_chs c = { .cyl = 3 % g->cylinders, .head = g->heads - 1 };
  int ok = 1;
  unsigned sector;
  double worst = 0;

  for (sector = 0; sector < 64; sector += 7) {
    struct hdd_state s = { .cyl = c.cyl, .head = c.head };
    struct hdd_result r;
    struct hdd_chs cc = c;
    double a, want;
    uint64_t lba;

    cc.sector = sector;
    hdd_lba_to_chs (g, hdd_chs_to_lba (g, &cc), &cc);
    if (cc.sector != sector)
      continue;
    lba = hdd_chs_to_lba (g, &cc);
    a = (double) sector / cc.spt + (double) cc.cyl *
      (g->cyl_skew_rev + (g->heads - 1) * g->track_skew_rev) +
      cc.head * g->track_skew_rev;
    want = (a - floor (a)) * g->rev_us;
    hdd_service (g, &s, 1000 * g->rev_us, HDD_READ, lba, 1, 0, 0, &r);
    if (fabs (r.rotation - want) > 1e-3 * g->rev_us) ok = 0;
    if (fabs (r.rotation - want) > worst) worst = fabs (r.rotation - want);
  }
  check (ok, name, "rotational target includes the skew: worst error "
         "%.4f us (want < %.1f us)", worst, 1e-3 * g->rev_us);
}

/* A stream across each zone boundary, the last cylinder of zone z-1
 * and the first of zone z, takes each cylinder's turns and track
 * switches at its own zone's skew, and one cylinder switch at zone z's
 * cylinder skew: the zones' first tracks are where the skews put them.
 */
static void
test_zone_boundaries (const char *name, const struct hdd_geom *g)
{
  unsigned z;
  int ok = 1;
  double worst = 0;

  for (z = 1; z < g->nzones && g->zone_lba[z] < g->sectors; z++) {
    struct hdd_chs c = { .cyl = z * g->cyls_per_zone - 1 };
    uint64_t lba = hdd_chs_to_lba (g, &c);
    uint64_t n = (uint64_t) g->heads * (g->spt[z - 1] + g->spt[z]);
    double want, got;

    if (lba + n > g->sectors)
      break;
    want = 2 * g->heads * g->rev_us +
      (g->heads - 1) * switch_cost (g, g->head_switch_us,
                                    g->zone_track_skew_rev[z - 1]) +
      switch_cost (g, hdd_seek_us (g, 1), g->zone_cyl_skew_rev[z]) +
      (g->heads - 1) * switch_cost (g, g->head_switch_us,
                                    g->zone_track_skew_rev[z]);
    got = hdd_transfer_us (g, lba, n);
    if (fabs (got - want) > 1e-3 * g->rev_us) ok = 0;
    if (fabs (got - want) > worst) worst = fabs (got - want);
  }
  check (ok, name, "streams across zone boundaries cost the skews: worst "
         "error %.4f us (want < %.1f us)", worst, 1e-3 * g->rev_us);
}

/* Sequential rate does not depend on the request size: the track and
 * cylinder switches cost the same inside a request and between two.
 * Measured over whole cylinders of one zone (about 64 MiB or the zone)
 * at the outer edge and at the last full cylinder.
 */
static void
test_seq_sizes (const char *name, const struct hdd_geom *g)
{
  static const uint64_t sizes[] = { 4096, 12288, 65536, 1048576 };
  uint64_t cyls[2][2], k;
  int e;
  size_t i;

  k = (UINT64_C (64) << 20) / ((uint64_t) g->heads * g->spt[0] * HDD_SECTOR)
    + 1;
  if (k > g->cyls_per_zone) k = g->cyls_per_zone;
  cyls[0][0] = 0;
  cyls[0][1] = k;
  cyls[1][1] = g->cylinders - 1;        /* the last one may be partial */
  cyls[1][0] = cyls[1][1] > k ? cyls[1][1] - k : 0;
  if (cyls[1][0] < (cyls[1][1] - 1) / g->cyls_per_zone * g->cyls_per_zone)
    cyls[1][0] = (cyls[1][1] - 1) / g->cyls_per_zone * g->cyls_per_zone;
  for (e = 0; e < 2; e++) {
    struct hdd_chs c0 = { .cyl = cyls[e][0] }, c1 = { .cyl = cyls[e][1] };
    uint64_t lba = hdd_chs_to_lba (g, &c0);
    uint64_t len = (hdd_chs_to_lba (g, &c1) - lba) * HDD_SECTOR;
    double r64 = seq_rate (g, lba, len, 65536);
    double want = seq_rate_formula (g, lba);

    check (fabs (r64 / want - 1) < 0.01, name,
           "64 KiB sequential rate %.3f MB/s, per-cylinder formula %.3f MB/s",
           r64, want);
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
      double r = seq_rate (g, lba, len, sizes[i]);
      char what[160];

      snprintf (what, sizeof what, "%s edge: %" PRIu64 " B sequential rate "
                "%%.3f MB/s, 64 KiB %%.3f MB/s (within 1%%%%)",
                e ? "inner" : "outer", sizes[i]);
      check (fabs (r / r64 - 1) < 0.01, name, what, r, r64);
    }
  }
}

/* Two reads of a sequential stream that reach the drive in swapped
 * order (nbdkit's worker threads can swap requests a client sent in
 * order) cost what they cost in order: the later one takes the stream
 * on through the earlier one's sectors (read-ahead), the earlier one is
 * then in the buffer.  1 MiB reads A, B after a read R at LBA 0 and 8
 * MiB from the end, queued behind R: B then A ends when A then B
 * does, with no seek or rotational wait, and the stream goes on after B
 * as before.  A read behind the stream by more than the read-ahead, or
 * before the read that began it, is not in the buffer.
 */
static void
test_swapped_stream (const char *name, const struct hdd_geom *g)
{
  uint64_t starts[2] = { 0, g->sectors - 16384 };   /* 8 MiB from the end */
  int e;

  for (e = 0; e < 2; e++) {
    uint64_t L = starts[e];
    struct hdd_state s1 = { 0 }, s2;
    struct hdd_result r, a1, b1, a2, b2, n1, n2;

    hdd_service (g, &s1, 0, HDD_READ, L, 2048, 4096, 0, &r);
    s2 = s1;
    hdd_service (g, &s1, 1, HDD_READ, L + 2048, 2048, 4096, 0, &a1);
    hdd_service (g, &s1, 2, HDD_READ, L + 4096, 2048, 4096, 0, &b1);
    hdd_service (g, &s1, 3, HDD_READ, L + 6144, 2048, 4096, 0, &n1);
    hdd_service (g, &s2, 1, HDD_READ, L + 4096, 2048, 4096, 0, &b2);
    hdd_service (g, &s2, 2, HDD_READ, L + 2048, 2048, 4096, 0, &a2);
    hdd_service (g, &s2, 3, HDD_READ, L + 6144, 2048, 4096, 0, &n2);
    tap_ok (fabs (a2.end - b1.end) < 0.01 && fabs (n2.end - n1.end) < 0.01
            && b2.seek + b2.rotation + a2.seek + a2.rotation + n2.seek +
            n2.rotation == 0,
            "%s: %s edge: two stream reads swapped end at %.1f us, in "
            "order at %.1f us; the next read ends at %.1f us (in order "
            "%.1f us), no seek or rotational wait", name,
            e ? "inner" : "outer", a2.end, b1.end, n2.end, n1.end);
  }
  {
    struct hdd_state s = { 0 };
    struct hdd_result r;

    struct hdd_state s2, s3;
    struct hdd_result rf, rp;

    /* a 4 KiB read 1.5 MiB ahead in the window: never later than by
     * positioning for it (the drive stops reading ahead)
     */
    hdd_service (g, &s, 0, HDD_READ, 0, 2048, 4096, 0, &r);
    s2 = s3 = s;
    s3.have_last = 0;
    hdd_service (g, &s2, 1, HDD_READ, 2048 + 3072, 8, 4096, 0, &rf);
    hdd_service (g, &s3, 1, HDD_READ, 2048 + 3072, 8, 4096, 0, &rp);
    tap_ok (rf.end <= rp.end + 0.01, "%s: a 4 KiB read 1.5 MiB ahead of "
            "the stream ends at %.1f us, by positioning %.1f us", name,
            rf.end, rp.end);
    memset (&s, 0, sizeof s);
    /* behind the read that began the stream: not in its buffer */
    hdd_service (g, &s, 0, HDD_READ, 8192, 2048, 4096, 0, &r);
    hdd_service (g, &s, 1, HDD_READ, 4096, 2048, 4096, 0, &r);
    tap_ok (r.seek + r.rotation > 0, "%s: a read before the stream's "
            "first is a new stream (positioning %.1f us)", name,
            r.seek + r.rotation);
  }
}

/* Serve N requests (arrival order) through the drive's queue of DEPTH
 * with aging bound AGE_US; results into OUT[i] for request i.
 */
static void
simulate_ra (const struct hdd_geom *g, const struct hdd_request *reqs,
             size_t n, unsigned depth, double age_us, uint64_t readahead,
             struct hdd_result *out)
{
  struct hdd_request *q = malloc (n * sizeof *q);
  size_t *idx = malloc (n * sizeof *idx), pending = 0, next = 0;
  struct hdd_state s = { 0 };

  while (next < n || pending > 0) {
    size_t k;
    struct hdd_result r;

    /* Everything that has arrived by the time the drive is free (at
     * least the next one if it is idle) is waiting.
     */
    while (next < n && (pending == 0 || reqs[next].arrival <= s.busy_until)) {
      q[pending] = reqs[next];
      idx[pending++] = next++;
    }
    k = hdd_dispatch (g, &s, q, pending, depth, age_us, readahead, 0, &r);
    out[idx[k]] = r;
    memmove (&q[k], &q[k + 1], (pending - k - 1) * sizeof *q);
    memmove (&idx[k], &idx[k + 1], (pending - k - 1) * sizeof *idx);
    pending--;
  }
  free (q);
  free (idx);
}

/* The same with the filter's default read-ahead (2 MiB). */
static void
simulate (const struct hdd_geom *g, const struct hdd_request *reqs, size_t n,
          unsigned depth, double age_us, struct hdd_result *out)
{
  simulate_ra (g, reqs, n, depth, age_us, 4096, out);
}

/* Command queueing: queue depth 1 is arrival order, exactly as the
 * drive served requests one by one before; a queued near request is
 * served before an earlier far one; the aging bound holds.
 */
static void
test_queue (const char *name, const struct hdd_geom *g)
{
  const size_t N = 2000;
  struct hdd_request *reqs = malloc (N * sizeof *reqs);
  struct hdd_result *a = malloc (N * sizeof *a), *b = malloc (N * sizeof *b);
  struct hdd_state s = { 0 };
  double t = 0, worst, age = 200e3;
  size_t i, same = 0;

  /* Random reads and writes, arrivals now bunched, now spread. */
  for (i = 0; i < N; i++) {
    t += (double) rnd (i % 100 < 50 ? 2000 : 40000);
    reqs[i] = (struct hdd_request) {
      .arrival = t, .op = rnd (4) ? HDD_READ : HDD_WRITE,
      .lba = rnd (g->sectors - 128), .sectors = 8 * (1 + rnd (16)),
    };
  }
  for (i = 0; i < N; i++)
    hdd_service (g, &s, reqs[i].arrival, reqs[i].op, reqs[i].lba,
                 reqs[i].sectors, 4096, 0, &a[i]);
  simulate (g, reqs, N, 1, age, b);
  for (i = 0; i < N; i++)
    same += memcmp (&a[i], &b[i], sizeof a[i]) == 0;
  check (same == N, name, "queue-depth=1 serves as before: %g of %g "
         "requests identical", same, N);

  /* A long read at LBA 0; while it runs a far request, then a near one
   * (just past the long read's end) arrive.  Depth 1 serves the far one
   * first, depth 2 the near one.
   */
  {
    struct hdd_request q3[3] = {
      { .arrival = 0, .op = HDD_READ, .lba = 0, .sectors = 2048 },
      { .arrival = 1, .op = HDD_READ, .lba = g->sectors - 64, .sectors = 8 },
      { .arrival = 2, .op = HDD_READ, .lba = 2048 + 64, .sectors = 8 },
    };
    struct hdd_result r1[3], r2[3];

    simulate (g, q3, 3, 1, 1e12, r1);
    simulate (g, q3, 3, 2, 1e12, r2);
    check (r1[1].start < r1[2].start && r2[2].start < r2[1].start, name,
           "near request served before the earlier far one at depth 2 "
           "(near starts %.0f us, far %.0f us)", r2[2].start, r2[1].start);
  }

  /* Starvation: one far request, second in a crowd of near ones that
   * all arrive at once, more than the drive serves in five aging bounds
   * (about 16 per revolution with 32 to choose from).  With the bound it
   * waits at most the bound plus the request in service; without, it
   * waits until the crowd has gone.  Without read-ahead: the crowd lies
   * in one cylinder, and a read-ahead buffer would serve most of it at
   * once (near reads inside the stream's buffer).
   */
  {
    const size_t M = (size_t) (80 * age / g->rev_us);
    struct hdd_request *q = malloc ((M + 1) * sizeof *q);
    struct hdd_result *r = malloc ((M + 1) * sizeof *r);
    double unbounded;

    for (i = 0; i <= M; i++)
      q[i] = (struct hdd_request) {
        .arrival = i, .op = HDD_READ,
        .lba = rnd ((uint64_t) g->heads * g->spt[0]) & ~(uint64_t) 7,
        .sectors = 8,
      };
    q[1].lba = g->sectors - 64;
    simulate_ra (g, q, M + 1, 32, age, 0, r);
    worst = r[1].start - r[1].arrival;
    simulate_ra (g, q, M + 1, 32, 1e12, 0, r);
    unbounded = r[1].start - r[1].arrival;
    check (worst <= age + 3 * g->rev_us + hdd_seek_us (g, g->seek.max_dist)
           && unbounded > 4 * age, name,
           "far request among near ones waits %.0f us with the aging "
           "bound (without: %.0f us)", worst, unbounded);
    free (q);
    free (r);
  }
  free (reqs);
  free (a);
  free (b);
}

static void
test_profile (const char *file, const char *name, uint64_t size)
{
  struct hdd_profile p;
  struct hdd_geom g;
  char err[512];
  uint64_t D, d, i;
  double prev = 0, maxstep = 0, full, t2t;
  int monotone = 1;

  if (hdd_profile_load (file, name, &p, err, sizeof err) == -1 ||
      hdd_geom_init (&g, &p, size, err, sizeof err) == -1) {
    tap_ok (0, "%s: %s", name, err);
    return;
  }
  D = g.seek.max_dist;
  if (D < 3) {
    tap_ok (0, "%s: test size too small (%" PRIu64 " cylinders)",
            name, g.cylinders);
    return;
  }
  printf ("# %s at %" PRIu64 " bytes: %" PRIu64 " cylinders, %u zones x %"
          PRIu64 ", seek a=%.2f b=%.3f c=%.2f e=%.5f boundary=%.1f us\n",
          name, size, g.cylinders, g.nzones, g.cyls_per_zone,
          g.seek.a, g.seek.b, g.seek.c, g.seek.e, g.seek.boundary);

  /* Continuous and non-decreasing. */
  full = hdd_seek_us (&g, D);
  for (d = 1; d <= D; d++) {
    double t = hdd_seek_us (&g, d);
    if (t < prev - 1e-9) monotone = 0;
    if (d > 1 && t - prev > maxstep) maxstep = t - prev;
    prev = t;
  }
  check (monotone, name, "seek curve non-decreasing (%g, want %g)",
         monotone, 1);
  /* The steepest part of a + b sqrt(d) is its start: a jump anywhere
   * else would show as a step bigger than both that and 1% of full.
   */
  {
    double lim = fmax (0.01 * full, hdd_seek_us (&g, 2) - hdd_seek_us (&g, 1));
    check (maxstep <= lim + 1e-9, name,
           "seek curve continuous: largest step %.3f us <= %.3f us",
           maxstep, lim);
  }
  if (g.seek.boundary > 1 && g.seek.boundary < D) {
    double B = g.seek.boundary;
    double l = g.seek.a + g.seek.b * sqrt (B), r = g.seek.c + g.seek.e * B;
    check (fabs (l - r) <= 0.01 * r, name,
           "seek formulas meet at the boundary: %.3f vs %.3f us", l, r);
  }

  if (p.have_rw) {
    t2t = p.rw[5] >= 0 ? p.rw[5] * 1000 : (p.rw[1] + p.rw[2]) * 1000;
    full = (p.rw[3] + p.rw[4] * (double) (p.nominal_cyls - 1)) * 1000;
  }
  else {
    t2t = p.t2t_us;
    full = p.full_us;
  }
  check (fabs (hdd_seek_us (&g, 1) - t2t) < 1e-3, name,
         "track-to-track %.3f us, configured %.3f us",
         hdd_seek_us (&g, 1), t2t);
  check (fabs (hdd_seek_us (&g, D) - full) < 1e-3 * full, name,
         "full stroke %.3f us, configured %.3f us", hdd_seek_us (&g, D),
         full);

  if (!p.have_rw) {
    double sum = 0;
    const int N = 400000;
    for (i = 0; i < (uint64_t) N; i++) {
      uint64_t a = rnd (g.cylinders), b = rnd (g.cylinders);
      sum += hdd_seek_us (&g, a > b ? a - b : b - a);
    }
    check (fabs (sum / N - p.avg_us) <= 0.05 * p.avg_us, name,
           "mean seek over random cylinder pairs %.1f us, stated %.1f us",
           sum / N, p.avg_us);
  }

  /* Outer vs inner sequential rate: a whole cylinder in zone 0 and in
   * the last zone (or the last full cylinder): the ratio of sectors per
   * track, times that of the track switches' cost if the zones' skews
   * differ.
   */
  {
    struct hdd_chs c = { .cyl = g.cylinders - 2 };
    uint64_t inner_lba = hdd_chs_to_lba (&g, &c);
    struct hdd_chs ic;
    double to, ti, ratio, want, fo, fi;
    unsigned iz;

    hdd_lba_to_chs (&g, inner_lba, &ic);
    iz = ic.cyl / g.cyls_per_zone;
    to = hdd_transfer_us (&g, 0, (uint64_t) g.heads * g.spt[0]);
    ti = hdd_transfer_us (&g, inner_lba, (uint64_t) g.heads * ic.spt);
    ratio = ((double) g.spt[0] / to) / ((double) ic.spt / ti);
    fo = g.heads * g.rev_us + (g.heads - 1) *
      switch_cost (&g, g.head_switch_us, g.zone_track_skew_rev[0]);
    fi = g.heads * g.rev_us + (g.heads - 1) *
      switch_cost (&g, g.head_switch_us, g.zone_track_skew_rev[iz]);
    want = (double) g.spt[0] / ic.spt * fi / fo;
    check (fabs (ratio / want - 1) < 0.01, name,
           "outer/inner sequential rate %.4f, zone spt and switch ratio %.4f",
           ratio, want);
  }

  /* LBA <-> CHS round trip, and LBA order is cylinder order. */
  {
    int ok = 1;
    struct hdd_chs c, c2;
    for (i = 0; i < 100000 && ok; i++) {
      uint64_t lba = rnd (g.sectors - 1);
      hdd_lba_to_chs (&g, lba, &c);
      hdd_lba_to_chs (&g, lba + 1, &c2);
      if (hdd_chs_to_lba (&g, &c) != lba || c.sector >= c.spt ||
          c.head >= g.heads || c2.cyl < c.cyl || c2.cyl > c.cyl + 1)
        ok = 0;
    }
    check (ok, name, "LBA<->CHS round trip (%g, want %g)", ok, 1);
  }

  /* Random 4K reads at random times: rotational wait ~ half a turn. */
  {
    struct hdd_state s = { 0 };
    struct hdd_result r;
    double now = 0, sum = 0;
    const int N = 20000;
    for (i = 0; i < (uint64_t) N; i++) {
      now = s.busy_until + (double) rnd (100000);
      hdd_service (&g, &s, now, HDD_READ, rnd (g.sectors - 8), 8, 4096, 0,
                   &r);
      sum += r.rotation;
    }
    check (fabs (sum / N / (g.rev_us / 2) - 1) < 0.05, name,
           "mean rotational latency %.1f us, half a revolution %.1f us",
           sum / N, g.rev_us / 2);
  }

  test_seq_sizes (name, &g);
  test_skew_target (name, &g);
  test_zone_boundaries (name, &g);
  test_swapped_stream (name, &g);
  test_queue (name, &g);
}

int
main (int argc, char *argv[])
{
  char names[512], err[512], *tok, *save = NULL;
  uint64_t size = argc > 2 ? strtoull (argv[2], NULL, 0) : UINT64_C (64) << 30;

  if (argc < 2) {
    fprintf (stderr, "usage: %s PROFILES.conf [SIZE_BYTES]\n", argv[0]);
    return 2;
  }
  tap_init ("");
  srand48 (1);
  if (hdd_profile_names (argv[1], names, sizeof names, err, sizeof err) == -1) {
    fprintf (stderr, "%s\n", err);
    return 1;
  }
  for (tok = strtok_r (names, " ", &save); tok;
       tok = strtok_r (NULL, " ", &save))
    test_profile (argv[1], tok, size);
  return tap_exit ();
}
