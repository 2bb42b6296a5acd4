// SPDX-License-Identifier: GPL-2.0
/*
 * alloc_bench DIR MODE FILES ROUNDS [BYTES]
 *
 * Not a test: the cost of a small file's allocation.  Each round creates
 * FILES files in DIR with MODE's flag (none, hot or cold), writes BYTES
 * (default 65536) to each, fsyncs and closes it, then unlinks them all.
 * The first round is a warm-up and is not counted.  Prints one CSV line
 * (no header):
 *   mode,files,bytes,seconds,rate,sys_us_per_file
 * files   the files counted (FILES x (ROUNDS - 1))
 * seconds the counted rounds' wall time on CLOCK_MONOTONIC
 * rate    files per second
 * sys_us_per_file  the process's system CPU time per counted file (the
 *         kernel's share: allocation, journalling, writeback submission)
 */
#include "hotcold_test.h"
#include <time.h>
#include <sys/resource.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double sys_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static long parse_pos(const char *s, const char *what, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v <= 0 || v > max) {
		fprintf(stderr, "alloc_bench: bad %s '%s' (want 1..%ld)\n",
			what, s, max);
		exit(2);
	}
	return v;
}

/* one round: create, write, fsync, close FILES files, then unlink them */
static int round_once(const char *dir, int flag, long files, const char *buf,
		      long bytes)
{
	char path[600];
	long i;

	for (i = 0; i < files; i++) {
		int fd;

		snprintf(path, sizeof(path), "%s/a%ld", dir, i);
		fd = open(path, O_CREAT | O_EXCL | O_WRONLY | flag, 0644);
		if (fd < 0) {
			fprintf(stderr, "alloc_bench: create %s (%s): %s\n",
				path, flag_name(flag), strerror(errno));
			return -1;
		}
		if (write(fd, buf, bytes) != bytes || fsync(fd)) {
			fprintf(stderr, "alloc_bench: write+fsync %s: %s\n",
				path, strerror(errno));
			close(fd);
			return -1;
		}
		close(fd);
	}
	for (i = 0; i < files; i++) {
		snprintf(path, sizeof(path), "%s/a%ld", dir, i);
		if (unlink(path)) {
			fprintf(stderr, "alloc_bench: unlink %s: %s\n", path,
				strerror(errno));
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	long files, rounds, bytes = 65536, r;
	double t0, s0, secs, sys;
	const char *dir, *mode;
	struct stat st;
	char *buf;
	int flag;

	if (argc < 5 || argc > 6) {
		fprintf(stderr, "usage: %s DIR none|hot|cold FILES ROUNDS [BYTES]\n",
			argv[0]);
		return 2;
	}
	dir = argv[1];
	mode = argv[2];
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "alloc_bench: %s: not a directory\n", dir);
		return 2;
	}
	if (!strcmp(mode, "none")) {
		flag = 0;
	} else if (!strcmp(mode, "hot")) {
		flag = O_HOT;
	} else if (!strcmp(mode, "cold")) {
		flag = O_COLD;
	} else {
		fprintf(stderr, "alloc_bench: bad MODE '%s' (want none, hot or cold)\n",
			mode);
		return 2;
	}
	files = parse_pos(argv[3], "FILES", 1000000);
	rounds = parse_pos(argv[4], "ROUNDS", 1000);
	if (rounds < 2) {
		fprintf(stderr, "alloc_bench: ROUNDS must be at least 2 (the first is a warm-up)\n");
		return 2;
	}
	if (argc > 5)
		bytes = parse_pos(argv[5], "BYTES", 64L << 20);
	buf = malloc(bytes);
	if (!buf) {
		fprintf(stderr, "alloc_bench: no memory for %ld bytes\n", bytes);
		return 1;
	}
	memset(buf, 0x5a, bytes);

	if (round_once(dir, flag, files, buf, bytes))
		return 1;
	t0 = now();
	s0 = sys_seconds();
	for (r = 1; r < rounds; r++)
		if (round_once(dir, flag, files, buf, bytes))
			return 1;
	secs = now() - t0;
	sys = sys_seconds() - s0;
	printf("%s,%ld,%ld,%.6f,%.1f,%.1f\n", mode, files * (rounds - 1), bytes,
	       secs, secs > 0 ? (double)(files * (rounds - 1)) / secs : 0.0,
	       sys * 1e6 / (double)(files * (rounds - 1)));
	free(buf);
	return 0;
}
