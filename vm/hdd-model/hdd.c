/* nbdkit-hdd-filter: make the plugin behave like a spinning drive.
 *
 * Every read, write and zero is served by one modelled actuator, in
 * arrival order or, with queue-depth > 1, shortest positioning time
 * first with an aging bound, on the drive's own clock: seek (Ruemmler-Wilkes
 * curve), rotational wait on a spindle that turns in real time, and
 * zoned transfer.  The request then sleeps until its modelled
 * completion.  The model lives in hdd-model.c; this file parses the
 * settings and glues the model to nbdkit.
 *
 * Build: see hdd.mk.  Use:
 *   nbdkit --filter=/path/nbdkit-hdd-filter.so memory size=64G \
 *          profile=desktop7200
 */

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <inttypes.h>
#include <string.h>
#include <errno.h>
#include <math.h>
#include <time.h>
#include <pthread.h>

#include <nbdkit-filter.h>

#include "hdd-model.h"

#ifndef PROFILES_DEFAULT
#define PROFILES_DEFAULT NULL
#endif

static const char *profiles_file = PROFILES_DEFAULT;
static const char *profile_name = "desktop7200";
static double time_scale = 1.0;
static const char *trace_name = NULL;
static double flush_cost_us = 0;
static int64_t readahead = 2 * 1024 * 1024;
static unsigned queue_depth = 1;
static double queue_age_us = 200e3;

static struct hdd_profile profile;
static FILE *trace_fp;
static uint64_t t0_ns;          /* monotonic time of spindle angle 0 */

