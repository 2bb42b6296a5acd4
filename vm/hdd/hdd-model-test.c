/* Unit tests of the hdd model, without nbdkit.
 * Usage: hdd-model-test PROFILES.conf [SIZE_BYTES]
 * For every profile in the file: seek curve continuous and
 * non-decreasing, track-to-track and full stroke as configured, mean
 * seek over random cylinder pairs (Monte Carlo) within 5% of the stated
 * average, zone throughput ratio, LBA <-> CHS round trip, mean
 * rotational latency of random reads about half a revolution.
 * Exit 0 if all pass.
 */

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <inttypes.h>
#include <string.h>
#include <math.h>

#include "hdd-model.h"

static int failures;

static void
check (int ok, const char *profile, const char *fmt, double got,
       double want)
{
  printf ("# %s %s: ", ok ? "PASS" : "FAIL", profile);
  printf (fmt, got, want);
  printf ("\n");
  if (!ok) failures++;
}

static uint64_t
rnd (uint64_t n)                /* uniform in [0, n) */
{
  uint64_t r = ((uint64_t) mrand48 () << 32) ^ (uint32_t) mrand48 ();
  return r % n;
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
    printf ("# FAIL %s: %s\n", name, err);
    failures++;
    return;
  }
  D = g.seek.max_dist;
  if (D < 3) {
    printf ("# FAIL %s: test size too small (%" PRIu64 " cylinders)\n",
            name, g.cylinders);
    failures++;
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
   * the last zone (or the last full cylinder).
   */
  {
    struct hdd_chs c = { .cyl = g.cylinders - 2 };
    uint64_t inner_lba = hdd_chs_to_lba (&g, &c);
    struct hdd_chs ic;
    double to, ti, ratio, want;

    hdd_lba_to_chs (&g, inner_lba, &ic);
    to = hdd_transfer_us (&g, 0, (uint64_t) g.heads * g.spt[0]);
    ti = hdd_transfer_us (&g, inner_lba, (uint64_t) g.heads * ic.spt);
    ratio = ((double) g.spt[0] / to) / ((double) ic.spt / ti);
    want = (double) g.spt[0] / ic.spt;
    check (fabs (ratio / want - 1) < 0.01, name,
           "outer/inner sequential rate %.4f, zone spt ratio %.4f",
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
  srand48 (1);
  if (hdd_profile_names (argv[1], names, sizeof names, err, sizeof err) == -1) {
    fprintf (stderr, "%s\n", err);
    return 1;
  }
  for (tok = strtok_r (names, " ", &save); tok;
       tok = strtok_r (NULL, " ", &save))
    test_profile (argv[1], tok, size);
  printf ("# %d failure(s)\n", failures);
  return failures ? 1 : 0;
}
