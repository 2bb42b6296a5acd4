// SPDX-License-Identifier: GPL-2.0
/*
 * hc_otherfs LABEL DIR
 *
 * Filesystems without hot/cold support (tmpfs, ext2, ...) accept O_HOT and
 * O_COLD creates normally: the file is created, written data reads back,
 * O_TMPFILE works where the fs supports it.  Same on patched and stock.
 */
#include "hotcold_test.h"

static int roundtrip(const char *dir, const char *name, int flag)
{
	char path[700], buf[8192], want[8192];
	int fd, i;
	ssize_t r;

	for (i = 0; i < (int)sizeof(want); i++)
		want[i] = (char)(i * 31 + flag / O_HOT);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_CREAT | O_EXCL | O_RDWR | flag, 0644);
	if (fd < 0) {
		diag("open %s (%s): %s", path, flag_name(flag),
		     strerror(errno));
		return 0;
	}
	r = write(fd, want, sizeof(want));
	close(fd);
	if (r != (ssize_t)sizeof(want)) {
		diag("write %s: %s", path, strerror(errno));
		return 0;
	}
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	r = read(fd, buf, sizeof(buf));
	close(fd);
	if (r != (ssize_t)sizeof(buf) || memcmp(buf, want, sizeof(buf))) {
		diag("read back %s: %zd bytes, %s", path, r,
		     r == (ssize_t)sizeof(buf) ? "content differs" : "short");
		return 0;
	}
	return 1;
}

int main(int argc, char **argv)
{
	char prefix[48];
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: %s LABEL DIR\n", argv[0]);
		return 2;
	}
	snprintf(prefix, sizeof(prefix), "otherfs-%s", argv[1]);
	tap_init(prefix);
	tap_ok(roundtrip(argv[2], "of-hot", O_HOT),
	       "O_CREAT|O_HOT creates a file whose data reads back");
	tap_ok(roundtrip(argv[2], "of-cold", O_COLD),
	       "O_CREAT|O_COLD creates a file whose data reads back");
	tap_ok(roundtrip(argv[2], "of-none", 0),
	       "unhinted create works (reference)");
	fd = open(argv[2], O_TMPFILE | O_RDWR | O_HOT, 0600);
	if (fd < 0 && errno == EOPNOTSUPP)
		diag("O_TMPFILE not supported here (EOPNOTSUPP)");
	else
		tap_ok(fd >= 0, "O_TMPFILE|O_HOT works (%s)",
		       fd < 0 ? strerror(errno) : "ok");
	if (fd >= 0)
		close(fd);
	return tap_exit();
}
