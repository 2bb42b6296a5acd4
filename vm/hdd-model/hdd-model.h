/* SPDX-License-Identifier: GPL-2.0 */
/* nbdkit-hdd-filter: mechanical model of a spinning drive.
 *
 * Kept apart from the filter's modules (hdd.h lists them), so that
 * the model can be unit tested and plotted without a server: see
 * test-hdd-model.c and hdd-curves.c.
 *
 * Units: times are microseconds (double), positions are 512 byte
 * sectors, cylinders and heads counted from 0 at the outer edge.
 */

#ifndef NBDKIT_HDD_MODEL_H
#define NBDKIT_HDD_MODEL_H

#include <stdint.h>
#include <stddef.h>

#define HDD_SECTOR 512
#define HDD_MAX_ZONES 256

/* One named profile as read from profiles.conf. */
struct hdd_profile {
  char name[64];
  double rpm;
  unsigned heads;
  unsigned zones;
  unsigned spt_outer, spt_inner;  /* sectors per track, zone 0 / last zone */
  double head_switch_us, write_settle_us;
  double track_skew_us, cyl_skew_us;    /* if have_track/cyl_skew */
  int have_track_skew, have_cyl_skew;
  /* The last zone's skews, if given; zones between fall linearly. */
  double track_skew_inner_us, cyl_skew_inner_us;
  int have_track_skew_inner, have_cyl_skew_inner;
  /* Either datasheet figures (fitted to a Ruemmler-Wilkes curve) ... */
  double t2t_us, avg_us, full_us;
  /* ... or the six Ruemmler-Wilkes parameters, in the units of a drive
   * with nominal_cyls cylinders: boundary, a, b, c, e, single-cylinder
   * time (< 0: use the formula).
   */
  int have_rw;
  double rw[6];
  uint64_t nominal_cyls;
};

/* The seek curve over the virtual drive's cylinders. */
struct hdd_seek {
  double boundary, a, b, c, e, t1;
  double xscale;        /* distance d maps to x = 1 + (d-1)*xscale */
  uint64_t max_dist;    /* cylinders - 1 */
};

/* A profile laid over a capacity. */
struct hdd_geom {
  uint64_t sectors;             /* capacity in sectors */
  unsigned heads, nzones;
  uint64_t cyls_per_zone;
  uint64_t cylinders;           /* cylinders that hold at least one LBA */
  unsigned spt[HDD_MAX_ZONES];
  uint64_t zone_lba[HDD_MAX_ZONES + 1];  /* first LBA of each zone */
  double rev_us;
  double head_switch_us, write_settle_us;
  /* Angle by which each track is skewed from the previous one on the
   * same cylinder, and each cylinder's first track from the last track
   * of the one before, in fractions of a turn: zone 0's here, each
   * zone's in zone_*_skew_rev (the same unless the profile gives the
   * inner zone's), and where each zone's first track begins.
   */
  double track_skew_rev, cyl_skew_rev;
  double zone_track_skew_rev[HDD_MAX_ZONES], zone_cyl_skew_rev[HDD_MAX_ZONES];
  double zone_angle[HDD_MAX_ZONES];
  struct hdd_seek seek;
};

struct hdd_chs {
  uint64_t cyl;
  unsigned head, sector, spt;
};

enum hdd_op { HDD_READ, HDD_WRITE, HDD_FLUSH, HDD_TRIM };

/* What the drive remembers between requests. */
struct hdd_state {
  double busy_until;            /* model time the actuator is free */
  uint64_t cyl;
  unsigned head;
  int have_last;
  enum hdd_op last_op;
  uint64_t next_lba;            /* LBA after the last transfer */
  double media_end;             /* when the media passed next_lba */
  uint64_t buf_lo;              /* first LBA of the read stream's buffer */
};

struct hdd_result {
  double arrival, start, end;
  uint64_t lba, sectors, cyl_distance;
  double seek, rotation, transfer;
};

