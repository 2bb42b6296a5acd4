// SPDX-License-Identifier: GPL-2.0
/* Timed reads through a real NBD client (libnbd), for the hdd tests and
 * benchmark.  The clock runs after the connection is made, so only the
 * requests are timed.
 * Usage: hdd-nbdread URI OFFSET LENGTH REQUEST_SIZE [random|burst]
 * Reads LENGTH bytes from OFFSET, one REQUEST_SIZE request at a time
 * (queue depth 1), and prints "BYTES SECONDS MB/s".  With "random",
 * the LENGTH / REQUEST_SIZE requests go to random REQUEST_SIZE-aligned
 * offsets between OFFSET and the end of the export instead (the same
 * offsets on every run).  With "burst", the same random requests are
 * all sent at once (at most 256), then all awaited: what the server
 * lets through at once is what the drive sees queued.
 */

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include <libnbd.h>

static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main (int argc, char *argv[])
{
  struct nbd_handle *nbd;
  uint64_t offset, length, reqsize, done, slots = 0;
  uint64_t rng = 0x9e3779b97f4a7c15ULL;
  int random = 0, burst = 0;
  uint64_t inflight = 0;
  char *buf;
  double t0, t;

  if (argc == 6 && strcmp (argv[5], "random") == 0)
    random = 1;
  else if (argc == 6 && strcmp (argv[5], "burst") == 0)
    random = burst = 1;
  else if (argc != 5) {
    fprintf (stderr, "usage: %s URI OFFSET LENGTH REQUEST_SIZE "
             "[random|burst]\n", argv[0]);
    return 2;
  }
  offset = strtoull (argv[2], NULL, 0);
  length = strtoull (argv[3], NULL, 0);
  reqsize = strtoull (argv[4], NULL, 0);
  if (burst && (reqsize == 0 || length / reqsize > 256)) {
    fprintf (stderr, "%s: burst: LENGTH / REQUEST_SIZE must be 1 to 256\n",
             argv[0]);
    return 2;
  }
  /* a burst's requests each need a buffer of their own */
  if (reqsize == 0 || reqsize > 32 * 1024 * 1024 ||
      (buf = malloc (burst ? length : reqsize)) == NULL) {
    fprintf (stderr, "%s: REQUEST_SIZE=%s: expected 1 to 33554432\n",
             argv[0], argv[4]);
    return 2;
  }
  nbd = nbd_create ();
  if (nbd == NULL || nbd_connect_uri (nbd, argv[1]) == -1) {
    fprintf (stderr, "%s: %s\n", argv[0], nbd_get_error ());
    return 1;
  }
  if (random) {
    int64_t size = nbd_get_size (nbd);

    if (size == -1 || (uint64_t) size < offset + reqsize) {
      fprintf (stderr, "%s: export of %" PRId64 " bytes: no room for "
               "REQUEST_SIZE=%s at OFFSET=%s\n", argv[0], size, argv[4],
               argv[2]);
      return 2;
    }
    slots = ((uint64_t) size - offset) / reqsize;
  }
  t0 = now ();
  for (done = 0; done < length; done += reqsize) {
    uint64_t n = length - done < reqsize ? length - done : reqsize;
    uint64_t at = offset + done;

    if (random) {               /* splitmix64 */
      uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      at = offset + (z ^ (z >> 31)) % slots * reqsize;
    }
    if (burst) {
      if (nbd_aio_pread (nbd, buf + done, n, at, NBD_NULL_COMPLETION,
                         0) == -1) {
        fprintf (stderr, "%s: read at %" PRIu64 ": %s\n", argv[0], at,
                 nbd_get_error ());
        return 1;
      }
      inflight++;
      continue;
    }
    if (nbd_pread (nbd, buf, n, at, 0) == -1) {
      fprintf (stderr, "%s: read at %" PRIu64 ": %s\n", argv[0], at,
               nbd_get_error ());
      return 1;
    }
  }
  while (inflight > 0 && nbd_aio_in_flight (nbd) > 0)
    if (nbd_poll (nbd, -1) == -1) {
      fprintf (stderr, "%s: %s\n", argv[0], nbd_get_error ());
      return 1;
    }
  if (burst) {                  /* every request's status */
    int64_t c;

    while ((c = nbd_aio_peek_command_completed (nbd)) > 0)
      if (nbd_aio_command_completed (nbd, c) == -1) {
        fprintf (stderr, "%s: %s\n", argv[0], nbd_get_error ());
        return 1;
      }
  }
  t = now () - t0;
  printf ("%" PRIu64 " %.6f %.3f\n", length, t, length / t / 1e6);
  nbd_shutdown (nbd, 0);
  nbd_close (nbd);
  free (buf);
  return 0;
}
