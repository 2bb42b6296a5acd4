// SPDX-License-Identifier: GPL-2.0
/* nbdkit-hdd-filter: make the plugin behave like a spinning drive.
 *
 * Every read, write and zero is served by one modelled actuator, in
 * arrival order or, with queue-depth > 1, shortest positioning time
 * first with an aging bound, on the drive's own clock: seek (Ruemmler-Wilkes
 * curve), rotational wait on a spindle that turns in real time, and
 * zoned transfer.  The request then sleeps until its modelled
 * completion.  With write-cache=on a write completes once in the
 * drive's cache (hdd-cache.c, data held here, not in the plugin) and a
 * thread destages the cache to the plugin on the drive's clock; a
 * power cut (SIGUSR1) drops what was not destaged and kills the drive.
 * The model lives in hdd-model.c; this file parses the settings and
 * glues the model to nbdkit.
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
#include <signal.h>

#include <nbdkit-filter.h>

#include "hdd-model.h"
#include "hdd-cache.h"

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
static int write_cache;
static int64_t write_cache_size = 16 * 1024 * 1024;
static const char *write_cache_size_value;     /* as given, if given */

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

/* The write cache (write-cache=on), also under lock: the extents not
 * yet on the media, the one the destage thread is writing (taken out
 * of the cache, still read through it), the writes' numbers, and
 * cache_cv, broadcast whenever any of it changes.  data_lock orders a
 * read of the plugin against a destage: a reader holds it shared from
 * its read of the plugin to its overlay of the cache, the destage
 * thread takes it exclusively to retire the extent it has written, so
 * a reader never misses data that is in neither place.
 */
static struct hdd_cache cache;
static struct hdd_extent inflight;
static int have_inflight;
static double inflight_end;             /* when the media has it */
static uint64_t write_seq;
static pthread_cond_t cache_cv;
static pthread_rwlock_t data_lock = PTHREAD_RWLOCK_INITIALIZER;
static pthread_t destage_thread;
static int destage_running, destage_stop;
static nbdkit_next *destage_next;       /* a shared context into the plugin */
#define DESTAGE_WINDOW 32               /* extents the drive picks among */

/* Power cut: SIGUSR1 sets cut_requested (and when); the first request
 * or destage that checks afterwards (check_power_cut, under the lock)
 * drops the cache and marks the drive dead, after which every request
 * fails with EIO.  The destage thread checks at least every 50 ms.
 */
static volatile sig_atomic_t cut_requested;
static volatile uint64_t cut_ns;        /* when, set by the handler */
static double cut_us;                   /* the same on the model's clock */
static int drive_dead;

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
  else if (strcmp (key, "write-cache") == 0) {
    int b = nbdkit_parse_bool (value);

    if (b == -1) {
      nbdkit_error ("write-cache=%s: expected on or off", value);
      return -1;
    }
    write_cache = b;
    return 0;
  }
  else if (strcmp (key, "write-cache-size") == 0) {
    /* Drives of the 1990s had 128K to 512K, today's 8M to 256M. */
    write_cache_size = nbdkit_parse_size (value);
    if (write_cache_size < 64 * 1024 ||
        write_cache_size > (INT64_C (1) << 30)) {
      nbdkit_error ("write-cache-size=%s: expected a size from 64K to 1G, "
                    "e.g. 16M", value);
      return -1;
    }
    write_cache_size_value = value;
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
  pthread_cond_init (&cache_cv, &attr);
  pthread_condattr_destroy (&attr);
  if (write_cache_size_value && !write_cache) {
    nbdkit_error ("write-cache-size=%s needs write-cache=on",
                  write_cache_size_value);
    return -1;
  }
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
             "cyl_distance,seek_us,rotation_us,transfer_us,queue_us%s\n",
             write_cache ? ",cached,cache_bytes" : "");
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
  "write-cache=BOOL        Write-back cache, on or off (default: off).\n" \
  "write-cache-size=SIZE   Its size, 64K-1G (default: 16M).\n" \
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

/* The monotonic time at model time US, as a timespec for the waits. */
static struct timespec
model_to_ts (double us)
{
  uint64_t ns = t0_ns + (uint64_t) (us * 1000 * (time_scale > 0 ?
                                                 time_scale : 1));
  struct timespec ts = {
    .tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000,
  };

  return ts;
}

