// SPDX-License-Identifier: GPL-2.0
/* nbdkit-hdd-filter: mechanical model of a spinning drive.
 * See hdd-model.h and nbdkit-hdd-filter.pod for the model.
 */

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <stddef.h>

#include "hdd-model.h"

/* ---- profiles.conf ---------------------------------------------------- */

static char *
trim_space (char *s)
{
  char *e;

  while (isspace ((unsigned char) *s)) s++;
  e = s + strlen (s);
  while (e > s && isspace ((unsigned char) e[-1])) e--;
  *e = '\0';
  return s;
}

static int
parse_double (const char *v, double *r)
{
  char *end;

  errno = 0;
  *r = strtod (v, &end);
  return errno || end == v || *trim_space (end) != '\0' || !isfinite (*r)
    ? -1 : 0;
}

/* Every profile key, with the range a real drive's figure falls in.
 * The ranges come from the published drives in drive-facts.md and the
 * HP 97560 (3600 rpm drives of the 1990s to 15000 rpm enterprise
 * drives, head switch about 1-2 ms, seeks up to about 20 ms full
 * stroke), with headroom; a value outside is a typo or a wrong unit.
 */
enum key_kind { KEY_NUMBER, KEY_COUNT, KEY_COUNT64, KEY_MS, KEY_SEEK_RW };

struct profile_key {
  const char *name;
  enum key_kind kind;
  double min, max;
  const char *unit;
  size_t offset;                /* into struct hdd_profile */
};

#define OFF(field) offsetof (struct hdd_profile, field)
static const struct profile_key profile_keys[] = {
  { "rpm",               KEY_NUMBER, 3600, 20000, "rpm", OFF (rpm) },
  { "heads",             KEY_COUNT,  1, 64, "surfaces", OFF (heads) },
  { "zones",             KEY_COUNT,  1, HDD_MAX_ZONES, "zones", OFF (zones) },
  { "spt-outer",         KEY_COUNT,  16, 10000, "sectors", OFF (spt_outer) },
  { "spt-inner",         KEY_COUNT,  16, 10000, "sectors", OFF (spt_inner) },
  { "cylinders",         KEY_COUNT64, 100, 2000000, "cylinders",
    OFF (nominal_cyls) },
  { "track-to-track-ms", KEY_MS,     0.05, 5, "ms", OFF (t2t_us) },
  { "average-seek-ms",   KEY_MS,     1, 30, "ms", OFF (avg_us) },
  { "full-stroke-ms",    KEY_MS,     2, 50, "ms", OFF (full_us) },
  { "head-switch-ms",    KEY_MS,     0, 5, "ms", OFF (head_switch_us) },
  { "track-skew-ms",     KEY_MS,     0, 10, "ms", OFF (track_skew_us) },
  { "cylinder-skew-ms",  KEY_MS,     0, 10, "ms", OFF (cyl_skew_us) },
  { "track-skew-inner-ms", KEY_MS,   0, 10, "ms", OFF (track_skew_inner_us) },
  { "cylinder-skew-inner-ms", KEY_MS, 0, 10, "ms", OFF (cyl_skew_inner_us) },
  { "write-settle-ms",   KEY_MS,     0, 5, "ms", OFF (write_settle_us) },
  { "seek-rw",           KEY_SEEK_RW, 0, 0, "", OFF (rw) },
};
#undef OFF
#define NR_PROFILE_KEYS (sizeof profile_keys / sizeof profile_keys[0])

/* seek-rw's six fields: boundary a b c e t1 (t1 may also be -1). */
static const struct {
  const char *name;
  double min, max;
  const char *unit;
} rw_fields[6] = {
  { "boundary", 1, 2000000, "cylinders" },
  { "a", 0, 30, "ms" },
  { "b", 0, 10, "ms" },
  { "c", 0, 50, "ms" },
  { "e", 0, 1, "ms per cylinder" },
  { "t1", 0, 10, "ms, or -1 for the formula" },
};

/* All key names, for the message about an unknown key. */
static void
known_keys (char *buf, size_t len)
{
  size_t i, used = 0;

  buf[0] = '\0';
  for (i = 0; i < NR_PROFILE_KEYS && used < len; i++)
    used += snprintf (buf + used, len - used, "%s%s", i ? ", " : "",
                      profile_keys[i].name);
}

