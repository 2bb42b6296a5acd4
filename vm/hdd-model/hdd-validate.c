// SPDX-License-Identifier: GPL-2.0
/* hdd-validate: the disk model against published drives.
 * Usage: hdd-validate PROFILES.conf CSV MARKDOWN
 *
 * Measures, through the model's own API (hdd_service, hdd_seek_us,
 * hdd_transfer_us: the code the filter runs for every request, without
 * nbdkit, whose timing at time-scale=1 would take minutes and be noisy
 * on a loaded host), for two drives:
 *  - hp97560 against the Ruemmler-Wilkes formulas (seek at seven
 *    distances, mean random 4 KiB read, per-track rate): within 2%;
 *  - cheetah9lp (Seagate Cheetah 9LP ST39102LW, a drive nobody here
 *    tuned to) against DiskSim 4.0's validated DIXtrac extraction of it
 *    (zone table, skews, seek table): track-to-track, average and
 *    full-stroke seek, mean random 4 KiB read, outer and inner
 *    sequential rate within 5%.  Shown, not held to a tolerance: the
 *    seek at a third of the stroke (the model fits a two-piece curve
 *    through three figures, the table is measured).
 * Writes CSV (drive,metric,published,measured,error_pct,source) and a
 * markdown table with the tolerance of each row; exits 1, naming the
 * rows, if an error is above its tolerance.
 */

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <inttypes.h>
#include <string.h>
#include <math.h>

#include "hdd-model.h"

#define NSAMPLES 200000         /* random reads / seek pairs per figure */

struct row {
  const char *drive, *metric, *unit;
  double published, measured, tol_pct;  /* tol_pct < 0: shown only */
  const char *source;
};

static struct row rows[64];
static size_t nrows;

static void
add (const char *drive, const char *metric, const char *unit,
     double published, double measured, double tol_pct, const char *source)
{
  if (nrows == sizeof rows / sizeof rows[0]) abort ();
  rows[nrows++] = (struct row) { drive, metric, unit, published, measured,
                                 tol_pct, source };
}

static double
err_pct (const struct row *r)
{
  return 100. * (r->measured - r->published) / r->published;
}

/* splitmix64: the same numbers on every host, for a reproducible table. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t
rnd (uint64_t n)                /* uniform in [0, n) */
{
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return z % n;
}

static int
load (const char *file, const char *name, uint64_t bytes,
      struct hdd_geom *g)
{
  struct hdd_profile p;
  char err[512];

  if (hdd_profile_load (file, name, &p, err, sizeof err) == -1 ||
      hdd_geom_init (g, &p, bytes, err, sizeof err) == -1) {
    fprintf (stderr, "hdd-validate: %s\n", err);
    return -1;
  }
  return 0;
}

/* Mean service time (ms) of random 4 KiB-aligned 4 KiB reads at queue
 * depth 1, each arriving as the last one ends.
 */
static double
random_read_ms (const struct hdd_geom *g)
{
  struct hdd_state s = { 0 };
  struct hdd_result r;
  uint64_t blocks = g->sectors / 8, i;
  double sum = 0;

  for (i = 0; i < NSAMPLES; i++) {
    hdd_service (g, &s, s.busy_until, HDD_READ, rnd (blocks) * 8, 8, 0, 0,
                 &r);
    sum += r.end - r.start;
  }
  return sum / NSAMPLES / 1000;
}

/* Mean seek (ms) over random pairs of cylinders. */
static double
random_seek_ms (const struct hdd_geom *g)
{
  uint64_t C = g->cylinders, i;
  double sum = 0;

  for (i = 0; i < NSAMPLES; i++) {
    uint64_t a = rnd (C), b = rnd (C);
    sum += hdd_seek_us (g, a > b ? a - b : b - a);
  }
  return sum / NSAMPLES / 1000;
}

/* Sequential rate (MB/s) of 64 KiB reads from LBA, each arriving as the
 * last one ends, from the end of the first (which pays the seek and the
 * rotational wait) to the end of the last: BYTES in all.
 */
static double
seq_rate (const struct hdd_geom *g, uint64_t lba, uint64_t bytes)
{
  struct hdd_state s = { 0 };
  struct hdd_result r;
  uint64_t n = 65536 / HDD_SECTOR, i, count = bytes / 65536;
  double first_end = 0;

  for (i = 0; i < count; i++) {
    hdd_service (g, &s, s.busy_until, HDD_READ, lba + i * n, n,
                 2 * 1024 * 1024 / HDD_SECTOR, 0, &r);
    if (i == 0)
      first_end = r.end;
  }
  return (double) (count - 1) * 65536 / (r.end - first_end);
}

