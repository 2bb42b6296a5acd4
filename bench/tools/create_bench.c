// SPDX-License-Identifier: GPL-2.0
/*
 * create_bench DIR [FILES [ROUNDS]]
 *
 * Not a test: measures create()+close()+unlink() throughput for O_HOT,
 * O_COLD and no flag in one run.  Each round creates FILES empty files
 * per mode then unlinks them; the mode order rotates every round so no
 * mode always runs first.  Prints one CSV line per mode (no header):
 *   mode,files,seconds,rate
 * files = total files created for that mode, seconds = total time spent
 * in its create+unlink phases, rate = files/seconds.
 */
#include "hotcold_test.h"
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long parse_pos(const char *s, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v <= 0 || v > 10000000) {
		fprintf(stderr, "create_bench: bad %s '%s' (want 1..10000000)\n",
			what, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	static const int flags[3] = { 0, O_HOT, O_COLD };
	double secs[3] = { 0, 0, 0 };
	long files = 2000, rounds = 5, r, i;
	const char *dir;
	char path[600];
	struct stat st;
	int m, k;

	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: %s DIR [FILES [ROUNDS]]\n", argv[0]);
		return 2;
	}
	dir = argv[1];
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "create_bench: %s: not a directory\n", dir);
		return 2;
	}
	if (argc > 2)
		files = parse_pos(argv[2], "FILES");
	if (argc > 3)
		rounds = parse_pos(argv[3], "ROUNDS");

	for (r = 0; r < rounds; r++) {
		for (k = 0; k < 3; k++) {
			double t0;

			m = (int)((k + r) % 3);
			t0 = now();
			for (i = 0; i < files; i++) {
				int fd;

				snprintf(path, sizeof(path), "%s/b%ld", dir, i);
				fd = open(path, O_CREAT | O_EXCL | O_WRONLY |
					  flags[m], 0644);
				if (fd < 0) {
					fprintf(stderr, "create_bench: create "
						"%s (%s): %s\n", path,
						flag_name(flags[m]),
						strerror(errno));
					return 1;
				}
				close(fd);
			}
			for (i = 0; i < files; i++) {
				snprintf(path, sizeof(path), "%s/b%ld", dir, i);
				if (unlink(path)) {
					fprintf(stderr, "create_bench: unlink "
						"%s: %s\n", path,
						strerror(errno));
					return 1;
				}
			}
			secs[m] += now() - t0;
		}
	}
	for (m = 0; m < 3; m++)
		printf("%s,%ld,%.6f,%.1f\n", flag_name(flags[m]),
		       files * rounds, secs[m],
		       secs[m] > 0 ? (double)(files * rounds) / secs[m] : 0.0);
	return 0;
}
