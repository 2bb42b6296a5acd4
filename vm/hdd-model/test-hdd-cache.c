// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the write cache's extents (hdd-cache.c), without nbdkit.
 * Usage: test-hdd-cache
 * Random writes (overlapping, splitting, covering), takes (destages, in
 * any order) and drops over a small disk, checked after every step
 * against a reference: a byte array of what was written last, and a
 * byte array of what the media holds (the destaged data).  After each
 * step the extents are disjoint, their counts add up to the cache's
 * bytes, the cache laid over the media reads as the reference, and the
 * covered count is right.  Then a few cases by hand: a middle split,
 * flush sequence numbers, drop.
 * Prints TAP lines (vm/lib/tap.h); exit 0 if all pass.
 */

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <inttypes.h>
#include <string.h>

#include "hdd-cache.h"
#include "tap.h"

#define DISK 65536

static unsigned char want[DISK];        /* the last data written */
static unsigned char media[DISK];       /* what destages put on the media */
static unsigned char got[DISK];

static uint64_t rng = 0x853c49e6748fea9bULL;

static uint64_t
rnd (uint64_t n)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng % n;
}

/* Data that differs from byte to byte and write to write, so that an
 * extent whose data is shifted against its offset is seen.
 */
static void
fill (unsigned char *buf, uint64_t off, uint64_t len)
{
  unsigned salt = 1 + rnd (255);
  uint64_t k;

  for (k = 0; k < len; k++)
    buf[k] = (unsigned char) (salt + (off + k) * 7 + (off + k) / 251);
}

/* Everything that must hold after any step; returns a message or NULL. */
static const char *
consistent (const struct hdd_cache *c)
{
  uint64_t sum = 0, held = 0, i, j;
  static unsigned char mark[DISK];

  memset (mark, 0, sizeof mark);
  for (i = 0; i < c->n; i++) {
    const struct hdd_extent *e = &c->ext[i];

    if (e->count == 0)
      return "an empty extent";
    if (e->offset + e->count > DISK)
      return "an extent past the disk";
    for (j = e->offset; j < e->offset + e->count; j++) {
      if (mark[j])
        return "two extents overlap";
      mark[j] = 1;
    }
    sum += e->count;
  }
  if (sum != c->bytes)
    return "the extents' counts do not add up to bytes";
  memcpy (got, media, DISK);
  if (hdd_cache_overlay (c, (char *) got, DISK, 0) != c->bytes)
    return "overlay copied a different number of bytes";
  if (memcmp (got, want, DISK) != 0)
    return "the cache over the media does not read as last written";
  for (i = 0; i < 64; i++) {
    uint64_t off = rnd (DISK), len = 1 + rnd (DISK - off);

    held = 0;
    for (j = off; j < off + len; j++)
      held += mark[j];
    if (hdd_cache_covered (c, off, len) != held)
      return "covered miscounts";
  }
  return NULL;
}

int
main (void)
{
  struct hdd_cache c = { 0 };
  struct hdd_extent e;
  const char *err = NULL;
  unsigned char buf[8192];
  uint64_t seq = 0;
  long step, writes = 0, takes = 0, splits = 0;

  tap_init ("");

  /* 1. Random steps against the reference. */
  for (step = 0; step < 20000 && !err; step++) {
    uint64_t r = rnd (100);

    if (r < 60 || c.n == 0) {                   /* a write */
      uint64_t off = rnd (DISK - 1), len = 1 + rnd (sizeof buf);
      size_t before = c.n;

      if (off + len > DISK)
        len = DISK - off;
      fill (buf, off, len);
      if (hdd_cache_add (&c, buf, len, off, ++seq, 0) == -1) {
        err = "hdd_cache_add failed";
        break;
      }
      memcpy (want + off, buf, len);
      writes++;
      if (c.n > before + 1)
        splits++;
    }
    else if (r < 95) {                          /* a destage, any one */
      hdd_cache_take (&c, rnd (c.n), &e);
      memcpy (media + e.offset, e.data, e.count);
      free (e.data);
      takes++;
    }
    else {                                      /* a zero: carve */
      uint64_t off = rnd (DISK - 1), len = 1 + rnd (sizeof buf);

      if (off + len > DISK)
        len = DISK - off;
      if (hdd_cache_carve (&c, off, len) == -1) {
        err = "hdd_cache_carve failed";
        break;
      }
      memset (want + off, 0, len);
      memset (media + off, 0, len);
    }
    err = consistent (&c);
  }
  tap_ok (err == NULL, "%ld random steps (%ld writes, %ld splits, %ld "
          "destages in any order): extents disjoint, bytes right, cache "
          "over media reads as last written%s%s", step, writes, splits,
          takes, err ? ": " : "", err ? err : "");
  hdd_cache_drop (&c);

  /* 2. A write in the middle of a cached one splits it in two. */
  memset (want, 0, DISK);
  memset (media, 0, DISK);
  memset (buf, 0x11, 4096);
  hdd_cache_add (&c, buf, 4096, 0, 1, 0);
  memset (buf, 0x22, 512);
  hdd_cache_add (&c, buf, 512, 1024, 2, 0);
  tap_ok (c.n == 3 && c.bytes == 4096 && c.ext[0].count == 1024 &&
          c.ext[1].offset == 1536 && c.ext[1].count == 2560 &&
          c.ext[1].seq == 1 && c.ext[2].seq == 2 &&
          (unsigned char) c.ext[1].data[0] == 0x11,
          "a write in the middle of a cached one splits it: %zu extents, "
          "%" PRIu64 " bytes", c.n, c.bytes);

  /* 3. Flush numbers: the old write's pieces hold seq 1. */
  tap_ok (hdd_cache_holds_seq (&c, 1) && hdd_cache_holds_seq (&c, 2) &&
          !hdd_cache_holds_seq (&c, 0),
          "holds_seq sees the split pieces of write 1");
  hdd_cache_take (&c, 2, &e);
  free (e.data);
  hdd_cache_take (&c, 0, &e);
  free (e.data);
  hdd_cache_take (&c, 0, &e);
  free (e.data);
  tap_ok (!hdd_cache_holds_seq (&c, 2) && c.bytes == 0,
          "once all are taken no write is held");

  /* 4. Drop (a power cut) empties the cache and says how much. */
  hdd_cache_add (&c, buf, 512, 0, 3, 0);
  hdd_cache_add (&c, buf, 512, 8192, 4, 0);
  tap_ok (hdd_cache_drop (&c) == 1024 && c.n == 0 && c.bytes == 0,
          "drop empties the cache and returns its bytes");
  free (c.ext);
  return tap_exit ();
}