/* The actuator: everything below is protected by lock. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct hdd_geom geom;
static int geom_ready;
static struct hdd_state state;

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

static uint64_t
mono_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int
parse_ms (const char *key, const char *value, double *us)
{
  char *end;
  double d;

  errno = 0;
  d = strtod (value, &end);
  if (errno || end == value || *end != '\0' || !isfinite (d) || d < 0 ||
      d > 1e6) {
    nbdkit_error ("%s=%s: expected milliseconds, a number >= 0", key, value);
    return -1;
  }
  *us = d * 1000;
  return 0;
}

static int
hdd_config (nbdkit_next_config *next, nbdkit_backend *nxdata,
            const char *key, const char *value)
{
  if (strcmp (key, "profiles") == 0) {
    profiles_file = value;
    return 0;
  }
  else if (strcmp (key, "profile") == 0) {
    if (*value == '\0') {
      nbdkit_error ("profile=%s: the profile name must not be empty", value);
      return -1;
    }
    profile_name = value;
    return 0;
  }
  else if (strcmp (key, "time-scale") == 0) {
    char *end;

    errno = 0;
    time_scale = strtod (value, &end);
    if (errno || end == value || *end != '\0' || !isfinite (time_scale) ||
        time_scale < 0 || time_scale > 1000) {
      nbdkit_error ("time-scale=%s: expected a number from 0 to 1000 "
                    "(0: no delays, 1: real time)", value);
      return -1;
    }
    return 0;
  }
  else if (strcmp (key, "trace") == 0) {
    if (*value == '\0') {
      nbdkit_error ("trace=%s: expected a file name", value);
      return -1;
    }
    trace_name = value;
    return 0;
  }
  else if (strcmp (key, "flush-cost") == 0)
    return parse_ms (key, value, &flush_cost_us);
  else if (strcmp (key, "queue-depth") == 0) {
    char *end;
    unsigned long d;

    errno = 0;
    d = strtoul (value, &end, 10);
    if (errno || end == value || *end != '\0' || *value == '-' ||
        d < 1 || d > 32) {
      nbdkit_error ("queue-depth=%s: expected 1 (one request at a time, "
                    "in arrival order) to 32", value);
      return -1;
    }
    queue_depth = d;
    return 0;
  }
  else if (strcmp (key, "queue-age") == 0) {
    if (parse_ms (key, value, &queue_age_us) == -1)
      return -1;
    if (queue_age_us > 60e6) {
      nbdkit_error ("queue-age=%s: expected milliseconds from 0 to 60000",
                    value);
      return -1;
    }
    return 0;
  }
  else if (strcmp (key, "readahead") == 0) {
    readahead = nbdkit_parse_size (value);
    if (readahead == -1 || readahead > (INT64_C (1) << 30)) {
      nbdkit_error ("readahead=%s: expected a size from 0 to 1G, e.g. 2M",
                    value);
      return -1;
    }
    return 0;
  }
  else
    return next (nxdata, key, value);
}

static int
hdd_config_complete (nbdkit_next_config_complete *next,
                     nbdkit_backend *nxdata)
{
  char err[1024];
  pthread_condattr_t attr;

  pthread_condattr_init (&attr);
  pthread_condattr_setclock (&attr, CLOCK_MONOTONIC);
  pthread_cond_init (&drive_free, &attr);
  pthread_condattr_destroy (&attr);
  if (profiles_file == NULL) {
    nbdkit_error ("profiles=FILE is required (this build has no default "
                  "profiles file)");
    return -1;
  }
  if (hdd_profile_load (profiles_file, profile_name, &profile,
                        err, sizeof err) == -1) {
    nbdkit_error ("%s", err);
    return -1;
  }
  if (trace_name) {
    trace_fp = fopen (trace_name, "w");
    if (trace_fp == NULL) {
      nbdkit_error ("trace=%s: %m", trace_name);
      return -1;
    }
    fprintf (trace_fp, "arrival_us,start_us,end_us,lba,sectors,op,"
             "cyl_distance,seek_us,rotation_us,transfer_us,queue_us\n");
    fflush (trace_fp);
  }
  t0_ns = mono_ns ();
  return next (nxdata);
}

#define hdd_config_help \
  "profiles=FILE           Drive profiles file (default: compiled in).\n" \
  "profile=NAME            Drive profile (default: desktop7200).\n" \
  "time-scale=F            Multiply every delay (0: none, default: 1).\n" \
  "flush-cost=MS           Time a flush occupies the drive (default: 0).\n" \
  "readahead=SIZE          Drive read-ahead/write cache (default: 2M).\n" \
  "queue-depth=N           Commands the drive reorders, 1-32 (default: 1).\n" \
  "queue-age=MS            Longest a queued command is passed over\n" \
  "                        (default: 200).\n" \
  "trace=FILE              Write one CSV line per request (default: none)."

static void
hdd_unload (void)
{
  if (trace_fp)
    fclose (trace_fp);
}

/* Lay the profile over a plugin of SIZE bytes, unless already done for
 * that size.  Called with lock held.
 */
static int
geom_setup (int64_t size)
{
  char err[1024];

  if (geom_ready && geom.sectors == ((uint64_t) size + 511) / 512)
    return 0;
  if (hdd_geom_init (&geom, &profile, size, err, sizeof err) == -1) {
    nbdkit_error ("profile=%s over the plugin's %" PRIi64 " bytes: %s",
                  profile.name, size, err);
    return -1;
  }
  geom_ready = 1;
  nbdkit_debug ("hdd: profile %s: %" PRIu64 " cylinders, %u heads, "
                "%u zones of %" PRIu64 " cylinders, spt %u..%u, "
                "seek a=%g b=%g c=%g e=%g boundary=%g us, "
                "mean seek %.1f us",
                profile.name, geom.cylinders, geom.heads, geom.nzones,
                geom.cyls_per_zone, geom.spt[0],
                geom.spt[geom.nzones - 1], geom.seek.a, geom.seek.b,
                geom.seek.c, geom.seek.e, geom.seek.boundary,
                hdd_mean_seek_us (&geom));
  return 0;
}

/* The plugin's size is first known here (nbdkit's ext2 filter opens
 * its plugin the same way): lay the profile over it before any client
 * connects, so that a profile that does not fit this size stops the
 * server at start instead of failing every connection.
 */
