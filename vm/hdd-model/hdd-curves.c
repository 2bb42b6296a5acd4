// SPDX-License-Identifier: GPL-2.0
/* Dump a profile's model curves for plots/hdd-profile.gp.
 * Usage: hdd-curves PROFILES.conf NAME SIZE PREFIX
 * Writes PREFIX-seek.csv (distance_cyl,seek_ms) and PREFIX-rate.csv
 * (lba_gib,cylinder,mb_per_s: the sequential rate of a stream through
 * that cylinder: its sectors over the time from its first sector to the
 * next cylinder's first, which includes the cylinder switch and its
 * skew, as every cylinder of a longer read pays).
 */

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <inttypes.h>
#include <string.h>

#include "hdd-model.h"

static uint64_t
parse_size (const char *s)
{
  char *end;
  uint64_t n = strtoull (s, &end, 10);

  switch (*end) {
  case 'T': n <<= 10; /* fallthrough */
  case 'G': n <<= 10; /* fallthrough */
  case 'M': n <<= 10; /* fallthrough */
  case 'K': n <<= 10; end++; break;
  }
  return *end ? 0 : n;
}

int
main (int argc, char *argv[])
{
  struct hdd_profile p;
  struct hdd_geom g;
  char err[512], path[4096];
  FILE *fp;
  uint64_t size, d, cyl, step;

  if (argc != 5 || (size = parse_size (argv[3])) == 0) {
    fprintf (stderr, "usage: %s PROFILES.conf NAME SIZE PREFIX\n", argv[0]);
    return 2;
  }
  if (hdd_profile_load (argv[1], argv[2], &p, err, sizeof err) == -1 ||
      hdd_geom_init (&g, &p, size, err, sizeof err) == -1) {
    fprintf (stderr, "hdd-curves: %s\n", err);
    return 1;
  }

  snprintf (path, sizeof path, "%s-seek.csv", argv[4]);
  if ((fp = fopen (path, "w")) == NULL) { perror (path); return 1; }
  fprintf (fp, "distance_cyl,seek_ms\n");
  step = g.seek.max_dist / 2000 + 1;
  for (d = 0; d <= g.seek.max_dist; d += d < 100 ? 1 : step)
    fprintf (fp, "%" PRIu64 ",%.4f\n", d, hdd_seek_us (&g, d) / 1000);
  fprintf (fp, "%" PRIu64 ",%.4f\n", g.seek.max_dist,
           hdd_seek_us (&g, g.seek.max_dist) / 1000);
  fclose (fp);

  snprintf (path, sizeof path, "%s-rate.csv", argv[4]);
  if ((fp = fopen (path, "w")) == NULL) { perror (path); return 1; }
  fprintf (fp, "lba_gib,cylinder,mb_per_s\n");
  step = g.cylinders / 1000 + 1;
  for (cyl = 0; cyl + 1 < g.cylinders; cyl += step) {
    struct hdd_chs c = { .cyl = cyl };
    uint64_t lba = hdd_chs_to_lba (&g, &c), n;
    struct hdd_chs next;
    double t;

    hdd_lba_to_chs (&g, lba, &c);
    n = (uint64_t) g.heads * c.spt;
    /* through the next cylinder's first sector, less that sector's
     * own media time: the cylinder plus the switch into the next one
     */
    hdd_lba_to_chs (&g, lba + n, &next);
    t = hdd_transfer_us (&g, lba, n + 1) - g.rev_us / next.spt;
    fprintf (fp, "%.4f,%" PRIu64 ",%.2f\n",
             (double) lba * HDD_SECTOR / (1 << 30), cyl,
             (double) n * HDD_SECTOR / t);
  }
  fclose (fp);
  printf ("%s: %" PRIu64 " cylinders, mean seek %.3f ms, revolution %.3f ms\n",
          argv[2], g.cylinders, hdd_mean_seek_us (&g) / 1000, g.rev_us / 1000);
  return 0;
}