/* Parse "key = value" for one profile; returns -1 with ERR set. */
static int
profile_set (struct hdd_profile *p, const char *key, char *val,
             char *err, size_t errlen)
{
  const struct profile_key *k = NULL;
  char *field = (char *) p;
  double d = 0;
  size_t i;

  for (i = 0; i < NR_PROFILE_KEYS; i++)
    if (strcmp (key, profile_keys[i].name) == 0)
      k = &profile_keys[i];
  if (k == NULL) {
    char keys[512];

    known_keys (keys, sizeof keys);
    snprintf (err, errlen, "unknown key '%s' (known keys: %s)", key, keys);
    return -1;
  }
  field += k->offset;

  switch (k->kind) {
  case KEY_SEEK_RW: {
    char *tok, *save = NULL, copy[256];
    double rw[6];

    snprintf (copy, sizeof copy, "%s", val);
    i = 0;
    for (tok = strtok_r (copy, " \t,", &save); tok;
         tok = strtok_r (NULL, " \t,", &save)) {
      if (i == 6 || parse_double (tok, &rw[i]) == -1)
        goto bad_rw;
      i++;
    }
    if (i != 6)
      goto bad_rw;
    for (i = 0; i < 6; i++) {
      if (i == 5 && rw[i] == -1)
        continue;
      if (rw[i] < rw_fields[i].min || rw[i] > rw_fields[i].max) {
        snprintf (err, errlen, "'seek-rw' = %s: %s = %g is out of range: "
                  "expected %.15g to %.15g %s", val, rw_fields[i].name, rw[i],
                  rw_fields[i].min, rw_fields[i].max, rw_fields[i].unit);
        return -1;
      }
    }
    memcpy (p->rw, rw, sizeof rw);
    p->have_rw = 1;
    return 0;
  bad_rw:
    snprintf (err, errlen, "'seek-rw' = %s: expected six numbers: "
              "boundary a b c e t1", val);
    return -1;
  }

  case KEY_NUMBER:
  case KEY_MS:
    if (parse_double (val, &d) == -1) {
      snprintf (err, errlen, "'%s' = %s: expected a number from %.15g "
                "to %.15g %s", key, val, k->min, k->max, k->unit);
      return -1;
    }
    break;

  case KEY_COUNT:
  case KEY_COUNT64:
    if (parse_double (val, &d) == -1 || d != floor (d)) {
      snprintf (err, errlen, "'%s' = %s: expected a whole number from "
                "%.15g to %.15g %s", key, val, k->min, k->max, k->unit);
      return -1;
    }
    break;
  }
  if (d < k->min || d > k->max) {
    snprintf (err, errlen, "'%s' = %s is out of range: expected %.15g "
              "to %.15g %s", key, val, k->min, k->max, k->unit);
    return -1;
  }

  switch (k->kind) {
  case KEY_NUMBER: *(double *) field = d; break;
  case KEY_MS:
    *(double *) field = d * 1000.;
    if (strcmp (key, "track-skew-ms") == 0) p->have_track_skew = 1;
    if (strcmp (key, "cylinder-skew-ms") == 0) p->have_cyl_skew = 1;
    if (strcmp (key, "track-skew-inner-ms") == 0)
      p->have_track_skew_inner = 1;
    if (strcmp (key, "cylinder-skew-inner-ms") == 0)
      p->have_cyl_skew_inner = 1;
    break;
  case KEY_COUNT: *(unsigned *) field = (unsigned) d; break;
  case KEY_COUNT64: *(uint64_t *) field = (uint64_t) d; break;
  case KEY_SEEK_RW: abort ();
  }
  return 0;
}

/* Walk FILE; for each section call back with the section name and each
 * key/value.  Errors are reported as FILE:LINE: message.
 */
