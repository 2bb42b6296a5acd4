// SPDX-License-Identifier: GPL-2.0
/* A scripted NBD client (libnbd) for the write cache tests: one
 * connection, one request at a time, commands read from standard input,
 * one a line:
 *   write OFFSET LENGTH BYTE     LENGTH bytes of BYTE (0-255)
 *   fua OFFSET LENGTH BYTE       the same with NBD_CMD_FLAG_FUA
 *   flush
 *   read OFFSET LENGTH BYTE      read, and check every byte is BYTE
 *   say TEXT                     print TEXT and flush stdout
 * Each request prints "ok CMD OFFSET" or "error CMD OFFSET: MESSAGE"
 * (errno name included) and the client goes on.  Unlike qemu-io it reads
 * a line only when it needs it (a shell can hold it, send a signal to
 * the server, then go on) and it never flushes on its own: at the end
 * of input it disconnects without a flush.
 * Usage: hdd-nbdio URI <commands
 * Exit status: 0, or 1 if a read found other data, 2 on bad input.
 */

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <inttypes.h>
#include <string.h>
#include <errno.h>

#include <libnbd.h>

static void
result (int r, const char *cmd, uint64_t off)
{
  if (r == -1)
    printf ("error %s %" PRIu64 ": %s (%s)\n", cmd, off, nbd_get_error (),
            strerror (nbd_get_errno ()));
  else
    printf ("ok %s %" PRIu64 "\n", cmd, off);
  fflush (stdout);
}

int
main (int argc, char *argv[])
{
  struct nbd_handle *nbd;
  char line[1024], cmd[16];
  int status = 0, lineno = 0;

  if (argc != 2) {
    fprintf (stderr, "usage: %s URI <commands\n", argv[0]);
    return 2;
  }
  nbd = nbd_create ();
  if (nbd == NULL || nbd_connect_uri (nbd, argv[1]) == -1) {
    fprintf (stderr, "%s: %s\n", argv[0], nbd_get_error ());
    return 1;
  }
  while (fgets (line, sizeof line, stdin)) {
    uint64_t off = 0, len = 0;
    unsigned byte = 0;
    char *buf;
    int r;

    lineno++;
    if (strncmp (line, "say ", 4) == 0) {
      fputs (line + 4, stdout);
      fflush (stdout);
      continue;
    }
    if (sscanf (line, "%15s", cmd) != 1)
      continue;
    if (strcmp (cmd, "flush") == 0) {
      result (nbd_flush (nbd, 0), cmd, 0);
      continue;
    }
    if (sscanf (line, "%15s %" SCNu64 " %" SCNu64 " %u", cmd, &off, &len,
                &byte) != 4 || len == 0 || len > 64 * 1024 * 1024 ||
        byte > 255 ||
        (strcmp (cmd, "write") && strcmp (cmd, "fua") &&
         strcmp (cmd, "read"))) {
      fprintf (stderr, "%s: stdin:%d: '%.*s': expected write|fua|read "
               "OFFSET LENGTH BYTE, flush or say TEXT\n", argv[0], lineno,
               (int) strcspn (line, "\n"), line);
      return 2;
    }
    buf = malloc (len);
    if (buf == NULL) {
      perror ("malloc");
      return 1;
    }
    if (strcmp (cmd, "read") == 0) {
      r = nbd_pread (nbd, buf, len, off, 0);
      if (r == 0) {
        uint64_t i;

        for (i = 0; i < len && (unsigned char) buf[i] == byte; i++)
          ;
        if (i < len) {
          printf ("mismatch read %" PRIu64 ": byte %" PRIu64 " is %u, "
                  "not %u\n", off, off + i, (unsigned char) buf[i], byte);
          fflush (stdout);
          status = 1;
          free (buf);
          continue;
        }
      }
    }
    else {
      memset (buf, byte, len);
      r = nbd_pwrite (nbd, buf, len, off,
                      strcmp (cmd, "fua") == 0 ? LIBNBD_CMD_FLAG_FUA : 0);
    }
    result (r, cmd, off);
    free (buf);
  }
  nbd_close (nbd);              /* no flush, no NBD_CMD_DISC either */
  return status;
}
