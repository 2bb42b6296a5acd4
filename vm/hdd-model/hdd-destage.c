// SPDX-License-Identifier: GPL-2.0
/* nbdkit-hdd-filter: the write cache's request paths, its destage
 * thread, and the power cut; see hdd-destage.h.
 */

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <inttypes.h>
#include <string.h>
#include <errno.h>
#include <time.h>
#include <pthread.h>
#include <signal.h>

#include <nbdkit-filter.h>

#include "hdd.h"
#include "hdd-model.h"
#include "hdd-cache.h"
#include "hdd-queue.h"
#include "hdd-destage.h"

/* The write cache (write-cache=on), under drive_lock: the extents not
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
static int destage_running, destage_stopping;
static nbdkit_next *destage_next;       /* a shared context into the plugin */
#define DESTAGE_WINDOW 32               /* extents the drive picks among */

/* Power cut: SIGUSR1 sets cut_requested (and when); the first request
 * or destage that checks afterwards (powercut_check_locked) drops the
 * cache and marks the drive dead, after which every request fails with
 * EIO.  The destage thread checks at least every 50 ms.
 */
static volatile sig_atomic_t cut_requested;
static volatile uint64_t cut_ns;        /* when, set by the handler */
static double cut_us;                   /* the same on the model's clock */
static int drive_dead;

void
wcache_init (void)
{
  pthread_condattr_t attr;

  pthread_condattr_init (&attr);
  pthread_condattr_setclock (&attr, CLOCK_MONOTONIC);
  pthread_cond_init (&cache_cv, &attr);
  pthread_condattr_destroy (&attr);
}

uint64_t
wcache_bytes_locked (void)
{
  return cache.bytes + (have_inflight ? inflight.count : 0);
}

void
destage_kick_locked (void)
{
  pthread_cond_broadcast (&cache_cv);
}

/* ---- the power cut --------------------------------------------------- */

