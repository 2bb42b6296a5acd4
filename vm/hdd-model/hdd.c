// SPDX-License-Identifier: GPL-2.0
/* nbdkit-hdd-filter: make the plugin behave like a spinning drive.
 *
 * Every read, write and zero is served by one modelled actuator, in
 * arrival order or, with queue-depth > 1, shortest positioning time
 * first with an aging bound, on the drive's own clock: seek (Ruemmler-
 * Wilkes curve), rotational wait on a spindle that turns in real time,
 * and zoned transfer.  The request then sleeps until its modelled
 * completion.  With write-cache=on a write completes once in the
 * drive's cache and a thread destages the cache to the plugin on the
 * drive's clock; a power cut (SIGUSR1) drops what was not destaged and
 * kills the drive.
 *
 * This file holds the settings, .config and the nbdkit callbacks; the
 * other modules are listed in hdd.h.
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
#include <pthread.h>

#include <nbdkit-filter.h>

#include "hdd.h"
#include "hdd-model.h"
#include "hdd-queue.h"
#include "hdd-destage.h"

#ifndef PROFILES_DEFAULT
#define PROFILES_DEFAULT NULL
#endif

double hdd_time_scale = 1.0;
double hdd_flush_cost_us = 0;
int64_t hdd_readahead = 2 * 1024 * 1024;
unsigned hdd_queue_depth = 1;
double hdd_queue_age_us = 200e3;
int hdd_write_cache;
int64_t hdd_write_cache_size = 16 * 1024 * 1024;

static char *profiles_file;             /* NULL: PROFILES_DEFAULT */
static const char *profile_name = "desktop7200";
static char *trace_name;
static struct hdd_profile profile;

/* The filter's keys, and the value each was given, so that a key given
 * twice is refused (nbdkit passes every key=value in order; a second
 * value silently winning would hide a typo in a long command line).
 */
static const char *const keys[] = {
  "profiles", "profile", "time-scale", "trace", "flush-cost",
  "queue-depth", "queue-age", "readahead", "write-cache",
  "write-cache-size",
};
#define NKEYS (sizeof keys / sizeof keys[0])
static const char *given[NKEYS];

/* The value KEY was given, or NULL. */
static const char *
given_value (const char *key)
{
  size_t i;

  for (i = 0; i < NKEYS; i++)
    if (strcmp (key, keys[i]) == 0)
      return given[i];
  return NULL;
}

static void
hdd_unload (void)
{
  trace_close ();
  free (profiles_file);
  free (trace_name);
}

/* A time in milliseconds, a fraction allowed: nbdkit 1.32 (Debian 12)
 * has no parse helper for one (nbdkit_parse_delay came in 1.40).
 */
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
  size_t i;

  for (i = 0; i < NKEYS; i++)
    if (strcmp (key, keys[i]) == 0)
      break;
  if (i == NKEYS)
    return next (nxdata, key, value);
  if (given[i]) {
    nbdkit_error ("%s=%s: %s= was already given (%s=%s); give each key "
                  "once", key, value, key, key, given[i]);
    return -1;
  }
  given[i] = value;

  if (strcmp (key, "profiles") == 0) {
    profiles_file = nbdkit_absolute_path (value);
    if (profiles_file == NULL) {
      nbdkit_error ("profiles=%s: expected a file name", value);
      return -1;
    }
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

    /* a fraction: no nbdkit helper, as for parse_ms */
    errno = 0;
    hdd_time_scale = strtod (value, &end);
    if (errno || end == value || *end != '\0' ||
        !isfinite (hdd_time_scale) || hdd_time_scale < 0 ||
        hdd_time_scale > 1000) {
      nbdkit_error ("time-scale=%s: expected a number from 0 to 1000 "
                    "(0: no delays, 1: real time)", value);
      return -1;
    }
    return 0;
  }
  else if (strcmp (key, "trace") == 0) {
    if (*value == '\0' ||
        (trace_name = nbdkit_absolute_path (value)) == NULL) {
      nbdkit_error ("trace=%s: expected a file name", value);
      return -1;
    }
    return 0;
  }
  else if (strcmp (key, "flush-cost") == 0)
    return parse_ms (key, value, &hdd_flush_cost_us);
  else if (strcmp (key, "queue-depth") == 0) {
    if (nbdkit_parse_unsigned ("queue-depth", value, &hdd_queue_depth) == -1
        || hdd_queue_depth < 1 || hdd_queue_depth > 32) {
      nbdkit_error ("queue-depth=%s: expected 1 (one request at a time, "
                    "in arrival order) to 32", value);
      return -1;
    }
    return 0;
  }
  else if (strcmp (key, "queue-age") == 0) {
    if (parse_ms (key, value, &hdd_queue_age_us) == -1)
      return -1;
    if (hdd_queue_age_us > 60e6) {
      nbdkit_error ("queue-age=%s: expected milliseconds from 0 to 60000",
                    value);
      return -1;
    }
    return 0;
  }
  else if (strcmp (key, "readahead") == 0) {
    hdd_readahead = nbdkit_parse_size (value);
    if (hdd_readahead == -1 || hdd_readahead > (INT64_C (1) << 30)) {
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
    hdd_write_cache = b;
    return 0;
  }
  else {                        /* write-cache-size */
    /* Drives of the 1990s had 128K to 512K, today's 8M to 256M. */
    hdd_write_cache_size = nbdkit_parse_size (value);
    if (hdd_write_cache_size < 64 * 1024 ||
        hdd_write_cache_size > (INT64_C (1) << 30)) {
      nbdkit_error ("write-cache-size=%s: expected a size from 64K to 1G, "
                    "e.g. 16M", value);
      return -1;
    }
    return 0;
  }
}