/* ---- HP 97560, Ruemmler & Wilkes 1994 ------------------------------- */

#define RW_SRC "Ruemmler & Wilkes 1994, IEEE Computer 27(3)"
#define HP_CYLS 1962
#define HP_HEADS 19
#define HP_SPT 72
#define HP_RPM 4002.

static double
hp_seek_ms (uint64_t d)
{
  if (d == 0) return 0;
  return d < 383 ? 3.24 + 0.400 * sqrt ((double) d) : 8.00 + 0.008 * d;
}

static int
validate_hp97560 (const char *file)
{
  static const uint64_t dist[] = { 1, 10, 100, 383, 384, 1000, 1961 };
  static char names[7][32];
  struct hdd_geom g;
  double rev_ms = 60e3 / HP_RPM, mean = 0, C = HP_CYLS;
  uint64_t d;
  size_t i;

  /* The drive's own capacity, so the model has its 1962 cylinders. */
  if (load (file, "hp97560", (uint64_t) HP_CYLS * HP_HEADS * HP_SPT *
            HDD_SECTOR, &g) == -1)
    return -1;
  if (g.cylinders != HP_CYLS) {
    fprintf (stderr, "hdd-validate: hp97560 has %" PRIu64 " cylinders "
             "at its own capacity, expected %d\n", g.cylinders, HP_CYLS);
    return -1;
  }
  for (i = 0; i < 7; i++) {
    snprintf (names[i], sizeof names[i], "seek_%" PRIu64 "_cyl", dist[i]);
    add ("hp97560", names[i], "ms", hp_seek_ms (dist[i]),
         hdd_seek_us (&g, dist[i]) / 1000, 2, RW_SRC ": seek formula");
  }
  /* Exact mean of the formula over independent uniform cylinders. */
  for (d = 1; d < HP_CYLS; d++)
    mean += 2. * (C - d) * hp_seek_ms (d) / (C * C);
  add ("hp97560", "random_4k_read", "ms",
       mean + rev_ms / 2 + rev_ms * 8 / HP_SPT, random_read_ms (&g), 2,
       RW_SRC ": mean seek + half a turn + 8/72 turn");
  add ("hp97560", "track_rate", "MB/s",
       HP_SPT * HDD_SECTOR / (rev_ms * 1000),
       HP_SPT * HDD_SECTOR / hdd_transfer_us (&g, 0, HP_SPT), 2,
       RW_SRC ": 72 sectors per 4002 rpm turn");
  return 0;
}

/* ---- Seagate Cheetah 9LP, DiskSim 4.0 valid/cheetah9LP.* ------------ */

#define DS_SRC "DiskSim 4.0 valid/cheetah9LP"
#define CH_CYLS 6962
#define CH_HEADS 12
#define CH_BLOCKS 17783240ULL
#define CH_RPM 10045.

/* valid/cheetah9LP.model: zones (first cylinder, blocks per track, skew
 * for track switch and for cylinder switch in sectors).
 */
static const struct { unsigned first, last, spt, tskew, cskew; } ch_zones[] = {
  { 0, 846, 254, 97, 133 }, { 848, 1643, 245, 97, 133 },
  { 1645, 2392, 238, 97, 117 }, { 2394, 3096, 227, 97, 116 },
  { 3098, 3757, 217, 97, 108 }, { 3759, 4379, 209, 97, 108 },
  { 4381, 4964, 201, 97, 108 }, { 4966, 5515, 189, 88, 94 },
  { 5516, 6031, 181, 88, 93 }, { 6032, 6517, 174, 88, 93 },
  { 6518, 6961, 167, 88, 80 },
};
#define CH_NZONES (sizeof ch_zones / sizeof ch_zones[0])