/* One trace line per request, in the order the drive serves them;
 * with write-cache=on also whether the row completed in the cache and
 * the bytes the cache holds after it.  Called with lock held.
 */
static void
trace_row (const struct hdd_result *r, const char *name, int cached)
{
  if (!trace_fp)
    return;
  fprintf (trace_fp, "%.3f,%.3f,%.3f,%" PRIu64 ",%" PRIu64 ",%s,%" PRIu64
           ",%.3f,%.3f,%.3f,%.3f",
           r->arrival, r->start, r->end, r->lba, r->sectors, name,
           r->cyl_distance, r->seek, r->rotation, r->transfer,
           r->start - r->arrival);
  if (write_cache)
    fprintf (trace_fp, ",%d,%" PRIu64, cached,
             cache.bytes + (have_inflight ? inflight.count : 0));
  fputc ('\n', trace_fp);
  fflush (trace_fp);
}

static void
trace_line (const struct hdd_result *r, enum hdd_op op, const char *name)
{
  trace_row (r, name ? name : op_names[op], 0);
}

/* The power cut, if signalled and not yet done: drop every write not
 * on the media (the cache, and the extent being destaged, whose thread
 * sees drive_dead and drops it), mark the drive dead and wake every
 * waiter.  Called with lock held; returns drive_dead.
 */
static int
check_power_cut (void)
{
  if (cut_requested && !drive_dead) {
    struct hdd_result r;
    uint64_t extents = cache.n, bytes = cache.bytes;

    /* The extent being destaged survives if the media had it when the
     * power went (its thread was merely late to hand it on).
     */
    cut_us = (double) ((cut_ns ? cut_ns : mono_ns ()) - t0_ns) / 1000;
    if (time_scale > 0)
      cut_us /= time_scale;
    if (have_inflight && inflight_end > cut_us) {
      extents++;
      bytes += inflight.count;
    }
    memset (&r, 0, sizeof r);
    r.arrival = r.start = r.end = cut_us;
    r.sectors = bytes / HDD_SECTOR;
    drive_dead = 1;
    trace_row (&r, "powercut", 0);
    hdd_cache_drop (&cache);
    nbdkit_error ("hdd: power cut: %" PRIu64 " cached write extent(s), "
                  "%" PRIu64 " bytes, not on the media were lost; every "
                  "request now fails with EIO", extents, bytes);
    pthread_cond_broadcast (&cache_cv);
    pthread_cond_broadcast (&drive_free);
  }
  return drive_dead;
}

static void
power_cut_signal (int sig)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);         /* async-signal-safe */
  if (!cut_requested)
    cut_ns = (uint64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
  cut_requested = 1;
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
      if (write_cache)                          /* the destage thread */
        pthread_cond_broadcast (&cache_cv);
    }
    else {
      struct timespec ts = model_to_ts (state.busy_until);

      pthread_cond_timedwait (&drive_free, &lock, &ts);
    }
  }
  return me.r.end;
}

/* Queue the request on the actuator; returns its modelled end time.
 * Called with lock held.
 */
static double
hdd_account_locked (enum hdd_op op, const char *name, uint64_t offset,
                    uint32_t count)
{
  struct hdd_result r;
  uint64_t lba = offset / HDD_SECTOR;
  uint64_t n = count ? (offset + count - 1) / HDD_SECTOR - lba + 1 : 0;

  if (queue_depth > 1)
    return hdd_queue (op, name, lba, n);
  hdd_service (&geom, &state, model_now (), op, lba, n,
               readahead / HDD_SECTOR, flush_cost_us, &r);
  trace_line (&r, op, name);
  if (write_cache)                      /* the destage thread */
    pthread_cond_broadcast (&cache_cv);
  return r.end;
}