static int
hdd_after_fork (nbdkit_backend *backend)
{
  nbdkit_next *next;
  int64_t size;
  int r;

  next = nbdkit_next_context_open (backend, 1, "", 1);
  if (next == NULL) {
    nbdkit_error ("cannot open the plugin to read its size");
    return -1;
  }
  if (next->prepare (next) == -1) {
    nbdkit_next_context_close (next);
    return -1;
  }
  size = next->get_size (next);
  next->finalize (next);
  nbdkit_next_context_close (next);
  if (size == -1)
    return -1;
  pthread_mutex_lock (&lock);
  r = geom_setup (size);
  pthread_mutex_unlock (&lock);
  return r;
}

/* A plugin's size may change (a file grown between connections, or an
 * export other than the default): check it again per connection.
 */
static int
hdd_prepare (nbdkit_next *next, void *handle, int readonly)
{
  int64_t size = next->get_size (next);
  int r;

  if (size == -1)
    return -1;
  pthread_mutex_lock (&lock);
  r = geom_setup (size);
  pthread_mutex_unlock (&lock);
  return r;
}

static const char *const op_names[] = {
  [HDD_READ] = "read", [HDD_WRITE] = "write",
  [HDD_FLUSH] = "flush", [HDD_TRIM] = "trim",
};

/* The drive's clock now (scaled model microseconds). */
static double
model_now (void)
{
  double now = (double) (mono_ns () - t0_ns) / 1000;

  return time_scale > 0 ? now / time_scale : now;
}

/* One trace line per request, in the order the drive serves them.
 * Called with lock held.
 */
static void
trace_line (const struct hdd_result *r, enum hdd_op op, const char *name)
{
  if (!trace_fp)
    return;
  fprintf (trace_fp, "%.3f,%.3f,%.3f,%" PRIu64 ",%" PRIu64 ",%s,%" PRIu64
           ",%.3f,%.3f,%.3f,%.3f\n",
           r->arrival, r->start, r->end, r->lba, r->sectors,
           name ? name : op_names[op], r->cyl_distance,
           r->seek, r->rotation, r->transfer, r->start - r->arrival);
  fflush (trace_fp);
}

/* queue-depth > 1: wait in the queue until the drive, free, picks this
 * request (see hdd_dispatch).  Whichever waiting thread sees the drive
 * free first makes the choice for all; the others wait until the new
 * busy time.  Called with lock held; returns the modelled end time.
 */
static double
hdd_queue (enum hdd_op op, const char *name, uint64_t lba, uint64_t n)
{
  struct pending me = {
    .req = { .arrival = model_now (), .op = op, .lba = lba, .sectors = n },
    .name = name,
  };

  if (npend == pend_cap) {
    size_t cap = pend_cap ? 2 * pend_cap : 64;
    struct pending **p = realloc (pend, cap * sizeof *p);

    if (p == NULL) {            /* serve it at once, in arrival order */
      hdd_service (&geom, &state, me.req.arrival, op, lba, n,
                   readahead / HDD_SECTOR, flush_cost_us, &me.r);
      trace_line (&me.r, op, name);
      return me.r.end;
    }
    pend = p;
    pend_cap = cap;
  }
  pend[npend++] = &me;

  while (!me.done) {
    if (time_scale == 0 || model_now () >= state.busy_until) {
      struct hdd_request q[32];
      struct hdd_result r;
      size_t i, m = npend < queue_depth ? npend : queue_depth, k;

      for (i = 0; i < m; i++)
        q[i] = pend[i]->req;
      k = hdd_dispatch (&geom, &state, q, m, queue_depth, queue_age_us,
                        readahead / HDD_SECTOR, flush_cost_us, &r);
      pend[k]->r = r;
      pend[k]->done = 1;
      trace_line (&r, pend[k]->req.op, pend[k]->name);
      memmove (&pend[k], &pend[k + 1], (npend - k - 1) * sizeof *pend);
      npend--;
      pthread_cond_broadcast (&drive_free);
    }
    else {
      uint64_t ns = t0_ns +
        (uint64_t) (state.busy_until * 1000 * time_scale);
      struct timespec ts = {
        .tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000,
      };

      pthread_cond_timedwait (&drive_free, &lock, &ts);
    }
  }
  return me.r.end;
}