/* valid/cheetah9LP.seek: seek time (ms) over distance (cylinders). */
static const double ch_seek[][2] = {
  { 1, 0.831 }, { 2, 1.003 }, { 3, 1.089 }, { 4, 1.092 }, { 5, 1.268 },
  { 6, 1.263 }, { 7, 1.271 }, { 8, 1.439 }, { 9, 1.433 }, { 10, 1.448 },
  { 12, 1.449 }, { 14, 1.447 }, { 16, 1.453 }, { 18, 1.533 },
  { 20, 1.534 }, { 25, 1.625 }, { 30, 1.624 }, { 35, 1.712 },
  { 40, 1.715 }, { 45, 1.765 }, { 50, 1.804 }, { 60, 1.893 },
  { 70, 1.945 }, { 80, 1.983 }, { 90, 2.072 }, { 100, 2.145 },
  { 125, 2.161 }, { 150, 2.259 }, { 175, 2.510 }, { 200, 2.517 },
  { 225, 2.519 }, { 250, 2.607 }, { 275, 2.701 }, { 300, 2.699 },
  { 325, 2.841 }, { 350, 2.874 }, { 375, 2.962 }, { 400, 3.051 },
  { 425, 3.014 }, { 450, 3.104 }, { 475, 3.098 }, { 500, 3.230 },
  { 600, 3.399 }, { 700, 3.638 }, { 800, 3.823 }, { 900, 3.995 },
  { 1000, 4.118 }, { 1100, 4.271 }, { 1200, 4.397 }, { 1300, 4.427 },
  { 1400, 4.573 }, { 1500, 4.757 }, { 1600, 4.833 }, { 1700, 4.930 },
  { 1800, 4.993 }, { 1900, 5.190 }, { 2000, 5.282 }, { 2100, 5.428 },
  { 2200, 5.541 }, { 2300, 5.624 }, { 2400, 5.726 }, { 2500, 5.815 },
  { 2600, 5.963 }, { 2700, 6.082 }, { 2800, 6.163 }, { 2900, 6.245 },
  { 3000, 6.345 }, { 3100, 6.423 }, { 3200, 6.665 }, { 3300, 6.737 },
  { 3400, 6.847 }, { 3500, 6.887 }, { 3600, 6.977 }, { 3700, 7.068 },
  { 3800, 7.164 }, { 3900, 7.328 }, { 4000, 7.419 }, { 4100, 7.507 },
  { 4200, 7.649 }, { 4300, 7.691 }, { 4400, 7.831 }, { 4500, 7.959 },
  { 4600, 8.087 }, { 4700, 8.135 }, { 4800, 8.223 }, { 4900, 8.311 },
  { 5000, 8.492 }, { 5100, 8.626 }, { 5200, 8.659 }, { 5300, 8.805 },
  { 5400, 8.987 }, { 5500, 8.962 }, { 5600, 9.106 }, { 5700, 9.201 },
  { 5800, 9.296 }, { 5900, 9.524 }, { 6000, 9.698 }, { 6100, 9.702 },
  { 6200, 9.830 }, { 6300, 9.878 }, { 6400, 10.009 }, { 6500, 10.147 },
  { 6600, 10.230 }, { 6700, 10.363 }, { 6800, 10.540 }, { 6894, 10.627 },
};
#define CH_NSEEK (sizeof ch_seek / sizeof ch_seek[0])

/* The table, linear between its points; past its last point (6894, the
 * longest seek measured) along its last segment.
 */
static double
ch_seek_ms (double d)
{
  size_t i;

  if (d <= 0) return 0;
  for (i = 1; i < CH_NSEEK - 1 && ch_seek[i][0] < d; i++)
    ;
  return ch_seek[i - 1][1] + (ch_seek[i][1] - ch_seek[i - 1][1]) *
    (d - ch_seek[i - 1][0]) / (ch_seek[i][0] - ch_seek[i - 1][0]);
}

static unsigned
ch_zone (unsigned cyl)
{
  unsigned z = 0;

  while (z + 1 < CH_NZONES && ch_zones[z + 1].first <= cyl) z++;
  return z;
}

/* Sustained rate (MB/s) of zone Z from its layout, as datasheets derive
 * it: a cylinder's sectors over its turns, its track switches and its
 * cylinder switch, each switch costing its skew.
 */
static double
ch_zone_rate (unsigned z)
{
  double sector_us = 60e6 / CH_RPM / ch_zones[z].spt;
  double n = (double) CH_HEADS * ch_zones[z].spt;

  return n * HDD_SECTOR / (sector_us * (n + (CH_HEADS - 1) *
                                        ch_zones[z].tskew +
                                        ch_zones[z].cskew));
}

