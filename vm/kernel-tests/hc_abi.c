// SPDX-License-Identifier: GPL-2.0
/*
 * hc_abi DIR   (env KERNEL_FLAVOUR=patched|stock)
 *
 * O_HOT/O_COLD flag ABI in directory DIR (any filesystem):
 *  patched: open(O_CREAT|O_HOT|O_COLD) -> EINVAL, nothing created;
 *           openat2(O_CREAT|O_HOT) and (O_CREAT|O_COLD) succeed;
 *  stock:   open(O_CREAT|O_HOT|O_COLD) succeeds (unknown bits ignored);
 *           openat2(O_CREAT|O_HOT) -> EINVAL, nothing created;
 *  both:    openat2 with O_HOT|O_COLD or unknown bits -> EINVAL;
 *           openat2 with a hint but neither O_CREAT nor O_TMPFILE, or
 *           with O_PATH -> EINVAL; open() of an existing file with a
 *           hint and no O_CREAT succeeds (the hint is dropped);
 *           F_GETFL never shows O_HOT/O_COLD, F_SETFL cannot set them,
 *           /proc/self/fdinfo flags do not show them.
 */
#include "hotcold_test.h"
#include <sys/syscall.h>
#include <linux/openat2.h>

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

static int sys_openat2(int dfd, const char *path, uint64_t flags,
		       uint64_t mode)
{
	struct open_how how;

	memset(&how, 0, sizeof(how));
	how.flags = flags;
	how.mode = mode;
	return (int)syscall(SYS_openat2, dfd, path, &how, sizeof(how));
}

static int exists(const char *dir, const char *name)
{
	char p[768];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return stat(p, &st) == 0;
}

/* fdinfo "flags:" field (octal) */
static long fdinfo_flags(int fd)
{
	char p[64], buf[512];
	long v = -1;
	FILE *f;

	snprintf(p, sizeof(p), "/proc/self/fdinfo/%d", fd);
	f = fopen(p, "r");
	if (!f)
		return -1;
	while (fgets(buf, sizeof(buf), f))
		if (!strncmp(buf, "flags:", 6))
			v = strtol(buf + 6, NULL, 8);
	fclose(f);
	return v;
}

static void check_fd_flags(int fd, const char *how)
{
	int fl = fcntl(fd, F_GETFL);
	long fi = fdinfo_flags(fd);

	tap_ok(fl >= 0 && !(fl & (O_HOT | O_COLD)),
	       "%s: F_GETFL does not report O_HOT/O_COLD (0%o)", how, fl);
	tap_ok(fi >= 0 && !(fi & (O_HOT | O_COLD)),
	       "%s: /proc/self/fdinfo flags do not report them (0%lo)", how,
	       fi);
}

