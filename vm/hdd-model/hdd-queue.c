// SPDX-License-Identifier: GPL-2.0
/* nbdkit-hdd-filter: the actuator, its clock, its command queue and the
 * trace; see hdd-queue.h.
 */

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <inttypes.h>
#include <string.h>
#include <errno.h>
#include <time.h>
#include <pthread.h>

#include <nbdkit-filter.h>

#include "hdd.h"
#include "hdd-model.h"
#include "hdd-queue.h"
#include "hdd-destage.h"

pthread_mutex_t drive_lock = PTHREAD_MUTEX_INITIALIZER;
struct hdd_geom drive_geom;
struct hdd_state drive_state;

static int geom_ready;
static uint64_t t0_ns;          /* monotonic time of spindle angle 0 */
static FILE *trace_fp;

/* Command queueing (queue-depth > 1): the requests waiting for the
 * drive, in arrival order, and the condition their threads wait on
 * until the drive is free (on the monotonic clock).
 */
struct pending {
  struct hdd_request req;
  const char *name;
  int done;
  struct hdd_result r;
};
static struct pending **pend;
static size_t npend, pend_cap;
static pthread_cond_t drive_free;

static const char *const op_names[] = {
  [HDD_READ] = "read", [HDD_WRITE] = "write",
  [HDD_FLUSH] = "flush", [HDD_TRIM] = "trim",
};

uint64_t
mono_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void
drive_init (void)
{
  pthread_condattr_t attr;

  pthread_condattr_init (&attr);
  pthread_condattr_setclock (&attr, CLOCK_MONOTONIC);
  pthread_cond_init (&drive_free, &attr);
  pthread_condattr_destroy (&attr);
  t0_ns = mono_ns ();
}

int
drive_set_size (const struct hdd_profile *p, int64_t size)
{
  char err[1024];

  if (geom_ready && drive_geom.sectors == ((uint64_t) size + 511) / 512)
    return 0;
  if (hdd_geom_init (&drive_geom, p, size, err, sizeof err) == -1) {
    nbdkit_error ("profile=%s over the plugin's %" PRIi64 " bytes: %s",
                  p->name, size, err);
    return -1;
  }
  geom_ready = 1;
  nbdkit_debug ("hdd: profile %s: %" PRIu64 " cylinders, %u heads, "
                "%u zones of %" PRIu64 " cylinders, spt %u..%u, "
                "seek a=%g b=%g c=%g e=%g boundary=%g us, "
                "mean seek %.1f us",
                p->name, drive_geom.cylinders, drive_geom.heads,
                drive_geom.nzones, drive_geom.cyls_per_zone,
                drive_geom.spt[0], drive_geom.spt[drive_geom.nzones - 1],
                drive_geom.seek.a, drive_geom.seek.b, drive_geom.seek.c,
                drive_geom.seek.e, drive_geom.seek.boundary,
                hdd_mean_seek_us (&drive_geom));
  return 0;
}

double
drive_at (uint64_t ns)
{
  double now = (double) (ns - t0_ns) / 1000;

  return hdd_time_scale > 0 ? now / hdd_time_scale : now;
}

double
drive_now (void)
{
  return drive_at (mono_ns ());
}

struct timespec
drive_to_ts (double us)
{
  uint64_t ns = t0_ns + (uint64_t) (us * 1000 * (hdd_time_scale > 0 ?
                                                 hdd_time_scale : 1));
  struct timespec ts = {
    .tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000,
  };

  return ts;
}

int
drive_wait (double end_us, int *err)
{
  uint64_t end_ns, now;

  if (hdd_time_scale == 0)
    return 0;
  end_ns = t0_ns + (uint64_t) (end_us * 1000 * hdd_time_scale);
  now = mono_ns ();
  if (end_ns <= now)
    return 0;
  end_ns -= now;
  if (nbdkit_nanosleep (end_ns / 1000000000, end_ns % 1000000000) == -1) {
    *err = errno ? errno : ESHUTDOWN;
    return -1;
  }
  return 0;
}

int
trace_open (const char *file)
{
  trace_fp = fopen (file, "w");
  if (trace_fp == NULL) {
    nbdkit_error ("trace=%s: %m", file);
    return -1;
  }
  fprintf (trace_fp, "arrival_us,start_us,end_us,lba,sectors,op,"
           "cyl_distance,seek_us,rotation_us,transfer_us,queue_us%s\n",
           hdd_write_cache ? ",cached,cache_bytes" : "");
  fflush (trace_fp);
  return 0;
}