static double
hdd_account (enum hdd_op op, const char *name, uint64_t offset,
             uint32_t count)
{
  double end;

  pthread_mutex_lock (&lock);
  end = hdd_account_locked (op, name, offset, count);
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

/* The drive is dead (after a power cut): fail with EIO.  Until a cut
 * is signalled this costs a request no lock.
 */
static int
dead (int *err)
{
  int d;

  if (!cut_requested)
    return 0;
  pthread_mutex_lock (&lock);
  d = check_power_cut ();
  pthread_mutex_unlock (&lock);
  if (d)
    *err = EIO;
  return d;
}

/* ---- the write cache's destage thread -------------------------------- */

/* Wait on cache_cv until model time US, at most 50 ms (real) so that a
 * power cut is seen.  Called with lock held.
 */
static void
cache_wait_until (double us)
{
  struct timespec ts, cap;
  uint64_t ns = mono_ns () + 50000000;

  cap.tv_sec = ns / 1000000000;
  cap.tv_nsec = ns % 1000000000;
  ts = model_to_ts (us);
  if (us < 0 || ts.tv_sec > cap.tv_sec ||
      (ts.tv_sec == cap.tv_sec && ts.tv_nsec > cap.tv_nsec))
    ts = cap;
  pthread_cond_timedwait (&cache_cv, &lock, &ts);
}

/* Whenever the actuator is free and no request of a client waits for
 * it, write one cached extent to the media: the one of the oldest
 * DESTAGE_WINDOW with the shortest positioning time (hdd_dispatch, as
 * for queued requests).  Its data reaches the plugin when the model
 * says the media has it, not before.
 */
static void *
destage_main (void *arg)
{
  pthread_mutex_lock (&lock);
  while (!destage_stop) {
    struct hdd_request q[DESTAGE_WINDOW];
    struct hdd_result r;
    size_t i, m, k;
    double now;
    int err = 0;

    if (check_power_cut () || cache.n == 0 || npend > 0) {
      cache_wait_until (-1);
      continue;
    }
    now = model_now ();
    if (time_scale > 0 && now < state.busy_until) {
      cache_wait_until (state.busy_until);
      continue;
    }
    m = cache.n < DESTAGE_WINDOW ? cache.n : DESTAGE_WINDOW;
    for (i = 0; i < m; i++) {
      uint64_t lba = cache.ext[i].offset / HDD_SECTOR;

      q[i].arrival = now;
      q[i].op = HDD_WRITE;
      q[i].lba = lba;
      q[i].sectors = (cache.ext[i].offset + cache.ext[i].count - 1) /
        HDD_SECTOR - lba + 1;
    }
    k = hdd_dispatch (&geom, &state, q, m, DESTAGE_WINDOW, queue_age_us,
                      readahead / HDD_SECTOR, flush_cost_us, &r);
    hdd_cache_take (&cache, k, &inflight);
    have_inflight = 1;
    inflight_end = r.end;
    r.arrival = inflight.arrival;       /* queue_us: its time in the cache */
    trace_row (&r, "destage", 0);
    pthread_mutex_unlock (&lock);

    if (time_scale > 0) {
      struct timespec ts = model_to_ts (r.end);

      while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
             EINTR)
        ;
    }
    pthread_mutex_lock (&lock);
    if (!check_power_cut () || inflight_end <= cut_us) {
      pthread_mutex_unlock (&lock);
      if (destage_next->pwrite (destage_next, inflight.data, inflight.count,
                                inflight.offset, 0, &err) == -1) {
        nbdkit_error ("hdd: destage of %" PRIu32 " bytes at %" PRIu64
                      " to the plugin failed: %s; the drive is dead",
                      inflight.count, inflight.offset, strerror (err));
        if (!cut_requested)
          cut_ns = mono_ns ();
        cut_requested = 1;
      }
      pthread_rwlock_wrlock (&data_lock);
      pthread_mutex_lock (&lock);
      pthread_rwlock_unlock (&data_lock);
    }
    free (inflight.data);
    have_inflight = 0;
    pthread_cond_broadcast (&cache_cv);
  }
  pthread_mutex_unlock (&lock);
  return NULL;
}

/* Clean shutdown (all clients gone, nbdkit exiting): a drive that is
 * powered down properly writes its cache out first.  Not after a cut.
 */
static void
hdd_cleanup (nbdkit_backend *backend)
{
  int err;
  size_t i;

  if (!destage_running)
    return;
  pthread_mutex_lock (&lock);
  destage_stop = 1;
  pthread_cond_broadcast (&cache_cv);
  pthread_mutex_unlock (&lock);
  pthread_join (destage_thread, NULL);
  destage_running = 0;
  pthread_mutex_lock (&lock);
  if (!check_power_cut ()) {
    for (i = 0; i < cache.n; i++)
      destage_next->pwrite (destage_next, cache.ext[i].data,
                            cache.ext[i].count, cache.ext[i].offset, 0,
                            &err);
    if (cache.n)
      nbdkit_debug ("hdd: shutdown: %zu cached extent(s) written out",
                    cache.n);
  }
  hdd_cache_drop (&cache);
  pthread_mutex_unlock (&lock);
  destage_next->finalize (destage_next);
  nbdkit_next_context_close (destage_next);
  destage_next = NULL;
}

