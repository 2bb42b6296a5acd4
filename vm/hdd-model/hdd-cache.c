// SPDX-License-Identifier: GPL-2.0
/* nbdkit-hdd-filter: the drive's write-back cache, see hdd-cache.h. */

#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "hdd-cache.h"

static int
grow (struct hdd_cache *c)
{
  size_t cap;
  struct hdd_extent *p;

  if (c->n < c->cap)
    return 0;
  cap = c->cap ? 2 * c->cap : 64;
  p = realloc (c->ext, cap * sizeof *p);
  if (p == NULL)
    return -1;
  c->ext = p;
  c->cap = cap;
  return 0;
}

static void
remove_at (struct hdd_cache *c, size_t i)
{
  c->bytes -= c->ext[i].count;
  memmove (&c->ext[i], &c->ext[i + 1], (c->n - i - 1) * sizeof *c->ext);
  c->n--;
}

int
hdd_cache_carve (struct hdd_cache *c, uint64_t offset, uint32_t count)
{
  uint64_t a = offset, b = offset + count;
  size_t i = 0;

  while (i < c->n) {
    struct hdd_extent *e = &c->ext[i];
    uint64_t s = e->offset, t = e->offset + e->count;

    if (b <= s || a >= t) {             /* no overlap */
      i++;
      continue;
    }
    if (a <= s && b >= t) {             /* all of it overwritten */
      free (e->data);
      remove_at (c, i);
      continue;
    }
    if (a <= s) {                       /* its head */
      memmove (e->data, e->data + (b - s), t - b);
      e->offset = b;
      e->count = t - b;
      c->bytes -= b - s;
    }
    else if (b >= t) {                  /* its tail */
      e->count = a - s;
      c->bytes -= t - a;
    }
    else {                              /* its middle: split in two */
      struct hdd_extent tail;

      tail = *e;
      tail.offset = b;
      tail.count = t - b;
      tail.data = malloc (t - b);
      if (tail.data == NULL || grow (c) == -1) {
        free (tail.data);
        return -1;
      }
      e = &c->ext[i];                   /* grow may have moved it */
      memcpy (tail.data, e->data + (b - s), t - b);
      e->count = a - s;
      memmove (&c->ext[i + 2], &c->ext[i + 1],
               (c->n - i - 1) * sizeof *c->ext);
      c->ext[i + 1] = tail;
      c->n++;
      c->bytes -= b - a;
      i++;
    }
    i++;
  }
  return 0;
}

int
hdd_cache_add (struct hdd_cache *c, const void *buf, uint32_t count,
               uint64_t offset, uint64_t seq, double arrival)
{
  struct hdd_extent e = {
    .offset = offset, .count = count, .seq = seq, .arrival = arrival,
  };

  if (hdd_cache_carve (c, offset, count) == -1 || grow (c) == -1)
    return -1;
  e.data = malloc (count ? count : 1);
  if (e.data == NULL)
    return -1;
  memcpy (e.data, buf, count);
  c->ext[c->n++] = e;
  c->bytes += count;
  return 0;
}

uint32_t
hdd_extent_overlay (const struct hdd_extent *e, char *buf, uint32_t count,
                    uint64_t offset)
{
  uint64_t a = offset > e->offset ? offset : e->offset;
  uint64_t b = offset + count < e->offset + e->count ?
    offset + count : e->offset + e->count;

  if (a >= b)
    return 0;
  if (buf)
    memcpy (buf + (a - offset), e->data + (a - e->offset), b - a);
  return b - a;
}

uint64_t
hdd_cache_overlay (const struct hdd_cache *c, char *buf, uint32_t count,
                   uint64_t offset)
{
  uint64_t done = 0;
  size_t i;

  for (i = 0; i < c->n; i++)
    done += hdd_extent_overlay (&c->ext[i], buf, count, offset);
  return done;
}

uint64_t
hdd_cache_covered (const struct hdd_cache *c, uint64_t offset,
                   uint32_t count)
{
  uint64_t held = 0;
  size_t i;

  for (i = 0; i < c->n; i++) {
    const struct hdd_extent *e = &c->ext[i];
    uint64_t a = offset > e->offset ? offset : e->offset;
    uint64_t b = offset + count < e->offset + e->count ?
      offset + count : e->offset + e->count;

    if (a < b)
      held += b - a;
  }
  return held;
}

void
hdd_cache_take (struct hdd_cache *c, size_t i, struct hdd_extent *e)
{
  *e = c->ext[i];
  remove_at (c, i);
}

int
hdd_cache_holds_seq (const struct hdd_cache *c, uint64_t seq)
{
  size_t i;

  for (i = 0; i < c->n; i++)
    if (c->ext[i].seq <= seq)
      return 1;
  return 0;
}

uint64_t
hdd_cache_drop (struct hdd_cache *c)
{
  uint64_t bytes = c->bytes;
  size_t i;

  for (i = 0; i < c->n; i++)
    free (c->ext[i].data);
  c->n = 0;
  c->bytes = 0;
  return bytes;
}
