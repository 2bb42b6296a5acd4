/* SPDX-License-Identifier: GPL-2.0 */
/* nbdkit-hdd-filter: the write cache's request paths, its destage
 * thread, and the power cut.
 *
 * With write-cache=on a write completes once its data is in the drive's
 * cache (hdd-cache.c: the extents, held here, not in the plugin), after
 * its transfer alone; one thread destages the cache to the plugin in
 * positioning order whenever the actuator is free and no client's
 * request waits for it, and the plugin gets each extent when the model
 * says the media has it, not before.  A read sees the cache over the
 * plugin (read-your-writes); a flush completes once every write that
 * had completed before it is on the media.  The cache's state is kept
 * under drive_lock (hdd-queue.h).
 *
 * The power cut applies with the cache on or off: SIGUSR1 to nbdkit
 * marks the cut; the first request or destage that checks afterwards
 * drops what the media does not have, marks the drive dead, and from
 * then on every request fails with EIO.  With the cache off nothing
 * completed is lost.
 */

#ifndef NBDKIT_HDD_DESTAGE_H
#define NBDKIT_HDD_DESTAGE_H

#include <stdint.h>

#include <nbdkit-filter.h>

/* Make the cache's condition wait on the monotonic clock.  Called once,
 * from .config_complete.
 */
extern void wcache_init (void);

/* Install the SIGUSR1 handler that requests the power cut.  Returns 0,
 * or -1 after an nbdkit error.  Called from .after_fork.
 */
extern int powercut_init (void);

/* The power cut, if requested and not yet done: drop every write not on
 * the media (the cache, and the extent being destaged unless the media
 * had it by the time of the cut), write a "powercut" trace row, mark
 * the drive dead and wake every waiter.  Returns whether the drive is
 * dead.  Called with drive_lock held.
 */
extern int powercut_check_locked (void);

/* Whether the drive is dead after a power cut; if it is, sets *ERR to
 * EIO.  Takes drive_lock only once a cut has been requested, so that
 * until then it costs a request no lock.
 */
extern int powercut_dead (int *err);

/* Start the destage thread, with NEXT, a context of its own into the
 * plugin (opened, prepared, writable), which it then owns.  Returns 0,
 * or -1 after an nbdkit error.  Called from .after_fork.
 */
extern int destage_start (nbdkit_next *next);

/* Stop the destage thread, if it runs, and unless the power was cut
 * write what the cache still holds to the plugin (a drive powered down
 * properly writes its cache out first), then close the thread's
 * context.  Called from .cleanup.
 */
extern void destage_stop (void);

/* Tell the destage thread that the actuator or the cache changed.
 * Called with drive_lock held.
 */
extern void destage_kick_locked (void);

/* The bytes the cache holds, with the extent being destaged.  Called
 * with drive_lock held.
 */
extern uint64_t wcache_bytes_locked (void);

/* The request paths with write-cache=on, called from hdd.c's callbacks
 * with the same arguments, and returning as they do: 0 (or what the
 * plugin returned), or -1 with *ERR set.
 *
 * wcache_pread: a read the cache holds all of costs its transfer only;
 * any other is served by the actuator; the data is the plugin's with
 * the cache laid over it.
 * wcache_pwrite: a FUA write or one larger than the cache completes on
 * the media, any other in the cache (waiting for room if it is full).
 * wcache_zero: a zero completes on the media, like a FUA write.
 * wcache_trim: a trim the actuator has served (modelled end END)
 * reaches the plugin in order with the destages.
 * wcache_flush: waits for the destages of every write that completed
 * before it, then occupies the drive for flush-cost.
 */
extern int wcache_pread (nbdkit_next *next, void *buf, uint32_t count,
                         uint64_t offset, uint32_t flags, int *err);
extern int wcache_pwrite (nbdkit_next *next, const void *buf,
                          uint32_t count, uint64_t offset, uint32_t flags,
                          int *err);
extern int wcache_zero (nbdkit_next *next, uint32_t count, uint64_t offset,
                        uint32_t flags, int *err);
extern int wcache_trim (nbdkit_next *next, uint32_t count, uint64_t offset,
                        uint32_t flags, double end, int *err);
extern int wcache_flush (nbdkit_next *next, uint32_t flags, int *err);

#endif /* NBDKIT_HDD_DESTAGE_H */