/* The plugin's size is first known here (nbdkit's ext2 filter opens
 * its plugin the same way): lay the profile over it before any client
 * connects, so that a profile that does not fit this size stops the
 * server at start instead of failing every connection.  Also the
 * power cut's signal handler, and with write-cache=on the destage
 * thread with a context of its own into the plugin.
 */
static int
hdd_after_fork (nbdkit_backend *backend)
{
  nbdkit_next *next;
  struct sigaction sa = { .sa_handler = power_cut_signal };
  int64_t size;
  int r;

  sigemptyset (&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  if (sigaction (SIGUSR1, &sa, NULL) == -1) {
    nbdkit_error ("hdd: SIGUSR1 (power cut) handler: %m");
    return -1;
  }
  next = nbdkit_next_context_open (backend, !write_cache, "", 1);
  if (next == NULL) {
    nbdkit_error ("cannot open the plugin to read its size");
    return -1;
  }
  if (next->prepare (next) == -1) {
    nbdkit_next_context_close (next);
    return -1;
  }
  size = next->get_size (next);
  if (size != -1 && write_cache && next->can_write (next) != 1) {
    nbdkit_error ("write-cache=on: the plugin is not writable");
    size = -1;
  }
  if (size == -1 || !write_cache) {
    next->finalize (next);
    nbdkit_next_context_close (next);
  }
  if (size == -1)
    return -1;
  pthread_mutex_lock (&lock);
  r = geom_setup (size);
  pthread_mutex_unlock (&lock);
  if (r == -1 || !write_cache)
    return r;
  destage_next = next;
  errno = pthread_create (&destage_thread, NULL, destage_main, NULL);
  if (errno) {
    nbdkit_error ("hdd: cannot start the destage thread: %m");
    return -1;
  }
  destage_running = 1;
  return 0;
}

static int
hdd_is_rotational (nbdkit_next *next, void *handle)
{
  return 1;
}

/* A drive with a write cache takes flushes and FUA writes itself. */
static int
hdd_can_flush (nbdkit_next *next, void *handle)
{
  return write_cache ? 1 : next->can_flush (next);
}

static int
hdd_can_fua (nbdkit_next *next, void *handle)
{
  return write_cache ? NBDKIT_FUA_NATIVE : next->can_fua (next);
}

/* The plugin's extents do not know what the cache holds (a range still
 * only in the cache would look like a hole): with the cache on, no
 * block status, so clients read the data.
 */
static int
hdd_can_extents (nbdkit_next *next, void *handle)
{
  return write_cache ? 0 : next->can_extents (next);
}

/* write-cache=on: a cached write of [OFFSET, +COUNT) replaces what the
 * cache holds there (older cached data it overwrites must never be
 * destaged after it).  The extent being destaged is left alone: the one
 * destage thread writes it before anything newer.  Called with lock
 * held.
 */
static int
cache_carve (uint64_t offset, uint32_t count, int *err)
{
  if (check_power_cut ()) {
    *err = EIO;
    return -1;
  }
  if (hdd_cache_carve (&cache, offset, count) == -1) {
    *err = ENOMEM;
    return -1;
  }
  return 0;
}

static int
overlaps_inflight (uint64_t offset, uint32_t count)
{
  return have_inflight && offset < inflight.offset + inflight.count &&
    inflight.offset < offset + count;
}

enum media_op { MEDIA_WRITE, MEDIA_ZERO, MEDIA_TRIM };

/* write-cache=on: a write, zero or trim that the media has completed
 * (its model end time END has passed) reaches the plugin: after any
 * overlapping extent being destaged (so the older data cannot land
 * after it), and with what the cache held of the range carved out at
 * the same moment, holding data_lock so that no read sees the range in
 * neither place.  Lost if the power was cut before END.
 */
static int
media_commit (nbdkit_next *next, enum media_op op, const void *buf,
              uint32_t count, uint64_t offset, uint32_t flags, double end,
              int *err)
{
  int r;

  for (;;) {
    pthread_rwlock_wrlock (&data_lock);
    pthread_mutex_lock (&lock);
    if (check_power_cut () && end > cut_us) {
      pthread_mutex_unlock (&lock);
      pthread_rwlock_unlock (&data_lock);
      *err = EIO;
      return -1;
    }
    if (!overlaps_inflight (offset, count))
      break;
    /* The destage thread retires its extent under data_lock: wait for
     * it without holding that.
     */
    pthread_rwlock_unlock (&data_lock);
    while (overlaps_inflight (offset, count) && !drive_dead)
      cache_wait_until (-1);
    pthread_mutex_unlock (&lock);
  }
  if (hdd_cache_carve (&cache, offset, count) == -1) {
    pthread_mutex_unlock (&lock);
    pthread_rwlock_unlock (&data_lock);
    *err = ENOMEM;
    return -1;
  }
  pthread_cond_broadcast (&cache_cv);
  pthread_mutex_unlock (&lock);
  flags &= ~NBDKIT_FLAG_FUA;
  switch (op) {
  case MEDIA_WRITE:
    r = next->pwrite (next, buf, count, offset, flags, err);
    break;
  case MEDIA_ZERO:
    r = next->zero (next, count, offset, flags, err);
    break;
  default:
    r = next->trim (next, count, offset, flags, err);
    break;
  }
  pthread_rwlock_unlock (&data_lock);
  return r;
}

/* write-cache=on: a write (or zero) that goes to the media and
 * completes there: FUA, larger than the cache, or a zero.  The plugin
 * gets it once the media has it (so a power cut before then loses it).
 */
static int
media_write (nbdkit_next *next, const void *buf, uint32_t count,
             uint64_t offset, uint32_t flags, const char *name, int *err)
{
  double end;

  pthread_mutex_lock (&lock);
  if (check_power_cut ()) {
    pthread_mutex_unlock (&lock);
    *err = EIO;
    return -1;
  }
  end = hdd_account_locked (HDD_WRITE, name, offset, count);
  pthread_mutex_unlock (&lock);
  if (hdd_wait (end, err) == -1)
    return -1;
  return media_commit (next, buf ? MEDIA_WRITE : MEDIA_ZERO, buf, count,
                       offset, flags, end, err);
}

/* write-cache=on: the write completes once in the cache, after its
 * transfer (no seek, no rotation), waiting first for room if the cache
 * is full.
 */
static int
cached_write (const void *buf, uint32_t count, uint64_t offset, int *err)
{
  struct hdd_result r = { .lba = offset / HDD_SECTOR };
  uint64_t seq;

  pthread_mutex_lock (&lock);
  r.arrival = model_now ();
  r.sectors = count ? (offset + count - 1) / HDD_SECTOR - r.lba + 1 : 0;
  seq = ++write_seq;
  for (;;) {
    if (cache_carve (offset, count, err) == -1) {
      pthread_mutex_unlock (&lock);
      return -1;
    }
    if (cache.bytes + (have_inflight ? inflight.count : 0) + count <=
        (uint64_t) write_cache_size)
      break;
    cache_wait_until (-1);
  }
  r.start = model_now ();
  if (r.start < r.arrival)
    r.start = r.arrival;
  r.transfer = r.sectors ? hdd_transfer_us (&geom, r.lba, r.sectors) : 0;
  r.end = r.start + r.transfer;
  if (hdd_cache_add (&cache, buf, count, offset, seq, r.arrival) == -1) {
    pthread_mutex_unlock (&lock);
    *err = ENOMEM;
    return -1;
  }
  trace_row (&r, "write", 1);
  pthread_cond_broadcast (&cache_cv);
  pthread_mutex_unlock (&lock);
  if (hdd_wait (r.end, err) == -1 || dead (err))
    return -1;
  return 0;
}

static int
hdd_pread (nbdkit_next *next, void *handle, void *buf, uint32_t count,
           uint64_t offset, uint32_t flags, int *err)
{
  double end;
  int r;

  if (!write_cache) {
    if (dead (err))
      return -1;
    end = hdd_account (HDD_READ, NULL, offset, count);
    r = next->pread (next, buf, count, offset, flags, err);
    if (hdd_wait (end, err) == -1)
      return -1;
    return r;
  }

  /* A read the cache holds all of costs its transfer only. */
  pthread_mutex_lock (&lock);
  if (check_power_cut ()) {
    pthread_mutex_unlock (&lock);
    *err = EIO;
    return -1;
  }
  if (count && hdd_cache_covered (&cache, offset, count) +
      (have_inflight ? hdd_extent_overlay (&inflight, NULL, count, offset) :
       0) == count) {
    struct hdd_result hit = { .lba = offset / HDD_SECTOR };

    hit.arrival = hit.start = model_now ();
    hit.sectors = (offset + count - 1) / HDD_SECTOR - hit.lba + 1;
    hit.transfer = hdd_transfer_us (&geom, hit.lba, hit.sectors);
    hit.end = hit.start + hit.transfer;
    trace_row (&hit, "read", 1);
    end = hit.end;
  }
  else
    end = hdd_account_locked (HDD_READ, NULL, offset, count);
  pthread_mutex_unlock (&lock);

  pthread_rwlock_rdlock (&data_lock);
  r = next->pread (next, buf, count, offset, flags, err);
  pthread_mutex_lock (&lock);
  if (have_inflight)            /* older than anything in the cache */
    hdd_extent_overlay (&inflight, buf, count, offset);
  hdd_cache_overlay (&cache, buf, count, offset);
  pthread_mutex_unlock (&lock);
  pthread_rwlock_unlock (&data_lock);
  if (r == -1 || hdd_wait (end, err) == -1 || dead (err))
    return -1;
  return r;
}

static int
hdd_pwrite (nbdkit_next *next, void *handle, const void *buf,
            uint32_t count, uint64_t offset, uint32_t flags, int *err)
{
  double end;
  int r;

  if (write_cache) {
    if (dead (err))
      return -1;
    if ((flags & NBDKIT_FLAG_FUA) || count > write_cache_size)
      return media_write (next, buf, count, offset, flags, NULL, err);
    return cached_write (buf, count, offset, err);
  }
  if (dead (err))
    return -1;
  end = hdd_account (HDD_WRITE, NULL, offset, count);
  r = next->pwrite (next, buf, count, offset, flags, err);
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
  if (dead (err))
    return -1;
  if (write_cache)
    return media_write (next, NULL, count, offset, flags, "zero", err);
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
  double end;
  int r;

  if (dead (err))
    return -1;
  end = hdd_account (HDD_TRIM, NULL, offset, count);
  if (write_cache)
    r = media_commit (next, MEDIA_TRIM, NULL, count, offset, flags, end,
                      err);
  else
    r = next->trim (next, count, offset, flags, err);
  if (r == -1 || hdd_wait (end, err) == -1)
    return -1;
  return r;
}

/* With write-cache=on a flush completes when every write that had
 * completed before it is on the media, then occupies the drive for
 * flush-cost; its trace row's queue_us is the wait for the destages.
 */
static int
hdd_flush (nbdkit_next *next, void *handle, uint32_t flags, int *err)
{
  double end;
  int r;

  if (write_cache) {
    struct hdd_result fr;
    double arrival;
    uint64_t seq;

    pthread_mutex_lock (&lock);
    arrival = model_now ();
    seq = write_seq;
    while (!check_power_cut () &&
           (hdd_cache_holds_seq (&cache, seq) ||
            (have_inflight && inflight.seq <= seq)))
      cache_wait_until (-1);
    if (drive_dead) {
      pthread_mutex_unlock (&lock);
      *err = EIO;
      return -1;
    }
    hdd_service (&geom, &state, model_now (), HDD_FLUSH, 0, 0, 0,
                 flush_cost_us, &fr);
    fr.arrival = arrival;
    trace_row (&fr, "flush", 0);
    pthread_mutex_unlock (&lock);
    if (hdd_wait (fr.end, err) == -1 || dead (err))
      return -1;
    if (next->can_flush (next) != 1)
      return 0;
    return next->flush (next, flags, err);
  }
  if (dead (err))
    return -1;
  end = hdd_account (HDD_FLUSH, NULL, 0, 0);
  r = next->flush (next, flags, err);
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
  .cleanup           = hdd_cleanup,
  .prepare           = hdd_prepare,
  .is_rotational     = hdd_is_rotational,
  .can_flush         = hdd_can_flush,
  .can_fua           = hdd_can_fua,
  .can_extents       = hdd_can_extents,
  .pread             = hdd_pread,
  .pwrite            = hdd_pwrite,
  .zero              = hdd_zero,
  .trim              = hdd_trim,
  .flush             = hdd_flush,
};

NBDKIT_REGISTER_FILTER (filter)
