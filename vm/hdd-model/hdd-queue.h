/* SPDX-License-Identifier: GPL-2.0 */
/* nbdkit-hdd-filter: the actuator, its clock, its command queue and the
 * trace.
 *
 * One modelled drive serves every request of every connection, one at
 * a time.  Its clock counts model microseconds from the moment the
 * spindle was at angle 0 (drive_init): real time divided by time-scale,
 * or real time itself at time-scale=0, when nothing waits.
 *
 * drive_lock protects the actuator (drive_geom, drive_state), the queue
 * and the trace; the write cache (hdd-destage.c) keeps its state under
 * the same lock, so that one lock orders the head, the queue, the cache
 * and the trace's rows.  Functions named *_locked, and those said to be,
 * are called with drive_lock held; the clock needs no lock.
 */

#ifndef NBDKIT_HDD_QUEUE_H
#define NBDKIT_HDD_QUEUE_H

#include <stdint.h>
#include <stddef.h>
#include <time.h>
#include <pthread.h>

#include "hdd-model.h"

extern pthread_mutex_t drive_lock;
extern struct hdd_geom drive_geom;      /* valid once drive_set_size has run */
extern struct hdd_state drive_state;    /* the head, the spindle, busy_until */

/* Start the drive's clock (angle 0 now) and make the queue's condition
 * wait on the monotonic clock.  Called once, from .config_complete,
 * before any thread uses the drive.
 */
extern void drive_init (void);

/* Lay profile P over a plugin of SIZE bytes, unless already done for
 * that size.  Returns 0, or -1 after an nbdkit error naming the profile,
 * the size and what does not fit.  Called with drive_lock held.
 */
extern int drive_set_size (const struct hdd_profile *p, int64_t size);

/* The monotonic clock, in nanoseconds. */
extern uint64_t mono_ns (void);

/* The drive's clock now, and at monotonic time NS. */
extern double drive_now (void);
extern double drive_at (uint64_t ns);

/* The monotonic time at model time US, for a timed wait. */
extern struct timespec drive_to_ts (double us);

/* Sleep until model time END_US (at once at time-scale=0).  Returns 0,
 * or -1 with *ERR set if nbdkit is shutting down.  Called without
 * drive_lock.
 */
extern int drive_wait (double end_us, int *err);

/* Serve a request of COUNT bytes at OFFSET (a flush: 0, 0) on the
 * actuator: with queue-depth=1 at once, in arrival order; deeper, it
 * waits in the queue (dropping drive_lock while it waits) until the
 * drive, free, picks it by shortest positioning time with the aging
 * bound (hdd_dispatch).  Writes its trace row, named NAME or else after
 * OP.  Returns its modelled end time; the caller sleeps until then
 * (drive_wait).  Called with drive_lock held.
 */
extern double queue_account_locked (enum hdd_op op, const char *name,
                                    uint64_t offset, uint32_t count);

/* The same, taking drive_lock. */
extern double queue_account (enum hdd_op op, const char *name,
                             uint64_t offset, uint32_t count);

/* The requests of clients waiting in the queue: the destage thread
 * leaves the actuator to them.  Called with drive_lock held.
 */
extern size_t queue_waiting (void);

/* Wake every request waiting for the drive (the power cut: they find
 * the drive dead).  Called with drive_lock held.
 */
extern void queue_wake_all (void);

/* Open FILE (an absolute path) for the trace and write its header, with
 * the write cache's two columns if write-cache=on.  Returns 0, or -1
 * after an nbdkit error naming the file.
 */
extern int trace_open (const char *file);
extern void trace_close (void);

/* One trace row, in the order the drive serves requests: R, served as
 * NAME; with write-cache=on also CACHED (the request completed in the
 * cache) and the bytes the cache holds after it.  Nothing without
 * trace=.  Called with drive_lock held.
 */
extern void trace_row (const struct hdd_result *r, const char *name,
                       int cached);

#endif /* NBDKIT_HDD_QUEUE_H */
