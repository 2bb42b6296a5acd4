/* Timed reads through a real NBD client (libnbd), for the hdd tests and
 * benchmark.  The clock runs after the connection is made, so only the
 * requests are timed.
 * Usage: hdd-nbdread URI OFFSET LENGTH REQUEST_SIZE
 * Reads LENGTH bytes from OFFSET, one REQUEST_SIZE request at a time
 * (queue depth 1), and prints "BYTES SECONDS MB/s".
 */

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <inttypes.h>
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
  uint64_t offset, length, reqsize, done;
  char *buf;
  double t0, t;

  if (argc != 5) {
    fprintf (stderr, "usage: %s URI OFFSET LENGTH REQUEST_SIZE\n", argv[0]);
    return 2;
  }
  offset = strtoull (argv[2], NULL, 0);
  length = strtoull (argv[3], NULL, 0);
  reqsize = strtoull (argv[4], NULL, 0);
  if (reqsize == 0 || reqsize > 32 * 1024 * 1024 ||
      (buf = malloc (reqsize)) == NULL) {
    fprintf (stderr, "%s: REQUEST_SIZE=%s: expected 1 to 33554432\n",
             argv[0], argv[4]);
    return 2;
  }
  nbd = nbd_create ();
  if (nbd == NULL || nbd_connect_uri (nbd, argv[1]) == -1) {
    fprintf (stderr, "%s: %s\n", argv[0], nbd_get_error ());
    return 1;
  }
  t0 = now ();
  for (done = 0; done < length; done += reqsize) {
    uint64_t n = length - done < reqsize ? length - done : reqsize;
    if (nbd_pread (nbd, buf, n, offset + done, 0) == -1) {
      fprintf (stderr, "%s: read at %" PRIu64 ": %s\n", argv[0],
               offset + done, nbd_get_error ());
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