int
powercut_check_locked (void)
{
  if (cut_requested && !drive_dead) {
    struct hdd_result r;
    uint64_t extents = cache.n, bytes = cache.bytes;

    /* The extent being destaged survives if the media had it when the
     * power went (its thread was merely late to hand it on).
     */
    cut_us = drive_at (cut_ns ? cut_ns : mono_ns ());
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
    queue_wake_all ();
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

int
powercut_init (void)
{
  struct sigaction sa = { .sa_handler = power_cut_signal };

  sigemptyset (&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  if (sigaction (SIGUSR1, &sa, NULL) == -1) {
    nbdkit_error ("hdd: SIGUSR1 (power cut) handler: %m");
    return -1;
  }
  return 0;
}

int
powercut_dead (int *err)
{
  int d;

  if (!cut_requested)
    return 0;
  pthread_mutex_lock (&drive_lock);
  d = powercut_check_locked ();
  pthread_mutex_unlock (&drive_lock);
  if (d)
    *err = EIO;
  return d;
}

/* ---- the destage thread ---------------------------------------------- */

/* Wait on cache_cv until model time US, at most 50 ms (real) so that a
 * power cut is seen.  Called with drive_lock held.
 */
static void
cache_wait_until (double us)
{
  struct timespec ts, cap;
  uint64_t ns = mono_ns () + 50000000;

  cap.tv_sec = ns / 1000000000;
  cap.tv_nsec = ns % 1000000000;
  ts = drive_to_ts (us);
  if (us < 0 || ts.tv_sec > cap.tv_sec ||
      (ts.tv_sec == cap.tv_sec && ts.tv_nsec > cap.tv_nsec))
    ts = cap;
  pthread_cond_timedwait (&cache_cv, &drive_lock, &ts);
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
  pthread_mutex_lock (&drive_lock);
  while (!destage_stopping) {
    struct hdd_request q[DESTAGE_WINDOW];
    struct hdd_result r;
    size_t i, m, k;
    double now;
    int err = 0;

    if (powercut_check_locked () || cache.n == 0 || queue_waiting () > 0) {
      cache_wait_until (-1);
      continue;
    }
    now = drive_now ();
    if (hdd_time_scale > 0 && now < drive_state.busy_until) {
      cache_wait_until (drive_state.busy_until);
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
    k = hdd_dispatch (&drive_geom, &drive_state, q, m, DESTAGE_WINDOW,
                      hdd_queue_age_us, hdd_readahead / HDD_SECTOR,
                      hdd_flush_cost_us, &r);
    hdd_cache_take (&cache, k, &inflight);
    have_inflight = 1;
    inflight_end = r.end;
    r.arrival = inflight.arrival;       /* queue_us: its time in the cache */
    trace_row (&r, "destage", 0);
    pthread_mutex_unlock (&drive_lock);

    if (hdd_time_scale > 0) {
      struct timespec ts = drive_to_ts (r.end);

      while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
             EINTR)
        ;
    }
    pthread_mutex_lock (&drive_lock);
    if (!powercut_check_locked () || inflight_end <= cut_us) {
      pthread_mutex_unlock (&drive_lock);
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
      pthread_mutex_lock (&drive_lock);
      pthread_rwlock_unlock (&data_lock);
    }
    free (inflight.data);
    have_inflight = 0;
    pthread_cond_broadcast (&cache_cv);
  }
  pthread_mutex_unlock (&drive_lock);
  return NULL;
}

int
destage_start (nbdkit_next *next)
{
  destage_next = next;
  errno = pthread_create (&destage_thread, NULL, destage_main, NULL);
  if (errno) {
    nbdkit_error ("hdd: cannot start the destage thread: %m");
    return -1;
  }
  destage_running = 1;
  return 0;
}

void
destage_stop (void)
{
  int err;
  size_t i;

  if (!destage_running)
    return;
  pthread_mutex_lock (&drive_lock);
  destage_stopping = 1;
  pthread_cond_broadcast (&cache_cv);
  pthread_mutex_unlock (&drive_lock);
  pthread_join (destage_thread, NULL);
  destage_running = 0;
  pthread_mutex_lock (&drive_lock);
  if (!powercut_check_locked ()) {
    for (i = 0; i < cache.n; i++)
      destage_next->pwrite (destage_next, cache.ext[i].data,
                            cache.ext[i].count, cache.ext[i].offset, 0,
                            &err);
    if (cache.n)
      nbdkit_debug ("hdd: shutdown: %zu cached extent(s) written out",
                    cache.n);
  }
  hdd_cache_drop (&cache);
  pthread_mutex_unlock (&drive_lock);
  destage_next->finalize (destage_next);
  nbdkit_next_context_close (destage_next);
  destage_next = NULL;
}

/* ---- the request paths ----------------------------------------------- */

/* A cached write of [OFFSET, +COUNT) replaces what the cache holds there
 * (older cached data it overwrites must never be destaged after it).
 * The extent being destaged is left alone: the one destage thread
 * writes it before anything newer.  Called with drive_lock held.
 */
static int
cache_carve (uint64_t offset, uint32_t count, int *err)
{
  if (powercut_check_locked ()) {
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

/* A write, zero or trim that the media has completed (its model end
 * time END has passed) reaches the plugin: after any overlapping extent
 * being destaged (so the older data cannot land after it), and with
 * what the cache held of the range carved out at the same moment,
 * holding data_lock so that no read sees the range in neither place.
 * Lost if the power was cut before END.
 */
static int
media_commit (nbdkit_next *next, enum media_op op, const void *buf,
              uint32_t count, uint64_t offset, uint32_t flags, double end,
              int *err)
{
  int r;

  for (;;) {
    pthread_rwlock_wrlock (&data_lock);
    pthread_mutex_lock (&drive_lock);
    if (powercut_check_locked () && end > cut_us) {
      pthread_mutex_unlock (&drive_lock);
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
    pthread_mutex_unlock (&drive_lock);
  }
  if (hdd_cache_carve (&cache, offset, count) == -1) {
    pthread_mutex_unlock (&drive_lock);
    pthread_rwlock_unlock (&data_lock);
    *err = ENOMEM;
    return -1;
  }
  pthread_cond_broadcast (&cache_cv);
  pthread_mutex_unlock (&drive_lock);
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

/* A write (or zero) that goes to the media and completes there: FUA,
 * larger than the cache, or a zero.  The plugin gets it once the media
 * has it (so a power cut before then loses it).
 */
static int
media_write (nbdkit_next *next, const void *buf, uint32_t count,
             uint64_t offset, uint32_t flags, const char *name, int *err)
{
  double end;

  pthread_mutex_lock (&drive_lock);
  if (powercut_check_locked ()) {
    pthread_mutex_unlock (&drive_lock);
    *err = EIO;
    return -1;
  }
  end = queue_account_locked (HDD_WRITE, name, offset, count);
  pthread_mutex_unlock (&drive_lock);
  if (drive_wait (end, err) == -1)
    return -1;
  return media_commit (next, buf ? MEDIA_WRITE : MEDIA_ZERO, buf, count,
                       offset, flags, end, err);
}

/* The write completes once in the cache, after its transfer (no seek,
 * no rotation), waiting first for room if the cache is full.
 */
static int
cached_write (const void *buf, uint32_t count, uint64_t offset, int *err)
{
  struct hdd_result r = { .lba = offset / HDD_SECTOR };
  uint64_t seq;

  pthread_mutex_lock (&drive_lock);
  r.arrival = drive_now ();
  r.sectors = count ? (offset + count - 1) / HDD_SECTOR - r.lba + 1 : 0;
  seq = ++write_seq;
  for (;;) {
    if (cache_carve (offset, count, err) == -1) {
      pthread_mutex_unlock (&drive_lock);
      return -1;
    }
    if (cache.bytes + (have_inflight ? inflight.count : 0) + count <=
        (uint64_t) hdd_write_cache_size)
      break;
    cache_wait_until (-1);
  }
  r.start = drive_now ();
  if (r.start < r.arrival)
    r.start = r.arrival;
  r.transfer = r.sectors ? hdd_transfer_us (&drive_geom, r.lba, r.sectors)
    : 0;
  r.end = r.start + r.transfer;
  if (hdd_cache_add (&cache, buf, count, offset, seq, r.arrival) == -1) {
    pthread_mutex_unlock (&drive_lock);
    *err = ENOMEM;
    return -1;
  }
  trace_row (&r, "write", 1);
  pthread_cond_broadcast (&cache_cv);
  pthread_mutex_unlock (&drive_lock);
  if (drive_wait (r.end, err) == -1 || powercut_dead (err))
    return -1;
  return 0;
}

int
wcache_pread (nbdkit_next *next, void *buf, uint32_t count,
              uint64_t offset, uint32_t flags, int *err)
{
  double end;
  int r;

  /* A read the cache holds all of costs its transfer only. */
  pthread_mutex_lock (&drive_lock);
  if (powercut_check_locked ()) {
    pthread_mutex_unlock (&drive_lock);
    *err = EIO;
    return -1;
  }
  if (count && hdd_cache_covered (&cache, offset, count) +
      (have_inflight ? hdd_extent_overlay (&inflight, NULL, count, offset) :
       0) == count) {
    struct hdd_result hit = { .lba = offset / HDD_SECTOR };

    hit.arrival = hit.start = drive_now ();
    hit.sectors = (offset + count - 1) / HDD_SECTOR - hit.lba + 1;
    hit.transfer = hdd_transfer_us (&drive_geom, hit.lba, hit.sectors);
    hit.end = hit.start + hit.transfer;
    trace_row (&hit, "read", 1);
    end = hit.end;
  }
  else
    end = queue_account_locked (HDD_READ, NULL, offset, count);
  pthread_mutex_unlock (&drive_lock);

  pthread_rwlock_rdlock (&data_lock);
  r = next->pread (next, buf, count, offset, flags, err);
  pthread_mutex_lock (&drive_lock);
  if (have_inflight)            /* older than anything in the cache */
    hdd_extent_overlay (&inflight, buf, count, offset);
  hdd_cache_overlay (&cache, buf, count, offset);
  pthread_mutex_unlock (&drive_lock);
  pthread_rwlock_unlock (&data_lock);
  if (r == -1 || drive_wait (end, err) == -1 || powercut_dead (err))
    return -1;
  return r;
}

int
wcache_pwrite (nbdkit_next *next, const void *buf, uint32_t count,
               uint64_t offset, uint32_t flags, int *err)
{
  if (powercut_dead (err))
    return -1;
  if ((flags & NBDKIT_FLAG_FUA) || count > hdd_write_cache_size)
    return media_write (next, buf, count, offset, flags, NULL, err);
  return cached_write (buf, count, offset, err);
}

int
wcache_zero (nbdkit_next *next, uint32_t count, uint64_t offset,
             uint32_t flags, int *err)
{
  return media_write (next, NULL, count, offset, flags, "zero", err);
}

int
wcache_trim (nbdkit_next *next, uint32_t count, uint64_t offset,
             uint32_t flags, double end, int *err)
{
  return media_commit (next, MEDIA_TRIM, NULL, count, offset, flags, end,
                       err);
}

/* The flush's trace row's queue_us is its wait for the destages. */
int
wcache_flush (nbdkit_next *next, uint32_t flags, int *err)
{
  struct hdd_result fr;
  double arrival;
  uint64_t seq;

  pthread_mutex_lock (&drive_lock);
  arrival = drive_now ();
  seq = write_seq;
  while (!powercut_check_locked () &&
         (hdd_cache_holds_seq (&cache, seq) ||
          (have_inflight && inflight.seq <= seq)))
    cache_wait_until (-1);
  if (drive_dead) {
    pthread_mutex_unlock (&drive_lock);
    *err = EIO;
    return -1;
  }
  hdd_service (&drive_geom, &drive_state, drive_now (), HDD_FLUSH, 0, 0, 0,
               hdd_flush_cost_us, &fr);
  fr.arrival = arrival;
  trace_row (&fr, "flush", 0);
  pthread_mutex_unlock (&drive_lock);
  if (drive_wait (fr.end, err) == -1 || powercut_dead (err))
    return -1;
  if (next->can_flush (next) != 1)
    return 0;
  return next->flush (next, flags, err);
}