static int
profile_scan (const char *file, const char *want, struct hdd_profile *p,
              int *found, char *names, size_t nameslen,
              char *err, size_t errlen)
{
  FILE *fp;
  char line[1024], cur[64] = "", msg[768];
  int lineno = 0, r = 0;
  struct hdd_profile scratch;

  fp = fopen (file, "r");
  if (fp == NULL) {
    snprintf (err, errlen, "profiles=%s: %s", file, strerror (errno));
    return -1;
  }
  if (names && nameslen) names[0] = '\0';
  *found = 0;
  while (fgets (line, sizeof line, fp)) {
    char *s, *hash, *eq;

    lineno++;
    hash = strchr (line, '#');
    if (hash) *hash = '\0';
    s = trim_space (line);
    if (*s == '\0')
      continue;
    if (*s == '[') {
      char *close = strchr (s, ']');
      if (close == NULL || close[1] != '\0' || close - s - 1 < 1 ||
          (size_t) (close - s - 1) >= sizeof cur) {
        snprintf (err, errlen, "%s:%d: bad section header", file, lineno);
        r = -1;
        break;
      }
      *close = '\0';
      snprintf (cur, sizeof cur, "%s", s + 1);
      if (names && strlen (names) + strlen (cur) + 2 < nameslen) {
        if (names[0]) strcat (names, " ");
        strcat (names, cur);
      }
      if (want && strcmp (cur, want) == 0) {
        *found = 1;
        memset (p, 0, sizeof *p);
        snprintf (p->name, sizeof p->name, "%s", cur);
      }
      else
        memset (&scratch, 0, sizeof scratch);
      continue;
    }
    eq = strchr (s, '=');
    if (eq == NULL || cur[0] == '\0') {
      snprintf (err, errlen, "%s:%d: expected 'key = value' inside a "
                "[profile] section", file, lineno);
      r = -1;
      break;
    }
    *eq = '\0';
    if (profile_set (want && strcmp (cur, want) == 0 ? p : &scratch,
                     trim_space (s), trim_space (eq + 1),
                     msg, sizeof msg) == -1) {
      snprintf (err, errlen, "%s:%d: [%s] %s", file, lineno, cur, msg);
      r = -1;
      break;
    }
  }
  fclose (fp);
  return r;
}

int
hdd_profile_names (const char *file, char *names, size_t len,
                   char *err, size_t errlen)
{
  int found;
  struct hdd_profile p;

  return profile_scan (file, NULL, &p, &found, names, len, err, errlen);
}

int
hdd_profile_load (const char *file, const char *name, struct hdd_profile *p,
                  char *err, size_t errlen)
{
  int found;
  char names[512];

  if (profile_scan (file, name, p, &found, names, sizeof names,
                    err, errlen) == -1)
    return -1;
  if (!found) {
    snprintf (err, errlen, "profile=%s: no such profile in %s "
              "(it has: %s)", name, file, names);
    return -1;
  }
#define NEED(cond, what)                                                \
  if (!(cond)) {                                                        \
    snprintf (err, errlen, "profile=%s in %s: %s", name, file, what);   \
    return -1;                                                          \
  }
  NEED (p->rpm > 0, "missing rpm");
  NEED (p->heads > 0, "missing heads");
  NEED (p->zones > 0 && p->zones <= HDD_MAX_ZONES,
        "zones missing or above 256");
  NEED (p->spt_outer > 0 && p->spt_inner > 0, "missing spt-outer/spt-inner");
  NEED (p->spt_outer >= p->spt_inner,
        "spt-outer must be >= spt-inner (zones slow down inwards)");
  NEED (p->track_skew_us < 60e6 / p->rpm,
        "track-skew-ms must be less than one revolution");
  NEED (p->cyl_skew_us < 60e6 / p->rpm,
        "cylinder-skew-ms must be less than one revolution");
  NEED (p->track_skew_inner_us < 60e6 / p->rpm,
        "track-skew-inner-ms must be less than one revolution");
  NEED (p->cyl_skew_inner_us < 60e6 / p->rpm,
        "cylinder-skew-inner-ms must be less than one revolution");
  if (p->have_rw) {
    NEED (p->nominal_cyls >= 2, "seek-rw needs cylinders = N (its units)");
    NEED (p->rw[0] <= (double) p->nominal_cyls,
          "seek-rw boundary must not exceed cylinders");
    NEED (p->rw[3] + p->rw[4] * (double) (p->nominal_cyls - 1) <= 50,
          "seek-rw: the full-stroke seek c + e*(cylinders-1) is above "
          "50 ms (a real drive's is at most about 25 ms)");
    NEED (p->rw[2] >= 0 && p->rw[4] >= 0,
          "seek-rw b and e must be >= 0 (non-decreasing curve)");
    /* Continuity at the boundary, allowing the rounding of published
     * parameter sets (Ruemmler-Wilkes' HP 97560 is off by 0.004 ms).
     */
    NEED (fabs ((p->rw[1] + p->rw[2] * sqrt (p->rw[0])) -
                (p->rw[3] + p->rw[4] * p->rw[0])) <=
          0.01 * (p->rw[3] + p->rw[4] * p->rw[0]) + 1e-9,
          "seek-rw: a+b*sqrt(boundary) and c+e*boundary differ by more "
          "than 1%: the curve must be continuous");
    NEED (p->rw[5] < 0 || p->rw[5] <= p->rw[1] + p->rw[2] * sqrt (2.),
          "seek-rw: single-cylinder time above the 2-cylinder seek");
    NEED (p->t2t_us == 0 && p->avg_us == 0 && p->full_us == 0,
          "give either seek-rw or the *-ms seek figures, not both");
  }
  else {
    NEED (p->t2t_us > 0 && p->avg_us > 0 && p->full_us > 0,
          "needs track-to-track-ms, average-seek-ms and full-stroke-ms "
          "(or seek-rw and cylinders)");
    NEED (p->t2t_us < p->avg_us && p->avg_us < p->full_us,
          "needs track-to-track-ms < average-seek-ms < full-stroke-ms");
  }
#undef NEED
  return 0;
}

