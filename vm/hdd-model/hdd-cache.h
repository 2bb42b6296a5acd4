/* SPDX-License-Identifier: GPL-2.0 */
/* nbdkit-hdd-filter: the drive's write-back cache (write-cache=on).
 *
 * The data of the writes that completed in the cache and are not yet
 * on the media, as disjoint byte extents in the order they entered:
 * a write carves what it overwrites out of older extents, so extents
 * can be destaged in any order.  No locking and no nbdkit here
 * (hdd-destage.c holds drive_lock around every call), so that it can be
 * unit tested.
 */

#ifndef NBDKIT_HDD_CACHE_H
#define NBDKIT_HDD_CACHE_H

#include <stdint.h>
#include <stddef.h>

struct hdd_extent {
  uint64_t offset;
  uint32_t count;
  uint64_t seq;         /* the write's number: a flush waits for <= its own */
  double arrival;       /* model time it entered the cache */
  char *data;
};

struct hdd_cache {
  struct hdd_extent *ext;       /* oldest first */
  size_t n, cap;
  uint64_t bytes;               /* sum of the extents' counts */
};

/* Remove [OFFSET, OFFSET+COUNT) from every extent (trimming, splitting
 * or dropping them).  Returns -1 (out of memory) if a split fails.
 */
extern int hdd_cache_carve (struct hdd_cache *c, uint64_t offset,
                            uint32_t count);

/* Carve, then append a copy of BUF as the newest extent.  -1: ENOMEM. */
extern int hdd_cache_add (struct hdd_cache *c, const void *buf,
                          uint32_t count, uint64_t offset, uint64_t seq,
                          double arrival);

/* Copy what extent E holds of [OFFSET, OFFSET+COUNT) into BUF (if not
 * NULL); returns the bytes it holds.
 */
extern uint32_t hdd_extent_overlay (const struct hdd_extent *e, char *buf,
                                    uint32_t count, uint64_t offset);

/* The same for every extent of the cache (read-your-writes). */
extern uint64_t hdd_cache_overlay (const struct hdd_cache *c, char *buf,
                                   uint32_t count, uint64_t offset);

/* Bytes of [OFFSET, OFFSET+COUNT) the cache holds. */
extern uint64_t hdd_cache_covered (const struct hdd_cache *c,
                                   uint64_t offset, uint32_t count);

/* Take extent I out of the cache into *E (the caller frees E->data). */
extern void hdd_cache_take (struct hdd_cache *c, size_t i,
                            struct hdd_extent *e);

/* Does the cache hold an extent of a write numbered SEQ or less? */
extern int hdd_cache_holds_seq (const struct hdd_cache *c, uint64_t seq);

/* Drop every extent (a power cut); returns the bytes dropped. */
extern uint64_t hdd_cache_drop (struct hdd_cache *c);

#endif /* NBDKIT_HDD_CACHE_H */