static int
validate_cheetah9lp (const char *file)
{
  static double seek_tab[CH_CYLS];
  static double w[CH_CYLS];     /* share of the LBAs on each cylinder */
  struct hdd_geom g;
  double rev_ms = 60e3 / CH_RPM, C = CH_CYLS, mean = 0, lba_seek = 0;
  double xfer = 0, total = 0, third;
  unsigned c, c2, d;

  if (load (file, "cheetah9lp", CH_BLOCKS * HDD_SECTOR, &g) == -1)
    return -1;

  for (d = 0; d < CH_CYLS; d++)
    seek_tab[d] = ch_seek_ms (d);
  for (d = 1; d < CH_CYLS; d++)
    mean += 2. * (C - d) * seek_tab[d] / (C * C);
  for (c = 0; c < CH_CYLS; c++) {
    unsigned z = ch_zone (c);
    /* the cylinders between two zones hold no LBA (spares) */
    w[c] = c <= ch_zones[z].last ? CH_HEADS * ch_zones[z].spt : 0;
    total += w[c];
  }
  for (c = 0; c < CH_CYLS; c++) {
    w[c] /= total;
    xfer += w[c] * 8. / ch_zones[ch_zone (c)].spt * rev_ms;
  }
  for (c = 0; c < CH_CYLS; c++)
    for (c2 = 0; c2 < CH_CYLS; c2++)
      lba_seek += w[c] * w[c2] * seek_tab[c > c2 ? c - c2 : c2 - c];

  add ("cheetah9lp", "track_to_track_seek", "ms", ch_seek[0][1],
       hdd_seek_us (&g, 1) / 1000, 5, DS_SRC ".seek: 1 cylinder");
  add ("cheetah9lp", "average_seek", "ms", mean, random_seek_ms (&g), 5,
       DS_SRC ".seek: mean over uniform cylinder pairs");
  add ("cheetah9lp", "full_stroke_seek", "ms", ch_seek[CH_NSEEK - 1][1],
       hdd_seek_us (&g, g.seek.max_dist) / 1000, 5,
       DS_SRC ".model: full strobe seek time");
  third = ch_seek_ms ((C - 1) / 3);
  add ("cheetah9lp", "seek_third_stroke", "ms", third,
       hdd_seek_us (&g, (uint64_t) llround ((g.cylinders - 1) / 3.)) / 1000,
       -1, DS_SRC ".seek: at (cylinders-1)/3");
  add ("cheetah9lp", "random_4k_read", "ms",
       lba_seek + rev_ms / 2 + xfer, random_read_ms (&g), 5,
       DS_SRC ".model+.seek: mean seek over random LBA pairs + half a "
       "turn + 8 sectors");
  add ("cheetah9lp", "outer_seq_rate", "MB/s", ch_zone_rate (0),
       seq_rate (&g, 0, 32 << 20), 5,
       DS_SRC ".model: zone 0, 254 spt, skews 97/133 sectors");
  add ("cheetah9lp", "inner_seq_rate", "MB/s",
       ch_zone_rate (CH_NZONES - 1),
       seq_rate (&g, g.zone_lba[g.nzones - 1], 32 << 20), 5,
       DS_SRC ".model: zone 10, 167 spt, skews 88/80 sectors");
  fprintf (stderr, "cheetah9lp: model %" PRIu64 " cylinders (drive %d), "
           "mean of the seek table over uniform pairs %.4f ms\n",
           g.cylinders, CH_CYLS, mean);
  return 0;
}

int
main (int argc, char *argv[])
{
  FILE *csv, *md;
  size_t i;
  int bad = 0;

  if (argc != 4) {
    fprintf (stderr, "usage: %s PROFILES.conf OUT.csv OUT.md\n", argv[0]);
    return 2;
  }
  if (validate_hp97560 (argv[1]) == -1 || validate_cheetah9lp (argv[1]) == -1)
    return 1;
  if ((csv = fopen (argv[2], "w")) == NULL) { perror (argv[2]); return 1; }
  if ((md = fopen (argv[3], "w")) == NULL) { perror (argv[3]); return 1; }
  fprintf (csv, "drive,metric,published,measured,error_pct,source\n");
  fprintf (md, "| drive | metric | unit | published | measured | error %% "
           "| tolerance | source |\n|---|---|---|---:|---:|---:|---:|---|\n");
  for (i = 0; i < nrows; i++) {
    const struct row *r = &rows[i];
    double e = err_pct (r);
    char tol[32];

    fprintf (csv, "%s,%s_%s,%.4f,%.4f,%.3f,%s\n", r->drive, r->metric,
             strcmp (r->unit, "MB/s") == 0 ? "MBps" : r->unit,
             r->published, r->measured, e, r->source);
    if (r->tol_pct < 0)
      snprintf (tol, sizeof tol, "shown");
    else
      snprintf (tol, sizeof tol, "%g%%", r->tol_pct);
    fprintf (md, "| %s | %s | %s | %.3f | %.3f | %+.2f | %s | %s |\n",
             r->drive, r->metric, r->unit, r->published, r->measured, e,
             tol, r->source);
    if (r->tol_pct >= 0 && fabs (e) > r->tol_pct) {
      fprintf (stderr, "hdd-validate: %s %s: measured %.4f %s, published "
               "%.4f: error %+.2f%% above the %g%% tolerance\n", r->drive,
               r->metric, r->measured, r->unit, r->published, e, r->tol_pct);
      bad = 1;
    }
  }
  if (fclose (csv) != 0 || fclose (md) != 0) {
    perror ("hdd-validate: writing the tables");
    return 1;
  }
  return bad;
}