/* ---- seek curve ------------------------------------------------------- */

static double
seek_eval (const struct hdd_seek *s, uint64_t d)
{
  double x;

  if (d == 0)
    return 0;
  if (d == 1 && s->t1 >= 0)
    return s->t1;
  x = 1 + (double) (d - 1) * s->xscale;
  if (x < s->boundary)
    return s->a + s->b * sqrt (x);
  /* Published parameter sets are rounded (HP 97560's long-seek line
   * starts 4 us below its short-seek curve): never seek faster than at
   * the boundary, so the curve stays non-decreasing.
   */
  return fmax (s->c + s->e * x, s->a + s->b * sqrt (s->boundary));
}

static double
seek_mean (const struct hdd_seek *s)
{
  /* Independent uniform cylinders i, j over C = D+1 cylinders:
   * P(|i-j| = d) = 2 (C-d) / C^2 for d >= 1.
   */
  double C = (double) s->max_dist + 1, sum = 0;
  uint64_t d;

  for (d = 1; d <= s->max_dist; d++)
    sum += 2. * (C - (double) d) * seek_eval (s, d);
  return sum / (C * C);
}

/* Fit a + b sqrt(x) below the boundary B and c + e x above to the
 * datasheet: f(1) = t2t, f(D) = full, value and slope continuous at B,
 * mean over random pairs = avg.  For a fixed B the first four give
 *   b = (full - t2t) / (sqrt(B)/2 + D/(2 sqrt(B)) - 1),
 *   a = t2t - b, e = b / (2 sqrt(B)), c = a + b sqrt(B) / 2;
 * the mean rises with B from the straight line (B = 1) to the pure
 * square root (B = D), so bisect B for the average.
 */
static void
seek_from_boundary (struct hdd_seek *s, double t2t, double full, double B)
{
  double D = (double) s->max_dist, rB = sqrt (B);

  s->boundary = B;
  s->b = (full - t2t) / (rB / 2 + D / (2 * rB) - 1);
  s->a = t2t - s->b;
  s->e = s->b / (2 * rB);
  s->c = s->a + s->b * rB / 2;
}

static int
seek_fit (struct hdd_seek *s, const struct hdd_profile *p,
          char *err, size_t errlen)
{
  double lo = 1, hi = (double) s->max_dist, mlo, mhi;
  int i;

  s->t1 = -1;
  s->xscale = 1;
  if (s->max_dist < 3) {
    /* Too few cylinders to fit a curve (a disk of a few MB): a straight
     * line from track-to-track to full stroke.
     */
    s->boundary = 1;
    s->a = p->t2t_us;
    s->b = 0;
    s->e = s->max_dist > 1 ? (p->full_us - p->t2t_us) / (s->max_dist - 1) : 0;
    s->c = p->t2t_us - s->e;
    return 0;
  }
  seek_from_boundary (s, p->t2t_us, p->full_us, lo);
  mlo = seek_mean (s);
  seek_from_boundary (s, p->t2t_us, p->full_us, hi);
  mhi = seek_mean (s);
  if (p->avg_us < mlo || p->avg_us > mhi) {
    snprintf (err, errlen, "average-seek-ms=%g cannot be fitted "
              "with track-to-track-ms=%g and full-stroke-ms=%g over %" PRIu64
              " cylinders: it must lie in [%.3f, %.3f] ms",
              p->avg_us / 1000, p->t2t_us / 1000,
              p->full_us / 1000, s->max_dist + 1, mlo / 1000, mhi / 1000);
    return -1;
  }
  for (i = 0; i < 60; i++) {
    double mid = (lo + hi) / 2;
    seek_from_boundary (s, p->t2t_us, p->full_us, mid);
    if (seek_mean (s) < p->avg_us) lo = mid; else hi = mid;
  }
  seek_from_boundary (s, p->t2t_us, p->full_us, (lo + hi) / 2);
  return 0;
}