/* Queue the request on the actuator; returns its modelled end time. */
static double
hdd_account (enum hdd_op op, const char *name, uint64_t offset,
             uint32_t count)
{
  struct hdd_result r;
  uint64_t lba = offset / HDD_SECTOR;
  uint64_t n = count ? (offset + count - 1) / HDD_SECTOR - lba + 1 : 0;
  double now = model_now (), end;

  pthread_mutex_lock (&lock);
  if (queue_depth > 1)
    end = hdd_queue (op, name, lba, n);
  else {
    hdd_service (&geom, &state, now, op, lba, n,
                 readahead / HDD_SECTOR, flush_cost_us, &r);
    trace_line (&r, op, name);
    end = r.end;
  }
  pthread_mutex_unlock (&lock);
  return end;
}

/* Sleep until the modelled end time (nothing at time-scale=0). */
static int
hdd_wait (double end_us, int *err)
{
  uint64_t end_ns, now;

  if (time_scale == 0)
    return 0;
  end_ns = t0_ns + (uint64_t) (end_us * 1000 * time_scale);
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

static int
hdd_is_rotational (nbdkit_next *next, void *handle)
{
  return 1;
}

static int
hdd_pread (nbdkit_next *next, void *handle, void *buf, uint32_t count,
           uint64_t offset, uint32_t flags, int *err)
{
  double end = hdd_account (HDD_READ, NULL, offset, count);
  int r = next->pread (next, buf, count, offset, flags, err);

  if (hdd_wait (end, err) == -1)
    return -1;
  return r;
}

static int
hdd_pwrite (nbdkit_next *next, void *handle, const void *buf,
            uint32_t count, uint64_t offset, uint32_t flags, int *err)
{
  double end = hdd_account (HDD_WRITE, NULL, offset, count);
  int r = next->pwrite (next, buf, count, offset, flags, err);

  if (hdd_wait (end, err) == -1)
    return -1;
  return r;
}

/* A drive writes zeroes like any other data. */
static int
hdd_zero (nbdkit_next *next, void *handle, uint32_t count, uint64_t offset,
          uint32_t flags, int *err)
{
  double end;
  int r;

  if (flags & NBDKIT_FLAG_FAST_ZERO) {
    *err = ENOTSUP;
    return -1;
  }
  end = hdd_account (HDD_WRITE, "zero", offset, count);
  r = next->zero (next, count, offset, flags, err);
  if (hdd_wait (end, err) == -1)
    return -1;
  return r;
}

static int
hdd_trim (nbdkit_next *next, void *handle, uint32_t count, uint64_t offset,
          uint32_t flags, int *err)
{
  double end = hdd_account (HDD_TRIM, NULL, offset, count);
  int r = next->trim (next, count, offset, flags, err);

  if (hdd_wait (end, err) == -1)
    return -1;
  return r;
}

static int
hdd_flush (nbdkit_next *next, void *handle, uint32_t flags, int *err)
{
  double end = hdd_account (HDD_FLUSH, NULL, 0, 0);
  int r = next->flush (next, flags, err);

  if (hdd_wait (end, err) == -1)
    return -1;
  return r;
}

static struct nbdkit_filter filter = {
  .name              = "hdd",
  .longname          = "nbdkit spinning drive model filter",
  .unload            = hdd_unload,
  .config            = hdd_config,
  .config_complete   = hdd_config_complete,
  .config_help       = hdd_config_help,
  .after_fork        = hdd_after_fork,
  .prepare           = hdd_prepare,
  .is_rotational     = hdd_is_rotational,
  .pread             = hdd_pread,
  .pwrite            = hdd_pwrite,
  .zero              = hdd_zero,
  .trim              = hdd_trim,
  .flush             = hdd_flush,
};

NBDKIT_REGISTER_FILTER (filter)
