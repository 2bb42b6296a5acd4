/* SPDX-License-Identifier: GPL-2.0 */
/* nbdkit-hdd-filter: the settings its modules share.
 *
 * The filter is split as nbdkit splits its cache filter:
 *   hdd.c          the settings, .config and the nbdkit callbacks;
 *   hdd-queue.c    the actuator: its clock, its command queue, the trace;
 *   hdd-destage.c  the write cache's request paths, its destage thread,
 *                  and the power cut;
 *   hdd-model.c    the mechanical model (zones, seek curve, rotation);
 *   hdd-cache.c    the write cache's extents.
 * The last two know nothing of nbdkit or threads, so that they are unit
 * tested (test-hdd-model.c, test-hdd-cache.c).
 *
 * The settings below are set by hdd.c's .config, one key each, and only
 * read once .config_complete has returned.
 */

#ifndef NBDKIT_HDD_H
#define NBDKIT_HDD_H

#include <stdint.h>

extern double hdd_time_scale;           /* time-scale=: 0 no delays, 1 real */
extern double hdd_flush_cost_us;        /* flush-cost= */
extern int64_t hdd_readahead;           /* readahead=, bytes */
extern unsigned hdd_queue_depth;        /* queue-depth=, 1 to 32 */
extern double hdd_queue_age_us;         /* queue-age= */
extern int hdd_write_cache;             /* write-cache= */
extern int64_t hdd_write_cache_size;    /* write-cache-size=, bytes */

#endif /* NBDKIT_HDD_H */