/* Read profile NAME from FILE into *P.  Returns 0, or -1 with ERR
 * naming the file, line and key (or the profile missing, with the names
 * the file has).  Every key's value is checked against its range here.
 */
extern int hdd_profile_load (const char *file, const char *name,
                             struct hdd_profile *p, char *err, size_t errlen);
/* Write the names of all profiles in FILE to NAMES (space separated).
 * Returns 0, or -1 with ERR as for hdd_profile_load.
 */
extern int hdd_profile_names (const char *file, char *names, size_t len,
                              char *err, size_t errlen);

/* Lay profile P over SIZE_BYTES: zones, cylinders per zone (the fewest
 * that hold the size), skews, and the seek curve fitted over that many
 * cylinders.  Returns 0, or -1 with ERR saying what does not fit (a size
 * of 0, seek figures no curve over so few cylinders can meet).
 */
extern int hdd_geom_init (struct hdd_geom *g, const struct hdd_profile *p,
                          uint64_t size_bytes, char *err, size_t errlen);

/* Where LBA (below G->sectors) lies: cylinder, head, sector in its
 * track, and its zone's sectors per track; hdd_chs_to_lba is the
 * inverse.
 */
extern void hdd_lba_to_chs (const struct hdd_geom *g, uint64_t lba,
                            struct hdd_chs *chs);
extern uint64_t hdd_chs_to_lba (const struct hdd_geom *g,
                                const struct hdd_chs *chs);
/* Seek time over D cylinders (0 for D = 0), without settle. */
extern double hdd_seek_us (const struct hdd_geom *g, uint64_t d);
/* Exact mean of hdd_seek_us over independent uniform cylinder pairs. */
extern double hdd_mean_seek_us (const struct hdd_geom *g);
/* Media time for N sectors from LBA, from the moment its first sector
 * comes under the head: track and cylinder switches and their skews
 * included, no seek or rotational wait before the first sector.
 */
extern double hdd_transfer_us (const struct hdd_geom *g, uint64_t lba,
                               uint64_t n);

/* Serve one request arriving at model time NOW on a drive in state S:
 * it starts at the later of NOW and S->busy_until; fills R (start, end,
 * seek, rotation, transfer, cylinder distance) and moves S's head, its
 * stream (for read-ahead) and busy_until to R->end.  A request that
 * continues the last one's stream within READAHEAD_SECTORS goes on at
 * the media's pace (no seek, no rotational wait); one past the capacity
 * is clamped to it.  A flush costs FLUSH_US and leaves the head where
 * it is; a trim costs nothing.
 */
extern void hdd_service (const struct hdd_geom *g, struct hdd_state *s,
                         double now, enum hdd_op op, uint64_t lba,
                         uint64_t n, uint64_t readahead_sectors,
                         double flush_us, struct hdd_result *r);

/* Command queueing.  A request waiting for the drive, in arrival order. */
struct hdd_request {
  double arrival;
  enum hdd_op op;
  uint64_t lba, sectors;
};

/* Positioning time (seek and rotational wait; none for a request that
 * continues the sequential stream) of a request if the drive, in state
 * S, started it at model time T.
 */
extern double hdd_position_us (const struct hdd_geom *g,
                               const struct hdd_state *s, double t,
                               const struct hdd_request *q,
                               uint64_t readahead_sectors);

/* The drive is free at S->busy_until (or idle): pick the next of the N
 * waiting requests Q (arrival order) and serve it into R.  The drive
 * holds the first DEPTH requests that had arrived by the time it
 * chooses; it serves the oldest if that has waited AGE_US or more,
 * else the one with the shortest positioning time (the oldest of
 * equals).  DEPTH 1 is arrival order, exactly hdd_service in turn.
 * Returns the index served.
 */
extern size_t hdd_dispatch (const struct hdd_geom *g, struct hdd_state *s,
                            const struct hdd_request *q, size_t n,
                            unsigned depth, double age_us,
                            uint64_t readahead_sectors, double flush_us,
                            struct hdd_result *r);

#endif /* NBDKIT_HDD_MODEL_H */