int main(int argc, char **argv)
{
	const char *dir;
	char p[768];
	int patched, dfd, fd, e;
	static const uint64_t unknown[] = {
		1ULL << 29, 1ULL << 30, 1ULL << 31, 1ULL << 32, 1ULL << 63,
	};
	unsigned int i;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	dir = argv[1];
	tap_init("abi");
	patched = is_patched_flavour();
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (dfd < 0)
		tap_bail("open dir %s: %s", dir, strerror(errno));

	tap_ok(O_HOT == 0x08000000 && O_COLD == 0x10000000,
	       "O_HOT=%#x O_COLD=%#x as fixed by the ABI", O_HOT, O_COLD);

	/* open() with both */
	snprintf(p, sizeof(p), "%s/abi-both", dir);
	errno = 0;
	fd = open(p, O_CREAT | O_WRONLY | O_HOT | O_COLD, 0644);
	e = errno;
	if (patched) {
		tap_ok(fd < 0 && e == EINVAL,
		       "open(O_CREAT|O_HOT|O_COLD) fails with EINVAL (fd %d, "
		       "errno %d %s)", fd, e, strerror(e));
		tap_ok(!exists(dir, "abi-both"),
		       "open(O_CREAT|O_HOT|O_COLD) created nothing");
	} else {
		tap_ok(fd >= 0, "stock: open(O_CREAT|O_HOT|O_COLD) succeeds, "
		       "unknown bits ignored (errno %d %s)", fd < 0 ? e : 0,
		       fd < 0 ? strerror(e) : "-");
		tap_ok(exists(dir, "abi-both"),
		       "stock: open(O_CREAT|O_HOT|O_COLD) created the file");
	}
	if (fd >= 0) {
		check_fd_flags(fd, "open(O_HOT|O_COLD)");
		close(fd);
	}
	/* openat() too */
	errno = 0;
	fd = openat(dfd, "abi-both-at", O_CREAT | O_WRONLY | O_HOT | O_COLD,
		    0644);
	e = errno;
	if (patched)
		tap_ok(fd < 0 && e == EINVAL && !exists(dir, "abi-both-at"),
		       "openat(O_CREAT|O_HOT|O_COLD) -> EINVAL, nothing "
		       "created (errno %d)", e);
	else
		tap_ok(fd >= 0, "stock: openat(O_CREAT|O_HOT|O_COLD) succeeds");
	if (fd >= 0)
		close(fd);

	/* open() with one flag: always works */
	fd = open(p, O_CREAT | O_WRONLY | O_TRUNC | O_HOT, 0644);
	tap_ok(fd >= 0, "open(O_CREAT|O_HOT) succeeds (%s)",
	       fd < 0 ? strerror(errno) : "ok");
	if (fd >= 0) {
		check_fd_flags(fd, "open(O_HOT)");
		/* F_SETFL cannot set them */
		tap_ok(fcntl(fd, F_SETFL, O_HOT | O_COLD) == 0 ||
		       errno == EINVAL, "fcntl(F_SETFL, O_HOT|O_COLD) returns "
		       "0 or EINVAL");
		check_fd_flags(fd, "after F_SETFL(O_HOT|O_COLD)");
		close(fd);
	}
	fd = openat(dfd, "abi-cold", O_CREAT | O_WRONLY | O_COLD, 0644);
	tap_ok(fd >= 0, "openat(O_CREAT|O_COLD) succeeds (%s)",
	       fd < 0 ? strerror(errno) : "ok");
	if (fd >= 0) {
		check_fd_flags(fd, "openat(O_COLD)");
		close(fd);
	}

	/* openat2 */
	errno = 0;
	fd = sys_openat2(dfd, "abi2-hot", O_CREAT | O_WRONLY | O_HOT, 0644);
	e = errno;
	if (patched) {
		tap_ok(fd >= 0, "openat2(O_CREAT|O_HOT) succeeds (errno %d %s)",
		       fd < 0 ? e : 0, fd < 0 ? strerror(e) : "-");
		if (fd >= 0)
			check_fd_flags(fd, "openat2(O_HOT)");
	} else {
		tap_ok(fd < 0 && e == EINVAL,
		       "stock: openat2(O_CREAT|O_HOT) fails with EINVAL (fd %d "
		       "errno %d %s)", fd, e, strerror(e));
		tap_ok(!exists(dir, "abi2-hot"),
		       "stock: openat2(O_CREAT|O_HOT) created nothing");
	}
	if (fd >= 0)
		close(fd);
	errno = 0;
	fd = sys_openat2(dfd, "abi2-cold", O_CREAT | O_WRONLY | O_COLD, 0644);
	e = errno;
	if (patched)
		tap_ok(fd >= 0, "openat2(O_CREAT|O_COLD) succeeds (errno %d)",
		       fd < 0 ? e : 0);
	else
		tap_ok(fd < 0 && e == EINVAL && !exists(dir, "abi2-cold"),
		       "stock: openat2(O_CREAT|O_COLD) -> EINVAL, nothing "
		       "created (errno %d)", e);
	if (fd >= 0)
		close(fd);
	/* openat2 with O_TMPFILE */
	errno = 0;
	fd = sys_openat2(dfd, ".", O_TMPFILE | O_RDWR | O_COLD, 0600);
	e = errno;
	if (patched)
		tap_ok(fd >= 0, "openat2(O_TMPFILE|O_COLD) succeeds (errno %d "
		       "%s)", fd < 0 ? e : 0, fd < 0 ? strerror(e) : "-");
	else
		tap_ok(fd < 0 && e == EINVAL,
		       "stock: openat2(O_TMPFILE|O_COLD) -> EINVAL (errno %d)",
		       e);
	if (fd >= 0) {
		check_fd_flags(fd, "openat2(O_TMPFILE|O_COLD)");
		close(fd);
	}
	/* open() too: the hint reaches ->tmpfile(), never f_flags */
	fd = open(dir, O_TMPFILE | O_RDWR | O_HOT, 0600);
	tap_ok(fd >= 0, "open(O_TMPFILE|O_HOT) succeeds (%s)",
	       fd < 0 ? strerror(errno) : "ok");
	if (fd >= 0) {
		check_fd_flags(fd, "open(O_TMPFILE|O_HOT)");
		close(fd);
	}

	errno = 0;
	fd = sys_openat2(dfd, "abi2-both", O_CREAT | O_WRONLY | O_HOT | O_COLD,
			 0644);
	e = errno;
	tap_ok(fd < 0 && e == EINVAL && !exists(dir, "abi2-both"),
	       "openat2(O_CREAT|O_HOT|O_COLD) -> EINVAL, nothing created (fd "
	       "%d errno %d)", fd, e);
	if (fd >= 0)
		close(fd);

	for (i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		char name[32];

		snprintf(name, sizeof(name), "abi2-unk%u", i);
		errno = 0;
		fd = sys_openat2(dfd, name, O_CREAT | O_WRONLY | unknown[i],
				 0644);
		e = errno;
		tap_ok(fd < 0 && e == EINVAL && !exists(dir, name),
		       "openat2(O_CREAT|%#llx) (unknown bit) -> EINVAL, nothing "
		       "created (fd %d errno %d)",
		       (unsigned long long)unknown[i], fd, e);
		if (fd >= 0)
			close(fd);
	}
	/*
	 * The hints mean nothing when no file is created: openat2() refuses
	 * them on an existing file and with O_PATH (on both kernels: stock
	 * refuses the unknown bits), open() drops them.
	 */
	errno = 0;
	fd = sys_openat2(dfd, "abi-cold", O_RDONLY | O_HOT, 0);
	e = errno;
	tap_ok(fd < 0 && e == EINVAL, "openat2(O_RDONLY|O_HOT) of an existing "
	       "file, no O_CREAT -> EINVAL (fd %d errno %d)", fd, e);
	if (fd >= 0)
		close(fd);
	errno = 0;
	fd = sys_openat2(dfd, "abi-cold", O_WRONLY | O_COLD, 0);
	e = errno;
	tap_ok(fd < 0 && e == EINVAL, "openat2(O_WRONLY|O_COLD) of an existing "
	       "file, no O_CREAT -> EINVAL (fd %d errno %d)", fd, e);
	if (fd >= 0)
		close(fd);
	errno = 0;
	fd = sys_openat2(dfd, "abi-cold", O_PATH | O_HOT, 0);
	e = errno;
	tap_ok(fd < 0 && e == EINVAL, "openat2(O_PATH|O_HOT) -> EINVAL (fd %d "
	       "errno %d)", fd, e);
	if (fd >= 0)
		close(fd);
	errno = 0;
	fd = openat(dfd, "abi-cold", O_RDONLY | O_HOT);
	e = errno;
	tap_ok(fd >= 0, "open(O_RDONLY|O_HOT) of an existing file succeeds, "
	       "the hint dropped (errno %d)", fd < 0 ? e : 0);
	if (fd >= 0) {
		check_fd_flags(fd, "open(O_RDONLY|O_HOT)");
		close(fd);
	}
	close(dfd);
	return tap_exit();
}