void
trace_close (void)
{
  if (trace_fp)
    fclose (trace_fp);
  trace_fp = NULL;
}

void
trace_row (const struct hdd_result *r, const char *name, int cached)
{
  if (!trace_fp)
    return;
  fprintf (trace_fp, "%.3f,%.3f,%.3f,%" PRIu64 ",%" PRIu64 ",%s,%" PRIu64
           ",%.3f,%.3f,%.3f,%.3f",
           r->arrival, r->start, r->end, r->lba, r->sectors, name,
           r->cyl_distance, r->seek, r->rotation, r->transfer,
           r->start - r->arrival);
  if (hdd_write_cache)
    fprintf (trace_fp, ",%d,%" PRIu64, cached, wcache_bytes_locked ());
  fputc ('\n', trace_fp);
  fflush (trace_fp);
}

static void
trace_line (const struct hdd_result *r, enum hdd_op op, const char *name)
{
  trace_row (r, name ? name : op_names[op], 0);
}

size_t
queue_waiting (void)
{
  return npend;
}

void
queue_wake_all (void)
{
  pthread_cond_broadcast (&drive_free);
}

/* queue-depth > 1: wait in the queue until the drive, free, picks this
 * request (see hdd_dispatch).  Whichever waiting thread sees the drive
 * free first makes the choice for all; the others wait until the new
 * busy time.  Called with drive_lock held; returns the modelled end
 * time.
 */
static double
queue_locked (enum hdd_op op, const char *name, uint64_t lba, uint64_t n)
{
  struct pending me = {
    .req = { .arrival = drive_now (), .op = op, .lba = lba, .sectors = n },
    .name = name,
  };

  if (npend == pend_cap) {
    size_t cap = pend_cap ? 2 * pend_cap : 64;
    struct pending **p = realloc (pend, cap * sizeof *p);

    if (p == NULL) {            /* serve it at once, in arrival order */
      hdd_service (&drive_geom, &drive_state, me.req.arrival, op, lba, n,
                   hdd_readahead / HDD_SECTOR, hdd_flush_cost_us, &me.r);
      trace_line (&me.r, op, name);
      return me.r.end;
    }
    pend = p;
    pend_cap = cap;
  }
  pend[npend++] = &me;

  while (!me.done) {
    if (hdd_time_scale == 0 || drive_now () >= drive_state.busy_until) {
      struct hdd_request q[32];
      struct hdd_result r;
      size_t i, m = npend < hdd_queue_depth ? npend : hdd_queue_depth, k;

      for (i = 0; i < m; i++)
        q[i] = pend[i]->req;
      k = hdd_dispatch (&drive_geom, &drive_state, q, m, hdd_queue_depth,
                        hdd_queue_age_us, hdd_readahead / HDD_SECTOR,
                        hdd_flush_cost_us, &r);
      pend[k]->r = r;
      pend[k]->done = 1;
      trace_line (&r, pend[k]->req.op, pend[k]->name);
      memmove (&pend[k], &pend[k + 1], (npend - k - 1) * sizeof *pend);
      npend--;
      pthread_cond_broadcast (&drive_free);
      if (hdd_write_cache)                      /* the destage thread */
        destage_kick_locked ();
    }
    else {
      struct timespec ts = drive_to_ts (drive_state.busy_until);

      pthread_cond_timedwait (&drive_free, &drive_lock, &ts);
    }
  }
  return me.r.end;
}

double
queue_account_locked (enum hdd_op op, const char *name, uint64_t offset,
                      uint32_t count)
{
  struct hdd_result r;
  uint64_t lba = offset / HDD_SECTOR;
  uint64_t n = count ? (offset + count - 1) / HDD_SECTOR - lba + 1 : 0;

  if (hdd_queue_depth > 1)
    return queue_locked (op, name, lba, n);
  hdd_service (&drive_geom, &drive_state, drive_now (), op, lba, n,
               hdd_readahead / HDD_SECTOR, hdd_flush_cost_us, &r);
  trace_line (&r, op, name);
  if (hdd_write_cache)                  /* the destage thread */
    destage_kick_locked ();
  return r.end;
}

double
queue_account (enum hdd_op op, const char *name, uint64_t offset,
               uint32_t count)
{
  double end;

  pthread_mutex_lock (&drive_lock);
  end = queue_account_locked (op, name, offset, count);
  pthread_mutex_unlock (&drive_lock);
  return end;
}
