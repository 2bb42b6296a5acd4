// SPDX-License-Identifier: GPL-2.0
/* hdd-crash-load: the guest's side of the power cut test
 * (test-hdd-guest-crash.sh).  Static, runs in the guest.
 *
 *   hdd-crash-load write DIR MAXFILES
 *     Creates DIR/f00000, f00001, ... one after the other, hinted in
 *     turn O_HOT, O_COLD and not at all, each 4 KiB to 256 KiB of
 *     pseudo-random data.  Three files in four are fsync()ed, then DIR
 *     is; once both returned 0 it prints "synced NAME SIZE FNV1A64
 *     HINT", the fourth only "written NAME".  Stops at the first error
 *     (after a power cut: EIO) with "error NAME: WHAT: MESSAGE" and exit
 *     status 1, or after MAXFILES files with "done".
 *
 *   hdd-crash-load scatter FILE MIB
 *     Overwrites random 4 KiB blocks of the first MIB MiB of FILE
 *     (created sparse, never fsync()ed), one every millisecond, until an
 *     error: a background of small scattered writes the page cache
 *     writes back, slow for the drive to destage.
 *
 *   hdd-crash-load verify DIR LIST
 *     For every "synced" line of LIST: the file is there, of that size
 *     and checksum.  Prints a line per bad file and "verified N synced
 *     files, M bad"; exit status 1 if any is bad.
 *
 * Build: gcc -static -O2 -I. hdd-crash-load.c (see hdd.mk).
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "hotcold-flags.h"

#define MAX_SIZE (256 * 1024)

static uint64_t
fnv1a (const unsigned char *p, size_t n)
{
  uint64_t h = 0xcbf29ce484222325ULL;

  while (n--) {
    h ^= *p++;
    h *= 0x100000001b3ULL;
  }
  return h;
}

static uint64_t
xorshift (uint64_t *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

static int
do_write (const char *dir, long max)
{
  static unsigned char buf[MAX_SIZE];
  static const int hints[] = { O_HOT, O_COLD, 0 };
  static const char *const hint_names[] = { "hot", "cold", "none" };
  int dfd = open (dir, O_RDONLY | O_DIRECTORY);
  long i;

  if (dfd == -1) {
    printf ("error %s: open: %s\n", dir, strerror (errno));
    return 1;
  }
  for (i = 0; i < max; i++) {
    uint64_t seed = 0x9e3779b97f4a7c15ULL * (uint64_t) (i + 1);
    size_t size = 4096 + xorshift (&seed) % (MAX_SIZE - 4096 + 1);
    char name[32];
    size_t k;
    ssize_t w;
    int fd;

    snprintf (name, sizeof name, "f%05ld", i);
    for (k = 0; k < size; k += 8) {
      uint64_t v = xorshift (&seed);
      memcpy (buf + k, &v, size - k < 8 ? size - k : 8);
    }
    fd = openat (dfd, name, O_CREAT | O_EXCL | O_WRONLY | hints[i % 3],
                 0644);
    if (fd == -1) {
      printf ("error %s: open: %s\n", name, strerror (errno));
      return 1;
    }
    w = write (fd, buf, size);
    if (w != (ssize_t) size) {
      printf ("error %s: write: %s\n", name,
              w == -1 ? strerror (errno) : "short write");
      return 1;
    }
    if (i % 4 != 3) {
      if (fsync (fd) == -1) {
        printf ("error %s: fsync: %s\n", name, strerror (errno));
        return 1;
      }
      if (fsync (dfd) == -1) {
        printf ("error %s: fsync of the directory: %s\n", name,
                strerror (errno));
        return 1;
      }
      printf ("synced %s %zu %016" PRIx64 " %s\n", name, size,
              fnv1a (buf, size), hint_names[i % 3]);
    }
    else
      printf ("written %s\n", name);
    if (close (fd) == -1) {
      printf ("error %s: close: %s\n", name, strerror (errno));
      return 1;
    }
    fflush (stdout);
  }
  printf ("done\n");
  return 0;
}

static int
do_scatter (const char *file, long mib)
{
  static unsigned char buf[4096];
  uint64_t seed = 0x2545f4914f6cdd1dULL, blocks = (uint64_t) mib * 256;
  int fd = open (file, O_CREAT | O_WRONLY | O_COLD, 0644);

  if (fd == -1) {
    printf ("error %s: open: %s\n", file, strerror (errno));
    return 1;
  }
  for (;;) {
    uint64_t b = xorshift (&seed) % blocks;

    memset (buf, (int) (b & 0xff), sizeof buf);
    if (pwrite (fd, buf, sizeof buf, (off_t) (b * 4096)) != sizeof buf)
      break;
    usleep (1000);
  }
  close (fd);
  return 1;
}

static int
do_verify (const char *dir, const char *list)
{
  static unsigned char buf[MAX_SIZE + 1];
  char line[256], name[64], sum[32], hint[16], path[4096];
  FILE *fp = fopen (list, "r");
  long n = 0, bad = 0;

  if (fp == NULL) {
    fprintf (stderr, "hdd-crash-load: LIST=%s: %s\n", list, strerror (errno));
    return 2;
  }
  while (fgets (line, sizeof line, fp)) {
    size_t size;
    ssize_t r;
    int fd;

    if (sscanf (line, "synced %63s %zu %31s %15s", name, &size, sum,
                hint) != 4)
      continue;
    n++;
    snprintf (path, sizeof path, "%s/%s", dir, name);
    fd = open (path, O_RDONLY);
    if (fd == -1) {
      printf ("bad %s: %s\n", name, strerror (errno));
      bad++;
      continue;
    }
    r = read (fd, buf, sizeof buf);
    close (fd);
    if (r != (ssize_t) size) {
      printf ("bad %s: %zd bytes, synced with %zu\n", name, r, size);
      bad++;
      continue;
    }
    snprintf (path, sizeof path, "%016" PRIx64, fnv1a (buf, size));
    if (strcmp (path, sum) != 0) {
      printf ("bad %s: checksum %s, synced with %s\n", name, path, sum);
      bad++;
    }
  }
  fclose (fp);
  printf ("verified %ld synced files, %ld bad\n", n, bad);
  return bad ? 1 : 0;
}

int
main (int argc, char *argv[])
{
  setvbuf (stdout, NULL, _IOLBF, 0);
  if (argc == 4 && strcmp (argv[1], "write") == 0) {
    char *end;
    long max = strtol (argv[3], &end, 10);

    if (*end || max < 1) {
      fprintf (stderr, "hdd-crash-load: MAXFILES=%s: expected a whole "
               "number >= 1\n", argv[3]);
      return 2;
    }
    return do_write (argv[2], max);
  }
  if (argc == 4 && strcmp (argv[1], "scatter") == 0) {
    char *end;
    long mib = strtol (argv[3], &end, 10);

    if (*end || mib < 1 || mib > 65536) {
      fprintf (stderr, "hdd-crash-load: MIB=%s: expected 1 to 65536\n",
               argv[3]);
      return 2;
    }
    return do_scatter (argv[2], mib);
  }
  if (argc == 4 && strcmp (argv[1], "verify") == 0)
    return do_verify (argv[2], argv[3]);
  fprintf (stderr, "usage: hdd-crash-load write DIR MAXFILES\n"
           "       hdd-crash-load scatter FILE MIB\n"
           "       hdd-crash-load verify DIR LIST\n");
  return 2;
}