double
hdd_seek_us (const struct hdd_geom *g, uint64_t d)
{
  return seek_eval (&g->seek, d);
}

double
hdd_mean_seek_us (const struct hdd_geom *g)
{
  return seek_mean (&g->seek);
}

/* ---- geometry --------------------------------------------------------- */

/* Each zone's skews, once the seek curve is known (the default
 * cylinder skew is the single-cylinder seek), falling linearly from
 * zone 0's to the last zone's as sectors per track do, and the angle at
 * which each zone's first track begins: the track after the last one
 * of zone z-1 is skewed by zone z's cylinder skew.  R is the seek
 * curve's status, passed on.
 */
static int
geom_skew (struct hdd_geom *g, const struct hdd_profile *p, int r)
{
  double ts0, ts1, cs0, cs1;
  unsigned z, H = g->heads;

  if (r != 0)
    return r;
  ts0 = p->have_track_skew ? p->track_skew_us : p->head_switch_us;
  cs0 = p->have_cyl_skew ? p->cyl_skew_us :
    fmod (hdd_seek_us (g, 1), g->rev_us);
  ts1 = p->have_track_skew_inner ? p->track_skew_inner_us : ts0;
  cs1 = p->have_cyl_skew_inner ? p->cyl_skew_inner_us : cs0;
  for (z = 0; z < g->nzones; z++) {
    double f = g->nzones == 1 ? 0 : (double) z / (g->nzones - 1);

    g->zone_track_skew_rev[z] = (ts0 + (ts1 - ts0) * f) / g->rev_us;
    g->zone_cyl_skew_rev[z] = (cs0 + (cs1 - cs0) * f) / g->rev_us;
    g->zone_angle[z] = z == 0 ? 0 :
      fmod (g->zone_angle[z - 1] + (double) (g->cyls_per_zone - 1) *
            (g->zone_cyl_skew_rev[z - 1] +
             (H - 1) * g->zone_track_skew_rev[z - 1]) +
            (H - 1) * g->zone_track_skew_rev[z - 1] +
            g->zone_cyl_skew_rev[z], 1);
  }
  g->track_skew_rev = g->zone_track_skew_rev[0];
  g->cyl_skew_rev = g->zone_cyl_skew_rev[0];
  return 0;
}