static int
hdd_config_complete (nbdkit_next_config_complete *next,
                     nbdkit_backend *nxdata)
{
  const char *file = profiles_file ? profiles_file : PROFILES_DEFAULT;
  const char *cache_size = given_value ("write-cache-size");
  char err[1024];

  if (cache_size && !hdd_write_cache) {
    nbdkit_error ("write-cache-size=%s needs write-cache=on", cache_size);
    return -1;
  }
  if (file == NULL) {
    nbdkit_error ("profiles=FILE is required (this build has no default "
                  "profiles file)");
    return -1;
  }
  if (hdd_profile_load (file, profile_name, &profile,
                        err, sizeof err) == -1) {
    nbdkit_error ("%s", err);
    return -1;
  }
  if (trace_name && trace_open (trace_name) == -1)
    return -1;
  wcache_init ();
  drive_init ();
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
  int64_t size;
  int r;

  if (powercut_init () == -1)
    return -1;
  next = nbdkit_next_context_open (backend, !hdd_write_cache, "", 1);
  if (next == NULL) {
    nbdkit_error ("cannot open the plugin to read its size");
    return -1;
  }
  if (next->prepare (next) == -1) {
    nbdkit_next_context_close (next);
    return -1;
  }
  size = next->get_size (next);
  if (size != -1 && hdd_write_cache && next->can_write (next) != 1) {
    nbdkit_error ("write-cache=on: the plugin is not writable");
    size = -1;
  }
  if (size == -1 || !hdd_write_cache) {
    next->finalize (next);
    nbdkit_next_context_close (next);
  }
  if (size == -1)
    return -1;
  pthread_mutex_lock (&drive_lock);
  r = drive_set_size (&profile, size);
  pthread_mutex_unlock (&drive_lock);
  if (r == -1 || !hdd_write_cache)
    return r;
  return destage_start (next);
}

/* Clean shutdown (all clients gone, nbdkit exiting): a drive that is
 * powered down properly writes its cache out first.  Not after a cut.
 */
static void
hdd_cleanup (nbdkit_backend *backend)
{
  destage_stop ();
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
  pthread_mutex_lock (&drive_lock);
  r = drive_set_size (&profile, size);
  pthread_mutex_unlock (&drive_lock);
  return r;
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
  return hdd_write_cache ? 1 : next->can_flush (next);
}

static int
hdd_can_fua (nbdkit_next *next, void *handle)
{
  return hdd_write_cache ? NBDKIT_FUA_NATIVE : next->can_fua (next);
}

/* The plugin's extents do not know what the cache holds (a range still
 * only in the cache would look like a hole): with the cache on, no
 * block status, so clients read the data.
 */
static int
hdd_can_extents (nbdkit_next *next, void *handle)
{
  return hdd_write_cache ? 0 : next->can_extents (next);
}

static int
hdd_pread (nbdkit_next *next, void *handle, void *buf, uint32_t count,
           uint64_t offset, uint32_t flags, int *err)
{
  double end;
  int r;

  if (hdd_write_cache)
    return wcache_pread (next, buf, count, offset, flags, err);
  if (powercut_dead (err))
    return -1;
  end = queue_account (HDD_READ, NULL, offset, count);
  r = next->pread (next, buf, count, offset, flags, err);
  if (drive_wait (end, err) == -1)
    return -1;
  return r;
}

static int
hdd_pwrite (nbdkit_next *next, void *handle, const void *buf,
            uint32_t count, uint64_t offset, uint32_t flags, int *err)
{
  double end;
  int r;

  if (hdd_write_cache)
    return wcache_pwrite (next, buf, count, offset, flags, err);
  if (powercut_dead (err))
    return -1;
  end = queue_account (HDD_WRITE, NULL, offset, count);
  r = next->pwrite (next, buf, count, offset, flags, err);
  if (drive_wait (end, err) == -1)
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
  if (powercut_dead (err))
    return -1;
  if (hdd_write_cache)
    return wcache_zero (next, count, offset, flags, err);
  end = queue_account (HDD_WRITE, "zero", offset, count);
  r = next->zero (next, count, offset, flags, err);
  if (drive_wait (end, err) == -1)
    return -1;
  return r;
}

static int
hdd_trim (nbdkit_next *next, void *handle, uint32_t count, uint64_t offset,
          uint32_t flags, int *err)
{
  double end;
  int r;

  if (powercut_dead (err))
    return -1;
  end = queue_account (HDD_TRIM, NULL, offset, count);
  if (hdd_write_cache)
    r = wcache_trim (next, count, offset, flags, end, err);
  else
    r = next->trim (next, count, offset, flags, err);
  if (r == -1 || drive_wait (end, err) == -1)
    return -1;
  return r;
}

static int
hdd_flush (nbdkit_next *next, void *handle, uint32_t flags, int *err)
{
  double end;
  int r;

  if (hdd_write_cache)
    return wcache_flush (next, flags, err);
  if (powercut_dead (err))
    return -1;
  end = queue_account (HDD_FLUSH, NULL, 0, 0);
  r = next->flush (next, flags, err);
  if (drive_wait (end, err) == -1)
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