int
hdd_geom_init (struct hdd_geom *g, const struct hdd_profile *p,
               uint64_t size_bytes, char *err, size_t errlen)
{
  uint64_t per_cyl_all = 0, lba = 0;
  unsigned z;
  struct hdd_chs last;

  memset (g, 0, sizeof *g);
  g->sectors = (size_bytes + HDD_SECTOR - 1) / HDD_SECTOR;
  if (g->sectors == 0) {
    snprintf (err, errlen, "the plugin's size is 0: nothing to model");
    return -1;
  }
  g->heads = p->heads;
  g->nzones = p->zones;
  g->rev_us = 60e6 / p->rpm;
  g->head_switch_us = p->head_switch_us;
  g->write_settle_us = p->write_settle_us;
  /* Without skew keys, a profile means what head-switch-ms alone always
   * meant: the next track is skewed by the head switch time and the
   * next cylinder by the single-cylinder seek, so that its first sector
   * arrives just as the head is ready (geom_skew).
   */

  /* Zone z's sectors per track fall linearly from spt-outer to spt-inner.
   * All zones span the same number of cylinders (equal radial width),
   * chosen as the fewest that hold the capacity: this scales the
   * drive's cylinder count to the plugin's size while keeping its zone
   * shape, so outer/inner throughput keeps the profile's ratio.
   */
  for (z = 0; z < g->nzones; z++) {
    g->spt[z] = g->nzones == 1 ? p->spt_outer :
      (unsigned) lround (p->spt_outer -
                         (double) (p->spt_outer - p->spt_inner) * z /
                         (g->nzones - 1));
    per_cyl_all += (uint64_t) g->spt[z] * g->heads;
  }
  g->cyls_per_zone = (g->sectors + per_cyl_all - 1) / per_cyl_all;
  for (z = 0; z < g->nzones; z++) {
    g->zone_lba[z] = lba;
    lba += g->cyls_per_zone * g->heads * g->spt[z];
  }
  g->zone_lba[g->nzones] = lba;

  hdd_lba_to_chs (g, g->sectors - 1, &last);
  g->cylinders = last.cyl + 1;
  g->seek.max_dist = g->cylinders - 1;

  if (p->have_rw) {
    int r = 0;

    g->seek.boundary = p->rw[0];
    g->seek.a = p->rw[1] * 1000;
    g->seek.b = p->rw[2] * 1000;
    g->seek.c = p->rw[3] * 1000;
    g->seek.e = p->rw[4] * 1000;
    g->seek.t1 = p->rw[5] < 0 ? -1 : p->rw[5] * 1000;
    /* The parameters are in the nominal drive's cylinders: map
     * 1..cylinders-1 linearly onto 1..nominal-1 so that track-to-track
     * and full stroke keep their meaning.
     */
    g->seek.xscale = g->seek.max_dist > 1 ?
      (double) (p->nominal_cyls - 2) / (double) (g->seek.max_dist - 1) : 1;
    return geom_skew (g, p, r);
  }
  return geom_skew (g, p, seek_fit (&g->seek, p, err, errlen));
}

void
hdd_lba_to_chs (const struct hdd_geom *g, uint64_t lba, struct hdd_chs *c)
{
  unsigned lo = 0, hi = g->nzones - 1, z;
  uint64_t off, track;

  while (lo < hi) {             /* last zone whose first LBA <= lba */
    unsigned mid = (lo + hi + 1) / 2;
    if (g->zone_lba[mid] <= lba) lo = mid; else hi = mid - 1;
  }
  z = lo;
  off = lba - g->zone_lba[z];
  track = off / g->spt[z];
  c->spt = g->spt[z];
  c->sector = off % g->spt[z];
  c->head = track % g->heads;
  c->cyl = (uint64_t) z * g->cyls_per_zone + track / g->heads;
}

uint64_t
hdd_chs_to_lba (const struct hdd_geom *g, const struct hdd_chs *c)
{
  unsigned z = c->cyl / g->cyls_per_zone;
  uint64_t cz = c->cyl % g->cyls_per_zone;

  return g->zone_lba[z] + (cz * g->heads + c->head) * g->spt[z] + c->sector;
}

/* Where sector C sits on its platter, as a fraction of a turn from the
 * spindle's index: sector s of track t at (s + skew(t)) / spt, each
 * track skewed by its zone's track skew from the one before it on the
 * same cylinder, and each cylinder's first track by its zone's cylinder
 * skew from the last track of the cylinder before.
 */
static double
sector_angle (const struct hdd_geom *g, const struct hdd_chs *c)
{
  unsigned z = c->cyl / g->cyls_per_zone;
  double skew;

  if (z >= g->nzones) z = g->nzones - 1;
  skew = g->zone_angle[z] + (double) (c->cyl - z * g->cyls_per_zone) *
    (g->zone_cyl_skew_rev[z] + (g->heads - 1) * g->zone_track_skew_rev[z]) +
    c->head * g->zone_track_skew_rev[z];

  return fmod ((double) c->sector / c->spt + skew, 1);
}

/* How long from model time T until the angle A (fraction of a turn)
 * passes under the head.  The spindle turns from model time 0.  Being
 * a millionth of a turn late is rounding (the head arrives exactly as
 * the sector does, as in a stream or a switch matched by its skew), not
 * a missed sector.
 */
static double
rotation_wait (const struct hdd_geom *g, double t, double a)
{
  double w = a - fmod (t, g->rev_us) / g->rev_us;

  w -= floor (w);               /* [0, 1) */
  if (w > 1 - 1e-6)             /* a hair late: rounding, on time */
    w = 0;
  return w * g->rev_us;
}

static int
same_track (const struct hdd_chs *a, const struct hdd_chs *b)
{
  return a->cyl == b->cyl && a->head == b->head;
}

/* The media time of N sectors from LBA, the head on LBA's track and
 * ready at model time T: the rotational wait for LBA (into *WAIT), then
 * each track's share of a revolution; moving on to the next track costs
 * a head switch (next surface) or a single-cylinder seek (next
 * cylinder), then the wait until its skewed first sector comes round.
 */
static double
media_us (const struct hdd_geom *g, double t, uint64_t lba, uint64_t n,
          double *wait)
{
  struct hdd_chs c, next;
  double t0;

  hdd_lba_to_chs (g, lba, &c);
  *wait = rotation_wait (g, t, sector_angle (g, &c));
  t0 = t += *wait;
  while (n > 0) {
    uint64_t m = c.spt - c.sector;

    if (m > n) m = n;
    t += g->rev_us * (double) m / c.spt;
    n -= m;
    lba += m;
    if (n == 0)
      break;
    hdd_lba_to_chs (g, lba, &next);
    t += next.cyl == c.cyl ? g->head_switch_us : hdd_seek_us (g, 1);
    t += rotation_wait (g, t, sector_angle (g, &next));
    c = next;
  }
  return t - t0;
}

/* Media time for N sectors from LBA, starting as its first sector
 * comes under the head.
 */
double
hdd_transfer_us (const struct hdd_geom *g, uint64_t lba, uint64_t n)
{
  struct hdd_chs c;
  double wait;

  hdd_lba_to_chs (g, lba, &c);
  return media_us (g, sector_angle (g, &c) * g->rev_us, lba, n, &wait);
}

void
hdd_service (const struct hdd_geom *g, struct hdd_state *s, double now,
             enum hdd_op op, uint64_t lba, uint64_t n,
             uint64_t readahead_sectors, double flush_us,
             struct hdd_result *r)
{
  struct hdd_chs c, head = { .cyl = s->cyl, .head = s->head };
  int is_write = op == HDD_WRITE;

  memset (r, 0, sizeof *r);
  r->arrival = now;
  r->start = now > s->busy_until ? now : s->busy_until;
  r->lba = lba;
  r->sectors = n;

  if (op == HDD_FLUSH || op == HDD_TRIM) {
    /* Nothing moves: flush costs what was configured, trim is free
     * (spinning drives have no TRIM; the plugin still frees the space).
     */
    r->end = r->start + (op == HDD_FLUSH ? flush_us : 0);
    s->busy_until = r->end;
    return;
  }

  if (lba >= g->sectors) lba = g->sectors - 1;
  if (n > g->sectors - lba) n = g->sectors - lba;
  hdd_lba_to_chs (g, lba, &c);

  /* Sequential stream: the drive kept reading ahead into its buffer
   * (or merged writes in its cache) after the previous request, up to
   * READAHEAD sectors, so the next request in the stream continues on
   * the media's timeline from where the last one left the head: no new
   * seek, and the wait for this sector is only what the media would
   * have spent anyway (a track or cylinder switch and its skew, if the
   * last request ended at the end of a track).
   * A read is served from that buffer too when it lies in it but does
   * not start exactly at the stream's end: one that starts further on
   * (within READAHEAD of the stream's end, and either no more than its
   * own length on or sooner reached that way than by positioning) takes
   * the stream on to
   * its own end, the sectors skipped read into the buffer on the way; one
   * that ends before the stream's end (read by the stream already, at
   * most READAHEAD back and not before the read that began the stream)
   * is served at once and leaves the stream as it was.  So two reads of
   * a stream that reach the drive in swapped order (nbdkit's worker
   * threads can swap requests sent in order) cost what they cost in
   * order, as in a real drive's read-ahead segment.
   */
  if (s->have_last && s->last_op == op && op == HDD_READ &&
      lba != s->next_lba && readahead_sectors > 0 &&
      lba >= s->buf_lo &&
      lba + readahead_sectors >= s->next_lba &&
      lba + n <= s->next_lba + readahead_sectors &&
      r->start - s->media_end <=
      hdd_transfer_us (g, s->next_lba, readahead_sectors)) {
    struct hdd_state on = *s, pos = *s;
    struct hdd_result r_on, r_pos;

    if (lba + n <= s->next_lba) {       /* in the buffer already */
      r->end = r->start > s->media_end ? r->start : s->media_end;
      s->busy_until = r->end;
      return;
    }
    /* On from the stream's end through this read's last sector when the
     * sectors skipped are no more than the read's own (the next read of
     * the stream, swapped with this one, is on its way), or when that is
     * sooner than positioning for it; else (a short read far ahead in
     * the window) the drive stops reading ahead and positions for it.
     */
    hdd_service (g, &on, now, op, s->next_lba, lba + n - s->next_lba,
                 readahead_sectors, flush_us, &r_on);
    pos.have_last = 0;
    hdd_service (g, &pos, now, op, lba, n, readahead_sectors, flush_us,
                 &r_pos);
    if (lba <= s->next_lba || lba - s->next_lba <= n ||
        r_on.end <= r_pos.end) {
      n = lba + n - s->next_lba;
      lba = s->next_lba;
      hdd_lba_to_chs (g, lba, &c);
    }
  }
  if (s->have_last && lba == s->next_lba && s->last_op == op &&
      r->start - s->media_end <=
      hdd_transfer_us (g, lba, readahead_sectors)) {
    double t = s->media_end, wait, media;

    if (!same_track (&c, &head))
      t += c.cyl == head.cyl ? g->head_switch_us :
        hdd_seek_us (g, c.cyl > head.cyl ? c.cyl - head.cyl :
                     head.cyl - c.cyl);
    t += media_us (g, t, lba, n, &wait);
    t += wait;
    /* transfer is the media time, part of which may lie before start */
    r->transfer = t - s->media_end;
    media = t;
    r->end = media > r->start ? media : r->start;
    s->media_end = media;
  }
  else {
    double seek_end;

    r->cyl_distance = c.cyl > s->cyl ? c.cyl - s->cyl : s->cyl - c.cyl;
    if (r->cyl_distance > 0)
      r->seek = hdd_seek_us (g, r->cyl_distance);
    else if (c.head != s->head)
      r->seek = g->head_switch_us;
    if (is_write && r->seek > 0)
      r->seek += g->write_settle_us;
    seek_end = r->start + r->seek;
    r->transfer = media_us (g, seek_end, lba, n, &r->rotation);
    r->end = seek_end + r->rotation + r->transfer;
    s->media_end = r->end;
    s->buf_lo = lba;                    /* a new stream's buffer */
  }

  hdd_lba_to_chs (g, lba + n - 1, &c);
  s->cyl = c.cyl;
  s->head = c.head;
  s->have_last = 1;
  s->last_op = op;
  s->next_lba = lba + n;
  s->busy_until = r->end;
}

/* ---- command queueing ------------------------------------------------- */

double
hdd_position_us (const struct hdd_geom *g, const struct hdd_state *s,
                 double t, const struct hdd_request *q,
                 uint64_t readahead_sectors)
{
  struct hdd_state copy = *s;
  struct hdd_result r;

  if (q->op == HDD_FLUSH || q->op == HDD_TRIM)
    return 0;
  copy.busy_until = t;
  hdd_service (g, &copy, t, q->op, q->lba, q->sectors, readahead_sectors,
               0, &r);
  return r.seek + r.rotation;
}

size_t
hdd_dispatch (const struct hdd_geom *g, struct hdd_state *s,
              const struct hdd_request *q, size_t n, unsigned depth,
              double age_us, uint64_t readahead_sectors, double flush_us,
              struct hdd_result *r)
{
  double t = s->busy_until > q[0].arrival ? s->busy_until : q[0].arrival;
  size_t i, m, best = 0;
  double best_pos = 0;

  /* What the drive holds when it chooses: commands sent later are still
   * in the host's queue.
   */
  for (m = 1; m < n && m < depth && q[m].arrival <= t; m++)
    ;
  if (m > 1 && t - q[0].arrival < age_us) {
    for (i = 0; i < m; i++) {
      double pos = hdd_position_us (g, s, t, &q[i], readahead_sectors);
      if (i == 0 || pos < best_pos) {
        best = i;
        best_pos = pos;
      }
    }
  }
  hdd_service (g, s, q[best].arrival, q[best].op, q[best].lba,
               q[best].sectors, readahead_sectors, flush_us, r);
  return best;
}
